// @ts-check
// Six-character room codes: what the host reads out and the guest types.
// Pure (crypto.getRandomValues only), tested under Node.
//
// The alphabet leaves out 0, O, 1 and I, which are easily mistaken for one
// another; 32 symbols, so six give 2^30 (about a billion) codes. Typing is
// forgiving: lower case, spaces and dashes are accepted.

export const ROOM_CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
export const ROOM_CODE_LENGTH = 6;
/** The fragment's key of a room link: ``…/#room=CODE``. */
export const ROOM_LINK_KEY = "room";

/**
 * A new random room code (``random`` fills a byte array: crypto.getRandomValues, or a test's stand-in).
 * @param {(bytes: Uint8Array<ArrayBuffer>) => unknown} [random]
 */
export function generateRoomCode(random = (bytes) => crypto.getRandomValues(bytes)) {
  const bytes = new Uint8Array(ROOM_CODE_LENGTH);
  random(bytes);
  // 256 is a multiple of 32: taking the low five bits favours no symbol.
  return Array.from(bytes, (b) => ROOM_CODE_ALPHABET[b & 31]).join("");
}

/**
 * The room code typed as ``text`` (any case; spaces, dashes and dots ignored; a room link's code taken
 * out), or null if it is not one.
 * @param {string} text
 */
export function normalizeRoomCode(text) {
  let code = String(text ?? "");
  const marker = code.indexOf(`${ROOM_LINK_KEY}=`);
  if (marker >= 0) code = code.slice(marker + ROOM_LINK_KEY.length + 1).split(/[&#]/, 1)[0] ?? "";
  code = code.replace(/[\s.\-–—]+/g, "").toUpperCase();
  if (code.length !== ROOM_CODE_LENGTH) return null;
  for (const ch of code) if (!ROOM_CODE_ALPHABET.includes(ch)) return null;
  return code;
}

/** @param {string} text */
export function isRoomCode(text) {
  return typeof text === "string" && text.length === ROOM_CODE_LENGTH && normalizeRoomCode(text) === text;
}

/**
 * The code as shown to people: two groups of three (``ABC DEF``).
 * @param {string} code
 */
export function formatRoomCode(code) {
  return code.length === ROOM_CODE_LENGTH ? `${code.slice(0, 3)} ${code.slice(3)}` : code;
}
