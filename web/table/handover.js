// @ts-check
// The hand-over screen of a game for two on one device. It covers the table
// between turns; while it shows, the table holds no card of either hand (the
// page draws it from a "curtain" model), and the next player's view is only
// asked for when they tap "I am <name>, show my hand".

import { t } from "../platform/i18n.js";

/** @import { View } from "../../types/engine.js" */

/**
 * An element of index.html, which has every one asked for here (hence the cast).
 * @param {string} id
 */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * The table as it may be seen while the device changes hands: no hand, nothing to press.
 * @param {View} model
 * @returns {View}
 */
export function curtain(model) {
  if (!model) return model;
  const { reveal, ...rest } = model;
  return {
    ...rest,
    hand: [],
    opponent_known: [],
    opponent_shown: null,
    legal: [],
    declared: null,
    declared_cards: [],
    ...(model.deal_result && reveal ? { reveal } : {}),
  };
}

/**
 * Show the screen for ``next`` (the name of the player who gets the device);
 * ``claimBy`` names the player handing over when they may still claim 66.
 * @param {{next: string, claimBy?: string | null}} who
 */
export function showHandover({ next, claimBy = null }) {
  const box = $("handover");
  $("handover-title").textContent = t("modes.handover.title", { name: next });
  $("handover-note").textContent = t("modes.handover.note", { name: next });
  $("handover-show").textContent = t("modes.handover.show", { name: next });
  const claim = $("handover-claim");
  claim.hidden = claimBy === null;
  claim.textContent = claimBy === null ? "" : t("modes.claimFor", { name: claimBy });
  const wasHidden = box.hidden;
  box.hidden = false;
  $("table").dataset.handover = "1";
  if (wasHidden) $("handover-show").focus({ preventScroll: true });
}

export function hideHandover() {
  $("handover").hidden = true;
  $("table").dataset.handover = "0";
}
