// @ts-check
// Solving a puzzle on the table. The game in play waits (the engine keeps
// it, the worker has it saved) while the table shows the puzzle's position
// from the side to solve, drawn and played as a deal is: the same cards,
// clicks, keys and animations. Every move goes to the engine
// (puzzle_move), which says whether it was right, plays the defence, or
// answers a wrong move with its refutation; the page draws and says it.
// The bar under the table holds the goal, the puzzle's themes and
// difficulty, and its buttons; the refutation and the solution open in a
// dialog (screens/puzzle-lines.js). Leaving shows the game again.
//
// The attempt is kept in this browser (platform/puzzle-progress.js): a
// reload, or a crash of the page, brings it back at the puzzle's position
// (resumePuzzle, called by the boot), the game staying saved under it. Each
// move is kept before it is sent and a result is recorded before it is
// drawn, so a reload can neither take a wrong move back nor give a fresh
// first attempt (docs/puzzles.md, "A reload").

import { t, tp } from "../platform/i18n.js";
import { clearAttempt, loadProgress, localDate, saveAttempt, saveProgress } from "../platform/puzzle-progress.js";
import { confirmStep } from "../screens/confirm.js";
import { copyLink, linkUrl } from "../screens/links.js";
import { showLines } from "../screens/puzzle-lines.js";
import {
  difficultyWords,
  goalWords,
  loadCatalogue,
  nextPuzzle,
  openPuzzles,
  puzzleNumber,
  themeWords,
} from "../screens/puzzles.js";
import { hideHandover } from "../table/handover.js";
import { clearLog, narrateGame, say } from "../table/narrate.js";
import { cardElement, h, presetName } from "../table/table.js";
import { draw, notify, show } from "./draw.js";
import { playFrames } from "./frames.js";
import { adoptTable, ask, cancelAi, errorText, run } from "./loop.js";
import { clone, dom, params, state, TEST } from "./state.js";

/** @import { EngineClient, EngineError } from "../engine/engine-client.js" */
/**
 * @import { Card, PuzzleAnswer, PuzzleEntry, PuzzleRated, PuzzleRecordAnswer, PuzzleSolution, Refutation,
 *   Seating } from "../../types/engine.js"
 */
/** @import { StoredAttempt } from "../platform/puzzle-progress.js" */
/** @import { PuzzleHooks } from "./state.js" */
/**
 * The attempt on the table. ``daily``: the date whose daily puzzle it is (null: not a daily puzzle); ``sent``:
 * the moves sent in it whose result is not recorded yet; ``resumed``: how the attempt before a reload stood, if
 * this one replaces it.
 * @typedef {{
 *   handle: string,
 *   entry: PuzzleEntry,
 *   status: "playing" | "solved" | "failed" | "shown",
 *   daily: string | null,
 *   sent: string[],
 *   resumed: string | null,
 *   moves: number,
 *   loss: number | null,
 *   wrong: string | null,
 *   refutation: Refutation | null,
 *   solution: PuzzleSolution | null,
 *   rated: PuzzleRated | null,
 *   first: boolean,
 *   message: string,
 * }} Attempt
 */

/**
 * The table's seating while a puzzle is on it: nobody's statistics, no undo, no hints. Its mode is the page's
 * own, none of the engine's (Seating["mode"]): no check of a mode takes it for a game's.
 */
const PUZZLE_SEATING = /** @type {Seating} */ (
  /** @type {unknown} */ ({
    mode: "puzzle",
    ranked: false,
    names: null,
    levels: null,
    assisted: false,
  })
);

/** @type {Attempt | null} */
let attempt = null;

/** The player's date: the daily puzzle's (test mode may fix it: ?today=YYYY-MM-DD). */
export function today() {
  const fixed = params.get("today");
  if (TEST && fixed && /^\d{4}-\d{2}-\d{2}$/.test(fixed)) return fixed;
  return localDate();
}

function client() {
  return /** @type {EngineClient} */ (state.client);
}

/**
 * An element of the puzzle bar (index.html has them all, hence the cast).
 * @param {string} id
 */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

// ------------------------------------------------------------------ the bar

/** Draw the puzzle bar as the attempt stands. */
function renderBar() {
  const bar = $("puzzle-bar");
  if (!attempt) {
    bar.hidden = true;
    delete dom.root.dataset.puzzle;
    delete dom.root.dataset.puzzleState;
    delete dom.root.dataset.puzzleFirst;
    delete bar.dataset.resumed;
    return;
  }
  const { entry, status } = attempt;
  bar.hidden = false;
  dom.root.dataset.puzzle = entry.id;
  dom.root.dataset.puzzleState = status;
  dom.root.dataset.puzzleFirst = attempt.first ? "1" : "0";
  if (attempt.resumed) bar.dataset.resumed = attempt.resumed;
  else delete bar.dataset.resumed;
  const number = puzzleNumber(entry.id);
  const title = [
    attempt.daily !== null ? t("puzzles.daily.title") : t("puzzles.number", { n: number }),
    presetName({ id: entry.preset, name: entry.preset }),
  ].join(" · ");
  $("puzzle-title").textContent = title;
  $("puzzle-goal").textContent = goalWords(entry.goal);
  $("puzzle-about").textContent = [
    themeWords(entry.themes),
    difficultyWords(entry),
    entry.kind === "double_dummy" ? t("puzzles.kind.double_dummy") : t("puzzles.kind.hidden"),
  ].join(" · ");
  $("puzzle-message").textContent = attempt.message;
  const over = status !== "playing";
  // Beside "More", the buttons that fit the moment, the main one first: none while you play (your cards are the
  // way on), the next puzzle once it is solved or shown, another try after a miss.
  const main = status === "failed" ? "puzzle-retry" : over ? "puzzle-next" : null;
  showButton("puzzle-next", over, main);
  showButton("puzzle-retry", status === "failed" || status === "shown", main);
  showButton("puzzle-solution", status === "solved", main);
  $("puzzle-solution").textContent = t("puzzles.solution.show");
  // In "More": the rest.
  $("puzzle-give-up").textContent = over ? t("puzzles.solution.show") : t("puzzles.solution.giveUp");
  $("puzzle-give-up").hidden = status === "solved";
  $("puzzle-refutation").hidden = status !== "failed";
  $("puzzle-analysis").hidden = !over;
  drawTalon();
}

/**
 * Show or hide a button of the bar; ``main``: the id of the one drawn as the main button.
 * @param {string} id
 * @param {boolean} shown
 * @param {string | null} main
 */
function showButton(id, shown, main) {
  const button = $(id);
  button.hidden = !shown;
  button.classList.toggle("btn-primary", id === main);
}

/**
 * A double-dummy puzzle, and any once over, shows the face-down talon too (the view's talon_shown): in the bar, or on
 * a phone in "More" (the bar keeps its height).
 */
function drawTalon() {
  const talon = (attempt && state.view?.talon_shown) || [];
  for (const box of [$("puzzle-talon"), $("puzzle-more-talon")]) {
    box.hidden = talon.length === 0;
    box.replaceChildren(
      ...(talon.length ? [h("span", { class: "muted small", text: t("puzzles.talonShown") })] : []),
      ...talon.map((code) => cardMini(code)),
    );
  }
}

/** @param {string} code */
function cardMini(code) {
  return cardElement(/** @type {Card} */ (code), { key: null, classes: "mini" });
}

// ------------------------------------------------------------------ opening

/**
 * A new attempt, as the engine opened it.
 * @param {PuzzleAnswer} answer
 * @param {string | null} daily
 * @returns {Attempt}
 */
function newAttempt(answer, daily) {
  return {
    handle: answer.puzzle,
    entry: answer.entry,
    status: answer.state,
    daily,
    sent: [],
    resumed: null,
    moves: answer.moves,
    loss: null,
    wrong: null,
    refutation: null,
    solution: null,
    rated: null,
    first: answer.first ?? false, // the engine's: only a first attempt is rated
    message: t("puzzles.yourMove"),
  };
}

/**
 * Keep the attempt in this browser, as it stands (a reload brings it back).
 * @param {Attempt} here
 */
function keep(here) {
  saveAttempt({ id: here.entry.id, daily: here.daily, moves: here.sent });
}

/**
 * Put the engine's new attempt on the table.
 * @param {PuzzleAnswer} answer
 * @param {string | null} daily the date whose daily puzzle it is
 * @param {PuzzleHooks["game"]} game the game under the puzzle
 * @param {{resumed?: string, message?: string}} [how] an attempt that replaces the one before a reload: how that
 * one stood, and what to say
 */
async function take(answer, daily, game, how = {}) {
  const { view } = answer;
  installPuzzleBar();
  attempt = newAttempt(answer, daily);
  attempt.resumed = how.resumed ?? null;
  if (how.message) attempt.message = how.message;
  keep(attempt);
  state.puzzle = { perform, playing: () => attempt?.status === "playing", close: closeQuietly, game };
  state.meta = PUZZLE_SEATING;
  state.may = {};
  state.handover = null;
  hideHandover();
  state.hint = null;
  state.paused = false;
  state.message = "";
  state.view = view;
  state.seat = view.seat;
  clearLog();
  narrateGame(view);
  say(`${t("puzzles.announce", { goal: goalWords(attempt.entry.goal) })} ${themeWords(attempt.entry.themes)}.`);
  if (how.message) say(how.message);
  renderBar();
  // The cards played so far are part of what the side knows: both seats' tricks open in the side panel.
  for (const id of ["my-tricks-details", "opp-tricks-details"]) {
    /** @type {HTMLDetailsElement} */ (document.getElementById(id)).open = true;
  }
  if (how.resumed) {
    // The boot's first table, drawn once, without moving cards in (as the game's would be).
    state.model = clone(view);
    draw();
  } else {
    await show(clone(view));
  }
}

/**
 * Open puzzle ``id`` on the table (``daily``: as today's puzzle, or as the daily puzzle of that date).
 * @param {string} id
 * @param {boolean | string | null} [daily]
 */
export async function openPuzzle(id, daily = false) {
  if (!state.booted) return;
  if (state.meta.mode === "online") {
    notify(t("puzzles.notOnline"));
    return;
  }
  cancelAi();
  state.tutorial?.end();
  await loadCatalogue(client()).catch(() => null);
  // Today's puzzle counts as such however it is opened (the list, a link); trying a daily puzzle again keeps its day.
  const date = typeof daily === "string" ? daily : daily || (await dailyId()) === id ? today() : null;
  await run(async () => {
    let answer;
    try {
      answer = await ask({ cmd: "puzzle_open", puzzle_id: id, progress: loadProgress() });
    } catch (error) {
      const code = /** @type {EngineError} */ (error).code;
      dom.root.dataset.linkError = code;
      notify(code === "unknown_puzzle" ? t("puzzles.unknown") : t("puzzles.failed"));
      return;
    }
    const game = state.puzzle ? state.puzzle.game : { view: state.view, meta: state.meta };
    closeQuietly();
    await take(answer, date, game);
  });
  focusTable();
}

/** The engine replays the kept moves as it judged them when they were sent: no longer than those moves took then. */
const RESUME_TIMEOUT_MS = 30000;

/**
 * The attempt kept before a reload (or a crash of the page) comes back on the table at the puzzle's position, over
 * the game, which stays as it was saved (docs/puzzles.md, "A reload"). The engine checks what was kept
 * (puzzle_resume) and judges the moves sent whose result was not recorded: an attempt they ended is recorded now,
 * as it would have been, so the new one is a second attempt. What does not check leaves the game on the table,
 * with a notice saying why. The boot (game/start.js) calls this while the table is busy.
 * @param {StoredAttempt} kept
 */
export async function resumePuzzle(kept) {
  await loadCatalogue(client()).catch(() => null);
  let answer;
  try {
    answer = await ask(
      { cmd: "puzzle_resume", puzzle_id: kept.id, daily: kept.daily, moves: kept.moves, progress: loadProgress() },
      { timeoutMs: RESUME_TIMEOUT_MS },
    );
  } catch (error) {
    // Dropped whatever went wrong, so that the next reload does not meet it again.
    clearAttempt();
    const code = /** @type {EngineError} */ (error).code;
    const why = code === "unknown_puzzle" ? "unknown" : code === "bad_request" ? "damaged" : "failed";
    dom.root.dataset.puzzleDropped = why;
    if (why === "unknown") notify(t("puzzles.resume.unknown"));
    else if (why === "damaged") notify(t("puzzles.resume.damaged"));
    else notify(t("notice.error", { detail: errorText(error) }));
    return;
  }
  const { earlier, daily } = answer;
  /** @type {string[]} */
  const said = [];
  if (earlier.state !== "playing") {
    const solved = earlier.state === "solved";
    const before = newAttempt(answer, daily);
    said.push(solved ? t("puzzles.resume.solved") : t("puzzles.resume.failed"), ...(await record(before, solved)));
  }
  said.push(t("puzzles.resume.back"));
  // The engine's: an earlier attempt that was over is recorded above, so the new one is not the first.
  said.push(answer.first ? t("puzzles.resume.rated") : t("puzzles.notRated"));
  await take(
    answer,
    daily,
    { view: state.view, meta: state.meta },
    { resumed: earlier.state, message: said.join(" ") },
  );
}

/** Today's daily puzzle's id (null if the engine cannot say). */
async function dailyId() {
  try {
    return (await ask({ cmd: "puzzle_daily", date: today(), preset: state.settings.preset })).entry.id;
  } catch {
    return null;
  }
}

/** The focus goes to the first card you may play, else the bar. */
function focusTable() {
  const card = /** @type {HTMLElement | null} */ (dom.myHand.querySelector("button.legal"));
  if (card) card.focus();
  else focusBar();
}

/** Forget the attempt on the table (the engine's, and the one kept for a reload, too), without drawing anything. */
function closeQuietly() {
  if (!attempt) return;
  const handle = attempt.handle;
  attempt = null;
  state.puzzle = null;
  clearAttempt();
  ask({ cmd: "puzzle_close", puzzle: handle }).catch(() => {});
  renderBar();
}

// ------------------------------------------------------------------ moving

/**
 * The player's move (the table's input calls this instead of table_act while a puzzle is on it).
 * @param {string} action
 */
function perform(action) {
  const here = attempt;
  if (here?.status !== "playing") return;
  run(async () => {
    // Kept before it is sent: a reload while the engine judges it still counts it (resumePuzzle).
    here.sent = [...here.sent, action];
    keep(here);
    const answer = await ask({ cmd: "puzzle_move", puzzle: here.handle, action });
    if (attempt !== here) return;
    here.status = answer.state;
    here.moves = answer.moves;
    if (!answer.correct) {
      here.loss = answer.loss ?? 1;
      here.wrong = action;
      here.refutation = answer.refutation ?? null;
    }
    // A result is recorded before anything of it is drawn: once the player can see it, a reload keeps it.
    const solved = answer.state === "solved";
    const recorded = solved || !answer.correct ? await record(here, solved) : [];
    here.message = answer.correct ? t("puzzles.correct") : "";
    renderBar();
    await playFrames(answer.frames, answer.view);
    state.seat = answer.view.seat;
    if (!answer.correct) {
      tell(here, [tp("puzzles.wrong", here.loss ?? 1), ...recorded], false);
      renderBar();
      openRefutation();
      return;
    }
    if (solved) {
      tell(here, [t("puzzles.solved"), ...recorded], true);
      renderBar();
      // The next puzzle is one key away; the rest of the bar is around it.
      $("puzzle-next").focus();
    } else {
      say(t("puzzles.correct"));
      renderBar();
    }
  });
}

/**
 * The attempt is over: the engine records it in the player's progress (rated if it was the first attempt, the daily
 * run once a day) and the page keeps the answer (and, for a reload, a fresh attempt at the same puzzle: a reload now
 * opens a new one). Answers what to say about it after the result itself.
 * @param {Attempt} here
 * @param {boolean} solved
 * @returns {Promise<string[]>}
 */
async function record(here, solved) {
  /** @type {PuzzleRecordAnswer | null} */
  let recorded = null;
  try {
    recorded = await ask({
      cmd: "puzzle_record",
      puzzle_id: here.entry.id,
      solved,
      date: today(),
      daily: here.daily,
      progress: loadProgress(),
    });
  } catch {
    // not recorded: the progress stays as it was
  }
  if (recorded) saveProgress(recorded.progress);
  const rated = recorded?.rated ?? null;
  here.rated = rated;
  here.sent = [];
  if (attempt === here) keep(here);
  /** @type {string[]} */
  const parts = [];
  if (rated) {
    const change = Math.round(rated.change);
    parts.push(
      t("puzzles.rated", {
        rating: Math.round(rated.rating),
        change: change > 0 ? `+${change}` : change < 0 ? `−${-change}` : "±0",
      }),
    );
  } else if (recorded && !recorded.first) {
    parts.push(t("puzzles.notRated"));
  }
  if (recorded?.daily) parts.push(tp("puzzles.daily.runNow", recorded.daily.streak));
  return parts;
}

/**
 * Say how the attempt ended (``parts``: the result, then what record() answered), on the bar and aloud.
 * @param {Attempt} here
 * @param {string[]} parts
 * @param {boolean} solved
 */
function tell(here, parts, solved) {
  here.message = parts.join(" ");
  state.message = solved ? t("puzzles.solvedShort") : t("puzzles.failedShort");
  say(here.message);
}

// ------------------------------------------------------------------ buttons

/** The refutation of the wrong move, in its dialog. */
function openRefutation() {
  if (!attempt?.refutation || attempt.wrong === null) return;
  showLines({
    kind: "refutation",
    entry: attempt.entry,
    seat: state.seat,
    wrong: attempt.wrong,
    loss: attempt.loss ?? 1,
    refutation: attempt.refutation,
    onClose: focusBar,
  });
}

/** Show the solution (asking first while it would give the puzzle up). */
async function showSolution() {
  const here = attempt;
  if (!here || state.busy) return;
  if (here.status === "playing") {
    const yes = await confirmStep({
      ask: "puzzle-solution",
      question: t("puzzles.solution.confirm"),
      yes: t("puzzles.solution.giveUp"),
    });
    if (!yes || attempt !== here) return;
  }
  await run(async () => {
    const answer = await ask({ cmd: "puzzle_solution", puzzle: here.handle });
    if (attempt !== here) return;
    const gaveUp = here.status === "playing";
    here.status = answer.state;
    here.solution = answer.solution;
    state.view = answer.view;
    if (gaveUp) {
      here.loss = null;
      tell(here, [t("puzzles.gaveUp"), ...(await record(here, false))], false);
    }
    renderBar();
    await show(clone(answer.view));
  });
  if (attempt === here && here.solution) {
    showLines({ kind: "solution", entry: here.entry, seat: state.seat, solution: here.solution, onClose: focusBar });
  }
}

/** The focus goes to the bar's main button, else its first button beside "More", else "More". */
function focusBar() {
  const row = /** @type {HTMLElement} */ ($("puzzle-bar").querySelector(".puzzle-buttons"));
  /** @type {HTMLElement | null} */ (
    row.querySelector(":scope > .btn-primary:not([hidden])") ||
      row.querySelector(":scope > button:not([hidden])") ||
      row.querySelector("summary")
  )?.focus();
}

/** The analysis board at the puzzle's position, for its deal played along the solution (once it is over). */
async function openBoard() {
  const here = attempt;
  if (!here || here.status === "playing") return;
  try {
    const opened = await ask({ cmd: "analysis_open", puzzle: here.handle });
    const { openAnalysis } = await import("../screens/analysis.js");
    const side = here.entry.side;
    const names = side === 0 ? [t("seat.you"), t("seat.computer")] : [t("seat.computer"), t("seat.you")];
    openAnalysis({ client: client(), opened, names, onClose: focusBar });
  } catch (error) {
    notify(t("notice.error", { detail: String(/** @type {Error} */ (error).message || error) }));
  }
}

/** Copy the puzzle's link. */
async function copyPuzzleLink() {
  if (!attempt) return;
  try {
    const { link } = await ask({ cmd: "link_make", puzzle: attempt.entry.id });
    await copyLink(linkUrl(link), {
      box: $("puzzle-link-box"),
      input: /** @type {HTMLInputElement} */ ($("puzzle-link")),
      status: $("puzzle-link-status"),
    });
  } catch (error) {
    notify(t("notice.error", { detail: String(/** @type {Error} */ (error).message || error) }));
  }
}

/** Leave the puzzle: the game in play comes back as it was. */
export async function leavePuzzle() {
  if (!attempt) return;
  closeQuietly();
  $("puzzle-link-box").hidden = true;
  await run(async () => {
    if (!state.game) return;
    const answer = await ask({ cmd: "table_show", table: state.game });
    state.view = null;
    state.model = null;
    adoptTable(answer);
    clearLog();
    if (answer.view) {
      narrateGame(answer.view, true);
      await show(clone(answer.view));
    }
  });
  draw();
  /** @type {HTMLElement | null} */ (dom.myHand.querySelector("button.legal"))?.focus();
}

/** The puzzles screen; a puzzle chosen there goes on the table. */
export async function showPuzzles() {
  if (!state.booted) return;
  await openPuzzles({
    client: client(),
    today: today(),
    preset: state.settings.preset,
    onChoose: (id, daily) => {
      openPuzzle(id, daily);
    },
  });
}

/** @param {MouseEvent} event */
async function onBarClick(event) {
  const button = /** @type {HTMLElement | null} */ (
    /** @type {Element} */ (event.target).closest("button[data-puzzle]")
  );
  if (!button || !attempt || state.busy) return;
  const what = button.dataset.puzzle;
  const here = attempt;
  // "More" is a menu: a choice in it closes it (but for the link, which it shows).
  if (what !== "link") /** @type {HTMLDetailsElement} */ ($("puzzle-more")).open = false;
  if (what === "solution") showSolution();
  else if (what === "refutation") openRefutation();
  else if (what === "retry") openPuzzle(here.entry.id, here.daily ?? false);
  else if (what === "next") openPuzzle(await nextPuzzle(client(), here.entry.id));
  else if (what === "analysis") openBoard();
  else if (what === "link") copyPuzzleLink();
  else if (what === "list") showPuzzles();
  else if (what === "leave") leavePuzzle();
}

/** "More" opens upwards over the table: it takes at most the room between the top bar and its button, and scrolls
 * within it. */
function fitMore() {
  const more = /** @type {HTMLDetailsElement} */ ($("puzzle-more"));
  if (!more.open) return;
  const menu = /** @type {HTMLElement} */ (more.querySelector(".puzzle-more-body"));
  const topBar = document.querySelector(".topbar")?.getBoundingClientRect().bottom ?? 0;
  const room = more.getBoundingClientRect().top - 6 - Math.max(0, topBar) - 6;
  menu.style.maxHeight = `${Math.max(96, Math.floor(room))}px`;
}

let installed = false;

/** Listen to the puzzle bar (once). */
export function installPuzzleBar() {
  if (installed) return;
  installed = true;
  $("puzzle-bar").addEventListener("click", onBarClick);
  $("puzzle-more").addEventListener("toggle", fitMore);
  window.addEventListener("resize", fitMore);
}
