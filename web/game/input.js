// @ts-check
// Your input on the table: a click or tap on a card or a button, dragging
// a card to the trick (mouse, finger or pen; a finger's swipe towards the
// trick is enough), picking a card by a first tap (a setting), and the
// keyboard (keyboard.js).

import { t } from "../platform/i18n.js";
import { cardLabel } from "../table/cards.js";
import { installKeyboard } from "../table/keyboard.js";
import { say } from "../table/narrate.js";
import { onControl } from "./controls.js";
import { newGame, perform } from "./loop.js";
import { dom, ready, state } from "./state.js";

/** @import { KeyboardGame } from "../table/keyboard.js" */
/**
 * A card being dragged: where the pointer went down, whether it has moved, which pointer it is, and
 * whether it is a finger or a pen (a swipe towards the trick plays the card).
 * @typedef {{card: HTMLButtonElement, x: number, y: number, moved: boolean, id: number, swipe: boolean}} Drag
 */

/**
 * A click or tap on the table: a card, an action, a control or a new game.
 * @param {MouseEvent} event
 */
function onTableClick(event) {
  const target = /** @type {Element} */ (event.target).closest("button");
  if (!target?.dataset.card || !dom.myHand.contains(target)) unpick();
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
    // With "tap to pick", a first tap or click picks the card; the keyboard's Enter (detail 0) plays it.
    if (state.settings.tapToSelect && event.detail > 0 && !target.classList.contains("picked")) pick(target);
    else perform(`play:${target.dataset.card}`);
  } else if (target.dataset.action === "new-game") {
    newGame();
  } else if (target.dataset.action) {
    perform(target.dataset.action);
  }
}

/**
 * Pick ``card`` (raised, said): the next tap on it plays it.
 * @param {HTMLElement} card
 */
function pick(card) {
  unpick();
  card.classList.add("picked"); // until the hand is drawn again
  say(t("a11y.say.picked", { card: cardLabel(/** @type {string} */ (card.dataset.card)) }));
}

/** No card is picked any more. */
function unpick() {
  for (const card of dom.myHand.querySelectorAll(".card.picked")) card.classList.remove("picked");
}

/**
 * Say why a key or a card did nothing: "card" (that card may not be played now) or "key".
 * @param {string} reason
 * @param {string} [card] (with "card")
 */
function refuse(reason, card) {
  say(
    reason === "card"
      ? t("a11y.say.notPlayable", { card: cardLabel(/** @type {string} */ (card)) })
      : t("a11y.say.unavailable"),
  );
}

/**
 * What the keyboard may do (keyboard.js): the actions you may take now, and how to take them.
 * @type {KeyboardGame}
 */
const keyboardGame = {
  legal: () => (state.booted && !state.busy && !state.handover && state.view ? state.view.legal : []),
  perform,
  focusAction: (action) =>
    /** @type {HTMLElement | null} */ (dom.root.querySelector(`button[data-action="${action}"]`))?.focus(),
  newGame: () => {
    if (!ready() || !dom.result.querySelector('[data-action="new-game"]')) return false;
    newGame();
    return true;
  },
  refuse,
};

// Dragging a card to the trick, with the mouse, a finger or a pen.
/** @type {Drag | null} */
let drag = null;

let suppressClick = false;

/** @param {PointerEvent} event */
function onPointerDown(event) {
  if (event.button !== 0) return;
  const card = /** @type {HTMLButtonElement | null} */ (
    /** @type {Element} */ (event.target).closest("#my-hand .card.legal")
  );
  if (!card || card.disabled) return;
  const swipe = event.pointerType !== "mouse";
  drag = { card, x: event.clientX, y: event.clientY, moved: false, id: event.pointerId, swipe };
}

/** @param {PointerEvent} event */
function onPointerMove(event) {
  if (!drag || event.pointerId !== drag.id) return;
  const dx = event.clientX - drag.x;
  const dy = event.clientY - drag.y;
  if (!drag.moved && Math.hypot(dx, dy) < 6) return;
  if (!drag.moved) {
    drag.moved = true;
    drag.card.classList.add("dragging");
    try {
      drag.card.setPointerCapture(event.pointerId);
    } catch {
      // The pointer is no longer active (lifted meanwhile): the drag ends at its pointerup.
    }
  }
  drag.card.style.setProperty("translate", `${dx}px ${dy}px`);
  dom.trick.classList.toggle("drop-target", overTrick(event) || (drag.swipe && swipedToTrick(drag, event)));
}

/**
 * Has a finger moved the card far enough towards the trick to mean "play it"?
 * Upwards more than sideways, and at least 40% of the way (and 40 px) from where it started.
 * @param {Drag} drag
 * @param {PointerEvent} event
 */
function swipedToTrick(drag, event) {
  const box = dom.trick.getBoundingClientRect();
  const up = drag.y - event.clientY;
  const way = drag.y - (box.top + box.height / 2);
  return up > Math.abs(event.clientX - drag.x) && up >= Math.max(40, 0.4 * way);
}

/**
 * Is the pointer over the trick (or near it)?
 * @param {PointerEvent} event
 */
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

/** @param {PointerEvent} event */
function onPointerUp(event) {
  if (!drag || event.pointerId !== drag.id) return;
  const { card, moved } = drag;
  const play = moved && event.type === "pointerup" && (overTrick(event) || (drag.swipe && swipedToTrick(drag, event)));
  drag = null;
  dom.trick.classList.remove("drop-target");
  if (!moved) return;
  suppressClick = true;
  setTimeout(() => {
    suppressClick = false;
  }, 0);
  card.classList.remove("dragging");
  card.style.removeProperty("translate");
  if (play) perform(`play:${card.dataset.card}`);
}

/** Listen to the table: the keyboard, then clicks, taps and dragging. */
export function installInput() {
  installKeyboard({ hand: dom.myHand, game: keyboardGame });
  dom.root.addEventListener("click", onTableClick);
  dom.root.addEventListener("pointerdown", onPointerDown);
  dom.root.addEventListener("pointermove", onPointerMove);
  dom.root.addEventListener("pointerup", onPointerUp);
  dom.root.addEventListener("pointercancel", onPointerUp);
}
