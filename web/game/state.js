// @ts-check
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

/** @import { EngineClient } from "../engine/engine-client.js" */
/** @import { Preferences } from "../screens/modes.js" */
/** @import { Settings } from "../screens/settings.js" */
/** @import { Tutorial } from "../screens/tutorial.js" */
/** @import { Hint } from "../table/assist.js" */
/** @import { May, Preset, Progress, RulesParameter, Seat, Seating, View } from "../../types/engine.js" */
/** @typedef {ReturnType<typeof import("../screens/custom-rules.js").mountRulesEditor>} RulesEditor */
/**
 * An online game in play (game/online.js): where your moves go, and leaving it.
 * @typedef {{perform: (action: string) => void, leave: () => Promise<void>}} OnlineHooks
 */
/**
 * A puzzle on the table (game/puzzle.js): where your moves go, whether it is still being solved, and closing it.
 * ``game``: the game under it, as it was when the puzzle was opened.
 * @typedef {{perform: (action: string) => void, playing: () => boolean, close: () => void,
 *   game: {view: View | null, meta: Seating}}} PuzzleHooks
 */
/** @typedef {{key: string, detail?: string}} Failure Why the boot failed: a translation key, and the technical detail. */
/**
 * The state of the page (see the comments on each part below).
 * @typedef {{
 *   client: EngineClient | null,
 *   booted: boolean,
 *   game: string | null,
 *   view: View | null,
 *   model: View | null,
 *   settings: Settings,
 *   presets: Preset[],
 *   parameters: Promise<RulesParameter[]> | null,
 *   rulesEditor: RulesEditor | null,
 *   tutorial: Tutorial | null,
 *   busy: boolean,
 *   thinking: boolean,
 *   aiTimer: ReturnType<typeof setTimeout> | null,
 *   message: string,
 *   steps: number,
 *   gameStart: number,
 *   focus: string | null,
 *   focusIndex: number,
 *   progress: Progress | null,
 *   failure: Failure | null,
 *   prefs: Preferences,
 *   meta: Seating,
 *   may: May,
 *   seat: Seat,
 *   handover: {seat: Seat, claimSeat: Seat | null} | null,
 *   hint: Hint | null,
 *   paused: boolean,
 *   superseded: boolean,
 *   online: OnlineHooks | null,
 *   puzzle: PuzzleHooks | null,
 * }} State
 */

export const params = new URLSearchParams(window.location.search);

export const TEST = params.get("test") === "1";

export const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

/**
 * The pauses and card movements of each pace (milliseconds): ``think``, the least time the computer
 * takes; ``move``, a card's flight; ``trick``, a full trick's pause before it is swept (0: it stays on the
 * table, faded, until the next card is played); ``draw``, after each card drawn; ``notice``, after the
 * other's marriage, close or claim; ``claim``, your chance to claim before the computer moves;
 * ``watch``, between moves while you watch.
 * @typedef {{think: number, move: number, trick: number, draw: number, notice: number, claim: number, watch: number}} Pace
 */
/** @type {Record<string, Pace>} */
const PACES = {
  relaxed: { think: 700, move: 340, trick: 1000, draw: 180, notice: 1300, claim: 2000, watch: 2400 },
  normal: { think: 300, move: 240, trick: 0, draw: 90, notice: 900, claim: 1500, watch: 1100 },
  fast: { think: 0, move: 160, trick: 0, draw: 0, notice: 600, claim: 1000, watch: 250 },
  instant: { think: 0, move: 0, trick: 0, draw: 0, notice: 0, claim: 600, watch: 0 },
};
/** @type {Pace} */
const NO_PAUSES = { think: 0, move: 0, trick: 0, draw: 0, notice: 0, claim: 0, watch: 0 };

/** The pauses and card movements of the pace chosen in the settings (none in the tests' fast mode). */
export function timing() {
  const pace = PACES[state.settings.pace] ?? PACES.normal;
  // The tests' fast mode: no pauses, but watching keeps the pace's (the tests of watching time it).
  if (TEST && params.get("fast") === "1") return { ...NO_PAUSES, watch: pace.watch };
  return reducedMotion.matches ? { ...pace, move: 0, draw: 0 } : pace;
}

/**
 * @param {number} ms
 * @returns {Promise<void>}
 */
export const pause = (ms) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

/**
 * @template T
 * @param {T} value
 * @returns {T}
 */
export const clone = (value) => structuredClone(value);

// boot.js imports the page as soon as the worker is started, which may be
// before the document is parsed.
await documentParsed();

export const dom = queryDom();

/** @type {State} */
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
  online: null, // an online game in play: where your moves go (game/online.js)
  puzzle: null, // a puzzle on the table instead of the game (game/puzzle.js)
  superseded: false, // another tab took the table over: this one stopped (one-table.js)
};

/**
 * Every message from the worker, as JSON text (test mode only).
 * @type {string[]}
 */
export const testLog = [];

const HOLD_MEETING_KEY = "sixty-six.test.hold-meeting";
/** @type {() => void} */
let releaseMeeting = () => {};
/** @type {Promise<void>} */
const meetingReleased = new Promise((resolve) => (releaseMeeting = () => resolve()));

/**
 * Test mode: after a reload asked for by ``holdMeeting``, a saved online game meets the other player
 * again only once ``releaseMeeting`` is called, so that a test sees the other side waiting. Otherwise
 * (and outside test mode) it resolves at once.
 * @returns {Promise<void>}
 */
export function testMeetingGate() {
  if (!TEST || sessionStorage.getItem(HOLD_MEETING_KEY) !== "1") return Promise.resolve();
  sessionStorage.removeItem(HOLD_MEETING_KEY);
  return meetingReleased;
}

/** The test hooks of testMeetingGate: hold the meeting after the next reload; release it. */
export const meetingHold = {
  hold: () => sessionStorage.setItem(HOLD_MEETING_KEY, "1"),
  release: () => releaseMeeting(),
};

/** Is the table ready for you (booted, nothing running, something to show)? */
export function ready() {
  return state.booted && !state.busy && state.aiTimer === null && (state.view !== null || state.handover !== null);
}
