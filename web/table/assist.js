// @ts-check
// Undo and hints (casual games only), and the out-of-turn claim of the other
// player in a game for two. The engine decides everything: undo is its
// "undo" command, a hint is its "hint" ranking from the seat's own knowledge
// (it sees no hidden card), and the claim button shows only while the
// worker says that seat may claim.

import { formatNumber, t } from "../platform/i18n.js";
import { cardLabel, suitName } from "./cards.js";
import { actionLabel } from "./table.js";

/** @import { Action, View } from "../../types/engine.js" */
/** @typedef {{action: Action, value: number}} Hint The hinted action and its value (game points / 3). */

/**
 * An element of index.html, which has every one asked for here (hence the cast).
 * @param {string} id
 */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * A hint's value (game points for the seat, scaled to 1/3 by the engine) in game points, signed.
 * @param {number} value
 */
export function gamePoints(value) {
  const points = Math.round(value * 30) / 10;
  return `${points > 0 ? "+" : points < 0 ? "−" : "±"}${formatNumber(Math.abs(points), 1)}`;
}

/**
 * An action in words: "Queen of hearts", "Close talon", "40 (hearts)".
 * @param {Action} action
 * @param {Pick<View, "marriage_offers" | "phase" | "trump_suit">} view
 */
export function actionWords(action, view) {
  if (action.startsWith("play:")) return cardLabel(action.slice(5));
  if (action.startsWith("marry:")) return `${actionLabel(action, view)} (${suitName(action.slice(6))})`;
  return actionLabel(action, view);
}

/**
 * Draw the bar: {undo, hint} say whether each button exists and may be
 * pressed; {claimFor} is the name of the other player who may claim now (or null).
 * @param {{undo: {shown: boolean | undefined, enabled: boolean}, hint: {shown: boolean | undefined, enabled: boolean},
 *   claimFor: string | null, busy: boolean, ranked: boolean}} bar
 */
export function renderAssist({ undo, hint, claimFor, busy, ranked }) {
  const bar = $("assist");
  const undoButton = /** @type {HTMLButtonElement} */ ($("undo"));
  const hintButton = /** @type {HTMLButtonElement} */ ($("hint"));
  const claim = /** @type {HTMLButtonElement} */ ($("other-claim"));
  undoButton.hidden = !undo.shown;
  undoButton.disabled = busy || !undo.enabled;
  hintButton.hidden = !hint.shown;
  hintButton.disabled = busy || !hint.enabled;
  claim.hidden = !claimFor;
  claim.disabled = busy;
  claim.textContent = claimFor ? t("modes.claimFor", { name: claimFor }) : "";
  $("ranked-badge").hidden = !ranked;
  bar.hidden = undoButton.hidden && hintButton.hidden && claim.hidden && !ranked;
}

/**
 * Mark the hinted action on the table and say it in words.
 * @param {Hint | null} hint
 * @param {View | null} view
 */
export function showHint(hint, view) {
  const text = $("hint-text");
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (document.querySelectorAll("#table [data-hint]"))) {
    node.classList.remove("hinted");
    delete node.dataset.hint;
  }
  if (!hint || !view) {
    text.textContent = "";
    return;
  }
  const target = /** @type {HTMLElement | null} */ (
    hint.action.startsWith("play:")
      ? document.querySelector(`#my-hand [data-card="${hint.action.slice(5)}"]`)
      : document.querySelector(`#actions [data-action="${hint.action}"], #result [data-action="${hint.action}"]`)
  );
  if (target) {
    target.classList.add("hinted");
    target.dataset.hint = "1";
  }
  text.textContent = t("modes.hint.says", { action: actionWords(hint.action, view), value: gamePoints(hint.value) });
}
