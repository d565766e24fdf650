// @ts-check
// A direct connection between two browsers with no third party: the host's
// invitation (a WebRTC offer with all its network candidates, as a code in a
// link) goes to the guest by any means, the guest's answer code comes back
// the same way, and a data channel opens between them. Nothing but the two
// browsers (and the STUN/TURN servers given, if any) takes part; with
// ``iceServers: []`` two devices on one network connect with no internet.
//
//   const invitation = await createInvitation({ iceServers });
//   show(invitation.link(location.href));             // host
//   const { answer, channel } = await acceptInvitation(code, { iceServers });
//   show(answer);                                     // guest
//   const hostChannel = await invitation.accept(answerCode);   // host
//
// Every failure is an OnlineError (errors.js) with a stable code.

import { Channel, dropOnPageHide, fingerprintsOf } from "./channel.js";
import { encodeCode, invitationLink, offerId, readCode } from "./codes.js";
import { asOnlineError, OnlineError } from "./errors.js";

/** The data channel's label; both sides open it themselves (negotiated, id 0). */
const LABEL = "sixty-six";
/** How long to wait for the network candidates (a STUN server that does not answer takes ~10 s). */
export const GATHER_TIMEOUT_MS = 5_000;
/** How long the host waits, once it has the answer, for the channel to open. */
export const CONNECT_TIMEOUT_MS = 20_000;
/** How long the guest waits, once it has made its answer, for the host to paste it and connect. */
export const GUEST_CONNECT_TIMEOUT_MS = 10 * 60_000;
/** How long a connection may stay "disconnected" (it may come back) before the channel counts it as lost. */
export const DISCONNECT_GRACE_MS = 4_000;
/** Past this much unsent data, messages wait in the page (the browser's own buffer is then not filled). */
const HIGH_WATER = 1 << 20;
const LOW_WATER = 1 << 18;

/**
 * @typedef {object} PeerOptions
 * @property {RTCIceServer[]} [iceServers] STUN and TURN servers (network-defaults.js: iceServersOf); [] for none
 * @property {number} [gatherTimeoutMs]
 * @property {number} [connectTimeoutMs]
 * @property {number} [disconnectGraceMs]
 */

function requireSupport() {
  if (typeof RTCPeerConnection !== "function") throw new OnlineError("unsupported", "no RTCPeerConnection");
  if (typeof CompressionStream !== "function") throw new OnlineError("unsupported", "no CompressionStream");
}

/** A new RTCPeerConnection; ``bad_ice_servers`` when the browser refuses the servers. @param {RTCIceServer[]} iceServers */
export function newConnection(iceServers) {
  try {
    return new RTCPeerConnection({ iceServers });
  } catch (error) {
    throw asOnlineError(error, "bad_ice_servers");
  }
}

/**
 * Wait until ``pc`` has gathered its candidates: all of them, or those found within ``timeoutMs``.
 * Throws ``no_address`` when there is none.
 * @param {RTCPeerConnection} pc
 * @param {number} timeoutMs
 */
export async function gather(pc, timeoutMs) {
  if (pc.iceGatheringState !== "complete") {
    await new Promise((resolve) => {
      const timer = setTimeout(finish, timeoutMs);
      function check() {
        if (pc.iceGatheringState === "complete" || pc.signalingState === "closed") finish();
      }
      /** @param {RTCPeerConnectionIceEvent} event */
      function candidate(event) {
        if (!event.candidate) finish();
      }
      function finish() {
        clearTimeout(timer);
        pc.removeEventListener("icegatheringstatechange", check);
        pc.removeEventListener("icecandidate", candidate);
        resolve(undefined);
      }
      pc.addEventListener("icegatheringstatechange", check);
      pc.addEventListener("icecandidate", candidate);
    });
  }
  if (pc.signalingState === "closed") throw new OnlineError("invitation_closed");
  const sdp = pc.localDescription?.sdp ?? "";
  if (!/^a=candidate:/m.test(sdp)) throw new OnlineError("no_address");
  return sdp;
}

/**
 * A Link (channel.js) over an open data channel: sends wait in the page past HIGH_WATER, so that many
 * messages in a row never overflow the browser's buffer.
 * @param {RTCPeerConnection} pc
 * @param {RTCDataChannel} dc
 * @param {() => void} onFailure
 * @returns {import("./channel.js").Link}
 */
function dataChannelLink(pc, dc, onFailure) {
  /** @type {string[]} */
  const outbox = [];
  let closing = false;
  dc.bufferedAmountLowThreshold = LOW_WATER;
  dc.addEventListener("bufferedamountlow", drain);
  function drain() {
    try {
      while (outbox.length && dc.readyState === "open" && dc.bufferedAmount <= HIGH_WATER) {
        dc.send(/** @type {string} */ (outbox.shift()));
      }
    } catch {
      outbox.length = 0;
      onFailure();
    }
    if (closing && (!outbox.length || dc.readyState !== "open")) end();
  }
  // What the data channel was given still leaves after close(); then the connection ends.
  function end() {
    dc.removeEventListener("bufferedamountlow", drain);
    if (dc.readyState === "closed") pc.close();
    else {
      dc.addEventListener("close", () => pc.close());
      setTimeout(() => pc.close(), 1_000);
      dc.close();
    }
  }
  return {
    maxMessageBytes: pc.sctp?.maxMessageSize || 65_536,
    send(text) {
      outbox.push(text);
      drain();
    },
    close() {
      // The goodbye was queued just before: once the queue is handed over, close.
      closing = true;
      drain();
    },
  };
}

/**
 * @typedef {{dc: RTCDataChannel, early: MessageEvent[], release: () => void}} HeldChannel
 */

/**
 * ``pc``'s data channel, made here and keeping every message it dispatches until ``release()``. Held from
 * its creation: the other side may send as soon as the channel opens, before "open" is dispatched here and
 * even before the page's code after setRemoteDescription runs (the browser does not order those tasks),
 * and none may be lost.
 * @param {RTCPeerConnection} pc
 * @returns {HeldChannel}
 */
function heldDataChannel(pc) {
  const dc = pc.createDataChannel(LABEL, { negotiated: true, id: 0, ordered: true });
  /** @type {MessageEvent[]} */
  const early = [];
  /** @param {MessageEvent} event */
  const keep = (event) => early.push(event);
  dc.addEventListener("message", keep);
  return { dc, early, release: () => dc.removeEventListener("message", keep) };
}

/**
 * The channel of ``pc`` once ``held``'s data channel opens, with the messages held so far first. Rejects
 * with ``connect_timeout``, ``ice_failed`` (the network paths all failed) or ``invitation_closed`` (``pc``
 * was closed meanwhile).
 * @param {RTCPeerConnection} pc
 * @param {HeldChannel} held
 * @param {{role: "host" | "guest", started: number, timeoutMs: number, graceMs: number}} how
 * @param {AbortSignal} signal aborted when the invitation is withdrawn or the guest gives up
 * @returns {Promise<Channel>}
 */
function whenOpen(pc, held, how, signal) {
  const { dc, early } = held;
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(new OnlineError("invitation_closed"));
      return;
    }
    const timer = setTimeout(() => fail(new OnlineError("connect_timeout", `${how.timeoutMs} ms`)), how.timeoutMs);
    function stateChange() {
      if (pc.connectionState === "failed") fail(new OnlineError("ice_failed"));
      else if (pc.connectionState === "closed" || pc.signalingState === "closed") {
        fail(new OnlineError("invitation_closed"));
      }
    }
    /** @param {OnlineError} error */
    function fail(error) {
      stop();
      pc.close();
      reject(error);
    }
    function aborted() {
      fail(new OnlineError("invitation_closed"));
    }
    function stop() {
      clearTimeout(timer);
      signal.removeEventListener("abort", aborted);
      pc.removeEventListener("connectionstatechange", stateChange);
      pc.removeEventListener("signalingstatechange", stateChange);
      dc.removeEventListener("open", open);
      dc.removeEventListener("close", closedEarly);
      held.release();
    }
    function closedEarly() {
      fail(new OnlineError(pc.connectionState === "failed" ? "ice_failed" : "connect_timeout", "channel closed"));
    }
    function open() {
      stop();
      resolve(channelOver(pc, dc, how, early));
    }
    signal.addEventListener("abort", aborted);
    pc.addEventListener("connectionstatechange", stateChange);
    pc.addEventListener("signalingstatechange", stateChange);
    dc.addEventListener("open", open);
    dc.addEventListener("close", closedEarly);
    if (dc.readyState === "open") open();
    else stateChange();
  });
}

/**
 * @param {RTCPeerConnection} pc
 * @param {RTCDataChannel} dc
 * @param {{role: "host" | "guest", started: number, graceMs: number}} how
 * @param {MessageEvent[]} early messages that came before the channel opened, in order
 */
function channelOver(pc, dc, how, early) {
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let grace;
  const channel = new Channel(
    dataChannelLink(pc, dc, () => channel.lost("connection_lost", "send failed")),
    {
      via: "link",
      role: how.role,
      connectMs: Math.round(performance.now() - how.started),
      fingerprints: fingerprintsOf(pc),
    },
  );
  /** @param {MessageEvent} event */
  const receive = (event) => {
    if (typeof event.data === "string") channel.deliver(event.data);
    else channel.lost("protocol_error", "binary message");
  };
  dc.addEventListener("message", receive);
  for (const event of early) receive(event);
  dc.addEventListener("close", () => channel.lost("connection_lost", "data channel closed"));
  pc.addEventListener("connectionstatechange", () => {
    const state = pc.connectionState;
    if (state === "failed" || state === "closed") channel.lost("connection_lost", `connection ${state}`);
    else if (state === "disconnected") {
      grace ??= setTimeout(() => channel.lost("connection_lost", "disconnected"), how.graceMs);
    } else if (state === "connected") {
      clearTimeout(grace);
      grace = undefined;
    }
  });
  channel.closed.then(() => clearTimeout(grace));
  dropOnPageHide(channel, () => pc.close());
  return channel;
}

/**
 * A promise whose rejection, if nobody waits for it, is not reported as unhandled.
 * @template T
 * @param {Promise<T>} promise
 */
function quiet(promise) {
  promise.catch(() => {});
  return promise;
}

/** The host's side: an invitation to share, and the answer it waits for. */
export class Invitation {
  #pc;
  #held;
  #options;
  #used = false;
  #closed = false;
  #withdrawn = new AbortController();

  /**
   * Made by createInvitation.
   * @param {RTCPeerConnection} pc
   * @param {HeldChannel} held its data channel, holding what arrives until accept() listens
   * @param {string} code
   * @param {number} id
   * @param {Required<Omit<PeerOptions, "iceServers">>} options
   */
  constructor(pc, held, code, id, options) {
    this.#pc = pc;
    this.#held = held;
    this.#options = options;
    /** The invitation code (base64url, ~400-900 characters): for a link's fragment, a QR code or a message. */
    this.code = code;
    /** The offer's id: an answer names it (codes.js). */
    this.id = id;
  }

  /**
   * The invitation as a link to the page at ``base`` (e.g. ``location.href``): ``base#join=CODE``.
   * @param {string} base
   */
  link(base) {
    return invitationLink(base, this.code);
  }

  /**
   * Connect with the guest's answer code (or text holding it). Resolves with the open Channel.
   *
   * Rejects with an OnlineError: ``code_empty``, ``code_damaged``, ``code_version``, ``not_an_answer``,
   * ``own_invitation`` (this invitation's own code), ``wrong_answer`` (an answer to another invitation):
   * the invitation stays usable; then ``invitation_used``, ``invitation_closed``, ``connect_timeout``,
   * ``ice_failed``, ``webrtc_error``.
   * @param {string} answerText
   * @returns {Promise<Channel>}
   */
  async accept(answerText) {
    if (this.#closed) throw new OnlineError("invitation_closed");
    if (this.#used) throw new OnlineError("invitation_used");
    const answer = await readCode(answerText, "answer");
    if (answer.kind === "offer") throw new OnlineError(answer.id === this.id ? "own_invitation" : "not_an_answer");
    if (answer.id !== this.id) throw new OnlineError("wrong_answer");
    if (this.#closed) throw new OnlineError("invitation_closed");
    if (this.#used) throw new OnlineError("invitation_used");
    this.#used = true;
    const started = performance.now();
    try {
      await this.#pc.setRemoteDescription({ type: "answer", sdp: answer.sdp });
    } catch (error) {
      this.close();
      throw asOnlineError(error, "webrtc_error");
    }
    return whenOpen(
      this.#pc,
      this.#held,
      {
        role: "host",
        started,
        timeoutMs: this.#options.connectTimeoutMs,
        graceMs: this.#options.disconnectGraceMs,
      },
      this.#withdrawn.signal,
    );
  }

  /**
   * Withdraw the invitation (a pending accept rejects with ``invitation_closed``). A channel it already
   * opened is not affected: close that one itself.
   */
  close() {
    if (this.#closed) return;
    this.#closed = true;
    this.#withdrawn.abort();
    if (!this.#used) this.#pc.close();
  }
}

/**
 * @param {PeerOptions} options
 * @param {number} connectTimeoutMs
 */
function settle(options, connectTimeoutMs) {
  return {
    iceServers: options.iceServers ?? [],
    gatherTimeoutMs: options.gatherTimeoutMs ?? GATHER_TIMEOUT_MS,
    connectTimeoutMs: options.connectTimeoutMs ?? connectTimeoutMs,
    disconnectGraceMs: options.disconnectGraceMs ?? DISCONNECT_GRACE_MS,
  };
}

/**
 * The host makes an invitation. Rejects with an OnlineError: ``unsupported``, ``bad_ice_servers``,
 * ``no_address``, ``webrtc_error``.
 * @param {PeerOptions} [options]
 * @returns {Promise<Invitation>}
 */
export async function createInvitation(options = {}) {
  requireSupport();
  const { iceServers, ...rest } = settle(options, CONNECT_TIMEOUT_MS);
  const pc = newConnection(iceServers);
  try {
    const held = heldDataChannel(pc);
    await pc.setLocalDescription(await pc.createOffer());
    const sdp = await gather(pc, rest.gatherTimeoutMs);
    const code = await encodeCode("offer", sdp);
    return new Invitation(pc, held, code, offerId(sdp), rest);
  } catch (error) {
    pc.close();
    throw asOnlineError(error, "webrtc_error");
  }
}

/**
 * @typedef {object} Acceptance
 * @property {string} answer the answer code to send back to the host
 * @property {Promise<Channel>} channel resolves once the host has used the answer and the channel is open;
 *   rejects with ``connect_timeout`` (by default after 10 minutes), ``ice_failed`` or ``invitation_closed``
 *   (after close())
 * @property {() => void} close give up
 */

/**
 * The guest answers an invitation (its code, or the whole link). Rejects with an OnlineError:
 * ``unsupported``, ``code_empty``, ``code_damaged``, ``code_version``, ``not_an_invitation``,
 * ``bad_ice_servers``, ``no_address``, ``webrtc_error``.
 * @param {string} invitationText
 * @param {PeerOptions} [options]
 * @returns {Promise<Acceptance>}
 */
export async function acceptInvitation(invitationText, options = {}) {
  requireSupport();
  const { iceServers, ...rest } = settle(options, GUEST_CONNECT_TIMEOUT_MS);
  const offer = await readCode(invitationText, "offer");
  if (offer.kind !== "offer") throw new OnlineError("not_an_invitation", "an answer code");
  const pc = newConnection(iceServers);
  try {
    const held = heldDataChannel(pc);
    await pc.setRemoteDescription({ type: "offer", sdp: offer.sdp });
    await pc.setLocalDescription(await pc.createAnswer());
    const sdp = await gather(pc, rest.gatherTimeoutMs);
    const answer = await encodeCode("answer", sdp, offer.id);
    const givenUp = new AbortController();
    const how = {
      role: /** @type {const} */ ("guest"),
      started: performance.now(),
      timeoutMs: rest.connectTimeoutMs,
      graceMs: rest.disconnectGraceMs,
    };
    const channel = quiet(whenOpen(pc, held, how, givenUp.signal));
    return { answer, channel, close: () => givenUp.abort() };
  } catch (error) {
    pc.close();
    throw asOnlineError(error, "webrtc_error");
  }
}
