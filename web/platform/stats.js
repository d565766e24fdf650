// @ts-check
// Statistics of the games played against the computer, kept in this browser
// (localStorage). Everything here except the storage and the engine's updates
// (at the end) is a pure function of its arguments.
//
// What is recorded comes only from the views the page already receives: a
// finished deal's deal_result (winner, game points, code, basis), who closed
// the talon (closed_by), the marriages declared (public once declared) and
// the match's winner. Nothing hidden is needed.
//
// Schema 2 (the current one):
//   {schema: 2, since, rating, rated, history: [{t, rating, level, won}],
//    buckets: {"<preset>[*]|<level>": bucket}, current: {recorded: [...], counted, assisted?} | null}
// A bucket counts one rule set ("*" marks custom rules) at one level:
//   {preset, custom, level, deals: {won, lost, none}, matches: {won, lost},
//    points: {won, lost}, basis: {<basis>: {won, lost}}, closes: {made, won},
//    marriages: {count, points}}
// Schema 1 kept totals per preset only, without levels, rating or the deal
// basis: {schema: 1, presets: {<id>: {dealsWon, dealsLost, matchesWon,
// matchesLost, pointsWon, pointsLost}}}. migrate() turns it into schema 2
// (its totals go to level 0, "level unknown").
//
// What a finished deal and match count, the rating (Elo against the
// computer's levels) and the rule that an assisted match (an undo or a hint)
// is not rated are the engine's (stats_begin, stats_assisted, stats_record;
// py_engine/service/game_stats.py): this module keeps the statistics, sends
// them with each request and stores the answer. LEVEL_RATINGS and
// START_RATING are the engine's numbers, for the screen to show and for new
// statistics.

import { noteDamage } from "./damage.js";

/** @import { GameStats, Preset, Rules, StatsBucket, StatsTotals, View } from "../../types/engine.js" */
/** @typedef {StatsTotals} Totals Counts summed over buckets: a bucket's own, totals(), a row of byRules() or byLevel(). */
/** @typedef {StatsBucket} Bucket One rule set at one level. */
/** @typedef {GameStats} Stats The statistics (schema 2). */
/** @typedef {(request: {cmd: "stats_begin" | "stats_assisted" | "stats_record"} & Record<string, unknown>) => Promise<{stats: Stats, changed?: boolean}>} Ask The engine's answer to a statistics request. */

export const SCHEMA = 2;
export const STORAGE_KEY = "sixty-six.stats";
/** A new player's rating and each level's nominal rating: the engine's (py_engine/service/game_stats.py). */
export const START_RATING = 1200;
/** @type {Readonly<Record<number, number>>} */
export const LEVEL_RATINGS = Object.freeze({ 1: 800, 2: 1000, 3: 1200, 4: 1400, 5: 1600 });
/** The rating history keeps at most this many points (the oldest go first). */
export const HISTORY_LIMIT = 500;
/** Deals remembered as recorded in the current game (to count each deal once across reloads). */
const RECORDED_LIMIT = 200;

/** Stored or imported statistics that cannot be used (the message says what is wrong, in English). */
export class StatsError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "StatsError";
  }
}

/** @returns {Stats} */
export function emptyStats(now = Date.now()) {
  return { schema: SCHEMA, since: now, rating: START_RATING, rated: 0, history: [], buckets: {}, current: null };
}

/**
 * @param {string} preset
 * @param {boolean} custom
 * @param {number} level
 * @returns {Bucket}
 */
function emptyBucket(preset, custom, level) {
  return {
    preset,
    custom,
    level,
    deals: { won: 0, lost: 0, none: 0 },
    matches: { won: 0, lost: 0 },
    points: { won: 0, lost: 0 },
    basis: {},
    closes: { made: 0, won: 0 },
    marriages: { count: 0, points: 0 },
  };
}

/**
 * @param {string} preset
 * @param {boolean} custom
 * @param {number} level
 */
export function bucketKey(preset, custom, level) {
  return `${preset}${custom ? "*" : ""}|${level}`;
}

// ------------------------------------------------------------ validation

/**
 * @param {unknown} v
 * @returns {v is number}
 */
const isCount = (v) => Number.isSafeInteger(v) && /** @type {number} */ (v) >= 0;
/**
 * @param {unknown} v
 * @returns {v is Record<string, any>}
 */
const isObject = (v) => v !== null && typeof v === "object" && !Array.isArray(v);
const PRESET_ID = /^[A-Z0-9]{2,12}$/;
const WORD = /^[a-z0-9_]{1,40}$/;
const DEAL_KEY = /^\d{1,6}\.\d{1,6}$/;

/**
 * @param {unknown} value
 * @param {string[]} names
 * @param {string} where
 */
function counts(value, names, where) {
  if (!isObject(value)) throw new StatsError(`${where} is not an object`);
  for (const name of names) {
    if (!isCount(value[name])) throw new StatsError(`${where}.${name} is not a count`);
  }
}

/**
 * @param {string} key
 * @param {unknown} b
 */
function checkBucket(key, b) {
  const where = `buckets[${key}]`;
  if (!isObject(b)) throw new StatsError(`${where} is not an object`);
  if (typeof b.preset !== "string" || !PRESET_ID.test(b.preset)) throw new StatsError(`${where}.preset`);
  if (typeof b.custom !== "boolean") throw new StatsError(`${where}.custom`);
  if (!Number.isInteger(b.level) || b.level < 0 || b.level > 5) throw new StatsError(`${where}.level`);
  if (key !== bucketKey(b.preset, b.custom, b.level)) throw new StatsError(`${where} has the wrong key`);
  counts(b.deals, ["won", "lost", "none"], `${where}.deals`);
  counts(b.matches, ["won", "lost"], `${where}.matches`);
  counts(b.points, ["won", "lost"], `${where}.points`);
  counts(b.closes, ["made", "won"], `${where}.closes`);
  counts(b.marriages, ["count", "points"], `${where}.marriages`);
  if (b.closes.won > b.closes.made) throw new StatsError(`${where}: more closes won than made`);
  if (!isObject(b.basis)) throw new StatsError(`${where}.basis`);
  for (const [name, value] of Object.entries(b.basis)) {
    if (!WORD.test(name)) throw new StatsError(`${where}.basis has a bad name`);
    counts(value, ["won", "lost"], `${where}.basis.${name}`);
  }
}

/**
 * Throws a StatsError unless ``data`` is well-formed statistics of the current schema.
 * @param {unknown} data
 * @returns {Stats}
 */
export function validate(data) {
  if (!isObject(data)) throw new StatsError("not an object");
  if (data.schema !== SCHEMA) throw new StatsError(`schema ${data.schema}`);
  if (!isTime(data.since)) throw new StatsError("since");
  if (!isRating(data.rating)) throw new StatsError("rating");
  if (!isCount(data.rated)) throw new StatsError("rated");
  if (!Array.isArray(data.history) || data.history.length > HISTORY_LIMIT) throw new StatsError("history");
  if (!data.history.every(isHistoryPoint)) throw new StatsError("a history point");
  if (!isObject(data.buckets)) throw new StatsError("buckets");
  for (const [key, bucket] of Object.entries(data.buckets)) checkBucket(key, bucket);
  if (data.current !== null && !isCurrent(data.current)) throw new StatsError("current");
  return /** @type {Stats} */ (data); // checked above
}

/** A time (ms since 1970) that a Date can show. @param {unknown} t */
const isTime = (t) => Number.isFinite(t) && /** @type {number} */ (t) >= 0 && /** @type {number} */ (t) <= 8.64e15;
/** @param {unknown} r */
const isRating = (r) => Number.isFinite(r) && /** @type {number} */ (r) >= 0 && /** @type {number} */ (r) <= 5000;

/** @param {unknown} point */
function isHistoryPoint(point) {
  return (
    isObject(point) &&
    isTime(point.t) &&
    isRating(point.rating) &&
    Number.isInteger(point.level) &&
    point.level >= 1 &&
    point.level <= 5 &&
    typeof point.won === "boolean"
  );
}

/** @param {unknown} c */
function isCurrent(c) {
  return (
    isObject(c) &&
    typeof c.counted === "boolean" &&
    (c.assisted === undefined || typeof c.assisted === "boolean") &&
    Array.isArray(c.recorded) &&
    c.recorded.length <= RECORDED_LIMIT &&
    c.recorded.every((k) => typeof k === "string" && DEAL_KEY.test(k))
  );
}

// ------------------------------------------------------------ repair

/**
 * What can be kept of damaged statistics of the current schema: every valid field, every valid bucket,
 * and of a damaged bucket its valid counts (a bad count becomes 0). Anything else: empty statistics.
 * @param {unknown} data
 * @param {number} [now]
 * @returns {Stats}
 */
export function repairStats(data, now = Date.now()) {
  const out = emptyStats(now);
  if (!isObject(data) || data.schema !== SCHEMA) return out;
  if (isTime(data.since)) out.since = data.since;
  if (isRating(data.rating)) out.rating = data.rating;
  if (isCount(data.rated)) out.rated = data.rated;
  if (Array.isArray(data.history)) out.history = data.history.filter(isHistoryPoint).slice(-HISTORY_LIMIT);
  if (isCurrent(data.current)) out.current = data.current;
  if (isObject(data.buckets)) {
    for (const bucket of Object.values(data.buckets)) {
      const fixed = repairBucket(bucket);
      if (fixed) out.buckets[bucketKey(fixed.preset, fixed.custom, fixed.level)] = fixed;
    }
  }
  return validate(structuredClone(out));
}

/**
 * A bucket's valid counts (a bad one is 0), or null if it does not say what it counts.
 * @param {unknown} b
 * @returns {Bucket | null}
 */
function repairBucket(b) {
  if (!isObject(b) || typeof b.preset !== "string" || !PRESET_ID.test(b.preset) || typeof b.custom !== "boolean") {
    return null;
  }
  if (!Number.isInteger(b.level) || b.level < 0 || b.level > 5) return null;
  const out = emptyBucket(b.preset, b.custom, b.level);
  /** @param {object} counts @param {unknown} from */
  const keep = (counts, from) => {
    if (!isObject(from)) return;
    const into = /** @type {Record<string, number>} */ (counts);
    for (const name of Object.keys(into)) if (isCount(from[name])) into[name] = from[name];
  };
  keep(out.deals, b.deals);
  keep(out.matches, b.matches);
  keep(out.points, b.points);
  keep(out.closes, b.closes);
  keep(out.marriages, b.marriages);
  out.closes.won = Math.min(out.closes.won, out.closes.made);
  if (isObject(b.basis)) {
    for (const [name, value] of Object.entries(b.basis)) {
      if (!WORD.test(name) || !isObject(value)) continue;
      const pair = { won: 0, lost: 0 };
      keep(pair, value);
      out.basis[name] = pair;
    }
  }
  return out;
}

// ------------------------------------------------------------- migration

/** @param {Record<string, any>} old */
function fromSchema1(old) {
  if (!isObject(old.presets)) throw new StatsError("schema 1 without presets");
  const out = emptyStats(Number.isFinite(old.since) ? old.since : Date.now());
  for (const [preset, p] of Object.entries(old.presets)) {
    if (!PRESET_ID.test(preset)) throw new StatsError(`schema 1 preset ${preset}`);
    counts(p, ["dealsWon", "dealsLost", "matchesWon", "matchesLost", "pointsWon", "pointsLost"], `presets.${preset}`);
    const b = emptyBucket(preset, false, 0);
    b.deals.won = p.dealsWon;
    b.deals.lost = p.dealsLost;
    b.matches.won = p.matchesWon;
    b.matches.lost = p.matchesLost;
    b.points.won = p.pointsWon;
    b.points.lost = p.pointsLost;
    out.buckets[bucketKey(preset, false, 0)] = b;
  }
  return out;
}

/**
 * Statistics of any known schema, as the current schema (a new object); throws a StatsError if unusable.
 * @param {unknown} data
 */
export function migrate(data) {
  if (!isObject(data) || !Number.isInteger(data.schema)) throw new StatsError("no schema number");
  let current = data;
  if (current.schema === 1) current = fromSchema1(current);
  if (current.schema > SCHEMA) throw new StatsError(`schema ${current.schema} is newer`);
  if (current.schema !== SCHEMA) throw new StatsError(`schema ${current.schema}`);
  return validate(structuredClone(current));
}

// ---------------------------------------------------------------- rules

/**
 * Are these rules one of the engine's presets unchanged? (``presets``: the engine's "presets" answer.) For the
 * rules' name on the screen; the engine decides the bucket a deal counts in.
 * @param {Rules} rules
 * @param {Preset[]} presets
 */
export function isCustom(rules, presets) {
  const base = presets.find((p) => p.id === rules.id);
  if (!base) return true;
  return Object.keys(base.rules).some((name) => base.rules[name] !== rules[name]);
}

// ----------------------------------------------------------------- totals

/**
 * Add the counts of ``from`` into ``into`` (nested objects of numbers), and return it.
 * @param {Record<string, any>} into
 * @param {Record<string, any>} from
 * @returns {Record<string, any>}
 */
function add(into, from) {
  for (const [name, value] of Object.entries(from)) {
    if (typeof value === "number") into[name] = (into[name] ?? 0) + value;
    else into[name] = add(into[name] ?? {}, value);
  }
  return into;
}

/**
 * The buckets summed, optionally only those that ``keep(bucket)`` accepts.
 * @param {Pick<Stats, "buckets">} stats
 * @param {(bucket: Bucket) => boolean} [keep]
 * @returns {Bucket}
 */
export function totals(stats, keep = () => true) {
  const sum = emptyBucket("ALL", false, 0);
  for (const b of Object.values(stats.buckets)) {
    if (!keep(b)) continue;
    for (const part of /** @type {const} */ (["deals", "matches", "points", "basis", "closes", "marriages"]))
      add(sum[part], b[part]);
  }
  return sum;
}

/**
 * One row per rule set (levels summed), in the order of ``order`` (preset ids), custom rules after their preset.
 * @param {Pick<Stats, "buckets">} stats
 * @param {string[]} [order]
 */
export function byRules(stats, order = []) {
  /** @type {Map<string, Bucket>} */
  const keys = new Map();
  for (const b of Object.values(stats.buckets)) keys.set(`${b.preset}${b.custom ? "*" : ""}`, b);
  const rank = (/** @type {Bucket} */ b) => {
    const i = order.indexOf(b.preset);
    return (i < 0 ? order.length : i) * 2 + (b.custom ? 1 : 0);
  };
  return [...keys.values()]
    .sort((a, b) => rank(a) - rank(b) || a.preset.localeCompare(b.preset))
    .map((b) => ({
      ...totals(stats, (x) => x.preset === b.preset && x.custom === b.custom),
      preset: b.preset,
      custom: b.custom,
    }));
}

/**
 * One row per level (rule sets summed), level 0 ("unknown", from schema 1) last.
 * @param {Pick<Stats, "buckets">} stats
 */
export function byLevel(stats) {
  const levels = [...new Set(Object.values(stats.buckets).map((b) => b.level))].sort((a, b) => (a || 9) - (b || 9));
  return levels.map((level) => ({ ...totals(stats, (b) => b.level === level), level }));
}

/**
 * A share in whole percent ("—" as null when there is nothing to divide).
 * @param {number} part
 * @param {number} whole
 */
export function percent(part, whole) {
  return whole > 0 ? Math.round((100 * part) / whole) : null;
}

// ---------------------------------------------------------------- storage

/**
 * The stored statistics, or empty ones; never throws. Older schemas are migrated and stored back.
 * @returns {Stats}
 */
export function loadStats(storage = globalThis.localStorage) {
  let text;
  try {
    text = storage.getItem(STORAGE_KEY);
  } catch {
    return emptyStats(); // storage disabled
  }
  if (text === null) return emptyStats();
  let data;
  try {
    data = JSON.parse(text);
  } catch {
    noteDamage(STORAGE_KEY, text, false, storage);
    const stats = emptyStats();
    saveStats(stats, storage);
    return stats;
  }
  try {
    const stats = migrate(data);
    if (data.schema !== SCHEMA) saveStats(stats, storage);
    return stats;
  } catch {
    // Damaged: what can be kept is kept (and stored), the damaged text is kept as a copy.
    const stats = repairStats(data);
    noteDamage(STORAGE_KEY, text, isObject(data) && data.schema === SCHEMA, storage);
    saveStats(stats, storage);
    return stats;
  }
}

/** @param {Stats} stats */
export function saveStats(stats, storage = globalThis.localStorage) {
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify(stats));
    return true;
  } catch {
    return false; // storage full or disabled: the statistics last for this visit only
  }
}

// ------------------------------------------------------- the engine's updates

/** The updates in flight, one after another: each reads what the one before stored. */
let pending = Promise.resolve();

/**
 * Ask the engine for the statistics after ``request`` (the stored ones sent with it) and store its answer if
 * they changed. A refusal or a failure changes nothing (the statistics are never worth an error on the table).
 * @param {Ask} ask
 * @param {Record<string, unknown> & {cmd: "stats_begin" | "stats_assisted" | "stats_record"}} request
 * @param {Storage} storage
 */
function update(ask, request, storage) {
  pending = pending
    .then(async () => {
      const answer = await ask({ ...request, stats: loadStats(storage) });
      if (answer.changed !== false) saveStats(answer.stats, storage);
    })
    .catch(() => {});
  return pending;
}

/** Resolves once every update asked for so far is stored. */
export function statsSettled() {
  return pending;
}

/**
 * A new game has begun (``counted`` false: it does not count, e.g. the tutorial).
 * @param {{counted?: boolean}} options
 * @param {Ask} ask
 */
export function beginGame({ counted = true }, ask, storage = globalThis.localStorage) {
  return update(ask, { cmd: "stats_begin", counted }, storage);
}

/**
 * The player took a move back or asked for a hint in the game in play (``mode``: the table's; the engine says
 * whether it counts).
 * @param {string} mode
 * @param {Ask} ask
 */
export function noteAssistance(mode, ask, storage = globalThis.localStorage) {
  return update(ask, { cmd: "stats_assisted", mode }, storage);
}

/**
 * Count the deal ``view`` shows if it is finished and not counted yet: ``level`` the computer's, ``mode`` the
 * table's, ``now`` the time of a match's rating.
 * @param {View | null} view
 * @param {{level: number, mode: string, now?: number}} context
 * @param {Ask} ask
 */
export function noteFinishedDeal(view, { level, mode, now = Date.now() }, ask, storage = globalThis.localStorage) {
  if (!view?.deal_result) return pending;
  return update(ask, { cmd: "stats_record", view, level, mode, now }, storage);
}
