// @ts-check
// A puzzle's lines, in a dialog: the refutation of a wrong move (the deal
// that refutes it with every card shown, the play there move by move, and
// the game points it loses) or the solution (the solution's line with what
// it guarantees, then every other first move with its worst deal and what
// it loses). The engine found every line and value (puzzle_move,
// puzzle_solution); this module words them and lets the player step
// through a line.

import { t, tp } from "../platform/i18n.js";
import { cardLabel } from "../table/cards.js";
import { moveWords } from "../table/move-words.js";
import { cardElement, h } from "../table/table.js";
import { closeOnBackdrop } from "./confirm.js";
import { goalWords, valueWords } from "./puzzles.js";

/** @import { Card, PuzzleEntry, PuzzleLine, PuzzleSolution, PuzzleWorld, Seat } from "../../types/engine.js" */
/**
 * @typedef {{kind: "refutation", entry: PuzzleEntry, seat: Seat, wrong: string, loss: number,
 *   refutation: {world: PuzzleWorld, line: PuzzleLine, value: number}, onClose?: () => void}
 *   | {kind: "solution", entry: PuzzleEntry, seat: Seat, solution: PuzzleSolution, onClose?: () => void}} LinesOptions
 */

/** @type {HTMLDialogElement | null} */
let dialog = null;

/**
 * Who: "You" or "Computer", from the side's seat.
 * @param {Seat} seat
 * @param {Seat} side
 */
function who(seat, side) {
  return seat === side ? t("seat.you") : t("seat.computer");
}

/**
 * The cards of a deal: both hands and the face-down talon, the side's first.
 * @param {PuzzleWorld} world
 * @param {Seat} side
 * @param {string} heading
 */
function worldBox(world, side, heading) {
  /**
   * @param {string} label
   * @param {string[]} cards
   * @param {string} name
   */
  const row = (label, cards, name) =>
    h(
      "div",
      {
        class: "puzzle-world-row",
        role: "group",
        "aria-label": `${label}: ${cards.map((c) => cardLabel(/** @type {Card} */ (c))).join(", ") || t("puzzles.none")}`,
        "data-cards": name,
      },
      h("span", { class: "puzzle-world-label", "aria-hidden": "true", text: label }),
      h(
        "span",
        { class: "review-hand", "aria-hidden": "true" },
        ...cards.map((c) => cardElement(/** @type {Card} */ (c), { key: null, classes: "mini" })),
      ),
    );
  const box = h("section", { class: "puzzle-world" }, h("h3", { text: heading }));
  box.append(row(t("seat.you"), world.hands[side], "side"), row(t("seat.computer"), world.hands[1 - side], "defender"));
  if (world.talon.length) box.append(row(t("puzzles.talonOrder"), world.talon, "talon"));
  return box;
}

/**
 * A line as a numbered list of moves.
 * @param {PuzzleLine} line
 * @param {Seat} side
 */
function lineList(line, side) {
  const list = h("ol", { class: "puzzle-line" });
  line.forEach((step, i) => {
    list.append(
      h("li", {
        "data-step": String(i + 1),
        "data-seat": String(step.seat),
        "data-action": step.action,
        text: t("modes.move.by", { name: who(step.seat, side), move: moveWords(step.action) }),
      }),
    );
  });
  return list;
}

/**
 * The refutation, with a stepper: the moves up to the step shown are lit, the cards played so far fade.
 * @param {Extract<LinesOptions, {kind: "refutation"}>} options
 */
function refutationBody(options) {
  const { entry, seat, wrong, loss, refutation } = options;
  const hidden = entry.kind === "hidden";
  const world = worldBox(refutation.world, seat, hidden ? t("puzzles.refutation.world") : t("puzzles.refutation.deal"));
  const list = lineList(refutation.line, seat);
  const position = h("p", { class: "review-position", id: "puzzle-step", "aria-live": "polite" });
  const prev = h("button", {
    type: "button",
    class: "btn",
    id: "puzzle-step-prev",
    "aria-label": t("puzzles.step.prev"),
    text: "◀",
  });
  const next = h("button", {
    type: "button",
    class: "btn",
    id: "puzzle-step-next",
    "aria-label": t("puzzles.step.next"),
    text: "▶",
  });
  const all = h("button", {
    type: "button",
    class: "btn btn-small",
    id: "puzzle-step-all",
    text: t("puzzles.step.all"),
  });
  let current = 1;
  const total = refutation.line.length;
  const go = (/** @type {number} */ to) => {
    current = Math.max(1, Math.min(total, to));
    const played = new Set();
    for (const item of list.children) {
      const n = Number(/** @type {HTMLElement} */ (item).dataset.step);
      item.classList.toggle("future", n > current);
      if (n === current) item.setAttribute("aria-current", "step");
      else item.removeAttribute("aria-current");
      const action = /** @type {string} */ (/** @type {HTMLElement} */ (item).dataset.action);
      if (n <= current && action.startsWith("play:")) played.add(action.slice(5));
    }
    for (const card of world.querySelectorAll(".card[data-card]")) {
      card.classList.toggle("played", played.has(/** @type {HTMLElement} */ (card).dataset.card));
    }
    const step = refutation.line[current - 1];
    position.textContent = t("puzzles.step", {
      n: current,
      total,
      move: t("modes.move.by", { name: who(step.seat, seat), move: moveWords(step.action) }),
    });
    /** @type {HTMLButtonElement} */ (prev).disabled = current <= 1;
    /** @type {HTMLButtonElement} */ (next).disabled = current >= total;
    const box = /** @type {HTMLElement} */ (dialog?.querySelector("#puzzle-lines-body") ?? list);
    box.dataset.step = String(current);
  };
  prev.addEventListener("click", () => go(current - 1));
  next.addEventListener("click", () => go(current + 1));
  all.addEventListener("click", () => go(total));
  list.addEventListener("keydown", () => {});
  const body = [
    h("p", {
      class: "puzzle-loss",
      id: "puzzle-loss",
      "data-loss": String(loss),
      text: tp("puzzles.refutation.loss", loss, { move: moveWords(wrong) }),
    }),
    h("p", { text: t("puzzles.refutation.goal", { goal: goalWords(entry.goal), end: valueWords(refutation.value) }) }),
    world,
    h("h3", { text: t("puzzles.refutation.line") }),
    h("div", { class: "review-nav" }, prev, position, next, all),
    list,
  ];
  queueMicrotask(() => go(1));
  return body;
}

/**
 * The solution's lines: the answer first, then every other first move, each with what it gets at worst.
 * @param {Extract<LinesOptions, {kind: "solution"}>} options
 */
function solutionBody(options) {
  const { entry, seat, solution } = options;
  /** @type {HTMLElement[]} */
  const body = [
    h("p", {
      id: "puzzle-answer",
      text: t("puzzles.solution.answer", {
        goal: goalWords(solution.goal),
        moves: solution.answer.map((action) => moveWords(action)).join(t("puzzles.or")),
      }),
    }),
  ];
  solution.lines.forEach((line, i) => {
    const best = i === 0;
    const summary = best
      ? t("puzzles.solution.best", { move: moveWords(line.action), end: valueWords(line.value) })
      : tp("puzzles.solution.other", line.loss, { move: moveWords(line.action), end: valueWords(line.value) });
    const details = h("details", {
      class: `puzzle-solution-line${best ? " best" : ""}`,
      "data-action": line.action,
      "data-value": String(line.value),
      "data-loss": String(line.loss),
    });
    if (best) details.open = true;
    details.append(h("summary", { text: summary }));
    if (line.world) {
      details.append(
        worldBox(
          line.world,
          seat,
          best
            ? t("puzzles.refutation.deal")
            : entry.kind === "hidden"
              ? t("puzzles.refutation.world")
              : t("puzzles.refutation.deal"),
        ),
      );
    } else {
      details.append(h("p", { class: "muted small", text: t("puzzles.solution.everyDeal") }));
    }
    details.append(lineList(line.line, seat));
    body.push(details);
  });
  return body;
}

/**
 * Show a refutation or the solution.
 * @param {LinesOptions} options
 */
export function showLines(options) {
  if (dialog) dialog.remove();
  const close = h("button", {
    type: "button",
    class: "btn btn-primary",
    id: "puzzle-lines-close",
    text: t("stats.close"),
  });
  const title = options.kind === "refutation" ? t("puzzles.refutation.title") : t("puzzles.solution.title");
  const body = h("div", { id: "puzzle-lines-body" });
  dialog = /** @type {HTMLDialogElement} */ (
    h(
      "dialog",
      {
        class: "dialog dialog-wide puzzle-lines-dialog",
        id: "puzzle-lines-dialog",
        "data-kind": options.kind,
        "aria-labelledby": "puzzle-lines-title",
      },
      h("h2", { id: "puzzle-lines-title", tabindex: "-1", text: title }),
      body,
      h("div", { class: "dialog-buttons" }, close),
    )
  );
  body.append(...(options.kind === "refutation" ? refutationBody(options) : solutionBody(options)));
  const here = dialog;
  close.addEventListener("click", () => here.close());
  closeOnBackdrop(here);
  here.addEventListener("close", () => {
    here.remove();
    if (dialog === here) dialog = null;
    options.onClose?.();
  });
  document.body.append(here);
  here.showModal();
  /** @type {HTMLElement} */ (here.querySelector("#puzzle-lines-title")).focus();
}
