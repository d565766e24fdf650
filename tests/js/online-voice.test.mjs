// web/online/voice.js under Node, with a stand-in RTCPeerConnection and microphone: the signals it takes from
// the other browser, the rate it takes them at, and a call's microphone (opened only by start(), muted, released).

import assert from "node:assert/strict";
import { test } from "node:test";

const SDP = "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n";
const CANDIDATE = "a=candidate:1 1 udp 2122260223 192.0.2.2 50000 typ host\r\n";

/** A stand-in for the browser's RTCPeerConnection: it records what the call does with it. */
class FakeConnection extends EventTarget {
  static made = [];
  iceGatheringState = "complete";
  signalingState = "stable";
  connectionState = "new";
  localDescription = null;
  remoteDescription = null;
  transceivers = [];
  constructor(config) {
    super();
    this.config = config;
    FakeConnection.made.push(this);
  }
  addTransceiver(kind, init) {
    const transceiver = {
      direction: init.direction,
      receiver: { track: { kind } },
      sender: { tracks: [], replaceTrack: async (track) => transceiver.sender.tracks.push(track) },
    };
    this.transceivers.push(transceiver);
    return transceiver;
  }
  getTransceivers() {
    return this.transceivers;
  }
  async createOffer() {
    return { type: "offer", sdp: SDP };
  }
  async createAnswer() {
    return { type: "answer", sdp: SDP };
  }
  async setLocalDescription(description) {
    this.localDescription = { ...description, sdp: description.sdp + CANDIDATE };
  }
  async setRemoteDescription(description) {
    this.remoteDescription = description;
    if (description.type === "offer") this.addTransceiver("audio", { direction: "recvonly" });
  }
  async getStats() {
    return new Map([["in", { type: "inbound-rtp", kind: "audio", bytesReceived: 500, audioLevel: 0.1 }]]);
  }
  close() {
    this.signalingState = "closed";
  }
}
globalThis.RTCPeerConnection = FakeConnection;

const { microphones, rateLimit, readVoiceSignal, VOICE_SDP_MAX, VoiceCall } = await import("../../web/online/voice.js");
const { OnlineError } = await import("../../web/online/errors.js");

/** A microphone that gives one track, or refuses with ``refuse`` (a DOMException name). */
function microphone(refuse = "") {
  const asked = [];
  const track = { kind: "audio", enabled: true, stopped: false, stop: () => (track.stopped = true) };
  return {
    asked,
    track,
    media: {
      async getUserMedia(constraints) {
        asked.push(constraints);
        if (refuse) throw new DOMException("refused", refuse);
        return { getAudioTracks: () => [track] };
      },
    },
  };
}

function newCall(role, mic, sent = []) {
  const call = new VoiceCall({
    call: 3,
    role,
    iceServers: [],
    send: (signal) => sent.push(signal),
    media: mic.media,
    play: () => () => {},
  });
  return { call, sent, pc: FakeConnection.made.at(-1) };
}

const isBadSignal = (error) => error instanceof OnlineError && error.code === "voice_bad_signal";

test("a voice signal is checked: its fields, its call, its kind, its size, and audio only", () => {
  const good = { voice: { call: 2, type: "offer", sdp: SDP } };
  assert.deepEqual(readVoiceSignal(good), { call: 2, type: "offer", sdp: SDP });
  const bad = [
    { voice: null },
    { voice: "offer" },
    { voice: { ...good.voice, extra: 1 } },
    { voice: good.voice, also: 1 },
    { voice: { ...good.voice, call: 0 } },
    { voice: { ...good.voice, call: "2" } },
    { voice: { ...good.voice, type: "pranswer" } },
    { voice: { ...good.voice, sdp: 7 } },
    { voice: { ...good.voice, sdp: SDP + "a=x\r\n".repeat(VOICE_SDP_MAX / 5) } },
    { voice: { ...good.voice, sdp: `${SDP}m=video 9 UDP/TLS/RTP/SAVPF 96\r\n` } },
    { voice: { ...good.voice, sdp: `${SDP}m=application 9 UDP/DTLS/SCTP webrtc-datachannel\r\n` } },
    { voice: { ...good.voice, sdp: "v=0\r\n" } },
    { voice: { ...good.voice, sdp: "<script>" } },
  ];
  for (const value of bad) assert.throws(() => readVoiceSignal(value), isBadSignal, JSON.stringify(value));
});

test("signals are taken in a burst, then one a second", () => {
  const admit = rateLimit(4, 1);
  const first = Array.from({ length: 10 }, () => admit(1000));
  assert.deepEqual(first, [true, true, true, true, false, false, false, false, false, false]);
  assert.equal(admit(1500), false);
  assert.equal(admit(2100), true);
  assert.equal(admit(2100), false);
});

test("the microphone opens on start, not before; the host offers with its call's number", async () => {
  const mic = microphone();
  const { call, sent, pc } = newCall("offer", mic);
  assert.equal(mic.asked.length, 0);
  assert.equal(call.microphone, "opening");
  await call.start();
  assert.deepEqual(mic.asked, [{ audio: true, video: false }]);
  assert.equal(call.microphone, "open");
  assert.equal(microphones.live, 1);
  assert.equal(sent.length, 1);
  assert.deepEqual({ ...sent[0], sdp: undefined }, { call: 3, type: "offer", sdp: undefined });
  assert.ok(sent[0].sdp.includes("a=candidate:"), "the offer holds its candidates");
  assert.deepEqual(pc.transceivers[0].sender.tracks.at(-1), mic.track);
  // The answer of another call, or a second answer, is refused.
  await assert.rejects(call.receive({ call: 2, type: "answer", sdp: SDP }), isBadSignal);
  await call.receive({ call: 3, type: "answer", sdp: SDP });
  assert.equal(pc.remoteDescription.type, "answer");
  await assert.rejects(call.receive({ call: 3, type: "answer", sdp: SDP }), isBadSignal);
  // Muted: the track is disabled and nothing is sent; unmuted, the track again.
  call.muted = true;
  assert.equal(mic.track.enabled, false);
  assert.equal(pc.transceivers[0].sender.tracks.at(-1), null);
  call.muted = false;
  assert.equal(mic.track.enabled, true);
  assert.deepEqual(pc.transceivers[0].sender.tracks.at(-1), mic.track);
  assert.deepEqual(await call.stats(), { sent: 0, received: 500, level: 0.1 });
  // Hung up: the microphone is released and the connection closed.
  call.close();
  assert.ok(mic.track.stopped);
  assert.equal(microphones.live, 0);
  assert.equal(pc.signalingState, "closed");
  assert.equal(call.state, "closed");
});

test("a reading of the call that never settles ends when the call is closed", { timeout: 5000 }, async () => {
  const mic = microphone();
  const { call, pc } = newCall("offer", mic);
  await call.start();
  pc.getStats = () => new Promise(() => {}); // as Firefox may do with a connection being lost
  const reading = call.stats();
  call.close();
  assert.deepEqual(await reading, { sent: 0, received: 0, level: 0 });
});

test("the guest answers the offer and sends its microphone back", async () => {
  const mic = microphone();
  const { call, sent, pc } = newCall("answer", mic);
  await call.start();
  assert.equal(sent.length, 0, "the guest waits for the offer");
  await assert.rejects(call.receive({ call: 3, type: "answer", sdp: SDP }), isBadSignal);
  await call.receive({ call: 3, type: "offer", sdp: SDP });
  assert.equal(sent.length, 1);
  assert.equal(sent[0].type, "answer");
  assert.equal(pc.transceivers[0].direction, "sendrecv");
  assert.deepEqual(pc.transceivers[0].sender.tracks.at(-1), mic.track);
  call.close();
  assert.equal(microphones.live, 0);
});

test("a microphone that is refused is said, and the call goes on, listening only", async () => {
  const mic = microphone("NotAllowedError");
  const { call, sent } = newCall("offer", mic);
  let changes = 0;
  call.onchange = () => (changes += 1);
  await call.start();
  assert.equal(call.microphone, "denied");
  assert.match(call.microphoneError, /^NotAllowedError/);
  assert.ok(changes >= 1);
  assert.equal(sent.length, 1, "the offer went all the same");
  assert.equal(call.state, "connecting");
  const missing = newCall("offer", microphone("NotFoundError")).call;
  await missing.start();
  assert.equal(missing.microphone, "missing");
  call.close();
  missing.close();
  assert.equal(microphones.live, 0);
});

test("a call closed while its microphone opens releases it at once", async () => {
  const mic = microphone();
  const { call } = newCall("answer", mic);
  const starting = call.start();
  call.close();
  await starting;
  assert.ok(mic.track.stopped);
  assert.equal(microphones.live, 0);
});
