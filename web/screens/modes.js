// @ts-check
// Ways to play: against the computer, two players on one device (hot-seat),
// or watching the computer play itself. The choice for the next new game is a
// preference (remembered in localStorage, like settings.js); the mode of the
// game in play is its table's "seating", which the engine keeps with the game
// (py_engine/service/table.py says what each mode may see and do).

import { loadEntry } from "../platform/damage.js";
import { computerName, defaultName } from "../table/names.js";
import { DEFAULT_LEVEL, LEVELS } from "./settings.js";

/** @import { Seating } from "../../types/engine.js" */
/**
 * The way to play the next new game: the mode ("computer", "hotseat" or
 * "watch"), ranked or not, the two players' names, the level of the second
 * computer when watching (how fast it plays is the settings' pace).
 * @typedef {{mode: string, ranked: boolean, names: [string, string], watchLevel: number}} Preferences
 */

const KEY = "sixty-six.modes.v1";

export const MODES = ["computer", "hotseat", "watch"];
export const NAME_MAX = 24;

export const PREFERENCE_DEFAULTS = Object.freeze(
  /** @type {Preferences} */ ({
    mode: "computer",
    ranked: false,
    names: ["", ""],
    watchLevel: DEFAULT_LEVEL,
  }),
);

/** @param {unknown} value */
function cleanName(value) {
  return typeof value === "string"
    ? value
        // biome-ignore lint/suspicious/noControlCharactersInRegex: a name loses its control characters
        .replace(/[\u0000-\u001f\u007f]/g, "")
        .trim()
        .slice(0, NAME_MAX)
    : "";
}

/**
 * The preferences in ``prefs`` that are valid, the defaults for the rest.
 * @param {any} prefs anything (as read from storage)
 * @returns {Preferences}
 */
function valid(prefs) {
  /** @type {Preferences} */
  const out = { ...PREFERENCE_DEFAULTS, names: [...PREFERENCE_DEFAULTS.names] };
  if (prefs && typeof prefs === "object") {
    if (MODES.includes(prefs.mode)) out.mode = prefs.mode;
    if (typeof prefs.ranked === "boolean") out.ranked = prefs.ranked;
    if (Array.isArray(prefs.names) && prefs.names.length === 2) out.names = prefs.names.map(cleanName);
    if (LEVELS.includes(prefs.watchLevel)) out.watchLevel = prefs.watchLevel;
  }
  return out;
}

/** @returns {Preferences} */
export function loadPreferences() {
  return loadEntry(KEY, valid);
}

/**
 * Store the valid part of ``prefs``; returns what is stored.
 * @param {Preferences} prefs
 */
export function savePreferences(prefs) {
  const clean = valid(prefs);
  try {
    localStorage.setItem(KEY, JSON.stringify(clean));
  } catch {
    // storage full or disabled: for this visit only
  }
  return clean;
}

/**
 * The seating of a new game from the preferences and the computer's level (watching: seat 0 plays at watchLevel).
 * @param {Preferences} prefs
 * @param {number} level
 * @returns {Seating}
 */
export function newSeating(prefs, level) {
  // One of MODES: the settings' form offers no other, and stored preferences are checked (valid()).
  const mode = /** @type {Seating["mode"]} */ (prefs.mode);
  return {
    mode,
    ranked: prefs.ranked,
    names: mode === "hotseat" ? [...prefs.names] : null,
    levels: [mode === "watch" ? prefs.watchLevel : null, mode === "hotseat" ? null : level],
  };
}

/** The seating of a plain game against the computer (the tutorial's). */
export const PLAIN_SEATING = Object.freeze(
  /** @type {Seating} */ ({ mode: "computer", ranked: false, names: null, levels: [null, null] }),
);

/**
 * The names of seats 0 and 1 for a game of this meta (null: "you" and "the computer").
 * @param {Seating} meta
 */
export function seatNames(meta) {
  if (meta.mode === "hotseat" || meta.mode === "online") {
    return [0, 1].map((seat) => meta.names?.[seat] || defaultName(seat));
  }
  if (meta.mode === "watch") return [0, 1].map((seat) => computerName(seat, meta.levels?.[seat] ?? DEFAULT_LEVEL));
  return null;
}
