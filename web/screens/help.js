// @ts-check
// The help dialog (the "?" button of the top bar): the rules of the game on
// the table (generated from the engine's rules value), a short how-to-play,
// the tutorial and the statistics.

import { t } from "../platform/i18n.js";
import { h } from "../table/table.js";
import { closeOnBackdrop } from "./confirm.js";
import { rulesSentences, rulesTitle } from "./rules-text.js";
import { openStats } from "./stats-view.js";

/** @import { Preset, RuleSet, RulesParameter } from "../../types/engine.js" */
/**
 * @typedef {{
 *   rules: RuleSet | null,
 *   presets: Preset[],
 *   parameters: () => Promise<RulesParameter[]>,
 *   onTutorial: () => void,
 *   onImported: () => void,
 *   onReset: () => void,
 * }} HelpOptions
 */

// The dialog is there from build() until it closes: the functions that use it
// run only meanwhile (hence the casts from null).
/** @type {HTMLDialogElement | null} */
let dialog = null;
/** @type {HelpOptions} */
let options = /** @type {HelpOptions} */ ({}); // set by openHelp() before any use
let shown = 0; // sections asked for so far (the rules section waits for the engine)

function howTo() {
  const part = (/** @type {string} */ title, /** @type {string} */ text) =>
    h("section", { class: "help-part" }, h("h3", { text: title }), h("p", { text }));
  return [
    part(t("help.howto.goalTitle"), t("help.howto.goal")),
    part(t("help.howto.cardsTitle"), t("help.howto.cards")),
    part(t("help.howto.tricksTitle"), t("help.howto.tricks")),
    part(t("help.howto.strictTitle"), t("help.howto.strict")),
    part(t("help.howto.marriageTitle"), t("help.howto.marriage")),
    part(t("help.howto.exchangeTitle"), t("help.howto.exchange")),
    part(t("help.howto.closeTitle"), t("help.howto.close")),
    part(t("help.howto.scoreTitle"), t("help.howto.score")),
    part(t("help.online.title"), t("help.online.play")),
    part(t("help.online.fairTitle"), t("help.online.fair")),
    part(t("help.online.privacyTitle"), t("help.online.privacy")),
    part(t("help.online.voiceTitle"), t("help.online.voice")),
  ];
}

/** The rules of the game on the table, one sentence per parameter; changes from the preset are marked. */
async function rulesPart() {
  const { rules, presets } = options;
  if (!rules) return [h("p", { class: "muted", text: t("help.noGame") })];
  let parameters;
  try {
    parameters = await options.parameters();
  } catch {
    return [h("p", { class: "muted", text: t("help.noRules") })];
  }
  const base = (presets.find((p) => p.id === rules.id) || { rules }).rules;
  const items = rulesSentences(rules, parameters).map(({ id, text }) => {
    const changed = base[id] !== rules[id];
    const item = h("li", { "data-param": id, class: changed ? "changed" : null }, text);
    if (changed) item.append(" ", h("span", { class: "rule-changed", text: t("custom.changed") }));
    return item;
  });
  return [
    h("h3", { id: "help-rules-title", text: rulesTitle(rules, presets) }),
    h("p", { class: "muted small", text: t("help.rulesIntro") }),
    h("ul", { class: "rules-list", "aria-labelledby": "help-rules-title" }, ...items),
  ];
}

/** @param {string} section */
async function show(section) {
  const buttons = /** @type {HTMLDialogElement} */ (dialog).querySelectorAll("[data-help]");
  for (const button of /** @type {NodeListOf<HTMLElement>} */ (buttons)) {
    button.setAttribute("aria-pressed", String(button.dataset.help === section));
  }
  const content = /** @type {HTMLElement} */ (/** @type {HTMLDialogElement} */ (dialog).querySelector("#help-content"));
  content.dataset.section = section;
  delete content.dataset.ready;
  const mine = ++shown;
  const parts = section === "rules" ? await rulesPart() : howTo();
  if (mine !== shown) return; // another section was chosen meanwhile
  content.replaceChildren(...parts);
  content.dataset.ready = section;
}

function build() {
  const tab = (/** @type {string} */ section, /** @type {string} */ text) => {
    const button = h("button", { type: "button", class: "btn", "data-help": section, "aria-pressed": "false", text });
    button.addEventListener("click", () => show(section));
    return button;
  };
  const stats = h("button", { type: "button", class: "btn", "data-action": "open-stats", text: t("help.stats") });
  stats.addEventListener("click", () => {
    /** @type {HTMLDialogElement} */ (dialog).close();
    openStats(options);
  });
  const tutorial = h("button", {
    type: "button",
    class: "btn",
    "data-action": "open-tutorial",
    text: t("help.tutorial"),
  });
  tutorial.addEventListener("click", () => {
    /** @type {HTMLDialogElement} */ (dialog).close();
    options.onTutorial();
  });
  const close = h("button", {
    type: "button",
    class: "btn btn-primary",
    "data-action": "help-close",
    text: t("help.close"),
  });
  close.addEventListener("click", () => /** @type {HTMLDialogElement} */ (dialog).close());
  // The same from the top, where it stays while the help scrolls.
  const closeTop = h("button", {
    type: "button",
    class: "btn btn-quiet btn-icon dialog-close",
    "data-action": "help-close-top",
    "aria-label": t("dialog.close"),
    title: t("dialog.close"),
    text: "✕",
  });
  closeTop.addEventListener("click", () => /** @type {HTMLDialogElement} */ (dialog).close());
  dialog = /** @type {HTMLDialogElement} */ (
    h(
      "dialog",
      { class: "dialog dialog-wide", id: "help-dialog", "aria-labelledby": "help-title" },
      h("div", { class: "dialog-head" }, h("h2", { id: "help-title", text: t("help.title") }), closeTop),
      h("div", { class: "help-nav" }, tab("rules", t("help.rules")), tab("howto", t("help.howto")), tutorial, stats),
      h("div", { id: "help-content", class: "help-content", tabindex: "-1" }),
      h("div", { class: "dialog-buttons" }, close),
    )
  );
  // A closed help leaves nothing behind: the next opening builds it afresh (in
  // the language of that moment), and nobody can mistake the old one for it.
  const built = dialog;
  closeOnBackdrop(built);
  built.addEventListener("close", () => {
    built.remove();
    if (dialog === built) dialog = null;
  });
  document.body.append(dialog);
}

/**
 * Open the help at ``section`` ("rules" or "howto"). ``opts``: {rules (of the
 * game on the table, or null), presets, parameters() (a promise of the engine's
 * rules parameters), onTutorial() (start it), onImported, onReset (for the
 * statistics screen)}.
 * @param {HelpOptions} opts
 */
export function openHelp(opts, section = "rules") {
  options = opts;
  if (dialog) dialog.remove(); // rebuilt in the current language
  build();
  show(section);
  /** @type {HTMLDialogElement} */ (dialog).showModal(); // build() made it
}
