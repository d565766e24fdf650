// @ts-check
// The session's tally of Bummerls: every match finished against the computer
// in this tab, as players keep a tally on paper across matches beside the
// score sheet (screens/sheet.js shows it). It lives as long as the tab
// (sessionStorage: a reload keeps it, a new tab is a new session). Nothing
// here is a rule: who won and the scores are the engine's (view.match).

/** @import { View } from "../../types/engine.js" */

export const TALLY_KEY = "sixty-six.tally";
/** The matches kept (the latest). */
export const TALLY_KEPT = 200;

/**
 * A finished match: the game it was in (a token per game, so that a reload does not count it twice), its number
 * in that game, the rules, whether you won, and the final score.
 * @typedef {{game: string, match: number, preset: string, name: string, won: boolean, me: number, opp: number}} TallyLine
 */
/** @typedef {{game: string, lines: TallyLine[]}} Tally */

/** @param {unknown} line */
function isLine(line) {
  if (!line || typeof line !== "object") return false;
  const l = /** @type {Record<string, unknown>} */ (line);
  return (
    typeof l.game === "string" &&
    Number.isInteger(l.match) &&
    typeof l.preset === "string" &&
    typeof l.name === "string" &&
    typeof l.won === "boolean" &&
    Number.isInteger(l.me) &&
    Number.isInteger(l.opp)
  );
}

/**
 * The tally as stored; an unreadable one is a new session's (empty).
 * @param {Storage} storage
 * @returns {Tally}
 */
function read(storage) {
  try {
    const data = JSON.parse(storage.getItem(TALLY_KEY) ?? "null");
    if (data && typeof data.game === "string" && Array.isArray(data.lines) && data.lines.every(isLine)) return data;
  } catch {
    // not JSON: start afresh
  }
  return { game: "", lines: [] };
}

/**
 * @param {Tally} tally
 * @param {Storage} storage
 */
function write(tally, storage) {
  try {
    storage.setItem(TALLY_KEY, JSON.stringify(tally));
  } catch {
    // storage full or refused: the tally is only for this session
  }
}

/** The matches finished in this session, oldest first. */
export function loadTally(storage = globalThis.sessionStorage) {
  return read(storage).lines;
}

/**
 * A new game begins: its matches are told apart from those of the games before.
 * @param {string} token unique to the game
 */
export function newTallyGame(token, storage = globalThis.sessionStorage) {
  write({ ...read(storage), game: token }, storage);
}

/**
 * Note the match ``view`` shows finished (once: a reload shows it again), for the seat at the bottom.
 * @param {View} view
 */
export function tallyMatch(view, storage = globalThis.sessionStorage) {
  const winner = view.match.winner;
  if (view.phase !== "match_over" || (winner !== 0 && winner !== 1)) return;
  const tally = read(storage);
  const number = view.match.match_number;
  if (tally.lines.some((line) => line.game === tally.game && line.match === number)) return;
  const me = view.seat ?? 0;
  const scores = view.match.scores;
  /** @type {TallyLine} */
  const line = {
    game: tally.game,
    match: number,
    preset: view.rules.id,
    name: view.rules.name,
    won: winner === me,
    me: scores[me],
    opp: scores[1 - me],
  };
  write({ game: tally.game, lines: [...tally.lines, line].slice(-TALLY_KEPT) }, storage);
}

/**
 * The Bummerls won by each side.
 * @param {TallyLine[]} lines
 */
export function tallyTotals(lines) {
  const won = lines.filter((line) => line.won).length;
  return { me: won, opp: lines.length - won };
}
