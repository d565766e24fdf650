// web/platform/puzzle-progress.js under Node: the player's puzzles kept
// apart from the statistics (what an attempt counts is the engine's:
// tests/test_puzzle_progress.py); damaged data repaired, the damage told and
// a copy kept; the attempt on the table kept for a reload, and dropped when
// it is damaged.

import assert from "node:assert/strict";
import { test } from "node:test";

import { MemoryStorage } from "./helpers.mjs";

const { onDamage } = await import("../../web/platform/damage.js");
const {
  ATTEMPT_KEY,
  MOST_MOVES,
  STORAGE_KEY,
  cleanAttempt,
  cleanProgress,
  clearAttempt,
  loadAttempt,
  saveAttempt,
  emptyProgress,
  loadProgress,
  localDate,
  saveProgress,
} = await import("../../web/platform/puzzle-progress.js");

test("a new player: the engine's start, nothing tried", () => {
  const progress = emptyProgress();
  assert.equal(progress.rating, 1500);
  assert.equal(progress.deviation, 120);
  assert.equal(progress.volatility, 0.06);
  assert.deepEqual(progress.puzzles, {});
});

test("localDate is the player's own day", () => {
  assert.equal(localDate(new Date(2026, 0, 5, 23, 59)), "2026-01-05");
});

test("stored and loaded; damaged data keeps what is valid, is told once and kept as a copy", () => {
  const reports = [];
  onDamage((damage) => reports.push(damage));
  const storage = new MemoryStorage();
  assert.deepEqual(loadProgress(storage), emptyProgress());
  const good = {
    ...emptyProgress(),
    rating: 1530.5,
    deviation: 110.2,
    volatility: 0.059,
    streak: 1,
    best: 1,
    puzzles: { a: { first: "solved", solved: true, tries: 1, last: "2026-03-01" } },
    history: [1530.5],
  };
  saveProgress(good, storage);
  assert.deepEqual(loadProgress(storage), good);
  assert.deepEqual(reports, []);

  const damaged = JSON.parse(storage.getItem(STORAGE_KEY));
  damaged.puzzles["bad id!"] = { first: "solved", solved: true, tries: 1, last: "2026-03-01" };
  damaged.puzzles.b = { first: "maybe" };
  damaged.streak = -3;
  const text = JSON.stringify(damaged);
  storage.setItem(STORAGE_KEY, text);
  const repaired = loadProgress(storage);
  assert.deepEqual(Object.keys(repaired.puzzles), ["a"]);
  assert.equal(repaired.rating, good.rating);
  assert.equal(repaired.streak, 0);
  assert.deepEqual(reports, [{ key: STORAGE_KEY, repaired: true }]);
  assert.equal(storage.getItem("sixty-six.damaged.puzzles"), text);
  assert.deepEqual(JSON.parse(storage.getItem(STORAGE_KEY)), repaired, "the repaired value is stored back");
  assert.deepEqual(loadProgress(storage), repaired);
  assert.equal(reports.length, 1, "once repaired, it is no longer damage");

  storage.setItem(STORAGE_KEY, "{not json");
  assert.deepEqual(loadProgress(storage), emptyProgress());
  assert.deepEqual(reports.at(-1), { key: STORAGE_KEY, repaired: false });
  onDamage(null);
});

test("another version's data starts afresh", () => {
  assert.deepEqual(cleanProgress({ version: 99, rating: 2000 }), emptyProgress());
  assert.deepEqual(cleanProgress([1, 2]), emptyProgress());
});

test("the attempt on the table is kept for a reload, apart from the progress", () => {
  const storage = new MemoryStorage();
  assert.deepEqual(loadAttempt(storage), { attempt: null, damaged: false });
  const attempt = { id: "at20-1a2b3c4", daily: "2026-03-01", moves: ["close", "play:QH", "marry:H"] };
  saveAttempt(attempt, storage);
  assert.deepEqual(loadAttempt(storage), { attempt, damaged: false });
  assert.equal(storage.getItem(STORAGE_KEY), null);
  saveAttempt({ ...attempt, daily: null, moves: [] }, storage);
  assert.deepEqual(loadAttempt(storage).attempt, { id: attempt.id, daily: null, moves: [] });
  clearAttempt(storage);
  assert.equal(storage.getItem(ATTEMPT_KEY), null);
});

test("a damaged attempt is not one: it is dropped, and said", () => {
  const good = { version: 1, id: "at20-1a2b3c4", daily: null, moves: ["play:QH"] };
  assert.deepEqual(cleanAttempt(good), { id: good.id, daily: null, moves: ["play:QH"] });
  for (const bad of [
    null,
    [],
    "at20-1a2b3c4",
    { ...good, version: 2 },
    { ...good, id: "bad id!" },
    { ...good, id: 7 },
    { ...good, daily: "yesterday" },
    { ...good, daily: undefined },
    { ...good, moves: "play:QH" },
    { ...good, moves: [1] },
    { ...good, moves: ["play:QH; drop"] },
    { ...good, moves: Array(MOST_MOVES + 1).fill("play:QH") },
  ]) {
    assert.equal(cleanAttempt(bad), null, JSON.stringify(bad));
  }
  for (const text of ["{not json", JSON.stringify({ ...good, moves: [null] })]) {
    const storage = new MemoryStorage({ [ATTEMPT_KEY]: text });
    assert.deepEqual(loadAttempt(storage), { attempt: null, damaged: true });
    assert.equal(storage.getItem(ATTEMPT_KEY), null); // not found again at the next reload
  }
});
