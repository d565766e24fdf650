// @ts-check
// Player settings, remembered in localStorage. None of them is a rule: the
// rules come from the engine's presets. The words for each choice are in the
// translations (web/i18n/*.json): "level.<n>", "dealer.<key>", "points.<key>",
// "deck.<style>", "lang.<code>".

import { loadEntry } from "../platform/damage.js";
import { detectLanguage, LANGUAGES } from "../platform/i18n.js";
import { DECK_STYLES } from "../table/cards.js";

/** @import { RuleSet } from "../../types/engine.js" */
/**
 * The player's settings: the rules (a preset's id), the computer's level,
 * who deals first, the running points shown, whether a claim of 66 asks
 * first, the language and the card pattern (null until chosen).
 * @typedef {{
 *   preset: string,
 *   level: number,
 *   dealer: string,
 *   points: string,
 *   confirmClaim: boolean,
 *   tapToSelect: boolean,
 *   language: string | null,
 *   deck: string | null,
 *   pace: string,
 * }} Settings
 */

const KEY = "sixty-six.settings.v1";

export const LEVELS = [1, 2, 3, 4, 5];
/**
 * The computer's level until the player chooses one: the engine's DEFAULT_LEVEL
 * (py_engine/service/defaults.py, the "presets" answer's default_level). The
 * page keeps the number because its settings are read from storage before the
 * engine has started; tests/test_protocol.py checks that both agree.
 */
export const DEFAULT_LEVEL = 3;
export const DEALERS = ["random", "me", "computer"];
export const POINTS_MODES = ["auto", "hide", "own", "both"];
/** How fast the table moves: the pauses and card movements of each are in game/state.js (timing). */
export const PACES = ["relaxed", "normal", "fast", "instant"];

/**
 * The card pattern for a language while the player has not chosen one: the
 * Hungarian/German (Tell) pattern where the game is usually played with it
 * (Hungary, Austria and southern Germany, Transylvania, Vojvodina), French
 * suits for English and Polish.
 */
/** @type {Record<string, string>} */
const DECK_BY_LANGUAGE = { en: "french", hu: "tell", de: "tell", ro: "tell", pl: "french", sr: "tell" };

// language and deck: null until chosen (the browser's language, and that language's usual pattern).
/** @type {Readonly<Settings>} */
export const DEFAULTS = Object.freeze({
  preset: "AT20",
  level: DEFAULT_LEVEL,
  dealer: "random",
  points: "auto",
  confirmClaim: true,
  tapToSelect: false,
  language: null,
  deck: null,
  pace: "normal",
});

/** The rules of a first visit by the browser's first language (German: by region too), else AT20. */
/** @type {Record<string, string>} */
const PRESET_BY_LANGUAGE = { hu: "HU24", pl: "PL24", ro: "RO24", sr: "KLUB20", hr: "KLUB20", bs: "KLUB20" };

/**
 * The rules a first visit starts with, from the browser's language and region (``tag``: e.g. "de-AT").
 * @param {string | undefined} [tag]
 */
export function presetForLocale(tag = globalThis.navigator?.languages?.[0] ?? globalThis.navigator?.language) {
  const [language = "", ...rest] = String(tag ?? "")
    .toLowerCase()
    .split(/[-_]/);
  if (language === "de") return rest.includes("at") ? "AT20" : "DE24";
  return PRESET_BY_LANGUAGE[language] ?? "AT20";
}

/**
 * The settings in ``settings`` that are valid, the defaults for the rest (the rules: by presetForLocale).
 * @param {any} settings anything (as read from storage)
 * @returns {Settings}
 */
function valid(settings) {
  const out = { ...DEFAULTS, preset: presetForLocale() };
  if (settings && typeof settings === "object") {
    if (typeof settings.preset === "string" && /^[A-Z0-9]{2,12}$/.test(settings.preset)) out.preset = settings.preset;
    if (LEVELS.includes(settings.level)) out.level = settings.level;
    if (DEALERS.includes(settings.dealer)) out.dealer = settings.dealer;
    if (POINTS_MODES.includes(settings.points)) out.points = settings.points;
    if (typeof settings.confirmClaim === "boolean") out.confirmClaim = settings.confirmClaim;
    if (typeof settings.tapToSelect === "boolean") out.tapToSelect = settings.tapToSelect;
    if (LANGUAGES.includes(settings.language)) out.language = settings.language;
    if (DECK_STYLES.includes(settings.deck)) out.deck = settings.deck;
    if (PACES.includes(settings.pace)) out.pace = settings.pace;
  }
  return out;
}

/** @returns {Settings} */
export function loadSettings() {
  return loadEntry(KEY, valid);
}

/**
 * Store the valid part of ``settings``; returns what is stored.
 * @param {Settings} settings
 */
export function saveSettings(settings) {
  const clean = valid(settings);
  try {
    localStorage.setItem(KEY, JSON.stringify(clean));
  } catch {
    // storage full or disabled: the settings last for this visit only
  }
  return clean;
}

/**
 * The seat that deals first, as new_game's "dealer" argument (undefined: the engine cuts).
 * @param {Settings} settings
 */
export function dealerArgument(settings) {
  return settings.dealer === "me" ? 0 : settings.dealer === "computer" ? 1 : undefined;
}

/**
 * Which running points to show: "hide" | "own" | "both".
 * The default follows docs/rules.md §3.1 (UI options): shown for presets where
 * 66 ends the deal automatically, hidden where players claim by hand, but
 * for a ``newcomer`` (platform/newcomer.js), who sees their own.
 * @param {Settings} settings
 * @param {Pick<RuleSet, "claim_mode"> | null | undefined} rules
 */
export function pointsMode(settings, rules, newcomer = false) {
  if (settings.points !== "auto") return settings.points;
  if (rules && rules.claim_mode === "auto") return "both";
  return newcomer ? "own" : "hide";
}

/**
 * The language to show: the one chosen, else the browser's.
 * @param {Settings} settings
 */
export function languageOf(settings) {
  return settings.language || detectLanguage();
}

/**
 * The card pattern to draw: the one chosen, else the usual one for ``language``.
 * @param {Settings} settings
 * @param {string} language
 */
export function deckOf(settings, language) {
  return settings.deck || DECK_BY_LANGUAGE[language] || "french";
}
