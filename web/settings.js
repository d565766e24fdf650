// Player settings, remembered in localStorage. None of them is a rule: the
// rules come from the engine's presets.

const KEY = "sixty-six.settings.v1";

export const LEVELS = [1, 2, 3, 4, 5];
export const DEALERS = { random: "Cut for it (random)", me: "I deal first", computer: "The computer deals first" };
export const POINTS_MODES = {
  auto: "As the rules suggest",
  hide: "Hidden (count in your head)",
  own: "My points only",
  both: "Both players' points",
};
// The longest the computer may think, by level: each level searches a fixed
// number of iterations (5: for a second), which may take longer in the
// browser than natively; the cap keeps the table responsive on slow devices.
const BUDGET_MS = { 1: 2500, 2: 2500, 3: 2500, 4: 2500, 5: 1000 };

export const DEFAULTS = Object.freeze({ preset: "AT20", level: 3, dealer: "random", points: "auto" });

function valid(settings) {
  const out = { ...DEFAULTS };
  if (settings && typeof settings === "object") {
    if (typeof settings.preset === "string" && /^[A-Z0-9]{2,12}$/.test(settings.preset)) out.preset = settings.preset;
    if (LEVELS.includes(settings.level)) out.level = settings.level;
    if (settings.dealer in DEALERS) out.dealer = settings.dealer;
    if (settings.points in POINTS_MODES) out.points = settings.points;
  }
  return out;
}

export function loadSettings() {
  try {
    return valid(JSON.parse(localStorage.getItem(KEY) || "null"));
  } catch {
    return { ...DEFAULTS };
  }
}

export function saveSettings(settings) {
  const clean = valid(settings);
  try {
    localStorage.setItem(KEY, JSON.stringify(clean));
  } catch {
    // storage full or disabled: the settings last for this visit only
  }
  return clean;
}

/** The seat that deals first, as new_game's "dealer" argument (undefined: the engine cuts). */
export function dealerArgument(settings) {
  return settings.dealer === "me" ? 0 : settings.dealer === "computer" ? 1 : undefined;
}

export function budgetFor(level) {
  return BUDGET_MS[level] ?? BUDGET_MS[3];
}

/**
 * Which running points to show: "hide" | "own" | "both".
 * The default follows RULES.md §3.1 (UI options): shown for presets where
 * 66 ends the deal automatically, hidden where players claim by hand.
 */
export function pointsMode(settings, rules) {
  if (settings.points !== "auto") return settings.points;
  return rules && rules.claim_mode === "auto" ? "both" : "hide";
}
