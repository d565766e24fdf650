// @ts-check
// Results of online games, kept in this browser apart from the statistics of
// games against the computer (stats.js): how many matches were won, lost or
// ended without a result, how they ended, and against whom (by the name the
// other player gave). Only a result both players signed counts as won or
// lost; an end that only this page signed (the other stayed away, or was
// caught cheating) is counted apart, in "one_sided". Pure but for
// loadOnlineStats/saveOnlineStats.
//
//   {schema: 1, games: {won, lost, none, one_sided}, ended: {<how>: count}, opponents: {<name>: {won, lost}}}
// <how> is "played" (to the end), "resigned", "time", "cheat" or "abandoned".

import { loadEntry } from "./damage.js";

/** @typedef {{won: number, lost: number}} WonLost */
/**
 * @typedef {{
 *   schema: 1,
 *   games: WonLost & {none: number, one_sided: number},
 *   ended: Record<string, number>,
 *   opponents: Record<string, WonLost>,
 * }} OnlineStats
 */

export const ONLINE_STATS_KEY = "sixty-six.online-stats";
const HOW = ["played", "resigned", "time", "cheat", "abandoned"];
const OPPONENTS_KEPT = 100;

/** @returns {OnlineStats} */
export function emptyOnlineStats() {
  return { schema: 1, games: { won: 0, lost: 0, none: 0, one_sided: 0 }, ended: {}, opponents: {} };
}

/** @param {unknown} n */
const count = (n) => (Number.isInteger(n) && /** @type {number} */ (n) >= 0 ? /** @type {number} */ (n) : 0);

/**
 * Stored data as statistics: what is valid is kept, the rest starts at zero.
 * @param {any} data
 * @returns {OnlineStats}
 */
export function validOnlineStats(data) {
  const out = emptyOnlineStats();
  if (!data || typeof data !== "object" || data.schema !== 1) return out;
  for (const key of /** @type {const} */ (["won", "lost", "none", "one_sided"])) {
    out.games[key] = count(data.games?.[key]);
  }
  for (const [how, n] of Object.entries(data.ended ?? {})) {
    if (HOW.includes(how)) out.ended[how] = count(n);
  }
  for (const [name, wl] of Object.entries(data.opponents ?? {}).slice(-OPPONENTS_KEPT)) {
    out.opponents[String(name).slice(0, 24)] = {
      won: count(/** @type {any} */ (wl)?.won),
      lost: count(/** @type {any} */ (wl)?.lost),
    };
  }
  return out;
}

/**
 * The statistics with one finished online match added.
 * @param {OnlineStats} stats
 * @param {{winner: number | null, how: string, seat: number, opponent: string, oneSided: boolean,
 *   wasOneSided?: boolean}} match ``winner`` (null: nobody), how it ended, your seat, the other player's name,
 *   whether only this page signed its end, and whether it was counted as one-sided before the other signed it
 * @returns {OnlineStats}
 */
export function addOnlineResult(stats, match) {
  const next = validOnlineStats(stats);
  const { winner, how, seat, oneSided } = match;
  if (match.wasOneSided) next.games.one_sided = Math.max(0, next.games.one_sided - 1);
  else if (HOW.includes(how)) next.ended[how] = (next.ended[how] ?? 0) + 1;
  if (oneSided) {
    next.games.one_sided += 1;
    return next;
  }
  const name = match.opponent.slice(0, 24);
  const row = next.opponents[name] ?? { won: 0, lost: 0 };
  if (winner === null) next.games.none += 1;
  else if (winner === seat) {
    next.games.won += 1;
    row.won += 1;
  } else {
    next.games.lost += 1;
    row.lost += 1;
  }
  if (winner !== null) {
    delete next.opponents[name];
    next.opponents[name] = row; // the latest opponent last
  }
  return next;
}

/** @returns {OnlineStats} */
export function loadOnlineStats(storage = globalThis.localStorage) {
  return loadEntry(ONLINE_STATS_KEY, validOnlineStats, storage);
}

/**
 * Count a finished online match (as addOnlineResult).
 * @param {Parameters<typeof addOnlineResult>[1]} match
 */
export function noteOnlineResult(match, storage = globalThis.localStorage) {
  const stats = addOnlineResult(loadOnlineStats(storage), match);
  try {
    storage.setItem(ONLINE_STATS_KEY, JSON.stringify(stats));
  } catch {
    // storage full or disabled
  }
  return stats;
}
