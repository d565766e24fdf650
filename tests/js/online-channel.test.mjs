// web/online/channel.js under Node, over a stand-in transport: messages in
// order, waiting for a handler, the report of an end, and what cannot be sent.

import assert from "node:assert/strict";
import { test } from "node:test";

const { Channel, MAX_MESSAGE_BYTES } = await import("../../web/online/channel.js");
const { OnlineError } = await import("../../web/online/errors.js");

/** Two channels joined by a pair of in-memory links; delivery is asynchronous, in order. */
function pair({ maxMessageBytes = 262_144 } = {}) {
  const wire = { a: [], b: [], closed: [] };
  /** @type {Channel} */
  let a;
  /** @type {Channel} */
  let b;
  const link = (from, to) => ({
    maxMessageBytes,
    send(text) {
      wire[from].push(text);
      queueMicrotask(() => to().deliver(text));
    },
    close(saidGoodbye = false) {
      wire.closed.push(`${from}${saidGoodbye ? " after its goodbye" : ""}`);
      queueMicrotask(() => to().lost("connection_lost", "link closed"));
    },
  });
  a = new Channel(
    link("a", () => b),
    { via: "link", role: "host", connectMs: 5 },
  );
  b = new Channel(
    link("b", () => a),
    { via: "link", role: "guest", connectMs: 7 },
  );
  return { a, b, wire };
}

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

test("messages arrive in order, once each, both ways", async () => {
  const { a, b } = pair();
  const atA = [];
  const atB = [];
  a.onmessage = (m) => atA.push(m);
  b.onmessage = (m) => atB.push(m);
  for (let i = 0; i < 200; i++) {
    a.send({ i, text: "é☃", list: [i, null, true] });
    b.send(i);
  }
  await settle();
  assert.deepEqual(
    atB.map((m) => m.i),
    Array.from({ length: 200 }, (_, i) => i),
  );
  assert.deepEqual(atB[7], { i: 7, text: "é☃", list: [7, null, true] });
  assert.deepEqual(
    atA,
    Array.from({ length: 200 }, (_, i) => i),
  );
  assert.deepEqual(a.counts, { sent: 200, received: 200 });
  assert.equal(a.info.via, "link");
  assert.equal(b.info.role, "guest");
});

test("messages that arrive before there is a handler wait for it, in order", async () => {
  const { a, b } = pair();
  a.send("first");
  a.send("second");
  await settle();
  const got = [];
  b.onmessage = (m) => got.push(m);
  a.send("third"); // arrives while the waiting ones are being handed over
  await settle();
  assert.deepEqual(got, ["first", "second", "third"]);
});

test("a handler that throws does not lose the messages after it", async () => {
  const { a, b } = pair();
  const got = [];
  const reported = [];
  const original = globalThis.reportError;
  globalThis.reportError = (error) => reported.push(error);
  try {
    b.onmessage = (m) => {
      got.push(m);
      if (m === 1) throw new Error("handler bug");
    };
    a.send(1);
    a.send(2);
    await settle();
  } finally {
    globalThis.reportError = original;
  }
  assert.deepEqual(got, [1, 2]);
  assert.equal(reported.length, 1);
  assert.ok(b.isOpen);
});

test("closing is reported to both sides once: 'closed' here, 'peer_closed' there", async () => {
  const { a, b, wire } = pair();
  const endsA = [];
  const endsB = [];
  a.onclose = (reason) => endsA.push(reason.code);
  b.onclose = (reason) => endsB.push(reason.code);
  a.send("last words");
  const got = [];
  b.onmessage = (m) => got.push(m);
  a.close();
  a.close();
  assert.equal(a.isOpen, false);
  assert.equal((await b.closed).code, "peer_closed");
  await settle();
  assert.deepEqual(got, ["last words"]);
  assert.deepEqual(endsA, ["closed"]);
  assert.deepEqual(endsB, ["peer_closed"]);
  assert.equal(wire.a.at(-1), '{"bye":1}');
  // The side that said goodbye tells its link so (a room then waits for the other to leave first).
  assert.deepEqual(wire.closed, ["a after its goodbye", "b"]);
  // A handler set after the end still hears of it.
  const late = await new Promise((resolve) => {
    b.onclose = (reason) => resolve(reason.code);
  });
  assert.equal(late, "peer_closed");
  assert.throws(
    () => a.send("more"),
    (e) => e instanceof OnlineError && e.code === "channel_closed",
  );
});

test("a transport that ends without a goodbye is a lost connection", async () => {
  const { a, b } = pair();
  b.lost("connection_lost", "data channel closed");
  assert.equal(b.reason?.code, "connection_lost");
  assert.match(b.reason?.message ?? "", /lost.*data channel closed/);
  assert.equal((await a.closed).code, "connection_lost");
});

test("a gap, a repeat or a foreign message ends the channel as a protocol error", async () => {
  for (const text of ['{"n":2,"d":"skipped one"}', '{"n":0,"d":"again"}', "not json", '{"x":1}', "7"]) {
    const { b } = pair();
    b.deliver(text);
    assert.equal(b.reason?.code, "protocol_error", text);
  }
  const { a, b } = pair();
  a.send("one");
  await settle();
  b.deliver('{"n":1,"d":"one again"}');
  assert.equal(b.reason?.code, "protocol_error");
});

test("only JSON data of a bounded size can be sent", () => {
  const { a } = pair({ maxMessageBytes: 1_000 });
  const refused = (value, code) =>
    assert.throws(
      () => a.send(value),
      (e) => e instanceof OnlineError && e.code === code,
    );
  refused(undefined, "not_json");
  refused(() => 1, "not_json");
  refused(10n, "not_json");
  const cyclic = {};
  cyclic.self = cyclic;
  refused(cyclic, "not_json");
  refused("x".repeat(1_000), "message_too_large");
  a.send("x".repeat(900));
  const big = pair();
  assert.throws(
    () => big.a.send("é".repeat(MAX_MESSAGE_BYTES / 2)),
    (e) => e.code === "message_too_large",
  );
  big.a.send("x".repeat(MAX_MESSAGE_BYTES - 100));
  assert.equal(big.a.counts.sent, 1);
});
