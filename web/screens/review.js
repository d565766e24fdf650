// @ts-check
// The review screen: a finished deal move by move with every card shown,
// and the computer's opinion of each decision of the seats asked for.
//
// It shows what the worker's "review_deal" gives (the engine's review of a
// finished deal: the start, then each action with the state after it), so it
// never needs the rules. Only finished deals can be reviewed. The first
// answer comes without evaluation (at once); the evaluated one follows.

import { t, tp } from "../platform/i18n.js";
import { cardLabel, suitIcon, suitName } from "../table/cards.js";
import { moveWords } from "../table/move-words.js";
import { cardElement } from "../table/table.js";
import { openAnalysis } from "./analysis.js";
import { copyLink, linkUrl } from "./links.js";
import { seatNames } from "./modes.js";

/** @import { Client } from "./records.js" */
/** @import { Card, DealEntry, Review, ReviewStep, Seating, Snapshot } from "../../types/engine.js" */
/**
 * The review on screen: the game's table and seating, its deals, the deal
 * shown (index) and its review, the step shown, whose decisions are
 * evaluated ("none", "0", "1" or "both"), the seats' names, and a token
 * that tells the latest request from older ones.
 * @typedef {{
 *   client: Client,
 *   game: string,
 *   meta: Seating,
 *   imported: boolean,
 *   deals: DealEntry[],
 *   names: string[],
 *   evaluate: string,
 *   onClose?: () => void,
 *   index: number,
 *   review: Review | null,
 *   step: number,
 *   token: number,
 * }} Session
 */

/**
 * An element of index.html's review dialog, which has every one asked for here (hence the cast).
 * @param {string} id
 */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

const params = new URLSearchParams(window.location.search);
// Each evaluated decision gets the engine's review budget (BUDGETS); tests evaluate quickly (80 ms, or review_ms).
const BUDGET = params.get("test") === "1" ? { budget_ms: Number(params.get("review_ms")) || 80 } : {};

/** @type {Session | null} */
let session = null;

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

/** @param {Seating} meta */
function namesFor(meta) {
  return seatNames(meta) || [t("modes.review.you"), t("modes.review.computer")];
}

/**
 * The seats evaluated by default: the person against the computer, both people at one device, nobody when watching.
 * @param {Seating} meta
 */
function defaultEvaluate(meta) {
  if (meta.mode === "computer") return "0";
  if (meta.mode === "hotseat") return "both";
  return "none";
}

/** @param {string} choice */
function evaluateSeats(choice) {
  return choice === "both" ? [0, 1] : choice === "none" ? [] : [Number(choice)];
}

/**
 * @param {HTMLSelectElement} select
 * @param {[string, string][]} entries
 * @param {string} value
 */
function fill(select, entries, value) {
  select.replaceChildren(
    ...entries.map(([key, label]) => {
      const option = document.createElement("option");
      option.value = key;
      option.textContent = label;
      option.selected = key === value;
      return option;
    }),
  );
}

/**
 * A move in words: "Anna: Queen of hearts", "Béla: marriage 40 (hearts)".
 * @param {ReviewStep} step
 * @param {string[]} names
 */
function moveText(step, names) {
  return t("modes.move.by", { name: names[step.seat], move: stepWords(step) });
}

/** @param {ReviewStep} step */
function stepWords(step) {
  const marriage = step.events.find((e) => e.type === "marriage");
  const claim = step.events.find((e) => e.type === "claim");
  return moveWords(step.action, { points: marriage?.points ?? "", valid: claim?.valid });
}

/**
 * What the computer would do instead, to go on a sentence: "close the talon", "play the Queen of hearts".
 * @param {import("../../types/engine.js").Action} action
 * @param {Review} review
 */
function alternative(action, review) {
  if (action.startsWith("play:")) return t("modes.review.do.play", { card: cardLabel(action.slice(5)) });
  if (action.startsWith("marry:")) {
    const suit = action.slice(6);
    const offer = review.marriage_offers[/** @type {import("../../types/engine.js").Suit} */ (suit)];
    return t("modes.review.do.marry", { points: offer ? offer.points : "", suit: suitName(suit) });
  }
  switch (action) {
    case "exchange":
      return t("modes.review.do.exchange");
    case "close":
      return t("modes.review.do.close");
    case "claim":
      return t("modes.review.do.claim");
    case "pass":
      return t("modes.review.do.pass");
    case "resign":
      return t("modes.review.do.resign");
    default:
      return action;
  }
}

/**
 * How much better the computer's choice is, in game points (a deal scores 1 to 3): exactly, when both values
 * are exact; else the search's estimate of the average, rounded to whole game points, or half a game point.
 * @param {number} gap the difference in game points (more than 0)
 * @param {boolean} exact
 */
export function differenceWords(gap, exact) {
  const whole = Math.round(gap);
  if (exact && whole >= 1) return tp("modes.review.diff.exact", whole);
  if (gap >= 0.75) return tp("modes.review.diff.about", whole);
  if (gap >= 0.25) return t("modes.review.diff.half");
  return t("modes.review.diff.small");
}

/**
 * The computer's opinion of a decision, in words ("" when it was not evaluated).
 * @param {ReviewStep} step
 * @param {Review} review
 */
function opinion(step, review) {
  if (!step.ranking?.length) return "";
  const best = step.ranking[0];
  const chosen = step.ranking.find((entry) => entry.action === step.action);
  // Values are game points divided by 3. A choice valued as high as the computer's own is as good.
  const gap = chosen ? (best.value - chosen.value) * 3 : 0;
  if (!chosen || best.action === step.action || gap < 0.005) return t("modes.review.agrees");
  const words = { action: alternative(best.action, review), diff: differenceWords(gap, Boolean(step.exact)) };
  return step.clearly_worse ? t("modes.review.better", words) : t("modes.review.close", words);
}

/** @param {Card[]} codes */
function cards(codes, classes = "mini") {
  return codes.map((code) => cardElement(code, { key: null, classes }));
}

/**
 * The state shown at step ``n`` (0: the deal as dealt).
 * @param {Review} review
 * @param {number} n
 */
function stateAt(review, n) {
  return n === 0 ? review.start : review.steps[n - 1].state;
}

/**
 * @param {number} seat
 * @param {Snapshot} snapshot
 * @param {string[]} names
 */
function renderSeat(seat, snapshot, names) {
  const box = $(`review-seat-${seat}`);
  const head = h("div", "review-seat-head");
  head.append(
    h("strong", "", names[seat]),
    h("span", "muted", t("modes.review.score", { points: snapshot.points[seat], tricks: snapshot.tricks[seat] })),
  );
  const hand = h("div", "review-hand");
  hand.id = `review-hand-${seat}`;
  hand.append(...cards(snapshot.hands[seat], "mini"));
  box.replaceChildren(head, hand);
}

/**
 * @param {Review} review
 * @param {number} n
 * @param {string[]} names
 */
function renderMiddle(review, n, names) {
  const snapshot = stateAt(review, n);
  const trick = $("review-trick");
  const step = n > 0 ? review.steps[n - 1] : null;
  const taken = step ? step.events.find((e) => e.type === "trick") : null;
  if (taken) {
    trick.replaceChildren(...cards(taken.cards, "mini"));
    trick.append(
      h("span", "muted small", t("modes.review.trickTo", { name: names[taken.winner], points: taken.points })),
    );
  } else {
    trick.replaceChildren(
      ...cards(
        snapshot.trick.map((entry) => entry.card),
        "mini",
      ),
    );
  }
  const talon = $("review-talon");
  const face = [];
  if (snapshot.trump_card) face.push(...cards([snapshot.trump_card], "mini trump-card"));
  talon.replaceChildren(h("span", "muted small", t("modes.review.talon")), ...cards(snapshot.talon, "mini"), ...face);
}

/**
 * @param {Review} review
 * @param {number} n
 */
function renderPosition(review, n) {
  const total = review.steps.length;
  $("review-position").textContent = n === 0 ? t("modes.review.start") : t("modes.review.position", { n, total });
  const focused = /** @type {HTMLButtonElement | null} */ (document.activeElement);
  /** @type {HTMLButtonElement} */ ($("review-first")).disabled = n === 0;
  /** @type {HTMLButtonElement} */ ($("review-prev")).disabled = n === 0;
  /** @type {HTMLButtonElement} */ ($("review-next")).disabled = n === total;
  /** @type {HTMLButtonElement} */ ($("review-last")).disabled = n === total;
  // A button that has just become disabled hands the keyboard focus to one that still moves.
  if (focused?.disabled && focused.closest(".review-nav")) {
    (n === 0 ? $("review-next") : $("review-prev")).focus();
  }
  const step = n > 0 ? review.steps[n - 1] : null;
  const text = $("review-move");
  text.replaceChildren();
  if (step) {
    text.append(h("span", "", moveText(step, /** @type {Session} */ (session).names))); // shown only during a session
    const words = opinion(step, review);
    if (words) text.append(h("span", step.clearly_worse ? "review-worse" : "muted", ` ${words}`));
  }
  for (const item of /** @type {NodeListOf<HTMLElement>} */ ($("review-moves").querySelectorAll("li[data-step]"))) {
    const current = Number(item.dataset.step) === n;
    item.classList.toggle("current", current);
    const button = /** @type {HTMLButtonElement} */ (item.querySelector("button")); // renderMoves made one
    if (current) button.setAttribute("aria-current", "step");
    else button.removeAttribute("aria-current");
  }
}

/**
 * The steps grouped by trick: the leader's exchange, marriage and close come with the trick they precede, and a
 * group ends with the answer that takes the trick. What follows the last trick taken (claims, passes, a
 * resignation, or a declaration the deal ended on) is a group of its own.
 * @param {Review} review
 * @returns {{steps: number[], taken: import("../../types/engine.js").GameEvent | null}[]}
 */
export function trickGroups(review) {
  /** @type {{steps: number[], taken: import("../../types/engine.js").GameEvent | null}[]} */
  const groups = [];
  /** @type {number[]} */
  let current = [];
  review.steps.forEach((step, i) => {
    current.push(i);
    const taken = step.events.find((e) => e.type === "trick") ?? null;
    if (taken) {
      groups.push({ steps: current, taken });
      current = [];
    }
  });
  if (current.length) groups.push({ steps: current, taken: null });
  return groups;
}

/**
 * One move of the list: a button that shows the deal after it.
 * @param {Review} review
 * @param {number} i the step's index (its step number is i + 1)
 */
function moveItem(review, i) {
  const step = review.steps[i];
  const item = h("li");
  item.dataset.step = String(i + 1);
  item.dataset.seat = String(step.seat);
  item.dataset.action = step.action;
  if (step.ranking) item.dataset.evaluated = "1";
  if (step.clearly_worse) item.dataset.worse = "1";
  const button = h("button", "review-move-button", moveText(step, /** @type {Session} */ (session).names));
  button.type = "button";
  button.dataset.goto = String(i + 1);
  if (step.clearly_worse) {
    const mark = h("span", "review-mark", "?");
    mark.title = opinion(step, review);
    mark.setAttribute("aria-label", mark.title);
    button.append(" ", mark);
  }
  item.append(button);
  return item;
}

/** @param {Review} review */
function renderMoves(review) {
  const names = /** @type {Session} */ (session).names;
  let tricks = 0;
  $("review-moves").replaceChildren(
    ...trickGroups(review).map(({ steps, taken }) => {
      const played = steps.some((i) => review.steps[i].action.startsWith("play:"));
      const group = h("li", "review-group");
      const head = h("p", "review-group-head");
      if (played) {
        tricks += 1;
        group.dataset.trick = String(tricks);
        head.append(h("strong", "", t("modes.review.trick", { n: tricks })));
      } else {
        group.dataset.trick = "end";
        head.append(h("strong", "", t("modes.review.last")));
      }
      if (taken && taken.type === "trick") {
        head.append(
          " ",
          h("span", "muted small", tp("modes.review.taken", taken.points, { name: names[taken.winner] })),
        );
      }
      const moves = h("ol", "review-group-moves");
      moves.append(...steps.map((i) => moveItem(review, i)));
      group.append(head, moves);
      return group;
    }),
  );
}

/** @param {Review} review */
function renderTrumps(review) {
  const line = $("review-trumps");
  line.dataset.suit = review.trump_suit;
  const icon = suitIcon(review.trump_suit);
  icon.setAttribute("aria-hidden", "true");
  line.replaceChildren(t("modes.review.trumps", { suit: suitName(review.trump_suit) }), " ", icon);
}

/** @param {Review} review */
function renderResult(review) {
  const result = review.result;
  const node = $("review-result");
  if (result.winner === null || result.winner === undefined) node.textContent = t("modes.review.noWinner");
  else
    node.textContent = tp("modes.review.won", result.game_points, {
      name: /** @type {Session} */ (session).names[result.winner],
    });
}

/** @param {number} n */
function go(n) {
  if (!session?.review) return;
  const review = session.review;
  const step = Math.max(0, Math.min(review.steps.length, n));
  session.step = step;
  const dialog = $("review-dialog");
  dialog.dataset.step = String(step);
  dialog.dataset.total = String(review.steps.length);
  for (const seat of [0, 1]) renderSeat(seat, stateAt(review, step), session.names);
  renderMiddle(review, step, session.names);
  renderPosition(review, step);
}

/** Numbers every deal loaded, in every session: an answer that comes after another load (or a close) is dropped. */
let loads = 0;

/**
 * Show deal ``index``: at once without evaluation, then with the computer's opinions, which come in parts
 * (the engine bounds each request, so that the table's requests are answered in between).
 * @param {number} index
 */
async function loadDeal(index) {
  const current = /** @type {Session} */ (session); // loadDeal starts only with a session
  loads += 1;
  const token = loads;
  current.token = token;
  const stale = () => session !== current || current.token !== token; // closed, or another deal chosen meanwhile
  /** @param {import("../../types/engine.js").Request<"table_review">} payload */
  const review = (payload) => current.client.request(payload, { timeoutMs: 120_000 });
  const dialog = $("review-dialog");
  current.index = index;
  dialog.dataset.deal = String(index);
  dialog.dataset.evaluated = "0";
  $("review-status").textContent = "";
  /** @param {unknown} error */
  const failed = (error) => {
    if (!stale()) $("review-status").textContent = t("notice.error", { detail: /** @type {Error} */ (error).message });
  };
  let answer;
  try {
    answer = await review({ cmd: "table_review", table: current.game, deal: index });
  } catch (error) {
    failed(error);
    return;
  }
  if (stale()) return;
  current.review = answer.review;
  renderTrumps(current.review);
  renderMoves(current.review);
  renderResult(current.review);
  go(0);
  dialog.dataset.loaded = "1";
  const seats = evaluateSeats(current.evaluate);
  /** @type {number | null} */
  let from = seats.length ? 0 : null;
  if (from !== null) $("review-status").textContent = t("modes.review.evaluating");
  while (from !== null) {
    try {
      answer = await review({
        cmd: "table_review",
        table: current.game,
        deal: index,
        evaluate: seats,
        from_step: from,
        ...BUDGET,
      });
    } catch (error) {
      failed(error);
      return;
    }
    if (stale()) return;
    const steps = answer.review.steps;
    const shown = /** @type {Review} */ (current.review);
    shown.steps = shown.steps.map((step, i) => (steps[i].ranking ? steps[i] : step));
    renderMoves(shown);
    go(current.step);
    from = answer.review.next_step;
  }
  if (seats.length) {
    $("review-status").textContent = tp(
      "modes.review.evaluated",
      /** @type {Review} */ (current.review).steps.filter((step) => step.clearly_worse).length,
    );
  }
  dialog.dataset.evaluated = "1";
}

/** @param {KeyboardEvent} event */
function onKey(event) {
  if (
    !session ||
    !(/** @type {HTMLDialogElement} */ ($("review-dialog")).open) ||
    /** @type {HTMLElement} */ (event.target).tagName === "SELECT" ||
    /** @type {HTMLElement} */ (event.target).tagName === "INPUT"
  )
    return;
  /** @type {Record<string, number>} */
  const moves = { ArrowRight: 1, ArrowLeft: -1 };
  if (event.key in moves) go(session.step + moves[event.key]);
  else if (event.key === "Home") go(0);
  else if (event.key === "End") go(session.review ? session.review.steps.length : 0);
  else return;
  event.preventDefault();
}

/** @param {MouseEvent} event */
function onClick(event) {
  const button = /** @type {Element} */ (event.target).closest("button");
  if (!button || !session) return;
  const total = session.review ? session.review.steps.length : 0;
  if (button.dataset.goto) go(Number(button.dataset.goto));
  else if (button.id === "review-first") go(0);
  else if (button.id === "review-prev") go(session.step - 1);
  else if (button.id === "review-next") go(session.step + 1);
  else if (button.id === "review-last") go(total);
  else if (button.id === "review-close") /** @type {HTMLDialogElement} */ ($("review-dialog")).close();
  else if (button.id === "review-copy-link") copyReviewLink();
  else if (button.id === "review-analyse") analyse();
}

/** Copy the link of the deal shown, at the step shown. */
async function copyReviewLink() {
  const current = session;
  if (!current?.review) return;
  try {
    const answer = await current.client.request({
      cmd: "link_make",
      table: current.game,
      deal: current.index,
      step: current.step,
    });
    await copyLink(linkUrl(answer.link), {
      box: $("review-link-box"),
      input: /** @type {HTMLInputElement} */ ($("review-link")),
      status: $("review-link-status"),
    });
  } catch (error) {
    if (session === current)
      $("review-status").textContent = t("notice.error", { detail: /** @type {Error} */ (error).message });
  }
}

/** Open the analysis board on the deal shown, at the step shown (the review closes; the board stands alone). */
async function analyse() {
  const current = session;
  if (!current?.review) return;
  let opened;
  try {
    opened = await current.client.request({
      cmd: "analysis_open",
      table: current.game,
      deal: current.index,
      step: current.step,
    });
  } catch (error) {
    if (session === current)
      $("review-status").textContent = t("notice.error", { detail: /** @type {Error} */ (error).message });
    return;
  }
  if (session !== current) return;
  /** @type {HTMLDialogElement} */ ($("review-dialog")).close();
  openAnalysis({ client: current.client, opened, names: current.names });
}

function onClose() {
  const closing = session;
  session = null;
  const dialog = $("review-dialog");
  delete dialog.dataset.loaded;
  $("review-link-box").hidden = true;
  if (closing?.imported) closing.client.request({ cmd: "table_close", table: closing.game }).catch(() => {});
  if (closing?.onClose) closing.onClose();
}

let wired = false;

function wire() {
  if (wired) return;
  wired = true;
  const dialog = $("review-dialog");
  // On the document: a nav button that becomes disabled drops the focus to the body.
  document.addEventListener("keydown", onKey);
  dialog.addEventListener("click", onClick);
  dialog.addEventListener("close", onClose);
  $("review-deal").addEventListener(
    "change",
    (event) => session && loadDeal(Number(/** @type {HTMLSelectElement} */ (event.target).value)),
  );
  $("review-evaluate").addEventListener("change", (event) => {
    if (!session) return;
    session.evaluate = /** @type {HTMLSelectElement} */ (event.target).value;
    loadDeal(session.index);
  });
}

/**
 * Open the review of ``game`` (the game in play, or an imported one:
 * ``imported``, whose worker game is closed with the screen). ``deals``: the
 * worker's list, if known. Shows the last finished deal first.
 * @param {{
 *   client: Client,
 *   game: string,
 *   meta: Seating,
 *   deals?: DealEntry[] | null,
 *   imported?: boolean,
 *   onError?: (message: string) => void,
 *   onClose?: () => void,
 * }} options
 */
export async function openReview({ client, game, meta, deals = null, imported = false, onError, onClose }) {
  wire();
  let list = deals;
  if (!list) {
    try {
      list = (await client.request({ cmd: "table_deals", table: game })).deals;
    } catch (error) {
      onError?.(t("notice.error", { detail: /** @type {Error} */ (error).message }));
      return;
    }
  }
  const finished = list.filter((deal) => deal.finished);
  if (!finished.length) {
    onError?.(t("modes.import.noFinished"));
    return;
  }
  const names = namesFor(meta);
  // The deal's fields (index, review, step, token) are set as it loads.
  session = /** @type {Session} */ ({
    client,
    game,
    meta,
    imported,
    deals: list,
    names,
    evaluate: defaultEvaluate(meta),
    onClose,
  });
  const last = finished[finished.length - 1].index;
  fill(
    /** @type {HTMLSelectElement} */ ($("review-deal")),
    finished.map((deal) => [String(deal.index), t("modes.review.deal", { n: deal.index + 1 })]),
    String(last),
  );
  fill(
    /** @type {HTMLSelectElement} */ ($("review-evaluate")),
    [
      ["none", t("modes.review.nobody")],
      ["0", names[0]],
      ["1", names[1]],
      ["both", t("modes.review.both")],
    ],
    session.evaluate,
  );
  const dialog = /** @type {HTMLDialogElement} */ ($("review-dialog"));
  if (!dialog.open) dialog.showModal();
  $("review-next").focus();
  await loadDeal(last);
}
