// web/platform/stats.js under Node: the migration from schema 1, validation,
// repair, the sums the statistics screen shows, storage (localStorage in
// memory), and the updates the engine answers (a stand-in engine here: what a
// finished deal counts and the rating are the engine's, tests/test_game_stats.py).

import assert from "node:assert/strict";
import { test } from "node:test";

import { MemoryStorage } from "./helpers.mjs";

const stats = await import("../../web/platform/stats.js");
const { onDamage } = await import("../../web/platform/damage.js");
const { StatsError } = stats;

const HU24 = { id: "HU24", name: "Snapszer", deck: 24, resign: false, match_target: 7 };
const PRESETS = [
  { id: "HU24", name: "Snapszer", rules: HU24 },
  { id: "AT20", name: "Schnapsen", rules: { id: "AT20", name: "Schnapsen", deck: 20, resign: false, match_target: 7 } },
];

/**
 * Statistics holding the given buckets, as the engine's answers build them: ``[preset, custom, level, counts]``,
 * counts being {deals: [won, lost, none], points: [won, lost], basis: {name: [won, lost]}, matches, closes, marriages}.
 */
function holding(buckets, since = 0) {
  const s = stats.emptyStats(since);
  for (const [preset, custom, level, c] of buckets) {
    const pair = ([won, lost] = [0, 0]) => ({ won, lost });
    const [won, lost, none] = c.deals ?? [0, 0, 0];
    s.buckets[stats.bucketKey(preset, custom, level)] = {
      preset,
      custom,
      level,
      deals: { won, lost, none },
      matches: pair(c.matches),
      points: pair(c.points),
      basis: Object.fromEntries(Object.entries(c.basis ?? {}).map(([name, v]) => [name, pair(v)])),
      closes: { made: c.closes?.[0] ?? 0, won: c.closes?.[1] ?? 0 },
      marriages: { count: c.marriages?.[0] ?? 0, points: c.marriages?.[1] ?? 0 },
    };
  }
  return s;
}

test("changed rules are named apart from their preset", () => {
  assert.equal(stats.isCustom(HU24, PRESETS), false);
  assert.equal(stats.isCustom({ ...HU24, resign: true }, PRESETS), true);
  assert.equal(stats.isCustom({ ...HU24, id: "XX24" }, PRESETS), true);
  assert.equal(stats.bucketKey("HU24", true, 3), "HU24*|3");
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
  const good = holding([["HU24", false, 3, { deals: [1, 0, 0], points: [1, 0], basis: { simple: [1, 0] } }]]);
  good.current = { recorded: ["1.1"], counted: true };
  assert.deepEqual(stats.migrate(good), good);
  assert.notEqual(stats.migrate(good), good);
});

test("totals, rows per rule set and per level", () => {
  const s = holding([
    ["HU24", false, 3, { deals: [1, 0, 0], points: [2, 0], basis: { simple: [1, 0] } }],
    ["HU24", false, 2, { deals: [0, 1, 0], points: [0, 1], basis: { simple: [0, 1] } }],
    ["AT20", false, 3, { deals: [1, 0, 0], points: [3, 0], basis: { simple: [1, 0] } }],
    ["HU24", true, 3, { deals: [1, 0, 0], points: [1, 0], basis: { simple: [1, 0] } }],
  ]);
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
  const good = holding(
    [
      ["HU24", false, 3, { deals: [1, 0, 0], points: [2, 0], basis: { simple: [1, 0] } }],
      ["AT20", false, 3, { deals: [1, 0, 0], points: [3, 0], basis: { simple: [1, 0] } }],
    ],
    1000,
  );
  good.current = { recorded: ["1.1", "1.2"], counted: true };
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

test("the engine's updates: the stored statistics go with each request and its answer is stored", async () => {
  const storage = new MemoryStorage();
  const asked = [];
  /** A stand-in engine: begins a game, marks it assisted, counts a deal as a won deal of HU24 at its level. */
  const ask = async (request) => {
    asked.push(structuredClone(request));
    const s = structuredClone(request.stats);
    if (request.cmd === "stats_begin") return { stats: { ...s, current: { recorded: [], counted: request.counted } } };
    if (request.cmd === "stats_assisted")
      return { stats: { ...s, current: { ...s.current, assisted: true } }, changed: true };
    if (request.view.match.deal_number === 9) throw Object.assign(new Error("refused"), { code: "bad_request" });
    if (request.view.match.deal_number === 8) return { stats: s, changed: false };
    return { stats: { ...s, rated: s.rated + 1 }, changed: true };
  };
  const view = { deal_result: { winner: 0 }, match: { match_number: 1, deal_number: 1 } };
  stats.beginGame({ counted: false }, ask, storage);
  stats.noteAssistance("computer", ask, storage);
  stats.noteFinishedDeal({ ...view, deal_result: null }, { level: 3, mode: "computer" }, ask, storage); // not over
  stats.noteFinishedDeal(view, { level: 3, mode: "computer", now: 7 }, ask, storage);
  await stats.statsSettled();
  assert.deepEqual(
    asked.map((r) => r.cmd),
    ["stats_begin", "stats_assisted", "stats_record"],
  );
  // Each update reads what the one before it stored.
  assert.deepEqual(asked[1].stats.current, { recorded: [], counted: false });
  assert.deepEqual(asked[2].stats.current, { recorded: [], counted: false, assisted: true });
  assert.deepEqual(asked[2], { ...asked[2], view, level: 3, mode: "computer", now: 7 });
  const stored = JSON.parse(storage.getItem(stats.STORAGE_KEY));
  assert.equal(stored.rated, 1);
  // Nothing changed, or refused: the stored statistics stay as they were.
  const text = storage.getItem(stats.STORAGE_KEY);
  await stats.noteFinishedDeal(
    { ...view, match: { match_number: 1, deal_number: 8 } },
    { level: 3, mode: "computer" },
    ask,
    storage,
  );
  await stats.noteFinishedDeal(
    { ...view, match: { match_number: 1, deal_number: 9 } },
    { level: 3, mode: "computer" },
    ask,
    storage,
  );
  assert.equal(storage.getItem(stats.STORAGE_KEY), text);
});
