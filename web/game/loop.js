// @ts-check
// The game loop. The page never decides what is legal: it offers exactly
// view.legal and sends what you pick to the engine's table
// (py_engine/service/table.py), which owns the modes and what each seat may see and
// do. Against the computer the page shows seat 0, and asks
// "table_computer" for the computer's moves when the answer's
// "may.computer_move" says so; watching, both seats are the computer. Seat
// numbers are the protocol's own: the bottom of the table is the view's
// "seat".
//
// One step runs at a time (run()): your action, the computer's move, a new
// game. When it ends, the statistics count a finished deal and proceed()
// says what happens next.

import { t } from "../platform/i18n.js";
import { beginGame, noteAssistance, noteFinishedDeal } from "../platform/stats.js";
import { newTallyGame, tallyMatch } from "../platform/tally.js";
import { confirmStep } from "../screens/confirm.js";
import { overridesFor, saveCustomRules } from "../screens/custom-rules.js";
import { newSeating } from "../screens/modes.js";
import { DEFAULTS, dealerArgument, saveSettings } from "../screens/settings.js";
import { hideHandover } from "../table/handover.js";
import { narrateGame, say } from "../table/narrate.js";
import { draw, notify, show } from "./draw.js";
import { playFrames } from "./frames.js";
import { clone, dom, pause, state, TEST, timing } from "./state.js";

/** @import { EngineClient, EngineError } from "../engine/engine-client.js" */
/** @import { Action, Answers, Command, Request, Rules, Seat, TableAnswer, View } from "../../types/engine.js" */
/**
 * new_game's arguments: the preset and custom rules, and any other of the
 * protocol's (seed, deck, dealer, match, seating).
 * @typedef {{preset?: string, rules?: Rules} & Record<string, unknown>} GameOptions
 */

/**
 * One request to the engine's table (through the worker; the page asks only once it has one).
 * @template {Command} C
 * @param {Request<C>} payload
 * @param {{timeoutMs?: number}} [options]
 * @returns {Promise<Answers[C]>}
 */
export function ask(payload, options) {
  return /** @type {EngineClient} */ (state.client).request(payload, options);
}

/** Stop the computer's move that is waiting to start (and its thinking dots). */
export function cancelAi() {
  if (state.aiTimer !== null) {
    clearTimeout(state.aiTimer);
    state.aiTimer = null;
  }
  state.thinking = false;
}

/** What happens next once nothing is running: the computer's move, or wait for you. */
export function proceed() {
  const view = state.view;
  if (state.meta.mode === "watch") {
    scheduleWatch();
  } else if (state.meta.mode === "computer" && view && state.may.computer_move) {
    state.thinking = true;
    // While you may still claim out of turn, give you time to do it before the computer moves.
    const wait = view.legal.includes("claim") ? timing().claim : 0;
    state.aiTimer = setTimeout(() => {
      state.aiTimer = null;
      run(computerMove);
    }, wait);
  }
  draw();
  // Your turn: say what you are to do (the status line's words).
  if (view && !state.handover && view.to_act === view.seat && !view.deal_result) say(dom.status.textContent);
}

/**
 * Run one step of the game; nothing else runs meanwhile.
 * @param {() => Promise<void>} task
 */
export async function run(task) {
  state.busy = true;
  draw();
  try {
    await task();
  } catch (error) {
    await recover(error);
  } finally {
    state.busy = false;
    state.steps += 1;
  }
  recordStats();
  proceed();
}

/** Only games against the computer count in the session's tally (not two people, nor the computer against itself). */
function countsInTally() {
  return state.meta.mode === "computer";
}

/**
 * Count a finished deal (and match) in the statistics, once: the engine says whether and what it counts.
 * @param {View | null} [view]
 */
export function recordStats(view = state.view) {
  noteFinishedDeal(view, { level: state.settings.level, mode: state.meta.mode }, ask);
  if (countsInTally() && view) tallyMatch(view);
}

/** An undo or a hint: the engine marks the match in play assisted (counted in the totals, not rated). */
export function noteHelpTaken() {
  noteAssistance(state.meta.mode, ask);
}

/**
 * An error's details for a notice (the engine's own messages are technical and stay in English).
 * @param {any} error whatever was thrown (usually an EngineError)
 */
export function errorText(error) {
  return error && error.code === "timeout" ? t("error.timeout") : String(error?.message || error);
}

/**
 * A step failed: say so, and show the table as the engine has it.
 * @param {unknown} error
 */
async function recover(error) {
  state.thinking = false;
  notify(t("notice.error", { detail: errorText(error) }));
  if (!state.game) return;
  try {
    adoptTable(await ask({ cmd: "table_show", table: state.game }));
    if (state.view) await show(clone(state.view));
  } catch {
    // the notice already says what is wrong
  }
}

/**
 * The computer's move at whichever seat has one (watching: at that seat's level).
 * @returns {Request<"table_computer">}
 */
function computerRequest() {
  /** @type {Request<"table_computer">} */
  const request = { cmd: "table_computer", table: state.game };
  if (state.meta.mode === "computer") request.level = state.settings.level;
  // Tests replay the same game every time: the computer's random choices follow the
  // steps since the game began, and it searches its level's iterations, not against the clock.
  if (TEST) return { ...request, seed: state.steps - state.gameStart, timed: false };
  return request;
}

const COMPUTER_TIMEOUT_MS = 30000;

async function computerMove() {
  const request = ask(computerRequest(), { timeoutMs: COMPUTER_TIMEOUT_MS });
  // The computer "thinks" for a moment even when it answers at once.
  const [answer] = await Promise.all([request, pause(timing().think)]);
  state.thinking = false;
  await playTableAnswer(answer);
}

/**
 * May the seat at the bottom take ``action`` now (or ``seat``, the other player, claim)?
 * @param {Action} action
 * @param {Seat} seat
 */
function mayAct(action, seat) {
  if (!state.booted || state.busy || !state.view || state.handover || state.meta.mode === "watch") return false;
  return seat !== state.seat || state.view.legal.includes(action);
}

/**
 * Go ahead with ``action``? A claim (unless the settings say not to ask) and resigning ask first.
 * @param {Action} action
 * @returns {Promise<boolean>}
 */
export function confirmed(action) {
  if (action === "claim" && state.settings.confirmClaim)
    return confirmStep({ ask: "claim", question: t("confirm.claim"), yes: t("confirm.claim.yes") });
  if (action === "resign")
    return confirmStep({ ask: "resign", question: t("confirm.resign"), yes: t("action.resign") });
  return Promise.resolve(true);
}

/**
 * Is there a match in play that a new game would abandon: one you play in (not one you watch), not over,
 * and begun (a trick taken, or a deal or a Bummerl before this one)? Two players: the hand-over screen with
 * no view (between deals) counts as one.
 */
function matchInPlay() {
  if (state.game === null) return false;
  // Under a puzzle, the game waits as it was when the puzzle was opened.
  const meta = state.puzzle ? state.puzzle.game.meta : state.meta;
  if (meta.mode === "watch") return false;
  const view = state.puzzle ? state.puzzle.game.view : state.view;
  if (!view) return state.handover !== null;
  return !view.game_over && (view.tricks_played > 0 || view.match.deal_number > 1 || view.match.match_number > 1);
}

/**
 * Go ahead with what abandons the match in play (``yes``: the words of the button that does)?
 * It asks only if there is one.
 * @param {string} yes
 * @returns {Promise<boolean>}
 */
export async function mayAbandon(yes) {
  if (state.online) {
    // An online game in play: leaving it is a loss on time unless its player comes back within the minute.
    if (!(await confirmStep({ ask: "abandon-online", question: t("online.newGame.confirm"), yes }))) return false;
    await state.online.leave();
    return true;
  }
  if (!matchInPlay()) return true;
  return confirmStep({ ask: "abandon", question: t("confirm.abandon"), yes });
}

/**
 * Act for the seat at the bottom, or (``seat``: two players) claim for the other one; a costly action asks first
 * (the computer waits meanwhile).
 * @param {Action} action
 */
export async function perform(action, seat = state.seat) {
  if (!mayAct(action, seat)) return;
  const waiting = state.aiTimer !== null;
  cancelAi();
  if (!(await confirmed(action)) || !mayAct(action, seat)) {
    if (waiting) proceed();
    return;
  }
  if (state.meta.mode === "online") {
    state.online?.perform(action);
    return;
  }
  if (state.puzzle) {
    state.puzzle.perform(action);
    return;
  }
  state.tutorial?.acted(action);
  state.hint = null;
  run(async () => playTableAnswer(await ask({ cmd: "table_act", table: state.game, seat, action })));
}

/**
 * Start a game; ``counted``: false for one that the statistics leave out (the tutorial).
 * @param {GameOptions} options
 * @param {{animate?: boolean, counted?: boolean}} [how]
 */
export async function startGame(options, { animate = true, counted = true } = {}) {
  if (counted) state.tutorial?.end();
  state.puzzle?.close(); // a new game takes the table back from a puzzle
  const seating = newSeating(state.prefs, state.settings.level);
  const preset = options.preset ?? state.settings.preset;
  /** @type {Request<"table_new">} */
  const request = { cmd: "table_new", preset, rules: overridesFor(preset), seating, ...options };
  /** @type {Answers["table_new"]} */
  let answer;
  try {
    answer = await ask(request);
  } catch (error) {
    // The client rejects with EngineErrors.
    if (/** @type {EngineError} */ (error).code === "bad_rules" && !options.rules) {
      // Custom rules that the engine no longer accepts: play the preset as it is, and say so.
      saveCustomRules(preset, {});
      notify(t("custom.dropped"));
      answer = await ask({ ...request, rules: {} });
    } else if (/** @type {EngineError} */ (error).code === "unknown_preset") {
      state.settings = saveSettings({ ...state.settings, preset: DEFAULTS.preset });
      answer = await ask({ ...request, preset: DEFAULTS.preset, rules: {} });
    } else {
      throw error;
    }
  }
  state.game = answer.table;
  state.gameStart = state.steps;
  beginGame({ counted }, ask);
  if (counted) newTallyGame(`${Date.now()}.${answer.table}`);
  state.message = "";
  state.hint = null;
  state.paused = false;
  state.view = null;
  adoptTable(answer);
  if (!answer.view) return; // two players: the hand-over screen comes first
  narrateGame(answer.view);
  if (animate) await show(clone(answer.view));
  else state.model = clone(answer.view); // drawn by the caller
}

/**
 * A new game (``options``: new_game's arguments, as for startGame), once nothing else runs.
 * @param {GameOptions} [options]
 */
export function newGame(options = {}) {
  if (!state.booted) return Promise.resolve();
  cancelAi();
  const dealer = dealerArgument(state.settings);
  return run(() => startGame({ ...(dealer === undefined ? {} : { dealer }), ...options }));
}

/**
 * Take on what a table's answer shows: its seating and rights, and a view or (two players) the hand-over screen.
 * @param {TableAnswer} answer
 */
export function adoptTable(answer) {
  state.meta = answer.seating || state.meta;
  state.may = answer.may || {};
  if (answer.view) {
    state.seat = answer.view.seat;
    state.view = answer.view;
    state.handover = null;
    hideHandover();
  } else if (answer.handover) {
    if (!state.view || state.view.deal_result) {
      // a new deal: nothing of it is drawn until its first player takes the device
      state.view = null;
      state.model = null;
    } else {
      state.view = state.model; // the move just played, under the hand-over screen
    }
    state.handover = { seat: answer.handover.seat, claimSeat: answer.handover.claim };
  }
}

/**
 * Animate a table's answer to a move, then take on what it shows next.
 * @param {TableAnswer} answer
 */
export async function playTableAnswer(answer) {
  await playFrames(answer.frames || [], answer.view);
  adoptTable(answer);
}

/** Watching: the next computer move after the pace's pause, unless paused or over. */
function scheduleWatch() {
  const view = state.view;
  if (state.paused || !view || view.game_over || state.aiTimer !== null || state.busy) return;
  state.aiTimer = setTimeout(() => {
    state.aiTimer = null;
    run(watchMove);
  }, timing().watch);
}

/** Watching: the computer's next move, if it has one. */
export async function watchMove() {
  if (!state.may.computer_move) return;
  await playTableAnswer(await ask(computerRequest(), { timeoutMs: COMPUTER_TIMEOUT_MS }));
}
