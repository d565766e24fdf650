// @ts-check
// Translations: every word the page shows comes from web/i18n/<language>.json.
//
// t("key", {name: value}) looks a key up in the current language and fills
// its {name} placeholders; tp("key", n, params) picks the plural form of n
// (Intl.PluralRules: "one", "few", "many", "other"; the number is {n}).
// Static text in index.html carries its key in data-i18n (text content),
// data-i18n-label (aria-label) or data-i18n-title (title); localize() fills
// them in.
//
// A key that the language lacks shows as ⟦key⟧ and is listed in
// <html data-i18n-missing> (tests look for both); tests/test_i18n.py checks
// that no key is missing in any file, so this should never happen.

/** @typedef {Record<string, unknown>} Params The values of a text's {name} placeholders. */
/** @typedef {Record<string, string | Record<string, string>>} Strings One language's texts: a text, or plural forms by category. */
/**
 * What a voice says instead of a key: a text, or another key (with more placeholder values).
 * @typedef {{text: string, key?: undefined, params?: undefined} | {text?: undefined, key: string, params?: Params}} Spoken
 */
/** @typedef {(key: string) => Spoken | null} Voice */

export const LANGUAGES = ["en", "hu", "de", "ro", "pl", "sr"];

/**
 * The <html lang> of each language (Serbian is written in Latin script here).
 * @type {Record<string, string>}
 */
const HTML_LANG = { en: "en", hu: "hu", de: "de", ro: "ro", pl: "pl", sr: "sr-Latn" };

/**
 * Browser languages that read the Serbian (Latin) text best, and Moldovan.
 * @type {Record<string, string>}
 */
const ALIASES = { hr: "sr", bs: "sr", sh: "sr", cnr: "sr", mo: "ro" };

/** @type {Map<string, Strings>} */
const loaded = new Map(); // language -> its strings
/** @type {Set<string>} */
const missing = new Set();
let current = "en";
/** @type {Strings | null} */
let strings = null;
let plurals = new Intl.PluralRules("en");
// While two people or two computers play, words about "you" and "the computer"
// name the seats instead (names.js): voice(key) gives {text} or {key, params}, or null.
/** @type {Voice | null} */
let voice = null;

/**
 * Speak of the seats through ``fn`` (see names.js), or as "you" and "the computer" with null.
 * @param {Voice | null} fn
 */
export function setVoice(fn) {
  voice = fn;
}

/**
 * The first of the browser's languages that the game speaks ("en" if none).
 * @param {readonly string[]} [list]
 */
export function detectLanguage(list = navigator.languages?.length ? navigator.languages : [navigator.language]) {
  for (const tag of list || []) {
    const base = String(tag).toLowerCase().split(/[-_]/)[0];
    const code = ALIASES[base] || base;
    if (LANGUAGES.includes(code)) return code;
  }
  return "en";
}

/**
 * @param {string} code
 * @returns {Promise<Strings>}
 */
async function fetchStrings(code) {
  if (loaded.has(code)) return /** @type {Strings} */ (loaded.get(code));
  const response = await fetch(new URL(`../i18n/${code}.json`, import.meta.url));
  if (!response.ok) throw new Error(`i18n/${code}.json: HTTP ${response.status}`);
  const data = await response.json();
  loaded.set(code, data);
  return data;
}

/**
 * Switch to ``code`` (English if it cannot be loaded); sets <html lang>. Resolves to the language in use.
 * @param {string} code
 */
export async function setLanguage(code) {
  let lang = LANGUAGES.includes(code) ? code : "en";
  let data;
  try {
    data = await fetchStrings(lang);
  } catch (error) {
    if (lang === "en") throw error;
    console.warn(`Language ${lang} is not available:`, error);
    lang = "en";
    data = await fetchStrings(lang);
  }
  strings = data;
  current = lang;
  plurals = new Intl.PluralRules(HTML_LANG[lang]);
  document.documentElement.lang = HTML_LANG[lang];
  document.documentElement.dataset.language = lang;
  return lang;
}

export function language() {
  return current;
}

/**
 * ``n`` written the current language's way with ``digits`` decimals ("1.5" in English, "1,5" in German).
 * @param {number} n
 */
export function formatNumber(n, digits = 0) {
  return new Intl.NumberFormat(HTML_LANG[current], {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(n);
}

/**
 * Is ``key`` defined in the current language? (Does not count as a miss.)
 * @param {string} key
 */
export function has(key) {
  return Boolean(strings && key in strings);
}

/** @param {string} key */
function miss(key) {
  missing.add(key);
  document.documentElement.dataset.i18nMissing = [...missing].join(" ");
  return `⟦${key}⟧`;
}

/**
 * @param {string} text
 * @param {Params} [params]
 */
function fill(text, params) {
  if (!params) return text;
  return text.replace(/\{(\w+)\}/g, (whole, name) => (name in params ? String(params[name]) : whole));
}

/**
 * The text of ``key`` with its placeholders filled in ("" until a language is loaded).
 * @param {string} key
 * @param {Params} [params]
 * @returns {string}
 */
export function t(key, params) {
  if (!strings) return "";
  const spoken = voice?.(key);
  if (spoken?.text !== undefined) return spoken.text;
  if (spoken && typeof strings[spoken.key] === "string")
    return fill(/** @type {string} */ (strings[spoken.key]), { ...params, ...spoken.params });
  const text = strings[key];
  if (typeof text !== "string") return miss(key);
  return fill(text, params);
}

/**
 * The plural form of ``key`` for the number ``n`` (also available as {n}).
 * @param {string} key
 * @param {number} n
 * @param {Params} [params]
 * @returns {string}
 */
export function tp(key, n, params = {}) {
  if (!strings) return "";
  const spoken = voice?.(key);
  if (spoken?.key && strings[spoken.key]) return tp(spoken.key, n, { ...params, ...spoken.params });
  const forms = strings[key];
  if (!forms || typeof forms !== "object") return miss(key);
  const category = plurals.select(n);
  const text = forms[category] ?? forms.other;
  if (typeof text !== "string") return miss(`${key}.${category}`);
  return fill(text, { ...params, n });
}

/** The keys asked for but not defined so far. */
export function missingKeys() {
  return [...missing];
}

/**
 * Fill in the static text of the document (data-i18n, data-i18n-label, data-i18n-title).
 * @param {ParentNode} [root]
 */
export function localize(root = document) {
  // The selectors guarantee the data attributes (hence the casts to string).
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n]")))
    node.textContent = t(/** @type {string} */ (node.dataset.i18n));
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n-label]")))
    node.setAttribute("aria-label", t(/** @type {string} */ (node.dataset.i18nLabel)));
  for (const node of /** @type {NodeListOf<HTMLElement>} */ (root.querySelectorAll("[data-i18n-title]")))
    node.title = t(/** @type {string} */ (node.dataset.i18nTitle));
}
