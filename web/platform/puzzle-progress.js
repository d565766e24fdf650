// @ts-check
// The player's puzzles, kept in this browser apart from the game statistics
// (its own localStorage key, versioned): which puzzles were solved or
// failed, the puzzle rating, its deviation and volatility (Glicko-2), the run of puzzles solved in a
// row and the best run, and the daily puzzle's run of days. The engine
// decides every rule and number (puzzle_record: which attempt is rated and
// counts for the daily run; puzzle_progress: what the list shows;
// py_engine/puzzles/progress.py, docs/puzzles.md); this module only stores
// its answers and repairs what it finds damaged (platform/damage.js: the
// damaged text is kept as a copy and the page says so in words).
//
// The attempt on the table is kept too, under its own key (ATTEMPT_KEY), so
// that a reload brings it back (game/puzzle.js): which puzzle, its daily
// date, and the moves sent whose result is not recorded yet.

import { loadEntry, readEntry } from "./damage.js";

export const STORAGE_KEY = "sixty-six.puzzles";
export const VERSION = 1;
/** A new player's rating, deviation and volatility (the engine's defaults, py_engine/puzzles/rating.py). */
export const START_RATING = 1500;
export const START_DEVIATION = 120;
export const START_VOLATILITY = 0.06;
/** The rating after each rated attempt, for the latest ones. */
export const HISTORY_KEPT = 100;

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const ID = /^[A-Za-z0-9_.:+-]{1,64}$/;
const RESULTS = ["solved", "failed"];

/** @import { PuzzleProgress, PuzzleRecord } from "../../types/engine.js" */
/** @typedef {PuzzleProgress} Progress Everything stored. */

/** @returns {Progress} */
export function emptyProgress() {
  return {
    version: VERSION,
    rating: START_RATING,
    deviation: START_DEVIATION,
    volatility: START_VOLATILITY,
    streak: 0,
    best: 0,
    puzzles: {},
    daily: { last: null, streak: 0, days: {} },
    history: [],
  };
}

/** @param {unknown} value */
const isObject = (value) => value !== null && typeof value === "object" && !Array.isArray(value);
/** @param {unknown} value @param {number} low @param {number} high */
const inRange = (value, low, high) =>
  typeof value === "number" && Number.isFinite(value) && value >= low && value <= high;
/** @param {unknown} value */
const isCount = (value) => Number.isInteger(value) && /** @type {number} */ (value) >= 0;

/**
 * A puzzle's record, or null if it is damaged.
 * @param {unknown} entry
 * @returns {PuzzleRecord | null}
 */
function cleanRecord(entry) {
  if (!isObject(entry)) return null;
  const e = /** @type {Record<string, unknown>} */ (entry);
  if (!RESULTS.includes(/** @type {string} */ (e.first)) || typeof e.solved !== "boolean") return null;
  if (!isCount(e.tries) || /** @type {number} */ (e.tries) < 1) return null;
  if (typeof e.last !== "string" || !DATE.test(e.last)) return null;
  return {
    first: /** @type {"solved" | "failed"} */ (e.first),
    solved: e.solved,
    tries: /** @type {number} */ (e.tries),
    last: e.last,
  };
}

/**
 * What can be kept of stored (or imported) progress: every valid field and every valid puzzle's record; the
 * rest takes its default. Anything that is not an object of this version: empty progress.
 * @param {unknown} data
 * @returns {Progress}
 */
export function cleanProgress(data) {
  const progress = emptyProgress();
  if (!isObject(data)) return progress;
  const d = /** @type {Record<string, unknown>} */ (data);
  if (d.version !== VERSION) return progress;
  if (inRange(d.rating, 0, 4000)) progress.rating = /** @type {number} */ (d.rating);
  if (inRange(d.deviation, 1, 1000)) progress.deviation = /** @type {number} */ (d.deviation);
  if (inRange(d.volatility, 0.001, 1)) progress.volatility = /** @type {number} */ (d.volatility);
  if (isCount(d.streak)) progress.streak = /** @type {number} */ (d.streak);
  if (isCount(d.best)) progress.best = Math.max(/** @type {number} */ (d.best), progress.streak);
  if (isObject(d.puzzles)) {
    /** @type {Record<string, PuzzleRecord>} */
    const puzzles = {};
    for (const [id, entry] of Object.entries(/** @type {Record<string, unknown>} */ (d.puzzles))) {
      const record = ID.test(id) ? cleanRecord(entry) : null;
      if (record) puzzles[id] = record;
    }
    progress.puzzles = puzzles;
  }
  if (isObject(d.daily)) {
    const daily = /** @type {Record<string, unknown>} */ (d.daily);
    const last = daily.last === null || (typeof daily.last === "string" && DATE.test(daily.last)) ? daily.last : null;
    /** @type {Record<string, "solved" | "failed">} */
    const days = {};
    if (isObject(daily.days)) {
      for (const [date, result] of Object.entries(/** @type {Record<string, unknown>} */ (daily.days))) {
        if (DATE.test(date) && RESULTS.includes(/** @type {string} */ (result)))
          days[date] = /** @type {"solved" | "failed"} */ (result);
      }
    }
    progress.daily = {
      last: /** @type {string | null} */ (last),
      streak: isCount(daily.streak) ? Number(daily.streak) : 0,
      days,
    };
  }
  if (Array.isArray(d.history) && d.history.every((r) => inRange(r, 0, 4000))) {
    progress.history = /** @type {number[]} */ (d.history).slice(-HISTORY_KEPT);
  }
  return progress;
}

/**
 * The stored progress (damaged data: what can be kept is kept and stored back, and the damage is told).
 * @param {Storage} [storage]
 * @returns {Progress}
 */
export function loadProgress(storage = globalThis.localStorage) {
  return loadEntry(STORAGE_KEY, cleanProgress, storage);
}

/**
 * Store ``progress`` (a full storage keeps this visit's numbers only).
 * @param {Progress} progress
 * @param {Storage} [storage]
 */
export function saveProgress(progress, storage = globalThis.localStorage) {
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify(progress));
  } catch {
    // storage full or disabled
  }
}

/**
 * The local date of ``now`` as YYYY-MM-DD (the daily puzzle is the player's day's, not UTC's).
 * @param {Date} [now]
 */
export function localDate(now = new Date()) {
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  return `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}`;
}

// ------------------------------------------------------------------ the attempt on the table

/** The puzzle on the table, kept so that a reload brings it back (game/puzzle.js; docs/puzzles.md, "A reload"). */
export const ATTEMPT_KEY = "sixty-six.puzzle-attempt";
/** The most moves an attempt holds (the engine's MOST_MOVES, py_engine/puzzles/solving.py). */
export const MOST_MOVES = 24;
const ACTION = /^[a-z_]{1,12}(:[A-Z0-9]{1,2})?$/;

/**
 * The attempt on the table as kept: the puzzle, the date whose daily puzzle it is (null: none), and the side's
 * moves sent in it whose result is not recorded yet (the engine judges them after a reload).
 * @typedef {{id: string, daily: string | null, moves: string[]}} StoredAttempt
 */

/**
 * A kept attempt, or null if ``data`` is not one (of this version).
 * @param {unknown} data
 * @returns {StoredAttempt | null}
 */
export function cleanAttempt(data) {
  if (!isObject(data)) return null;
  const d = /** @type {Record<string, unknown>} */ (data);
  if (d.version !== VERSION || typeof d.id !== "string" || !ID.test(d.id)) return null;
  if (d.daily !== null && (typeof d.daily !== "string" || !DATE.test(d.daily))) return null;
  const moves = d.moves;
  if (!Array.isArray(moves) || moves.length > MOST_MOVES) return null;
  if (!moves.every((move) => typeof move === "string" && ACTION.test(move))) return null;
  return { id: d.id, daily: /** @type {string | null} */ (d.daily), moves: [...moves] };
}

/**
 * The attempt kept in this browser: ``attempt`` (null if none), and ``damaged`` when something was kept that is not
 * one (it is removed: a reload does not find it again).
 * @param {Storage} [storage]
 * @returns {{attempt: StoredAttempt | null, damaged: boolean}}
 */
export function loadAttempt(storage = globalThis.localStorage) {
  const entry = readEntry(ATTEMPT_KEY, storage);
  if (!entry) return { attempt: null, damaged: false };
  const attempt = cleanAttempt(entry.data);
  if (!attempt) clearAttempt(storage);
  return { attempt, damaged: attempt === null };
}

/**
 * Keep ``attempt`` (a full or disabled storage: a reload will not bring it back).
 * @param {StoredAttempt} attempt
 * @param {Storage} [storage]
 */
export function saveAttempt(attempt, storage = globalThis.localStorage) {
  try {
    storage.setItem(ATTEMPT_KEY, JSON.stringify({ version: VERSION, ...attempt }));
  } catch {
    // storage full or disabled
  }
}

/**
 * Forget the kept attempt (the puzzle left the table).
 * @param {Storage} [storage]
 */
export function clearAttempt(storage = globalThis.localStorage) {
  try {
    storage.removeItem(ATTEMPT_KEY);
  } catch {
    // storage disabled
  }
}
