// @ts-check
// A Channel: what online play talks through once two browsers are connected,
// the same whichever way they met (an invitation link, peer.js; a room code,
// room.js). Ordered, reliable JSON messages, and one report of its end.
// Pure: the transport under it is a Link; tested under Node with a stand-in.
//
// On the wire every message is one JSON text: {"n": 1, "d": value} with n
// counting 1, 2, 3, … (a gap or a repeat ends the channel with
// "protocol_error": the transports promise neither, so it would be a bug);
// {"bye": 1} says the other side closed on purpose.

import { OnlineError } from "./errors.js";

/**
 * The transport under a channel: how to send one text and how to end it.
 * @typedef {object} Link
 * @property {(text: string) => void} send
 * @property {(saidGoodbye?: boolean) => void} close ``saidGoodbye``: this side has just sent its goodbye (the
 *   other side will close too)
 * @property {number} maxMessageBytes the largest text (UTF-8 bytes) the link carries whole
 */

/**
 * What the channel is: how it was made, and when.
 * @typedef {object} ChannelInfo
 * @property {"link" | "room"} via an invitation link and answer code (peer.js), or a room code (room.js)
 * @property {"host" | "guest"} role
 * @property {number} connectMs from this side's last step until the channel opened, in ms: the host's accept()
 *   of the answer, or the guest's answer being made (peer.js); opening or joining the room (room.js)
 * @property {Fingerprints} [fingerprints] the certificates of the connection under the channel (none for a
 *   stand-in link): the identity proofs sign them (handshake.js)
 */

/**
 * The DTLS certificate fingerprints of a WebRTC connection, as its two session descriptions state them (each
 * "algorithm HEX", several joined by commas, in order): this side's and the other side's. DTLS holds each side
 * to the certificate its description states, so two pages with a third relaying between them see different
 * ones.
 * @typedef {{local: string, remote: string}} Fingerprints
 */

/**
 * The fingerprints of ``pc``'s two session descriptions.
 * @param {{localDescription: {sdp: string} | null, remoteDescription: {sdp: string} | null}} pc
 * @returns {Fingerprints}
 */
export function fingerprintsOf(pc) {
  /** @param {string | undefined} sdp */
  const of = (sdp) =>
    [
      ...new Set(
        [...(sdp ?? "").matchAll(/^a=fingerprint:(\S+) ([0-9A-Fa-f:]+)\s*$/gm)].map(
          (m) => `${m[1].toLowerCase()} ${m[2].toUpperCase()}`,
        ),
      ),
    ]
      .sort()
      .join(",");
  return { local: of(pc.localDescription?.sdp), remote: of(pc.remoteDescription?.sdp) };
}

/** The largest message any channel accepts (UTF-8 bytes of its JSON), whatever its transport. */
export const MAX_MESSAGE_BYTES = 65_536;
const BYE = '{"bye":1}';

/** @param {unknown} error */
function report(error) {
  if (typeof reportError === "function") reportError(error);
  else console.error(error);
}

export class Channel {
  /** @type {((value: unknown) => void) | null} */
  #onmessage = null;
  /** @type {((reason: OnlineError) => void) | null} */
  #onclose = null;
  /** @type {unknown[]} */
  #inbox = [];
  #flushQueued = false;
  #sent = 0;
  #received = 0;
  /** @type {OnlineError | null} */
  #reason = null;
  #byeReceived = false;
  /** @type {(reason: OnlineError) => void} */
  #resolveClosed = () => {};
  #link;

  /**
   * Made by peer.js and room.js, not by the page.
   * @param {Link} link
   * @param {ChannelInfo} info
   */
  constructor(link, info) {
    this.#link = link;
    /** @type {Readonly<ChannelInfo>} */
    this.info = Object.freeze({ ...info });
    /** Resolves with the reason once the channel is closed, however that happened (it never rejects). */
    this.closed = /** @type {Promise<OnlineError>} */ (new Promise((resolve) => (this.#resolveClosed = resolve)));
  }

  /** True until the channel is closed (by either side, or by a lost connection). */
  get isOpen() {
    return this.#reason === null;
  }

  /** Why the channel closed (``closed``, ``peer_closed``, ``connection_lost``, ``protocol_error``), or null. */
  get reason() {
    return this.#reason;
  }

  /** How many messages were sent and received. */
  get counts() {
    return { sent: this.#sent, received: this.#received };
  }

  /**
   * Called with each message, in order. Messages that arrive while there is no handler wait for one.
   * @returns {((value: unknown) => void) | null}
   */
  get onmessage() {
    return this.#onmessage;
  }

  set onmessage(handler) {
    this.#onmessage = handler;
    if (handler && this.#inbox.length) this.#scheduleFlush();
  }

  /**
   * Called once when the channel closes, with the reason; a handler set after that is called at once.
   * @returns {((reason: OnlineError) => void) | null}
   */
  get onclose() {
    return this.#onclose;
  }

  set onclose(handler) {
    this.#onclose = handler;
    const reason = this.#reason;
    if (handler && reason) queueMicrotask(() => handler(reason));
  }

  /**
   * Send a JSON value. Throws an OnlineError: ``channel_closed``, ``not_json`` (undefined, a function, a
   * cycle, a BigInt), ``message_too_large`` (over MAX_MESSAGE_BYTES).
   * @param {unknown} value
   */
  send(value) {
    if (this.#reason) throw new OnlineError("channel_closed", this.#reason.code);
    if (value === undefined || typeof value === "function" || typeof value === "symbol") {
      throw new OnlineError("not_json", typeof value);
    }
    let text;
    try {
      text = JSON.stringify({ n: this.#sent + 1, d: value });
    } catch (error) {
      throw new OnlineError("not_json", error instanceof Error ? error.message : String(error));
    }
    const bytes = new TextEncoder().encode(text).length;
    const limit = Math.min(MAX_MESSAGE_BYTES, this.#link.maxMessageBytes);
    if (bytes > limit) throw new OnlineError("message_too_large", `${bytes} bytes, at most ${limit}`);
    this.#link.send(text);
    this.#sent += 1;
  }

  /** Close the channel; the other side is told (``peer_closed``). Closing twice does nothing. */
  close() {
    if (this.#reason) return;
    try {
      this.#link.send(BYE);
    } catch {
      // the link is already gone: the other side learns it from the transport
    }
    this.#end(new OnlineError("closed"));
    this.#link.close(true);
  }

  // ----- the transport's side (peer.js, room.js)

  /**
   * A text arrived from the other side.
   * @param {string} text
   */
  deliver(text) {
    if (this.#reason) return;
    /** @type {unknown} */
    let message;
    try {
      message = JSON.parse(text);
    } catch {
      message = null;
    }
    const m = /** @type {{n?: unknown, d?: unknown, bye?: unknown}} */ (message ?? {});
    if (m.bye === 1) {
      this.#byeReceived = true;
      this.lost("peer_closed");
      return;
    }
    if (typeof message !== "object" || !("d" in m) || m.n !== this.#received + 1) {
      this.lost("protocol_error", typeof m.n === "number" ? `message ${m.n}, expected ${this.#received + 1}` : "");
      return;
    }
    this.#received += 1;
    this.#inbox.push(m.d);
    if (this.#onmessage && !this.#flushQueued) this.#flush();
  }

  /**
   * The transport ended (or the other side broke the protocol): close with ``code``. A lost connection after
   * the other side's goodbye is reported as ``peer_closed``.
   * @param {"peer_closed" | "connection_lost" | "protocol_error"} code
   * @param {string} [detail]
   */
  lost(code, detail = "") {
    if (this.#reason) return;
    this.#end(new OnlineError(this.#byeReceived ? "peer_closed" : code, detail));
    this.#link.close();
  }

  /** @param {OnlineError} reason */
  #end(reason) {
    this.#reason = reason;
    this.#resolveClosed(reason);
    const handler = this.#onclose;
    // After the messages that arrived before it.
    if (handler) queueMicrotask(() => handler(reason));
  }

  #scheduleFlush() {
    if (this.#flushQueued) return;
    this.#flushQueued = true;
    queueMicrotask(() => {
      this.#flushQueued = false;
      this.#flush();
    });
  }

  #flush() {
    while (this.#inbox.length && this.#onmessage) {
      const value = this.#inbox.shift();
      try {
        this.#onmessage(value);
      } catch (error) {
        report(error);
      }
    }
  }
}

/** Open channels, each with the way to drop its transport at once (see dropOnPageHide). */
const live = new Map();
let hooked = false;

/**
 * When this page is closed, reloaded or left, drop ``channel``'s transport at once with ``drop`` (no
 * goodbye: leaving a page is not leaving the game), so that the other side learns of it within a moment
 * (``connection_lost``) instead of after the browser's own timeouts (some ten seconds in Chromium).
 * @param {Channel} channel
 * @param {() => void} drop
 */
export function dropOnPageHide(channel, drop) {
  live.set(channel, drop);
  channel.closed.then(() => live.delete(channel));
  if (hooked || typeof globalThis.addEventListener !== "function") return;
  hooked = true;
  globalThis.addEventListener("pagehide", () => {
    for (const [open, dropIt] of [...live]) {
      try {
        dropIt();
      } finally {
        open.lost("connection_lost", "this page was closed");
      }
    }
  });
}
