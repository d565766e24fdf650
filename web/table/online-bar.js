// @ts-check
// The online table's bar and chat: who the other player is and whether they
// are there (a countdown while they are away or paused), the buttons of an
// online game (show my cards, pause / I'm back, resign, rematch, leave,
// block), the voice call's state and buttons, and the chat. Only draws: every
// button is a data-control that game/controls.js hands to game/online.js (and
// game/online-voice.js). Chat lines are text, never markup.

import { t } from "../platform/i18n.js";

/** @import { ChatLine, OnlineVoice, PeerStatus } from "../../types/engine.js" */
/** @import { LocalVoice } from "../game/online-voice.js" */
/**
 * What the bar needs of the online game (game/online.js's Online).
 * @typedef {{side: "host" | "guest", status: PeerStatus | null, chat: ChatLine[], unread: number,
 *   problems: string[], said: string, channel: unknown}} OnlineShown
 */

/** The chat's ready-made lines: each page words them in its own language (py_engine PHRASES). */
export const PHRASES = ["hello", "good_luck", "well_played", "thanks", "sorry", "one_moment", "good_game", "bye"];
export const CHAT_MAX = 500;
const RETURN_MS = 60_000;

/** @type {ReturnType<typeof setInterval> | undefined} */
let clock;
/** @type {OnlineShown | null} */
let shown = null;
/** @type {LocalVoice} */
const NO_CALL = { media: "off", microphone: "off", muted: false };

/** @param {string} id */
const el = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * Seconds left until ``until`` (ms), as m:ss.
 * @param {number} until
 */
function left(until) {
  const s = Math.max(0, Math.ceil((until - Date.now()) / 1000));
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, "0")}`;
}

/**
 * Draw the bar and the chat for the online game in play.
 * @param {OnlineShown} game
 * @param {number} seat your seat
 * @param {boolean} over the game is over (a rematch may be offered)
 * @param {LocalVoice} voice this side's call (game/online-voice.js)
 */
export function renderOnline(game, seat = game.side === "host" ? 0 : 1, over = false, voice = NO_CALL) {
  shown = game;
  const bar = el("online-bar");
  bar.hidden = false;
  el("chat-panel").hidden = false;
  const status = game.status;
  const other = 1 - seat;
  const name = status?.names?.[other] || t("online.chat.them");
  const paused = status?.paused ?? {};
  const ending = status?.ending || status?.accused;
  const standIn = status?.stand_in ?? [];
  const iAmAway = String(seat) in paused || standIn.includes(seat);
  /** @type {string} */
  let text;
  let deadline = null;
  if (ending) {
    text = game.said.slice(game.said.indexOf(" ") + 1);
  } else if (!game.channel) {
    const since = status?.away_since;
    deadline = since ? since + RETURN_MS : null;
    text = deadline ? t("online.status.away", { name, time: left(deadline) }) : t("online.status.reconnecting");
  } else if (status && !status.joined) {
    text = t("online.status.waiting");
  } else if (String(other) in paused) {
    deadline = paused[String(other)];
    text = t("online.status.paused", { name, time: left(deadline) });
  } else if (standIn.includes(other)) {
    text = t("online.status.standIn", { name });
  } else if (String(seat) in paused) {
    deadline = paused[String(seat)];
    text = t("online.status.youPaused", { time: left(deadline) });
  } else if (standIn.includes(seat)) {
    text = t("online.status.youStandIn");
  } else {
    text = t("online.status.playing", { name });
  }
  el("online-status").textContent = text;
  el("online-bar").dataset.connected = game.channel ? "1" : "0";
  const rematch = status?.rematch ?? [];
  el("online-show").hidden = over;
  el("online-pause").hidden = over || iAmAway;
  el("online-back").hidden = !iAmAway;
  el("online-resign").hidden = over;
  el("online-rematch").hidden = !over;
  el("online-rematch").textContent = rematch.includes(other) ? t("online.rematch.accept") : t("online.rematch");
  /** @type {HTMLButtonElement} */ (el("online-rematch")).disabled = rematch.includes(seat);
  el("online-warning").hidden = game.problems.length === 0;
  el("online-warning").textContent = game.problems.join(" ");
  el("online-report").hidden = !status?.joined;
  renderVoice(game.channel && status?.joined && !ending ? (status.voice ?? null) : null, voice, seat, name);
  renderChat(game, seat);
  clearInterval(clock);
  if (deadline) clock = setInterval(() => shown && renderOnline(shown, seat, over, voice), 1000);
}

/**
 * The voice call: what the engine says of it (null: no call can be made now) and this side's microphone.
 * @param {OnlineVoice | null} voice
 * @param {LocalVoice} local
 * @param {number} seat
 * @param {string} name the other player's
 */
function renderVoice(voice, local, seat, name) {
  el("voice").hidden = !voice;
  if (!voice) return;
  const other = 1 - seat;
  /** @type {string[]} */
  const said = [];
  if (voice.on) {
    if (local.media === "connected") said.push(t("voice.on", { name }));
    else if (local.media === "failed") said.push(t("voice.failed", { name }));
    else said.push(t("voice.connecting", { name }));
    if (local.microphone === "denied" || local.microphone === "missing") said.push(t("voice.noMicrophone", { name }));
    else if (local.muted) said.push(t("voice.youMuted"));
    if (voice.muted.includes(other)) said.push(t("voice.theyMuted", { name }));
  } else if (voice.asked === seat) {
    said.push(t("voice.waiting", { name }));
  } else if (voice.asked === other) {
    said.push(t("voice.asked", { name }));
  } else if (voice.last && (voice.last.by === other || voice.last.why === "lost")) {
    said.push(t(`voice.ended.${voice.last.why}`, { name }));
  }
  el("voice-status").textContent = said.join(" ");
  el("voice-ask").hidden = voice.on || voice.asked !== null;
  el("voice-accept").hidden = voice.asked !== other;
  el("voice-decline").hidden = voice.asked !== other;
  const mute = el("voice-mute");
  mute.hidden = !voice.on || local.microphone === "denied" || local.microphone === "missing";
  mute.setAttribute("aria-pressed", String(local.muted));
  const hangUp = el("voice-hang-up");
  hangUp.hidden = !voice.on && voice.asked !== seat;
  hangUp.textContent = voice.on ? t("voice.hangUp") : t("voice.withdraw");
}

/**
 * The chat log: each line with its writer's name, as text.
 * @param {OnlineShown} game
 * @param {number} seat
 */
function renderChat(game, seat) {
  const log = el("chat-log");
  const names = game.status?.names ?? ["", ""];
  const lines = game.chat.map((line) => {
    const item = document.createElement("p");
    item.className = line.seat === seat ? "chat-mine" : "chat-theirs";
    const who = document.createElement("b");
    who.textContent = line.seat === seat ? t("online.chat.you") : names[line.seat] || t("online.chat.them");
    const words = document.createElement("span");
    words.textContent = line.phrase ? t(`online.phrase.${line.phrase}`) : (line.text ?? "");
    item.append(who, ": ", words);
    return item;
  });
  log.replaceChildren(...lines);
  log.scrollTop = log.scrollHeight;
  const select = /** @type {HTMLSelectElement} */ (el("chat-phrase"));
  if (select.options.length !== PHRASES.length + 1) {
    const first = new Option(t("online.chat.phrases"), "");
    select.replaceChildren(first, ...PHRASES.map((p) => new Option(t(`online.phrase.${p}`), p)));
  }
}

/** No online game: the bar and the chat go. */
export function clearOnline() {
  shown = null;
  clearInterval(clock);
  el("online-bar").hidden = true;
  el("chat-panel").hidden = true;
  el("chat-log").replaceChildren();
}
