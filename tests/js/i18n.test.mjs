// web/platform/i18n.js under Node: loading a language (fetch of web/i18n/<lang>.json,
// English when a file is missing), placeholders, plural forms, missing keys,
// the voice that names the seats, and the static text of a document.

import assert from "node:assert/strict";
import { test } from "node:test";

import { FakeElement, installDocument, installFileFetch, quietly, translations } from "./helpers.mjs";

const document = installDocument();
// ro.json "cannot be loaded" (until the fallback test has run: see below).
const asked = installFileFetch({ refused: ["ro.json"] });
const i18n = await import("../../web/platform/i18n.js");
const en = await translations("en");

test("nothing is translated before a language is loaded", () => {
  assert.equal(i18n.t("stats.title"), "");
  assert.equal(i18n.tp("stats.ratedMatches", 2), "");
  assert.equal(i18n.has("stats.title"), false);
  assert.deepEqual(i18n.missingKeys(), []);
});

test("a language that cannot be loaded falls back to English", async () => {
  const { value, warnings } = await quietly(() => i18n.setLanguage("ro"));
  assert.equal(value, "en");
  assert.equal(i18n.language(), "en");
  assert.equal(document.documentElement.lang, "en");
  assert.equal(warnings.length, 1);
  assert.match(String(warnings[0][0]), /Language ro is not available/);
  assert.ok(asked.some((url) => url.endsWith("/web/i18n/ro.json")));
  assert.equal(i18n.t("stats.title"), en["stats.title"]);
});

test("an unknown language code loads English", async () => {
  assert.equal(await i18n.setLanguage("xx"), "en");
  assert.equal(document.documentElement.dataset.language, "en");
});

test("setLanguage sets <html lang> (Serbian in Latin script) and the words", async () => {
  assert.equal(await i18n.setLanguage("sr"), "sr");
  assert.equal(document.documentElement.lang, "sr-Latn");
  assert.equal(document.documentElement.dataset.language, "sr");
  assert.equal(i18n.t("lang.sr"), "Srpski (latinica)");
  assert.equal(await i18n.setLanguage("de"), "de");
  assert.equal(document.documentElement.lang, "de");
  assert.equal(i18n.language(), "de");
  assert.equal(i18n.t("stats.customRules", { name: "X" }), "X (geänderte Regeln)");
});

test("each language file is fetched once", async () => {
  const before = asked.filter((url) => url.endsWith("/de.json")).length;
  await i18n.setLanguage("en");
  await i18n.setLanguage("de");
  assert.equal(asked.filter((url) => url.endsWith("/de.json")).length, before);
});

test("placeholders are filled; unknown ones stay as they are", async () => {
  await i18n.setLanguage("en");
  assert.equal(i18n.t("stats.customRules", { name: "Snapszer" }), "Snapszer (changed rules)");
  assert.equal(i18n.t("stats.customRules", { other: 1 }), "{name} (changed rules)");
  assert.equal(i18n.t("stats.customRules"), "{name} (changed rules)");
  assert.equal(
    i18n.t("modes.named.matchScore", { nameMe: "Ann", nameOpp: "Bob", me: 3, opp: 5, target: 7 }),
    "Match: Ann 3 – 5 Bob (to 7)",
  );
  assert.equal(i18n.t("stats.customRules", { name: 0 }), "0 (changed rules)");
});

test("plural forms follow each language's rules, with {n} filled in", async () => {
  await i18n.setLanguage("en");
  assert.equal(i18n.tp("stats.ratedMatches", 1), "after 1 match");
  assert.equal(i18n.tp("stats.ratedMatches", 0), "after 0 matches");
  assert.equal(i18n.tp("stats.ratedMatches", 2), "after 2 matches");

  await i18n.setLanguage("pl");
  const pl = (n) => i18n.tp("panel.trickWon.me", n);
  assert.equal(pl(1), "Twoja lewa: 1 punkt.");
  assert.equal(pl(3), "Twoja lewa: 3 punkty.");
  assert.equal(pl(22), "Twoja lewa: 22 punkty.");
  assert.equal(pl(5), "Twoja lewa: 5 punktów.");
  assert.equal(pl(12), "Twoja lewa: 12 punktów.");
  assert.equal(pl(1.5), "Twoja lewa: 1.5 punktu.");

  const ro = await translations("ro");
  installFileFetch(); // ro.json may load now
  await i18n.setLanguage("ro");
  const forms = ro["stats.ratedMatches"];
  assert.equal(i18n.tp("stats.ratedMatches", 1), forms.one.replace("{n}", "1"));
  assert.equal(i18n.tp("stats.ratedMatches", 2), forms.few.replace("{n}", "2"));
  assert.equal(i18n.tp("stats.ratedMatches", 20), forms.other.replace("{n}", "20"));
  assert.notEqual(forms.few, forms.other);
});

test("tp's own {n} wins over a parameter of that name; other parameters are filled", async () => {
  await i18n.setLanguage("en");
  assert.equal(i18n.tp("modes.named.gain", 2, { name: "Ann", n: 99 }), "Ann wins 2 game points");
  assert.equal(i18n.tp("modes.named.gain", 1, { name: "Ann" }), "Ann wins 1 game point");
});

test("a missing key shows as ⟦key⟧ and is listed on <html>", async () => {
  await i18n.setLanguage("en");
  assert.equal(i18n.t("no.such.key"), "⟦no.such.key⟧");
  assert.equal(i18n.tp("no.such.plural", 3), "⟦no.such.plural⟧");
  // A plain text asked for as a plural form is missing too.
  assert.equal(i18n.tp("stats.title", 3), "⟦stats.title⟧");
  assert.equal(i18n.t("stats.ratedMatches"), "⟦stats.ratedMatches⟧");
  assert.deepEqual(i18n.missingKeys(), ["no.such.key", "no.such.plural", "stats.title", "stats.ratedMatches"]);
  assert.equal(
    document.documentElement.dataset.i18nMissing,
    "no.such.key no.such.plural stats.title stats.ratedMatches",
  );
  // has() asks without counting a miss.
  assert.equal(i18n.has("another.missing.key"), false);
  assert.equal(i18n.has("stats.title"), true);
  assert.equal(i18n.missingKeys().length, 4);
});

test("a voice names the seats instead of 'you' and 'the computer'", async () => {
  await i18n.setLanguage("en");
  const voice = (key) => {
    if (key === "seat.you") return { text: "Ann" };
    if (key === "status.computerTurn") return { key: "modes.named.turn", params: { name: "Bob" } };
    if (key === "seat.computerHand") return { key: "modes.named.handHidden", params: { name: "Bob" } };
    return null;
  };
  i18n.setVoice(voice);
  try {
    assert.equal(i18n.t("seat.you"), "Ann");
    assert.equal(i18n.t("status.computerTurn"), "Bob to play");
    assert.equal(i18n.tp("seat.computerHand", 3), "Bob's hand: 3 cards");
    assert.equal(i18n.t("stats.title"), en["stats.title"]);
  } finally {
    i18n.setVoice(null);
  }
  assert.equal(i18n.t("seat.you"), en["seat.you"]);
  assert.notEqual(en["seat.you"], "Ann");
});

test("detectLanguage picks the first language the game speaks", () => {
  assert.equal(i18n.detectLanguage(["fr-FR", "de-AT", "hu"]), "de");
  assert.equal(i18n.detectLanguage(["pt_BR", "HU"]), "hu");
  assert.equal(i18n.detectLanguage(["hr-HR"]), "sr");
  assert.equal(i18n.detectLanguage(["bs", "en"]), "sr");
  assert.equal(i18n.detectLanguage(["mo"]), "ro");
  assert.equal(i18n.detectLanguage(["fr", "it"]), "en");
  assert.equal(i18n.detectLanguage([]), "en");
  assert.deepEqual(i18n.LANGUAGES, ["en", "hu", "de", "ro", "pl", "sr"]);
});

test("formatNumber writes numbers the language's way", async () => {
  await i18n.setLanguage("en");
  assert.equal(i18n.formatNumber(1.5, 1), "1.5");
  assert.equal(i18n.formatNumber(2.345, 2), "2.35");
  assert.equal(i18n.formatNumber(1.5), "2");
  await i18n.setLanguage("de");
  assert.equal(i18n.formatNumber(1.5, 1), "1,5");
});

test("localize fills data-i18n, data-i18n-label and data-i18n-title", async () => {
  await i18n.setLanguage("en");
  const text = new FakeElement("h2");
  text.dataset.i18n = "stats.title";
  const label = new FakeElement("button");
  label.dataset.i18nLabel = "help.close";
  const title = new FakeElement("button");
  title.dataset.i18nTitle = "help.stats";
  const nodes = { "[data-i18n]": [text], "[data-i18n-label]": [label], "[data-i18n-title]": [title] };
  i18n.localize({ querySelectorAll: (selector) => nodes[selector] });
  assert.equal(text.textContent, en["stats.title"]);
  assert.equal(label.getAttribute("aria-label"), en["help.close"]);
  assert.equal(title.title, en["help.stats"]);
  assert.ok(en["stats.title"] && en["help.close"] && en["help.stats"]);
});

test("boot.js's English words for a failed boot are those of en.json", async () => {
  const { readFile } = await import("node:fs/promises");
  const source = await readFile(new URL("../../web/boot.js", import.meta.url), "utf8");
  const block = /BOOT_WORDS_IN_ENGLISH = \{([^}]*)\}/.exec(source);
  assert.ok(block, "boot.js defines BOOT_WORDS_IN_ENGLISH");
  const pairs = [...block[1].matchAll(/"(boot\.\w+)":\s*"([^"]*)"/g)];
  assert.ok(pairs.length >= 4);
  for (const [, key, text] of pairs) assert.equal(text, en[key], key);
});
