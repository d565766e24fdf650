// @ts-check
// The game told in words for screen readers: every event the page receives
// (both players' cards, tricks, draws, marriages, exchanges, closing, claims,
// deal and match results) becomes a sentence in the player's language, added
// to a polite live region (#announcer, role="log").
//
// Only what the events and the view already say is told: the opponent's drawn
// card stays "a card", like on the table. The UI never decides anything here.
// With two players on one device, or two computers watched, the sentences
// name the seats (names.js gives the "modes.named.say*" forms), and the log
// is emptied whenever the device changes hands.

import { t, tp } from "../platform/i18n.js";
import { cardLabel, suitName } from "./cards.js";
import { dealReason, presetName } from "./table.js";

/** @import { Card, GameEvent, Seat, Suit, View } from "../../types/engine.js" */

const KEEP = 200; // lines kept in the log (older ones are dropped; a screen reader reads only the new ones)

/** @param {Card[]} list */
function cards(list) {
  return list.map(cardLabel).join(", ");
}

/**
 * @param {Seat | null | undefined} winner
 * @param {Seat} me
 */
function dealHeading(winner, me) {
  if (winner === null || winner === undefined) return t("result.deal.none");
  return winner === me ? t("result.deal.me") : t("result.deal.opp");
}

/**
 * One event (as the table sent it to the view's seat) in words; "" for events with nothing to tell. ``view``: the view after it.
 * @param {GameEvent} event
 * @param {View} view
 * @returns {string}
 */
export function describeEvent(event, view) {
  const me = view.seat;
  const mine = "seat" in event && event.seat === me;
  switch (event.type) {
    case "play": {
      const card = cardLabel(event.card);
      return mine ? t("a11y.say.play.me", { card }) : t("a11y.say.play.opp", { card });
    }
    case "trick":
      return event.winner === me ? tp("a11y.say.trick.me", event.points) : tp("a11y.say.trick.opp", event.points);
    case "draw":
      if (!event.card) return t("a11y.say.drawHidden.opp");
      return mine
        ? t("a11y.say.draw.me", { card: cardLabel(event.card) })
        : t("a11y.say.draw.opp", { card: cardLabel(event.card) });
    case "exhausted":
      return t("a11y.say.exhausted");
    case "marriage": {
      const params = { points: event.points, suit: suitName(event.suit) };
      return mine ? t("a11y.say.marriage.me", params) : t("a11y.say.marriage.opp", params);
    }
    case "marriage_credited": {
      const params = { points: event.points, suit: suitName(event.suit) };
      return mine ? t("a11y.say.credited.me", params) : t("a11y.say.credited.opp", params);
    }
    case "exchange": {
      const params = { gave: cardLabel(event.gave), took: cardLabel(event.took) };
      return mine ? t("a11y.say.exchange.me", params) : t("a11y.say.exchange.opp", params);
    }
    case "close":
      return mine ? t("a11y.say.close.me") : t("a11y.say.close.opp");
    case "claim":
      if (event.valid) return mine ? t("a11y.say.claim.me") : t("a11y.say.claim.opp");
      return mine ? t("a11y.say.wrongClaim.me") : t("a11y.say.wrongClaim.opp");
    case "pass":
      return mine ? t("a11y.say.pass.me") : t("a11y.say.pass.opp");
    case "resign":
      return mine ? t("a11y.say.resign.me") : t("a11y.say.resign.opp");
    case "deal_end":
      return `${dealHeading(event.winner, me)} ${dealReason(event)}`;
    case "score":
      return t("result.matchScore", { me: event.scores[me], opp: event.scores[1 - me], target: view.match.target });
    case "match_end":
      return event.winner === me ? t("result.match.me") : t("result.match.opp");
    case "deal":
      return describeDeal(event.dealer === me, event.trump_card, view.trump_suit, event.hand ?? []);
    case "forfeit":
      if (event.winner === null) return t("online.ended.abandoned");
      return t(`online.ended.${event.reason}.${event.seat === me ? "me" : "opp"}`);
    default:
      return "";
  }
}

/**
 * @param {boolean} myDeal
 * @param {Card | null} trumpCard
 * @param {Suit} trumpSuit
 * @param {Card[]} hand
 */
function describeDeal(myDeal, trumpCard, trumpSuit, hand) {
  const parts = [myDeal ? t("a11y.say.deal.me") : t("a11y.say.deal.opp")];
  parts.push(
    trumpCard
      ? t("a11y.say.trump", { suit: suitName(trumpSuit), card: cardLabel(trumpCard) })
      : t("a11y.say.trumpSuit", { suit: suitName(trumpSuit) }),
  );
  parts.push(t("a11y.say.hand", { cards: cards(hand) }));
  return parts.join(" ");
}

/**
 * A game just put on the table (new, or restored): the rules, who dealt, trumps and your hand.
 * @param {View} view
 */
export function describeGame(view, restored = false) {
  const opening = restored ? t("a11y.say.resumed") : t("a11y.say.newGame", { rules: presetName(view.rules) });
  if (view.deal_result) return opening;
  return `${opening} ${describeDeal(view.match.dealer === view.seat, view.trump_card, view.trump_suit, view.hand)}`;
}

function region() {
  return document.getElementById("announcer");
}

/**
 * Tell one event; a new deal starts a fresh log (the last deal's cards are no longer on the table).
 * @param {GameEvent} event
 * @param {View} view
 */
export function narrate(event, view) {
  if (event.type === "next") clearLog();
  say(describeEvent(event, view));
}

/** Empty the log (a new deal, or the device changing hands). */
export function clearLog() {
  region()?.replaceChildren();
}

/**
 * Tell a game just put on the table, in a fresh log.
 * @param {View} view
 */
export function narrateGame(view, restored = false) {
  clearLog();
  say(describeGame(view, restored));
}

/**
 * What a player finds on taking the device (two players): their hand and the cards on the table.
 * @param {View} view
 */
export function describeTurn(view) {
  const parts = [t("a11y.say.hand", { cards: cards(view.hand) })];
  if (view.trick.length) parts.push(t("a11y.say.table", { cards: cards(view.trick.map((entry) => entry.card)) }));
  return parts.join(" ");
}

/**
 * Add ``text`` to the live region (a new line, so the same words said twice are read twice).
 * @param {string} text
 */
export function say(text, log = region()) {
  if (!text || !log) return;
  const line = document.createElement("p");
  line.textContent = text;
  log.append(line);
  // More than KEEP children: there is a first one.
  while (log.childElementCount > KEEP) /** @type {Element} */ (log.firstElementChild).remove();
}
