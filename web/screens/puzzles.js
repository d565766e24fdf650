// @ts-check
// The puzzles screen: today's puzzle on top, the player's puzzle rating and
// runs, and the built-in puzzles with filters (rules, theme, difficulty,
// solved or not). The engine lists the puzzles and chooses the daily one
// (puzzle_list, puzzle_daily); the page keeps the progress
// (platform/puzzle-progress.js) and the engine says what it shows
// (puzzle_progress: each puzzle's state, the counts, the run of days). Choosing a puzzle hands it to the table
// (game/puzzle.js), which solves it.

import { t, tp } from "../platform/i18n.js";
import { loadProgress, localDate } from "../platform/puzzle-progress.js";
import { h, presetName } from "../table/table.js";

/** @import { Client } from "./records.js" */
/** @import { PuzzleEntry, PuzzleProgressAnswer } from "../../types/engine.js" */
/** @import { Progress } from "../platform/puzzle-progress.js" */
/** @typedef {PuzzleProgressAnswer} Standing What the engine says the progress shows. */
/**
 * ``preset``: the player's rules: the daily puzzle is of them, and the list starts filtered to them.
 * @typedef {{client: Client, today: string, preset: string, onChoose: (id: string, daily: boolean) => void}} PuzzlesOptions
 */

/** The engine's themes, bands and kinds (py_engine/puzzles/catalogue.py THEMES, KINDS; rating.py BANDS). */
export const PUZZLE_THEMES = ["closing", "endgame", "marriage", "exchange", "schneider", "claiming"];
export const PUZZLE_BANDS = ["easy", "medium", "hard", "expert"];
export const PUZZLE_KINDS = ["hidden", "double_dummy"];
/** The list's filter of the player's own results. */
export const PUZZLE_STATES = ["new", "failed", "solved"];

/** @type {HTMLDialogElement | null} */
let dialog = null;
/** @type {PuzzleEntry[] | null} the whole built-in set, in the engine's order */
let catalogue = null;
/** @type {{preset: string, theme: string, band: string, state: string}} */
const filters = { preset: "", theme: "", band: "", state: "" };
/** @type {Standing | null} the engine's answer for the progress the screen was opened with */
let standing = null;
/** The player's rules the list was last opened with: the rules filter starts at them again when they change. */
let playersPreset = "";

/**
 * A puzzle's goal in words: "Win with at least 2 game points", "Do not lose", "Lose no more than 1 game point".
 * @param {number} goal
 */
export function goalWords(goal) {
  if (goal > 0) return tp("puzzles.goal.win", goal);
  if (goal < 0) return tp("puzzles.goal.lose", -goal);
  return t("puzzles.goal.even");
}

/**
 * A signed result for the side in words: "you win 2 game points", "the computer wins 1 game point", "nobody scores".
 * @param {number} value
 */
export function valueWords(value) {
  if (value > 0) return tp("puzzles.value.win", value);
  if (value < 0) return tp("puzzles.value.lose", -value);
  return t("puzzles.value.even");
}

/**
 * The puzzle's number in the built-in set (1-based; 0 while the set is not loaded).
 * @param {string} id
 */
export function puzzleNumber(id) {
  return (catalogue?.findIndex((entry) => entry.id === id) ?? -1) + 1;
}

/**
 * The themes in words, joined.
 * @param {string[]} themes
 */
export function themeWords(themes) {
  return themes.map((theme) => t(`puzzles.theme.${theme}`)).join(", ");
}

/**
 * The difficulty in words: "Medium (1250)".
 * @param {PuzzleEntry} entry
 */
export function difficultyWords(entry) {
  return t("puzzles.difficulty", { band: t(`puzzles.band.${entry.band}`), rating: entry.difficulty });
}

/**
 * The whole set, asked for once.
 * @param {Client} client
 * @returns {Promise<PuzzleEntry[]>}
 */
export async function loadCatalogue(client) {
  if (!catalogue) catalogue = (await client.request({ cmd: "puzzle_list" })).puzzles;
  return catalogue;
}

/**
 * What the engine says the stored progress shows on ``today``.
 * @param {Client} client
 * @param {string} today
 * @returns {Promise<Standing>}
 */
function askStanding(client, today) {
  return client.request({ cmd: "puzzle_progress", progress: loadProgress(), today });
}

/**
 * A puzzle's state in the list: the engine's, "new" for one it does not name.
 * @param {Standing} known
 * @param {string} id
 */
const stateOf = (known, id) => known.states[id] ?? "new";

/**
 * The next puzzle after ``id`` in the set that the player has not solved (else simply the next one).
 * @param {Client} client
 * @param {string} id
 */
export async function nextPuzzle(client, id) {
  const all = await loadCatalogue(client);
  const known = await askStanding(client, localDate());
  const at = all.findIndex((entry) => entry.id === id);
  for (let i = 1; i <= all.length; i++) {
    const entry = all[(at + i) % all.length];
    if (stateOf(known, entry.id) !== "solved") return entry.id;
  }
  return all[(at + 1) % all.length]?.id ?? id;
}

/**
 * The date in the player's words ("Tuesday, 3 March 2026"), from YYYY-MM-DD.
 * @param {string} date
 * @param {string} locale
 */
function dateWords(date, locale) {
  const [y, m, d] = date.split("-").map(Number);
  try {
    return new Intl.DateTimeFormat(locale, { dateStyle: "full", timeZone: "UTC" }).format(Date.UTC(y, m - 1, d));
  } catch {
    return date;
  }
}

/**
 * One line about a puzzle: rules, difficulty, themes, goal.
 * @param {PuzzleEntry} entry
 */
function entryWords(entry) {
  return [
    presetName({ id: entry.preset, name: entry.preset }),
    difficultyWords(entry),
    themeWords(entry.themes),
    goalWords(entry.goal),
  ].join(" · ");
}

/**
 * @param {PuzzlesOptions} options
 * @param {Standing} known
 */
async function dailySection(options, known) {
  const section = h("section", { class: "puzzle-daily", id: "puzzle-daily", "aria-labelledby": "puzzle-daily-title" });
  section.append(h("h3", { id: "puzzle-daily-title", text: t("puzzles.daily.title") }));
  let daily;
  try {
    daily = (await options.client.request({ cmd: "puzzle_daily", date: options.today, preset: options.preset })).entry;
  } catch {
    section.append(h("p", { class: "muted", text: t("puzzles.failed") }));
    return section;
  }
  const done = known.daily_today;
  const run = known.daily_run;
  section.dataset.puzzle = daily.id;
  section.dataset.date = options.today;
  section.dataset.state = done ?? "new";
  const locale = document.documentElement.lang || "en";
  section.append(
    h("p", { class: "puzzle-date", text: dateWords(options.today, locale) }),
    h("p", { text: `${t("puzzles.number", { n: puzzleNumber(daily.id) })} · ${entryWords(daily)}` }),
    h("p", {
      class: `puzzle-daily-state ${done ?? "new"}`,
      id: "puzzle-daily-state",
      text:
        done === "solved"
          ? t("puzzles.daily.solved")
          : done === "failed"
            ? t("puzzles.daily.failed")
            : t("puzzles.daily.open"),
    }),
    h("p", { class: "muted", id: "puzzle-daily-run", "data-run": String(run), text: tp("puzzles.daily.run", run) }),
  );
  const open = h("button", {
    type: "button",
    class: "btn btn-primary",
    "data-puzzles": "daily",
    "data-id": daily.id,
    text: done ? t("puzzles.daily.again") : t("puzzles.daily.solve"),
  });
  section.append(open);
  return section;
}

/**
 * @param {Progress} progress
 * @param {Standing} known
 */
function ratingSection(progress, known) {
  const counts = known.summary;
  const dl = h("dl", { class: "puzzle-numbers" });
  /**
   * @param {string} stat
   * @param {string} label
   * @param {string} value
   */
  const row = (stat, label, value) =>
    dl.append(h("dt", { text: label }), h("dd", { "data-puzzle-stat": stat, text: value }));
  row(
    "rating",
    t("puzzles.rating"),
    t("puzzles.ratingValue", {
      rating: Math.round(progress.rating),
      deviation: Math.round(progress.deviation),
    }),
  );
  row("streak", t("puzzles.streak"), String(progress.streak));
  row("best", t("puzzles.best"), String(progress.best));
  row(
    "solved",
    t("puzzles.solvedCount"),
    t("puzzles.solvedOf", { solved: counts.solved, tried: counts.tried, first: counts.first_try }),
  );
  return h(
    "section",
    { class: "puzzle-me", "aria-labelledby": "puzzle-me-title" },
    h("h3", { id: "puzzle-me-title", text: t("puzzles.yours") }),
    dl,
    h("p", { class: "muted small", text: t("puzzles.ratingNote") }),
  );
}

/**
 * A filter's select.
 * @param {keyof typeof filters} name
 * @param {string} label
 * @param {[string, string][]} choices value and words (the first: all)
 */
function filterSelect(name, label, choices) {
  const select = h("select", { id: `puzzle-filter-${name}`, "data-filter": name });
  for (const [value, words] of choices) {
    const option = h("option", { value, text: words });
    if (value === filters[name]) option.selected = true;
    select.append(option);
  }
  select.addEventListener("change", () => {
    filters[name] = select.value;
    drawList();
  });
  return h("label", { class: "field" }, h("span", { text: label }), select);
}

function filterSection() {
  const all = /** @type {PuzzleEntry[]} */ (catalogue);
  const presets = [...new Set(all.map((entry) => entry.preset))];
  return h(
    "div",
    { class: "field-row puzzle-filters", role: "group", "aria-label": t("puzzles.filters") },
    filterSelect("preset", t("puzzles.filter.rules"), [
      ["", t("puzzles.filter.all")],
      ...presets.map((p) => /** @type {[string, string]} */ ([p, presetName({ id: p, name: p })])),
    ]),
    filterSelect("theme", t("puzzles.filter.theme"), [
      ["", t("puzzles.filter.all")],
      ...PUZZLE_THEMES.map((x) => /** @type {[string, string]} */ ([x, t(`puzzles.theme.${x}`)])),
    ]),
    filterSelect("band", t("puzzles.filter.band"), [
      ["", t("puzzles.filter.all")],
      ...PUZZLE_BANDS.map((x) => /** @type {[string, string]} */ ([x, t(`puzzles.band.${x}`)])),
    ]),
    filterSelect("state", t("puzzles.filter.state"), [
      ["", t("puzzles.filter.all")],
      ...PUZZLE_STATES.map((x) => /** @type {[string, string]} */ ([x, t(`puzzles.state.${x}`)])),
    ]),
  );
}

/** Draw the list as the filters say. */
function drawList() {
  if (!dialog || !catalogue || !standing) return;
  const known = standing;
  const shown = catalogue.filter(
    (entry) =>
      (!filters.preset || entry.preset === filters.preset) &&
      (!filters.theme || entry.themes.some((theme) => theme === filters.theme)) &&
      (!filters.band || entry.band === filters.band) &&
      (!filters.state || stateOf(known, entry.id) === filters.state),
  );
  const list = /** @type {HTMLElement} */ (dialog.querySelector("#puzzle-list"));
  list.replaceChildren(
    ...shown.map((entry) => {
      const state = stateOf(known, entry.id);
      const button = h(
        "button",
        { type: "button", class: "puzzle-item", "data-puzzles": "open", "data-id": entry.id, "data-state": state },
        h("span", { class: "puzzle-item-number", text: t("puzzles.number", { n: puzzleNumber(entry.id) }) }),
        h("span", { class: "puzzle-item-words", text: entryWords(entry) }),
        h("span", { class: `puzzle-badge ${state}`, text: t(`puzzles.state.${state}`) }),
      );
      return h("li", { "data-puzzle": entry.id }, button);
    }),
  );
  const count = /** @type {HTMLElement} */ (dialog.querySelector("#puzzle-count"));
  count.textContent = tp("puzzles.count", shown.length);
}

/**
 * Open the puzzles screen.
 * @param {PuzzlesOptions} options
 */
export async function openPuzzles(options) {
  if (dialog) dialog.remove();
  const close = h("button", {
    type: "button",
    class: "btn btn-quiet",
    "data-puzzles": "close",
    text: t("stats.close"),
  });
  dialog = /** @type {HTMLDialogElement} */ (
    h(
      "dialog",
      { class: "dialog dialog-wide puzzles-dialog", id: "puzzles-dialog", "aria-labelledby": "puzzles-title" },
      h("div", { class: "review-head" }, h("h2", { id: "puzzles-title", text: t("puzzles.title") }), close),
      h("p", { class: "muted", id: "puzzles-loading", role: "status", text: t("puzzles.loading") }),
    )
  );
  document.body.append(dialog);
  const here = dialog;
  here.addEventListener("click", (event) => {
    const button = /** @type {HTMLElement | null} */ (
      /** @type {Element} */ (event.target).closest("button[data-puzzles]")
    );
    if (!button) return;
    const what = button.dataset.puzzles;
    if (what === "close") here.close();
    else if (what === "open" || what === "daily") {
      here.close();
      options.onChoose(/** @type {string} */ (button.dataset.id), what === "daily");
    }
  });
  here.showModal();
  close.focus();
  const progress = loadProgress();
  let daily;
  /** @type {Standing} */
  let known;
  try {
    await loadCatalogue(options.client);
    known = await askStanding(options.client, options.today);
    if (options.preset !== playersPreset) {
      playersPreset = options.preset;
      filters.preset = catalogue?.some((entry) => entry.preset === options.preset) ? options.preset : "";
    }
    daily = await dailySection(options, known);
  } catch {
    /** @type {HTMLElement} */ (here.querySelector("#puzzles-loading")).textContent = t("puzzles.failed");
    return;
  }
  if (dialog !== here) return;
  /** @type {HTMLElement} */ (here.querySelector("#puzzles-loading")).remove();
  standing = known;
  here.append(
    daily,
    ratingSection(progress, known),
    h("h3", { id: "puzzle-list-title", text: t("puzzles.all") }),
    filterSection(),
    h("p", { class: "muted small", id: "puzzle-count", role: "status" }),
    h("ul", { class: "puzzle-list", id: "puzzle-list", "aria-labelledby": "puzzle-list-title" }),
  );
  drawList();
  here.dataset.loaded = "1";
}
