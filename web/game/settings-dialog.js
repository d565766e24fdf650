// @ts-check
// The settings dialog (settings.js keeps the settings): the language, the
// card pattern, the rules with their custom changes (custom-rules.js, checked
// by the engine), the level, the dealer, the points shown, the way to play
// (mode-settings.js), whether a claim asks first, sound and shortcuts. Saved,
// the language, the card pattern and the claim's question apply at once; the
// rest with the next game. Cancel, Escape and the backdrop close it unsaved;
// starting a new game asks first while a match is in play.

import { has, LANGUAGES, localize, setLanguage, t } from "../platform/i18n.js";
import { closeOnBackdrop } from "../screens/confirm.js";
import { mountRulesEditor, overridesFor, saveCustomRules } from "../screens/custom-rules.js";
import { fillModeSettings, readModeSettings } from "../screens/mode-settings.js";
import { savePreferences } from "../screens/modes.js";
import { DEALERS, deckOf, LEVELS, languageOf, PACES, POINTS_MODES, saveSettings } from "../screens/settings.js";
import { DECK_STYLES, setDeckStyle } from "../table/cards.js";
import { renderKeyHelp, setShortcutsOn, shortcutsOn } from "../table/keyboard.js";
import { setSoundOn, soundOn } from "../table/sound.js";
import { fillSelect, presetName, rulesSummary } from "../table/table.js";
import { bootFailed, bootProgress, draw, placeholderTable } from "./draw.js";
import { mayAbandon, newGame } from "./loop.js";
import { dom, state } from "./state.js";

/** @import { EngineClient, EngineError } from "../engine/engine-client.js" */
/** @import { Rules, RulesErrorDetail, RulesParameter } from "../../types/engine.js" */

// Every element asked for by id is in index.html's settings dialog (hence the casts).

/**
 * The engine's rules parameters (asked for once, when first needed, once there is an engine).
 * @returns {Promise<RulesParameter[]>}
 */
export function ruleParameters() {
  state.parameters ??= /** @type {EngineClient} */ (state.client)
    .request({ cmd: "rules" })
    .then((answer) => answer.parameters);
  state.parameters.catch(() => {
    state.parameters = null;
  });
  return state.parameters;
}

/**
 * Null if the engine accepts these rules, else its bad_rules detail ({reason, values}).
 * @param {string} preset
 * @param {Rules} rules
 * @returns {Promise<RulesErrorDetail | null>}
 */
async function checkRules(preset, rules) {
  try {
    await /** @type {EngineClient} */ (state.client).request({ cmd: "check_rules", preset, rules });
    return null;
  } catch (error) {
    return /** @type {EngineError} */ (error).detail || { reason: "other" };
  }
}

/**
 * The custom-rules editor of the settings, for the preset chosen there.
 * @param {HTMLDialogElement} dialog
 */
async function mountEditor(dialog) {
  const body = /** @type {HTMLElement} */ (document.getElementById("custom-rules-body"));
  const buttons = /** @type {NodeListOf<HTMLButtonElement>} */ (dialog.querySelectorAll("button[type='submit']"));
  const onValidity = (/** @type {boolean} */ valid) => {
    for (const button of buttons) button.disabled = !valid;
  };
  let parameters;
  try {
    parameters = await ruleParameters();
  } catch {
    body.replaceChildren(); // no engine: nothing to edit
    return;
  }
  const preset = /** @type {HTMLSelectElement} */ (document.getElementById("setting-preset")).value;
  state.rulesEditor = mountRulesEditor(body, {
    presets: state.presets,
    parameters,
    preset,
    overrides: overridesFor(preset),
    check: checkRules,
    onValidity,
  });
}

/** Open the settings dialog (``focusNewGame``: on its "new game" button). */
export function openSettings(focusNewGame = false) {
  const s = state.settings;
  /** @type {[string, string][]} */
  const presets = state.presets.length
    ? state.presets.map((p) => [p.id, has(`presetShort.${p.id}`) ? t(`presetShort.${p.id}`) : presetName(p)])
    : [[s.preset, t("settings.loadingRules")]];
  const dialog = /** @type {HTMLDialogElement} */ (document.getElementById("settings-dialog"));
  dialog.dataset.shownLanguage = languageOf(s);
  dialog.dataset.shownDeck = deckOf(s, dialog.dataset.shownLanguage);
  fillSelect(
    /** @type {HTMLSelectElement} */ (document.getElementById("setting-language")),
    LANGUAGES.map((code) => [code, t(`lang.${code}`)]),
    dialog.dataset.shownLanguage,
  );
  fillSelect(
    /** @type {HTMLSelectElement} */ (document.getElementById("setting-deck")),
    DECK_STYLES.map((style) => [style, t(`deck.${style}`)]),
    dialog.dataset.shownDeck,
  );
  fillSelect(/** @type {HTMLSelectElement} */ (document.getElementById("setting-preset")), presets, s.preset);
  fillSelect(
    /** @type {HTMLSelectElement} */ (document.getElementById("setting-level")),
    LEVELS.map((level) => [level, t(`level.${level}`)]),
    s.level,
  );
  fillSelect(
    /** @type {HTMLSelectElement} */ (document.getElementById("setting-dealer")),
    DEALERS.map((key) => [key, t(`dealer.${key}`)]),
    s.dealer,
  );
  fillSelect(
    /** @type {HTMLSelectElement} */ (document.getElementById("setting-points")),
    POINTS_MODES.map((key) => [key, t(`points.${key}`)]),
    s.points,
  );
  fillSelect(
    /** @type {HTMLSelectElement} */ (document.getElementById("setting-pace")),
    PACES.map((key) => [key, t(`pace.${key}`)]),
    s.pace,
  );
  fillModeSettings(state.prefs);
  describeChoices();
  /** @type {HTMLElement} */ (document.getElementById("import-error")).hidden = true;
  /** @type {HTMLInputElement} */ (document.getElementById("setting-confirm-claim")).checked = s.confirmClaim;
  /** @type {HTMLInputElement} */ (document.getElementById("setting-tap-select")).checked = s.tapToSelect;
  /** @type {HTMLInputElement} */ (document.getElementById("setting-sound")).checked = soundOn();
  /** @type {HTMLInputElement} */ (document.getElementById("setting-shortcuts")).checked = shortcutsOn();
  renderKeyHelp(/** @type {HTMLElement} */ (document.getElementById("keys-list")));
  dialog.returnValue = "";
  state.rulesEditor = null;
  for (const button of /** @type {NodeListOf<HTMLButtonElement>} */ (dialog.querySelectorAll("button[type='submit']")))
    button.disabled = false;
  /** @type {HTMLDetailsElement} */ (document.getElementById("custom-rules")).open =
    Object.keys(overridesFor(s.preset)).length > 0;
  if (state.booted) mountEditor(dialog);
  dialog.showModal();
  if (focusNewGame) /** @type {HTMLElement} */ (dialog.querySelector('[data-action="settings-new-game"]')).focus();
}

/**
 * Under the cards and the rules chosen, what the select's short option leaves out: the pattern's suits, the rules'
 * whole name and the rules in a sentence.
 */
function describeChoices() {
  const deck = /** @type {HTMLSelectElement} */ (document.getElementById("setting-deck")).value;
  /** @type {HTMLElement} */ (document.getElementById("setting-deck-about")).textContent = t(`deck.${deck}.suits`);
  const id = /** @type {HTMLSelectElement} */ (document.getElementById("setting-preset")).value;
  const preset = state.presets.find((p) => p.id === id);
  /** @type {HTMLElement} */ (document.getElementById("setting-preset-about")).textContent = preset
    ? rulesSummary(preset.rules)
    : "";
}

/**
 * Listen to the settings dialog: its closing (onSettingsClosed), Cancel and the backdrop (closed
 * unsaved), and "new game", which asks first while a match is in play (no: the dialog stays open).
 */
export function installSettingsDialog() {
  const dialog = /** @type {HTMLDialogElement} */ (document.getElementById("settings-dialog"));
  dialog.addEventListener("close", onSettingsClosed);
  for (const id of ["setting-deck", "setting-preset"]) {
    /** @type {HTMLElement} */ (document.getElementById(id)).addEventListener("change", describeChoices);
  }
  closeOnBackdrop(dialog);
  /** @type {HTMLElement} */ (document.getElementById("settings-cancel")).addEventListener("click", () =>
    dialog.close(),
  );
  /** @type {HTMLFormElement} */ (document.getElementById("settings-form")).addEventListener(
    "submit",
    async (event) => {
      const submitter = /** @type {HTMLButtonElement | null} */ (event.submitter);
      if (submitter?.value !== "new") return;
      event.preventDefault();
      if (await mayAbandon(t("top.newGame"))) dialog.close("new");
    },
  );
}

/**
 * The settings dialog closed: keep what it says if saved, and apply it (with a new game, if asked;
 * "online": saved for a game online, which app.js opens).
 */
export async function onSettingsClosed() {
  const dialog = /** @type {HTMLDialogElement} */ (document.getElementById("settings-dialog"));
  if (!["save", "new", "online"].includes(dialog.returnValue)) return;
  const form = /** @type {HTMLFormElement} */ (document.getElementById("settings-form"));
  const data = new FormData(form);
  if (state.rulesEditor) saveCustomRules(String(data.get("preset")), state.rulesEditor.overrides());
  const language = String(data.get("language"));
  const deck = String(data.get("deck"));
  state.settings = saveSettings({
    preset: String(data.get("preset")),
    level: Number(data.get("level")),
    dealer: String(data.get("dealer")),
    points: String(data.get("points")),
    confirmClaim: data.get("confirmClaim") === "on",
    tapToSelect: data.get("tapToSelect") === "on",
    pace: String(data.get("pace")),
    // Language and pattern stay "not chosen" (the browser's language, its usual pattern) until changed here.
    language: language === dialog.dataset.shownLanguage ? state.settings.language : language,
    deck: deck === dialog.dataset.shownDeck ? state.settings.deck : deck,
  });
  state.prefs = savePreferences(readModeSettings(data, state.prefs));
  setSoundOn(data.get("sound") === "on");
  setShortcutsOn(data.get("shortcuts") === "on");
  await applyLanguageAndDeck();
  if (dialog.returnValue === "new") newGame();
  else draw();
}

/** Show the page in the language and card pattern of the settings. */
export async function applyLanguageAndDeck() {
  let language = languageOf(state.settings);
  try {
    language = await setLanguage(language);
  } catch (error) {
    console.warn("The translations could not be loaded:", error);
  }
  setDeckStyle(deckOf(state.settings, language));
  dom.root.dataset.deck = deckOf(state.settings, language);
  localize();
  if (state.progress) bootProgress(state.progress);
  if (state.failure) bootFailed(state.failure);
  if (state.model) draw();
  else placeholderTable();
}
