// @ts-check
// This browser's identity for online play: a key pair made here once
// (WebCrypto, ECDSA P-256) whose public key, as text, tells the other player
// who this is; and the list of people you blocked. Both stay in this
// browser's storage. When two pages connect, each signs a challenge of that
// connection with its private key and checks the other's signature
// (online/handshake.js): an identity is taken only from the browser that
// holds its key. A blocked identity cannot open a room with you again (the
// lobby refuses it before anything is played). Someone can always make a new
// identity in another browser: the help says so.

const IDENTITY_KEY = "sixty-six.identity.v1";
const BLOCKED_KEY = "sixty-six.blocked.v1";
const BLOCKED_MAX = 200;
const NAME_MAX = 24;
/** An identity is the raw public key (65 bytes: 0x04, x, y) as base64url: 87 characters. */
const IDENTITY_LENGTH = 87;
const KEY = /** @type {const} */ ({ name: "ECDSA", namedCurve: "P-256" });
const SIGNING = /** @type {const} */ ({ name: "ECDSA", hash: "SHA-256" });

/** @typedef {{identity: string, name: string, at: number}} Blocked */
/** @typedef {{identity: string, privateKey: CryptoKey, d: string}} Keys */

/** @param {ArrayBuffer | Uint8Array} buffer */
function base64url(buffer) {
  let text = "";
  for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/**
 * The bytes of base64url ``text``, or null if it is not base64url.
 * @param {unknown} text
 */
function bytesOf(text) {
  if (typeof text !== "string" || !/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  const binary = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(binary, (c) => c.charCodeAt(0));
}

/**
 * The identity (public key) that belongs to a private key's JWK, from its coordinates; null if they are not
 * two 32-byte numbers.
 * @param {JsonWebKey} jwk
 */
function identityOf(jwk) {
  const x = bytesOf(jwk.x);
  const y = bytesOf(jwk.y);
  if (!x || !y || x.length !== 32 || y.length !== 32) return null;
  return base64url(Uint8Array.from([4, ...x, ...y]));
}

/** The key pair in ``storage``, if it is whole and its two halves belong together. @param {Storage} storage */
async function storedKeys(storage) {
  try {
    const stored = JSON.parse(storage.getItem(IDENTITY_KEY) || "null");
    const jwk = stored?.private;
    if (jwk?.kty !== "EC" || jwk.crv !== "P-256" || typeof stored.public !== "string") return null;
    if (identityOf(jwk) !== stored.public) return null;
    const privateKey = await crypto.subtle.importKey("jwk", jwk, KEY, false, ["sign"]);
    if (typeof jwk.d !== "string") return null;
    return { identity: stored.public, privateKey, d: jwk.d };
  } catch {
    return null;
  }
}

/** @param {Storage} storage @returns {Promise<Keys>} */
async function newKeys(storage) {
  const pair = /** @type {CryptoKeyPair} */ (await crypto.subtle.generateKey(KEY, true, ["sign", "verify"]));
  const identity = base64url(await crypto.subtle.exportKey("raw", pair.publicKey));
  const privateJwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
  try {
    storage.setItem(IDENTITY_KEY, JSON.stringify({ public: identity, private: privateJwk }));
  } catch {
    // storage disabled: this visit's identity only
  }
  return { identity, privateKey: pair.privateKey, d: String(privateJwk.d) };
}

/** The keys of each storage (one per page; the tests give their own). @type {WeakMap<object, Promise<Keys>>} */
const made = new WeakMap();
const NO_STORAGE = {};

/** @param {Storage} storage @returns {Promise<Keys>} */
function keysOf(storage) {
  const slot = storage ?? NO_STORAGE;
  let keys = made.get(slot);
  if (!keys) {
    keys = storedKeys(storage).then((found) => found ?? newKeys(storage));
    made.set(slot, keys);
  }
  return keys;
}

/**
 * This browser's identity (the public key as base64url text), made on first use. A stored key pair that is
 * damaged (its halves do not belong together, or the private key does not load) is replaced by a new one:
 * an identity this browser could not prove is of no use.
 * @param {Storage} [storage]
 * @returns {Promise<string>}
 */
export async function myIdentity(storage = globalThis.localStorage) {
  return (await keysOf(storage)).identity;
}

/**
 * This identity's private key as a JWK's ``d`` (base64url): the engine signs the online game's messages with it.
 * @param {Storage} [storage]
 */
export async function signingKey(storage = globalThis.localStorage) {
  return (await keysOf(storage)).d;
}

/**
 * Sign ``challenge`` with this browser's private key: the proof that this browser holds its identity.
 * @param {string} challenge
 * @param {Storage} [storage]
 * @returns {Promise<string>} the signature (ECDSA P-256 with SHA-256, r and s), as base64url
 */
export async function signProof(challenge, storage = globalThis.localStorage) {
  const { privateKey } = await keysOf(storage);
  return base64url(await crypto.subtle.sign(SIGNING, privateKey, new TextEncoder().encode(challenge)));
}

/**
 * Whether ``signature`` is ``identity``'s signature of ``challenge``: false for anything that is not (a key
 * that is no P-256 point, a signature of another text or by another key, text that is not base64url).
 * @param {string} identity
 * @param {string} challenge
 * @param {string} signature
 * @returns {Promise<boolean>}
 */
export async function verifyProof(identity, challenge, signature) {
  const raw = typeof identity === "string" && identity.length === IDENTITY_LENGTH ? bytesOf(identity) : null;
  const signed = bytesOf(signature);
  if (raw?.length !== 65 || raw[0] !== 4 || signed?.length !== 64) return false;
  try {
    const key = await crypto.subtle.importKey("raw", raw, KEY, false, ["verify"]);
    return await crypto.subtle.verify(SIGNING, key, signed, new TextEncoder().encode(challenge));
  } catch {
    return false;
  }
}

/**
 * The people you blocked (entries that storage damaged are left out).
 * @param {Storage} [storage]
 * @returns {Blocked[]}
 */
export function blockedList(storage = globalThis.localStorage) {
  try {
    const list = JSON.parse(storage.getItem(BLOCKED_KEY) || "[]");
    if (!Array.isArray(list)) return [];
    /** @type {Map<string, Blocked>} */
    const seen = new Map();
    for (const b of list) {
      if (!b || typeof b.identity !== "string" || !b.identity || seen.has(b.identity)) continue;
      const name = typeof b.name === "string" ? b.name.slice(0, NAME_MAX) : "";
      seen.set(b.identity, { identity: b.identity, name, at: Number.isFinite(b.at) ? b.at : 0 });
    }
    return [...seen.values()].slice(-BLOCKED_MAX);
  } catch {
    return [];
  }
}

/**
 * @param {string} identity
 * @param {Storage} [storage]
 */
export function isBlocked(identity, storage = globalThis.localStorage) {
  return Boolean(identity) && blockedList(storage).some((b) => b.identity === identity);
}

/**
 * Block ``identity`` (shown as ``name`` in the list).
 * @param {string} identity
 * @param {string} name
 * @param {Storage} [storage]
 */
export function block(identity, name, storage = globalThis.localStorage) {
  if (!identity || typeof identity !== "string" || isBlocked(identity, storage)) return;
  const list = [...blockedList(storage), { identity, name: String(name ?? "").slice(0, NAME_MAX), at: Date.now() }];
  try {
    storage.setItem(BLOCKED_KEY, JSON.stringify(list.slice(-BLOCKED_MAX)));
  } catch {
    // storage disabled
  }
}

/**
 * @param {string} identity
 * @param {Storage} [storage]
 */
export function unblock(identity, storage = globalThis.localStorage) {
  try {
    storage.setItem(BLOCKED_KEY, JSON.stringify(blockedList(storage).filter((b) => b.identity !== identity)));
  } catch {
    // storage disabled
  }
}
