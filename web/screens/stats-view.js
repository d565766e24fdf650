// @ts-check
// The statistics screen: the rating and its history, totals, results per
// rule set and per level, and the local data (export, import, reset).
// The numbers come from stats.js; this module only draws them.

import { language, t, tp } from "../platform/i18n.js";
import { applyImport, collect, DataError, exportName, parseImport, resetAll } from "../platform/local-data.js";
import { loadOnlineStats } from "../platform/online-stats.js";
import { saveFile } from "../platform/save-file.js";
import { byLevel, byRules, LEVEL_RATINGS, loadStats, percent, START_RATING, totals } from "../platform/stats.js";
import { h, presetName } from "../table/table.js";
import { barChart, lineChart } from "./charts.js";

/** @import { Preset } from "../../types/engine.js" */
/** @typedef {{presets: Preset[], onImported: () => void, onReset: () => void}} StatsOptions */
/** @import { Stats, Totals } from "../platform/stats.js" */

// The dialog is there from build() on: the functions that use it run only
// then (hence the casts from null).
/** @type {HTMLDialogElement | null} */
let dialog = null;
/** @type {StatsOptions} */
let options = { presets: [], onImported: () => {}, onReset: () => {} };

/**
 * The rule set's name: the preset's, marked when the rules were changed.
 * @param {string} preset
 * @param {boolean} custom
 * @returns {string}
 */
function rulesLabel(preset, custom) {
  const known = options.presets.find((p) => p.id === preset);
  const name = presetName(known || { id: preset, name: preset });
  return custom ? t("stats.customRules", { name }) : name;
}

/** @param {number} level */
function levelLabel(level) {
  return level ? t(`level.${level}`) : t("stats.levelUnknown");
}

const pair = (/** @type {number} */ a, /** @type {number} */ b) => `${a}–${b}`;

/**
 * @param {keyof HTMLElementTagNameMap} tag
 * @param {string} stat
 * @param {string | number | null} value
 */
function cell(tag, stat, value) {
  return h(tag, { "data-stat": stat, text: value === null ? "—" : String(value) });
}

// ------------------------------------------------------------------ parts

/** @param {Stats} stats */
function ratingSection(stats) {
  const rating = Math.round(stats.rating);
  const section = h(
    "section",
    { class: "stats-block" },
    h("h3", { text: t("stats.rating") }),
    h(
      "p",
      { class: "stats-rating" },
      cell("strong", "rating", rating),
      " ",
      h("span", { class: "muted", text: tp("stats.ratedMatches", stats.rated) }),
    ),
    h("p", {
      class: "muted small",
      text: t("stats.ratingExplain", { start: START_RATING, low: LEVEL_RATINGS[1], high: LEVEL_RATINGS[5] }),
    }),
    h("p", { class: "muted small", "data-note": "assisted", text: t("stats.ratingAssisted") }),
  );
  if (stats.history.length) {
    const whole = stats.history.length === stats.rated;
    const values = [...(whole ? [START_RATING] : []), ...stats.history.map((p) => p.rating)];
    const dots = [...(whole ? [null] : []), ...stats.history.map((p) => (p.won ? "won" : "lost"))];
    // A line for each level played in the matches drawn, none for a level never met.
    const played = new Set(stats.history.map((point) => String(point.level)));
    const marks = Object.entries(LEVEL_RATINGS)
      .filter(([level]) => played.has(level))
      .map(([level, value]) => ({ value, label: t("stats.levelMark", { n: level }) }));
    const label = t("stats.ratingChart", { from: Math.round(values[0]), to: rating });
    section.append(
      h("figure", { class: "stats-chart", "data-chart": "rating" }, lineChart({ values, marks, dots, label })),
    );
  }
  return section;
}

/** @param {Stats} stats */
function totalsSection(stats) {
  /** @type {Totals} */
  const sum = totals(stats);
  const basis = (/** @type {string} */ name, /** @type {"won" | "lost"} */ side) =>
    sum.basis[name] ? sum.basis[name][side] : 0;
  const row = (
    /** @type {string} */ text,
    /** @type {string} */ stat,
    /** @type {number} */ you,
    /** @type {number} */ them,
  ) => h("tr", {}, h("th", { scope: "row", text }), cell("td", `${stat}.won`, you), cell("td", `${stat}.lost`, them));
  const table = h(
    "table",
    { class: "stats-table" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("td"),
        h("th", { scope: "col", text: t("seat.you") }),
        h("th", { scope: "col", text: t("seat.computer") }),
      ),
    ),
    h(
      "tbody",
      {},
      row(t("stats.matchesWon"), "matches", sum.matches.won, sum.matches.lost),
      row(t("stats.dealsWon"), "deals", sum.deals.won, sum.deals.lost),
      row(t("stats.pointsWon"), "points", sum.points.won, sum.points.lost),
      row(t("stats.schwarz"), "basis.schwarz", basis("schwarz", "won"), basis("schwarz", "lost")),
      row(t("stats.schneider"), "basis.schneider", basis("schneider", "won"), basis("schneider", "lost")),
    ),
  );
  const rate = percent(sum.closes.won, sum.closes.made);
  const lines = [
    h("p", {}, t("stats.dealsNone"), " ", cell("strong", "deals.none", sum.deals.none)),
    h(
      "p",
      {},
      t("stats.closesMade"),
      " ",
      cell("strong", "closes.made", sum.closes.made),
      " · ",
      t("stats.closesWon"),
      " ",
      cell("strong", "closes.won", sum.closes.won),
      " (",
      cell("span", "closes.rate", rate === null ? null : `${rate} %`),
      ")",
    ),
    h(
      "p",
      {},
      t("stats.marriages"),
      " ",
      cell("strong", "marriages.count", sum.marriages.count),
      " · ",
      t("stats.marriagePoints"),
      " ",
      cell("strong", "marriages.points", sum.marriages.points),
    ),
  ];
  return h("section", { class: "stats-block" }, h("h3", { text: t("stats.totals") }), table, ...lines);
}

/**
 * @template {Totals & {key: string}} Row
 * @param {Row[]} rows
 * @param {string} head
 * @param {string} attr
 * @param {(row: Row) => string} label
 */
function breakdownTable(rows, head, attr, label) {
  return h(
    "table",
    { class: "stats-table stats-breakdown" },
    h(
      "thead",
      {},
      h(
        "tr",
        {},
        h("th", { scope: "col", text: head }),
        h("th", { scope: "col", text: t("stats.matches") }),
        h("th", { scope: "col", text: t("stats.deals") }),
        h("th", { scope: "col", text: t("stats.points") }),
      ),
    ),
    h(
      "tbody",
      {},
      ...rows.map((r) =>
        h(
          "tr",
          { [attr]: r.key },
          h("th", { scope: "row", text: label(r) }),
          cell("td", "matches", pair(r.matches.won, r.matches.lost)),
          cell("td", "deals", pair(r.deals.won, r.deals.lost)),
          cell("td", "points", pair(r.points.won, r.points.lost)),
        ),
      ),
    ),
  );
}

/** @param {Stats} stats */
function rulesSection(stats) {
  const rows = byRules(
    stats,
    options.presets.map((p) => p.id),
  ).map((r) => ({ ...r, key: `${r.preset}${r.custom ? "*" : ""}` }));
  const chart = barChart({
    label: t("stats.rulesChart"),
    rows: rows.map((r) => ({
      label: r.key,
      parts: [
        { value: r.deals.won, kind: "won" },
        { value: r.deals.lost, kind: "lost" },
      ],
    })),
  });
  return h(
    "section",
    { class: "stats-block" },
    h("h3", { text: t("stats.byRules") }),
    h(
      "p",
      { class: "muted small" },
      h("span", { class: "legend won" }),
      ` ${t("stats.legendWon")} `,
      h("span", { class: "legend lost" }),
      ` ${t("stats.legendLost")}`,
    ),
    h("figure", { class: "stats-chart", "data-chart": "rules" }, chart),
    breakdownTable(rows, t("stats.rules"), "data-rules", (r) => rulesLabel(r.preset, r.custom)),
  );
}

/** @param {Stats} stats */
function levelSection(stats) {
  const rows = byLevel(stats).map((r) => ({ ...r, key: String(r.level) }));
  return h(
    "section",
    { class: "stats-block" },
    h("h3", { text: t("stats.byLevel") }),
    breakdownTable(rows, t("stats.level"), "data-level", (r) => levelLabel(r.level)),
  );
}

function body() {
  /** @type {Stats} */
  const stats = loadStats();
  const since = new Intl.DateTimeFormat(document.documentElement.lang || language(), { dateStyle: "medium" }).format(
    new Date(stats.since),
  );
  const online = onlineSection();
  if (!Object.keys(stats.buckets).length) {
    return [h("p", { class: "stats-empty", text: t("stats.empty") }), ...online];
  }
  return [
    h("p", { class: "muted small", text: t("stats.since", { date: since }) }),
    ratingSection(stats),
    totalsSection(stats),
    rulesSection(stats),
    levelSection(stats),
    ...online,
  ];
}

/** Online games, counted apart from games against the computer (none played: nothing shown). */
function onlineSection() {
  const { games } = loadOnlineStats();
  if (!games.won && !games.lost && !games.none && !games.one_sided) return [];
  return [
    h(
      "section",
      { class: "stats-block stats-online" },
      h("h3", { text: t("stats.online.title") }),
      h("p", { text: t("stats.online.summary", { won: games.won, lost: games.lost, none: games.none }) }),
      ...(games.one_sided ? [h("p", { text: t("stats.online.oneSided", { count: games.one_sided }) })] : []),
    ),
  ];
}

// ------------------------------------------------------------- local data

/**
 * @param {string} text
 * @param {{error?: boolean, reason?: string}} [how]
 */
function say(text, { error = false, reason = "" } = {}) {
  const box = /** @type {HTMLElement} */ (/** @type {HTMLDialogElement} */ (dialog).querySelector("#stats-message"));
  box.textContent = text;
  box.hidden = !text;
  box.classList.toggle("error", error);
  box.dataset.result = text ? (error ? "error" : "ok") : "";
  box.dataset.reason = reason;
  box.setAttribute("role", error ? "alert" : "status");
}

function exportData() {
  const now = new Date();
  const text = `${JSON.stringify(collect(localStorage, now), null, 1)}\n`;
  saveFile(exportName(now), text);
  say(t("data.exported"));
}

/** @param {File | undefined} file */
async function importFile(file) {
  if (!file) return;
  let entries;
  try {
    entries = parseImport(await file.text());
    applyImport(entries);
  } catch (error) {
    if (!(error instanceof DataError)) throw error;
    say(`${t("data.importFailed")} ${t(error.key)}`, { error: true, reason: error.key });
    return;
  }
  say(t("data.imported"));
  options.onImported();
}

/** @param {boolean} show */
function confirmReset(show) {
  /** @type {HTMLElement} */ (/** @type {HTMLDialogElement} */ (dialog).querySelector("#stats-confirm")).hidden = !show;
  /** @type {HTMLElement} */ (
    /** @type {HTMLDialogElement} */ (dialog).querySelector("[data-action='data-reset']")
  ).hidden = show;
  if (show)
    /** @type {HTMLElement} */ (
      /** @type {HTMLDialogElement} */ (dialog).querySelector("[data-action='data-reset-confirm']")
    ).focus();
}

function dataSection() {
  const input = h("input", {
    type: "file",
    accept: "application/json,.json",
    id: "stats-import-file",
    hidden: true,
    tabindex: "-1",
  });
  input.addEventListener("change", () => {
    const file = input.files?.[0];
    input.value = "";
    importFile(file);
  });
  /**
   * @param {string} action
   * @param {string} text
   * @param {() => void} onClick
   */
  const button = (action, text, onClick, classes = "btn") => {
    const node = h("button", { type: "button", class: classes, "data-action": action, text });
    node.addEventListener("click", onClick);
    return node;
  };
  const confirm = h(
    "div",
    {
      class: "stats-confirm",
      id: "stats-confirm",
      hidden: true,
      role: "group",
      "aria-labelledby": "stats-confirm-text",
    },
    h("p", { id: "stats-confirm-text", text: t("data.resetConfirm") }),
    h(
      "div",
      { class: "dialog-buttons" },
      button("data-reset-cancel", t("data.cancel"), () => confirmReset(false)),
      button(
        "data-reset-confirm",
        t("data.resetYes"),
        () => {
          resetAll();
          confirmReset(false);
          say(t("data.resetDone"));
          options.onReset();
        },
        "btn btn-danger",
      ),
    ),
  );
  return h(
    "section",
    { class: "stats-block stats-data" },
    h("h3", { text: t("data.title") }),
    h("p", { class: "muted small", text: t("data.explain") }),
    h(
      "div",
      { class: "dialog-buttons stats-data-buttons" },
      button("data-export", t("data.export"), exportData),
      button("data-import", t("data.import"), () => input.click()),
      button("data-reset", t("data.reset"), () => confirmReset(true)),
    ),
    input,
    confirm,
    h("p", { id: "stats-message", class: "stats-message", hidden: true }),
  );
}

// ------------------------------------------------------------------ dialog

function build() {
  const close = h("button", {
    type: "button",
    class: "btn btn-primary",
    "data-action": "stats-close",
    text: t("stats.close"),
  });
  close.addEventListener("click", () => /** @type {HTMLDialogElement} */ (dialog).close());
  dialog = /** @type {HTMLDialogElement} */ (
    h(
      "dialog",
      { class: "dialog dialog-wide", id: "stats-dialog", "aria-labelledby": "stats-title" },
      h("h2", { id: "stats-title", tabindex: "-1", text: t("stats.title") }),
      h("div", { id: "stats-body" }),
      dataSection(),
      h("div", { class: "dialog-buttons" }, close),
    )
  );
  document.body.append(dialog);
}

/**
 * Show the statistics screen. ``opts``: {presets, onImported, onReset}.
 * @param {StatsOptions} opts
 */
export function openStats(opts) {
  options = { ...options, ...opts };
  // Rebuilt each time: the words follow the language, the numbers the storage.
  if (dialog) dialog.remove();
  build();
  /** @type {HTMLElement} */ (/** @type {HTMLDialogElement} */ (dialog).querySelector("#stats-body")).replaceChildren(
    ...body(),
  );
  /** @type {HTMLDialogElement} */ (dialog).showModal();
  // The screen opens at its top, its title focused (not the first button, the export far below).
  /** @type {HTMLElement} */ (/** @type {HTMLDialogElement} */ (dialog).querySelector("#stats-title")).focus();
  /** @type {HTMLDialogElement} */ (dialog).scrollTop = 0;
}

/** Redraw the open screen (after the data changed or the language did). */
export function refreshStats() {
  if (dialog?.open) /** @type {HTMLElement} */ (dialog.querySelector("#stats-body")).replaceChildren(...body());
}
