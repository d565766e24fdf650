// web/platform/damage.js under Node: a stored entry read through its loader's
// cleaning; refused fields and text that is not JSON are damage (a copy kept,
// the page told once, the cleaned value stored back); missing fields are not.

import assert from "node:assert/strict";
import { test } from "node:test";

import { MemoryStorage } from "./helpers.mjs";

const { loadEntry, onDamage, damagedCopyKey, keepDamagedCopy, SAVED_GAME_KEY } = await import(
  "../../web/platform/damage.js"
);
const { collect } = await import("../../web/platform/local-data.js");

const KEY = "sixty-six.example.v1";
const DEFAULTS = { level: 3, deck: null };
/** Keeps a level of 1-5 and a deck that is a string (as the settings' loader does). */
function clean(data) {
  const out = { ...DEFAULTS };
  if (data && typeof data === "object") {
    if ([1, 2, 3, 4, 5].includes(data.level)) out.level = data.level;
    if (typeof data.deck === "string") out.deck = data.deck;
  }
  return out;
}

function reporting() {
  const reports = [];
  onDamage((damage) => reports.push(damage));
  return reports;
}

test("nothing stored, a good entry, an entry of an older version: no damage", () => {
  const reports = reporting();
  const storage = new MemoryStorage();
  assert.deepEqual(loadEntry(KEY, clean, storage), DEFAULTS);
  storage.setItem(KEY, JSON.stringify({ level: 5, deck: "tell" }));
  assert.deepEqual(loadEntry(KEY, clean, storage), { level: 5, deck: "tell" });
  storage.setItem(KEY, JSON.stringify({ level: 2 })); // written before "deck" existed
  assert.deepEqual(loadEntry(KEY, clean, storage), { level: 2, deck: null });
  storage.setItem(KEY, JSON.stringify({ level: 2, later: "a newer version's field" }));
  assert.deepEqual(loadEntry(KEY, clean, storage), { level: 2, deck: null });
  assert.deepEqual(reports, []);
  assert.equal(storage.getItem(damagedCopyKey(KEY)), null);
});

test("a refused field: the rest is kept, a copy of the text, told once", () => {
  const reports = reporting();
  const text = JSON.stringify({ level: 9, deck: "tell" });
  const storage = new MemoryStorage({ [KEY]: text });
  assert.deepEqual(loadEntry(KEY, clean, storage), { level: 3, deck: "tell" });
  assert.deepEqual(reports, [{ key: KEY, repaired: true }]);
  assert.equal(storage.getItem("sixty-six.damaged.example.v1"), text);
  assert.deepEqual(loadEntry(KEY, clean, storage), { level: 3, deck: "tell" }); // stored back
  assert.equal(reports.length, 1);
});

test("text that is not JSON, or not an object: defaults, and the first copy is the one kept", () => {
  const reports = reporting();
  const storage = new MemoryStorage({ [KEY]: "{cut sh" });
  assert.deepEqual(loadEntry(KEY, clean, storage), DEFAULTS);
  storage.setItem(KEY, "[1, 2]");
  assert.deepEqual(loadEntry(KEY, clean, storage), DEFAULTS);
  assert.deepEqual(reports, [
    { key: KEY, repaired: false },
    { key: KEY, repaired: false },
  ]);
  assert.equal(storage.getItem(damagedCopyKey(KEY)), "{cut sh");
});

test("damage found before the page listens is told when it does", () => {
  onDamage(() => {}); // (another test's listener goes)
  const storage = new MemoryStorage({ [KEY]: "nonsense" });
  const early = [];
  // No listener: the report waits.
  onDamage(null);
  loadEntry(KEY, clean, storage);
  onDamage((damage) => early.push(damage));
  assert.deepEqual(early, [{ key: KEY, repaired: false }]);
});

test("a damaged saved game (the worker's) is kept as a copy that goes with the data export", () => {
  const storage = new MemoryStorage();
  keepDamagedCopy(SAVED_GAME_KEY, '{"record": "first"}', storage);
  keepDamagedCopy(SAVED_GAME_KEY, '{"record": "second"}', storage); // the first one found is kept
  assert.deepEqual(collect(storage).data, { "sixty-six.damaged.game": { record: "first" } });
  const full = new MemoryStorage();
  full.setItem = () => {
    throw new Error("QuotaExceededError");
  };
  keepDamagedCopy(SAVED_GAME_KEY, "text", full); // nothing kept, and no error: the page still tells the player
  assert.equal(full.getItem(damagedCopyKey(SAVED_GAME_KEY)), null);
});
