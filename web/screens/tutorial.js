// @ts-check
// The tutorial: a first deal against the computer with guided prompts (the
// trump card, free play while the talon is open, drawing, the exchange, a
// marriage, closing, strict play, claiming 66). It is offered once, on the
// first visit, and can be started again from the help; every prompt can skip
// it. The tutorial game does not count in the statistics.
//
// The deal is fixed (AT20, you lead): you hold JH QH AH TH AD, the face-up
// trump is KH and the computer holds only clubs, and then draws no trump, so
// the suggested moves always work. The prompts follow the view (each step
// shows while its condition holds), so a player who plays otherwise still gets
// the prompts that apply.

import { t } from "../platform/i18n.js";
import { TUTORIAL_KEY } from "../platform/newcomer.js";
import { cardLabel, suitName } from "../table/cards.js";
import { h } from "../table/table.js";

/** @import { Action, DealResult, View } from "../../types/engine.js" */
/**
 * A step of the tutorial: when(view) it applies; "until" an action of yours
 * (its prefix) or "next" or "finish" (a button) ends it (null: it ends when
 * it no longer applies); text(view) says it; target is what it points at.
 * @typedef {{
 *   id: string,
 *   when: (view: View) => boolean,
 *   until: string | null,
 *   text: (view: View) => string,
 *   target: string,
 * }} Step
 */
/**
 * The guide of a tutorial deal.
 * @typedef {{update: (view: View) => void, acted: (action: Action) => void, end: () => void, redraw: () => void}} Tutorial
 */

export const STORAGE_KEY = TUTORIAL_KEY;

/** new_game's arguments for the tutorial deal (the pack in dealing order: 3T2, the computer deals). */
export const TUTORIAL_GAME = Object.freeze({
  preset: "AT20",
  rules: {},
  seed: 66,
  dealer: 1,
  match: false,
  deck: [
    ...["AD", "JH", "QH"],
    ...["AC", "TC", "KC"],
    "KH",
    ...["AH", "TH"],
    ...["QC", "JC"],
    ...["TD", "AS", "KD", "TS", "QD", "KS", "JD", "QS", "JS"],
  ],
});

/** Has the tutorial been offered (and started or declined) in this browser? */
export function tutorialSeen(storage = globalThis.localStorage) {
  try {
    return storage.getItem(STORAGE_KEY) !== null;
  } catch {
    return true; // no storage: do not offer it on every visit
  }
}

/** @param {string} how */
function markSeen(how, storage = globalThis.localStorage) {
  try {
    storage.setItem(STORAGE_KEY, JSON.stringify({ [how]: Date.now() }));
  } catch {
    // storage disabled
  }
}

const legal = (/** @type {View} */ view, /** @type {Action} */ action) => view.legal.includes(action);
const strict = (/** @type {View} */ view) => view.strict;
/** The engine's answer: a claim now would reach 66. */
const canClaim = (/** @type {View} */ view) => view.claim_valid;

// Each step: when(view) it applies; "until" an action of yours (its prefix) or "next" (a button) ends it;
// text(view) says it; target is what it points at.
/** @type {Step[]} */
const STEPS = [
  {
    id: "trump",
    when: (v) => v.tricks_played === 0 && !v.deal_result && v.trump_card !== null,
    until: "next",
    text: (v) => t("tutorial.trump", { suit: suitName(v.trump_suit) }),
    target: "#stock .trump-card",
  },
  {
    id: "open",
    when: (v) => v.phase === "open" && v.tricks_played === 0 && v.to_act === v.seat && v.trick.length === 0,
    until: "play",
    text: () => t("tutorial.open", { card: cardLabel("AD") }),
    target: '#my-hand [data-card="AD"]',
  },
  {
    id: "drawn",
    when: (v) => v.phase === "open" && v.tricks_played === 1 && v.to_act === v.seat && !v.deal_result,
    until: "next",
    text: () => t("tutorial.drawn"),
    target: "#stock .talon",
  },
  {
    id: "exchange",
    when: (v) => legal(v, "exchange"),
    until: "exchange",
    text: (v) => t("tutorial.exchange", { card: cardLabel(`J${v.trump_suit}`), action: t("action.exchange") }),
    target: '[data-action="exchange"]',
  },
  {
    id: "marriage",
    when: (v) => legal(v, `marry:${v.trump_suit}`),
    until: "marry",
    text: () => t("tutorial.marriage"),
    target: '[data-action^="marry:"]',
  },
  {
    id: "close",
    when: (v) => legal(v, "close"),
    until: "close",
    text: () => t("tutorial.close", { action: t("action.close") }),
    target: '[data-action="close"]',
  },
  {
    id: "strict",
    when: (v) => strict(v) && v.to_act === v.seat && !v.deal_result && !canClaim(v),
    until: null,
    text: (v) => t("tutorial.strict", { card: cardLabel(`K${v.trump_suit}`) }),
    target: "#my-hand .card.legal",
  },
  {
    id: "claim",
    when: (v) => canClaim(v) && !v.deal_result,
    until: "claim",
    text: (v) => t("tutorial.claim", { points: v.my_points }),
    target: '[data-action="claim"]',
  },
  {
    id: "end",
    when: (v) => Boolean(v.deal_result),
    until: "finish",
    text: (v) => (/** @type {DealResult} */ (v.deal_result).winner === v.seat ? t("tutorial.won") : t("tutorial.over")),
    target: "#result",
  },
];

/** @type {HTMLDialogElement | null} */
let offerDialog = null;

/**
 * Offer the tutorial (first visit): ``start()`` if accepted. Either way it is not offered again.
 * ``rules``: the name of the rules this first visit plays by (chosen from the browser's language);
 * ``changeRules()`` opens the settings to choose others; ``onDeclined()`` runs when it closes otherwise
 * (later, or Escape).
 * @param {() => void} start
 * @param {{rules: string, changeRules: () => void, onDeclined: () => void}} first
 */
export function offerTutorial(start, { rules, changeRules, onDeclined }) {
  markSeen("offered");
  const yes = h("button", {
    type: "button",
    class: "btn btn-primary",
    "data-action": "tutorial-start",
    text: t("tutorial.offerStart"),
  });
  const no = h("button", {
    type: "button",
    class: "btn",
    "data-action": "tutorial-decline",
    text: t("tutorial.offerLater"),
  });
  const other = h("button", {
    type: "button",
    class: "btn btn-quiet btn-small",
    "data-action": "tutorial-rules",
    text: t("tutorial.offerOtherRules"),
  });
  offerDialog?.remove();
  offerDialog = h(
    "dialog",
    { class: "dialog", id: "tutorial-offer", "aria-labelledby": "tutorial-offer-title" },
    h("h2", { id: "tutorial-offer-title", text: t("tutorial.offerTitle") }),
    h("p", { text: t("tutorial.offerText") }),
    h("p", { class: "muted small", text: t("tutorial.offerHelp") }),
    h("p", { id: "tutorial-offer-rules", text: t("tutorial.offerRules", { rules }) }, " ", other),
    h("div", { class: "dialog-buttons" }, no, yes),
  );
  other.addEventListener("click", () => {
    /** @type {HTMLDialogElement} */ (offerDialog).close();
    changeRules();
  });
  // The dialog is there until the next offer replaces it (hence the casts from null).
  let chosen = false;
  no.addEventListener("click", () => /** @type {HTMLDialogElement} */ (offerDialog).close());
  yes.addEventListener("click", () => {
    chosen = true;
    /** @type {HTMLDialogElement} */ (offerDialog).close();
    start();
  });
  other.addEventListener("click", () => {
    chosen = true;
  });
  offerDialog.addEventListener("close", () => {
    if (!chosen) onDeclined();
  });
  document.body.append(offerDialog);
  offerDialog.showModal();
  yes.focus();
}

/**
 * The guide of a tutorial deal. ``options``: {anchor (the element the prompts
 * follow), root (where its targets are), onEnd()}. Call update(view) whenever
 * the table is ready, and acted(action) for each of your actions.
 * @param {{anchor: HTMLElement, root: HTMLElement, onEnd: () => void}} options
 * @returns {Tutorial}
 */
export function createTutorial({ anchor, root, onEnd }) {
  markSeen("started");
  const done = new Set(); // the kinds of action you took ("play", "exchange", …)
  const passed = new Set(); // the steps you left with their Next button
  let current = 0;
  /** @type {View | null} */
  let view = null;
  const box = h("section", { class: "coach", id: "coach", "aria-live": "polite", "aria-labelledby": "coach-title" });
  anchor.after(box);

  function clearTargets() {
    for (const node of root.querySelectorAll(".coach-target")) node.classList.remove("coach-target");
  }

  function end() {
    clearTargets();
    box.remove();
    onEnd();
  }

  const finished = (/** @type {Step} */ step) => done.has(step.until) || passed.has(step.id);

  function draw() {
    clearTargets();
    const step = STEPS[current];
    if (!view || !step?.when(view)) {
      box.hidden = true;
      return;
    }
    box.hidden = false;
    box.dataset.step = step.id;
    const buttons = [];
    if (step.until === "next" || step.until === "finish") {
      const next = h("button", {
        type: "button",
        class: "btn btn-primary btn-small",
        "data-action": step.until === "finish" ? "tutorial-finish" : "tutorial-next",
        text: step.until === "finish" ? t("tutorial.finish") : t("tutorial.next"),
      });
      next.addEventListener("click", () => {
        if (step.until === "finish") {
          markSeen("finished"); // no newcomer any more (platform/newcomer.js)
          end();
          return;
        }
        passed.add(step.id);
        update(/** @type {View} */ (view)); // shown: there is a view
      });
      buttons.push(next);
    }
    if (step.until !== "finish") {
      const skip = h("button", {
        type: "button",
        class: "btn btn-small",
        "data-action": "tutorial-skip",
        text: t("tutorial.skip"),
      });
      skip.addEventListener("click", end);
      buttons.push(skip);
    }
    box.replaceChildren(
      h("h2", {
        class: "coach-title",
        id: "coach-title",
        text: t("tutorial.title", { n: current + 1, total: STEPS.length }),
      }),
      h("p", { class: "coach-text", text: step.text(view) }),
      h("div", { class: "coach-buttons" }, ...buttons),
    );
    for (const node of root.querySelectorAll(step.target)) node.classList.add("coach-target");
  }

  /**
   * Follow the table: the first unfinished step that applies now (later steps win over ones that no longer apply).
   * @param {View} next
   */
  function update(next) {
    view = next;
    while (current < STEPS.length && finished(STEPS[current])) current += 1;
    if (current < STEPS.length && !STEPS[current].when(view)) {
      const later = STEPS.findIndex(
        (step, i) => i > current && !finished(step) && step.when(/** @type {View} */ (view)),
      );
      if (later >= 0) current = later;
    }
    draw();
  }

  /**
   * Your action (protocol text), to finish the step that asked for it.
   * @param {Action} action
   */
  function acted(action) {
    done.add(action.split(":")[0]);
  }

  return { update, acted, end, redraw: draw };
}
