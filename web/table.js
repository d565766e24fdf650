// Drawing the table from a view. Nothing here knows the rules: what may be
// played or pressed comes from view.legal only.
//
// render(dom, model, ui) rebuilds the table from a "model" (a view, or a
// view part-way through an animated sequence of events). Every card on the
// table carries a data-key, so flip() can animate each card from where it
// was to where it is now.

import { cardBack, cardFace, cardLabel, cardShort, SUIT_NAMES, SUIT_SYMBOLS, suitIcon } from "./cards.js";

const OPPONENT = 1;
const ME = 0;

export function queryDom(doc = document) {
  const $ = (id) => doc.getElementById(id);
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
  };
}

function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value === undefined || value === null || value === false) continue;
    if (key === "class") node.className = value;
    else if (key === "text") node.textContent = value;
    else node.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined) node.append(child);
  return node;
}

/** A face-up card. As a button (in your hand) it plays; elsewhere it is an image. */
export function cardElement(code, { key = code, button = false, classes = "" } = {}) {
  const node = button
    ? h("button", { type: "button", class: `card ${classes}`, "aria-label": cardLabel(code) })
    : h("div", { class: `card ${classes}`, role: "img", "aria-label": cardLabel(code) });
  node.dataset.card = code;
  if (key) node.dataset.key = key;
  node.append(cardFace(code));
  return node;
}

export function backElement(key, classes = "") {
  const node = h("div", { class: `card back ${classes}`, "aria-hidden": "true" });
  if (key) node.dataset.key = key;
  node.append(cardBack());
  return node;
}

function marriageValue(suit, trumpSuit) {
  return suit === trumpSuit ? 40 : 20;
}

/** The words on an action button (presentation only; whether it shows comes from view.legal). */
export function actionLabel(action, view) {
  if (action.startsWith("marry:")) {
    const suit = action.slice(6);
    return `${marriageValue(suit, view.trump_suit)} ${SUIT_SYMBOLS[suit]}`;
  }
  switch (action) {
    case "exchange":
      return "Exchange trump";
    case "close":
      return "Close talon";
    case "claim":
      return "66!";
    case "pass":
      return "Pass";
    case "resign":
      return "Resign";
    case "next":
      return view.phase === "match_over" ? "Next match" : "Next deal";
    default:
      return action;
  }
}

function actionTitle(action, view) {
  if (action.startsWith("marry:")) {
    const suit = action.slice(6);
    return `Declare the marriage in ${SUIT_NAMES[suit]} (${marriageValue(suit, view.trump_suit)})`;
  }
  return {
    exchange: "Swap your lowest trump for the face-up trump card",
    close: "Turn the trump card down: no more drawing, strict rules from now on",
    claim: "Claim that you have 66 points",
    pass: "Do not claim",
    resign: "Give up this deal",
    next: "Deal the next hand",
  }[action];
}

const ACTION_ORDER = ["marry", "exchange", "close", "claim", "pass", "resign", "next"];

function actionRank(action) {
  const index = ACTION_ORDER.indexOf(action.split(":")[0]);
  return index < 0 ? ACTION_ORDER.length : index;
}

/** The non-card actions in view.legal, in a stable order. */
export function buttonActions(view) {
  return view.legal
    .filter((a) => !a.startsWith("play:"))
    .sort((a, b) => actionRank(a) - actionRank(b) || a.localeCompare(b));
}

function playableCards(view) {
  return new Set(view.legal.filter((a) => a.startsWith("play:")).map((a) => a.slice(5)));
}

function who(seat) {
  return seat === ME ? "You" : "Computer";
}

function pointsText(value, label) {
  return `${label} ${value}`;
}

// ------------------------------------------------------------------ parts

function renderOpponent(dom, model, ui) {
  const revealed = model.reveal ? model.reveal.hands[OPPONENT] : null;
  const cards = [];
  if (revealed) {
    for (const code of revealed) cards.push(cardElement(code, { classes: "revealed" }));
  } else {
    const known = model.opponent_known || [];
    const backs = Math.max(0, model.opponent_hand_count - known.length);
    for (let i = 0; i < backs; i++) cards.push(backElement(`opp-${i}`));
    for (const code of known) cards.push(cardElement(code, { classes: "known" }));
  }
  dom.oppHand.replaceChildren(...cards);
  const count = revealed ? revealed.length : model.opponent_hand_count;
  dom.oppCount.textContent = `${count} card${count === 1 ? "" : "s"}`;
  dom.oppHand.style.setProperty("--n", String(Math.max(cards.length, 1)));
  dom.oppHand.setAttribute(
    "aria-label",
    revealed ? `Computer's hand: ${revealed.map(cardShort).join(" ")}` : `Computer's hand: ${model.opponent_hand_count} cards`,
  );
  dom.thinking.hidden = !ui.thinking;
}

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
  node.setAttribute("aria-label", `${who(seat)}: ${count} trick${count === 1 ? "" : "s"}`);
  node.title = `${count} trick${count === 1 ? "" : "s"}`;
}

function renderStock(dom, model) {
  const cards = [];
  const trump = model.trump_card;
  const closedTrump = model.closed_trump_card;
  const closed = model.closed_by !== null && model.closed_by !== undefined;
  if (trump) cards.push(cardElement(trump, { classes: "trump-card" }));
  if (closedTrump) cards.push(backElement(`closed-${closedTrump}`, "trump-card turned"));
  if (model.talon_count > 0) cards.push(backElement("talon", closed ? "talon closed" : "talon"));
  const badge = h("span", { class: "trump-badge", title: `Trumps: ${SUIT_NAMES[model.trump_suit]}` });
  badge.append(h("span", { class: "trump-word", text: "Trumps" }), suitIcon(model.trump_suit));
  let label = "";
  if (closed) label = `Closed by ${model.closed_by === ME ? "you" : "computer"}`;
  else if (model.talon_count > 0) label = `${model.talon_count} in talon`;
  else label = "Talon exhausted";
  dom.stock.replaceChildren(badge, h("div", { class: "stock-cards" }, ...cards), h("span", { class: "talon-count", text: label }));
}

function renderTrick(dom, model) {
  const children = model.trick.map((entry, i) =>
    cardElement(entry.card, { classes: `trick-card from-${entry.seat === ME ? "me" : "opponent"} order-${i}` }),
  );
  dom.trick.replaceChildren(...children);
}

function renderMyHand(dom, model, ui) {
  const playable = playableCards(model);
  const myTurn = model.to_act === ME && ui.interactive;
  const cards = model.hand.map((code) => {
    const legal = ui.interactive && playable.has(code);
    const node = cardElement(code, { button: true, classes: legal ? "legal" : myTurn ? "unplayable" : "waiting" });
    node.dataset.legal = legal ? "1" : "0";
    if (!legal) node.disabled = true;
    if (model.declared && code[1] === model.declared && "KQ".includes(code[0])) node.classList.add("declared");
    return node;
  });
  dom.myHand.replaceChildren(...cards);
  dom.myHand.style.setProperty("--n", String(Math.max(cards.length, 1)));
}

function renderMarriages(node, model, seat) {
  const items = model.marriages.filter((m) => m.seat === seat);
  node.replaceChildren(
    ...items.map((m) => {
      const badge = h("span", {
        class: `marriage ${m.credited ? "" : "pending"}`,
        title: `${who(seat)} declared ${m.points} in ${SUIT_NAMES[m.suit]}${m.credited ? "" : " (not yet counted)"}`,
      });
      badge.append(h("span", { text: String(m.points) }), suitIcon(m.suit));
      return badge;
    }),
  );
}

function renderPoints(dom, model, ui) {
  const mode = ui.pointsMode;
  dom.myPoints.textContent = mode === "hide" ? "" : pointsText(model.my_points, "·");
  dom.oppPoints.textContent = mode === "both" ? pointsText(model.opponent_points, "·") : "";
}

function statusText(model, ui) {
  if (ui.message) return ui.message;
  if (model.deal_result) return "";
  if (model.to_act === OPPONENT) return "Computer's turn";
  if (model.to_act !== ME) return "";
  if (model.awaiting_final_claims) return "Last trick played: claim 66, or pass";
  if (model.declared) {
    return `Lead the King or Queen of ${SUIT_NAMES[model.declared]}`;
  }
  const strict = model.phase === "closed" || model.phase === "exhausted";
  const base = model.trick.length === 0 ? "Your lead" : "Your turn: answer the trick";
  return strict ? `${base} (strict rules)` : base;
}

function renderActions(dom, model, ui) {
  const buttons = [];
  if (!model.deal_result && ui.interactive) {
    for (const action of buttonActions(model)) {
      const classes = action === "claim" ? "btn btn-primary btn-claim" : action.startsWith("marry:") ? "btn btn-marry" : "btn";
      buttons.push(
        h("button", { type: "button", class: classes, "data-action": action, title: actionTitle(action, model), text: actionLabel(action, model) }),
      );
    }
  }
  dom.actions.replaceChildren(...buttons);
}

function dealHeading(model) {
  const result = model.deal_result;
  if (model.phase === "match_over") {
    const winner = model.match.winner;
    return winner === ME ? "You win the match!" : "The computer wins the match";
  }
  if (result.winner === null || result.winner === undefined) return "Nobody wins this deal";
  return result.winner === ME ? "You win the deal" : "The computer wins the deal";
}

function renderResult(dom, model, ui) {
  const result = model.deal_result;
  dom.result.hidden = !result;
  if (!result) {
    dom.result.replaceChildren();
    return;
  }
  const reveal = model.reveal;
  const scores = model.match.scores;
  const parts = [
    h("h2", { class: "result-title", text: dealHeading(model) }),
    h("p", { class: "result-reason", text: result.reason }),
    h("p", {
      class: "result-score",
      text: `Match: you ${scores[ME]} – ${scores[OPPONENT]} computer (to ${model.match.target})`,
    }),
  ];
  if (model.match.session_bummerls > 1) {
    const won = model.match.matches_won;
    parts.push(h("p", { class: "muted", text: `Matches won: you ${won[ME]}, computer ${won[OPPONENT]} (first to ${model.match.session_bummerls})` }));
  }
  if (reveal) {
    parts.push(
      h("p", {
        class: "muted",
        text: `Points: you ${reveal.points[ME]}, computer ${reveal.points[OPPONENT]} · tricks ${reveal.tricks[ME]}–${reveal.tricks[OPPONENT]}`,
      }),
    );
    if (reveal.talon.length) {
      const talon = h("div", { class: "result-talon" }, h("span", { class: "muted", text: "Talon:" }));
      for (const code of reveal.talon) talon.append(cardElement(code, { key: null, classes: "mini" }));
      parts.push(talon);
    }
  }
  const buttons = h("div", { class: "result-buttons" });
  if (ui.interactive) {
    for (const action of buttonActions(model)) {
      buttons.append(h("button", { type: "button", class: "btn btn-primary", "data-action": action, text: actionLabel(action, model) }));
    }
    if (model.game_over) {
      buttons.append(h("button", { type: "button", class: "btn btn-primary", "data-action": "new-game", text: "New match" }));
    }
  }
  parts.push(buttons);
  dom.result.replaceChildren(...parts);
}

function renderMatch(dom, model) {
  const scores = model.match.scores;
  const score = h("span", { class: "score" });
  score.append(
    h("span", { class: "score-who", text: "You" }),
    h("strong", { text: String(scores[ME]) }),
    h("span", { class: "score-sep", text: ":" }),
    h("strong", { text: String(scores[OPPONENT]) }),
    h("span", { class: "score-who", text: "Computer" }),
  );
  const extra = [];
  extra.push(h("span", { class: "score-target", text: `to ${model.match.target}` }));
  if (model.match.carry_over) extra.push(h("span", { class: "score-target", text: `+${model.match.carry_over} carried` }));
  if (model.match.session_bummerls > 1) {
    const won = model.match.matches_won;
    extra.push(h("span", { class: "score-target", text: `matches ${won[ME]}:${won[OPPONENT]}` }));
  }
  dom.matchScore.replaceChildren(score, ...extra);
  dom.rulesName.textContent = model.rules.name;
  dom.caption.textContent = model.rules.name;
}

function rulesSummary(rules) {
  const parts = [
    `${rules.deck} cards`,
    rules.claim_mode === "auto" ? "66 ends the deal automatically" : "claim 66 yourself",
    `match to ${rules.match_target}`,
  ];
  if (rules.resign) parts.push("resigning allowed");
  return `${rules.name}: ${parts.join(", ")}.`;
}

function renderPanel(dom, model) {
  const last = model.last_trick;
  if (last) {
    const row = h("div", { class: "review-row" });
    for (const entry of last.cards) {
      const wrap = h("div", { class: "review-card" }, cardElement(entry.card, { key: null, classes: "mini" }));
      wrap.append(h("span", { class: "muted small", text: entry.seat === ME ? "you" : "computer" }));
      row.append(wrap);
    }
    dom.lastTrick.replaceChildren(row, h("p", { class: "muted small", text: `${who(last.winner)} won ${last.points} points.` }));
  } else {
    dom.lastTrick.replaceChildren(h("p", { class: "muted", text: "No trick yet." }));
  }
  const rows = model.my_tricks.map((pair) => {
    const row = h("div", { class: "review-row" });
    for (const code of pair) row.append(cardElement(code, { key: null, classes: "mini" }));
    return row;
  });
  dom.myTricks.replaceChildren(...(rows.length ? rows : [h("p", { class: "muted", text: "None yet." })]));
  dom.myTricksCount.textContent = `(${model.my_tricks.length})`;
  dom.rulesSummary.textContent = rulesSummary(model.rules);
}

/** Draw the whole table for ``model``. */
export function render(dom, model, ui) {
  const root = dom.root;
  root.dataset.phase = model.phase;
  root.dataset.toAct = model.to_act === null ? "" : String(model.to_act);
  root.dataset.gameOver = model.game_over ? "1" : "0";
  renderMatch(dom, model);
  renderOpponent(dom, model, ui);
  renderPile(dom.oppPile, model.opponent_tricks, OPPONENT);
  renderStock(dom, model);
  renderTrick(dom, model);
  renderMyHand(dom, model, ui);
  renderPile(dom.myPile, model.my_tricks, ME);
  renderMarriages(dom.myMarriages, model, ME);
  renderMarriages(dom.oppMarriages, model, OPPONENT);
  renderPoints(dom, model, ui);
  renderActions(dom, model, ui);
  renderResult(dom, model, ui);
  renderPanel(dom, model);
  dom.status.textContent = statusText(model, ui);
}

// ------------------------------------------------------------- animation

/** Where every keyed card is now. */
export function snapshotRects(root) {
  const rects = new Map();
  for (const node of root.querySelectorAll("[data-key]")) rects.set(node.dataset.key, node.getBoundingClientRect());
  return rects;
}

function centre(rect) {
  return { x: rect.left + rect.width / 2, y: rect.top + rect.height / 2 };
}

/**
 * Move every keyed card from where it was (``before``) to where it is now.
 * A card that was not on the table before comes from ``origin(node)``
 * (a rect) if that gives one. Resolves when the movement ends.
 */
export function flip(root, before, duration, origin) {
  if (!duration) return Promise.resolve();
  const animations = [];
  for (const node of root.querySelectorAll("[data-key]")) {
    const now = node.getBoundingClientRect();
    if (!now.width) continue;
    const then = before.get(node.dataset.key) || origin(node);
    if (!then) continue;
    const a = centre(then);
    const b = centre(now);
    const dx = a.x - b.x;
    const dy = a.y - b.y;
    const scale = then.width / now.width;
    if (Math.abs(dx) < 1 && Math.abs(dy) < 1 && Math.abs(scale - 1) < 0.02) continue;
    animations.push(
      node.animate(
        [
          { translate: `${dx}px ${dy}px`, scale: `${scale}` },
          { translate: "0px 0px", scale: "1" },
        ],
        { duration, easing: "cubic-bezier(.2,.7,.3,1)" },
      ).finished.catch(() => {}),
    );
  }
  return Promise.all(animations);
}

/** Sweep the cards on the table towards a pile and fade them. */
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
