// web/online/network-defaults.js under Node: the default relays and STUN
// servers, and the checking and tidying of lists a person edited.

import assert from "node:assert/strict";
import { test } from "node:test";

const net = await import("../../web/online/network-defaults.js");

test("the defaults are public, secure and valid by the module's own rules", () => {
  const { settings, problems } = net.normalizeNetworkSettings(net.defaultNetworkSettings());
  assert.deepEqual(problems, []);
  assert.deepEqual(settings, net.defaultNetworkSettings());
  assert.ok(settings.relays.length >= 3 && settings.relays.every((url) => url.startsWith("wss://")));
  assert.ok(settings.stun.length >= 2 && settings.stun.every((url) => url.startsWith("stun:")));
  assert.deepEqual(settings.turn, []);
  // A copy each time: editing one does not change the defaults.
  net.defaultNetworkSettings().relays.push("wss://changed.example");
  assert.ok(!net.defaultNetworkSettings().relays.includes("wss://changed.example"));
  assert.ok(Object.isFrozen(net.DEFAULT_RELAYS) && Object.isFrozen(net.DEFAULT_STUN));
});

test("relay addresses are tidied, and refused with a reason", () => {
  const tidy = (text) => net.normalizeRelayUrl(text);
  assert.deepEqual(tidy("relay.example.org"), { url: "wss://relay.example.org" });
  assert.deepEqual(tidy("  WSS://Relay.Example.ORG/  "), { url: "wss://relay.example.org" });
  assert.deepEqual(tidy("wss://relay.example.org:4443/nostr?x=1"), { url: "wss://relay.example.org:4443/nostr?x=1" });
  assert.deepEqual(tidy("ws://127.0.0.1:7447"), { url: "ws://127.0.0.1:7447" });
  assert.deepEqual(tidy("ws://localhost:7447/"), { url: "ws://localhost:7447" });
  assert.deepEqual(tidy("ws://relay.example.org"), { code: "insecure" });
  assert.deepEqual(tidy("https://relay.example.org"), { code: "wrong_scheme" });
  assert.deepEqual(tidy("wss://user:pw@relay.example.org"), { code: "not_a_url" });
  assert.deepEqual(tidy("wss://"), { code: "not_a_url" });
  assert.deepEqual(tidy(""), { code: "not_a_url" });
  assert.deepEqual(tidy("wss://a b"), { code: "not_a_url" });
});

test("STUN and TURN addresses are tidied, and refused with a reason", () => {
  assert.deepEqual(net.normalizeStunUrl("stun.example.org:3478"), { url: "stun:stun.example.org:3478" });
  assert.deepEqual(net.normalizeStunUrl("STUN:Stun.Example.org"), { url: "stun:stun.example.org" });
  assert.deepEqual(net.normalizeStunUrl("stuns:[2001:db8::1]:5349"), { url: "stuns:[2001:db8::1]:5349" });
  assert.deepEqual(net.normalizeStunUrl("turn:turn.example.org"), { code: "wrong_scheme" });
  assert.deepEqual(net.normalizeStunUrl("https://stun.example.org"), { code: "wrong_scheme" });
  assert.deepEqual(net.normalizeStunUrl("stun:stun.example.org:99999"), { code: "not_a_url" });
  assert.deepEqual(net.normalizeStunUrl("stun:stun.example.org?transport=udp"), { code: "not_a_url" });
  assert.deepEqual(net.normalizeStunUrl("stun:bad_host"), { code: "not_a_url" });
  assert.deepEqual(net.normalizeTurnUrl("turn.example.org:3478?transport=tcp"), {
    url: "turn:turn.example.org:3478?transport=tcp",
  });
  assert.deepEqual(net.normalizeTurnUrl("turns:turn.example.org:443"), { url: "turns:turn.example.org:443" });
  assert.deepEqual(net.normalizeTurnUrl("turn:turn.example.org?transport=sctp"), { code: "not_a_url" });
  assert.deepEqual(net.normalizeTurnUrl("stun:turn.example.org"), { code: "wrong_scheme" });
});

test("an edited list keeps what can be used and names what cannot", () => {
  const { settings, problems } = net.normalizeNetworkSettings({
    relays: "wss://one.example\nrelay.two.example, ws://evil.example\nwss://one.example/\nftp://x",
    stun: ["stun:stun.example.org:3478", "nonsense here", "stun:stun.example.org:3478"],
    turn: [
      { url: "turn:turn.example.org:3478", username: " ann ", credential: "s3cret" },
      { url: "turn:turn.example.org:3478", username: "", credential: "x" },
      { url: "turn:other.example.org", username: "bob", credential: "" },
      { url: "http://turn.example.org", username: "bob", credential: "x" },
      "not an object",
    ],
  });
  assert.deepEqual(settings, {
    relays: ["wss://one.example", "wss://relay.two.example"],
    stun: ["stun:stun.example.org:3478"],
    turn: [{ url: "turn:turn.example.org:3478", username: "ann", credential: "s3cret" }],
  });
  const said = problems.map((p) => `${p.field}[${p.index}] ${p.code}`);
  assert.deepEqual(said, [
    "relays[2] insecure",
    "relays[3] duplicate",
    "relays[4] wrong_scheme",
    "stun[1] not_a_url",
    "stun[2] duplicate",
    "turn[1] missing_username",
    "turn[2] missing_credential",
    "turn[3] wrong_scheme",
    "turn[4] not_a_url",
  ]);
  assert.equal(problems[0]?.input, "ws://evil.example");
});

test("no relay left means the defaults; no STUN is allowed (a local network); too many are cut", () => {
  const empty = net.normalizeNetworkSettings({ relays: [], stun: [], turn: [] });
  assert.deepEqual(empty.settings, { relays: [...net.DEFAULT_RELAYS], stun: [], turn: [] });
  assert.deepEqual(
    empty.problems.map((p) => p.code),
    ["empty"],
  );
  const many = Array.from({ length: net.MAX_RELAYS + 2 }, (_, i) => `wss://r${i}.example`);
  const cut = net.normalizeNetworkSettings({ relays: many });
  assert.equal(cut.settings.relays.length, net.MAX_RELAYS);
  assert.deepEqual(
    cut.problems.map((p) => p.code),
    ["too_many", "too_many"],
  );
  // Missing lists (an older stored version) get their defaults; junk is not a crash.
  assert.deepEqual(net.normalizeNetworkSettings(null).settings, net.defaultNetworkSettings());
  assert.deepEqual(net.normalizeNetworkSettings({ relays: 42 }).settings.relays, [...net.DEFAULT_RELAYS]);
});

test("the ICE servers for RTCPeerConnection: STUN together, each TURN with its credentials", () => {
  const servers = net.iceServersOf({
    relays: [],
    stun: ["stun:a.example", "stun:b.example:3478"],
    turn: [{ url: "turns:t.example:443", username: "ann", credential: "pw" }],
  });
  assert.deepEqual(servers, [
    { urls: ["stun:a.example", "stun:b.example:3478"] },
    { urls: "turns:t.example:443", username: "ann", credential: "pw" },
  ]);
  assert.deepEqual(net.iceServersOf({ relays: [], stun: [], turn: [] }), []);
  assert.equal(net.splitList(" a\n\nb, c ;d ").join("|"), "a|b|c|d");
});

test("the stored settings are read back checked, and the defaults stand in for none or junk", () => {
  const storage = (text) => ({ getItem: (key) => (key === net.NETWORK_KEY ? text : null) });
  assert.deepEqual(net.storedNetworkSettings(storage(null)), net.defaultNetworkSettings());
  assert.deepEqual(net.storedNetworkSettings(storage("{not json")), net.defaultNetworkSettings());
  const saved = { relays: ["wss://relay.example"], stun: [], turn: [] };
  assert.deepEqual(net.storedNetworkSettings(storage(JSON.stringify(saved))), saved);
  assert.deepEqual(net.iceServersOf(net.storedNetworkSettings(storage(JSON.stringify(saved)))), []);
});
