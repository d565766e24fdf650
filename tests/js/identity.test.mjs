// web/platform/identity.js and web/online/handshake.js under Node (WebCrypto is
// Node's own): the key pair kept in storage and made anew when storage damaged
// it, the proof of an identity (a signature) and its check, the list of
// blocked players whatever storage holds, and the handshake two channels go
// through before the game: both proofs hold, or the connection is refused.

import assert from "node:assert/strict";
import { test } from "node:test";

import { MemoryStorage } from "./helpers.mjs";

const { block, blockedList, isBlocked, myIdentity, signProof, unblock, verifyProof } = await import(
  "../../web/platform/identity.js"
);
const { Channel, fingerprintsOf } = await import("../../web/online/channel.js");
const { challengeText, proveIdentities } = await import("../../web/online/handshake.js");
const { OnlineError } = await import("../../web/online/errors.js");

const IDENTITY_KEY = "sixty-six.identity.v1";
const BLOCKED_KEY = "sixty-six.blocked.v1";

/** A storage that refuses to be read or written (storage disabled, or a quota reached). */
class BrokenStorage extends MemoryStorage {
  constructor({ read = true, write = true } = {}) {
    super();
    this.read = read;
    this.write = write;
  }

  getItem(key) {
    if (this.read) throw new DOMException("denied", "SecurityError");
    return super.getItem(key);
  }

  setItem(key, value) {
    if (this.write) throw new DOMException("full", "QuotaExceededError");
    super.setItem(key, value);
  }
}

// ---------------------------------------------------------------- the key pair

test("an identity is made once, kept in storage and the same after a reload", async () => {
  const storage = new MemoryStorage();
  const identity = await myIdentity(storage);
  assert.match(identity, /^[A-Za-z0-9_-]{87}$/);
  assert.equal(await myIdentity(storage), identity);
  const stored = JSON.parse(storage.getItem(IDENTITY_KEY));
  assert.equal(stored.public, identity);
  assert.equal(stored.private.kty, "EC");
  // A reload: a new page reads the same storage and proves the same identity.
  const reloaded = new MemoryStorage({ [IDENTITY_KEY]: storage.getItem(IDENTITY_KEY) });
  assert.equal(await myIdentity(reloaded), identity);
  assert.ok(await verifyProof(identity, "a challenge", await signProof("a challenge", reloaded)));
  // Another browser has another identity.
  assert.notEqual(await myIdentity(new MemoryStorage()), identity);
});

test("a damaged key pair in storage is replaced by a new one that proves itself", async () => {
  const other = new MemoryStorage();
  await myIdentity(other);
  const whole = JSON.parse(other.getItem(IDENTITY_KEY));
  const foreign = await myIdentity(new MemoryStorage());
  const damaged = [
    "not json {",
    "null",
    "[]",
    JSON.stringify({ public: whole.public }), // no private key
    JSON.stringify({ public: foreign, private: whole.private }), // the halves belong to two pairs
    JSON.stringify({ public: whole.public, private: { ...whole.private, d: "AAAA" } }), // a private key that does not load
    JSON.stringify({ public: whole.public, private: { ...whole.private, crv: "P-384" } }),
    JSON.stringify({ public: whole.public, private: { ...whole.private, x: "short" } }),
  ];
  for (const text of damaged) {
    const storage = new MemoryStorage({ [IDENTITY_KEY]: text });
    const identity = await myIdentity(storage);
    assert.notEqual(identity, foreign, text);
    assert.ok(await verifyProof(identity, "c", await signProof("c", storage)), text);
    assert.equal(JSON.parse(storage.getItem(IDENTITY_KEY)).public, identity, text);
  }
});

test("with storage disabled the identity lasts this visit and still proves itself", async () => {
  const storage = new BrokenStorage();
  const identity = await myIdentity(storage);
  assert.equal(await myIdentity(storage), identity);
  assert.ok(await verifyProof(identity, "c", await signProof("c", storage)));
});

// ---------------------------------------------------------------- proofs

test("a proof holds for its identity and its challenge only", async () => {
  const anna = new MemoryStorage();
  const bela = new MemoryStorage();
  const annaId = await myIdentity(anna);
  const belaId = await myIdentity(bela);
  const signature = await signProof("challenge 1", anna);
  assert.match(signature, /^[A-Za-z0-9_-]{86}$/); // r and s, 64 bytes
  assert.equal(await verifyProof(annaId, "challenge 1", signature), true);
  // Another challenge, another identity, a changed or foreign signature: false.
  assert.equal(await verifyProof(annaId, "challenge 2", signature), false);
  assert.equal(await verifyProof(belaId, "challenge 1", signature), false);
  assert.equal(await verifyProof(annaId, "challenge 1", await signProof("challenge 1", bela)), false);
  const changed = signature.slice(0, 20) + (signature[20] === "A" ? "B" : "A") + signature.slice(21);
  assert.equal(await verifyProof(annaId, "challenge 1", changed), false);
  // Text that is no identity or no signature: false, never an exception.
  for (const identity of ["", "A".repeat(87), `${annaId.slice(0, -1)}!`, annaId.slice(1), 42, null]) {
    assert.equal(await verifyProof(/** @type {any} */ (identity), "challenge 1", signature), false, String(identity));
  }
  for (const bad of ["", "x", signature.slice(1), `${signature}AA`, "!".repeat(86), null, 7]) {
    assert.equal(await verifyProof(annaId, "challenge 1", /** @type {any} */ (bad)), false, String(bad));
  }
});

// ---------------------------------------------------------------- the block list

test("block, unblock and isBlocked keep one entry per identity", () => {
  const storage = new MemoryStorage();
  assert.deepEqual(blockedList(storage), []);
  assert.equal(isBlocked("anna", storage), false);
  block("anna", "Anna", storage);
  block("anna", "Anna again", storage);
  block("bela", "B".repeat(40), storage);
  block("", "nobody", storage);
  assert.deepEqual(
    blockedList(storage).map((b) => [b.identity, b.name]),
    [
      ["anna", "Anna"],
      ["bela", "B".repeat(24)],
    ],
  );
  assert.ok(blockedList(storage).every((b) => typeof b.at === "number" && b.at > 0));
  assert.equal(isBlocked("anna", storage), true);
  assert.equal(isBlocked("", storage), false);
  unblock("anna", storage);
  assert.equal(isBlocked("anna", storage), false);
  assert.equal(isBlocked("bela", storage), true);
  unblock("nobody", storage);
  assert.equal(blockedList(storage).length, 1);
});

test("the block list keeps the last 200", () => {
  const storage = new MemoryStorage();
  for (let i = 0; i < 205; i++) block(`id${i}`, `n${i}`, storage);
  const list = blockedList(storage);
  assert.equal(list.length, 200);
  assert.equal(list[0].identity, "id5");
  assert.equal(isBlocked("id4", storage), false);
  assert.equal(isBlocked("id204", storage), true);
});

test("a damaged block list gives what is left of it, and blocking goes on", () => {
  for (const text of ["not json", "{}", '"anna"', "null", "42"]) {
    const storage = new MemoryStorage({ [BLOCKED_KEY]: text });
    assert.deepEqual(blockedList(storage), [], text);
    assert.equal(isBlocked("anna", storage), false, text);
    block("anna", "Anna", storage);
    assert.equal(isBlocked("anna", storage), true, text);
  }
  const entries = [
    null,
    7,
    "anna",
    { name: "no identity" },
    { identity: "", name: "empty" },
    { identity: 12, name: "a number" },
    { identity: "anna", name: { html: "<b>" }, at: "yesterday" },
    { identity: "anna", name: "Anna twice" },
    { identity: "bela", name: "Béla", at: 5 },
  ];
  const storage = new MemoryStorage({ [BLOCKED_KEY]: JSON.stringify(entries) });
  assert.deepEqual(blockedList(storage), [
    { identity: "anna", name: "", at: 0 },
    { identity: "bela", name: "Béla", at: 5 },
  ]);
  unblock("anna", storage);
  assert.deepEqual(JSON.parse(storage.getItem(BLOCKED_KEY)), [{ identity: "bela", name: "Béla", at: 5 }]);
});

test("storage that cannot be read or written blocks nobody and throws nothing", () => {
  const unreadable = new BrokenStorage({ read: true, write: false });
  assert.deepEqual(blockedList(unreadable), []);
  assert.equal(isBlocked("anna", unreadable), false);
  const unwritable = new BrokenStorage({ read: false, write: true });
  block("anna", "Anna", unwritable);
  unblock("anna", unwritable);
  assert.equal(isBlocked("anna", unwritable), false);
});

// ---------------------------------------------------------------- the handshake

/**
 * Two channels joined by in-memory links (asynchronous, in order); ``wire`` records every text. ``fingerprints``:
 * the certificates each side's connection states (the host's, the guest's).
 */
function pair(fingerprints = null) {
  const wire = { host: [], guest: [] };
  let host;
  let guest;
  const link = (from, to) => ({
    maxMessageBytes: 65_536,
    send(text) {
      wire[from].push(text);
      queueMicrotask(() => to().deliver(text));
    },
    close() {
      queueMicrotask(() => to().lost("connection_lost", "link closed"));
    },
  });
  host = new Channel(
    link("host", () => guest),
    { via: "link", role: "host", connectMs: 1, ...(fingerprints && { fingerprints: fingerprints.host }) },
  );
  guest = new Channel(
    link("guest", () => host),
    { via: "link", role: "guest", connectMs: 1, ...(fingerprints && { fingerprints: fingerprints.guest }) },
  );
  return { host, guest, wire };
}

/** What a page gives the handshake: its identity and its own key's signature. */
async function proving(storage, more = {}) {
  return {
    identity: await myIdentity(storage),
    sign: (text) => signProof(text, storage),
    verify: verifyProof,
    ...more,
  };
}

/** The handshake's messages in ``texts`` (the channel's JSON texts). */
const handshakes = (texts) => texts.map((text) => JSON.parse(text).d).filter((d) => d?.hs);

test("both proofs hold: each side has the other's identity, and the game's messages follow in order", async () => {
  const anna = new MemoryStorage();
  const bela = new MemoryStorage();
  const { host, guest, wire } = pair();
  const [atHost, atGuest] = await Promise.all([
    proveIdentities(host, await proving(anna)),
    proveIdentities(guest, await proving(bela)),
  ]);
  assert.equal(atHost, await myIdentity(bela));
  assert.equal(atGuest, await myIdentity(anna));
  assert.deepEqual(
    handshakes(wire.host).map((m) => m.hs),
    ["who", "proof", "verdict"],
  );
  // Both nonces are fresh, and the proof is of this connection: the host's signature holds for its challenge.
  const [who, proof] = handshakes(wire.host);
  const guestWho = handshakes(wire.guest)[0];
  assert.notEqual(who.nonce, guestWho.nonce);
  const challenge = challengeText(
    "host",
    { identity: atGuest, nonce: who.nonce, fingerprints: "" },
    { identity: atHost, nonce: guestWho.nonce, fingerprints: "" },
  );
  assert.ok(await verifyProof(atGuest, challenge, proof.signature));
  // The channels are the game's now: its messages arrive in order, none taken by the handshake.
  host.send("room");
  host.send("state");
  const got = [];
  guest.onmessage = (value) => got.push(value);
  await new Promise((resolve) => setTimeout(resolve, 0));
  assert.deepEqual(got, ["room", "state"]);
  assert.ok(host.isOpen && guest.isOpen);
});

test("a page that claims someone else's identity without its key is refused on both sides", async () => {
  const anna = new MemoryStorage();
  const bela = new MemoryStorage();
  const carl = new MemoryStorage();
  const { host, guest } = pair();
  // Béla claims Carl's identity, and can only sign with his own key.
  const claim = await proving(bela, { identity: await myIdentity(carl) });
  const decided = [];
  const [atHost, atGuest] = await Promise.allSettled([
    proveIdentities(host, await proving(anna, { decide: (peer) => decided.push(peer) })),
    proveIdentities(guest, claim),
  ]);
  assert.equal(atHost.status, "rejected");
  assert.ok(atHost.reason instanceof OnlineError && atHost.reason.code === "identity_unproved", atHost.reason);
  assert.deepEqual(decided, []); // the claim was never taken as an identity
  assert.equal(atGuest.status, "rejected");
  assert.equal(atGuest.reason.code, "refused");
  assert.equal(atGuest.reason.detail, "unproved");
  await Promise.all([host.closed, guest.closed]);
});

test("a proof replayed from another connection is refused", async () => {
  const anna = new MemoryStorage();
  const bela = new MemoryStorage();
  const first = pair();
  await Promise.all([
    proveIdentities(first.host, await proving(anna)),
    proveIdentities(first.guest, await proving(bela)),
  ]);
  const [belaWho, belaProof] = handshakes(first.wire.guest);
  // Someone who recorded Béla's messages plays them back to Anna on a new connection.
  const second = pair();
  const result = proveIdentities(second.host, await proving(anna));
  second.guest.send({ hs: "who", v: 1, identity: belaWho.identity, nonce: belaWho.nonce });
  second.guest.send({ hs: "proof", signature: belaProof.signature });
  await assert.rejects(result, (error) => error instanceof OnlineError && error.code === "identity_unproved");
});

test("the fingerprints of a connection: each side's and the other's, as its descriptions state them", () => {
  // Chromium states it in every media section, Firefox once for the session; lines end in CRLF.
  const chromium =
    "v=0\r\nm=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\na=fingerprint:sha-256 ab:CD:01\r\n" +
    "m=audio 9 UDP/TLS/RTP/SAVPF 111\r\na=fingerprint:sha-256 AB:CD:01\r\n";
  const firefox = "v=0\r\na=fingerprint:SHA-256 12:34\r\na=fingerprint:sha-1 99:88\r\nm=application 9\r\n";
  assert.deepEqual(fingerprintsOf({ localDescription: { sdp: chromium }, remoteDescription: { sdp: firefox } }), {
    local: "sha-256 AB:CD:01",
    remote: "sha-1 99:88,sha-256 12:34",
  });
  assert.deepEqual(fingerprintsOf({ localDescription: null, remoteDescription: null }), { local: "", remote: "" });
});

test("the proofs name the connection's certificates: a page relaying between two connections is refused", async () => {
  const anna = new MemoryStorage();
  const bela = new MemoryStorage();
  // One connection: each side sees its own certificate and the other's.
  const direct = pair({ host: { local: "A", remote: "B" }, guest: { local: "B", remote: "A" } });
  const met = await Promise.all([
    proveIdentities(direct.host, await proving(anna)),
    proveIdentities(direct.guest, await proving(bela)),
  ]);
  assert.deepEqual(met, [await myIdentity(bela), await myIdentity(anna)]);
  /** A third page in the middle of two connections of its own passes every message on, unchanged. */
  async function relayed(toAnna, toBela) {
    const left = pair(toAnna && { host: toAnna, guest: { local: "M1", remote: toAnna.local } });
    const right = pair(toBela && { host: { local: "M2", remote: toBela.local }, guest: toBela });
    left.guest.onmessage = (value) => right.host.send(value);
    right.host.onmessage = (value) => left.guest.send(value);
    return Promise.allSettled([
      proveIdentities(left.host, await proving(anna)),
      proveIdentities(right.guest, await proving(bela)),
    ]);
  }
  // With no certificates to name (nonces alone), such a relay would pass on both proofs...
  assert.deepEqual(
    (await relayed(null, null)).map((r) => r.status),
    ["fulfilled", "fulfilled"],
  );
  // ...but each end signs the certificates it sees, and the other end sees the relay's.
  const [atAnna, atBela] = await relayed({ local: "A", remote: "M1" }, { local: "B", remote: "M2" });
  assert.equal(atAnna.status, "rejected");
  assert.equal(atBela.status, "rejected");
  assert.ok([atAnna.reason.code, atBela.reason.code].includes("identity_unproved"));
});

test("a side may refuse a proven identity: the other is told it was refused", async () => {
  const anna = new MemoryStorage();
  const bela = new MemoryStorage();
  const { host, guest } = pair();
  const blocked = new Error("blocked");
  const [atHost, atGuest] = await Promise.allSettled([
    proveIdentities(
      host,
      await proving(anna, {
        decide: (peer) => {
          if (peer) throw blocked;
        },
      }),
    ),
    proveIdentities(guest, await proving(bela)),
  ]);
  assert.equal(atHost.reason, blocked);
  assert.ok(atGuest.reason instanceof OnlineError && atGuest.reason.code === "refused");
  assert.equal(atGuest.reason.detail, "");
});

test("a page that proves nothing is refused: another version, a malformed step, or silence", async () => {
  const anna = new MemoryStorage();
  // Another version's page starts with the game.
  let { host, guest } = pair();
  let result = proveIdentities(host, await proving(anna));
  guest.send('{"v":1,"t":"room"}');
  await assert.rejects(result, (error) => error.code === "code_version");
  // A "who" without a usable nonce, a proof that is not text.
  for (const [who, proof] of [
    [{ hs: "who", v: 1, identity: await myIdentity(new MemoryStorage()), nonce: "short" }, null],
    [{ hs: "who", v: 1, identity: await myIdentity(new MemoryStorage()), nonce: "n".repeat(43) }, { hs: "proof" }],
    [{ hs: "who", v: 1, identity: "x".repeat(300), nonce: "n".repeat(43) }, null],
  ]) {
    ({ host, guest } = pair());
    result = proveIdentities(host, await proving(anna));
    guest.send(who);
    if (proof) guest.send(proof);
    await assert.rejects(result, (error) => error.code === "identity_unproved", JSON.stringify(who));
    await host.closed;
  }
  // Silence: refused after the time given.
  ({ host, guest } = pair());
  await assert.rejects(proveIdentities(host, await proving(anna, { timeoutMs: 30 })), (error) => {
    return error.code === "identity_unproved" && /no who/.test(error.message);
  });
  assert.equal(host.isOpen, false);
});
