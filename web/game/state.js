// The state of the game in play, shared by the parts of the page's
// controller (game/*.js): what the engine showed last, what is drawn, what
// is running, the preferences and the page's elements. It is one object,
// changed in place by the parts; nothing here acts on it.
//
// Test mode (?test=1) adds window.__test (test-hooks.js) and records every
// message from the worker; ?fast=1 (with test=1) removes all pauses and
// animations; ?snapshot=0 boots without the memory snapshot.

import { documentParsed } from "../boot.js";
import { loadPreferences, PLAIN_SEATING } from "../screens/modes.js";
import { loadSettings } from "../screens/settings.js";
import { queryDom } from "../table/table.js";

export const params = new URLSearchParams(window.location.search);

export const TEST = params.get("test") === "1";

export const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

export function timing() {
  if (TEST && params.get("fast") === "1") return { think: 0, move: 0, trick: 0, draw: 0, notice: 0 };
  if (reducedMotion.matches) return { think: 350, move: 0, trick: 700, draw: 0, notice: 800 };
  return { think: 650, move: 320, trick: 900, draw: 160, notice: 1100 };
}

export const pause = (ms) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

export const clone = (value) => structuredClone(value);

// boot.js imports the page as soon as the worker is started, which may be
// before the document is parsed.
await documentParsed();

export const dom = queryDom();

export const state = {
  client: null,
  booted: false,
  game: null,
  view: null, // the engine's latest view
  model: null, // what is drawn (the view, or a step of an animation towards it)
  settings: loadSettings(),
  presets: [],
  parameters: null, // a promise of the engine's rules parameters ("rules" command), asked for when first needed
  rulesEditor: null,
  tutorial: null, // the tutorial's guide while a tutorial deal runs (tutorial.js)
  busy: false,
  thinking: false,
  aiTimer: null,
  message: "",
  steps: 0, // engine answers applied so far (a test hook: data-step)
  gameStart: 0, // data-step when the current game began
  focus: null, // the control that had the keyboard focus before a redraw removed it
  focusIndex: 0, // where in your hand the focused card was
  progress: null, // the latest boot progress, redrawn when the language changes
  failure: null, // why the boot failed: {key, detail?}
  prefs: loadPreferences(), // the mode of the next new game (modes.js)
  meta: PLAIN_SEATING, // the seating of the game in play (the table's mode, names, levels)
  may: {}, // what the table allows now: {undo, hint, claim_for_other, computer_move}
  seat: 0, // the seat drawn at the bottom (the protocol's number)
  handover: null, // two players: {seat, claimSeat} while the hand-over screen shows
  hint: null, // the hinted action {action, value}
  paused: false, // watching: no move until "play" or "one move"
};

export const testLog = [];

export function ready() {
  return state.booted && !state.busy && state.aiTimer === null && (state.view !== null || state.handover !== null);
}
