// @ts-check
// Voice between two connected browsers: an audio-only WebRTC connection of
// its own, negotiated over the game's channel (one offer from the host, one
// answer from the guest, each holding all its network candidates, as in
// peer.js) with the same STUN and TURN servers, so it works however the two
// met, on a local network with no internet too. Whether a call is on is the
// engine's to say (py_engine/service/online/voice.py): this module opens the
// microphone when told, carries the sound, mutes, and closes it all again.
//
//   const call = new VoiceCall({ call: 1, role: "offer", iceServers, send });
//   await call.start();          // the microphone opens; the offerer sends its offer
//   await call.receive(signal);  // the other side's offer or answer (readVoiceSignal)
//   call.muted = true;           // nothing more is sent
//   call.close();                // the microphone is released, the connection closed

import { OnlineError } from "./errors.js";
import { GATHER_TIMEOUT_MS, gather, newConnection } from "./peer.js";

/** The largest SDP accepted from the other side (an audio offer is some 2-4 KB). */
export const VOICE_SDP_MAX = 16_384;
/** Signals taken from the other side: a burst, then this many a second (a call needs one). */
export const SIGNAL_BURST = 4;
export const SIGNALS_PER_S = 1;

/** What this page did with microphones: how many it asked for, and how many are still open (the tests read it). */
export const microphones = { opened: 0, live: 0 };

/**
 * A media signal: the offer or the answer of call ``call`` (the engine's number of the call), as it travels in
 * the game's channel inside ``{voice: signal}``.
 * @typedef {{call: number, type: "offer" | "answer", sdp: string}} VoiceSignal
 */
/** @typedef {"connecting" | "connected" | "failed" | "closed"} MediaState */
/** @typedef {"opening" | "open" | "denied" | "missing" | "closed"} MicrophoneState */

/**
 * The signal inside ``{voice: ...}``, checked: its keys, its call number, its kind, its size, and audio only.
 * Throws OnlineError ``voice_bad_signal``.
 * @param {{voice: unknown}} value
 * @returns {VoiceSignal}
 */
export function readVoiceSignal(value) {
  const s = /** @type {Record<string, unknown>} */ (value.voice);
  const bad = (/** @type {string} */ why) => new OnlineError("voice_bad_signal", why);
  if (typeof s !== "object" || s === null || Array.isArray(s)) throw bad("not an object");
  if (Object.keys(value).length !== 1 || Object.keys(s).some((k) => !["call", "type", "sdp"].includes(k))) {
    throw bad("unknown fields");
  }
  if (!Number.isSafeInteger(s.call) || /** @type {number} */ (s.call) < 1) throw bad("no call number");
  if (s.type !== "offer" && s.type !== "answer") throw bad("neither an offer nor an answer");
  const sdp = s.sdp;
  if (typeof sdp !== "string" || sdp.length > VOICE_SDP_MAX) throw bad(`an SDP of at most ${VOICE_SDP_MAX} characters`);
  const media = sdp.match(/^m=\S+/gm) ?? [];
  if (!sdp.startsWith("v=0") || media.length === 0 || media.some((m) => m !== "m=audio")) throw bad("not audio only");
  return { call: /** @type {number} */ (s.call), type: s.type, sdp };
}

/**
 * A token bucket: ``admit(now)`` is true for a burst of ``burst``, then ``perSecond`` a second.
 * @param {number} burst
 * @param {number} perSecond
 */
export function rateLimit(burst, perSecond) {
  let tokens = burst;
  let at = -Infinity;
  return (/** @type {number} */ now) => {
    tokens = Math.min(burst, tokens + (Math.max(0, now - at) * perSecond) / 1000);
    at = now;
    if (tokens < 1) return false;
    tokens -= 1;
    return true;
  };
}

/** Plays the other side's sound; gives back how to stop it. @param {MediaStreamTrack} track */
function playTrack(track) {
  const audio = new Audio();
  audio.autoplay = true;
  audio.srcObject = new MediaStream([track]);
  audio.play().catch(() => {}); // it plays once the page may (a click on "Accept" allows it)
  return () => {
    audio.pause();
    audio.srcObject = null;
  };
}

/**
 * @typedef {object} VoiceOptions
 * @property {number} call the engine's number of this call
 * @property {"offer" | "answer"} role the host offers, the guest answers
 * @property {RTCIceServer[]} iceServers the same as the game's connection
 * @property {(signal: VoiceSignal) => void} send into the game's channel
 * @property {Pick<MediaDevices, "getUserMedia">} [media] navigator.mediaDevices, or a stand-in
 * @property {(track: MediaStreamTrack) => () => void} [play] plays the other's sound, gives back how to stop it
 * @property {number} [gatherTimeoutMs]
 */

export class VoiceCall {
  /** @type {MediaState} */
  state = "connecting";
  /** @type {MicrophoneState} */
  microphone = "opening";
  /** Why the microphone could not be opened (the browser's error name), if it could not. */
  microphoneError = "";
  /** Called after every change of state, microphone or mute. */
  onchange = () => {};
  #pc;
  #options;
  /** @type {RTCRtpTransceiver | null} */
  #transceiver = null;
  /** @type {MediaStreamTrack | null} */
  #track = null;
  #muted = false;
  #stopPlaying = () => {};
  /** @type {"offer" | "answer" | null} what this side waits for from the other */
  #expecting;
  /** @type {() => void} */
  #markEnded = () => {};
  /** @type {Promise<null>} settles when the call is closed here */
  #ended = new Promise((resolve) => {
    this.#markEnded = () => resolve(null);
  });

  /** @param {VoiceOptions} options */
  constructor(options) {
    this.#options = options;
    this.call = options.call;
    this.role = options.role;
    this.#expecting = options.role === "offer" ? "answer" : "offer";
    this.#pc = newConnection(options.iceServers);
    this.#pc.addEventListener("track", (event) => {
      this.#stopPlaying();
      this.#stopPlaying = (options.play ?? playTrack)(event.track);
    });
    this.#pc.addEventListener("connectionstatechange", () => {
      const s = this.#pc.connectionState;
      if (this.state === "closed") return;
      if (s === "connected") this.#set("connected");
      else if (s === "failed") this.#set("failed");
    });
  }

  /** Open the microphone; the offerer makes and sends its offer meanwhile. */
  async start() {
    const microphone = this.#openMicrophone();
    if (this.role === "offer") {
      this.#transceiver = this.#pc.addTransceiver("audio", { direction: "sendrecv" });
      this.#applyTrack();
      await this.#pc.setLocalDescription(await this.#pc.createOffer());
      await this.#sendLocal("offer");
    }
    await microphone;
  }

  /**
   * The other side's signal for this call (checked by readVoiceSignal): the offer (answered) or the answer.
   * A second one, or one of the wrong kind, throws ``voice_bad_signal``.
   * @param {VoiceSignal} signal
   */
  async receive(signal) {
    if (signal.call !== this.call || signal.type !== this.#expecting) {
      throw new OnlineError("voice_bad_signal", `unexpected ${signal.type} for call ${signal.call}`);
    }
    this.#expecting = null;
    await this.#pc.setRemoteDescription({ type: signal.type, sdp: signal.sdp });
    if (signal.type === "answer") return;
    const transceiver = this.#pc.getTransceivers().find((t) => t.receiver.track.kind === "audio") ?? null;
    if (transceiver) transceiver.direction = "sendrecv";
    this.#transceiver = transceiver;
    this.#applyTrack();
    await this.#pc.setLocalDescription(await this.#pc.createAnswer());
    await this.#sendLocal("answer");
  }

  /** Muted: the microphone's track is disabled and nothing is sent (the other side hears nothing). */
  get muted() {
    return this.#muted;
  }

  set muted(on) {
    this.#muted = on;
    this.#applyTrack();
    this.onchange();
  }

  /** End the call here: the connection closes, the microphone is released, the other's sound stops. */
  close() {
    if (this.state === "closed") return;
    this.state = "closed";
    this.#markEnded();
    this.#stopTrack();
    this.#stopPlaying();
    this.#pc.close();
  }

  /** True once the call has ended here (a getter, so a check after an await reads the state afresh). */
  get isClosed() {
    return this.state === "closed";
  }

  /** Bytes of sound sent and received so far, and the level of the sound received (0 to 1, where known). */
  async stats() {
    const totals = { sent: 0, received: 0, level: 0 };
    if (this.state === "closed") return totals;
    let report;
    try {
      // Firefox rejects, or never settles, a reading that a hang-up overtook: a closed call has nothing
      // more to count, so a reading ends with the call.
      report = await Promise.race([this.#pc.getStats(), this.#ended]);
    } catch (error) {
      if (this.isClosed) return totals;
      throw error;
    }
    if (report === null) return totals;
    report.forEach((entry) => {
      if (entry.type === "outbound-rtp" && entry.kind === "audio") totals.sent += entry.bytesSent ?? 0;
      if (entry.type === "inbound-rtp" && entry.kind === "audio") {
        totals.received += entry.bytesReceived ?? 0;
        totals.level = Math.max(totals.level, entry.audioLevel ?? 0);
      }
    });
    return totals;
  }

  async #openMicrophone() {
    const media = this.#options.media ?? globalThis.navigator?.mediaDevices;
    try {
      if (!media) throw new DOMException("no media devices", "NotFoundError");
      microphones.opened += 1;
      const stream = await media.getUserMedia({ audio: true, video: false });
      const track = stream.getAudioTracks()[0];
      if (!track) throw new DOMException("no audio track", "NotFoundError");
      microphones.live += 1;
      this.#track = track;
      if (this.state === "closed") {
        this.#stopTrack();
        return;
      }
      this.microphone = "open";
      this.#applyTrack();
    } catch (error) {
      if (this.state === "closed") return;
      const name = error instanceof Error ? error.name : "";
      this.microphone = name === "NotAllowedError" || name === "SecurityError" ? "denied" : "missing";
      this.microphoneError = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    }
    this.onchange();
  }

  #applyTrack() {
    const track = this.#track;
    if (track) track.enabled = !this.#muted;
    const sender = this.#transceiver?.sender;
    if (sender && this.state !== "closed") sender.replaceTrack(this.#muted ? null : track).catch(() => {});
  }

  #stopTrack() {
    if (!this.#track) return;
    this.#track.stop();
    this.#track = null;
    microphones.live -= 1;
    if (this.microphone === "open") this.microphone = "closed";
  }

  /** @param {"offer" | "answer"} type */
  async #sendLocal(type) {
    const sdp = await gather(this.#pc, this.#options.gatherTimeoutMs ?? GATHER_TIMEOUT_MS);
    if (this.state !== "closed") this.#options.send({ call: this.call, type, sdp });
  }

  /** @param {MediaState} state */
  #set(state) {
    this.state = state;
    this.onchange();
  }
}
