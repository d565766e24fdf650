// @ts-check
// This browser's identity for online play: a key pair made here once
// (WebCrypto, ECDSA P-256) whose public key, as text, tells the other player
// who this is; and the list of people you blocked. Both stay in this
// browser's storage. A blocked identity cannot open a room with you again
// (the lobby refuses it before anything is played). Someone can always make
// a new identity in another browser: the help says so.

const IDENTITY_KEY = "sixty-six.identity.v1";
const BLOCKED_KEY = "sixty-six.blocked.v1";
const BLOCKED_MAX = 200;

/** @typedef {{identity: string, name: string, at: number}} Blocked */

/** @param {ArrayBuffer} buffer */
function base64url(buffer) {
  let text = "";
  for (const byte of new Uint8Array(buffer)) text += String.fromCharCode(byte);
  return btoa(text).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** @type {Promise<string> | null} */
let mine = null;

/**
 * This browser's identity (the public key as base64url text), made on first use.
 * @param {Storage} [storage]
 * @returns {Promise<string>}
 */
export function myIdentity(storage = globalThis.localStorage) {
  mine ??= (async () => {
    try {
      const stored = JSON.parse(storage.getItem(IDENTITY_KEY) || "null");
      if (stored && typeof stored.public === "string" && stored.private) return stored.public;
    } catch {
      // made anew below
    }
    const pair = /** @type {CryptoKeyPair} */ (
      await crypto.subtle.generateKey({ name: "ECDSA", namedCurve: "P-256" }, true, ["sign", "verify"])
    );
    const publicText = base64url(await crypto.subtle.exportKey("raw", pair.publicKey));
    const privateJwk = await crypto.subtle.exportKey("jwk", pair.privateKey);
    try {
      storage.setItem(IDENTITY_KEY, JSON.stringify({ public: publicText, private: privateJwk }));
    } catch {
      // storage disabled: this visit's identity only
    }
    return publicText;
  })();
  return mine;
}

/**
 * The people you blocked.
 * @param {Storage} [storage]
 * @returns {Blocked[]}
 */
export function blockedList(storage = globalThis.localStorage) {
  try {
    const list = JSON.parse(storage.getItem(BLOCKED_KEY) || "[]");
    return Array.isArray(list)
      ? list.filter((b) => b && typeof b.identity === "string" && b.identity).slice(-BLOCKED_MAX)
      : [];
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
  if (!identity || isBlocked(identity, storage)) return;
  const list = [...blockedList(storage), { identity, name: String(name).slice(0, 24), at: Date.now() }];
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
