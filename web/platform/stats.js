// @ts-check
// Statistics of the games played against the computer, kept in this browser
// (localStorage). Everything here except loadStats/saveStats is a pure
// function of its arguments, so the browser tests call it directly.
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
// The rating is an Elo rating of the player against the computer, updated
// after every match (first to the target number of game points) the player
// finishes: expected = 1 / (1 + 10^((R_level - R_player) / 400)), then
// R_player += K * (result - expected) with result 1 for a won match and 0 for
// a lost one. Each level has a fixed nominal rating (LEVEL_RATINGS, 200
// apart); a new player starts at START_RATING. A match in which the player
// took a move back or asked for a hint ("assisted") counts in the totals but
// does not change the rating: the rating measures unaided play.

import { noteDamage } from "./damage.js";

/** @import { Preset, Rules, View } from "../../types/engine.js" */
/** @typedef {{won: number, lost: number}} WonLost */
/**
 * Counts summed over buckets: a bucket's own, totals(), a row of byRules() or byLevel().
 * @typedef {{
 *   deals: WonLost & {none: number},
 *   matches: WonLost,
 *   points: WonLost,
 *   basis: Record<string, WonLost>,
 *   closes: {made: number, won: number},
 *   marriages: {count: number, points: number},
 * }} Totals
 */
/** @typedef {Totals & {preset: string, custom: boolean, level: number}} Bucket One rule set at one level. */
/** @typedef {{t: number, rating: number, level: number, won: boolean}} HistoryPoint */
/** @typedef {{recorded: string[], counted: boolean, assisted?: boolean}} CurrentGame */
/**
 * The statistics (schema 2).
 * @typedef {{
 *   schema: number,
 *   since: number,
 *   rating: number,
 *   rated: number,
 *   history: HistoryPoint[],
 *   buckets: Record<string, Bucket>,
 *   current: CurrentGame | null,
 * }} Stats
 */
/** @typedef {{level: number, presets?: Preset[], now?: number}} RecordContext What a finished deal is counted with. */

export const SCHEMA = 2;
export const STORAGE_KEY = "sixty-six.stats";
export const START_RATING = 1200;
export const K_FACTOR = 32;
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
  /** @param {Record<string, number>} into @param {unknown} from */
  const keep = (into, from) => {
    if (!isObject(from)) return;
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

// ------------------------------------------------------------- recording

/**
 * The statistics with a new game begun (``counted`` false: a game that does not count, e.g. the tutorial).
 * @param {Stats} stats
 * @param {{counted?: boolean}} [options]
 * @returns {Stats}
 */
export function startGame(stats, { counted = true } = {}) {
  return { ...stats, current: { recorded: [], counted } };
}

/**
 * The statistics with the game in play marked as assisted (an undo or a hint): its matches are not rated.
 * @param {Stats} stats
 * @returns {Stats}
 */
export function markAssisted(stats) {
  const current = stats.current ?? { recorded: [], counted: true };
  if (current.assisted) return stats;
  return { ...stats, current: { ...current, assisted: true } };
}

/**
 * Which deal of the game a view shows: "<match number>.<deal number>".
 * @param {Pick<View, "match">} view
 */
export function dealKey(view) {
  return `${view.match.match_number}.${view.match.deal_number}`;
}

/**
 * The Elo expectation of the player (rating ``player``) against a computer level.
 * @param {number} player
 * @param {number} level
 */
export function expectedScore(player, level) {
  const opponent = LEVEL_RATINGS[level] ?? LEVEL_RATINGS[3];
  return 1 / (1 + 10 ** ((opponent - player) / 400));
}

/**
 * The player's new rating after a match against ``level``.
 * @param {number} player
 * @param {number} level
 * @param {boolean} won
 */
export function ratedAfter(player, level, won) {
  return player + K_FACTOR * ((won ? 1 : 0) - expectedScore(player, level));
}

/**
 * Are these rules one of the engine's presets unchanged? (``presets``: the engine's "presets" answer.)
 * @param {Rules} rules
 * @param {Preset[]} presets
 */
export function isCustom(rules, presets) {
  const base = presets.find((p) => p.id === rules.id);
  if (!base) return true;
  return Object.keys(base.rules).some((name) => base.rules[name] !== rules[name]);
}

/**
 * Count a finished deal (and match) shown by ``view`` once: the statistics
 * after it, or the same object if there is nothing (new) to count.
 * ``context``: {level, presets, now}.
 * @param {Stats} stats
 * @param {View} view
 * @param {RecordContext} context
 * @returns {Stats}
 */
export function recordView(stats, view, { level, presets = [], now = Date.now() }) {
  const result = view?.deal_result;
  if (!result) return stats;
  const current = stats.current ?? { recorded: [], counted: true };
  const key = dealKey(view);
  if (current.recorded.includes(key)) return stats;
  const next = structuredClone(stats);
  next.current = { ...current, recorded: [...current.recorded, key].slice(-RECORDED_LIMIT) };
  if (!current.counted) return next;

  const custom = isCustom(view.rules, presets);
  const bKey = bucketKey(view.rules.id, custom, level);
  const b = next.buckets[bKey] ?? emptyBucket(view.rules.id, custom, level);
  next.buckets[bKey] = b;
  const me = view.seat ?? 0; // the player whose statistics these are
  const winner = result.winner ?? null;
  if (winner === null) {
    b.deals.none += 1;
  } else {
    const side = winner === me ? "won" : "lost";
    b.deals[side] += 1;
    b.points[side] += result.game_points;
    if (WORD.test(result.basis) && result.basis !== "none") {
      b.basis[result.basis] ??= { won: 0, lost: 0 };
      b.basis[result.basis][side] += 1;
    }
  }
  if (view.closed_by === me) {
    b.closes.made += 1;
    if (winner === me) b.closes.won += 1;
  }
  for (const marriage of view.marriages || []) {
    if (marriage.seat === me) {
      b.marriages.count += 1;
      b.marriages.points += marriage.points;
    }
  }
  const matchWinner = view.match.winner;
  if (view.phase === "match_over" && (matchWinner === 0 || matchWinner === 1)) {
    const won = matchWinner === me;
    b.matches[won ? "won" : "lost"] += 1;
    if (current.assisted) return next;
    next.rating = ratedAfter(next.rating, level, won);
    next.rated += 1;
    next.history = [...next.history, { t: now, rating: next.rating, level, won }].slice(-HISTORY_LIMIT);
  }
  return next;
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

/**
 * A new game has begun (``counted`` false: it does not count, e.g. the tutorial).
 * @param {{counted?: boolean}} [options]
 */
export function beginGame({ counted = true } = {}, storage = globalThis.localStorage) {
  saveStats(startGame(loadStats(storage), { counted }), storage);
}

/** The player took a move back or asked for a hint in the game in play. */
export function noteAssistance(storage = globalThis.localStorage) {
  const stats = loadStats(storage);
  const next = markAssisted(stats);
  if (next !== stats) saveStats(next, storage);
}

/**
 * Count the deal ``view`` shows if it is finished and not counted yet (context as for recordView).
 * @param {View | null} view
 * @param {RecordContext} context
 */
export function noteFinishedDeal(view, context, storage = globalThis.localStorage) {
  if (!view?.deal_result) return;
  const stats = loadStats(storage);
  const next = recordView(stats, view, context);
  if (next !== stats) saveStats(next, storage);
}
