// @ts-check
// Voice in the online game: the media of web/online/voice.js follow the
// engine's word on the call (the status's "voice": on only once both
// players accepted). The host offers, the guest answers, both over the
// game's channel; the microphone opens only when the call is on. Mute and
// hang-up act here at once (the microphone goes quiet, or closes) and are
// told to the engine by game/controls.js, which tells the other side. A
// microphone that cannot be opened is said in words and changes nothing
// else: the call goes on, this side only listening.

import { OnlineError } from "../online/errors.js";
import { t } from "../platform/i18n.js";
import { notify } from "./draw.js";

/** @import { Channel } from "../online/channel.js" */
/** @import { PeerStatus } from "../../types/engine.js" */
/** @import { MediaState, MicrophoneState, VoiceCall } from "../online/voice.js" */

/** What the online bar shows of this side's call, beyond the engine's status. */
/** @typedef {{media: MediaState | "off", microphone: MicrophoneState | "off", muted: boolean}} LocalVoice */

/** The media and the network settings, loaded with the first call (the lobby loaded them for the game already). */
const media = () => Promise.all([import("../online/voice.js"), import("../online/network-defaults.js")]);

/** The call the engine says is on (its number; 0: none), and its media once made. */
let wanted = 0;
/** @type {VoiceCall | null} */
let call = null;
/** Resolves once the wanted call is made (a signal for it waits). */
let making = Promise.resolve();
/** The last call this side hung up: the engine may say it is on until it has heard so. */
let hungUp = 0;
/** This side muted the call (applied to its media once made). */
let muted = false;
/** A bad signal is said once a call. */
let told = false;
/** Signals taken from the other side (voice.js rateLimit), afresh with each call; made with the first signal. */
/** @type {((now: number) => boolean) | null} */
let admit = null;
/** Redraws the bar (set by followVoice). */
let changed = () => {};

/**
 * Is this value from the channel a voice signal (for voice.js, never for the engine)? The engine's messages are
 * texts.
 * @param {unknown} value
 * @returns {value is {voice: unknown}}
 */
export function isVoiceSignal(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value) && "voice" in value;
}

/** This side's call as the bar shows it. @returns {LocalVoice} */
export function localVoice() {
  return { media: call?.state ?? "off", microphone: call?.microphone ?? "off", muted: wanted > 0 && muted };
}

/**
 * Follow the engine's status: a call it says is on starts here (the channel being open), one it says is off ends.
 * @param {{side: "host" | "guest", status: PeerStatus | null, channel: Channel | null}} game
 * @param {() => void} redraw
 */
export function followVoice(game, redraw) {
  changed = redraw;
  const channel = game.channel;
  if (!channel?.isOpen) {
    stopVoice();
    return;
  }
  const voice = game.status?.voice;
  const next = voice?.on && voice.call > hungUp ? voice.call : 0;
  if (next === wanted) return;
  end();
  wanted = next;
  if (next) making = makeCall(next, game.side === "host" ? "offer" : "answer", channel);
}

/**
 * Make call ``number`` and start it: the microphone opens, the host sends its offer.
 * @param {number} number
 * @param {"offer" | "answer"} role
 * @param {Channel} channel
 */
async function makeCall(number, role, channel) {
  const [{ rateLimit, SIGNAL_BURST, SIGNALS_PER_S, VoiceCall }, { iceServersOf, storedNetworkSettings }] =
    await media();
  if (wanted !== number) return;
  told = false;
  admit = rateLimit(SIGNAL_BURST, SIGNALS_PER_S);
  const made = new VoiceCall({
    call: number,
    role,
    iceServers: iceServersOf(storedNetworkSettings()),
    send: (signal) => {
      if (channel.isOpen) channel.send({ voice: signal });
    },
  });
  made.muted = muted;
  let saidMicrophone = false;
  made.onchange = () => {
    if (call !== made) return;
    const detail = made.microphoneError;
    if (!saidMicrophone && made.microphone === "denied") notify(t("voice.microphone.denied", { detail }));
    if (!saidMicrophone && made.microphone === "missing") notify(t("voice.microphone.missing", { detail }));
    saidMicrophone ||= Boolean(detail);
    changed();
  };
  call = made;
  made.start().catch((error) => failed(made, error));
  changed();
}

/**
 * A voice signal from the other side (never for the engine): checked, then to the call it names.
 * @param {{voice: unknown}} value
 */
export async function voiceSignal(value) {
  await making;
  const [{ rateLimit, readVoiceSignal, SIGNAL_BURST, SIGNALS_PER_S }] = await media();
  const current = call;
  let signal;
  admit ??= rateLimit(SIGNAL_BURST, SIGNALS_PER_S);
  try {
    if (!admit(Date.now())) return; // a flood: left aside (a call needs one signal)
    signal = readVoiceSignal(value);
    if (!current || signal.call !== current.call) return; // a call that has ended here
    await current.receive(signal);
  } catch (error) {
    if (current && call !== current) return;
    if (signal && current && !(error instanceof OnlineError && error.code === "voice_bad_signal")) {
      failed(current, error); // the browser refused the other side's offer or answer
      return;
    }
    if (!told) notify(t("online.error.voice_bad_signal"));
    told = true;
  }
}

/**
 * This side's microphone goes quiet (or speaks again) at once; the engine is told by the caller.
 * @param {boolean} on
 */
export function muteVoice(on) {
  muted = on;
  if (call) call.muted = on;
  changed();
}

/** This side hangs up (or withdraws its request): the call ends here at once; the engine is told by the caller. */
export function hangUpVoice() {
  hungUp = Math.max(hungUp, wanted);
  end();
}

/** No more voice with this channel (it closed, or the game was left): the call ends, a new channel starts afresh. */
export function stopVoice() {
  hungUp = 0;
  end();
}

/** For the tests: this side's call, its microphones and the bytes of sound each way. */
export async function voiceForTests() {
  const [{ microphones }] = await media();
  const stats = call ? await call.stats() : { sent: 0, received: 0, level: 0 };
  return { call: call?.call ?? 0, ...localVoice(), ...microphones, ...stats };
}

function end() {
  wanted = 0;
  muted = false;
  if (!call) return;
  call.close();
  call = null;
  changed();
}

/**
 * The call could not be made (its offer or answer failed): shown as failed until someone hangs up.
 * @param {VoiceCall} failing
 * @param {unknown} error
 */
function failed(failing, error) {
  if (call !== failing || failing.state === "closed") return;
  console.warn("voice:", error);
  failing.state = "failed";
  changed();
}
