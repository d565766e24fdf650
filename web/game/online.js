// @ts-check
// Online play's controller: the engine decides, the channel carries, the page
// draws. The host's engine holds the table (online_* commands of
// py_engine/service/online/); the guest's engine checks every message from
// the host and the host itself. This module only moves the messages: what
// the engine answers in "send" goes over the channel unchanged, what comes
// over the channel goes to the engine unchanged, and each answer is drawn
// like a table's answer (frames, then the view).
//
// A connection is made by the lobby (screens/online-lobby.js: an invitation
// link and answer code, or a room code) with the transport of web/online/.

import { OnlineError } from "../online/errors.js";
import { t } from "../platform/i18n.js";
import { noteOnlineResult } from "../platform/online-stats.js";
import { clearOnline, renderOnline } from "../table/online-bar.js";
import { draw, notify } from "./draw.js";
import { playFrames } from "./frames.js";
import { adoptTable, ask, cancelAi, run } from "./loop.js";
import { followVoice, isVoiceSignal, localVoice, stopVoice, voiceSignal } from "./online-voice.js";
import { state } from "./state.js";

/** @import { Channel } from "../online/channel.js" */
/** @import { EngineError } from "../engine/engine-client.js" */
/** @import { ChatLine, OnlineGuestAnswer, OnlineGuestTick, OnlineHostAnswer, OnlineRoom, OnlineStatus, Seating, TableAnswer } from "../../types/engine.js" */
/**
 * The online game in play: which side this browser is, the engine's session, the channel (null while
 * disconnected), how the two met (to meet again), and what the bar shows; ``checked``: how many of the host's deals
 * the guest's engine has replayed.
 * @typedef {{
 *   side: "host" | "guest",
 *   session: string,
 *   channel: Channel | null,
 *   via: "link" | "room",
 *   roomCode: string | null,
 *   status: OnlineStatus | null,
 *   chat: ChatLine[],
 *   unread: number,
 *   problems: string[],
 *   checked: number,
 *   room: OnlineRoom | null,
 *   hostAwaySince: number | null,
 *   counted: boolean,
 *   onLost: ((side: "host" | "guest") => void) | null,
 *   pending: string[],
 * }} Online
 */

/** @type {Online | null} */
let online = null;
/** @type {ReturnType<typeof setTimeout> | undefined} */
let tickTimer;
/** Messages from the channel, answered one at a time in order (they may come while a move animates). */
let inbox = Promise.resolve();

/**
 * Run ``task`` after everything queued before it. A failure is said in words and the queue goes on:
 * a rejected link would make every later message wait for ever.
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
  renderOnline(game, state.seat, Boolean(state.view?.game_over), localVoice());
}

/** Voice follows the engine's status (a call on only once both accepted). @param {Online} game */
function followStatus(game) {
  followVoice(game, () => online === game && redraw(game));
}

/** The online game takes the table (a puzzle on it goes, and is no longer kept for a reload). @param {Online} game */
function adopt(game) {
  state.puzzle?.close();
  online = game;
  state.online = { perform: performOnline, standIn: standInMove };
  return game;
}

/** The online seating the page draws with (names from the engine's status). */
function seatingOf(/** @type {OnlineStatus | null} */ status) {
  return /** @type {Seating} */ ({
    mode: "online",
    ranked: false,
    names: status ? [...status.names] : null,
    levels: [null, null],
    assisted: false,
  });
}

/**
 * Start hosting: the engine makes the room (rules from the settings); the lobby connects a guest.
 * @param {{preset: string, rules: Record<string, unknown>, name: string, identity: string, via: "link" | "room"}} how
 */
export async function hostOnline(how) {
  const answer = await ask({
    cmd: "online_host",
    preset: how.preset,
    rules: how.rules,
    name: how.name,
    identity: how.identity,
    now: Date.now(),
  });
  leaveGameInPlay();
  const game = adopt(blank("host", answer.session, how.via));
  game.pending = answer.send;
  game.status = answer.status;
  redraw(game);
  return game;
}

/**
 * Become the guest of a connected host: its first message is the room (the rules shown before joining),
 * which must name the host whose browser proved ``identity`` on this channel (the engine checks).
 * @param {Channel} channel
 * @param {"link" | "room"} via
 * @param {string | null} roomCode
 * @param {string} identity
 * @returns {Promise<OnlineRoom>}
 */
export function guestOnline(channel, via, roomCode, identity) {
  return new Promise((resolve, reject) => {
    channel.onmessage = (value) => {
      channel.onmessage = null;
      ask({ cmd: "online_guest_open", message: value, identity, now: Date.now() })
        .then((answer) => {
          leaveGameInPlay();
          const game = adopt(blank("guest", answer.session, via));
          game.roomCode = roomCode;
          game.room = answer.room;
          attach(channel);
          resolve(answer.room);
        })
        .catch((error) => reject(notThePlayer(error)));
    };
  });
}

/**
 * A browser proved ``identity`` on a new channel of ``game``: may it go on as the other player? The engine
 * decides (a game's other player stays the browser that joined it); it refuses with the OnlineError
 * ``not_the_player``, and nothing changes.
 * @param {Online} game
 * @param {string} identity
 */
export async function admitPeer(game, identity) {
  let answer;
  try {
    answer = await ask({ cmd: "online_connection", session: game.session, up: true, identity, now: Date.now() });
  } catch (error) {
    throw notThePlayer(error);
  }
  if ("send" in answer) game.pending.push(...answer.send);
}

/** The engine's refusal of a browser that is not the game's other player, as an OnlineError. @param {unknown} error */
function notThePlayer(error) {
  const refused = /** @type {EngineError} */ (error);
  return refused?.code === "not_the_player" ? new OnlineError("not_the_player", refused.message) : error;
}

/**
 * The guest accepts the room's rules and joins.
 * @param {string} name
 * @param {string} identity
 */
export async function joinRoomAsGuest(name, identity) {
  const game = /** @type {Online} */ (online);
  const answer = await ask({ cmd: "online_guest_join", session: game.session, name, identity });
  sendAll(answer.send);
}

/**
 * @param {"host" | "guest"} side
 * @param {string} session
 * @param {"link" | "room"} via
 * @returns {Online}
 */
function blank(side, session, via) {
  return {
    side,
    session,
    channel: null,
    via,
    roomCode: null,
    status: null,
    chat: [],
    unread: 0,
    problems: [],
    checked: 0,
    room: null,
    hostAwaySince: null,
    counted: false,
    onLost: null,
    pending: [],
  };
}

/** The game against the computer stays saved; the table shows the online game from now on. */
function leaveGameInPlay() {
  cancelAi();
  state.view = null;
  state.model = null;
  state.hint = null;
}

/**
 * A channel to the other browser is open: carry messages both ways (again, after a reconnect).
 * @param {Channel} channel
 */
export function attach(channel) {
  const game = /** @type {Online} */ (online);
  game.channel = channel;
  channel.onmessage = (value) => {
    // In order with the engine's messages: a call's offer comes after the status that put the call on.
    if (isVoiceSignal(value)) queue(() => voiceSignal(value));
    else
      inbox = inbox
        .then(() => received(value))
        .catch((error) => notify(t("online.stopped", { detail: String(error?.message || error) })));
  };
  channel.closed.then((reason) => {
    if (online !== game || game.channel !== channel) return;
    game.channel = null;
    stopVoice();
    queue(() => connectionLost(game, reason?.code || "connection_lost"));
  });
  const pending = game.pending;
  game.pending = [];
  sendAll(pending);
  if (game.side === "guest" && game.status) {
    // Back after a lost connection or a reload: ask the host for the whole state.
    queue(async () => sendAll((await ask({ cmd: "online_reconnect", session: game.session })).send));
  }
  redraw(game);
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
 * @param {unknown} value
 */
async function received(value) {
  const game = online;
  if (!game) return;
  if (game.side === "host") {
    const answer = await ask({ cmd: "online_from_guest", session: game.session, message: value, now: Date.now() });
    await hostAnswer(answer);
  } else {
    let answer;
    try {
      answer = await ask({ cmd: "online_from_host", session: game.session, message: value, now: Date.now() });
    } catch (error) {
      // A message the guest's engine refuses changes nothing: say so, and ask for the whole state.
      notify(t("online.refusedFromHost", { detail: String(/** @type {Error} */ (error).message) }));
      sendAll((await ask({ cmd: "online_reconnect", session: game.session })).send);
      return;
    }
    await guestAnswer(answer);
  }
}

/**
 * The host's engine answered: send its messages, animate its frames, show the status.
 * @param {OnlineHostAnswer} answer
 */
async function hostAnswer(answer) {
  const game = /** @type {Online} */ (online);
  sendAll(answer.send);
  game.status = answer.status;
  noteChat(answer.chat);
  if (answer.view) {
    const table = /** @type {TableAnswer} */ ({ ...answer, seating: answer.seating ?? seatingOf(answer.status) });
    await run(async () => {
      await playFrames(answer.frames || [], answer.view);
      adoptTable(table);
    });
  }
  countResult();
  schedule(answer.status.next_deadline ?? null);
  followStatus(game);
  redraw(game);
  draw();
}

/**
 * The guest's engine answered a host message.
 * @param {OnlineGuestAnswer} answer
 */
async function guestAnswer(answer) {
  const game = /** @type {Online} */ (online);
  sendAll(answer.send);
  if (answer.room) game.room = answer.room;
  if (answer.status) game.status = answer.status;
  if (answer.chat_log) game.chat = answer.chat_log;
  noteChat(answer.chat);
  if (answer.refused) notify(t("online.refused", { detail: answer.refused.message }));
  if (answer.proof) game.checked += 1;
  if (answer.proof?.problems.length) {
    game.problems.push(...answer.proof.problems);
    notify(t("online.unfair", { detail: answer.proof.problems.join(" ") }));
  }
  if (answer.warning) notify(t("online.unfair", { detail: answer.warning }));
  const show = answer.show;
  if (show) {
    const table = /** @type {TableAnswer} */ ({ ...show, seating: seatingOf(game.status) });
    await run(async () => {
      await playFrames(answer.frames || [], show.view);
      adoptTable(table);
    });
  }
  countResult();
  followStatus(game);
  redraw(game);
  draw();
}

/** @param {ChatLine | undefined} line */
function noteChat(line) {
  const game = online;
  if (!line || !game) return;
  game.chat = [...game.chat, line].slice(-50);
  if (line.seat !== state.seat) game.unread += 1;
}

/** A finished online game counts once in the statistics, apart from games against the computer. */
function countResult() {
  const game = online;
  const view = state.view;
  if (game && view && !view.game_over) game.counted = false; // a rematch: the new game counts in its turn
  if (!game || game.counted || !view?.game_over) return;
  game.counted = true;
  noteOnlineResult(view, state.seat, opponentName(game));
}

/** The other player's name, as it gave it. @param {Online} game */
function opponentName(game) {
  return game.status?.names?.[1 - state.seat] || "";
}

/**
 * The host's clock: tick at the engine's next deadline (a shown hand, a pause, an absence).
 * @param {number | null} deadline
 */
function schedule(deadline) {
  clearTimeout(tickTimer);
  if (deadline === null || !online) return;
  const game = online;
  tickTimer = setTimeout(
    () => {
      queue(async () => {
        if (online !== game) return;
        const answer = await ask({ cmd: "online_tick", session: game.session, now: Date.now() });
        if (game.side === "host") await hostAnswer(/** @type {OnlineHostAnswer} */ (answer));
        else guestTick(/** @type {any} */ (answer));
      });
    },
    Math.max(0, deadline - Date.now()) + 20,
  );
}

/**
 * The guest's clock: a host away for too long has lost on time.
 * @param {{host_away_since: number | null, return_by: number | null, host_lost_on_time: boolean, problems: string[]}} tick
 */
function guestTick(tick) {
  const game = /** @type {Online} */ (online);
  game.hostAwaySince = tick.host_away_since;
  if (tick.host_lost_on_time && !game.counted && state.view) {
    game.counted = true;
    const ended = { seat: 1 - state.seat, reason: "time" };
    const won = { ...state.view, game_over: true, match: { ...state.view.match, winner: state.seat, ended } };
    noteOnlineResult(/** @type {import("../../types/engine.js").View} */ (won), state.seat, opponentName(game));
    notify(t("online.hostLostOnTime"));
  } else if (tick.return_by !== null) {
    schedule(tick.return_by);
  }
  redraw(game);
}

/**
 * The channel closed: the engine starts its clock (60 s to come back), and the lobby tries to meet again.
 * @param {Online} game
 * @param {string} code why (the transport's error code)
 */
async function connectionLost(game, code) {
  if (online !== game) return;
  const answer = await ask({ cmd: "online_connection", session: game.session, up: false, now: Date.now() });
  if (game.side === "host") await hostAnswer(/** @type {OnlineHostAnswer} */ (answer));
  else {
    game.status = /** @type {OnlineGuestTick} */ (answer).status ?? game.status; // voice ended with the connection
    guestTick(/** @type {any} */ (answer));
  }
  if (code !== "closed") game.onLost?.(game.side);
}

/**
 * Your move at an online table (loop.js hands it over in online mode).
 * @param {string} action
 */
export function performOnline(action) {
  intend({ t: "act", action });
}

/**
 * Something you mean to do: a move, show your cards, pause, back, resign, rematch, a chat line.
 * @param {Record<string, unknown>} intent
 */
export function intend(intent) {
  const game = online;
  if (!game) return;
  return queue(async () => {
    if (game.side === "host") {
      await hostAnswer(await ask({ cmd: "online_host_do", session: game.session, intent, now: Date.now() }));
    } else {
      sendAll((await ask({ cmd: "online_guest_do", session: game.session, intent })).send);
    }
  });
}

/** The host plays for a player who is away (after a pause): the engine's computer move. */
export function standInMove() {
  const game = online;
  if (game?.side !== "host") return;
  queue(async () => {
    try {
      await hostAnswer(
        await ask({ cmd: "online_computer", session: game.session, now: Date.now() }, { timeoutMs: 30000 }),
      );
    } catch (error) {
      // The table moved on while this move waited its turn (the player came back, or the game ended).
      const code = /** @type {EngineError} */ (error).code;
      if (code !== "not_your_turn" && code !== "game_over") throw error;
    }
  });
}

/** Leave the online game: close the channel and the engine's session (the saved online game goes). */
export async function leaveOnline() {
  const game = online;
  if (!game) return;
  online = null;
  state.online = null;
  clearTimeout(tickTimer);
  stopVoice();
  game.channel?.close();
  try {
    await ask({ cmd: "online_close", session: game.session });
  } catch {
    // already gone
  }
  clearOnline();
}

/**
 * A saved online game after a reload: the engine restores it (a host back too late has lost on time).
 * @returns {Promise<Online | null>}
 */
export async function resumeOnline() {
  const client = state.client;
  if (!client) return null;
  const saved = await client.resumeOnline(Date.now());
  if (saved.resumed !== "restored") {
    if (saved.resumed === "corrupt") notify(t("notice.restoreFailed", { detail: saved.message }));
    return null;
  }
  const game = adopt(blank(saved.side, saved.session, "room"));
  if (saved.side === "host") {
    await hostAnswer(saved);
  } else {
    await guestAnswer({ ...saved, missed: 0, send: [] });
    guestTick(saved);
  }
  return game;
}
