// @ts-check
// A move in words, for the review, the analysis board and the puzzles'
// lines: "Queen of hearts", "marriage 40 (hearts)", "talon closed".

import { t } from "../platform/i18n.js";
import { cardLabel, suitName } from "./cards.js";

/**
 * @typedef {object} MoveFacts What the engine said of the move, where it is known.
 * @property {number | string} [points] a marriage's points ("" when unknown: then it is named without them)
 * @property {boolean | undefined} [valid] false for a claim that was wrong
 * @property {string} [claimKey] the words of a claim (default "modes.move.claim")
 * @property {string} [resignKey] the words of a resignation (default "modes.move.resign")
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
      return facts.valid === false ? t("modes.move.wrongClaim") : t(facts.claimKey ?? "modes.move.claim");
    case "pass":
      return t("modes.move.pass");
    case "resign":
      return t(facts.resignKey ?? "modes.move.resign");
    default:
      return action;
  }
}
