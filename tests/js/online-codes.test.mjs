// web/online/codes.js and room-code.js under Node: invitation and answer
// codes (their round trip, and every way a code can be wrong), and room codes.

import assert from "node:assert/strict";
import { test } from "node:test";

const codes = await import("../../web/online/codes.js");
const rooms = await import("../../web/online/room-code.js");
const { OnlineError } = await import("../../web/online/errors.js");

// A data-channel offer as Chromium makes it (non-trickle: the candidates are in it).
const OFFER = [
  "v=0",
  "o=- 4611731400430051336 2 IN IP4 127.0.0.1",
  "s=-",
  "t=0 0",
  "a=group:BUNDLE 0",
  "a=extmap-allow-mixed",
  "a=msid-semantic: WMS",
  "m=application 50312 UDP/DTLS/SCTP webrtc-datachannel",
  "c=IN IP4 192.0.2.2",
  "a=candidate:3190227745 1 udp 2113937151 192.0.2.2 50312 typ host generation 0 network-cost 999",
  "a=candidate:1217512561 1 udp 2113939711 fd00::2 42311 typ host generation 0 network-cost 999",
  "a=ice-ufrag:Yx9P",
  "a=ice-pwd:Jf0a3pOZ1cRyrYMG1DyjxPk4",
  "a=ice-options:trickle",
  "a=fingerprint:sha-256 6B:8B:F0:65:5F:78:E2:51:3B:AC:6F:F3:3F:46:1B:35:DC:B8:5F:64:1C:24:C2:43:F0:A1:58:D0:A1:2C:19:08",
  "a=setup:actpass",
  "a=mid:0",
  "a=sctp-port:5000",
  "a=max-message-size:262144",
  "",
].join("\r\n");
const ANSWER = OFFER.replace("a=setup:actpass", "a=setup:active").replace("Yx9P", "Qw3e");

/** @param {Promise<unknown>} promise @param {string} code */
async function failsWith(promise, code) {
  await assert.rejects(promise, (error) => {
    assert.ok(error instanceof OnlineError, `not an OnlineError: ${error}`);
    assert.equal(error.code, code, error.message);
    assert.ok(error.message.length > 10);
    return true;
  });
}

test("an invitation code holds its offer, compressed, in URL-safe characters", async () => {
  const code = await codes.encodeCode("offer", OFFER);
  assert.match(code, /^[A-Za-z0-9_-]+$/);
  assert.ok(code.length < OFFER.length, `${code.length} characters for ${OFFER.length}`);
  const decoded = await codes.decodeCode(code, "offer");
  assert.deepEqual(decoded, { kind: "offer", sdp: OFFER, id: codes.offerId(OFFER) });
});

test("an answer code names the offer it answers", async () => {
  const id = codes.offerId(OFFER);
  const code = await codes.encodeCode("answer", ANSWER, id);
  assert.deepEqual(await codes.decodeCode(code, "answer"), { kind: "answer", sdp: ANSWER, id });
  assert.notEqual(codes.offerId(ANSWER), id);
});

test("a link carries the code in its fragment, and any text holding it gives it back", async () => {
  const code = await codes.encodeCode("offer", OFFER);
  const link = codes.invitationLink("https://example.org/game/?lang=de#old", code);
  assert.equal(link, `https://example.org/game/?lang=de#join=${code}`);
  assert.equal(codes.extractCode(link), code);
  // Copied through a chat: broken over lines, with spaces around.
  const wrapped = ` ${code.slice(0, 40)}\n${code.slice(40, 90)}\r\n  ${code.slice(90)} `;
  assert.equal(codes.extractCode(wrapped), code);
  assert.equal((await codes.decodeCode(link, "offer")).sdp, OFFER);
});

test("a damaged code is told apart from a wrong one", async () => {
  const offer = await codes.encodeCode("offer", OFFER);
  const answer = await codes.encodeCode("answer", ANSWER, codes.offerId(OFFER));
  // One character changed, anywhere.
  for (const at of [0, 3, 10, Math.floor(offer.length / 2), offer.length - 1]) {
    const ch = offer[at] === "A" ? "B" : "A";
    await failsWith(codes.decodeCode(offer.slice(0, at) + ch + offer.slice(at + 1), "offer"), "code_damaged");
  }
  // Cut short (copying missed the end), or a character lost.
  await failsWith(codes.decodeCode(offer.slice(0, -5), "offer"), "code_damaged");
  await failsWith(codes.decodeCode(offer.slice(0, 20) + offer.slice(21), "offer"), "code_damaged");
  // The other kind.
  await failsWith(codes.decodeCode(answer, "offer"), "not_an_invitation");
  await failsWith(codes.decodeCode(offer, "answer"), "not_an_answer");
  // Not a code of ours at all.
  await failsWith(codes.decodeCode("hello, world", "offer"), "not_an_invitation");
  await failsWith(codes.decodeCode("abc", "answer"), "not_an_answer");
  await failsWith(codes.decodeCode("   \n ", "offer"), "code_empty");
  await failsWith(codes.decodeCode("https://example.org/#join=", "offer"), "code_empty");
});

test("a whole code of another format is a version mismatch, not damage", async () => {
  const code = await codes.encodeCode("offer", OFFER);
  const bytes = /** @type {Uint8Array} */ (codes.fromBase64url(code));
  bytes[0] = 2;
  const body = bytes.subarray(0, bytes.length - 4);
  new DataView(bytes.buffer).setUint32(bytes.length - 4, codes.crc32(body));
  await failsWith(codes.decodeCode(codes.toBase64url(bytes), "offer"), "code_version");
});

test("a well-formed code whose content is not a session description is refused as damaged", async () => {
  const bytes = new Uint8Array([codes.FORMAT, 0x4f, 0x4b, 0xcb, 0xcf, 0x07, 0x00, 0, 0, 0, 0]); // deflate("foo")
  new DataView(bytes.buffer).setUint32(bytes.length - 4, codes.crc32(bytes.subarray(0, bytes.length - 4)));
  await failsWith(codes.decodeCode(codes.toBase64url(bytes), "offer"), "code_damaged");
});

test("base64url and CRC-32 match the standard ones", () => {
  for (const size of [0, 1, 2, 3, 4, 5, 31, 256]) {
    const bytes = Uint8Array.from({ length: size }, (_, i) => (i * 37 + size) & 0xff);
    const text = codes.toBase64url(bytes);
    assert.equal(text, Buffer.from(bytes).toString("base64url"));
    assert.deepEqual(codes.fromBase64url(text), bytes);
  }
  assert.equal(codes.fromBase64url("a+b/"), null);
  assert.equal(codes.fromBase64url("abcde"), null); // 5 characters: no byte count gives that
  assert.equal(codes.crc32(new TextEncoder().encode("123456789")), 0xcbf43926);
});

test("room codes use the unambiguous alphabet, six characters, every symbol alike", () => {
  assert.equal(rooms.ROOM_CODE_ALPHABET.length, 32);
  for (const ch of "0O1I") assert.ok(!rooms.ROOM_CODE_ALPHABET.includes(ch), ch);
  const counts = new Map();
  for (let i = 0; i < 2000; i++) {
    const code = rooms.generateRoomCode();
    assert.match(code, /^[2-9A-HJ-NP-Z]{6}$/);
    assert.ok(rooms.isRoomCode(code));
    for (const ch of code) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  // 12,000 symbols, 375 expected of each: a biased generator would miss a few entirely or by far.
  assert.equal(counts.size, 32);
  for (const [ch, n] of counts) assert.ok(n > 250 && n < 500, `${ch}: ${n}`);
  // Each random byte gives one symbol, from its low five bits.
  const fixed = rooms.generateRoomCode((bytes) => bytes.set([0, 31, 32, 255, 8, 100]));
  assert.equal(fixed, "2Z2ZA6");
});

test("a typed room code is read as people type it, and refused when it cannot be one", () => {
  assert.equal(rooms.normalizeRoomCode("abc def"), "ABCDEF");
  assert.equal(rooms.normalizeRoomCode(" k7m-p2q\n"), "K7MP2Q");
  assert.equal(rooms.normalizeRoomCode("https://example.org/#room=k7mp2q"), "K7MP2Q");
  assert.equal(rooms.formatRoomCode("K7MP2Q"), "K7M P2Q");
  for (const bad of ["K7MP2", "K7MP2QX", "K7MP2O", "K7MP20", "K7MP2I", "K7MP21", "K7MP2!", "", "      "]) {
    assert.equal(rooms.normalizeRoomCode(bad), null, bad);
  }
  assert.equal(rooms.isRoomCode("k7mp2q"), false); // not as stored: normalise first
  assert.equal(rooms.isRoomCode("K7MP2Q"), true);
});
