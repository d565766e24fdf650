// @ts-check
// Drawing the state: the table (table.js renders a view, or a step of an
// animation towards it), what the modes add to it (the hand-over screen,
// undo and hint, the watching controls, the result's buttons, the seats'
// names), the status line and notices, the keyboard focus across redraws,
// and the boot screen (its progress, or why it failed).

import { BOOT_WORDS_IN_ENGLISH, showBootFailure } from "../boot.js";
import { has, t } from "../platform/i18n.js";
import { isNewcomer } from "../platform/newcomer.js";
import { seatNames } from "../screens/modes.js";
import { resultButtons } from "../screens/records.js";
import { pointsMode } from "../screens/settings.js";
import { renderAssist, showHint } from "../table/assist.js";
import { curtain, hideHandover, showHandover } from "../table/handover.js";
import { decorate } from "../table/keyboard.js";
import { nameSeats } from "../table/names.js";
import { clearLog } from "../table/narrate.js";
import { backElement, flip, render, snapshotRects } from "../table/table.js";
import { renderWatchBar } from "../table/watch-bar.js";
import { dom, ready, state, timing } from "./state.js";

/** @import { Progress, View } from "../../types/engine.js" */
/** @import { Failure } from "./state.js" */

/** Whether the table drawn last was a deal's end (a new deal follows). */
let lastDrawnOver = false;
/** A focus to give once you can play (state.focus): none was held when the new deal came. */
const NEW_DEAL = "#my-hand button.legal";

/** The selector of the table control that has the keyboard focus, to give it back after a redraw. */
function focusedControl() {
  const active = /** @type {HTMLElement | null} */ (document.activeElement);
  if (!active || !dom.root.contains(active)) return null;
  if (active.dataset.card) {
    state.focusIndex = Math.max(0, [...dom.myHand.children].indexOf(active));
    return `button[data-card="${active.dataset.card}"]`;
  }
  if (active.dataset.action) return `button[data-action="${active.dataset.action}"]`;
  return null;
}

/**
 * Give the focus back to the same control, or the first one you can use, once there is one. After the end of a
 * deal (N, a click on the felt, a dialog closed) a focus that is nowhere goes to your play in the next one.
 * @param {string | null} selector
 */
function refocus(selector) {
  const active = document.activeElement;
  const newDeal = lastDrawnOver && !state.model?.deal_result;
  lastDrawnOver = Boolean(state.model?.deal_result);
  if (active && active !== document.body) {
    if (!dom.root.contains(active)) state.focus = null;
    return;
  }
  const wanted = selector || (newDeal && !state.handover ? NEW_DEAL : null);
  if (!wanted) return;
  const target = /** @type {HTMLElement | null} */ (dom.root.querySelector(`${wanted}:not(:disabled)`)) || nextFocus();
  if (target) target.focus({ preventScroll: true });
  state.focus = target ? null : wanted;
}

/** Where the focus goes when its control is gone: the result's buttons, else the card you may play nearest to where you were, else an action. */
function nextFocus() {
  if (state.model?.deal_result) return dom.result.querySelector("button");
  const legal = [.../** @type {NodeListOf<HTMLButtonElement>} */ (dom.myHand.querySelectorAll("button.legal"))];
  const nearest = legal.sort(
    (a, b) => Math.abs(cardIndex(a) - state.focusIndex) - Math.abs(cardIndex(b) - state.focusIndex),
  )[0];
  return nearest || dom.actions.querySelector("button");
}

/** Give the focus to what you play next (a card you may play, an action, the result's way on), if there is one. */
export function focusPlay() {
  /** @type {HTMLElement | null} */ (nextFocus())?.focus({ preventScroll: true });
}

// Whether the game in play helps a newcomer: asked once a game (the statistics are read from storage).
let newcomerOf = { game: /** @type {string | null} */ (null), helped: false };

/** A newcomer's game against the computer, not ranked (platform/newcomer.js). */
function newcomerHelped() {
  if (newcomerOf.game !== state.game) {
    const helped = state.meta.mode === "computer" && !state.meta.ranked && isNewcomer();
    newcomerOf = { game: state.game, helped };
  }
  return newcomerOf.helped;
}

/** @param {Element} node */
function cardIndex(node) {
  return [...dom.myHand.children].indexOf(node);
}

/** Draw the state: the table (or, two players changing hands, a blank one) and what the modes add. */
export function draw() {
  applyNames();
  if (state.handover) clearLog(); // the next player must not read the last one's cards
  if (state.model) {
    const focused = focusedControl() || state.focus;
    const covered = state.handover !== null;
    render(dom, covered ? curtain(state.model) : state.model, {
      // A puzzle shows all its side knows (the points it could count, the cards played), whatever the setting.
      pointsMode: covered
        ? "hide"
        : state.puzzle
          ? "both"
          : pointsMode(state.settings, state.model.rules, newcomerHelped()),
      interactive: state.booted && !state.busy && !covered && (!state.puzzle || state.puzzle.playing()),
      thinking: state.thinking,
      message: state.message || modeStatus(),
      lingerTrick: timing().trick === 0,
    });
    decorateModes();
    decorate(dom.root, dom.myHand);
    refocus(focused);
  } else if (state.handover || state.online) {
    blankTable(); // nothing of a game to play: the hand-over screen, or an online game not dealt yet
    decorateModes();
  }
  // A tutorial deal is against the computer: ready, it has a view.
  if (state.tutorial && ready()) state.tutorial.update(/** @type {View} */ (state.view));
  dom.root.dataset.ready = ready() ? "1" : "0";
  dom.root.dataset.step = String(state.steps);
  dom.root.dataset.points = state.settings.points;
}

/**
 * Where a card that just appeared comes from, for the flip animation.
 * @param {HTMLElement} node
 */
function originOf(node) {
  if (dom.trick.contains(node) && node.classList.contains("from-opponent")) return dom.oppHand.getBoundingClientRect();
  if (dom.myHand.contains(node) || dom.oppHand.contains(node)) return dom.stock.getBoundingClientRect();
  return null;
}

/**
 * Draw ``model`` (a view, or a step towards one), the cards moving from where they were.
 * @param {View} model
 */
export async function show(model) {
  const { move } = timing();
  const before = move ? snapshotRects(dom.root) : null;
  state.model = model;
  draw();
  if (before) await flip(dom.root, before, move, originOf);
}

/**
 * Put ``text`` on the status line (until the next move).
 * @param {string} text
 */
export function announce(text) {
  state.message = text;
  dom.status.textContent = text;
}

/**
 * Show a notice ("": none). index.html has its elements, hence the casts.
 * @param {string} text
 */
export function notify(text) {
  const notice = /** @type {HTMLElement} */ (document.getElementById("notice"));
  /** @type {HTMLElement} */ (document.getElementById("notice-text")).textContent = text;
  notice.hidden = !text;
  makeRoomForNotice(notice);
}

/** @type {ResizeObserver | null} */
let noticeWatch = null;

/**
 * The notice stands at the top of the table: the computer's seat moves down by its height (styles.css
 * --notice-room), as long as it shows and however many lines it takes.
 * @param {HTMLElement} notice
 */
function makeRoomForNotice(notice) {
  const room = () =>
    dom.root.style.setProperty("--notice-room", notice.hidden ? "0px" : `${notice.offsetTop + notice.offsetHeight}px`);
  if (!noticeWatch && typeof ResizeObserver === "function") {
    noticeWatch = new ResizeObserver(room);
    noticeWatch.observe(notice);
  }
  room();
}

function namesOfSeats() {
  return seatNames(state.meta);
}

/** Speak of the seats by name (two players, watching): the bottom one is state.seat. */
function applyNames() {
  const names = namesOfSeats();
  nameSeats(names ? { me: names[state.seat], opp: names[1 - state.seat] } : null);
}

/** The status line while watching: whose move it is, by name. */
function modeStatus() {
  const view = state.model;
  if (state.meta.mode !== "watch" || !view || view.deal_result || view.to_act === null) return "";
  return t("modes.named.turn", { name: /** @type {string[]} */ (namesOfSeats())[view.to_act] }); // watching: named
}

/** While the device changes hands (two players), or an online game waits for its first deal: no cards. */
function blankTable() {
  for (const node of [dom.myHand, dom.oppHand, dom.trick, dom.actions, dom.result, dom.lastTrick, dom.myTricks]) {
    node.replaceChildren();
  }
  dom.result.hidden = true;
  dom.matchScore.replaceChildren();
  dom.matchScore.hidden = true; // nothing to open while nobody holds the device
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
    // Two players: the seats have names.
    showHandover({
      next: names ? names[seat] : "",
      claimBy: claimSeat === null ? null : /** @type {string[]} */ (names)[claimSeat],
    });
  } else {
    delete dom.root.dataset.handoverSeat;
    hideHandover();
  }
  const idle = state.booted && !state.busy && !state.handover && view !== null;
  const over = Boolean(view?.deal_result);
  renderAssist({
    undo: { shown: meta.mode === "computer" && meta.assisted && !over, enabled: idle && Boolean(state.may.undo) },
    hint: { shown: meta.assisted && !over, enabled: idle && Boolean(state.may.hint) },
    claimFor: idle && state.may.claim_for_other ? /** @type {string[]} */ (names)[1 - state.seat] : null,
    busy: !idle,
    ranked: meta.ranked,
  });
  showHint(state.hint, view);
  renderWatchBar({
    shown: meta.mode === "watch",
    speed: state.settings.pace,
    paused: state.paused,
    canStep: !state.busy && Boolean(view) && !(/** @type {View} */ (view).game_over),
  });
  resultButtons(dom.result, { shown: Boolean(view?.deal_result) && state.booted && !state.busy && !state.puzzle });
  // A puzzle is one position, not a match: no score to open.
  if (state.puzzle) dom.matchScore.hidden = true;
}

/** The table before there is a game: the talon and the other hand, face down. */
export function placeholderTable() {
  dom.stock.replaceChildren(backElement(null, "talon"));
  dom.oppHand.replaceChildren(...Array.from({ length: 5 }, () => backElement(null)));
  dom.oppHand.style.setProperty("--n", "5");
}

/**
 * Show how far the boot is: {stage, fraction} (the worker's stages have keys "boot.stage.<stage>").
 * @param {Progress} progress
 */
export function bootProgress(progress) {
  state.progress = progress;
  const key = `boot.stage.${progress.stage}`;
  /** @type {HTMLElement} */ (document.getElementById("boot-label")).textContent = has(key)
    ? t(key)
    : t("boot.loading");
  /** @type {HTMLElement} */ (document.getElementById("boot-bar")).style.setProperty(
    "--progress",
    String(progress.fraction),
  );
}

/**
 * The boot failed: {key, detail?} says why in words, and the technical detail (as it came) beneath.
 * @param {Failure} failure
 */
export function bootFailed(failure) {
  state.failure = failure;
  /** @type {(string | Node)[]} */
  const message = [t(failure.key) || BOOT_WORDS_IN_ENGLISH[failure.key] || failure.key];
  if (failure.detail) {
    const detail = document.createElement("small");
    detail.className = "boot-detail";
    detail.textContent = failure.detail;
    message.push(detail);
  }
  showBootFailure(t("boot.failed") || BOOT_WORDS_IN_ENGLISH["boot.failed"], ...message);
}
