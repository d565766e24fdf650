// @ts-check
// Naming the seats. Against the computer the table speaks of "you" and "the
// computer"; when two people share the device, or two computers play while
// you watch, the same words name the seats instead: the table's keys (e.g.
// "result.deal.me") are told with "modes.named.<id>" and the seat's name.
// "me" is the seat drawn at the bottom, "opp" the one at the top.

import { localize, setVoice, t } from "../platform/i18n.js";

/** @import { Spoken, Voice } from "../platform/i18n.js" */
/** @typedef {{me: string, opp: string}} SeatNames The names of the seats at the bottom (me) and the top (opp). */
/** @typedef {"me" | "opp" | "both"} Whose */

// The ids of the named texts: the keys are "modes.named.<id>".
export const NAMED = [
  "hand",
  "pile",
  "pileTricks",
  "trickWon",
  "closedBy",
  "marriageTitle",
  "marriagePending",
  "handHidden",
  "handRevealed",
  "eventMarriage",
  "eventExchange",
  "eventClose",
  "eventClaim",
  "eventWrongClaim",
  "eventResign",
  "eventPass",
  "turn",
  "resultMatch",
  "resultDeal",
  "codeClaim",
  "codeAuto",
  "codeWrongClaim",
  "codeCloseSuccess",
  "codeCloseFailed",
  "codeResigned",
  "gain",
  "basisSchwarz",
  "basisSchneider",
  "basisSimple",
  "atClose",
  "matchScore",
  "matchesWon",
  "points",
  // The live region's sentences (narrate.js).
  "sayPlay",
  "sayTrick",
  "sayDraw",
  "sayDrawHidden",
  "sayMarriage",
  "sayCredited",
  "sayExchange",
  "sayClose",
  "sayClaim",
  "sayWrongClaim",
  "sayPass",
  "sayResign",
  "sayDeal",
  "sayHand",
];

// Keys said of one side, with ".me" and ".opp" versions: their base -> named id.
/** @type {Record<string, string>} */
const SIDED = {
  "pile.tricks": "pileTricks",
  "panel.trickWon": "trickWon",
  "stock.closedBy": "closedBy",
  "marriage.title": "marriageTitle",
  "marriage.pending": "marriagePending",
  "result.match": "resultMatch",
  "result.deal": "resultDeal",
  "result.code.claim_66": "codeClaim",
  "result.code.auto_66": "codeAuto",
  "result.code.wrong_claim": "codeWrongClaim",
  "result.code.close_success": "codeCloseSuccess",
  "result.code.close_failed": "codeCloseFailed",
  "result.code.resigned": "codeResigned",
  "result.gain": "gain",
  "result.basis.schwarz": "basisSchwarz",
  "result.basis.schneider": "basisSchneider",
  "result.basis.simple": "basisSimple",
  "result.atClose": "atClose",
  "a11y.say.play": "sayPlay",
  "a11y.say.trick": "sayTrick",
  "a11y.say.draw": "sayDraw",
  "a11y.say.drawHidden": "sayDrawHidden",
  "a11y.say.marriage": "sayMarriage",
  "a11y.say.credited": "sayCredited",
  "a11y.say.exchange": "sayExchange",
  "a11y.say.close": "sayClose",
  "a11y.say.claim": "sayClaim",
  "a11y.say.wrongClaim": "sayWrongClaim",
  "a11y.say.pass": "sayPass",
  "a11y.say.resign": "sayResign",
  "a11y.say.deal": "sayDeal",
};

// Other keys: [named id or null (the name itself), whose name].
/** @type {Record<string, [string | null, Whose]>} */
const SINGLE = {
  "seat.you": [null, "me"],
  "seat.computer": [null, "opp"],
  "panel.played.me": [null, "me"],
  "panel.played.opp": [null, "opp"],
  "seat.yourHand": ["hand", "me"],
  "seat.computerHand": ["hand", "opp"],
  "pile.you": ["pile", "me"],
  "pile.computer": ["pile", "opp"],
  "opp.handHidden": ["handHidden", "opp"],
  "opp.handRevealed": ["handRevealed", "opp"],
  "event.marriage.opp": ["eventMarriage", "opp"],
  "event.exchange.opp": ["eventExchange", "opp"],
  "event.close.opp": ["eventClose", "opp"],
  "event.claim.opp": ["eventClaim", "opp"],
  "event.wrongClaim.opp": ["eventWrongClaim", "opp"],
  "event.resign.opp": ["eventResign", "opp"],
  "event.pass.opp": ["eventPass", "opp"],
  "status.computerTurn": ["turn", "opp"],
  "result.matchScore": ["matchScore", "both"],
  "result.matchesWon": ["matchesWon", "both"],
  "result.points": ["points", "both"],
  "a11y.say.hand": ["sayHand", "me"],
};

/**
 * @param {string} id
 * @param {SeatNames} names
 * @param {Whose} who
 * @returns {Spoken}
 */
function named(id, names, who) {
  const params = who === "both" ? { nameMe: names.me, nameOpp: names.opp } : { name: names[who] };
  return { key: `modes.named.${id}`, params };
}

/**
 * A voice for i18n.js that names the seats: {me, opp} are the names at the bottom and the top.
 * @param {SeatNames} names
 * @returns {Voice}
 */
function voiceOf(names) {
  return (key) => {
    const single = SINGLE[key];
    // A name on its own is always one seat's ("me" or "opp").
    if (single)
      return single[0] === null
        ? { text: names[/** @type {"me" | "opp"} */ (single[1])] }
        : named(single[0], names, single[1]);
    const dot = key.lastIndexOf(".");
    const side = key.slice(dot + 1);
    const id = SIDED[key.slice(0, dot)];
    return id && (side === "me" || side === "opp") ? named(id, names, side) : null;
  };
}

/** @type {SeatNames | null} */
let current = null;

/**
 * Name the seats ({me, opp}), or go back to "you" and "the computer" (null). Redraws the static labels.
 * @param {SeatNames | null} names
 */
export function nameSeats(names) {
  const same = current === names || (current && names && current.me === names.me && current.opp === names.opp);
  if (same) return;
  current = names ? { ...names } : null;
  setVoice(current ? voiceOf(current) : null);
  localize();
}

/**
 * The default name of a player: "Player 1", "Player 2" in the page's language.
 * @param {number} seat
 */
export function defaultName(seat) {
  return t("modes.player", { n: seat + 1 });
}

/**
 * The name of a computer that plays while you watch: "Computer 1 (level 3)".
 * @param {number} seat
 * @param {number | null} level
 */
export function computerName(seat, level) {
  return t("modes.computerName", { n: seat + 1, level });
}
