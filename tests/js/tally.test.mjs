// web/platform/tally.js under Node: the session's tally of Bummerls across matches (sessionStorage in memory).

import assert from "node:assert/strict";
import { test } from "node:test";

import { MemoryStorage } from "./helpers.mjs";

const { loadTally, newTallyGame, tallyMatch, tallyTotals, TALLY_KEY } = await import("../../web/platform/tally.js");

const AT20 = { id: "AT20", name: "Austrian Schnapsen" };

/** The view of a match's end (or, with ``over`` false, of a deal's end in it), for seat ``seat``. */
function matchEnd({ number = 1, winner = 0, scores = [7, 3], seat = 0, over = true } = {}) {
  return {
    seat,
    phase: over ? "match_over" : "deal_over",
    rules: AT20,
    match: { match_number: number, winner: over ? winner : null, scores },
  };
}

test("a match is noted once per game, across new games, for the seat at the bottom", () => {
  const storage = new MemoryStorage();
  newTallyGame("g1", storage);
  tallyMatch(/** @type {any} */ (matchEnd({ over: false })), storage);
  assert.deepEqual(loadTally(storage), [], "a deal's end is no match's end");
  tallyMatch(/** @type {any} */ (matchEnd()), storage);
  tallyMatch(/** @type {any} */ (matchEnd()), storage); // shown again after a reload
  newTallyGame("g2", storage);
  tallyMatch(/** @type {any} */ (matchEnd({ winner: 1, scores: [4, 7] })), storage);
  const lines = loadTally(storage);
  assert.deepEqual(
    lines.map((line) => [line.game, line.match, line.won, line.me, line.opp, line.preset]),
    [
      ["g1", 1, true, 7, 3, "AT20"],
      ["g2", 1, false, 4, 7, "AT20"],
    ],
  );
  assert.deepEqual(tallyTotals(lines), { me: 1, opp: 1 });
  // Seen from seat 1, the same end is the other's win.
  const other = new MemoryStorage();
  newTallyGame("g3", other);
  tallyMatch(/** @type {any} */ (matchEnd({ seat: 1, winner: 0, scores: [7, 2] })), other);
  assert.deepEqual(
    loadTally(other).map((line) => [line.won, line.me, line.opp]),
    [[false, 2, 7]],
  );
});

test("a damaged tally starts afresh instead of failing", () => {
  const storage = new MemoryStorage();
  storage.setItem(TALLY_KEY, "{not json");
  assert.deepEqual(loadTally(storage), []);
  storage.setItem(TALLY_KEY, JSON.stringify({ game: "g", lines: [{ game: "g", match: "one" }] }));
  assert.deepEqual(loadTally(storage), []);
  newTallyGame("g4", storage);
  tallyMatch(/** @type {any} */ (matchEnd()), storage);
  assert.equal(loadTally(storage).length, 1);
});
