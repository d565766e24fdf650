// @ts-check
// Local data found damaged (edited by hand, cut short, written by a bug):
// the loaders use what can still be used and store it back, this module
// keeps the damaged text as a copy (under "sixty-six.damaged.<name>", so it
// goes with the data export) and tells the page, which says so in words.

const PREFIX = "sixty-six.";
/** The names under which a damaged saved game (kept by the worker, not here) is copied. */
export const SAVED_GAME_KEY = `${PREFIX}game`;
export const SAVED_ONLINE_GAME_KEY = `${PREFIX}online-game`;

/**
 * One damaged entry: its storage key, and whether some of it could be used (``repaired``) or none.
 * @typedef {{key: string, repaired: boolean}} Damage
 */

/** @type {Damage[]} */
const found = [];
/** @type {((damage: Damage) => void) | null} */
let listener = null;

/** The key of the copy of a damaged entry. @param {string} key */
export function damagedCopyKey(key) {
  return `${PREFIX}damaged.${key.startsWith(PREFIX) ? key.slice(PREFIX.length) : key}`;
}

/**
 * Keep ``text``, found damaged under ``key``, as a copy that goes with the data export (the first one found
 * is kept). Storage full or disabled: nothing kept, and the caller still tells the player.
 * @param {string} key
 * @param {string} text
 * @param {Storage} [storage]
 */
export function keepDamagedCopy(key, text, storage = globalThis.localStorage) {
  try {
    const copy = damagedCopyKey(key);
    if (storage.getItem(copy) === null) storage.setItem(copy, text);
  } catch {
    // storage full or disabled
  }
}

/**
 * ``text`` stored under ``key`` was damaged: keep a copy (the first one found is kept), tell the page.
 * @param {string} key
 * @param {string} text
 * @param {boolean} repaired some of it is still used
 * @param {Storage} [storage]
 */
export function noteDamage(key, text, repaired, storage = globalThis.localStorage) {
  keepDamagedCopy(key, text, storage);
  const damage = { key, repaired };
  if (listener) listener(damage);
  else found.push(damage);
}

/**
 * Tell ``report`` of every damage found so far and from now on (null: keep them for the next listener).
 * @param {((damage: Damage) => void) | null} report
 */
export function onDamage(report) {
  listener = report;
  if (report) for (const damage of found.splice(0)) report(damage);
}

/**
 * The entry ``key`` as kept: its text and what it parses to (undefined: not JSON); null when there is none or
 * storage is disabled.
 * @param {string} key
 * @param {Storage} storage
 * @returns {{text: string, data: unknown} | null}
 */
export function readEntry(key, storage) {
  let text;
  try {
    text = storage.getItem(key);
  } catch {
    return null; // storage disabled
  }
  if (text === null) return null;
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    data = undefined;
  }
  return { text, data };
}

/**
 * Read a JSON entry through ``clean`` (which keeps the valid fields, defaults for the rest). A field that is
 * present but refused, or text that is not JSON, is damage: noted, and the cleaned value stored back.
 * Fields that are missing are not damage (an older version wrote the entry).
 * @template T
 * @param {string} key
 * @param {(data: unknown) => T} clean
 * @param {Storage} [storage]
 * @returns {T}
 */
export function loadEntry(key, clean, storage = globalThis.localStorage) {
  const entry = readEntry(key, storage);
  if (!entry) return clean(null);
  const { text, data } = entry;
  const value = clean(data);
  if (!sameWherePresent(data, value)) {
    const someKept = value !== null && data !== null && typeof data === "object" && !Array.isArray(data);
    noteDamage(key, text, someKept, storage);
    try {
      storage.setItem(key, JSON.stringify(value));
    } catch {
      // storage full: the cleaned value lasts for this visit
    }
  }
  return value;
}

/**
 * Does ``value`` keep every field that ``data`` has (with the same JSON)?
 * @param {unknown} data
 * @param {unknown} value
 */
function sameWherePresent(data, value) {
  if (data === null || typeof data !== "object" || Array.isArray(data)) return data === null;
  if (value === null || typeof value !== "object") return false;
  const kept = /** @type {Record<string, unknown>} */ (value);
  return Object.entries(data).every(
    ([name, field]) => !(name in kept) || JSON.stringify(kept[name]) === JSON.stringify(field),
  );
}
