// @ts-check
// Drawing the table from a view. Nothing here knows the rules: what may be
// played or pressed comes from view.legal only. Every word comes from the
// translations (i18n.js); the end of a deal is told from deal_result's code,
// basis and winner, not from the engine's English "reason".
//
// render(dom, model, ui) rebuilds the table from a "model" (a view, or a
// view part-way through an animated sequence of events). Every card on the
// table carries a data-key, so flip() can animate each card from where it
// was to where it is now.

import { has, language, t, tp } from "../platform/i18n.js";
import { cardBack, cardFace, cardLabel, deckStyle, suitIcon, suitName } from "./cards.js";

/** @import { Action, Card, DealResult, RuleSet, Seat, View } from "../../types/engine.js" */
/** @typedef {ReturnType<typeof queryDom>} Dom The table's elements. */
/**
 * How to draw: which running points show ("hide", "own" or "both"), whether
 * you may act, whether the computer is thinking, a status line's words
 * instead of the usual ones ("" for those), and whether the last trick stays
 * on the table (faded) until the next card is played.
 * @typedef {{pointsMode: string, interactive: boolean, thinking: boolean, message: string, lingerTrick?: boolean}} Ui
 */
/** @typedef {string | number | boolean | null | undefined} AttributeValue */

// The seat drawn at the bottom (the protocol's number, the view's "seat") and the other one; set by render().
let ME = 0;
let OPPONENT = 1;

/** The table's elements in ``doc`` (index.html has them all, hence the cast). */
export function queryDom(doc = document) {
  /** @param {string} id */
  const $ = (id) => /** @type {HTMLElement} */ (doc.getElementById(id));
  return {
    root: $("table"),
    oppHand: $("opp-hand"),
    oppCount: $("opp-count"),
    oppPile: $("opp-pile"),
    oppPoints: $("opp-points"),
    oppMarriages: $("opp-marriages"),
    thinking: $("thinking"),
    stock: $("stock"),
    trick: $("trick"),
    result: $("result"),
    status: $("status"),
    actions: $("actions"),
    myHand: $("my-hand"),
    myPile: $("my-pile"),
    myPoints: $("my-points"),
    myMarriages: $("my-marriages"),
    matchScore: $("match-score"),
    rulesName: $("rules-name"),
    caption: $("table-caption"),
    rulesSummary: $("rules-summary"),
    lastTrick: $("last-trick"),
    myTricks: $("my-tricks"),
    myTricksCount: $("my-tricks-count"),
    oppTricksDetails: $("opp-tricks-details"),
    oppTricks: $("opp-tricks"),
    oppTricksCount: $("opp-tricks-count"),
  };
}

/**
 * An element with attributes and children. Attributes that are null,
 * undefined or false are left out and true ones are empty; ``class`` is the
 * class name and ``text`` the text.
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {Record<string, AttributeValue>} [attrs]
 * @param {...(Node | string | null | undefined)} children
 * @returns {HTMLElementTagNameMap[K]}
 */
export function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = /** @type {string} */ (value);
    else if (key === "text") node.textContent = /** @type {string} */ (value);
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/**
 * Replace a <select>'s options by ``entries`` ([value, label] pairs), with ``value`` selected.
 * @param {HTMLSelectElement} select
 * @param {[string | number, string][]} entries
 * @param {string | number} value
 */
export function fillSelect(select, entries, value) {
  select.replaceChildren(
    ...entries.map(([key, label]) =>
      h("option", { value: String(key), text: label, selected: String(key) === String(value) }),
    ),
  );
}

/**
 * "me" or "opp": the suffix of the keys that say something about a seat.
 * @param {Seat | null} seat
 */
function side(seat) {
  return seat === ME ? "me" : "opp";
}

/**
 * A face-up card. As a button (in your hand) it plays; elsewhere it is an image.
 * ``key``: what flip() follows it by (null: nothing).
 * @param {Card} code
 * @param {{key?: string | null, button?: boolean, classes?: string}} [options]
 */
export function cardElement(code, { key = code, button = false, classes = "" } = {}) {
  const node = button
    ? h("button", { type: "button", class: `card ${classes}`, "aria-label": cardLabel(code) })
    : h("div", { class: `card ${classes}`, role: "img", "aria-label": cardLabel(code) });
  node.dataset.card = code;
  node.dataset.deck = deckStyle();
  if (key) node.dataset.key = key;
  node.append(cardFace(code));
  return node;
}

/**
 * A card face down; ``key`` as for cardElement.
 * @param {string | null} key
 */
export function backElement(key, classes = "") {
  const node = h("div", { class: `card back ${classes}`, "aria-hidden": "true" });
  node.dataset.deck = deckStyle();
  if (key) node.dataset.key = key;
  node.append(cardBack());
  return node;
}

/**
 * The rules' name in the player's language (the engine's name for a preset the translations do not know).
 * @param {Pick<RuleSet, "id" | "name">} rules
 */
export function presetName(rules) {
  return has(`preset.${rules.id}`) ? t(`preset.${rules.id}`) : rules.name;
}

/**
 * The words on an action button (presentation only; whether it shows comes from view.legal).
 * @param {Action} action
 * @param {Pick<View, "marriage_offers" | "phase">} view
 */
export function actionLabel(action, view) {
  if (action.startsWith("marry:")) return String(view.marriage_offers[action.slice(6)].points);
  switch (action) {
    case "exchange":
      return t("action.exchange");
    case "close":
      return t("action.close");
    case "claim":
      return t("action.claim");
    case "pass":
      return t("action.pass");
    case "resign":
      return t("action.resign");
    case "next":
      return view.phase === "match_over" ? t("action.nextMatch") : t("action.nextDeal");
    default:
      return action;
  }
}

/**
 * @param {Action} action
 * @param {Pick<View, "marriage_offers">} view
 */
function actionTitle(action, view) {
  if (action.startsWith("marry:")) {
    const suit = action.slice(6);
    return t("action.marry.title", { points: view.marriage_offers[suit].points, suit: suitName(suit) });
  }
  switch (action) {
    case "exchange":
      return t("action.exchange.title");
    case "close":
      return t("action.close.title");
    case "claim":
      return t("action.claim.title");
    case "pass":
      return t("action.pass.title");
    case "resign":
      return t("action.resign.title");
    case "next":
      return t("action.next.title");
    default:
      return undefined;
  }
}

/**
 * An action button; a marriage shows its value and the suit's symbol.
 * @param {Action} action
 * @param {View} model
 * @param {string} classes
 */
function actionButton(action, model, classes, withTitle = true) {
  const title = withTitle ? actionTitle(action, model) : undefined;
  const button = h("button", {
    type: "button",
    class: classes,
    "data-action": action,
    title,
    text: actionLabel(action, model),
  });
  if (action.startsWith("marry:")) {
    button.setAttribute("aria-label", /** @type {string} */ (actionTitle(action, model))); // a marriage has one
    button.append(suitIcon(action.slice(6)));
  }
  return button;
}

const ACTION_ORDER = ["marry", "exchange", "close", "claim", "pass", "resign", "next"];

/** @param {Action} action */
function actionRank(action) {
  const index = ACTION_ORDER.indexOf(action.split(":")[0]);
  return index < 0 ? ACTION_ORDER.length : index;
}

/**
 * The non-card actions in view.legal, in a stable order.
 * @param {Pick<View, "legal">} view
 */
export function buttonActions(view) {
  return view.legal
    .filter((a) => !a.startsWith("play:"))
    .sort((a, b) => actionRank(a) - actionRank(b) || a.localeCompare(b));
}

/** @param {View} view */
function playableCards(view) {
  return new Set(view.legal.filter((a) => a.startsWith("play:")).map((a) => a.slice(5)));
}

// ------------------------------------------------------------------ parts

/**
 * @param {Dom} dom
 * @param {View} model
 * @param {Ui} ui
 */
function renderOpponent(dom, model, ui) {
  const revealed = model.reveal ? model.reveal.hands[OPPONENT] : null;
  const cards = [];
  if (revealed) {
    for (const code of revealed) cards.push(cardElement(code, { classes: "revealed" }));
  } else {
    // Face up when shown to this viewer (a watcher sees both hands), else the known cards and backs.
    const known = model.opponent_shown || model.opponent_known || [];
    const backs = Math.max(0, model.opponent_hand_count - known.length);
    for (let i = 0; i < backs; i++) cards.push(backElement(`opp-${i}`));
    for (const code of known) cards.push(cardElement(code, { classes: "known" }));
  }
  dom.oppHand.replaceChildren(...cards);
  const count = revealed ? revealed.length : model.opponent_hand_count;
  dom.oppCount.textContent = tp("opp.cards", count);
  dom.oppHand.style.setProperty("--n", String(Math.max(cards.length, 1)));
  dom.oppHand.setAttribute(
    "aria-label",
    revealed
      ? t("opp.handRevealed", { cards: revealed.map(cardLabel).join(", ") })
      : tp("opp.handHidden", model.opponent_hand_count),
  );
  dom.thinking.hidden = !ui.thinking;
}

/**
 * @param {HTMLElement} node
 * @param {Card[][]} tricks
 * @param {Seat} seat
 */
function renderPile(node, tricks, seat) {
  const count = tricks.length;
  const children = [];
  if (count > 0) {
    children.push(backElement(null, "pile-card"));
    if (count > 1) children.push(backElement(null, "pile-card pile-card-2"));
  }
  children.push(h("span", { class: "pile-count", text: String(count) }));
  node.replaceChildren(...children);
  node.classList.toggle("empty", count === 0);
  node.setAttribute("aria-label", t(`pile.tricks.${side(seat)}`, { n: count }));
  node.title = tp("pile.count", count);
}

/**
 * @param {Dom} dom
 * @param {View} model
 */
function renderStock(dom, model) {
  const cards = [];
  const trump = model.trump_card;
  const closedTrump = model.closed_trump_card;
  const closed = model.closed_by !== null && model.closed_by !== undefined;
  if (trump) cards.push(cardElement(trump, { classes: "trump-card" }));
  if (closedTrump) cards.push(backElement(`closed-${closedTrump}`, "trump-card turned"));
  if (model.talon_count > 0) cards.push(backElement("talon", closed ? "talon closed" : "talon"));
  const badge = h("span", {
    class: "trump-badge",
    title: t("stock.trumpsTitle", { suit: suitName(model.trump_suit) }),
  });
  badge.append(h("span", { class: "trump-word", text: t("stock.trumps") }), suitIcon(model.trump_suit));
  let label = "";
  if (closed) label = t(`stock.closedBy.${side(model.closed_by)}`);
  else if (model.talon_count > 0) label = t("stock.inTalon", { n: model.talon_count });
  else label = t("stock.exhausted");
  dom.stock.replaceChildren(
    badge,
    h("div", { class: "stock-cards" }, ...cards),
    h("span", { class: "talon-count", text: label }),
  );
}

/**
 * @param {Dom} dom
 * @param {View} model
 * @param {Ui} ui
 */
function renderTrick(dom, model, ui) {
  const last = model.last_trick;
  // It lingers while the other seat is to lead (you see what it won before its next card); never while you lead.
  const linger = ui.lingerTrick && model.trick.length === 0 && last !== null && model.to_act !== ME;
  const entries = linger ? last.cards : model.trick;
  const children = entries.map((entry, i) => {
    const classes = `trick-card from-${entry.seat === ME ? "me" : "opponent"} order-${i}${linger ? " lingering" : ""}`;
    const card = cardElement(entry.card, { classes });
    if (linger) card.dataset.winner = side(last.winner);
    return card;
  });
  dom.trick.replaceChildren(...children);
}

/**
 * Put exactly ``nodes`` into ``parent``, in order, moving as few as possible (a node left in place keeps the focus).
 * @param {HTMLElement} parent
 * @param {HTMLElement[]} nodes
 */
function keepChildren(parent, nodes) {
  /** @type {Set<Element>} */
  const wanted = new Set(nodes);
  for (const child of [...parent.children]) if (!wanted.has(child)) child.remove();
  nodes.forEach((node, i) => {
    if (parent.children[i] !== node) parent.insertBefore(node, parent.children[i] || null);
  });
}

// Your cards are kept from one drawing to the next (the keyboard focus stays on its card).
// A card you may not play now is aria-disabled, not disabled: it stays in reach of the keyboard and is read out.
/**
 * @param {Dom} dom
 * @param {View} model
 * @param {Ui} ui
 */
function renderMyHand(dom, model, ui) {
  const playable = playableCards(model);
  const myTurn = model.to_act === ME && ui.interactive;
  const face = `${deckStyle()} ${language()}`;
  const drawn = new Map(
    [.../** @type {NodeListOf<HTMLButtonElement>} */ (dom.myHand.querySelectorAll("button.card"))].map((node) => [
      node.dataset.card,
      node,
    ]),
  );
  const cards = model.hand.map((code) => {
    const legal = ui.interactive && playable.has(code);
    let node = drawn.get(code);
    if (!node || node.dataset.face !== face) {
      node = /** @type {HTMLButtonElement} */ (cardElement(code, { button: true }));
      node.dataset.face = face;
    }
    node.className = `card ${legal ? "legal" : myTurn ? "unplayable" : "waiting"}`;
    node.dataset.legal = legal ? "1" : "0";
    if (legal) node.removeAttribute("aria-disabled");
    else node.setAttribute("aria-disabled", "true");
    if (model.declared_cards.includes(code)) node.classList.add("declared");
    return node;
  });
  keepChildren(dom.myHand, cards);
  dom.myHand.style.setProperty("--n", String(Math.max(cards.length, 1)));
}

/**
 * @param {HTMLElement} node
 * @param {View} model
 * @param {Seat} seat
 */
function renderMarriages(node, model, seat) {
  const items = model.marriages.filter((m) => m.seat === seat);
  node.replaceChildren(
    ...items.map((m) => {
      const key = `marriage.${m.credited ? "title" : "pending"}.${side(seat)}`;
      const badge = h("span", {
        class: `marriage ${m.credited ? "" : "pending"}`,
        title: t(key, { points: m.points, suit: suitName(m.suit) }),
      });
      badge.append(h("span", { text: String(m.points) }), suitIcon(m.suit));
      return badge;
    }),
  );
}

/**
 * @param {Dom} dom
 * @param {View} model
 * @param {Ui} ui
 */
function renderPoints(dom, model, ui) {
  const mode = ui.pointsMode;
  // Hidden points leave the element empty (it is not drawn): no number, no word, no title.
  showPoints(dom.myPoints, mode === "hide" ? null : model.my_points);
  showPoints(dom.oppPoints, mode === "both" ? model.opponent_points : null);
}

/**
 * A seat's running points in words ("23 points"), or nothing.
 * @param {HTMLElement} node
 * @param {number | null} points
 */
function showPoints(node, points) {
  node.textContent = points === null ? "" : tp("running.points", points);
  if (points === null) node.removeAttribute("title");
  else node.title = t("running.title");
}

/**
 * @param {View} model
 * @param {Ui} ui
 */
function statusText(model, ui) {
  if (ui.message) return ui.message;
  if (model.deal_result) return "";
  if (model.to_act === OPPONENT) return t("status.computerTurn");
  if (model.to_act !== ME) return "";
  if (model.awaiting_final_claims) return t("status.finalClaims");
  if (model.declared && model.trick.length === 0) return t("status.leadMarriage", { suit: suitName(model.declared) });
  const strict = model.strict;
  if (model.trick.length === 0) return strict ? t("status.leadStrict") : t("status.lead");
  return strict ? t("status.answerStrict") : t("status.answer");
}

/**
 * @param {Dom} dom
 * @param {View} model
 * @param {Ui} ui
 */
function renderActions(dom, model, ui) {
  const buttons = [];
  if (!model.deal_result && ui.interactive) {
    for (const action of buttonActions(model)) {
      const classes =
        action === "claim" ? "btn btn-primary btn-claim" : action.startsWith("marry:") ? "btn btn-marry" : "btn";
      buttons.push(actionButton(action, model, classes));
    }
  }
  dom.actions.replaceChildren(...buttons);
}

// ------------------------------------------------------------ deal result

/** Where the end-of-deal panel is a sheet at the bottom of the screen (styles.css) and folds its explanation. */
export const FOLDED = "(max-width: 979px), (max-height: 600px)";

// Whose deed the code describes: the claimer or resigner ("by"), the winner, or the loser (a failed close).
/** @type {Record<string, "by" | "winner" | "loser">} */
const CODE_PERSON = {
  claim_66: "by",
  auto_66: "winner",
  wrong_claim: "by",
  close_success: "winner",
  close_failed: "loser",
  resigned: "by",
};
// Bases that name the loser (the others are said the same way whoever lost).
const BASIS_PERSON = new Set(["schwarz", "schneider", "simple"]);

/** @param {View} model (a deal's end: deal_result is set) */
function dealHeading(model) {
  const result = /** @type {DealResult} */ (model.deal_result);
  if (model.phase === "match_over") return t(`result.match.${side(model.match.winner)}`);
  if (result.winner === null || result.winner === undefined) return t("result.deal.none");
  return t(`result.deal.${side(result.winner)}`);
}

/**
 * Why the deal ended and what it scores, from deal_result's code, basis and winner (seat 0's view); after a
 * close judged at the moment of closing (at_close), also that moment's tricks and points of the closer's opponent.
 * @param {Pick<DealResult, "winner" | "code" | "basis" | "by" | "game_points" | "at_close">} result
 */
export function dealReason(result) {
  const reason = dealReasonOnly(result);
  const atClose = result.at_close;
  if (!atClose || result.winner === null || result.winner === undefined) return reason;
  // Judged when the talon was closed: say so, and what the closer's opponent had then (the Schneider line counts that).
  return `${reason} ${tp(`result.atClose.${side(1 - result.winner)}`, atClose.tricks, { points: atClose.points })}`;
}

/** @param {Pick<DealResult, "winner" | "code" | "basis" | "by" | "game_points">} result */
function dealReasonOnly(result) {
  const winner = result.winner ?? null;
  const loser = winner === null ? null : 1 - winner;
  const person = CODE_PERSON[result.code];
  let text;
  if (person) {
    const seat = person === "by" ? (result.by ?? winner) : person === "winner" ? winner : loser;
    text = t(`result.code.${result.code}.${side(seat)}`);
  } else {
    text = t(`result.code.${result.code}`);
  }
  if (winner === null) return text;
  const gain = tp(`result.gain.${side(winner)}`, result.game_points);
  if (!result.basis || result.basis === "none") return `${text} ${gain}.`;
  const basis = BASIS_PERSON.has(result.basis)
    ? t(`result.basis.${result.basis}.${side(loser)}`)
    : t(`result.basis.${result.basis}`);
  return `${text} ${gain} (${basis}).`;
}

/**
 * @param {Dom} dom
 * @param {View} model
 * @param {Ui} ui
 */
function renderResult(dom, model, ui) {
  const result = model.deal_result;
  dom.result.hidden = !result;
  if (!result) {
    dom.result.replaceChildren();
    delete dom.result.dataset.code;
    delete dom.result.dataset.basis;
    return;
  }
  dom.result.dataset.code = result.code;
  dom.result.dataset.basis = result.basis;
  const reveal = model.reveal;
  const scores = model.match.scores;
  // Why it ended and the cards' points fold away where the panel is small (FOLDED); the way on never scrolls.
  const details = h(
    "details",
    { class: "result-details", open: !matchMedia(FOLDED).matches },
    h("summary", { text: t("result.why") }),
    h("p", { class: "result-reason", text: dealReason(result) }),
  );
  const body = h(
    "div",
    { class: "result-body" },
    h("h2", { class: "result-title", text: dealHeading(model) }),
    details,
    h("p", {
      class: "result-score",
      text: t("result.matchScore", { me: scores[ME], opp: scores[OPPONENT], target: model.match.target }),
    }),
  );
  if (model.match.session_bummerls > 1) {
    const won = model.match.matches_won;
    body.append(
      h("p", {
        class: "muted",
        text: t("result.matchesWon", { me: won[ME], opp: won[OPPONENT], target: model.match.session_bummerls }),
      }),
    );
  }
  if (reveal) {
    details.append(
      h("p", {
        class: "muted",
        text: t("result.points", {
          me: reveal.points[ME],
          opp: reveal.points[OPPONENT],
          myTricks: reveal.tricks[ME],
          oppTricks: reveal.tricks[OPPONENT],
        }),
      }),
    );
    if (reveal.talon.length) {
      const talon = h("div", { class: "result-talon" }, h("span", { class: "muted", text: t("result.talon") }));
      for (const code of reveal.talon) talon.append(cardElement(code, { key: null, classes: "mini" }));
      details.append(talon);
    }
  }
  const buttons = h("div", { class: "result-buttons" });
  if (ui.interactive) {
    for (const action of buttonActions(model)) buttons.append(actionButton(action, model, "btn btn-primary", false));
    if (model.game_over) {
      buttons.append(
        h("button", {
          type: "button",
          class: "btn btn-primary",
          "data-action": "new-game",
          text: t("action.newMatch"),
        }),
      );
    }
  }
  dom.result.replaceChildren(body, buttons);
}

/**
 * @param {Dom} dom
 * @param {View} model
 */
function renderMatch(dom, model) {
  const scores = model.match.scores;
  const score = h("span", { class: "score" });
  // The top bar's score opens the score sheet: its name says so first.
  score.append(
    h("span", { class: "visually-hidden", text: `${t("sheet.title")}: ` }),
    h("span", { class: "score-who score-who-me", text: t("seat.you") }),
    h("strong", { class: "score-me", text: String(scores[ME]) }),
    h("span", { class: "score-sep", text: ":" }),
    h("strong", { class: "score-opp", text: String(scores[OPPONENT]) }),
    h("span", { class: "score-who score-who-opp", text: t("seat.computer") }),
  );
  const extra = [];
  extra.push(h("span", { class: "score-target", text: t("score.to", { n: model.match.target }) }));
  if (model.match.carry_over)
    extra.push(h("span", { class: "score-target", text: t("score.carried", { n: model.match.carry_over }) }));
  if (model.match.session_bummerls > 1) {
    const won = model.match.matches_won;
    extra.push(h("span", { class: "score-target", text: t("score.matches", { me: won[ME], opp: won[OPPONENT] }) }));
  }
  dom.matchScore.replaceChildren(score, ...extra);
  dom.matchScore.hidden = false;
  const name = presetName(model.rules);
  dom.rulesName.textContent = name;
  dom.caption.textContent = name;
}

/**
 * The rules in a sentence: "Austrian Schnapsen: 20 cards, claim 66 yourself, match to 7."
 * @param {RuleSet} rules
 */
export function rulesSummary(rules) {
  const parts = [
    tp("rules.deck", rules.deck),
    rules.claim_mode === "auto" ? t("rules.auto") : t("rules.manual"),
    t("rules.target", { n: rules.match_target }),
  ];
  if (rules.resign) parts.push(t("rules.resign"));
  return t("rules.summary", { name: presetName(rules), parts: parts.join(", ") });
}

/**
 * One row of small cards per trick.
 * @param {Card[][]} tricks
 */
function trickRows(tricks) {
  return tricks.map((pair) => {
    const row = h("div", { class: "review-row" });
    for (const code of pair) row.append(cardElement(code, { key: null, classes: "mini" }));
    return row;
  });
}

/**
 * @param {Dom} dom
 * @param {View} model
 * @param {Ui} ui
 */
function renderPanel(dom, model, ui) {
  const last = model.last_trick;
  if (last) {
    const row = h("div", { class: "review-row" });
    for (const entry of last.cards) {
      const wrap = h("div", { class: "review-card" }, cardElement(entry.card, { key: null, classes: "mini" }));
      wrap.append(h("span", { class: "muted small", text: t(`panel.played.${side(entry.seat)}`) }));
      row.append(wrap);
    }
    dom.lastTrick.replaceChildren(
      row,
      h("p", { class: "muted small", text: tp(`panel.trickWon.${side(last.winner)}`, last.points) }),
    );
  } else {
    dom.lastTrick.replaceChildren(h("p", { class: "muted", text: t("panel.noTrick") }));
  }
  const rows = trickRows(model.my_tricks);
  // Counting in your head, as at a real table: the won cards stay face down until the deal is over.
  const inHead = ui.pointsMode === "hide" && !model.deal_result && rows.length > 0;
  dom.myTricks.replaceChildren(
    ...(inHead
      ? [h("p", { class: "muted", text: t("panel.countInHead") })]
      : rows.length
        ? rows
        : [h("p", { class: "muted", text: t("panel.noneYet") })]),
  );
  dom.myTricksCount.textContent = `(${model.my_tricks.length})`;
  // With both seats' points shown (and in every puzzle), the other seat's tricks are shown too: every card in
  // them was seen when it was played.
  const theirs = trickRows(model.opponent_tricks);
  dom.oppTricksDetails.hidden = ui.pointsMode !== "both";
  dom.oppTricks.replaceChildren(...(theirs.length ? theirs : [h("p", { class: "muted", text: t("panel.noneYet") })]));
  dom.oppTricksCount.textContent = `(${model.opponent_tricks.length})`;
  dom.rulesSummary.textContent = rulesSummary(model.rules);
}

/**
 * Draw the whole table for ``model``.
 * @param {Dom} dom
 * @param {View} model
 * @param {Ui} ui
 */
export function render(dom, model, ui) {
  ME = model.seat ?? 0;
  OPPONENT = 1 - ME;
  const root = dom.root;
  root.dataset.phase = model.phase;
  root.dataset.toAct = model.to_act === null ? "" : String(model.to_act);
  root.dataset.gameOver = model.game_over ? "1" : "0";
  root.dataset.deck = deckStyle();
  renderMatch(dom, model);
  renderOpponent(dom, model, ui);
  renderPile(dom.oppPile, model.opponent_tricks, OPPONENT);
  renderStock(dom, model);
  renderTrick(dom, model, ui);
  renderMyHand(dom, model, ui);
  renderPile(dom.myPile, model.my_tricks, ME);
  renderMarriages(dom.myMarriages, model, ME);
  renderMarriages(dom.oppMarriages, model, OPPONENT);
  renderPoints(dom, model, ui);
  renderActions(dom, model, ui);
  renderResult(dom, model, ui);
  renderPanel(dom, model, ui);
  dom.status.textContent = statusText(model, ui);
}

// ------------------------------------------------------------- animation

/**
 * Where every keyed card is now.
 * @param {HTMLElement} root
 * @returns {Map<string, DOMRect>}
 */
export function snapshotRects(root) {
  const rects = new Map();
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-key]")))
    rects.set(/** @type {string} */ (node.dataset.key), node.getBoundingClientRect());
  return rects;
}

/** @param {DOMRect} rect */
function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

/**
 * Move every keyed card from where it was (``before``) to where it is now.
 * A card that was not on the table before comes from ``origin(node)``
 * (a rect) if that gives one. Resolves when the movement ends.
 * @param {HTMLElement} root
 * @param {Map<string, DOMRect>} before
 * @param {number} duration
 * @param {(node: HTMLElement) => DOMRect | null} origin
 */
export function flip(root, before, duration, origin) {
  if (!duration) return Promise.resolve();
  const animations = [];
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-key]"))) {
    const now = node.getBoundingClientRect();
    if (!now.width) continue;
    const then = before.get(/** @type {string} */ (node.dataset.key)) || origin(node);
    if (!then) continue;
    const a = centre(then);
    const b = centre(now);
    const dx = a.x - b.x;
    const dy = a.y - b.y;
    const scale = then.width / now.width;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(scale - 1) < 0.02) continue;
    animations.push(
      node
        .animate(
          [
            { translate: `${dx}px ${dy}px`, scale: `${scale}` },
            { translate: "0px 0px", scale: "1" },
          ],
          { duration, easing: "cubic-bezier(.2,.7,.3,1)" },
        )
        .finished.catch(() => {}),
    );
  }
  return Promise.all(animations);
}

/**
 * Sweep the cards on the table towards a pile and fade them.
 * @param {Iterable<Element>} nodes
 * @param {HTMLElement | null} target
 * @param {number} duration
 */
export function sweep(nodes, target, duration) {
  if (!duration || !target) return Promise.resolve();
  const to = centre(target.getBoundingClientRect());
  return Promise.all(
    [...nodes].map((node) => {
      const from = centre(node.getBoundingClientRect());
      return node
        .animate(
          [
            { translate: "0px 0px", scale: "1", opacity: 1 },
            { translate: `${to.x - from.x}px ${to.y - from.y}px`, scale: "0.5", opacity: 0.2 },
          ],
          { duration, easing: "ease-in", fill: "forwards" },
        )
        .finished.catch(() => {});
    }),
  );
}
