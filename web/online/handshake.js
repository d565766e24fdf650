// @ts-check
// Who is at the other end of a channel: before the game uses a new channel,
// each side proves that it holds the private key of the identity it claims,
// and each may refuse the other. Three messages each way, the first ones the
// channel carries:
//
//   {hs: "who", v: 1, identity, nonce}      at once, on both sides
//   {hs: "proof", signature}                once the other's "who" is here
//   {hs: "verdict", ok: true} | {hs: "verdict", ok: false, why: "unproved" | "refused"}
//
// The signature (made with the page's key: platform/identity.js) covers a
// text naming the signer's role, both identities, both nonces (fresh random
// bytes of this connection from each side) and both certificate fingerprints
// of the WebRTC connection under the channel (channel.js: fingerprintsOf). So
// a proof of one connection is no proof on another (replayed), and a page in
// the middle, relaying between two connections of its own, cannot pass on
// proofs: each end signs the certificates it sees, and the other end sees
// others. Only when both proofs hold and both sides accept does the channel
// go to the game, with the other side's proven identity; otherwise it is
// closed and the promise rejects. Pure but for the WebCrypto the caller's
// sign and verify use; tested under Node (tests/js/identity.test.mjs).

import { OnlineError } from "./errors.js";

/** How long the other side has to answer each step. */
export const HANDSHAKE_TIMEOUT_MS = 15_000;
const VERSION = 1;
const PURPOSE = "sixty-six identity proof";
const NONCE_BYTES = 32;
const IDENTITY_MAX = 200;
const SIGNATURE_MAX = 200;

/**
 * @typedef {object} Proving
 * @property {string} identity this browser's identity
 * @property {(challenge: string) => Promise<string>} sign this browser's signature of a text
 * @property {(identity: string, challenge: string, signature: string) => Promise<boolean>} verify
 * @property {(peer: string) => Promise<void> | void} [decide] may the proven ``peer`` play with us? Throws
 *   (any error, which the handshake rejects with) to refuse
 * @property {number} [timeoutMs]
 */

/** For the browser tests (test-hooks.js): the identity this page claims instead of its own ("" for its own). */
export const handshakeForTests = { claim: "" };

/** @param {Uint8Array} bytes */
function base64url(bytes) {
  let text = "";
  for (const byte of bytes) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * What one side of a connection is: its identity, its nonce, its certificate fingerprints.
 * @typedef {{identity: string, nonce: string, fingerprints: string}} Side
 */

/**
 * The text a side signs: its role, itself (identity, nonce, certificates), then the side it talks to.
 * @param {"host" | "guest"} role the signer's
 * @param {Side} signer
 * @param {Side} other
 */
export function challengeText(role, signer, other) {
  const fields = (/** @type {Side} */ side) => [side.identity, side.nonce, side.fingerprints];
  return JSON.stringify([PURPOSE, VERSION, role, ...fields(signer), ...fields(other)]);
}

/**
 * The first messages of ``channel``, one at a time: the handshake takes three and leaves the rest waiting
 * for the game's handler.
 * @param {import("./channel.js").Channel} channel
 * @param {number} count
 */
function reader(channel, count) {
  /** @type {unknown[]} */
  const arrived = [];
  /** @type {((value: unknown) => void)[]} */
  const waiting = [];
  let taken = 0;
  channel.onmessage = (value) => {
    taken += 1;
    if (taken >= count) channel.onmessage = null;
    const next = waiting.shift();
    if (next) next(value);
    else arrived.push(value);
  };
  return () => (arrived.length ? Promise.resolve(arrived.shift()) : new Promise((resolve) => waiting.push(resolve)));
}

/**
 * Prove this browser's identity to the other side of ``channel`` and check the other's proof; ``decide``
 * may then refuse the proven peer. Resolves with the other side's proven identity; the channel's next
 * messages are the game's. Rejects (and closes the channel) with ``identity_unproved`` (the other side's
 * proof is missing, malformed or false), ``refused`` (the other side did not accept this one; ``detail``
 * says "unproved" if it found this side's proof false), what ``decide`` threw, ``code_version`` (the other
 * side speaks no handshake of this version), or the channel's end (``peer_closed``, ``connection_lost``…).
 * @param {import("./channel.js").Channel} channel
 * @param {Proving} proving
 * @returns {Promise<string>}
 */
export async function proveIdentities(channel, proving) {
  const timeoutMs = proving.timeoutMs ?? HANDSHAKE_TIMEOUT_MS;
  const role = channel.info.role;
  const otherRole = role === "host" ? "guest" : "host";
  const mine = handshakeForTests.claim || proving.identity;
  const fingerprints = channel.info.fingerprints ?? { local: "", remote: "" };
  const nonce = base64url(crypto.getRandomValues(new Uint8Array(NONCE_BYTES)));
  const read = reader(channel, 3);
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer;
  const ended = channel.closed.then((reason) => {
    throw reason;
  });
  ended.catch(() => {});

  /** The other side's next message, if it is handshake step ``step``. @param {string} step */
  async function next(step) {
    const late = new Promise((_, reject) => {
      timer = setTimeout(
        () => reject(new OnlineError("identity_unproved", `no ${step} in ${timeoutMs} ms`)),
        timeoutMs,
      );
    });
    try {
      const value = /** @type {Record<string, unknown>} */ (await Promise.race([read(), ended, late]));
      if (value && typeof value === "object" && value.hs === "verdict" && value.ok === false && step !== "verdict") {
        // The other side refused before this step (it found our "who" unusable).
        throw new OnlineError("refused", value.why === "unproved" ? "unproved" : "");
      }
      if (!value || typeof value !== "object" || value.hs !== step) {
        if (step === "who" && (!value || typeof value !== "object" || !("hs" in value))) {
          throw new OnlineError("code_version", "the other side proves no identity");
        }
        throw new OnlineError("identity_unproved", `expected ${step}`);
      }
      return value;
    } finally {
      clearTimeout(timer);
    }
  }
  /** @param {Record<string, unknown>} message */
  function send(message) {
    try {
      channel.send({ ...message });
    } catch {
      // the channel is closed: the next read says why
    }
  }
  /** Refuse the other side: tell it why (in one word) and close. @param {"unproved" | "refused"} why */
  function refuse(why) {
    send({ hs: "verdict", ok: false, why });
    channel.close();
  }

  try {
    send({ hs: "who", v: VERSION, identity: mine, nonce });
    const who = await next("who");
    const peer = who.identity;
    const peerNonce = who.nonce;
    if (who.v !== VERSION) {
      refuse("unproved");
      throw new OnlineError("code_version", `the other side proves its identity in version ${String(who.v)}`);
    }
    const nonceFits = typeof peerNonce === "string" && peerNonce.length >= 40 && peerNonce.length <= 100;
    if (typeof peer !== "string" || !peer || peer.length > IDENTITY_MAX || !nonceFits || peerNonce === nonce) {
      refuse("unproved");
      throw new OnlineError("identity_unproved", "no identity or nonce");
    }
    const me = { identity: mine, nonce, fingerprints: fingerprints.local };
    const them = { identity: peer, nonce: peerNonce, fingerprints: fingerprints.remote };
    const signature = await proving.sign(challengeText(role, me, them));
    send({ hs: "proof", signature });
    const proof = await next("proof");
    const signed = proof.signature;
    const holds =
      typeof signed === "string" &&
      signed.length <= SIGNATURE_MAX &&
      (await proving.verify(peer, challengeText(otherRole, them, me), signed));
    if (!holds) {
      refuse("unproved");
      throw new OnlineError("identity_unproved", "the signature does not hold");
    }
    try {
      await proving.decide?.(peer);
    } catch (error) {
      refuse("refused");
      throw error;
    }
    send({ hs: "verdict", ok: true });
    const verdict = await next("verdict");
    if (verdict.ok !== true) {
      channel.close();
      throw new OnlineError("refused", verdict.why === "unproved" ? "unproved" : "");
    }
    return peer;
  } catch (error) {
    channel.close();
    if (channel.onmessage) channel.onmessage = null;
    throw error;
  }
}
