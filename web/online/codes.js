// @ts-check
// Invitation and answer codes: a WebRTC session description (SDP, with every
// network candidate in it: no trickling) as text short enough for a link's
// fragment, a QR code or a chat message. Pure: needs only CompressionStream,
// which browsers and Node have.
//
// A code is base64url (no padding) of these bytes:
//
//   [format 1] [kind "O" offer | "A" answer] [answer only: the offer's id, 4 bytes]
//   [the SDP, deflate-raw] [CRC-32 of everything before it, 4 bytes, big-endian]
//
// The CRC tells a damaged code (a character changed or lost in copying) from
// one that is whole; the format byte a code of another version of the game;
// the kind an invitation from an answer; the offer's id (CRC-32 of the offer's
// SDP) an answer to this invitation from an answer to another.

import { OnlineError } from "./errors.js";

export const FORMAT = 1;
/** The highest format number a code of this game may ever have (the first byte of every code). */
const MAX_FORMAT = 15;
const KIND_OFFER = 0x4f; // "O"
const KIND_ANSWER = 0x41; // "A"
/** The fragment's key of an invitation link: ``…/#join=CODE``. */
export const LINK_KEY = "join";
/** The largest SDP accepted (characters), against a crafted code that inflates without end. */
export const MAX_SDP = 32_768;
const BASE64URL = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/** @type {Uint32Array | null} */
let crcTable = null;

/**
 * CRC-32 (IEEE 802.3, as zlib's) of ``bytes``.
 * @param {Uint8Array} bytes
 */
export function crc32(bytes) {
  if (!crcTable) {
    crcTable = new Uint32Array(256);
    for (let n = 0; n < 256; n++) {
      let c = n;
      for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
      crcTable[n] = c >>> 0;
    }
  }
  let crc = 0xffffffff;
  for (const byte of bytes) crc = /** @type {number} */ (crcTable[(crc ^ byte) & 0xff]) ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

/**
 * Base64url of ``bytes``, without padding.
 * @param {Uint8Array} bytes
 */
export function toBase64url(bytes) {
  let out = "";
  for (let i = 0; i < bytes.length; i += 3) {
    const a = /** @type {number} */ (bytes[i]);
    const b = bytes[i + 1] ?? 0;
    const c = bytes[i + 2] ?? 0;
    const n = (a << 16) | (b << 8) | c;
    out += BASE64URL[(n >> 18) & 63] + BASE64URL[(n >> 12) & 63];
    if (i + 1 < bytes.length) out += BASE64URL[(n >> 6) & 63];
    if (i + 2 < bytes.length) out += BASE64URL[n & 63];
  }
  return out;
}

/**
 * The bytes of base64url ``text`` (no padding), or null if it is not base64url.
 * @param {string} text
 */
export function fromBase64url(text) {
  if (text.length % 4 === 1) return null;
  const out = new Uint8Array(Math.floor((text.length * 3) / 4));
  let bits = 0;
  let value = 0;
  let at = 0;
  for (const ch of text) {
    const digit = BASE64URL.indexOf(ch);
    if (digit < 0) return null;
    value = (value << 6) | digit;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[at++] = (value >> bits) & 0xff;
    }
  }
  return out;
}

/**
 * @param {Uint8Array} bytes
 * @param {"deflate-raw"} format
 * @param {boolean} inflate
 */
async function transform(bytes, format, inflate) {
  const stream = new Blob([/** @type {Uint8Array<ArrayBuffer>} */ (bytes)])
    .stream()
    .pipeThrough(inflate ? new DecompressionStream(format) : new CompressionStream(format));
  const reader = stream.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (inflate && size > MAX_SDP) {
      await reader.cancel();
      throw new Error("inflates beyond the largest description");
    }
    chunks.push(value);
  }
  const out = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}

/**
 * The id of an offer: CRC-32 of its SDP (an answer names the offer it answers).
 * @param {string} sdp
 */
export function offerId(sdp) {
  return crc32(new TextEncoder().encode(sdp));
}

/**
 * The code of a session description.
 * @param {"offer" | "answer"} kind
 * @param {string} sdp
 * @param {number} [answersOffer] for an answer: the id of the offer it answers (offerId)
 * @returns {Promise<string>}
 */
export async function encodeCode(kind, sdp, answersOffer = 0) {
  if (typeof CompressionStream !== "function") throw new OnlineError("unsupported", "no CompressionStream");
  const packed = await transform(new TextEncoder().encode(sdp), "deflate-raw", false);
  const head = kind === "answer" ? 6 : 2;
  const bytes = new Uint8Array(head + packed.length + 4);
  bytes[0] = FORMAT;
  bytes[1] = kind === "answer" ? KIND_ANSWER : KIND_OFFER;
  const view = new DataView(bytes.buffer);
  if (kind === "answer") view.setUint32(2, answersOffer >>> 0);
  bytes.set(packed, head);
  view.setUint32(head + packed.length, crc32(bytes.subarray(0, head + packed.length)));
  return toBase64url(bytes);
}

/**
 * The code in ``text``: a bare code, or an invitation link holding one, with any spaces and line breaks
 * that copying added taken out.
 * @param {string} text
 */
export function extractCode(text) {
  let code = String(text ?? "");
  const marker = code.indexOf(`${LINK_KEY}=`);
  if (marker >= 0) code = code.slice(marker + LINK_KEY.length + 1).split(/[&#]/, 1)[0] ?? "";
  return code.replace(/\s+/g, "");
}

/**
 * An invitation link: ``base`` (the page's address; any fragment dropped) with the code in its fragment.
 * @param {string} base
 * @param {string} code
 */
export function invitationLink(base, code) {
  return `${base.split("#", 1)[0]}#${LINK_KEY}=${code}`;
}

/**
 * @typedef {object} Decoded
 * @property {"offer" | "answer"} kind
 * @property {string} sdp
 * @property {number} id this description's offer id (for an offer: its own; for an answer: the offer it answers)
 */

/**
 * The session description of ``text`` (a code, or a link holding one), checked.
 *
 * Throws an OnlineError: ``code_empty``; ``not_an_invitation`` / ``not_an_answer`` (as ``expect`` says) for
 * text that is no code of ours, or a code of the other kind; ``code_damaged`` when its check fails;
 * ``code_version`` for a whole code of another format.
 * @param {string} text
 * @param {"offer" | "answer"} expect
 * @returns {Promise<Decoded>}
 */
export async function decodeCode(text, expect) {
  const decoded = await readCode(text, expect);
  if (decoded.kind !== expect) {
    throw new OnlineError(expect === "offer" ? "not_an_invitation" : "not_an_answer", `an ${decoded.kind} code`);
  }
  return decoded;
}

/**
 * Like decodeCode, but a whole code of either kind is returned; ``expect`` only chooses the error for text
 * that is no code of ours.
 * @param {string} text
 * @param {"offer" | "answer"} expect
 * @returns {Promise<Decoded>}
 */
export async function readCode(text, expect) {
  const wrongKind = expect === "offer" ? "not_an_invitation" : "not_an_answer";
  const code = extractCode(text);
  if (!code) throw new OnlineError("code_empty");
  const bytes = fromBase64url(code);
  if (!bytes) throw new OnlineError(/^[A-Za-z0-9_-]+$/.test(code) ? "code_damaged" : wrongKind, "not base64url");
  if (bytes.length < 8) throw new OnlineError(wrongKind, "too short");
  // Formats are numbered from 1 and will stay small: any other first byte is text that is no code of ours.
  const format = /** @type {number} */ (bytes[0]);
  if (format === 0 || format > MAX_FORMAT) throw new OnlineError(wrongKind, "no code of this game");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const body = bytes.subarray(0, bytes.length - 4);
  if (crc32(body) !== view.getUint32(bytes.length - 4)) throw new OnlineError("code_damaged", "checksum");
  if (bytes[0] !== FORMAT) throw new OnlineError("code_version", `format ${bytes[0]}, this page reads ${FORMAT}`);
  const kind = bytes[1] === KIND_OFFER ? "offer" : bytes[1] === KIND_ANSWER ? "answer" : null;
  if (!kind) throw new OnlineError(wrongKind, "unknown kind");
  const head = kind === "answer" ? 6 : 2;
  if (body.length <= head) throw new OnlineError("code_damaged", "no description");
  if (typeof DecompressionStream !== "function") throw new OnlineError("unsupported", "no DecompressionStream");
  let sdp;
  try {
    sdp = new TextDecoder("utf-8", { fatal: true }).decode(await transform(body.subarray(head), "deflate-raw", true));
  } catch (error) {
    throw new OnlineError("code_damaged", `does not inflate: ${error instanceof Error ? error.message : error}`);
  }
  if (!sdp.startsWith("v=0")) throw new OnlineError("code_damaged", "not a session description");
  return { kind, sdp, id: kind === "answer" ? view.getUint32(2) : offerId(sdp) };
}
