// The table controller: boots the engine worker, runs the game loop (your
// actions, the computer's moves, animations) and keeps the settings.
//
// The page never decides what is legal: it offers exactly view.legal and
// sends what you pick to the engine's table (py_engine/table.py), which owns
// the modes and what each seat may see and do. Against the computer the page
// shows seat 0, and asks "table_computer" for the computer's moves when the
// answer's "may.computer_move" says so. Two players on one device take turns
// at the bottom of the table (state.seat), with a hand-over screen between
// turns; watching, both seats are the computer. Seat numbers are the
// protocol's own: the bottom of the table is the view's "seat".
//
// Test mode (?test=1) adds window.__test (see tests/browser/README.md) and
// records every message from the worker; ?fast=1 (with test=1) removes all
// pauses and animations; ?snapshot=0 boots without the memory snapshot.
//
// Every word on the page comes from i18n.js (web/i18n/<language>.json); the
// language and the card pattern are settings (settings.js).

import { documentParsed, engineWorkerUrl, showBootFailure } from "./boot.js";
import { cardLabel, DECK_STYLES, installCardSprites, setDeckStyle, suitName } from "./table/cards.js";
import { mountRulesEditor, overridesFor, saveCustomRules } from "./screens/custom-rules.js";
import { EngineClient } from "./engine/engine-client.js";
import { has, LANGUAGES, localize, missingKeys, setLanguage, t } from "./platform/i18n.js";
import { decorate, installKeyboard, renderKeyHelp, setShortcutsOn, shortcutsOn } from "./table/keyboard.js";
import { clearLog, describeTurn, narrate, narrateGame, say } from "./table/narrate.js";
import { linkManifest, registerServiceWorker } from "./platform/pwa.js";
import {
  DEALERS,
  dealerArgument,
  deckOf,
  DEFAULTS,
  languageOf,
  LEVELS,
  loadSettings,
  POINTS_MODES,
  pointsMode,
  saveSettings,
} from "./screens/settings.js";
import { beginGame, loadStats, noteAssistance, noteFinishedDeal } from "./platform/stats.js";
import { eventSound, installSound, setSoundOn, soundOn, soundStats } from "./table/sound.js";
import { backElement, fillSelect, flip, presetName, queryDom, render, snapshotRects, sweep } from "./table/table.js";
import { renderAssist, showHint } from "./table/assist.js";
import { curtain, hideHandover, showHandover } from "./table/handover.js";
import { fillModeSettings, readModeSettings } from "./screens/mode-settings.js";
import { loadPreferences, newSeating, PLAIN_SEATING, savePreferences, seatNames, SPEED_MS } from "./screens/modes.js";
import { nameSeats } from "./table/names.js";
import { exportRecord, importRecord, resultButtons } from "./screens/records.js";
import { openReview } from "./screens/review.js";
import { renderWatchBar } from "./table/watch-bar.js";

const params = new URLSearchParams(window.location.search);
const TEST = params.get("test") === "1";
const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

function timing() {
  if (TEST && params.get("fast") === "1") return { think: 0, move: 0, trick: 0, draw: 0, notice: 0 };
  if (reducedMotion.matches) return { think: 350, move: 0, trick: 700, draw: 0, notice: 800 };
  return { think: 650, move: 320, trick: 900, draw: 160, notice: 1100 };
}

const pause = (ms) => (ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve());
const clone = (value) => structuredClone(value);

// boot.js imports this module as soon as the worker is started, which may be
// before the document is parsed.
await documentParsed();

const dom = queryDom();
const state = {
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
const testLog = [];

// ------------------------------------------------------------------ drawing

function ready() {
  return state.booted && !state.busy && state.aiTimer === null && (state.view !== null || state.handover !== null);
}

/** The selector of the table control that has the keyboard focus, to give it back after a redraw. */
function focusedControl() {
  const active = document.activeElement;
  if (!active || !dom.root.contains(active)) return null;
  if (active.dataset.card) {
    state.focusIndex = Math.max(0, [...dom.myHand.children].indexOf(active));
    return `button[data-card="${active.dataset.card}"]`;
  }
  if (active.dataset.action) return `button[data-action="${active.dataset.action}"]`;
  return null;
}

/** Give the focus back to the same control, or the first one you can use, once there is one. */
function refocus(selector) {
  const active = document.activeElement;
  if (!selector || (active && active !== document.body)) {
    if (active && active !== document.body && !dom.root.contains(active)) state.focus = null;
    return;
  }
  const target = dom.root.querySelector(`${selector}:not(:disabled)`) || nextFocus();
  if (target) target.focus({ preventScroll: true });
  state.focus = target ? null : selector;
}

/** Where the focus goes when its control is gone: the result's buttons, else the card you may play nearest to where you were, else an action. */
function nextFocus() {
  if (state.model && state.model.deal_result) return dom.result.querySelector("button");
  const legal = [...dom.myHand.querySelectorAll("button.legal")];
  const nearest = legal.sort(
    (a, b) => Math.abs(cardIndex(a) - state.focusIndex) - Math.abs(cardIndex(b) - state.focusIndex),
  )[0];
  return nearest || dom.actions.querySelector("button");
}

function cardIndex(node) {
  return [...dom.myHand.children].indexOf(node);
}

function draw() {
  applyNames();
  if (state.handover) clearLog(); // the next player must not read the last one's cards
  if (state.model) {
    const focused = focusedControl() || state.focus;
    const covered = state.handover !== null;
    render(dom, covered ? curtain(state.model) : state.model, {
      pointsMode: covered ? "hide" : pointsMode(state.settings, state.model.rules),
      interactive: state.booted && !state.busy && !covered,
      thinking: state.thinking,
      message: state.message || modeStatus(),
    });
    decorateModes();
    decorate(dom.root, dom.myHand);
    refocus(focused);
  } else if (state.handover) {
    blankTable();
    decorateModes();
  }
  if (state.tutorial && ready()) state.tutorial.update(state.view);
  dom.root.dataset.ready = ready() ? "1" : "0";
  dom.root.dataset.step = String(state.steps);
  dom.root.dataset.points = state.settings.points;
}

/** Where a card that just appeared comes from, for the flip animation. */
function originOf(node) {
  if (dom.trick.contains(node) && node.classList.contains("from-opponent")) return dom.oppHand.getBoundingClientRect();
  if (dom.myHand.contains(node) || dom.oppHand.contains(node)) return dom.stock.getBoundingClientRect();
  return null;
}

async function show(model) {
  const { move } = timing();
  const before = move ? snapshotRects(dom.root) : null;
  state.model = model;
  draw();
  if (before) await flip(dom.root, before, move, originOf);
}

function announce(text) {
  state.message = text;
  dom.status.textContent = text;
}

function notify(text) {
  document.getElementById("notice-text").textContent = text;
  document.getElementById("notice").hidden = !text;
}

// ------------------------------------------------------- event animation

/** Animate the table through ``frames`` (each event with the view after it), then show ``view`` (if any). */
async function playFrames(frames, view) {
  const pace = timing();
  for (const { event, view: frame } of frames) {
    const me = frame.seat;
    const theirs = event.seat !== undefined && event.seat !== me;
    narrate(event, frame);
    eventSound(event, me);
    switch (event.type) {
      case "play":
        await show(clone(frame));
        break;
      case "trick":
        await pause(pace.trick);
        await sweep(dom.trick.querySelectorAll(".card"), event.winner === me ? dom.myPile : dom.oppPile, pace.move);
        await show(clone(frame));
        break;
      case "draw":
        await show(clone(frame));
        await pause(pace.draw);
        break;
      case "marriage":
        if (theirs) {
          announce(t("event.marriage.opp", { points: event.points, suit: suitName(event.suit) }));
          await show(clone(frame));
          await pause(pace.notice);
        }
        break;
      case "exchange":
      case "close":
        if (theirs) announce(t(event.type === "close" ? "event.close.opp" : "event.exchange.opp"));
        await show(clone(frame));
        if (theirs) await pause(pace.notice);
        break;
      case "claim":
      case "resign":
      case "pass":
        if (theirs) {
          const key = { claim: event.valid ? "event.claim.opp" : "event.wrongClaim.opp", resign: "event.resign.opp", pass: "event.pass.opp" };
          announce(t(key[event.type]));
          draw();
          await pause(pace.notice);
        }
        break;
      default:
        break;
    }
  }
  state.message = "";
  if (view) {
    state.view = view;
    await show(clone(view));
  }
}

// ------------------------------------------------------------- game loop

function cancelAi() {
  if (state.aiTimer !== null) {
    clearTimeout(state.aiTimer);
    state.aiTimer = null;
  }
  state.thinking = false;
}

/** What happens next once nothing is running: the computer's move, or wait for you. */
function proceed() {
  const view = state.view;
  if (state.meta.mode === "watch") {
    scheduleWatch();
  } else if (state.meta.mode === "computer" && view && state.may.computer_move) {
    state.thinking = true;
    // While you may still claim out of turn, give you time to do it before the computer moves.
    const { think } = timing();
    const wait = view.legal.includes("claim") && think > 0 ? Math.max(think, 1500) : 0;
    state.aiTimer = setTimeout(() => {
      state.aiTimer = null;
      run(computerMove);
    }, wait);
  }
  draw();
  // Your turn: say what you are to do (the status line's words).
  if (view && !state.handover && view.to_act === view.seat && !view.deal_result) say(dom.status.textContent);
}

/** Run one step of the game; nothing else runs meanwhile. */
async function run(task) {
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

/** Only games against the computer count in the statistics (not two people, nor the computer against itself). */
function countsInStats() {
  return state.meta.mode === "computer";
}

/** Count a finished deal (and match) against the computer in the statistics, once. */
function recordStats(view = state.view) {
  if (countsInStats()) noteFinishedDeal(view, { level: state.settings.level, presets: state.presets });
}

/** An undo or a hint: the match in play will count in the totals but not in the rating. */
function noteHelpTaken() {
  if (countsInStats()) noteAssistance();
}

/** An error's details for a notice (the engine's own messages are technical and stay in English). */
function errorText(error) {
  return error && error.code === "timeout" ? t("error.timeout") : String((error && error.message) || error);
}

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

/** The computer's move at whichever seat has one (watching: at that seat's level). */
function computerRequest() {
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

/** Act for the seat at the bottom, or (``seat``: two players) claim for the other one. */
function perform(action, seat = state.seat) {
  if (!state.booted || state.busy || !state.view || state.handover || state.meta.mode === "watch") return;
  if (seat === state.seat && !state.view.legal.includes(action)) return;
  state.tutorial?.acted(action);
  cancelAi();
  state.hint = null;
  run(async () => playTableAnswer(await ask({ cmd: "table_act", table: state.game, seat, action })));
}

/** Start a game; ``counted``: false for one that the statistics leave out (the tutorial). */
async function startGame(options, { animate = true, counted = true } = {}) {
  if (counted) state.tutorial?.end();
  const seating = newSeating(state.prefs, state.settings.level);
  const preset = options.preset ?? state.settings.preset;
  const request = { cmd: "table_new", preset, rules: overridesFor(preset), seating, ...options };
  let answer;
  try {
    answer = await ask(request);
  } catch (error) {
    if (error.code === "bad_rules" && !options.rules) {
      // Custom rules that the engine no longer accepts: play the preset as it is, and say so.
      saveCustomRules(preset, {});
      notify(t("custom.dropped"));
      answer = await ask({ ...request, rules: {} });
    } else if (error.code === "unknown_preset") {
      state.settings = saveSettings({ ...state.settings, preset: DEFAULTS.preset });
      answer = await ask({ ...request, preset: DEFAULTS.preset, rules: {} });
    } else {
      throw error;
    }
  }
  state.game = answer.table;
  state.gameStart = state.steps;
  beginGame({ counted });
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

function newGame(options = {}) {
  if (!state.booted) return Promise.resolve();
  cancelAi();
  const dealer = dealerArgument(state.settings);
  return run(() => startGame({ ...(dealer === undefined ? {} : { dealer }), ...options }));
}

// ------------------------------------------------------------------ modes

/** One request to the engine's table (through the worker). */
function ask(payload, options) {
  return state.client.request(payload, options);
}

/** Take on what a table's answer shows: its seating and rights, and a view or (two players) the hand-over screen. */
function adoptTable(answer) {
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

/** Animate a table's answer to a move, then take on what it shows next. */
async function playTableAnswer(answer) {
  await playFrames(answer.frames || [], answer.view);
  adoptTable(answer);
}

function namesOfSeats() {
  return seatNames(state.meta);
}

/** Speak of the seats by name (two players, watching): the bottom one is state.seat. */
function applyNames() {
  const names = namesOfSeats();
  nameSeats(names ? { me: names[state.seat], opp: names[1 - state.seat] } : null);
}

/** "I am <name>, show my hand": that player's view, asked for only now. */
function takeOver() {
  if (!state.handover || state.busy) return;
  const seat = state.handover.seat;
  state.hint = null;
  run(async () => {
    const answer = await ask({ cmd: "table_take", table: state.game, seat });
    adoptTable(answer);
    state.message = "";
    await show(clone(answer.view));
    say(describeTurn(answer.view));
  });
}

/** Two players: the player handing over the device claims 66 from the hand-over screen. */
function claimWhileHandingOver() {
  if (!state.handover || state.busy || state.handover.claimSeat === null) return;
  const seat = state.handover.claimSeat;
  state.handover = null;
  hideHandover();
  run(async () => playTableAnswer(await ask({ cmd: "table_act", table: state.game, seat, action: "claim" })));
}

/** Watching: the next computer move after the speed's pause, unless paused or over. */
function scheduleWatch() {
  const view = state.view;
  if (state.paused || !view || view.game_over || state.aiTimer !== null || state.busy) return;
  state.aiTimer = setTimeout(() => {
    state.aiTimer = null;
    run(watchMove);
  }, SPEED_MS[state.prefs.speed]);
}

async function watchMove() {
  if (!state.may.computer_move) return;
  await playTableAnswer(await ask(computerRequest(), { timeoutMs: COMPUTER_TIMEOUT_MS }));
}

function undo() {
  if (!state.booted || state.busy || !state.view || !state.may.undo) return;
  cancelAi();
  state.hint = null;
  run(async () => {
    const answer = await ask({ cmd: "table_undo", table: state.game });
    noteHelpTaken();
    adoptTable(answer);
    state.message = "";
    await show(clone(answer.view));
  });
}

function hint() {
  if (!state.booted || state.busy || !state.view || !state.may.hint) return;
  cancelAi();
  run(async () => {
    const answer = await ask({ cmd: "table_hint", table: state.game });
    noteHelpTaken();
    const best = answer.ranking.find((entry) => state.view.legal.includes(entry.action));
    state.hint = best ? { action: best.action, value: best.value } : null;
  });
}

const lastExport = { text: null };

async function onExport() {
  try {
    lastExport.text = await exportRecord(state.client, state.game);
  } catch (error) {
    notify(error.code === "nothing_finished" ? t("modes.export.none") : t("notice.error", { detail: errorText(error) }));
  }
}

function onReview() {
  if (state.meta.mode === "watch" && !state.paused) {
    state.paused = true; // the computer waits while you look back
    cancelAi();
    draw();
  }
  openReview({ client: state.client, game: state.game, meta: state.meta, onError: notify });
}

/** A record file chosen in the settings: its review, or why not (the game in play is never touched). */
async function onImportFile(event) {
  const input = event.target;
  const file = input.files && input.files[0];
  input.value = "";
  const error = document.getElementById("import-error");
  error.hidden = true;
  if (!file || !state.booted) return;
  const opened = await importRecord(state.client, file);
  if (opened.error) {
    error.textContent = opened.error;
    error.hidden = false;
    return;
  }
  document.getElementById("settings-dialog").close();
  await openReview({ client: state.client, ...opened, imported: true, onError: notify });
}

function onControl(control) {
  if (control === "show-hand") takeOver();
  else if (control === "handover-claim") claimWhileHandingOver();
  else if (control === "other-claim") perform("claim", 1 - state.seat);
  else if (control === "undo") undo();
  else if (control === "hint") hint();
  else if (control === "pause") {
    state.paused = !state.paused;
    cancelAi();
    proceed();
  } else if (control === "step") {
    if (state.paused && !state.busy) {
      cancelAi();
      run(watchMove);
    }
  } else if (control === "review") onReview();
  else if (control === "export") onExport();
}

function onSpeed(event) {
  state.prefs = savePreferences({ ...state.prefs, speed: event.target.value });
  cancelAi();
  proceed();
}

/** The status line while watching: whose move it is, by name. */
function modeStatus() {
  const view = state.model;
  if (state.meta.mode !== "watch" || !view || view.deal_result || view.to_act === null) return "";
  return t("modes.named.turn", { name: namesOfSeats()[view.to_act] });
}

/** Two players: while the device changes hands the table shows nothing of either hand. */
function blankTable() {
  for (const node of [dom.myHand, dom.oppHand, dom.trick, dom.actions, dom.result, dom.lastTrick, dom.myTricks]) {
    node.replaceChildren();
  }
  dom.result.hidden = true;
  dom.matchScore.replaceChildren();
  placeholderTable();
}

/** What the modes add to the drawn table: the hand-over screen, undo and hint, the watching controls, the result's buttons. */
function decorateModes() {
  const meta = state.meta;
  const view = state.view;
  const names = namesOfSeats();
  dom.root.dataset.mode = meta.mode;
  dom.root.dataset.seat = String(state.seat);
  dom.root.dataset.ranked = meta.ranked ? "1" : "0";
  if (state.handover) {
    const { seat, claimSeat } = state.handover;
    dom.root.dataset.handoverSeat = String(seat);
    showHandover({ next: names ? names[seat] : "", claimBy: claimSeat === null ? null : names[claimSeat] });
  } else {
    delete dom.root.dataset.handoverSeat;
    hideHandover();
  }
  const idle = state.booted && !state.busy && !state.handover && view !== null;
  const playing = view && !view.deal_result;
  const over = Boolean(view && view.deal_result);
  renderAssist({
    undo: { shown: meta.mode === "computer" && meta.assisted && !over, enabled: idle && Boolean(state.may.undo) },
    hint: { shown: meta.assisted && !over, enabled: idle && Boolean(state.may.hint) },
    claimFor: idle && state.may.claim_for_other ? names[1 - state.seat] : null,
    busy: !idle,
    ranked: meta.ranked,
  });
  showHint(state.hint, view);
  renderWatchBar({
    shown: meta.mode === "watch",
    speed: state.prefs.speed,
    paused: state.paused,
    canStep: !state.busy && Boolean(view) && !view.game_over,
  });
  resultButtons(dom.result, { shown: Boolean(view && view.deal_result) && state.booted && !state.busy });
}

// ------------------------------------------------------------------- input

function onTableClick(event) {
  const target = event.target.closest("button");
  if (!target || !dom.root.contains(target) || target.disabled) return;
  if (target.getAttribute("aria-disabled") === "true") {
    if (target.dataset.card) refuse("card", target.dataset.card);
    return;
  }
  if (suppressClick) {
    suppressClick = false;
    return;
  }
  if (target.dataset.control) {
    onControl(target.dataset.control);
  } else if (target.dataset.card && dom.myHand.contains(target)) {
    perform(`play:${target.dataset.card}`);
  } else if (target.dataset.action === "new-game") {
    newGame();
  } else if (target.dataset.action) {
    perform(target.dataset.action);
  }
}

/** Say why a key or a card did nothing: "card" (that card may not be played now) or "key". */
function refuse(reason, card) {
  say(reason === "card" ? t("a11y.say.notPlayable", { card: cardLabel(card) }) : t("a11y.say.unavailable"));
}

/** What the keyboard may do (keyboard.js): the actions you may take now, and how to take them. */
const keyboardGame = {
  legal: () => (state.booted && !state.busy && !state.handover && state.view ? state.view.legal : []),
  perform,
  focusAction: (action) => dom.root.querySelector(`button[data-action="${action}"]`)?.focus(),
  newGame: () => {
    if (!ready() || !dom.result.querySelector('[data-action="new-game"]')) return false;
    newGame();
    return true;
  },
  refuse,
};

// Dragging a card to the table (mouse only; touch and keyboard use a tap or Enter).
let drag = null;
let suppressClick = false;

function onPointerDown(event) {
  if (event.pointerType !== "mouse" || event.button !== 0) return;
  const card = event.target.closest("#my-hand .card.legal");
  if (!card || card.disabled) return;
  drag = { card, x: event.clientX, y: event.clientY, moved: false, id: event.pointerId };
}

function onPointerMove(event) {
  if (!drag || event.pointerId !== drag.id) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (!drag.moved && Math.hypot(dx, dy) < 6) return;
  if (!drag.moved) {
    drag.moved = true;
    drag.card.classList.add("dragging");
    drag.card.setPointerCapture(event.pointerId);
  }
  drag.card.style.setProperty("translate", `${dx}px ${dy}px`);
  dom.trick.classList.toggle("drop-target", overTrick(event));
}

function overTrick(event) {
  const box = dom.trick.getBoundingClientRect();
  const margin = 30;
  return (
    event.clientX > box.left - margin &&
    event.clientX < box.right + margin &&
    event.clientY > box.top - margin &&
    event.clientY < box.bottom + margin
  );
}

function onPointerUp(event) {
  if (!drag || event.pointerId !== drag.id) return;
  const { card, moved } = drag;
  drag = null;
  dom.trick.classList.remove("drop-target");
  if (!moved) return;
  suppressClick = true;
  setTimeout(() => {
    suppressClick = false;
  }, 0);
  card.classList.remove("dragging");
  if (overTrick(event)) {
    card.style.removeProperty("translate");
    perform(`play:${card.dataset.card}`);
  } else {
    card.style.removeProperty("translate");
  }
}

// ---------------------------------------------------------------- settings

/** The engine's rules parameters (asked for once, when first needed). */
function ruleParameters() {
  state.parameters ??= state.client.request({ cmd: "rules" }).then((answer) => answer.parameters);
  state.parameters.catch(() => {
    state.parameters = null;
  });
  return state.parameters;
}

/** Null if the engine accepts these rules, else its bad_rules detail ({reason, values}). */
async function checkRules(preset, rules) {
  try {
    await state.client.request({ cmd: "check_rules", preset, rules });
    return null;
  } catch (error) {
    return error.detail || { reason: "other" };
  }
}

/** The custom-rules editor of the settings, for the preset chosen there. */
async function mountEditor(dialog) {
  const body = document.getElementById("custom-rules-body");
  const buttons = dialog.querySelectorAll("button[type='submit']");
  const onValidity = (valid) => {
    for (const button of buttons) button.disabled = !valid;
  };
  let parameters;
  try {
    parameters = await ruleParameters();
  } catch {
    body.replaceChildren(); // no engine: nothing to edit
    return;
  }
  const preset = document.getElementById("setting-preset").value;
  state.rulesEditor = mountRulesEditor(body, {
    presets: state.presets,
    parameters,
    preset,
    overrides: overridesFor(preset),
    check: checkRules,
    onValidity,
  });
}

function openSettings(focusNewGame = false) {
  const s = state.settings;
  const presets = state.presets.length
    ? state.presets.map((p) => [p.id, presetName(p)])
    : [[s.preset, t("settings.loadingRules")]];
  const dialog = document.getElementById("settings-dialog");
  dialog.dataset.shownLanguage = languageOf(s);
  dialog.dataset.shownDeck = deckOf(s, dialog.dataset.shownLanguage);
  fillSelect(
    document.getElementById("setting-language"),
    LANGUAGES.map((code) => [code, t(`lang.${code}`)]),
    dialog.dataset.shownLanguage,
  );
  fillSelect(
    document.getElementById("setting-deck"),
    DECK_STYLES.map((style) => [style, t(`deck.${style}`)]),
    dialog.dataset.shownDeck,
  );
  fillSelect(document.getElementById("setting-preset"), presets, s.preset);
  fillSelect(document.getElementById("setting-level"), LEVELS.map((level) => [level, t(`level.${level}`)]), s.level);
  fillSelect(document.getElementById("setting-dealer"), DEALERS.map((key) => [key, t(`dealer.${key}`)]), s.dealer);
  fillSelect(document.getElementById("setting-points"), POINTS_MODES.map((key) => [key, t(`points.${key}`)]), s.points);
  fillModeSettings(state.prefs);
  document.getElementById("import-error").hidden = true;
  document.getElementById("setting-sound").checked = soundOn();
  document.getElementById("setting-shortcuts").checked = shortcutsOn();
  renderKeyHelp(document.getElementById("keys-list"));
  dialog.returnValue = "";
  state.rulesEditor = null;
  for (const button of dialog.querySelectorAll("button[type='submit']")) button.disabled = false;
  document.getElementById("custom-rules").open = Object.keys(overridesFor(s.preset)).length > 0;
  if (state.booted) mountEditor(dialog);
  dialog.showModal();
  if (focusNewGame) dialog.querySelector('[data-action="settings-new-game"]').focus();
}

async function onSettingsClosed() {
  const dialog = document.getElementById("settings-dialog");
  if (dialog.returnValue !== "save" && dialog.returnValue !== "new") return;
  const form = document.getElementById("settings-form");
  const data = new FormData(form);
  if (state.rulesEditor) saveCustomRules(String(data.get("preset")), state.rulesEditor.overrides());
  const language = String(data.get("language"));
  const deck = String(data.get("deck"));
  state.settings = saveSettings({
    preset: String(data.get("preset")),
    level: Number(data.get("level")),
    dealer: String(data.get("dealer")),
    points: String(data.get("points")),
    // Language and pattern stay "not chosen" (the browser's language, its usual pattern) until changed here.
    language: language === dialog.dataset.shownLanguage ? state.settings.language : language,
    deck: deck === dialog.dataset.shownDeck ? state.settings.deck : deck,
  });
  state.prefs = savePreferences(readModeSettings(data, state.prefs));
  setSoundOn(data.get("sound") === "on");
  setShortcutsOn(data.get("shortcuts") === "on");
  await applyLanguageAndDeck();
  if (dialog.returnValue === "new") newGame();
  else draw();
}

/** Show the page in the language and card pattern of the settings. */
async function applyLanguageAndDeck() {
  let language = languageOf(state.settings);
  try {
    language = await setLanguage(language);
  } catch (error) {
    console.warn("The translations could not be loaded:", error);
  }
  setDeckStyle(deckOf(state.settings, language));
  dom.root.dataset.deck = deckOf(state.settings, language);
  localize();
  if (state.progress) bootProgress(state.progress);
  if (state.failure) bootFailed(state.failure);
  if (state.model) draw();
  else placeholderTable();
}

// -------------------------------------------------------------------- help

/** The help dialog (loaded on first use: it is not needed to start playing). */
async function showHelp() {
  const { openHelp } = await import("./screens/help.js");
  openHelp({
    rules: state.view ? state.view.rules : null,
    presets: state.presets,
    parameters: ruleParameters,
    // Importing or resetting the local data starts the page afresh from it; a reset also drops the saved game.
    onTutorial: startTutorial,
    onImported: () => window.location.reload(),
    onReset: async () => {
      cancelAi();
      if (state.game) await state.client.request({ cmd: "table_close", table: state.game }).catch(() => {});
      window.location.reload();
    },
  });
}

/** Deal the tutorial's deal against the computer and guide it (it does not count in the statistics). */
async function startTutorial() {
  if (!state.booted) return;
  const { createTutorial, TUTORIAL_GAME } = await import("./screens/tutorial.js");
  state.tutorial?.end();
  cancelAi();
  await run(() => startGame({ ...TUTORIAL_GAME, seating: { ...PLAIN_SEATING } }, { counted: false }));
  state.tutorial = createTutorial({
    anchor: dom.status,
    root: dom.root,
    onEnd: () => {
      state.tutorial = null;
    },
  });
  draw();
}

/** On the first visit, offer the tutorial (tests: only with ?tutorial=offer). */
async function maybeOfferTutorial() {
  if (TEST && params.get("tutorial") !== "offer") return;
  const { offerTutorial, tutorialSeen } = await import("./screens/tutorial.js");
  if (!tutorialSeen()) offerTutorial(startTutorial);
}

// -------------------------------------------------------------------- boot

/** Show how far the boot is: {stage, fraction} (the worker's stages have keys "boot.stage.<stage>"). */
function bootProgress(progress) {
  state.progress = progress;
  const key = `boot.stage.${progress.stage}`;
  document.getElementById("boot-label").textContent = has(key) ? t(key) : t("boot.loading");
  document.getElementById("boot-bar").style.setProperty("--progress", String(progress.fraction));
}

/** The boot failed: {key, detail?} says why in words, and the technical detail (as it came) beneath. */
function bootFailed(failure) {
  state.failure = failure;
  const message = [t(failure.key)];
  if (failure.detail) {
    const detail = document.createElement("small");
    detail.className = "boot-detail";
    detail.textContent = failure.detail;
    message.push(detail);
  }
  showBootFailure(t("boot.failed"), ...message);
}

function placeholderTable() {
  dom.stock.replaceChildren(backElement(null, "talon"));
  dom.oppHand.replaceChildren(...Array.from({ length: 5 }, () => backElement(null)));
  dom.oppHand.style.setProperty("--n", "5");
}

function wasmSupported() {
  try {
    const module = new WebAssembly.Module(Uint8Array.of(0, 97, 115, 109, 1, 0, 0, 0));
    return module instanceof WebAssembly.Module;
  } catch {
    return false;
  }
}

function installTestHooks() {
  window.__test = {
    messages: testLog,
    view: () => clone(state.view),
    settings: () => clone(state.settings),
    /** The statistics as stored (stats.js, schema 2). */
    stats: () => loadStats(),
    /** Translation keys the page asked for that its language lacks (none, if all is well). */
    missingKeys: () => missingKeys(),
    /** What the sound module scheduled and dropped, and its switch (sound.js). */
    sounds: () => soundStats(),
    ready: () => ready(),
    /** The worker's handle of the game in play. */
    game: () => state.game,
    /** The mode of the game in play ({mode, ranked, names, levels}) and the seat at the bottom. */
    meta: () => ({ ...clone(state.meta), seat: state.seat }),
    /** What the table allows now: {undo, hint, claim_for_other, computer_move}. */
    may: () => clone(state.may),
    /** The next new game's mode: {mode, ranked, names, watchLevel, speed} (merged into the preferences). */
    setPreferences: (prefs) => {
      state.prefs = savePreferences({ ...state.prefs, ...prefs });
      draw();
    },
    /** The text of the last record file the page made (export), or null. */
    exported: () => lastExport.text,
    /** Start a game with fixed cards: {preset, seed, deck, dealer, match}. Resolves when it is shown. */
    newGame: (options) => newGame(options),
    /** Send one raw protocol request through the worker: {ok, result} or {ok: false, code, message}. */
    request: (payload) =>
      state.client.request(payload).then(
        (result) => ({ ok: true, result }),
        (error) => ({ ok: false, code: error.code, message: error.message }),
      ),
  };
}

async function main() {
  installCardSprites();
  setDeckStyle(deckOf(state.settings, languageOf(state.settings)));
  placeholderTable();
  // The words load while the engine boots.
  const translated = applyLanguageAndDeck();
  if (TEST) installTestHooks();
  installSound();
  installKeyboard({ hand: dom.myHand, game: keyboardGame });
  dom.root.addEventListener("click", onTableClick);
  dom.root.addEventListener("pointerdown", onPointerDown);
  dom.root.addEventListener("pointermove", onPointerMove);
  dom.root.addEventListener("pointerup", onPointerUp);
  dom.root.addEventListener("pointercancel", onPointerUp);
  document.getElementById("open-settings").addEventListener("click", () => openSettings());
  document.getElementById("new-game").addEventListener("click", () => openSettings(true));
  document.getElementById("settings-dialog").addEventListener("close", onSettingsClosed);
  document.getElementById("setting-preset").addEventListener("change", (event) => {
    state.rulesEditor?.setPreset(event.target.value, overridesFor(event.target.value));
  });
  document.getElementById("notice-close").addEventListener("click", () => notify(""));
  document.getElementById("open-help").addEventListener("click", showHelp);
  document.getElementById("watch-speed").addEventListener("change", onSpeed);
  document.getElementById("import-record").addEventListener("click", () => document.getElementById("import-file").click());
  document.getElementById("import-file").addEventListener("change", onImportFile);
  reducedMotion.addEventListener("change", draw);

  if (!wasmSupported()) {
    bootFailed({ key: "boot.noWasm" });
    return;
  }
  // boot.js has usually started this worker already; the client adopts it.
  state.client = new EngineClient(engineWorkerUrl(), {
    onProgress: bootProgress,
    onFatal: (message, key) => bootFailed(key ? { key } : { key: "boot.engineFailed", detail: message }),
    onMessage: TEST ? (message) => testLog.push(JSON.stringify(message)) : undefined,
    onNotice: (message) => {
      if (message.type === "snapshot") dom.root.dataset.snapshot = message.status;
      if (message.type === "warning") notify(t("notice.warning", { detail: message.message }));
    },
  });
  await translated;
  let info;
  try {
    info = await state.client.ready;
  } catch {
    return; // bootFailed has said why
  }
  dom.root.dataset.bootMode = info.mode;
  dom.root.dataset.build = info.build;
  bootProgress({ stage: "deal", fraction: 1 });
  state.busy = true;
  let restoredView = null;
  try {
    // The first table is drawn once, when it is playable, without the dealing
    // animation. The presets (for the settings, help and statistics) are
    // asked for after it.
    const saved = await state.client.resume();
    state.booted = true;
    if (saved.status === "restored") {
      state.game = saved.table;
      adoptTable(saved);
      restoredView = state.view;
      if (saved.view) state.model = clone(state.view);
      if (saved.view) narrateGame(state.view, true);
    } else {
      if (saved.status === "corrupt") {
        notify(t("notice.restoreFailed", { detail: saved.message }));
      }
      const dealer = dealerArgument(state.settings);
      await startGame(dealer === undefined ? {} : { dealer }, { animate: false });
    }
  } catch (error) {
    bootFailed({ key: "boot.gameFailed", detail: errorText(error) });
    return;
  }
  state.busy = false;
  dom.root.dataset.boot = "ready";
  proceed();
  maybeOfferTutorial();
  dom.root.dataset.bootMs = String(Math.round(performance.now()));
  linkManifest();
  try {
    state.presets = (await state.client.request({ cmd: "presets" })).presets;
  } catch (error) {
    notify(t("notice.warning", { detail: errorText(error) }));
  }
  // A restored game may have ended a deal: it is counted once the presets tell custom rules from a preset.
  if (restoredView) recordStats(restoredView);
  if (params.get("sw") !== "0") {
    registerServiceWorker({
      onReady: () => {
        dom.root.dataset.sw = "ready";
      },
      onUpdate: (apply) => {
        const banner = document.getElementById("update-banner");
        banner.hidden = false;
        document.getElementById("update-reload").onclick = apply;
      },
    }).catch((error) => {
      dom.root.dataset.sw = "failed";
      console.warn("Offline mode is not available:", error);
    });
  }
}

main();
