// @ts-check
// The analysis board: a finished deal with every card shown, stepped through
// and played on from any point with other moves, for either side.
//
// The engine owns the board (py_engine/service/analysis.py): the tree of
// lines, every position (replayed from the deal's pack), the options at each
// and their values. This screen names nodes and moves and draws what comes
// back: it never decides what may be played. Each position's options are
// valued from what the player to move knew there, or, with the switch, with
// every card known (double dummy); an evaluation is asked for once the
// player stops on a position, one at a time, so stepping never queues work.

import { formatNumber, language, t, tp } from "../platform/i18n.js";
import { cardLabel, suitIcon, suitName } from "../table/cards.js";
import { moveWords as wordsOfMove } from "../table/move-words.js";
import { cardElement } from "../table/table.js";
import { copyLink, linkUrl } from "./links.js";

/** @import { Client } from "./records.js" */
/** @import { Action, BoardAnswer, BoardNode, BoardPosition, Card, Evaluation, Seat } from "../../types/engine.js" */
/**
 * The board on screen.
 * @typedef {{
 *   client: Client,
 *   about: BoardAnswer,
 *   tree: Map<number, BoardNode>,
 *   position: BoardPosition,
 *   names: string[],
 *   allCards: boolean,
 *   evaluation: Evaluation | null,
 *   evaluations: Map<string, Evaluation>,
 *   evaluating: boolean,
 *   wanted: number,
 *   onClose?: () => void,
 * }} Session
 */

const params = new URLSearchParams(window.location.search);
const TEST = params.get("test") === "1";
// Each evaluation's search time: the engine's own (BUDGETS, py_engine/service/defaults.py); tests evaluate quickly.
const BUDGET_MS = TEST ? Number(params.get("analysis_ms")) || 100 : null;
/** How long the player rests on a position before the computer is asked about it (milliseconds). */
const SETTLE_MS = TEST ? 0 : 250;

/** @type {Session | null} */
let session = null;
/** Numbers the positions shown: an answer about an older one is dropped. */
let shown = 0;

/**
 * An element of index.html's analysis dialog (it has every one asked for here, hence the cast).
 * @param {string} id
 */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * @template {keyof HTMLElementTagNameMap} K
 * @param {K} tag
 * @param {string} [className]
 * @param {string} [text]
 * @returns {HTMLElementTagNameMap[K]}
 */
function h(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** @returns {Session} */
function current() {
  return /** @type {Session} */ (session);
}

// ------------------------------------------------------------------- words

/**
 * An option or a move in words: "Queen of hearts", "marriage 40 (hearts)", "talon closed".
 * @param {Action} action
 * @param {{valid?: boolean, points?: number}} [facts] what the engine said of a move played
 */
export function moveWords(action, facts = {}) {
  const suit = action.startsWith("marry:")
    ? /** @type {import("../../types/engine.js").Suit} */ (action.slice(6))
    : null;
  const points = facts.points ?? (suit ? session?.about.marriage_offers[suit]?.points : undefined) ?? "";
  return wordsOfMove(action, { points, valid: facts.valid, option: true });
}

/**
 * An option as the first word of its line: "Claim 66" among "Queen of hearts" and "Talon closed".
 * @param {string} words
 */
function capitalised(words) {
  return words.charAt(0).toLocaleUpperCase(language()) + words.slice(1);
}

/**
 * A value in game points for the player to move, signed, as shown ("+2", "≈ −0.4") and as read out.
 * Values come as game points divided by 3; exact ones are whole game points.
 * @param {number} value
 * @param {boolean} exact
 */
export function valueWords(value, exact) {
  const points = value * 3;
  const digits = exact && Math.abs(points - Math.round(points)) < 0.005 ? 0 : exact ? 2 : 1;
  const size = formatNumber(Math.abs(points), digits);
  const zero = size === formatNumber(0, digits);
  const signed = zero ? size : `${points > 0 ? "+" : "−"}${size}`;
  const said = zero ? size : points > 0 ? size : `−${size}`;
  return {
    shown: exact ? signed : `≈ ${signed}`,
    said: saidValue(points, exact, zero, said),
  };
}

/**
 * A value as a screen reader says it: won or lost, exactly, or an estimate.
 * @param {number} points
 * @param {boolean} exact
 * @param {boolean} zero
 * @param {string} said
 */
function saidValue(points, exact, zero, said) {
  if (!exact) return t("analysis.value.about", { value: said });
  if (zero) return t("analysis.value.even");
  const n = Math.round(Math.abs(points));
  return points > 0 ? tp("analysis.value.gain", n) : tp("analysis.value.loss", n);
}

// ------------------------------------------------------------------ drawing

/** @param {Card[]} codes */
function cards(codes) {
  return codes.map((code) => cardElement(code, { key: null, classes: "mini" }));
}

/** @param {Seat} seat */
function renderSeat(seat) {
  const { about, position, names } = current();
  const state = position.state;
  const box = $(seat === about.seat ? "analysis-seat-bottom" : "analysis-seat-top");
  box.dataset.seat = String(seat);
  box.setAttribute("aria-label", names[seat]);
  const head = h("div", "review-seat-head");
  head.append(
    h("strong", "", names[seat]),
    h("span", "muted", t("modes.review.score", { points: state.points[seat], tricks: state.tricks[seat] })),
  );
  if (position.to_act === seat) head.append(h("span", "analysis-to-move", t("analysis.toMove")));
  const hand = h("div", "review-hand");
  hand.id = `analysis-hand-${seat}`;
  const playable = new Set(
    position.options.filter((o) => o.seat === seat && o.action.startsWith("play:")).map((o) => o.action.slice(5)),
  );
  hand.append(
    ...state.hands[seat].map((code) => {
      if (!playable.has(code)) return cardElement(code, { key: null, classes: "mini" });
      const button = cardElement(code, { key: null, button: true, classes: "mini analysis-card" });
      button.dataset.play = `play:${code}`;
      button.dataset.seat = String(seat);
      button.setAttribute("aria-label", t("analysis.playCard", { card: cardLabel(code) }));
      return button;
    }),
  );
  box.replaceChildren(head, hand);
}

function renderMiddle() {
  const { position, names } = current();
  const state = position.state;
  const trick = $("analysis-trick");
  const taken = position.events.find((e) => e.type === "trick");
  if (taken && taken.type === "trick") {
    trick.replaceChildren(...cards(taken.cards));
    trick.append(
      h("span", "muted small", t("modes.review.trickTo", { name: names[taken.winner], points: taken.points })),
    );
  } else {
    trick.replaceChildren(...cards(state.trick.map((entry) => entry.card)));
  }
  const face = state.trump_card ? cards([state.trump_card]) : [];
  for (const card of face) card.classList.add("trump-card");
  $("analysis-talon").replaceChildren(
    h("span", "muted small", t("modes.review.talon")),
    ...cards(state.talon),
    ...face,
  );
}

/** The text of the position: where it is, and the move that led to it. */
function renderPosition() {
  const { position, tree, names } = current();
  const node = /** @type {BoardNode} */ (tree.get(position.node));
  const dialog = $("analysis-dialog");
  dialog.dataset.node = String(position.node);
  dialog.dataset.ply = String(position.ply);
  dialog.dataset.main = position.main ? "1" : "0";
  dialog.dataset.over = position.over ? "1" : "0";
  $("analysis-position").textContent =
    position.ply === 0
      ? t("modes.review.start")
      : position.main
        ? t("analysis.positionMain", { n: position.ply, total: current().about.moves })
        : t("analysis.positionLine", { n: position.ply });
  const move = $("analysis-move");
  move.textContent =
    node.action === null || node.seat === null
      ? ""
      : t("modes.move.by", { name: names[node.seat], move: moveWords(node.action, node) });
  const first = position.node === 0;
  const last = node.children.length === 0;
  const focused = document.activeElement;
  for (const [id, disabled] of /** @type {[string, boolean][]} */ ([
    ["analysis-first", first],
    ["analysis-prev", first],
    ["analysis-next", last],
    ["analysis-last", last],
  ])) {
    /** @type {HTMLButtonElement} */ ($(id)).disabled = disabled;
  }
  if (focused instanceof HTMLButtonElement && focused.disabled && focused.closest(".review-nav")) {
    $(first ? "analysis-next" : "analysis-prev").focus();
  }
  /** @type {HTMLButtonElement} */ ($("analysis-remove")).disabled = position.main;
  const result = position.result;
  $("analysis-result").textContent = !result
    ? ""
    : result.winner === null || result.winner === undefined
      ? t("modes.review.noWinner")
      : tp("modes.review.won", result.game_points, { name: names[result.winner] });
}

/** The options of the player to move, with their values once evaluated (best first). */
function renderOptions() {
  const { position, evaluation, names, allCards } = current();
  const list = $("analysis-options");
  const dialog = $("analysis-dialog");
  const mover = position.to_act;
  const ready = evaluation !== null && evaluation.node === position.node && evaluation.all_cards === allCards;
  dialog.dataset.evaluated = ready ? "1" : "0";
  // "You" is a name at the start of a sentence only: the basis of your own moves has its own words.
  const yours = mover !== null && names[mover] === t("seat.you");
  $("analysis-basis").textContent =
    mover === null
      ? ""
      : allCards
        ? t("analysis.basis.allCards")
        : yours
          ? t("analysis.basis.you")
          : t("analysis.basis.mover", { name: names[mover] });
  /** @type {Map<string, {value: number, exact: boolean}>} */
  const values = new Map();
  if (ready) for (const entry of evaluation.ranking) values.set(entry.action, entry);
  const ranked = ready ? evaluation.ranking.map((entry) => entry.action) : [];
  const options = [...position.options].sort((a, b) => {
    const rank = (/** @type {{seat: Seat, action: Action}} */ o) =>
      o.seat === mover && ranked.includes(o.action) ? ranked.indexOf(o.action) : ranked.length + 1;
    return rank(a) - rank(b);
  });
  const best = ready && evaluation.ranking.length ? evaluation.ranking[0].value : null;
  list.replaceChildren(
    ...options.map((option) => {
      const item = h("li");
      item.dataset.seat = String(option.seat);
      item.dataset.action = option.action;
      const button = h("button", "analysis-option");
      button.type = "button";
      button.dataset.play = option.action;
      button.dataset.seat = String(option.seat);
      const words = moveWords(option.action);
      button.append(
        h(
          "span",
          "analysis-option-move",
          option.seat === mover ? capitalised(words) : t("modes.move.by", { name: names[option.seat], move: words }),
        ),
      );
      const entry = option.seat === mover ? values.get(option.action) : undefined;
      if (entry) {
        const { shown: text, said } = valueWords(entry.value, entry.exact);
        item.dataset.value = String(entry.value);
        item.dataset.exact = entry.exact ? "1" : "0";
        const value = h("span", `analysis-value${entry.exact ? " exact" : ""}`, text);
        value.setAttribute("aria-hidden", "true");
        button.append(value, h("span", "visually-hidden", `, ${said}`));
        if (best !== null && entry.value >= best - 0.0005) {
          item.dataset.best = "1";
          button.append(h("span", "analysis-tag best", t("analysis.best")));
        }
      }
      if (option.action === position.played && option.seat === mover) {
        item.dataset.played = "1";
        button.append(h("span", "analysis-tag", t("analysis.played")));
      }
      item.append(button);
      return item;
    }),
  );
  const status = $("analysis-status");
  if (mover === null) status.textContent = t("analysis.over");
  else if (!ready) status.textContent = t("analysis.evaluating");
  else if (!evaluation.ranking.length) status.textContent = t("analysis.forced");
  else if (evaluation.exact) status.textContent = t("analysis.exact");
  else if (evaluation.ranking.some((entry) => entry.exact)) status.textContent = t("analysis.mixed");
  else status.textContent = allCards ? t("analysis.estimatedAllCards") : t("analysis.estimated");
}

/**
 * One line of the tree from ``id`` on (following each node's first child), its variations nested where they
 * leave it.
 * @param {number} id the line's first node
 */
function lineFrom(id) {
  const { tree, names, position } = current();
  const list = h("ol", "analysis-line");
  /** @type {number | undefined} */
  let at = id;
  while (at !== undefined) {
    const node = /** @type {BoardNode} */ (tree.get(at));
    const item = h("li", "analysis-move");
    item.dataset.node = String(node.id);
    if (!node.main) item.classList.add("variation-move");
    const button = h("button", "review-move-button");
    button.type = "button";
    button.dataset.goto = String(node.id);
    const words = moveWords(/** @type {Action} */ (node.action), node);
    button.textContent = t("modes.move.by", { name: names[/** @type {Seat} */ (node.seat)], move: words });
    if (node.trick !== null && node.taken)
      button.append(h("span", "muted small", ` · ${t("modes.review.trick", { n: node.trick })}`));
    if (node.id === position.node) {
      item.classList.add("current");
      button.setAttribute("aria-current", "step");
    }
    item.append(button);
    list.append(item);
    const parent = /** @type {BoardNode} */ (tree.get(/** @type {number} */ (node.parent)));
    if (parent.children[0] === node.id) {
      for (const other of parent.children.slice(1)) {
        const nest = h("li", "analysis-variation");
        const inner = lineFrom(other);
        inner.setAttribute("aria-label", t("analysis.variation"));
        nest.append(inner);
        list.append(nest);
      }
    }
    at = node.children[0];
  }
  return list;
}

function renderTree() {
  const { tree } = current();
  const root = /** @type {BoardNode} */ (tree.get(0));
  const list = $("analysis-tree");
  if (!root.children.length) {
    list.replaceChildren();
    return;
  }
  // The deal's first move, its alternatives (variations from the deal as dealt) nested after it, and so on.
  list.replaceChildren(...lineFrom(root.children[0]).children);
  // The current move in view inside the tree's own scroll box (scrollIntoView would scroll the dialog too).
  const here = list.querySelector("li.current");
  if (here instanceof HTMLElement && list.clientHeight) {
    const top = here.getBoundingClientRect().top - list.getBoundingClientRect().top + list.scrollTop;
    if (top < list.scrollTop || top + here.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = Math.max(0, top - list.clientHeight / 2);
    }
  }
}

function renderTrumps() {
  const { about } = current();
  const line = $("analysis-trumps");
  line.dataset.suit = about.trump_suit;
  const icon = suitIcon(about.trump_suit);
  icon.setAttribute("aria-hidden", "true");
  line.replaceChildren(t("modes.review.trumps", { suit: suitName(about.trump_suit) }), " ", icon);
}

function render() {
  const { about } = current();
  renderSeat(/** @type {Seat} */ (1 - about.seat));
  renderSeat(about.seat);
  renderMiddle();
  renderPosition();
  renderOptions();
  renderTree();
}

// ------------------------------------------------------------ the engine

/** @param {unknown} error */
function failed(error) {
  if (session) $("analysis-status").textContent = t("notice.error", { detail: /** @type {Error} */ (error).message });
}

/**
 * Show a position the engine answered (and the tree, if it changed); then ask for its values.
 * @param {BoardPosition} position
 * @param {import("../../types/engine.js").BoardNode[]} [tree]
 */
function show(position, tree) {
  const here = current();
  if (tree) {
    here.tree = new Map(tree.map((node) => [node.id, node]));
    for (const key of [...here.evaluations.keys()]) {
      if (!here.tree.has(Number(key.split(":")[0]))) here.evaluations.delete(key);
    }
  }
  here.position = position;
  here.wanted = position.node;
  here.evaluation = here.evaluations.get(`${position.node}:${here.allCards}`) ?? null;
  shown += 1;
  render();
  evaluateSoon();
}

/**
 * Go to a node of the tree.
 * @param {number} id
 */
async function goTo(id) {
  const here = current();
  if (!here.tree.has(id) || id === here.wanted) return;
  // Steps asked for in a row count from the last one asked for, not from the one shown meanwhile.
  here.wanted = id;
  try {
    const answer = await here.client.request({ cmd: "analysis_show", board: here.about.board, node: id });
    if (session === here && here.wanted === id) show(answer.position);
  } catch (error) {
    if (here.wanted === id) here.wanted = here.position.node;
    failed(error);
  }
}

/**
 * Play an option at the position shown: a new variation, or the line already there.
 * @param {Seat} seat
 * @param {Action} action
 */
async function play(seat, action) {
  const here = current();
  try {
    const answer = await here.client.request({
      cmd: "analysis_play",
      board: here.about.board,
      node: here.position.node,
      seat,
      action,
    });
    if (session === here) show(answer.position, answer.tree);
  } catch (error) {
    failed(error);
  }
}

async function removeVariation() {
  const here = current();
  if (here.position.main) return;
  try {
    const answer = await here.client.request({
      cmd: "analysis_remove",
      board: here.about.board,
      node: here.position.node,
    });
    if (session === here) {
      show(answer.position, answer.tree);
      $("analysis-prev").focus();
    }
  } catch (error) {
    failed(error);
  }
}

/** @type {ReturnType<typeof setTimeout> | null} */
let settle = null;

/** Ask for the values of the position shown once the player rests on it (one request at a time). */
function evaluateSoon() {
  if (settle !== null) clearTimeout(settle);
  settle = setTimeout(() => {
    settle = null;
    evaluate();
  }, SETTLE_MS);
}

async function evaluate() {
  const here = session;
  if (!here || here.evaluating || here.position.to_act === null || here.evaluation) return;
  const node = here.position.node;
  const allCards = here.allCards;
  const token = shown;
  here.evaluating = true;
  try {
    const answer = await here.client.request(
      {
        cmd: "analysis_evaluate",
        board: here.about.board,
        node,
        all_cards: allCards,
        ...(BUDGET_MS ? { budget_ms: BUDGET_MS } : {}),
      },
      { timeoutMs: 60_000 },
    );
    here.evaluations.set(`${node}:${allCards}`, answer.evaluation);
    if (session === here && here.position.node === node && here.allCards === allCards) {
      here.evaluation = answer.evaluation;
      renderOptions();
    }
  } catch (error) {
    if (token === shown) failed(error);
  } finally {
    here.evaluating = false;
  }
  // The player moved on meanwhile: the position shown now.
  if (session === here && !here.evaluation) evaluate();
}

async function copyPositionLink() {
  const here = current();
  try {
    const answer = await here.client.request({ cmd: "link_make", board: here.about.board, node: here.position.node });
    await copyLink(linkUrl(answer.link), {
      box: $("analysis-link-box"),
      input: /** @type {HTMLInputElement} */ ($("analysis-link")),
      status: $("analysis-link-status"),
    });
  } catch (error) {
    failed(error);
  }
}

// ------------------------------------------------------------ the player

/** The node after the position shown along its line, its line's end, and its neighbouring variations. */
function neighbours() {
  const { tree, wanted } = current();
  const node = /** @type {BoardNode} */ (tree.get(wanted));
  let end = node;
  while (end.children.length) end = /** @type {BoardNode} */ (tree.get(end.children[0]));
  const siblings = node.parent === null ? [node.id] : /** @type {BoardNode} */ (tree.get(node.parent)).children;
  const at = siblings.indexOf(node.id);
  return {
    parent: node.parent,
    next: node.children[0],
    end: end.id,
    up: at > 0 ? siblings[at - 1] : undefined,
    down: at < siblings.length - 1 ? siblings[at + 1] : undefined,
  };
}

/** @param {KeyboardEvent} event */
function onKey(event) {
  if (!session || !(/** @type {HTMLDialogElement} */ ($("analysis-dialog")).open)) return;
  const target = /** @type {HTMLElement} */ (event.target);
  if (target.tagName === "INPUT" && /** @type {HTMLInputElement} */ (target).type === "text") return;
  const near = neighbours();
  /** @type {number | null | undefined} */
  let to;
  if (event.key === "ArrowLeft") to = near.parent;
  else if (event.key === "ArrowRight") to = near.next;
  else if (event.key === "ArrowUp") to = near.up;
  else if (event.key === "ArrowDown") to = near.down;
  else if (event.key === "Home") to = 0;
  else if (event.key === "End") to = near.end;
  else return;
  event.preventDefault();
  if (to !== undefined && to !== null) goTo(to);
}

/** @param {MouseEvent} event */
function onClick(event) {
  const button = /** @type {Element} */ (event.target).closest("button");
  if (!button || !session || /** @type {HTMLButtonElement} */ (button).disabled) return;
  const near = neighbours();
  if (button.dataset.goto) goTo(Number(button.dataset.goto));
  else if (button.dataset.play)
    play(/** @type {Seat} */ (Number(button.dataset.seat)), /** @type {Action} */ (button.dataset.play));
  else if (button.id === "analysis-first") goTo(0);
  else if (button.id === "analysis-prev" && near.parent !== null) goTo(near.parent);
  else if (button.id === "analysis-next" && near.next !== undefined) goTo(near.next);
  else if (button.id === "analysis-last") goTo(near.end);
  else if (button.id === "analysis-copy-link") copyPositionLink();
  else if (button.id === "analysis-remove") removeVariation();
  else if (button.id === "analysis-close") /** @type {HTMLDialogElement} */ ($("analysis-dialog")).close();
}

function onClose() {
  const closing = session;
  session = null;
  if (settle !== null) clearTimeout(settle);
  const dialog = $("analysis-dialog");
  delete dialog.dataset.loaded;
  $("analysis-link-box").hidden = true;
  if (closing) {
    closing.client.request({ cmd: "analysis_close", board: closing.about.board }).catch(() => {});
    closing.onClose?.();
  }
}

let wired = false;

function wire() {
  if (wired) return;
  wired = true;
  const dialog = $("analysis-dialog");
  document.addEventListener("keydown", onKey);
  dialog.addEventListener("click", onClick);
  dialog.addEventListener("close", onClose);
  $("analysis-all-cards").addEventListener("change", (event) => {
    const here = session;
    if (!here) return;
    here.allCards = /** @type {HTMLInputElement} */ (event.target).checked;
    $("analysis-dialog").dataset.allCards = here.allCards ? "1" : "0";
    here.evaluation = here.evaluations.get(`${here.position.node}:${here.allCards}`) ?? null;
    renderOptions();
    evaluateSoon();
  });
}

/**
 * Open the analysis board the engine has just made (analysis_open, link_open). ``names``: the seats' names
 * (a link carries none: "Player 1", "Player 2").
 * @param {{client: Client, opened: BoardAnswer, names?: string[] | null, onClose?: () => void}} options
 */
export function openAnalysis({ client, opened, names = null, onClose }) {
  wire();
  if (session) {
    const previous = session;
    session = null;
    previous.client.request({ cmd: "analysis_close", board: previous.about.board }).catch(() => {});
  }
  session = {
    client,
    about: opened,
    tree: new Map(opened.tree.map((node) => [node.id, node])),
    position: opened.position,
    names: names ?? [t("analysis.player1"), t("analysis.player2")],
    allCards: false,
    evaluation: null,
    evaluations: new Map(),
    evaluating: false,
    wanted: opened.position.node,
    ...(onClose ? { onClose } : {}),
  };
  const dialog = /** @type {HTMLDialogElement} */ ($("analysis-dialog"));
  /** @type {HTMLInputElement} */ ($("analysis-all-cards")).checked = false;
  dialog.dataset.allCards = "0";
  $("analysis-link-box").hidden = true;
  renderTrumps();
  show(opened.position);
  dialog.dataset.loaded = "1";
  if (!dialog.open) dialog.showModal();
  const next = /** @type {HTMLButtonElement} */ ($("analysis-next"));
  (next.disabled ? $("analysis-prev") : next).focus();
}
