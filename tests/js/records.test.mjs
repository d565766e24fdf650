// web/screens/records.js under Node: opening a record file (size limit, JSON, the
// worker's refusal, a record without a finished deal) against a stand-in for
// the engine client, and the buttons added to the end-of-deal panel.

import assert from "node:assert/strict";
import { before, test } from "node:test";

import { FakeElement, installDocument, installFileFetch, translations } from "./helpers.mjs";

installDocument();
installFileFetch();
// The browser's FileReader, as much of it as records.js uses.
globalThis.FileReader = class {
  readAsText(blob) {
    blob.text().then(
      (text) => {
        this.result = text;
        this.onload();
      },
      (error) => {
        this.error = error;
        this.onerror();
      },
    );
  }
};
const i18n = await import("../../web/platform/i18n.js");
const records = await import("../../web/screens/records.js");
const en = await translations("en");

before(async () => {
  await i18n.setLanguage("en");
});

/** A client whose request() answers with ``answer(request)`` (or throws what it throws), recording the requests. */
function client(answer) {
  const requests = [];
  return {
    requests,
    request: async (request) => {
      requests.push(request);
      return answer(request);
    },
  };
}

const file = (text) => new Blob([text], { type: "application/json" });

test("a file larger than a record can be is refused unread", async () => {
  const worker = client(() => assert.fail("the worker must not be asked"));
  const huge = { size: records.MAX_RECORD_BYTES + 1, text: () => assert.fail("must not be read") };
  assert.deepEqual(await records.importRecord(worker, huge), { error: en["modes.import.tooBig"], reason: "tooBig" });
  assert.deepEqual(worker.requests, []);
});

test("a file that is not a JSON object is not a record", async () => {
  const worker = client(() => assert.fail("the worker must not be asked"));
  for (const [text, reason] of [
    ["{not json", "notJson"],
    ["[1, 2]", "not_record"],
    ["null", "not_record"],
    ['"a record"', "not_record"],
  ]) {
    const refused = await records.importRecord(worker, file(text));
    assert.deepEqual(refused, { error: en["modes.import.error.not_record"], reason }, text);
  }
  assert.deepEqual(worker.requests, []);
});

test("the worker's refusal is said in the page's words, its own words kept as the detail", async () => {
  const refuse = (code, detail) =>
    client(() => {
      throw Object.assign(new Error("deal 2, action 4 (seat 0 'play:JD') does not replay"), { code, detail });
    });
  const bad = await records.importRecord(
    refuse("bad_record", { reason: "no_replay", values: { deal: 2, action: 4 } }),
    file('{"v": 1}'),
  );
  assert.deepEqual(bad, {
    error: "Deal 2 of this record does not follow the rules, so the record cannot be replayed.",
    reason: "no_replay",
    detail: "deal 2, action 4 (seat 0 'play:JD') does not replay",
  });
  for (const reason of records.RECORD_ERRORS) {
    const refused = await records.importRecord(refuse("bad_record", { reason, values: {} }), file("{}"));
    assert.equal(refused.reason, reason);
    assert.equal(refused.error, en[`modes.import.error.${reason}`].replace("{deal}", "?"));
  }
  // Another failure (or a reason this page does not know): a plain sentence, the engine's words beneath.
  for (const answer of [refuse("internal_error", null), refuse("bad_record", { reason: "newer", values: {} })]) {
    assert.deepEqual(await records.importRecord(answer, file('{"v": 1}')), {
      error: en["modes.import.failed"],
      reason: "failed",
      detail: "deal 2, action 4 (seat 0 'play:JD') does not replay",
    });
  }
});

test("a record without a finished deal is closed again and refused", async () => {
  const worker = client((request) =>
    request.cmd === "table_import" ? { table: "t1", deals: [{ finished: false }] } : { ok: true },
  );
  const answer = await records.importRecord(worker, file('{"v": 1, "deals": []}'));
  assert.deepEqual(answer, { error: en["modes.import.noFinished"], reason: "noFinished" });
  assert.deepEqual(worker.requests, [
    { cmd: "table_import", record: { v: 1, deals: [] } },
    { cmd: "table_close", table: "t1" },
  ]);
});

test("a good record is handed to the review: its table, seating and deals", async () => {
  const deals = [{ finished: true }, { finished: false }];
  const worker = client(() => ({ table: "t1", seating: { mode: "hotseat" }, deals }));
  assert.deepEqual(await records.importRecord(worker, file('{"v": 1}')), {
    game: "t1",
    meta: { mode: "hotseat" },
    deals,
  });
  assert.deepEqual(worker.requests, [{ cmd: "table_import", record: { v: 1 } }]);
});

test("the end-of-deal panel gets Score sheet, Review and Save record once, while a result shows", () => {
  const row = new FakeElement("div");
  row.querySelector = (selector) =>
    selector === "[data-control]" && row.children.some((c) => c.dataset.control) ? row.children[0] : null;
  const result = { querySelector: (selector) => (selector === ".result-buttons" ? row : null) };

  records.resultButtons(result, { shown: false });
  assert.equal(row.children.length, 0);
  records.resultButtons(result, { shown: true });
  assert.deepEqual(
    row.children.map((b) => [b.tagName, b.type, b.className, b.dataset.control, b.textContent]),
    [
      ["button", "button", "btn", "sheet", en["sheet.title"]],
      ["button", "button", "btn", "review", en["modes.review.open"]],
      ["button", "button", "btn", "export", en["modes.export.button"]],
    ],
  );
  records.resultButtons(result, { shown: true });
  assert.equal(row.children.length, 3);
  records.resultButtons({ querySelector: () => null }, { shown: true }); // no panel: nothing to do
});
