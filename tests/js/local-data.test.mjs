// web/platform/local-data.js under Node: export, import (checked completely before
// anything is written) and reset of the page's own localStorage entries.

import assert from "node:assert/strict";
import { test } from "node:test";

import { MemoryStorage } from "./helpers.mjs";

const data = await import("../../web/platform/local-data.js");
const stats = await import("../../web/platform/stats.js");

const NOW = new Date("2024-05-06T07:08:09Z");

function page() {
  return new MemoryStorage({
    "sixty-six.settings.v1": JSON.stringify({ level: 3 }),
    "sixty-six.sound.v1": "off",
    "sixty-six.stats": JSON.stringify(stats.emptyStats(10)),
    "someone-else": "keep",
  });
}

test("the export holds our entries only, as JSON where they are JSON", () => {
  const file = data.collect(page(), NOW);
  assert.deepEqual(Object.keys(file), ["format", "version", "exported", "data"]);
  assert.equal(file.format, "sixty-six/local-data");
  assert.equal(file.version, 1);
  assert.equal(file.exported, "2024-05-06T07:08:09.000Z");
  assert.deepEqual(Object.keys(file.data), ["sixty-six.settings.v1", "sixty-six.sound.v1", "sixty-six.stats"]);
  assert.deepEqual(file.data["sixty-six.settings.v1"], { level: 3 });
  assert.equal(file.data["sixty-six.sound.v1"], "off");
  assert.equal(data.exportName(NOW), "sixty-six-data-2024-05-06.json");
});

test("an export imports back to the same entries", () => {
  const storage = page();
  const entries = data.parseImport(JSON.stringify(data.collect(storage, NOW)));
  assert.deepEqual(entries, {
    "sixty-six.settings.v1": '{"level":3}',
    "sixty-six.sound.v1": "off",
    "sixty-six.stats": JSON.stringify(stats.emptyStats(10)),
  });
  const other = new MemoryStorage({ "sixty-six.old": "x", "someone-else": "keep" });
  data.applyImport(entries, other);
  assert.equal(other.getItem("sixty-six.old"), null);
  assert.equal(other.getItem("someone-else"), "keep");
  assert.equal(other.getItem("sixty-six.sound.v1"), "off");
  assert.equal(other.length, 4);
});

test("imported statistics of schema 1 are migrated", () => {
  const old = {
    schema: 1,
    presets: { HU24: { dealsWon: 2, dealsLost: 1, matchesWon: 0, matchesLost: 0, pointsWon: 3, pointsLost: 1 } },
  };
  const text = JSON.stringify({ format: data.FORMAT, version: 1, data: { "sixty-six.stats": old } });
  const saved = JSON.parse(data.parseImport(text)["sixty-six.stats"]);
  assert.equal(saved.schema, 2);
  assert.deepEqual(saved.buckets["HU24|0"].deals, { won: 2, lost: 1, none: 0 });
});

test("a file that is not ours, or is damaged, is refused with its reason", () => {
  const wrapped = (content) => JSON.stringify({ format: data.FORMAT, version: 1, data: content });
  const cases = [
    [42, "data.error.tooLarge"],
    ["x".repeat(data.MAX_IMPORT + 1), "data.error.tooLarge"],
    ["{oops", "data.error.json"],
    ["[]", "data.error.format"],
    [JSON.stringify({ format: "other", version: 1, data: {} }), "data.error.format"],
    [JSON.stringify({ format: data.FORMAT, version: 2, data: {} }), "data.error.version"],
    [JSON.stringify({ format: data.FORMAT, version: 1 }), "data.error.format"],
    [wrapped({ "other.key": "x" }), "data.error.format"],
    [wrapped({ "sixty-six.a": null }), "data.error.format"],
    [wrapped({ "sixty-six.stats": { schema: 9 } }), "data.error.stats"],
  ];
  for (const [text, key] of cases) {
    assert.throws(
      () => data.parseImport(text),
      (error) => error instanceof data.DataError && error.key === key,
      String(text).slice(0, 40),
    );
  }
});

test("a failed write puts back what was there", () => {
  const storage = page();
  const before = data.collect(storage, NOW);
  let writes = 0;
  const setItem = storage.setItem.bind(storage);
  storage.setItem = (key, value) => {
    writes += 1;
    if (writes === 2) throw new Error("QuotaExceededError");
    setItem(key, value);
  };
  assert.throws(
    () => data.applyImport({ "sixty-six.a": "1", "sixty-six.b": "2" }, storage),
    (error) => error instanceof data.DataError && error.key === "data.error.storage",
  );
  assert.deepEqual(data.collect(storage, NOW), before);
});

test("reset forgets our entries only", () => {
  const storage = page();
  data.resetAll(storage);
  assert.equal(storage.length, 1);
  assert.equal(storage.getItem("someone-else"), "keep");
});
