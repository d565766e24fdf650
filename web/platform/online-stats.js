// @ts-check
// Results of online games, kept in this browser apart from the statistics of
// games against the computer (stats.js): how many games were won, lost or
// ended without a result, how they ended, and against whom (by the name the
// other player gave). Pure but for loadOnlineStats/saveOnlineStats.
//
//   {schema: 1, games: {won, lost, none}, ended: {<how>: count}, opponents: {<name>: {won, lost}}}
// <how> is "played" (to the end), "resigned", "time" or "abandoned".

import { loadEntry } from "./damage.js";

/** @import { View } from "../../types/engine.js" */
/** @typedef {{won: number, lost: number}} WonLost */
/**
 * @typedef {{
 *   schema: 1,
 *   games: WonLost & {none: number},
 *   ended: Record<string, number>,
 *   opponents: Record<string, WonLost>,
 * }} OnlineStats
 */

export const ONLINE_STATS_KEY = "sixty-six.online-stats";
const OPPONENTS_KEPT = 100;

/** @returns {OnlineStats} */
export function emptyOnlineStats() {
  return { schema: 1, games: { won: 0, lost: 0, none: 0 }, ended: {}, opponents: {} };
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
  for (const key of /** @type {const} */ (["won", "lost", "none"])) out.games[key] = count(data.games?.[key]);
  for (const [how, n] of Object.entries(data.ended ?? {})) {
    if (["played", "resigned", "time", "abandoned"].includes(how)) out.ended[how] = count(n);
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
 * The statistics with one finished online game added (``view``: its last view, ``seat``: yours).
 * @param {OnlineStats} stats
 * @param {View} view
 * @param {number} seat
 * @param {string} opponent the other player's name
 * @returns {OnlineStats}
 */
export function addOnlineResult(stats, view, seat, opponent) {
  const next = validOnlineStats(stats);
  const winner = view.match.winner;
  const how = view.match.ended?.reason ?? "played";
  next.ended[how] = (next.ended[how] ?? 0) + 1;
  const name = opponent.slice(0, 24);
  const row = next.opponents[name] ?? { won: 0, lost: 0 };
  if (winner === null || winner === undefined) next.games.none += 1;
  else if (winner === seat) {
    next.games.won += 1;
    row.won += 1;
  } else {
    next.games.lost += 1;
    row.lost += 1;
  }
  if (winner !== null && winner !== undefined) {
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
 * Count a finished online game.
 * @param {View} view
 * @param {number} seat
 * @param {string} opponent
 */
export function noteOnlineResult(view, seat, opponent, storage = globalThis.localStorage) {
  const stats = addOnlineResult(loadOnlineStats(storage), view, seat, opponent);
  try {
    storage.setItem(ONLINE_STATS_KEY, JSON.stringify(stats));
  } catch {
    // storage full or disabled
  }
  return stats;
}
