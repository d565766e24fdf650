// web/platform/stats.js under Node: how a finished deal and a finished match are
// counted (once), the Elo rating, the migration from schema 1, validation,
// the sums the statistics screen shows, and storage (localStorage in memory).

import assert from "node:assert/strict";
import { test } from "node:test";

import { MemoryStorage } from "./helpers.mjs";

const stats = await import("../../web/platform/stats.js");
const { onDamage } = await import("../../web/platform/damage.js");
const { StatsError } = stats;

const HU24 = { id: "HU24", name: "Snapszer", deck: 24, resign: false, match_target: 7 };
const AT20 = { id: "AT20", name: "Schnapsen", deck: 20, resign: false, match_target: 7 };
const PRESETS = [
  { id: "HU24", name: "Snapszer", rules: HU24 },
  { id: "AT20", name: "Schnapsen", rules: AT20 },
];

/** A view of a finished deal, as the engine sends it to seat 0. */
function finished({
  match = 1,
  deal = 1,
  winner = 0,
  points = 1,
  basis = "simple",
  rules = HU24,
  closedBy = null,
  marriages = [],
  matchWinner = null,
} = {}) {
  return {
    rules,
    phase: matchWinner === null ? "deal_over" : "match_over",
    match: { match_number: match, deal_number: deal, winner: matchWinner },
    deal_result: { winner, game_points: points, basis, code: "auto" },
    closed_by: closedBy,
    marriages,
  };
}

const context = { level: 3, presets: PRESETS, now: 1000 };

test("the Elo expectation and update", () => {
  assert.equal(stats.expectedScore(1200, 3), 0.5);
  assert.equal(stats.expectedScore(1200, 5), 1 / 11);
  assert.equal(stats.expectedScore(1600, 1), 1 / (1 + 10 ** -2));
  // An unknown level counts as level 3.
  assert.equal(stats.expectedScore(1000, 9), stats.expectedScore(1000, 3));
  assert.equal(stats.ratedAfter(1200, 3, true), 1216);
  assert.equal(stats.ratedAfter(1200, 3, false), 1184);
  assert.ok(Math.abs(stats.ratedAfter(1200, 5, true) - (1200 + 32 * (10 / 11))) < 1e-9);
  assert.ok(Math.abs(stats.ratedAfter(1200, 1, false) - (1200 - 32 * (1 / (1 + 10 ** -1)))) < 1e-9);
});

test("a finished deal is counted once, in its rule set and level", () => {
  const start = stats.startGame(stats.emptyStats(0));
  const view = finished({
    deal: 2,
    winner: 0,
    points: 2,
    basis: "schneider",
    closedBy: 0,
    marriages: [
      { seat: 0, points: 20 },
      { seat: 1, points: 40 },
    ],
  });
  const after = stats.recordView(start, view, context);
  assert.notEqual(after, start);
  assert.deepEqual(after.current.recorded, ["1.2"]);
  const bucket = after.buckets["HU24|3"];
  assert.deepEqual(bucket, {
    preset: "HU24",
    custom: false,
    level: 3,
    deals: { won: 1, lost: 0, none: 0 },
    matches: { won: 0, lost: 0 },
    points: { won: 2, lost: 0 },
    basis: { schneider: { won: 1, lost: 0 } },
    closes: { made: 1, won: 1 },
    marriages: { count: 1, points: 20 },
  });
  assert.equal(after.rating, stats.START_RATING);
  assert.equal(after.rated, 0);
  // The same deal again (a reload shows it again) changes nothing.
  assert.equal(stats.recordView(after, view, context), after);
  // The input was not changed.
  assert.deepEqual(start.buckets, {});
  assert.deepEqual(start.current.recorded, []);
});

test("a lost deal, a deal without a winner, and a view of a deal in play", () => {
  let s = stats.startGame(stats.emptyStats(0));
  s = stats.recordView(s, finished({ deal: 1, winner: 1, points: 3, basis: "schwarz", closedBy: 0 }), context);
  s = stats.recordView(s, finished({ deal: 2, winner: null, basis: "none" }), context);
  const b = s.buckets["HU24|3"];
  assert.deepEqual(b.deals, { won: 0, lost: 1, none: 1 });
  assert.deepEqual(b.points, { won: 0, lost: 3 });
  assert.deepEqual(b.basis, { schwarz: { won: 0, lost: 1 } });
  assert.deepEqual(b.closes, { made: 1, won: 0 });
  const playing = { ...finished({ deal: 3 }), deal_result: null };
  assert.equal(stats.recordView(s, playing, context), s);
  assert.equal(stats.recordView(s, null, context), s);
});

test("a won match raises the rating and is remembered in the history", () => {
  const start = stats.startGame(stats.emptyStats(0));
  const after = stats.recordView(start, finished({ deal: 5, matchWinner: 0 }), { ...context, level: 5, now: 777 });
  const bucket = after.buckets["HU24|5"];
  assert.deepEqual(bucket.matches, { won: 1, lost: 0 });
  const rating = stats.ratedAfter(stats.START_RATING, 5, true);
  assert.equal(after.rating, rating);
  assert.equal(after.rated, 1);
  assert.deepEqual(after.history, [{ t: 777, rating, level: 5, won: true }]);

  const lost = stats.recordView(after, finished({ match: 2, deal: 1, winner: 1, matchWinner: 1 }), context);
  assert.deepEqual(lost.buckets["HU24|3"].matches, { won: 0, lost: 1 });
  assert.equal(lost.rating, stats.ratedAfter(rating, 3, false));
  assert.equal(lost.rated, 2);
  assert.equal(lost.history.length, 2);
});

test("an assisted match counts in the totals but not in the rating", () => {
  const assisted = stats.markAssisted(stats.startGame(stats.emptyStats(0)));
  assert.equal(assisted.current.assisted, true);
  assert.equal(stats.markAssisted(assisted), assisted);
  const after = stats.recordView(assisted, finished({ matchWinner: 0 }), context);
  assert.deepEqual(after.buckets["HU24|3"].matches, { won: 1, lost: 0 });
  assert.equal(after.rating, stats.START_RATING);
  assert.equal(after.rated, 0);
  assert.deepEqual(after.history, []);
});

test("a game that does not count (the tutorial) records its deals but no numbers", () => {
  const start = stats.startGame(stats.emptyStats(0), { counted: false });
  const after = stats.recordView(start, finished({ matchWinner: 0 }), context);
  assert.deepEqual(after.current.recorded, ["1.1"]);
  assert.deepEqual(after.buckets, {});
  assert.equal(after.rated, 0);
});

test("changed rules count apart from their preset", () => {
  assert.equal(stats.isCustom(HU24, PRESETS), false);
  assert.equal(stats.isCustom({ ...HU24, resign: true }, PRESETS), true);
  assert.equal(stats.isCustom({ ...HU24, id: "XX24" }, PRESETS), true);
  const after = stats.recordView(stats.emptyStats(0), finished({ rules: { ...HU24, match_target: 3 } }), context);
  assert.deepEqual(Object.keys(after.buckets), ["HU24*|3"]);
  assert.equal(after.buckets["HU24*|3"].custom, true);
  assert.equal(stats.bucketKey("HU24", true, 3), "HU24*|3");
  assert.equal(stats.dealKey(finished({ match: 4, deal: 9 })), "4.9");
});

test("schema 1 migrates to schema 2 (its totals at level 0)", () => {
  const old = {
    schema: 1,
    since: 5,
    presets: {
      HU24: { dealsWon: 3, dealsLost: 1, matchesWon: 1, matchesLost: 0, pointsWon: 7, pointsLost: 2 },
      AT20: { dealsWon: 0, dealsLost: 2, matchesWon: 0, matchesLost: 1, pointsWon: 0, pointsLost: 4 },
    },
  };
  const copy = structuredClone(old);
  const migrated = stats.migrate(old);
  assert.deepEqual(old, copy);
  assert.equal(migrated.schema, stats.SCHEMA);
  assert.equal(migrated.schema, 2);
  assert.equal(migrated.since, 5);
  assert.equal(migrated.rating, stats.START_RATING);
  assert.equal(migrated.rated, 0);
  assert.deepEqual(Object.keys(migrated.buckets).sort(), ["AT20|0", "HU24|0"]);
  const hu = migrated.buckets["HU24|0"];
  assert.deepEqual(hu.deals, { won: 3, lost: 1, none: 0 });
  assert.deepEqual(hu.matches, { won: 1, lost: 0 });
  assert.deepEqual(hu.points, { won: 7, lost: 2 });
  assert.equal(hu.level, 0);
  assert.equal(stats.validate(migrated), migrated);
});

test("unusable statistics are refused with a StatsError", () => {
  const bad = [
    null,
    [],
    { schema: "2" },
    { schema: 3 },
    { schema: 1 },
    { schema: 1, presets: { hu24: {} } },
    { schema: 1, presets: { HU24: { dealsWon: -1, dealsLost: 0, matchesWon: 0, matchesLost: 0, pointsWon: 0 } } },
    { ...stats.emptyStats(0), rating: Number.NaN },
    { ...stats.emptyStats(0), buckets: { "HU24|3": { preset: "HU24", custom: false, level: 2 } } },
    { ...stats.emptyStats(0), current: { recorded: ["x"], counted: true } },
  ];
  for (const data of bad) assert.throws(() => stats.migrate(data), StatsError, JSON.stringify(data));
  assert.throws(() => stats.migrate({ schema: 3 }), /schema 3 is newer/);
  const good = stats.recordView(stats.emptyStats(0), finished(), context);
  assert.deepEqual(stats.migrate(good), good);
  assert.notEqual(stats.migrate(good), good);
});

test("totals, rows per rule set and per level", () => {
  let s = stats.emptyStats(0);
  s = stats.recordView(s, finished({ deal: 1, winner: 0, points: 2 }), { ...context, level: 3 });
  s = stats.recordView(s, finished({ deal: 2, winner: 1, points: 1 }), { ...context, level: 2 });
  s = stats.recordView(s, finished({ deal: 3, winner: 0, points: 3, rules: AT20 }), { ...context, level: 3 });
  s = stats.recordView(s, finished({ deal: 4, winner: 0, points: 1, rules: { ...HU24, resign: true } }), context);
  s.buckets["AT20|0"] = stats.migrate({
    schema: 1,
    presets: { AT20: { dealsWon: 1, dealsLost: 0, matchesWon: 0, matchesLost: 0, pointsWon: 2, pointsLost: 0 } },
  }).buckets["AT20|0"];

  const all = stats.totals(s);
  assert.deepEqual(all.deals, { won: 4, lost: 1, none: 0 });
  assert.deepEqual(all.points, { won: 8, lost: 1 });
  assert.deepEqual(all.basis, { simple: { won: 3, lost: 1 } });
  assert.deepEqual(stats.totals(s, (b) => b.level === 3).points, { won: 6, lost: 0 });

  const rows = stats.byRules(s, ["AT20", "HU24"]);
  assert.deepEqual(
    rows.map((r) => [r.preset, r.custom, r.deals.won, r.deals.lost]),
    [
      ["AT20", false, 2, 0],
      ["HU24", false, 1, 1],
      ["HU24", true, 1, 0],
    ],
  );
  assert.deepEqual(
    stats.byLevel(s).map((r) => [r.level, r.deals.won + r.deals.lost]),
    [
      [2, 1],
      [3, 3],
      [0, 1],
    ],
  );
  assert.equal(stats.percent(1, 3), 33);
  assert.equal(stats.percent(2, 3), 67);
  assert.equal(stats.percent(0, 0), null);
});

test("storage: empty, migrated and stored back, damaged, full", async () => {
  const storage = new MemoryStorage();
  const empty = stats.loadStats(storage);
  assert.equal(empty.schema, 2);
  assert.deepEqual(empty.buckets, {});
  assert.equal(storage.length, 0);

  const old = {
    schema: 1,
    presets: { DE24: { dealsWon: 1, dealsLost: 2, matchesWon: 0, matchesLost: 0, pointsWon: 1, pointsLost: 4 } },
  };
  storage.setItem(stats.STORAGE_KEY, JSON.stringify(old));
  const loaded = stats.loadStats(storage);
  assert.deepEqual(loaded.buckets["DE24|0"].deals, { won: 1, lost: 2, none: 0 });
  assert.equal(JSON.parse(storage.getItem(stats.STORAGE_KEY)).schema, 2);

  // Damaged: not JSON at all → empty statistics, stored; the damaged text is kept as a copy.
  const reports = [];
  onDamage((damage) => reports.push(damage));
  storage.setItem(stats.STORAGE_KEY, "{not json");
  const value = stats.loadStats(storage);
  assert.deepEqual(value.buckets, {});
  assert.deepEqual(reports, [{ key: stats.STORAGE_KEY, repaired: false }]);
  assert.equal(storage.getItem("sixty-six.damaged.stats"), "{not json");
  assert.deepEqual(stats.loadStats(storage), value); // stored back: told once
  assert.equal(reports.length, 1);

  const full = new MemoryStorage();
  full.setItem = () => {
    throw new Error("QuotaExceededError");
  };
  assert.equal(stats.saveStats(stats.emptyStats(0), full), false);
  assert.equal(stats.saveStats(stats.emptyStats(0), storage), true);
});

test("damaged statistics keep every count that is still good", () => {
  let good = stats.emptyStats(1000);
  good = stats.recordView(good, finished({ deal: 1, winner: 0, points: 2 }), { ...context, level: 3 });
  good = stats.recordView(good, finished({ deal: 2, winner: 0, points: 3, rules: AT20 }), { ...context, level: 3 });
  const [hu, at] = ["HU24|3", "AT20|3"];
  const damaged = structuredClone(good);
  damaged.buckets[hu].points.won = -4; // one bad count
  damaged.since = 1e20; // a date no Date can show
  damaged.history.push({ t: "soon" });
  assert.throws(() => stats.migrate(damaged), StatsError);
  const repaired = stats.repairStats(damaged, 5000);
  assert.equal(stats.validate(repaired), repaired);
  assert.deepEqual(repaired.buckets[at], good.buckets[at]);
  assert.deepEqual(repaired.buckets[hu].deals, good.buckets[hu].deals);
  assert.deepEqual(repaired.buckets[hu].points, { won: 0, lost: good.buckets[hu].points.lost });
  assert.equal(repaired.rating, good.rating);
  assert.deepEqual(repaired.history, good.history);
  assert.equal(repaired.since, 5000);
  assert.deepEqual(stats.repairStats([], 7), stats.emptyStats(7));
  assert.deepEqual(stats.repairStats({ schema: 9, buckets: good.buckets }, 7), stats.emptyStats(7));

  const storage = new MemoryStorage({ [stats.STORAGE_KEY]: JSON.stringify(damaged) });
  const reports = [];
  onDamage((damage) => reports.push(damage));
  assert.deepEqual(stats.loadStats(storage).buckets, repaired.buckets);
  assert.deepEqual(reports, [{ key: stats.STORAGE_KEY, repaired: true }]);
  assert.deepEqual(JSON.parse(storage.getItem("sixty-six.damaged.stats")), damaged);
});

test("the storage helpers count a finished deal once across reloads", () => {
  const storage = new MemoryStorage();
  globalThis.localStorage = storage; // the default storage of every helper
  try {
    stats.beginGame();
    const view = finished({ deal: 1, winner: 0, points: 2 });
    stats.noteFinishedDeal(view, context);
    stats.noteFinishedDeal(view, context);
    stats.noteAssistance();
    stats.noteFinishedDeal(finished({ deal: 2, matchWinner: 0 }), context);
    const saved = JSON.parse(storage.getItem(stats.STORAGE_KEY));
    assert.deepEqual(saved.buckets["HU24|3"].deals, { won: 2, lost: 0, none: 0 });
    assert.deepEqual(saved.buckets["HU24|3"].matches, { won: 1, lost: 0 });
    assert.equal(saved.rated, 0); // assisted
    assert.deepEqual(saved.current.recorded, ["1.1", "1.2"]);
    stats.beginGame({ counted: false });
    assert.deepEqual(JSON.parse(storage.getItem(stats.STORAGE_KEY)).current, { recorded: [], counted: false });
  } finally {
    delete globalThis.localStorage;
  }
});
