// @ts-check
// The online dialog: host a game (an invitation link with its QR code and the
// answer code to paste back, or a six-character room code over Nostr relays),
// join one (a link, an invitation or room code, or a QR code from the camera),
// see the room's rules before joining, the network settings (relays, STUN,
// TURN) and the people you blocked. After a lost connection (or a reload) it
// meets the other player again the same way. Every new connection starts with
// both browsers proving their identities (online/handshake.js); then each
// side refuses an identity it blocked, and the engine one that is not the
// game's other player. The game itself is game/online.js's; the transport is
// web/online/'s.

import { OnlineError } from "../online/errors.js";
import { proveIdentities } from "../online/handshake.js";
import {
  defaultNetworkSettings,
  iceServersOf,
  NETWORK_KEY,
  normalizeNetworkSettings,
  storedNetworkSettings,
} from "../online/network-defaults.js";
import { acceptInvitation, createInvitation } from "../online/peer.js";
import { drawQr, scanCamera } from "../online/qr.js";
import { joinRoom, openRoom } from "../online/room.js";
import { normalizeRoomCode, ROOM_LINK_KEY } from "../online/room-code.js";
import { t } from "../platform/i18n.js";
import { block, blockedList, isBlocked, myIdentity, signProof, unblock, verifyProof } from "../platform/identity.js";
import { overridesFor } from "../screens/custom-rules.js";
import { savePreferences } from "../screens/modes.js";
import { rulesSentences, rulesTitle } from "../screens/rules-text.js";
import { notify } from "./draw.js";
import {
  admitPeer,
  attach,
  backToOwnGame,
  checkReport,
  currentOnline,
  guestOnline,
  hostOnline,
  joinRoomAsGuest,
} from "./online.js";
import { baseUrl } from "./online-door.js";
import { ruleParameters } from "./settings-dialog.js";
import { state } from "./state.js";

/** @import { Channel } from "../online/channel.js" */
/** @import { NetworkSettings } from "../online/network-defaults.js" */
/** @import { PeerRoom } from "../../types/engine.js" */
/** @import { Online } from "./online.js" */

const MEETING_KEY = "sixty-six.online-meeting.v1";
/** A report file larger than this is refused unread (a whole match's is far smaller). */
const REPORT_MAX = 8_000_000;

/** @param {string} id */
const el = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const field = (id) => /** @type {HTMLInputElement | HTMLTextAreaElement} */ (document.getElementById(id));

const dialog = () => /** @type {HTMLDialogElement} */ (el("online-dialog"));

/** Whatever the current step is waiting for, to give up when the dialog closes or a new step starts. */
/** @type {(() => void) | null} */
let giveUp = null;
/** The current step waits for the other player (closing the dialog withdraws the invitation, said in words). */
let inviting = false;

/** How to reach the network now: ICE servers and relays. */
function network() {
  const settings = storedNetworkSettings();
  return { iceServers: iceServersOf(settings), relays: settings.relays };
}

/**
 * Show one step of the dialog (the others hide).
 * @param {string} step
 */
function step(step) {
  for (const section of dialog().querySelectorAll(".online-step")) {
    /** @type {HTMLElement} */ (section).hidden = section.id !== `online-${step}`;
  }
  el("online-error").hidden = true;
}

/** A connection one side refused (a blocked identity, a false proof, not the game's player): no retrying. */
class Refused extends Error {}
/** Errors after which a link would not help either (the words say why). */
const NO_LINK_HINT = new Set(["code_damaged", "bad_room_code", "refused", "identity_unproved", "not_the_player"]);

/** @param {unknown} error */
function isRefusal(error) {
  return (
    error instanceof Refused ||
    (error instanceof OnlineError && ["refused", "identity_unproved", "not_the_player"].includes(error.code))
  );
}

/** What went wrong, in words (the transport's errors have codes). @param {unknown} error */
function wordsOf(error) {
  const code = error instanceof OnlineError ? error.code : "";
  return code ? t(`online.error.${code}`) : String(/** @type {Error} */ (error)?.message || error);
}

/** @param {string} words */
function say(words) {
  el("online-error").textContent = words;
  el("online-error").hidden = false;
}

/**
 * Say what went wrong, in words.
 * @param {unknown} error
 */
function fail(error) {
  console.warn("online: the meeting failed:", error); // the transport's detail, for whoever debugs
  const code = error instanceof OnlineError ? error.code : "";
  say(code && !NO_LINK_HINT.has(code) ? `${wordsOf(error)} ${t("online.tryLink")}` : wordsOf(error));
}

// ------------------------------------------------------------------ who is there

/**
 * Before the game takes a new channel: both browsers prove their identities, then ``decide`` may refuse the
 * other's (it throws). Resolves with the other's proven identity; rejects (the channel closed) otherwise.
 * @param {Channel} channel
 * @param {(identity: string) => Promise<void>} decide
 */
async function proven(channel, decide) {
  let identity;
  try {
    identity = await myIdentity();
  } catch (error) {
    channel.close(); // no key pair here (no WebCrypto, or it failed): nothing to prove with
    throw error;
  }
  return proveIdentities(channel, { identity, sign: (text) => signProof(text), verify: verifyProof, decide });
}

/**
 * The host takes a guest's browser that it did not block; once a guest has joined ``game``, only that one.
 * @param {Online} game
 */
const admitGuest = (game) => async (/** @type {string} */ identity) => {
  if (isBlocked(identity)) throw new Refused(t("online.blockedGuest"));
  const chosen = chosenGuests.get(game);
  if (chosen && identity !== chosen) throw new Refused(t("lobby.notTheJoiner"));
  await admitPeer(game, identity);
};

/**
 * The guest takes a host's browser that it did not block; going on with ``game``, only that game's host.
 * @param {Online | null} game
 */
const admitHost = (game) => async (/** @type {string} */ identity) => {
  if (isBlocked(identity)) throw new Refused(t("online.blockedHost"));
  if (game) await admitPeer(game, identity);
};

/**
 * A step that may take a while: ``label`` shows meanwhile; failures are said in words.
 * @param {string} label
 * @param {() => Promise<void>} task
 */
async function attempt(label, task) {
  step("connecting");
  el("online-connecting-text").textContent = label;
  try {
    await task();
  } catch (error) {
    step("start");
    fail(error);
  }
}

/** Remember how the two met, to meet again after a lost connection or a reload. */
function rememberMeeting(/** @type {{via: "link" | "room", roomCode: string | null, side: string}} */ meeting) {
  try {
    localStorage.setItem(MEETING_KEY, JSON.stringify(meeting));
  } catch {
    // for this visit only
  }
}

/** @returns {{via: "link" | "room", roomCode: string | null, side: string} | null} */
function lastMeeting() {
  try {
    return JSON.parse(localStorage.getItem(MEETING_KEY) || "null");
  } catch {
    return null;
  }
}

function yourName() {
  const name = field("online-name").value.trim().slice(0, 24);
  state.prefs = savePreferences({ ...state.prefs, names: [name, state.prefs.names[1]] });
  return name;
}

/** Open the dialog at its first step (``text``: a link or code to join, from the page's address). */
export function openOnline(text = "") {
  const rules = state.settings.preset;
  el("online-host-rules").textContent = t("online.host.rules", {
    rules: state.presets.find((p) => p.id === rules)?.name ?? rules,
  });
  field("online-name").value = state.prefs.names[0] || "";
  field("online-join-text").value = text;
  showNetwork(storedNetworkSettings());
  showBlocked();
  step("start");
  if (!dialog().open) dialog().showModal();
  if (text) join(text);
}

/** The network settings' fields. @param {NetworkSettings} settings */
function showNetwork(settings) {
  field("online-relays").value = settings.relays.join("\n");
  field("online-stun").value = settings.stun.join("\n");
  const turn = settings.turn[0];
  field("online-turn-url").value = turn?.url ?? "";
  field("online-turn-user").value = turn?.username ?? "";
  field("online-turn-password").value = turn?.credential ?? "";
}

function saveNetwork() {
  const url = field("online-turn-url").value.trim();
  const raw = {
    relays: field("online-relays").value,
    stun: field("online-stun").value,
    turn: url
      ? [{ url, username: field("online-turn-user").value, credential: field("online-turn-password").value }]
      : [],
  };
  const { settings, problems } = normalizeNetworkSettings(raw);
  localStorage.setItem(NETWORK_KEY, JSON.stringify(settings));
  showNetwork(settings);
  el("online-network-problems").textContent = problems.length
    ? problems.map((p) => t(`online.network.problem.${p.code}`, { entry: p.input })).join(" ")
    : t("online.network.saved");
}

function showBlocked() {
  const list = blockedList();
  const items = list.map((b) => {
    const item = document.createElement("li");
    const name = document.createElement("span");
    name.textContent = b.name || b.identity.slice(0, 12);
    const button = document.createElement("button");
    button.type = "button";
    button.className = "btn btn-small";
    button.textContent = t("online.unblock");
    button.addEventListener("click", () => {
      unblock(b.identity);
      showBlocked();
    });
    item.append(name, " ", button);
    return item;
  });
  if (!items.length) {
    const none = document.createElement("li");
    none.textContent = t("online.blocked.none");
    items.push(none);
  }
  el("online-blocked-list").replaceChildren(...items);
}

// ------------------------------------------------------------------ host

/**
 * Host with an invitation link (and its answer code) or a room code.
 * @param {"link" | "room"} via
 */
async function host(via) {
  const name = yourName();
  const preset = state.settings.preset;
  await attempt(t("online.preparing"), async () => {
    await hostOnline({ preset, rules: overridesFor(preset), name, via });
    if (via === "link") await inviteByLink();
    else await inviteByRoom(null);
  });
}

/**
 * Show an invitation link, its QR code, and wait for the answer code (``again``: the guest's connection
 * broke, and this is a new link for coming back).
 */
async function inviteByLink(again = false) {
  pendingAnswer = null; // an answer code is for one invitation: never for the one before
  // Nor is the link: the used one goes at once, not when the new one is ready.
  field("online-invite-link").value = "";
  el("online-invite-qr").replaceChildren();
  const why = el("online-invite-again");
  why.hidden = !again;
  const name = currentOnline()?.status?.names?.[1] || t("online.chat.them");
  why.textContent = again ? t("online.invite.again", { name }) : "";
  const invitation = await createInvitation({ iceServers: network().iceServers });
  giveUp = () => invitation.close();
  inviting = true;
  const link = invitation.link(baseUrl());
  // Ready for its answer before the link shows: a quick guest's code must not wait for the QR code.
  pendingAnswer = async (text) => {
    const channel = await invitation.accept(text);
    await connected(channel, "link");
  };
  field("online-invite-link").value = link;
  field("online-answer-input").value = "";
  await showQr(el("online-invite-qr"), link);
  step("invite");
  rememberMeeting({ via: "link", roomCode: null, side: "host" });
}

/** @type {((answer: string) => Promise<void>) | null} */
let pendingAnswer = null;

/**
 * Open a room (the same code again after a lost connection) and wait for the guest.
 * @param {string | null} code
 */
async function inviteByRoom(code) {
  const { relays, iceServers } = network();
  const room = await openRoom({ relays, iceServers, ...(code ? { code } : {}) });
  giveUp = () => room.close();
  inviting = true;
  el("online-room-code").textContent = room.code;
  const game = currentOnline();
  if (game) game.roomCode = room.code;
  rememberMeeting({ via: "room", roomCode: room.code, side: "host" });
  step("room");
  room.channel.then((channel) => connected(channel, "room")).catch(fail);
}

/**
 * The channel is open: once both browsers have proved who they are and neither refused the other, the game
 * takes it. A refused guest changes nothing: the host waits again the same way.
 * @param {Channel} channel
 * @param {"link" | "room"} via
 */
async function connected(channel, via) {
  giveUp = null;
  inviting = false;
  const game = currentOnline();
  if (!game) {
    channel.close();
    return;
  }
  game.via = via;
  try {
    await proven(channel, admitGuest(game));
  } catch (error) {
    if (currentOnline() === game) waitAgain(game, error);
    return;
  }
  if (currentOnline() !== game) {
    channel.close();
    return;
  }
  game.onLost = lost;
  attach(channel);
  if (dialog().open) dialog().close();
}

/**
 * The host refused a guest's browser, or was refused by it: say so, and wait for the guest again as before
 * (the same room code, or a new invitation link).
 * @param {Online} game
 * @param {unknown} error
 */
function waitAgain(game, error) {
  console.warn("online: the guest's connection was refused or lost:", error);
  const words = wordsOf(error);
  notify(words);
  if (game.via === "room" && game.roomCode) {
    inviteByRoom(game.roomCode)
      .then(() => say(words))
      .catch(fail);
    return;
  }
  if (!dialog().open) dialog().showModal();
  inviteByLink(Boolean(game.status?.joined))
    .then(() => say(words))
    .catch(fail);
}

// ------------------------------------------------------------------ guest

/**
 * Join with what was typed or scanned: a room code, an invitation link or an invitation code.
 * @param {string} text
 */
async function join(text) {
  const name = yourName();
  const room = roomCodeIn(text);
  if (room) {
    await attempt(t("online.joining"), async () => {
      const { relays, iceServers } = network();
      const channel = await joinRoom(room, { relays, iceServers });
      rememberMeeting({ via: "room", roomCode: room, side: "guest" });
      await meetHost(channel, "room", room, name);
    });
    return;
  }
  await attempt(t("online.joining"), async () => {
    const acceptance = await acceptInvitation(text, { iceServers: network().iceServers });
    giveUp = () => acceptance.close();
    field("online-answer-code").value = acceptance.answer;
    await showQr(el("online-answer-qr"), acceptance.answer);
    step("answer");
    rememberMeeting({ via: "link", roomCode: null, side: "guest" });
    acceptance.channel.then((channel) => meetHost(channel, "link", null, name)).catch(fail);
  });
}

/**
 * A room code in ``text`` (typed in any case, in groups, or in a link with #room=CODE), or null.
 * @param {string} text
 */
function roomCodeIn(text) {
  return normalizeRoomCode(text.trim());
}

/**
 * Connected to a host: a returning guest goes on with its game; a new one sees the rules first.
 * @param {Channel} channel
 * @param {"link" | "room"} via
 * @param {string | null} roomCode
 * @param {string} name
 */
async function meetHost(channel, via, roomCode, name) {
  giveUp = null;
  const current = currentOnline();
  const game = current && current.side === "guest" && current.status ? current : null;
  const host = await proven(channel, admitHost(game));
  if (game) {
    if (currentOnline() !== game) {
      channel.close();
      return;
    }
    game.via = via;
    game.onLost = lost;
    attach(channel);
    if (dialog().open) dialog().close();
    return;
  }
  /** @type {PeerRoom} */
  let room;
  try {
    room = await guestOnline(channel, via, roomCode, host);
  } catch (error) {
    channel.close();
    throw error;
  }
  el("online-rules-host").textContent = t("online.rules.from", { name: room.name || t("online.chat.them") });
  field("online-guest-name").value = name;
  const parameters = await ruleParameters();
  const sentences = rulesSentences(/** @type {any} */ (room.rules), parameters).map((s) => {
    const item = document.createElement("li");
    item.textContent = s.text;
    return item;
  });
  el("online-rules-title").textContent = rulesTitle(room.rules, state.presets);
  el("online-rules-text").replaceChildren(...sentences);
  step("rules");
  if (!dialog().open) dialog().showModal();
  acceptRoom = async () => {
    const joined = currentOnline();
    if (joined) joined.onLost = lost;
    const chosen = field("online-guest-name").value.trim().slice(0, 24);
    state.prefs = savePreferences({ ...state.prefs, names: [chosen, state.prefs.names[1]] });
    await joinRoomAsGuest(chosen);
    dialog().close();
  };
}

/** @type {(() => Promise<void>) | null} */
let acceptRoom = null;

// ------------------------------------------------------------------ strangers (find-game.js)

/** The joiner each stranger's table was given to (the engine chose it): no other browser sits down there. */
/** @type {WeakMap<Online, string>} */
const chosenGuests = new WeakMap();

/**
 * Host a stranger the engine gave this page's open table to: a room on a fresh ``code`` (sent to the joiner
 * encrypted), where only the browser that proves ``guest``'s identity is taken. Resolves with the game once the room is open.
 * @param {{preset: string, rules: Record<string, unknown>, name: string, code: string, guest: string}} how
 */
export async function hostStranger(how) {
  if (dialog().open) dialog().close();
  const game = await hostOnline({ preset: how.preset, rules: how.rules, name: how.name, via: "room" });
  chosenGuests.set(game, how.guest);
  await inviteByRoom(how.code);
  return game;
}

/**
 * The stranger ``game`` waited for never came: unless their browser is here (or has been), or another game
 * began, the room closes and this player's own game is back. Resolves with whether it did.
 * @param {Online} game
 */
export async function strangerNeverCame(game) {
  if (currentOnline() !== game || !inviting || game.channel || game.status?.joined) return false;
  giveUp?.();
  giveUp = null;
  inviting = false;
  await backToOwnGame();
  return true;
}

/**
 * Join a stranger's table on the room ``code`` its opener sent: the browser there must prove ``host``, the
 * identity of the offer; the rules were read in the offer, so the guest joins at once.
 * @param {{code: string, host: string, name: string}} how
 */
export async function joinStranger(how) {
  const { relays, iceServers } = network();
  const channel = await joinRoom(how.code, { relays, iceServers });
  rememberMeeting({ via: "room", roomCode: how.code, side: "guest" });
  const identity = await proven(channel, async (proved) => {
    if (proved !== how.host) throw new Refused(t("lobby.notTheOpener"));
    if (isBlocked(proved)) throw new Refused(t("online.blockedHost"));
  });
  try {
    await guestOnline(channel, "room", how.code, identity);
  } catch (error) {
    channel.close();
    throw error;
  }
  const game = currentOnline();
  if (game) game.onLost = lost;
  await joinRoomAsGuest(how.name);
}

/** Open "Find a game" (its module loads on first use). */
async function findGame() {
  if (dialog().open) dialog().close();
  const { openFindGame } = await import("./find-game.js");
  await openFindGame();
}

// ------------------------------------------------------------------ meeting again

/**
 * The connection was lost: meet again the same way (the engine's clock runs meanwhile).
 * @param {"host" | "guest"} side
 */
function lost(side) {
  const game = currentOnline();
  if (!game) return;
  if (game.via === "room" && game.roomCode) {
    const code = game.roomCode;
    if (side === "host") inviteByRoom(code).catch(() => {});
    else rejoinRoom(code);
    return;
  }
  // A link is used once: the host makes a new one and sends it; the guest opens it.
  if (side === "host") {
    if (!dialog().open) dialog().showModal();
    attempt(t("online.preparing"), () => inviteByLink(true));
  } else {
    notify(t("online.lost.guestLink"));
    openOnline();
  }
}

/**
 * The guest knocks at the room again until the host is back or the game is over.
 * @param {string} code
 */
async function rejoinRoom(code) {
  for (let tries = 0; tries < 12; tries += 1) {
    const game = currentOnline();
    if (!game || game.channel) return;
    try {
      const { relays, iceServers } = network();
      const channel = await joinRoom(code, { relays, iceServers });
      await proven(channel, admitHost(game));
      if (currentOnline() !== game) {
        channel.close();
        return;
      }
      attach(channel);
      return;
    } catch (error) {
      if (isRefusal(error)) {
        // Not this game's host, or one you blocked: knocking again would not help.
        notify(wordsOf(error));
        return;
      }
      // nobody there yet: try again (joinRoom waits PEER_TIMEOUT_MS each time)
    }
  }
}

/** After a reload: a saved online game meets the other player again. */
export function meetAgain() {
  const game = currentOnline();
  const meeting = lastMeeting();
  if (!game) return;
  game.onLost = lost;
  if (meeting?.via === "room" && meeting.roomCode) {
    game.via = "room";
    game.roomCode = meeting.roomCode;
  } else {
    game.via = "link";
  }
  lost(game.side);
}

// ------------------------------------------------------------------ QR codes

/**
 * @param {HTMLElement} box
 * @param {string} text
 */
async function showQr(box, text) {
  const canvas = document.createElement("canvas");
  try {
    await drawQr(canvas, text);
    canvas.setAttribute("role", "img");
    canvas.setAttribute("aria-label", t("online.qr"));
    box.replaceChildren(canvas);
  } catch {
    box.replaceChildren(); // too long for a QR code: the text is there to copy
  }
}

/**
 * Scan a QR code with the camera into ``target``, then ``then(text)``.
 * @param {(text: string) => void} then
 */
async function scan(then) {
  const back = dialog().querySelector(".online-step:not([hidden])")?.id.replace("online-", "") || "start";
  step("scan");
  const video = /** @type {HTMLVideoElement} */ (el("online-camera"));
  const stop = new AbortController();
  giveUp = () => stop.abort();
  try {
    const text = await scanCamera(video, { signal: stop.signal });
    step(back);
    if (text) then(text);
  } catch (error) {
    step(back);
    fail(error);
  }
}

// ------------------------------------------------------------------ wiring

/** Wire the dialog's buttons (once, at start). */
export function installOnline() {
  el("online-find").addEventListener("click", () => findGame().catch(fail));
  el("online-host-link").addEventListener("click", () => host("link"));
  el("online-host-room").addEventListener("click", () => host("room"));
  el("online-join").addEventListener("click", () => join(field("online-join-text").value));
  el("online-join-scan").addEventListener("click", () => scan((text) => join(text)));
  el("online-answer-connect").addEventListener("click", () => {
    const answer = field("online-answer-input").value;
    const use = pendingAnswer;
    if (!use) return;
    attempt(t("online.connecting"), () => use(answer)).catch(fail);
  });
  el("online-answer-scan").addEventListener("click", () =>
    scan((text) => {
      field("online-answer-input").value = text;
      el("online-answer-connect").click();
    }),
  );
  el("online-invite-copy").addEventListener("click", () => copy(field("online-invite-link").value));
  el("online-answer-copy").addEventListener("click", () => copy(field("online-answer-code").value));
  el("online-room-copy").addEventListener("click", () =>
    copy(`${baseUrl()}#${ROOM_LINK_KEY}=${el("online-room-code").textContent}`),
  );
  el("online-accept").addEventListener("click", () => acceptRoom?.().catch(fail));
  el("online-decline").addEventListener("click", () => {
    backToOwnGame();
    dialog().close();
  });
  el("online-report-file").addEventListener("change", async () => {
    const file = /** @type {HTMLInputElement} */ (el("online-report-file")).files?.[0];
    if (!file) return;
    const verdict = el("online-report-verdict");
    verdict.textContent = file.size > REPORT_MAX ? t("online.report.notJson") : await checkReport(await file.text());
  });
  el("online-block-host").addEventListener("click", () => {
    const room = currentOnline()?.room;
    if (room) block(room.identity, room.name); // kept before the dialog closes
    backToOwnGame();
    dialog().close();
  });
  el("online-network-save").addEventListener("click", saveNetwork);
  el("online-network-reset").addEventListener("click", () => {
    localStorage.removeItem(NETWORK_KEY);
    showNetwork(defaultNetworkSettings());
  });
  el("online-close").addEventListener("click", () => dialog().close());
  dialog().addEventListener("close", () => {
    giveUp?.();
    giveUp = null;
    if (!inviting) return;
    inviting = false;
    const game = currentOnline();
    if (game?.channel) return; // the other player is here: nothing was withdrawn
    notify(t("online.invite.cancelled"));
    if (game && !game.session) backToOwnGame(); // nobody ever came: the waiting table goes
  });
}

/**
 * Copy ``text`` to the clipboard (and say so).
 * @param {string} text
 */
async function copy(text) {
  try {
    await navigator.clipboard.writeText(text);
    notify(t("online.copied"));
  } catch {
    notify(t("online.copyFailed"));
  }
}
