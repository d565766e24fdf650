// @ts-check
// Everything the page keeps in this browser's localStorage (every key that
// starts with "sixty-six.": settings, statistics, custom rules, the tutorial
// mark), as one JSON file to export, import or reset. The saved game is not
// part of it: the worker keeps it (its record holds the whole pack).
//
// An import is checked completely before anything is written: a file that is
// not ours, or whose statistics are damaged, changes nothing.

import { migrate, STORAGE_KEY as STATS_KEY, StatsError } from "./stats.js";

export const FORMAT = "sixty-six/local-data";
export const VERSION = 1;
const PREFIX = "sixty-six.";
const KEY = /^sixty-six\.[A-Za-z0-9._-]{1,60}$/;
/** The largest file accepted (characters). */
export const MAX_IMPORT = 2_000_000;

/** A file that cannot be imported; ``key`` is the translation key of the reason. */
export class DataError extends Error {
  /**
   * @param {string} key
   * @param {string} [detail]
   */
  constructor(key, detail = "") {
    super(detail || key);
    this.name = "DataError";
    this.key = key;
  }
}

/** @param {Storage} storage */
function ownKeys(storage) {
  const keys = [];
  for (let i = 0; i < storage.length; i++) {
    const key = storage.key(i);
    if (key?.startsWith(PREFIX)) keys.push(key);
  }
  return keys.sort();
}

/**
 * The export: {format, version, exported, data: {key: value}} (JSON values where the stored text is JSON).
 * @param {Storage} [storage]
 * @param {Date} [now]
 */
export function collect(storage = globalThis.localStorage, now = new Date()) {
  /** @type {Record<string, unknown>} */
  const data = {};
  for (const key of ownKeys(storage)) {
    const raw = storage.getItem(key);
    let value = raw;
    try {
      const parsed = JSON.parse(/** @type {string} */ (raw)); // the key was just listed: it has a text
      if (typeof parsed !== "string") value = parsed;
    } catch {
      // not JSON: kept as its text
    }
    data[key] = value;
  }
  return { format: FORMAT, version: VERSION, exported: now.toISOString(), data };
}

/**
 * The file name of an export made at ``now``.
 * @param {Date} [now]
 */
export function exportName(now = new Date()) {
  return `sixty-six-data-${now.toISOString().slice(0, 10)}.json`;
}

/**
 * Check an import file's text. Returns the entries to store ({key: text});
 * throws a DataError saying why the file cannot be used.
 * @param {unknown} text
 * @returns {Record<string, string>}
 */
export function parseImport(text) {
  if (typeof text !== "string" || text.length > MAX_IMPORT) throw new DataError("data.error.tooLarge");
  let file;
  try {
    file = JSON.parse(text);
  } catch (error) {
    throw new DataError("data.error.json", String(/** @type {Error} */ (error).message || error));
  }
  if (!file || typeof file !== "object" || Array.isArray(file) || file.format !== FORMAT) {
    throw new DataError("data.error.format");
  }
  if (file.version !== VERSION) throw new DataError("data.error.version", `version ${file.version}`);
  const data = file.data;
  if (!data || typeof data !== "object" || Array.isArray(data)) throw new DataError("data.error.format", "no data");
  /** @type {Record<string, string>} */
  const entries = {};
  for (const [key, value] of Object.entries(data)) {
    if (!KEY.test(key)) throw new DataError("data.error.format", `key ${key}`);
    if (value === null || value === undefined) throw new DataError("data.error.format", `empty ${key}`);
    if (key === STATS_KEY) {
      let stats;
      try {
        stats = migrate(value);
      } catch (error) {
        if (error instanceof StatsError) throw new DataError("data.error.stats", error.message);
        throw error;
      }
      entries[key] = JSON.stringify(stats);
    } else {
      entries[key] = typeof value === "string" ? value : JSON.stringify(value);
    }
  }
  return entries;
}

/**
 * Replace every stored entry of ours by ``entries`` (from parseImport).
 * @param {Record<string, string>} entries
 * @param {Storage} [storage]
 */
export function applyImport(entries, storage = globalThis.localStorage) {
  const before = Object.fromEntries(ownKeys(storage).map((key) => [key, storage.getItem(key)]));
  try {
    for (const key of Object.keys(before)) storage.removeItem(key);
    for (const [key, text] of Object.entries(entries)) storage.setItem(key, text);
  } catch (error) {
    // Storage full: put back what was there.
    for (const key of ownKeys(storage)) storage.removeItem(key);
    for (const [key, text] of Object.entries(before)) storage.setItem(key, /** @type {string} */ (text));
    throw new DataError("data.error.storage", String(/** @type {Error} */ (error).message || error));
  }
}

/**
 * Forget every stored entry of ours.
 * @param {Storage} [storage]
 */
export function resetAll(storage = globalThis.localStorage) {
  for (const key of ownKeys(storage)) storage.removeItem(key);
}
