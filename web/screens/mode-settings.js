// The settings dialog's part for ways to play: the mode of the next new game,
// the players' names (two on one device), the level of the second computer
// (watching) and the ranked switch.

import { t } from "../platform/i18n.js";
import { defaultName } from "../table/names.js";
import { MODES } from "./modes.js";
import { LEVELS } from "./settings.js";
import { fillSelect } from "../table/table.js";

const $ = (id) => document.getElementById(id);

/** Show only the fields that the chosen mode uses. */
function showFieldsFor(mode) {
  $("setting-names").hidden = mode !== "hotseat";
  $("setting-watch-level-field").hidden = mode !== "watch";
  $("setting-ranked-field").hidden = mode === "watch";
}

export function fillModeSettings(prefs) {
  const mode = $("setting-mode");
  fillSelect(mode, MODES.map((key) => [key, t(`modes.mode.${key}`)]), prefs.mode);
  fillSelect($("setting-watch-level"), LEVELS.map((level) => [level, t(`level.${level}`)]), prefs.watchLevel);
  for (const seat of [0, 1]) {
    const input = $(`setting-name${seat + 1}`);
    input.value = prefs.names[seat];
    input.placeholder = defaultName(seat);
  }
  $("setting-ranked").checked = prefs.ranked;
  showFieldsFor(prefs.mode);
  mode.onchange = () => showFieldsFor(mode.value);
}

/** The preferences as the form says (unchanged ones kept from ``prefs``). */
export function readModeSettings(data, prefs) {
  return {
    ...prefs,
    mode: String(data.get("mode") || prefs.mode),
    names: [String(data.get("name1") ?? ""), String(data.get("name2") ?? "")],
    watchLevel: Number(data.get("watchLevel") || prefs.watchLevel),
    ranked: data.get("ranked") === "on",
  };
}
