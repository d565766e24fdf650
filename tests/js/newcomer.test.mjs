// web/platform/newcomer.js under Node: who is a newcomer (localStorage in memory).

import assert from "node:assert/strict";
import { test } from "node:test";

import { MemoryStorage } from "./helpers.mjs";

const { isNewcomer, NEWCOMER_MATCHES, TUTORIAL_KEY, tutorialFinished } = await import("../../web/platform/newcomer.js");

test("a newcomer until the tutorial is finished", () => {
  const storage = new MemoryStorage();
  assert.ok(isNewcomer(storage));
  storage.setItem(TUTORIAL_KEY, JSON.stringify({ offered: 1 }));
  assert.ok(isNewcomer(storage), "offered is not finished");
  storage.setItem(TUTORIAL_KEY, "offered"); // an older mark: a bare word
  assert.ok(!tutorialFinished(storage) && isNewcomer(storage));
  storage.setItem(TUTORIAL_KEY, JSON.stringify({ finished: 2 }));
  assert.ok(tutorialFinished(storage) && !isNewcomer(storage));
});

test(`a newcomer until ${NEWCOMER_MATCHES} matches are played`, () => {
  const bucket = (won, lost) => ({
    preset: "AT20",
    custom: false,
    level: 3,
    deals: { won, lost, none: 0 },
    matches: { won, lost },
    points: { won: 0, lost: 0 },
    basis: {},
    closes: { made: 0, won: 0 },
    marriages: { count: 0, points: 0 },
  });
  const stats = (won, lost) =>
    JSON.stringify({
      schema: 2,
      since: 0,
      rating: 1200,
      rated: 0,
      history: [],
      buckets: { "AT20|3": bucket(won, lost) },
      current: null,
    });
  const storage = new MemoryStorage({ "sixty-six.stats": stats(1, NEWCOMER_MATCHES - 2) });
  assert.ok(isNewcomer(storage));
  storage.setItem("sixty-six.stats", stats(1, NEWCOMER_MATCHES - 1));
  assert.ok(!isNewcomer(storage));
});
