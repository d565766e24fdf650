// @ts-check
// Short sounds for the game's events, made in code with Web Audio (there are
// no audio files): a card put down, a trick won or lost, a marriage, an
// exchange, the talon closed, a deal won or lost.
//
// - Nothing sounds before the player's first gesture (a key press or a
//   pointer press on the page): until then every sound is dropped, and the
//   audio context is created inside that first gesture.
// - The switch in the settings is remembered (localStorage, its own key);
//   sound is on until it is turned off.
// - With prefers-reduced-motion the sounds are softer and plainer: one tone
//   each, no flourishes.
// - soundStats() says what was scheduled (the test hook counts on it).

const KEY = "sixty-six.sound.v1";
const LOUD = 0.22;
const SOFT = 0.09;

// A sound is a list of notes: [start (s), frequency (Hz), length (s), waveform, level 0..1, end frequency?].
// "card" notes are a short band of noise (a card laid on the cloth), at the given centre frequency.
/** @typedef {[number, number, number, "card" | OscillatorType, number, number?]} Note */
/** @type {Record<string, Note[]>} */
const SOUNDS = {
  play: [[0, 1800, 0.07, "card", 1]],
  exchange: [
    [0, 1800, 0.06, "card", 0.9],
    [0.09, 2300, 0.06, "card", 0.9],
  ],
  trickWon: [
    [0, 660, 0.09, "triangle", 0.8],
    [0.08, 880, 0.14, "triangle", 0.8],
  ],
  trickLost: [
    [0, 440, 0.09, "triangle", 0.6],
    [0.08, 370, 0.14, "triangle", 0.6],
  ],
  marriage: [
    [0, 523.25, 0.12, "sine", 0.8],
    [0.1, 659.25, 0.12, "sine", 0.8],
    [0.2, 783.99, 0.22, "sine", 0.8],
  ],
  close: [[0, 220, 0.22, "sine", 1, 110]],
  win: [
    [0, 523.25, 0.12, "triangle", 0.8],
    [0.11, 659.25, 0.12, "triangle", 0.8],
    [0.22, 783.99, 0.12, "triangle", 0.8],
    [0.33, 1046.5, 0.35, "triangle", 0.8],
  ],
  lose: [
    [0, 392, 0.16, "sine", 0.8],
    [0.15, 311.13, 0.16, "sine", 0.8],
    [0.3, 261.63, 0.4, "sine", 0.8],
  ],
};

export const SOUND_NAMES = Object.keys(SOUNDS);

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
/** @type {{scheduled: Record<string, number>, dropped: {muted: number, beforeGesture: number, unavailable: number}}} */
const stats = { scheduled: {}, dropped: { muted: 0, beforeGesture: 0, unavailable: 0 } };
let on = loadOn();
let gestured = false;
/** @type {AudioContext | null} */
let context = null;
let unavailable = false;
/** @type {AudioBuffer | null} */
let noise = null;

function loadOn() {
  try {
    return localStorage.getItem(KEY) !== "off";
  } catch {
    return true;
  }
}

/** Is sound on (the player's switch)? */
export function soundOn() {
  return on;
}

/**
 * Turn sound on or off, and remember it.
 * @param {boolean} value
 */
export function setSoundOn(value) {
  on = Boolean(value);
  try {
    localStorage.setItem(KEY, on ? "on" : "off");
  } catch {
    // storage disabled: the switch lasts for this visit
  }
  if (on && gestured) audio();
}

function audio() {
  if (context || unavailable) return context;
  const Context = window.AudioContext || window.webkitAudioContext;
  if (!Context) {
    unavailable = true;
    return null;
  }
  try {
    context = new Context();
  } catch {
    unavailable = true;
  }
  return context;
}

const GESTURES = ["pointerdown", "keydown"];

/** @param {Event} event */
function onGesture(event) {
  if (!event.isTrusted) return;
  gestured = true;
  for (const type of GESTURES) window.removeEventListener(type, onGesture, true);
  if (on) audio();
}

/** Wait for the player's first gesture before any sound may play. */
export function installSound() {
  for (const type of GESTURES) window.addEventListener(type, onGesture, true);
}

/** @param {AudioContext} ctx */
function noiseBuffer(ctx) {
  if (!noise) {
    const length = Math.round(ctx.sampleRate * 0.1);
    noise = ctx.createBuffer(1, length, ctx.sampleRate);
    const data = noise.getChannelData(0);
    for (let i = 0; i < length; i++) data[i] = Math.random() * 2 - 1;
  }
  return noise;
}

/**
 * @param {AudioContext} ctx
 * @param {number} start
 * @param {Note} note
 * @param {number} volume
 */
function scheduleNote(ctx, start, [offset, frequency, length, wave, level, endFrequency], volume) {
  const at = start + offset;
  const gain = ctx.createGain();
  gain.gain.setValueAtTime(0.0001, at);
  gain.gain.exponentialRampToValueAtTime(volume * level, at + 0.01);
  gain.gain.exponentialRampToValueAtTime(0.0001, at + length);
  gain.connect(ctx.destination);
  let source;
  if (wave === "card") {
    source = ctx.createBufferSource();
    source.buffer = noiseBuffer(ctx);
    const band = ctx.createBiquadFilter();
    band.type = "bandpass";
    band.frequency.value = frequency;
    band.Q.value = 1.2;
    source.connect(band).connect(gain);
  } else {
    source = ctx.createOscillator();
    source.type = wave;
    source.frequency.setValueAtTime(frequency, at);
    if (endFrequency) source.frequency.exponentialRampToValueAtTime(endFrequency, at + length);
    source.connect(gain);
  }
  source.start(at);
  source.stop(at + length + 0.02);
}

/**
 * Play one of SOUND_NAMES (or nothing: sound off, no gesture yet, or no Web Audio).
 * @param {string} name
 */
export function playSound(name) {
  const notes = SOUNDS[name];
  if (!notes) return;
  if (!on) {
    stats.dropped.muted += 1;
    return;
  }
  if (!gestured) {
    stats.dropped.beforeGesture += 1;
    return;
  }
  const ctx = audio();
  if (!ctx) {
    stats.dropped.unavailable += 1;
    return;
  }
  if (ctx.state === "suspended") ctx.resume().catch(() => {});
  const soft = reducedMotion.matches;
  const volume = soft ? SOFT : LOUD;
  const start = ctx.currentTime + 0.01;
  for (const note of soft ? notes.slice(0, 1) : notes) scheduleNote(ctx, start, note, volume);
  stats.scheduled[name] = (stats.scheduled[name] || 0) + 1;
}

/** What has been played and dropped so far, and the state of the switch (a copy). */
export function soundStats() {
  return {
    on,
    gestured,
    available: !unavailable,
    soft: reducedMotion.matches,
    volume: reducedMotion.matches ? SOFT : LOUD,
    scheduled: { ...stats.scheduled },
    dropped: { ...stats.dropped },
  };
}

/** @type {Record<string, string>} */
const EVENT_SOUNDS = { play: "play", exchange: "exchange", marriage: "marriage", close: "close" };

/**
 * The sound of one protocol event, heard by seat ``me``: tricks and deals sound different won and lost.
 * @param {{type: string, winner?: number | null}} event
 * @param {number} me
 */
export function eventSound(event, me) {
  if (event.type === "trick") playSound(event.winner === me ? "trickWon" : "trickLost");
  else if (event.type === "deal_end") {
    if (event.winner !== null && event.winner !== undefined) playSound(event.winner === me ? "win" : "lose");
  } else if (EVENT_SOUNDS[event.type]) playSound(EVENT_SOUNDS[event.type]);
}
