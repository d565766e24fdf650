// @ts-check
// Online play's controller (protocol 2: no referee). Each page's engine keeps
// its own seat's side of the game (py_engine/service/online/peer.py): the
// cards its player may see, the signed transcript of both, and a check of
// every move the other page sends. This module only moves texts: what the
// engine answers in "send" goes over the channel unchanged, what comes over
// the channel goes to the engine unchanged, and each answer is drawn (the
// seat's view, the status on the bar, the chat, and every end of a match in
// words).
//
// A connection is made by the lobby (game/online-lobby.js: an invitation
// link and answer code, or a room code) with the transport of web/online/.
// Seat 0 opened the room; its engine's first message is the room's offer
// (rules and name), which the joining page's engine reads before its player
// accepts.

import { OnlineError } from "../online/errors.js";
import { keepDamagedCopy, SAVED_ONLINE_GAME_KEY } from "../platform/damage.js";
import { t } from "../platform/i18n.js";
import { myIdentity, signingKey } from "../platform/identity.js";
import { noteOnlineResult } from "../platform/online-stats.js";
import { keepSignedResult } from "../platform/signed-results.js";
import { clearOnline, renderOnline } from "../table/online-bar.js";
import { draw, notify, show } from "./draw.js";
import { playFrames } from "./frames.js";
import { adoptTable, ask, cancelAi, run } from "./loop.js";
import { followVoice, isVoiceSignal, localVoice, stopVoice, voiceSignal } from "./online-voice.js";
import { clone, state } from "./state.js";

/** @import { Channel } from "../online/channel.js" */
/** @import { EngineError } from "../engine/engine-client.js" */
/** @import { ChatLine, PeerAnswer, PeerRoom, PeerStatus, Seating, TableAnswer } from "../../types/engine.js" */
/**
 * The online game in play: which side this browser is (the host opened the room: seat 0), the engine's session
 * (null until both browsers met and, for the guest, until its player accepted the room), the channel (null while
 * disconnected), how the two met (to meet again) and what the bar shows. The host keeps the room it ``offer``s;
 * the guest the ``room`` its engine read, and the offer's text (``offerText``) it joins with. ``drawn`` and ``shown``
 * are the last view and answer drawn (an answer that changes nothing is not drawn again).
 * @typedef {{
 *   side: "host" | "guest",
 *   session: string | null,
 *   channel: Channel | null,
 *   via: "link" | "room",
 *   roomCode: string | null,
 *   status: PeerStatus | null,
 *   chat: ChatLine[],
 *   unread: number,
 *   problems: string[],
 *   room: PeerRoom | null,
 *   offer: {preset: string, rules: Record<string, unknown>, name: string} | null,
 *   identities: [string, string] | null,
 *   said: string,
 *   drawn: string,
 *   offerText: string,
 *   onLost: ((side: "host" | "guest") => void) | null,
 *   pending: string[],
 *   met: boolean,
 *   dropped: number,
 *   unsaid: number,
 *   shown: string,
 * }} Online
 */

/** The matches counted in the statistics (the latest few), so that a reload never counts one twice. */
const COUNTED_KEY = "sixty-six.online-counted.v1";
const COUNTED_KEPT = 40;
/** How often the page tells its engine the time (a pause running out, an absence, the next pack in idle time). */
const TICK_MS = 1000;

/** @type {Online | null} */
let online = null;
/** @type {ReturnType<typeof setInterval> | undefined} */
let ticker;
/** Messages from the channel and this player's intentions, answered one at a time in order. */
let inbox = Promise.resolve();
/** Texts from the other page waiting in the inbox; beyond INBOX_MAX more are dropped unread. */
let waiting = 0;
const INBOX_MAX = 100;

/**
 * Run ``task`` after everything queued before it. A failure is said in words and the queue goes on:
 * a refused request changes nothing, and every later message must not wait for ever.
 * @param {() => unknown} task
 */
function queue(task) {
  inbox = inbox
    .then(async () => {
      await task();
    })
    .catch((error) => notify(t("notice.error", { detail: String(error?.message || error) })));
  return inbox;
}

/** The online game in play, if any (the lobby and the bar read it). */
export function currentOnline() {
  return online;
}

/** Draw the bar and the chat of the online game in play. @param {Online} game */
function redraw(game) {
  renderOnline(game, game.side === "host" ? 0 : 1, Boolean(game.status?.ending), localVoice());
}

/** Voice follows the engine's status (a call on only once both accepted). @param {Online} game */
function followStatus(game) {
  followVoice(game, () => online === game && redraw(game));
}

/** The online game takes the table (a puzzle on it goes, and is no longer kept for a reload). @param {Online} game */
function adopt(game) {
  state.puzzle?.close();
  online = game;
  state.online = { perform: performOnline, leave: leaveOnline };
  clearInterval(ticker);
  ticker = setInterval(() => tick(game), TICK_MS);
  draw(); // an empty table until the game's first deal is dealt
  return game;
}

/** The online seating the page draws with (names from the engine's status). @param {PeerStatus | null} status */
function seatingOf(status) {
  return /** @type {Seating} */ ({
    mode: "online",
    ranked: false,
    names: status ? status.names.map((name) => name ?? "") : null,
    levels: [null, null],
    assisted: false,
  });
}

/**
 * @param {"host" | "guest"} side
 * @param {"link" | "room"} via
 * @returns {Online}
 */
function blank(side, via) {
  return {
    side,
    session: null,
    channel: null,
    via,
    roomCode: null,
    status: null,
    chat: [],
    unread: 0,
    problems: [],
    room: null,
    offer: null,
    identities: null,
    said: "",
    drawn: "",
    offerText: "",
    onLost: null,
    pending: [],
    met: false,
    dropped: 0,
    unsaid: 0,
    shown: "",
  };
}

/** The game against the computer stays saved; the table shows the online game from now on (empty until dealt). */
function leaveGameInPlay() {
  cancelAi();
  state.view = null;
  state.model = null;
  state.hint = null;
  state.may = {};
}

/**
 * Start hosting: the room's rules (from the settings) and this player's name wait for a guest's browser.
 * @param {{preset: string, rules: Record<string, unknown>, name: string, via: "link" | "room"}} how
 */
export async function hostOnline(how) {
  await ask({ cmd: "check_rules", preset: how.preset, rules: how.rules }); // refused in words before anyone waits
  if (online) await leaveOnline();
  leaveGameInPlay();
  const game = adopt(blank("host", how.via));
  game.offer = { preset: how.preset, rules: how.rules, name: how.name };
  redraw(game);
  return game;
}

/** This browser's key for its engine to sign with (the identity's private key). */
async function keyArgs() {
  return { key: await signingKey(), now: Date.now() };
}

/**
 * A browser proved ``identity`` on a new channel of ``game``: may it go on as the other player? A game's other
 * player stays the browser that joined it (the engine refuses any other: the OnlineError ``not_the_player``). A
 * host whose room no guest has joined yet offers it to this one.
 * @param {Online} game
 * @param {string} identity
 */
export async function admitPeer(game, identity) {
  if (game.session && game.side === "host" && !game.status?.joined) {
    await closeSession(game); // the guest before never joined: the room is offered afresh
  }
  if (game.session) {
    try {
      await ask({ cmd: "peer_show", session: game.session });
      if (game.identities && game.identities[game.side === "host" ? 1 : 0] !== identity) {
        throw new OnlineError("not_the_player", t("online.error.not_the_player"));
      }
    } catch (error) {
      throw notThePlayer(error);
    }
    return;
  }
  if (game.side !== "host" || !game.offer) return;
  const mine = await myIdentity();
  game.identities = [mine, identity];
  const answer = await ask({
    cmd: "peer_open",
    seat: 0,
    preset: game.offer.preset,
    rules: game.offer.rules,
    name: game.offer.name,
    identities: game.identities,
    ...(await keyArgs()),
  });
  game.session = answer.session;
  game.pending = [...answer.send]; // the offer, sent once the channel is taken
  game.met = false;
  game.status = answer.status;
}

/** @param {Online} game */
async function closeSession(game) {
  const session = game.session;
  game.session = null;
  game.status = null;
  game.pending = [];
  if (session) await ask({ cmd: "peer_close", session }).catch(() => {});
}

/** The engine's refusal of a browser that is not the game's other player, as an OnlineError. @param {unknown} error */
function notThePlayer(error) {
  if (error instanceof OnlineError) return error;
  const refused = /** @type {EngineError} */ (error);
  return refused?.code === "not_the_player" ? new OnlineError("not_the_player", refused.message) : error;
}

/**
 * Become the guest of a connected host: its first message is the room's offer (rules and name, signed by the
 * browser that proved ``identity`` on this channel: the engine checks), shown before joining.
 * @param {Channel} channel
 * @param {"link" | "room"} via
 * @param {string | null} roomCode
 * @param {string} identity the host's, as its browser proved it
 * @returns {Promise<PeerRoom>}
 */
export function guestOnline(channel, via, roomCode, identity) {
  return new Promise((resolve, reject) => {
    channel.onmessage = (value) => {
      if (typeof value !== "string") return; // only the offer opens a game
      channel.onmessage = null;
      myIdentity()
        .then(async (mine) => {
          /** @type {[string, string]} */
          const identities = [identity, mine];
          const { room } = await ask({ cmd: "peer_offer", offer: value, identities });
          if (online) await leaveOnline();
          leaveGameInPlay();
          const game = adopt(blank("guest", via));
          game.roomCode = roomCode;
          game.room = room;
          game.identities = identities;
          game.offerText = value;
          game.channel = channel;
          game.met = true;
          listen(game, channel);
          redraw(game);
          resolve(room);
        })
        .catch((error) => reject(notThePlayer(error)));
    };
  });
}

/**
 * The guest accepts the room's rules and joins under ``name``.
 * @param {string} name
 */
export async function joinRoomAsGuest(name) {
  const game = /** @type {Online} */ (online);
  const answer = await ask({
    cmd: "peer_open",
    seat: 1,
    offer: game.offerText,
    name,
    identities: /** @type {[string, string]} */ (game.identities),
    ...(await keyArgs()),
  });
  game.session = answer.session;
  await took(game, answer);
}

/**
 * A channel to the other browser is open: carry messages both ways (again, after a reconnect).
 * @param {Channel} channel
 */
export function attach(channel) {
  const game = /** @type {Online} */ (online);
  const again = game.met && Boolean(game.session);
  game.channel = channel;
  game.met = true;
  listen(game, channel);
  const pending = game.pending;
  game.pending = [];
  if (!again) sendAll(pending); // else the chains' hellos resend whatever the other lacks, in order
  if (again) {
    // Back after a lost connection or a reload: each side sends what the other lacks, from its own chain.
    queue(async () => {
      if (!game.session) return;
      await took(game, await ask({ cmd: "peer_connection", session: game.session, up: true, now: Date.now() }));
    });
  }
  redraw(game);
}

/**
 * @param {Online} game
 * @param {Channel} channel
 */
function listen(game, channel) {
  channel.onmessage = (value) => {
    // A flood from a changed page is dropped here, before the engine: this player's own moves, queued behind it,
    // must not wait. An honest page never has this many texts waiting; one dropped would be asked for again.
    if (waiting >= INBOX_MAX) {
      game.dropped += 1;
      game.unsaid += 1;
      return;
    }
    waiting += 1;
    const done = () => {
      waiting -= 1;
    };
    // In order with the engine's messages: a call's offer comes after the status that put the call on.
    if (isVoiceSignal(value)) queue(() => voiceSignal(value).finally(done));
    else queue(() => received(game, value).finally(done));
  };
  channel.closed.then((reason) => {
    if (online !== game || game.channel !== channel) return;
    game.channel = null;
    stopVoice();
    queue(() => connectionLost(game, reason?.code || "connection_lost"));
  });
}

/**
 * Messages for the other browser (the engine's "send"), in order.
 * @param {string[]} texts
 */
function sendAll(texts) {
  const game = online;
  if (!game) return;
  for (const text of texts) {
    if (game.channel?.isOpen) game.channel.send(text);
    else game.pending.push(text);
  }
}

/**
 * A message from the other browser: to the engine, then draw and send what it answers.
 * @param {Online} game
 * @param {unknown} value
 */
async function received(game, value) {
  if (online !== game || !game.session) return; // a guest that has not joined yet reads nothing more
  await took(game, await ask({ cmd: "peer_receive", session: game.session, message: value, now: Date.now() }));
}

/**
 * The engine answered: send its messages, show the chat, the status and the seat's view, and say how the match
 * ended.
 * @param {Online} game
 * @param {PeerAnswer} answer
 */
async function took(game, answer) {
  if (online !== game) return;
  const drawn = JSON.stringify(answer.view);
  const shown = drawn + JSON.stringify([{ ...answer.status, now: 0 }, answer.chat.length, answer.finished]);
  if (!answer.send.length && !answer.refused && shown === game.shown) return; // a tick that changed nothing
  game.shown = shown;
  sendAll(answer.send);
  if (answer.finished) ended(game, answer.finished); // the match before the rematch that starts now
  const before = game.chat.length;
  game.chat = answer.chat;
  game.unread += answer.chat.slice(before).filter((line) => line.seat !== seatOf(game)).length;
  game.status = answer.status;
  for (const certificate of [answer.finished?.certificate, answer.status.certificate]) {
    if (certificate) keepSignedResult(certificate); // for the lobby's rating (once per match)
  }
  if (answer.refused) refused(game, answer.refused);
  const view = answer.view;
  if (view && drawn !== game.drawn) {
    game.drawn = drawn;
    const table = /** @type {TableAnswer} */ ({ view, may: {}, handover: null, seating: seatingOf(answer.status) });
    await run(async () => {
      await playFrames(answer.frames, view);
      adoptTable(table);
    });
  }
  ended(game, answer.status);
  followStatus(game);
  redraw(game);
  draw();
}

/** @param {Online} game */
function seatOf(game) {
  return game.side === "host" ? 0 : 1;
}

/**
 * The engine refused a message of the other page (it changed nothing). A proven cheat ends the match and is said
 * with the result; the rest in words once each.
 * @param {Online} game
 * @param {{code: string, message: string}} refusal
 */
function refused(game, refusal) {
  if (refusal.code === "cheat" || refusal.code === "repeated") return; // a link sent again changes nothing
  const words =
    refusal.code === "other_version"
      ? t("online.otherVersion")
      : refusal.code === "rate_limited"
        ? t("online.flooded")
        : t("online.refused", { detail: refusal.message });
  if (game.problems.at(-1) === words) return;
  game.problems = [...game.problems, words].slice(-5);
  notify(words);
}

/**
 * A match's end, said in words on both pages (once), and counted: a result both signed in the statistics, an end
 * only this page signed (the other away, or caught cheating) as one-sided.
 * @param {Online} game
 * @param {PeerStatus} status
 */
function ended(game, status) {
  const ending = status.ending;
  const seat = seatOf(game);
  const name = status.names[1 - seat] || t("online.chat.them");
  const accused = status.accused;
  if (!ending && !accused) return;
  const words = endWords(status, seat, name);
  const key = `${status.match} ${words}`;
  if (game.said !== key) {
    game.said = key;
    notify(words);
  }
  const agreed = status.result;
  const counted = countedMatches();
  const oneSided = `${status.match} one-sided`;
  if (counted.includes(status.match) || !ending) return;
  if (!agreed && (counted.includes(oneSided) || !["time", "cheat"].includes(ending.reason))) return;
  markCounted(agreed ? status.match : oneSided);
  const result = agreed ?? ending;
  const how = result.reason === "conceded" ? "resigned" : result.reason;
  const wasOneSided = Boolean(agreed) && counted.includes(oneSided); // the other signed it since
  noteOnlineResult({ winner: result.winner, how, seat, opponent: name, oneSided: !agreed, wasOneSided });
}

/** The matches counted in the statistics already (kept across reloads), as ids; "<id> one-sided" too. */
function countedMatches() {
  try {
    const list = JSON.parse(localStorage.getItem(COUNTED_KEY) || "[]");
    return Array.isArray(list) ? list.filter((tag) => typeof tag === "string") : [];
  } catch {
    return [];
  }
}

/** @param {string} tag */
function markCounted(tag) {
  try {
    localStorage.setItem(COUNTED_KEY, JSON.stringify([...countedMatches(), tag].slice(-COUNTED_KEPT)));
  } catch {
    // storage full or disabled: counted for this visit only (it may count again after a reload)
  }
}

/**
 * @param {PeerStatus} status
 * @param {number} seat
 * @param {string} name the other player's
 */
function endWords(status, seat, name) {
  const ending = status.ending;
  if (!ending) return t("online.end.accused", { name, detail: status.accused?.what ?? "" });
  const won = ending.winner === seat;
  const unsigned = status.result ? "" : ` ${t("online.end.unsigned", { name })}`;
  switch (ending.reason) {
    case "conceded":
      return won ? t("online.end.theyConceded", { name }) : t("online.end.youConceded", { name });
    case "time":
      return won ? t("online.end.theyTime", { name }) + unsigned : t("online.end.youTime", { name });
    case "cheat":
      return t("online.end.theyCheated", { name, detail: status.cheat?.what ?? "" }) + unsigned;
    case "abandoned":
      return t("online.end.abandoned");
    default:
      return ending.winner === null
        ? t("online.end.abandoned")
        : won
          ? t("online.end.youWon", { name })
          : t("online.end.theyWon", { name });
  }
}

/**
 * Time passes on this page: the engine decides what it means (a pause run out, the other away too long).
 * @param {Online} game
 */
function tick(game) {
  if (online !== game || !game.session) return;
  const now = Date.now(); // when the tick came, not when its turn in the queue comes: the engine reads a gap as sleep
  queue(async () => {
    if (online !== game || !game.session) return;
    const dropped = game.unsaid; // the engine asks the other again for a link that was among them
    game.unsaid = 0;
    await took(game, await ask({ cmd: "peer_tick", session: game.session, now, dropped }));
  });
}

/**
 * The channel closed: the engine starts its clock (60 s to come back), and the lobby tries to meet again.
 * @param {Online} game
 * @param {string} code why (the transport's error code)
 */
async function connectionLost(game, code) {
  if (online !== game) return;
  if (game.session) {
    await took(game, await ask({ cmd: "peer_connection", session: game.session, up: false, now: Date.now() }));
  }
  redraw(game);
  if (code !== "closed") game.onLost?.(game.side);
}

/**
 * Your move at an online table (loop.js hands it over in online mode).
 * @param {string} action
 */
export function performOnline(action) {
  intend({ t: "act", action });
}

/** The engine's command for each intention of the player. */
const COMMANDS = /** @type {const} */ ({
  act: "peer_act",
  chat: "peer_say",
  show_cards: "peer_show_cards",
  pause: "peer_pause",
  back: "peer_back",
  resign: "peer_concede",
  rematch: "peer_rematch",
  voice: "peer_voice",
});

/**
 * Something you mean to do: a move, show your cards, pause, back, resign, rematch, a chat line, a voice step.
 * Refused in words if the moment or the rules do not allow it (nothing changes).
 * @param {{t: keyof typeof COMMANDS} & Record<string, unknown>} intent
 */
export function intend(intent) {
  const game = online;
  if (!game?.session) return Promise.resolve();
  const { t: what, ...args } = intent;
  return queue(async () => {
    if (!game.session) return;
    await took(game, await ask({ cmd: COMMANDS[what], session: game.session, ...args, now: Date.now() }));
  });
}

/**
 * Report: the signed transcript of this match and the chat, as a file anyone can check
 * (``python -m lab.verify_match FILE``, or "Check a report" in the online dialog).
 * @returns {Promise<{name: string, text: string} | null>}
 */
export async function reportOnline() {
  const game = online;
  if (!game?.session) return null;
  const { report } = await ask({ cmd: "peer_report", session: game.session });
  const stamp = new Date().toISOString().slice(0, 19).replace(/[:T]/g, "-");
  return { name: `sixty-six-report-${stamp}.json`, text: JSON.stringify(report) };
}

/**
 * Check a report file: the engine replays it and says what it proves.
 * @param {string} text the file's text
 * @returns {Promise<string>} the verdict in words
 */
export async function checkReport(text) {
  let report;
  try {
    report = JSON.parse(text);
  } catch {
    return t("online.report.notJson");
  }
  const answer = await ask({ cmd: "peer_verify_report", report });
  return answer.words.join(" ");
}

/** Leave the online game: close the channel and the engine's session (the saved online game goes). */
export async function leaveOnline() {
  const game = online;
  if (!game) return;
  online = null;
  state.online = null;
  clearInterval(ticker);
  stopVoice();
  game.channel?.close();
  if (game.session) {
    try {
      await ask({ cmd: "peer_close", session: game.session });
    } catch {
      // already gone
    }
  }
  if (!online) clearOnline(); // (a new online game begun meanwhile keeps its bar)
}

/** Leave the online game and show your own game again (it stayed saved), unless a new online game began
 * meanwhile (the player went straight to another invitation): its table stays. */
export async function backToOwnGame() {
  await leaveOnline();
  if (online) return;
  if (!state.game) {
    draw();
    return;
  }
  await run(async () => {
    const answer = await ask({ cmd: "table_show", table: state.game });
    if (online) return;
    adoptTable(answer);
    if (answer.view) await show(clone(answer.view));
  });
}

/**
 * A saved online game after a reload: the engine rebuilds it from its transcript (a page away too long has lost
 * on time, and learns it when the other's result comes).
 * @returns {Promise<Online | null>}
 */
export async function resumeOnline() {
  const client = state.client;
  if (!client) return null;
  let key;
  try {
    key = await signingKey();
  } catch {
    return null; // no identity here (storage cleared): the game cannot be signed for
  }
  const saved = await client.resumeOnline(Date.now(), key);
  if (saved.resumed !== "restored") {
    if (saved.resumed === "corrupt") {
      keepDamagedCopy(SAVED_ONLINE_GAME_KEY, saved.damaged);
      notify(t("notice.restoreFailed", { detail: saved.message }));
    }
    return null;
  }
  leaveGameInPlay();
  const game = adopt(blank(saved.status.seat === 0 ? "host" : "guest", "room"));
  game.session = saved.session;
  game.identities = saved.status.identities;
  game.met = true;
  await took(game, saved);
  return game;
}
