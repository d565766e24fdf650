// @ts-check
// The settings dialog's part for ways to play: the mode of the next new game,
// the players' names (two on one device), the level of the second computer
// (watching) and the ranked switch.

import { t } from "../platform/i18n.js";
import { defaultName } from "../table/names.js";
import { fillSelect } from "../table/table.js";
import { MODES } from "./modes.js";
import { LEVELS } from "./settings.js";

/** @import { Preferences } from "./modes.js" */

/**
 * An element of index.html's settings dialog, which has every one asked for here (hence the cast).
 * @param {string} id
 */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * Show only the fields that the chosen mode uses.
 * @param {string} mode
 */
function showFieldsFor(mode) {
  $("setting-names").hidden = mode !== "hotseat";
  $("setting-watch-level-field").hidden = mode !== "watch";
  $("setting-ranked-field").hidden = mode === "watch";
}

/**
 * Show ``prefs`` in the settings dialog's fields for ways to play.
 * @param {Preferences} prefs
 */
export function fillModeSettings(prefs) {
  const mode = /** @type {HTMLSelectElement} */ ($("setting-mode"));
  fillSelect(
    mode,
    MODES.map((key) => [key, t(`modes.mode.${key}`)]),
    prefs.mode,
  );
  fillSelect(
    /** @type {HTMLSelectElement} */ ($("setting-watch-level")),
    LEVELS.map((level) => [level, t(`level.${level}`)]),
    prefs.watchLevel,
  );
  for (const seat of [0, 1]) {
    const input = /** @type {HTMLInputElement} */ ($(`setting-name${seat + 1}`));
    input.value = prefs.names[seat];
    input.placeholder = defaultName(seat);
  }
  /** @type {HTMLInputElement} */ ($("setting-ranked")).checked = prefs.ranked;
  showFieldsFor(prefs.mode);
  mode.onchange = () => showFieldsFor(mode.value);
}

/**
 * The preferences as the form says (unchanged ones kept from ``prefs``).
 * @param {FormData} data
 * @param {Preferences} prefs
 * @returns {Preferences}
 */
export function readModeSettings(data, prefs) {
  return {
    ...prefs,
    mode: String(data.get("mode") || prefs.mode),
    names: [String(data.get("name1") ?? ""), String(data.get("name2") ?? "")],
    watchLevel: Number(data.get("watchLevel") || prefs.watchLevel),
    ranked: data.get("ranked") === "on",
  };
}
