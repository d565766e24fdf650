// @ts-check
// The online dialog: host a game (an invitation link with its QR code and the
// answer code to paste back, or a six-character room code over Nostr relays),
// join one (a link, an invitation or room code, or a QR code from the camera),
// see the room's rules before joining, the network settings (relays, STUN,
// TURN) and the people you blocked. After a lost connection (or a reload) it
// meets the other player again the same way. The game itself is
// game/online.js's; the transport is web/online/'s.

import { OnlineError } from "../online/errors.js";
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
import { blockedList, isBlocked, myIdentity, unblock } from "../platform/identity.js";
import { overridesFor } from "../screens/custom-rules.js";
import { savePreferences } from "../screens/modes.js";
import { rulesSentences, rulesTitle } from "../screens/rules-text.js";
import { notify } from "./draw.js";
import { attach, currentOnline, guestOnline, hostOnline, joinRoomAsGuest, leaveOnline } from "./online.js";
import { baseUrl } from "./online-door.js";
import { ruleParameters } from "./settings-dialog.js";
import { state } from "./state.js";

/** @import { Channel } from "../online/channel.js" */
/** @import { NetworkSettings } from "../online/network-defaults.js" */

const MEETING_KEY = "sixty-six.online-meeting.v1";

/** @param {string} id */
const el = (id) => /** @type {HTMLElement} */ (document.getElementById(id));
/** @param {string} id */
const field = (id) => /** @type {HTMLInputElement | HTMLTextAreaElement} */ (document.getElementById(id));

const dialog = () => /** @type {HTMLDialogElement} */ (el("online-dialog"));

/** Whatever the current step is waiting for, to give up when the dialog closes or a new step starts. */
/** @type {(() => void) | null} */
let giveUp = null;

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

/**
 * Say what went wrong, in words (the transport's errors have codes).
 * @param {unknown} error
 */
function fail(error) {
  const code = error instanceof OnlineError ? error.code : "";
  const words = code ? t(`online.error.${code}`) : String(/** @type {Error} */ (error)?.message || error);
  el("online-error").textContent =
    code && code !== "code_damaged" && code !== "bad_room_code" ? `${words} ${t("online.tryLink")}` : words;
  el("online-error").hidden = false;
}

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
    await hostOnline({ preset, rules: overridesFor(preset), name, identity: await myIdentity(), via });
    if (via === "link") await inviteByLink();
    else await inviteByRoom(null);
  });
}

/**
 * Show an invitation link, its QR code, and wait for the answer code (``again``: the guest's connection
 * broke, and this is a new link for coming back).
 */
async function inviteByLink(again = false) {
  const why = el("online-invite-again");
  why.hidden = !again;
  const name = currentOnline()?.status?.names?.[1] || t("online.chat.them");
  why.textContent = again ? t("online.invite.again", { name }) : "";
  const invitation = await createInvitation({ iceServers: network().iceServers });
  giveUp = () => invitation.close();
  const link = invitation.link(baseUrl());
  field("online-invite-link").value = link;
  field("online-answer-input").value = "";
  await showQr(el("online-invite-qr"), link);
  step("invite");
  rememberMeeting({ via: "link", roomCode: null, side: "host" });
  pendingAnswer = async (text) => {
    const channel = await invitation.accept(text);
    connected(channel, "link");
  };
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
  el("online-room-code").textContent = room.code;
  const game = currentOnline();
  if (game) game.roomCode = room.code;
  rememberMeeting({ via: "room", roomCode: room.code, side: "host" });
  step("room");
  room.channel.then((channel) => connected(channel, "room")).catch(fail);
}

/**
 * The channel is open: the game takes it.
 * @param {Channel} channel
 * @param {"link" | "room"} via
 */
function connected(channel, via) {
  giveUp = null;
  const game = currentOnline();
  if (!game) return;
  game.via = via;
  game.onLost = lost;
  attach(channel);
  if (dialog().open) dialog().close();
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
  const game = currentOnline();
  if (game && game.side === "guest" && game.status) {
    game.via = via;
    game.onLost = lost;
    attach(channel);
    if (dialog().open) dialog().close();
    return;
  }
  const room = await guestOnline(channel, via, roomCode);
  if (isBlocked(room.host.identity)) {
    channel.close();
    await leaveOnline();
    throw new Error(t("online.blockedHost"));
  }
  el("online-rules-host").textContent = t("online.rules.from", { name: room.host.name || t("online.chat.them") });
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
    await joinRoomAsGuest(name, await myIdentity());
    dialog().close();
  };
}

/** @type {(() => Promise<void>) | null} */
let acceptRoom = null;

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
    dialog().showModal();
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
      attach(channel);
      return;
    } catch {
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
    leaveOnline();
    dialog().close();
  });
  el("online-block-host").addEventListener("click", () => {
    const room = currentOnline()?.room;
    if (room) import("../platform/identity.js").then(({ block }) => block(room.host.identity, room.host.name));
    leaveOnline();
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
