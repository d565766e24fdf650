// web/platform/puzzle-progress.js under Node: the player's puzzles kept
// apart from the statistics; attempts recorded from the engine's puzzle_rate
// answers (only a first attempt is rated, the daily run once a day);
// damaged data repaired, the damage told and a copy kept; the attempt on
// the table kept for a reload, and dropped when it is damaged.

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
  countsAsDaily,
  dailyRun,
  emptyProgress,
  isFirstAttempt,
  loadProgress,
  localDate,
  puzzleState,
  rateRequest,
  recordAttempt,
  saveProgress,
  summary,
} = await import("../../web/platform/puzzle-progress.js");

const RATED = { rating: 1530.5, deviation: 110.2, volatility: 0.059, change: 30.5, expected: 0.4, streak: 1, best: 1 };

test("a new player: the engine's start, nothing tried", () => {
  const progress = emptyProgress();
  assert.equal(progress.rating, 1500);
  assert.equal(progress.deviation, 120);
  assert.equal(progress.volatility, 0.06);
  assert.equal(puzzleState(progress, "at20-1"), "new");
  assert.ok(isFirstAttempt(progress, "at20-1"));
  assert.deepEqual(summary(progress), { tried: 0, firstTry: 0, solved: 0 });
});

test("the request to puzzle_rate carries the stored numbers, and the daily run when it counts", () => {
  const progress = { ...emptyProgress(), rating: 1600, streak: 2, best: 4 };
  progress.daily = { last: "2026-02-28", streak: 3, days: {} };
  const plain = rateRequest(progress, { id: "at20-1", solved: true, daily: null });
  assert.deepEqual(plain, {
    cmd: "puzzle_rate",
    puzzle_id: "at20-1",
    solved: true,
    rating: 1600,
    deviation: 120,
    volatility: 0.06,
    streak: 2,
    best: 4,
  });
  const daily = rateRequest(progress, { id: "at20-1", solved: false, daily: "2026-03-01" });
  assert.deepEqual(daily.daily, { date: "2026-03-01", streak: 3, last: "2026-02-28" });
});

test("a first attempt is rated; a second only adds a try (and may mark it solved)", () => {
  let progress = emptyProgress();
  progress = recordAttempt(progress, { id: "a", solved: false, date: "2026-03-01", rated: RATED, daily: null });
  assert.equal(progress.rating, 1530.5);
  assert.equal(progress.volatility, 0.059);
  assert.deepEqual(progress.puzzles.a, { first: "failed", solved: false, tries: 1, last: "2026-03-01" });
  assert.equal(puzzleState(progress, "a"), "failed");
  const again = { ...RATED, rating: 1700, streak: 5, best: 5 };
  progress = recordAttempt(progress, { id: "a", solved: true, date: "2026-03-02", rated: again, daily: null });
  assert.equal(progress.rating, 1530.5, "a second attempt does not change the rating");
  assert.equal(progress.streak, 1);
  assert.deepEqual(progress.puzzles.a, { first: "failed", solved: true, tries: 2, last: "2026-03-02" });
  assert.equal(puzzleState(progress, "a"), "solved");
  assert.deepEqual(summary(progress), { tried: 1, firstTry: 0, solved: 1 });
  assert.deepEqual(progress.history, [1530.5]);
});

test("the daily run: once a day, as the engine answers it, and broken by a missed day", () => {
  let progress = emptyProgress();
  assert.ok(countsAsDaily(progress, "2026-03-01", "d", "d"));
  assert.ok(!countsAsDaily(progress, "2026-03-01", "d", "other"));
  const rated = { ...RATED, daily: { last: "2026-03-01", streak: 4 } };
  progress = recordAttempt(progress, { id: "d", solved: true, date: "2026-03-01", rated, daily: "2026-03-01" });
  assert.deepEqual(progress.daily, { last: "2026-03-01", streak: 4, days: { "2026-03-01": "solved" } });
  assert.ok(!countsAsDaily(progress, "2026-03-01", "d", "d"), "today's is done");
  assert.equal(dailyRun(progress, "2026-03-01"), 4);
  assert.equal(dailyRun(progress, "2026-03-02"), 4, "tomorrow it may still go on");
  assert.equal(dailyRun(progress, "2026-03-03"), 0, "a day was missed");
});

test("localDate is the player's own day", () => {
  assert.equal(localDate(new Date(2026, 0, 5, 23, 59)), "2026-01-05");
});

test("stored and loaded; damaged data keeps what is valid, is told once and kept as a copy", () => {
  const reports = [];
  onDamage((damage) => reports.push(damage));
  const storage = new MemoryStorage();
  assert.deepEqual(loadProgress(storage), emptyProgress());
  const good = recordAttempt(emptyProgress(), { id: "a", solved: true, date: "2026-03-01", rated: RATED, daily: null });
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
