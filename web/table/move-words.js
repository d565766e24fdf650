// @ts-check
// A move in words, for the review, the analysis board and the puzzles'
// lines: "Queen of hearts", "marriage 40 (hearts)", "talon closed".

import { t } from "../platform/i18n.js";
import { cardLabel, suitName } from "./cards.js";

/**
 * @typedef {object} MoveFacts What the engine said of the move, where it is known.
 * @property {number | string} [points] a marriage's points ("" when unknown: then it is named without them)
 * @property {boolean | undefined} [valid] false for a claim that was wrong
 * @property {boolean} [option] said as an option to choose ("claim 66") rather than a move made ("66 claimed")
 */

/**
 * @param {string} action the protocol's notation
 * @param {MoveFacts} [facts]
 */
export function moveWords(action, facts = {}) {
  if (action.startsWith("play:"))
    return cardLabel(/** @type {import("../../types/engine.js").Card} */ (action.slice(5)));
  if (action.startsWith("marry:")) {
    const suit = suitName(/** @type {import("../../types/engine.js").Suit} */ (action.slice(6)));
    const points = facts.points ?? "";
    return points === "" ? t("puzzles.move.marry", { suit }) : t("modes.move.marry", { points, suit });
  }
  switch (action) {
    case "exchange":
      return t("modes.move.exchange");
    case "close":
      return t("modes.move.close");
    case "claim":
      if (facts.valid === false) return t("modes.move.wrongClaim");
      return facts.option ? t("analysis.claim") : t("modes.move.claim");
    case "pass":
      return t("modes.move.pass");
    case "resign":
      return facts.option ? t("analysis.resign") : t("modes.move.resign");
    default:
      return action;
  }
}
