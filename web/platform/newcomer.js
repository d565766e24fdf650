// @ts-check
// A newcomer, for whom the table shows more than the rules would: under rules
// where players claim 66 by hand, their own running points (screens/settings.js
// pointsMode), until they finish the tutorial or have played NEWCOMER_MATCHES
// matches against the computer. The points setting, once chosen, decides
// instead, and a ranked game never helps (game/draw.js).

import { loadStats, totals } from "./stats.js";

/** Where the tutorial notes that it was offered, started or finished (screens/tutorial.js). */
export const TUTORIAL_KEY = "sixty-six.tutorial";
/** The matches against the computer after which a player is no newcomer. */
export const NEWCOMER_MATCHES = 3;

/** Has the tutorial been played to its end in this browser? */
export function tutorialFinished(storage = globalThis.localStorage) {
  try {
    return Object.hasOwn(JSON.parse(storage.getItem(TUTORIAL_KEY) ?? "{}") ?? {}, "finished");
  } catch {
    return false; // an older mark (a bare word) or none
  }
}

/** Is the player a newcomer (no tutorial finished, fewer than NEWCOMER_MATCHES matches played)? */
export function isNewcomer(storage = globalThis.localStorage) {
  if (tutorialFinished(storage)) return false;
  const { matches } = totals(loadStats(storage));
  return matches.won + matches.lost < NEWCOMER_MATCHES;
}
