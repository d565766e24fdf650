// @ts-check
// Your input on the table: a click or tap on a card or a button, dragging
// a card to the trick with the mouse, and the keyboard (keyboard.js).

import { t } from "../platform/i18n.js";
import { cardLabel } from "../table/cards.js";
import { installKeyboard } from "../table/keyboard.js";
import { say } from "../table/narrate.js";
import { onControl } from "./controls.js";
import { newGame, perform } from "./loop.js";
import { dom, ready, state } from "./state.js";

/** @import { KeyboardGame } from "../table/keyboard.js" */
/**
 * A card being dragged: where the pointer went down, whether it has moved, and which pointer it is.
 * @typedef {{card: HTMLButtonElement, x: number, y: number, moved: boolean, id: number}} Drag
 */

/**
 * A click or tap on the table: a card, an action, a control or a new game.
 * @param {MouseEvent} event
 */
function onTableClick(event) {
  const target = /** @type {Element} */ (event.target).closest("button");
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

// Dragging a card to the table (mouse only; touch and keyboard use a tap or Enter).
/** @type {Drag | null} */
let drag = null;

let suppressClick = false;

/** @param {PointerEvent} event */
function onPointerDown(event) {
  if (event.pointerType !== "mouse" || event.button !== 0) return;
  const card = /** @type {HTMLButtonElement | null} */ (
    /** @type {Element} */ (event.target).closest("#my-hand .card.legal")
  );
  if (!card || card.disabled) return;
  drag = { card, x: event.clientX, y: event.clientY, moved: false, id: event.pointerId };
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
    drag.card.setPointerCapture(event.pointerId);
  }
  drag.card.style.setProperty("translate", `${dx}px ${dy}px`);
  dom.trick.classList.toggle("drop-target", overTrick(event));
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

/** Listen to the table: the keyboard, then clicks and the mouse's dragging. */
export function installInput() {
  installKeyboard({ hand: dom.myHand, game: keyboardGame });
  dom.root.addEventListener("click", onTableClick);
  dom.root.addEventListener("pointerdown", onPointerDown);
  dom.root.addEventListener("pointermove", onPointerMove);
  dom.root.addEventListener("pointerup", onPointerUp);
  dom.root.addEventListener("pointercancel", onPointerUp);
}
