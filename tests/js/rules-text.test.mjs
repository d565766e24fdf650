// web/screens/rules-text.js under Node: the rules in words, from the engine's own
// answers ("rules", "presets" and the refusals of "check_rules"), asked
// through the Python engine's JSON protocol when the tests start.

import assert from "node:assert/strict";
import { before, test } from "node:test";

import { engine, installDocument, installFileFetch, translations } from "./helpers.mjs";

installDocument();
installFileFetch();
const i18n = await import("../../web/platform/i18n.js");
const rulesText = await import("../../web/screens/rules-text.js");

const [rulesAnswer, presetsAnswer, deckRefusal, unknownRefusal, valueRefusal] = engine([
  { cmd: "rules" },
  { cmd: "presets" },
  { cmd: "check_rules", preset: "HU24", rules: { deck: 20 } },
  { cmd: "check_rules", preset: "HU24", rules: { no_such_rule: true } },
  { cmd: "check_rules", preset: "HU24", rules: { match_target: 99 } },
]);
const parameters = rulesAnswer.parameters;
const presets = presetsAnswer.presets;
const preset = (id) => presets.find((p) => p.id === id);
const parameter = (id) => parameters.find((p) => p.id === id);
const en = await translations("en");

before(async () => {
  await i18n.setLanguage("en");
});

test("the engine answered what the tests need", () => {
  assert.ok(parameters.length >= 30, `${parameters.length} parameters`);
  assert.deepEqual(
    presets.map((p) => p.id),
    ["HU24", "PL24", "KLUB20", "SZLI20", "RO24", "RO20", "AT20", "DE24"],
  );
  assert.equal(deckRefusal.code, "bad_rules");
  assert.equal(unknownRefusal.detail.reason, "unknown_parameter");
  assert.equal(valueRefusal.detail.reason, "bad_value");
});

test("kindOf tells booleans, numbers and named choices apart", () => {
  assert.equal(rulesText.kindOf(parameter("resign")), "bool");
  assert.equal(rulesText.kindOf(parameter("marriage_auto")), "bool");
  assert.equal(rulesText.kindOf(parameter("match_target")), "number");
  assert.equal(rulesText.kindOf(parameter("deck")), "number");
  assert.equal(rulesText.kindOf(parameter("open_rule")), "choice");
  assert.equal(rulesText.kindOf(parameter("no66_award")), "choice"); // "1" is a name, not a number
  assert.equal(rulesText.kindOf({ id: "x", values: [] }), "choice");
});

test("one sentence per parameter, in the engine's order, for a preset's rules", () => {
  const rules = preset("HU24").rules;
  const sentences = rulesText.rulesSentences(rules, parameters);
  assert.deepEqual(
    sentences.map((s) => s.id),
    parameters.map((p) => p.id),
  );
  const by = Object.fromEntries(sentences.map((s) => [s.id, s.text]));
  assert.equal(rules.resign, false);
  assert.equal(by.resign, en["rule.resign.no"]);
  assert.equal(rules.open_rule, "free");
  assert.equal(by.open_rule, en["rule.open_rule.free"]);
  assert.equal(rules.match_target, 7);
  assert.equal(by.match_target, "A match is won with 7 game points.");
  assert.equal(rules.deck, 24);
  assert.equal(by.deck, en["rule.deck.n"].other.replace("{n}", "24"));
});

test("a number takes its plural form", () => {
  const target = parameter("match_target");
  assert.equal(rulesText.ruleSentence(target, 1), "A match is won with 1 game point.");
  assert.equal(rulesText.ruleSentence(target, 11), "A match is won with 11 game points.");
});

test("every value of every parameter has its own sentence, in every language", async () => {
  for (const language of i18n.LANGUAGES) {
    await i18n.setLanguage(language);
    for (const p of parameters) {
      const texts = p.values.map((value) => rulesText.ruleSentence(p, value));
      for (const text of texts) assert.ok(text && !text.includes("⟦"), `${language} ${p.id}: ${text}`);
      assert.equal(new Set(texts).size, texts.length, `${language} ${p.id}: two values read the same`);
      assert.ok(!rulesText.parameterName(p.id).includes("⟦"), `${language} param.${p.id}`);
    }
    for (const { id, rules } of presets) {
      const sentences = rulesText.rulesSentences(rules, parameters);
      assert.equal(sentences.length, parameters.length, `${language} ${id}`);
    }
  }
  assert.deepEqual(i18n.missingKeys(), []);
  await i18n.setLanguage("en");
});

test("presets that differ in a rule read differently there, and only there", () => {
  const hu = rulesText.rulesSentences(preset("HU24").rules, parameters);
  const at = rulesText.rulesSentences(preset("AT20").rules, parameters);
  for (const [i, p] of parameters.entries()) {
    const same = preset("HU24").rules[p.id] === preset("AT20").rules[p.id];
    assert.equal(hu[i].text === at[i].text, same, p.id);
  }
  assert.ok(hu.some((s, i) => s.text !== at[i].text));
});

test("rulesTitle names the preset, and marks changed rules", () => {
  const rules = preset("AT20").rules;
  assert.equal(rulesText.rulesTitle(rules, presets), en["preset.AT20"]);
  const changed = { ...rules, resign: !rules.resign };
  assert.equal(rulesText.rulesTitle(changed, presets), `${en["preset.AT20"]} (changed rules)`);
});

test("the engine's refusals read as sentences, with parameter names", () => {
  assert.equal(deckRefusal.detail.reason, "deck_hand_size");
  assert.equal(
    rulesText.rulesErrorText(deckRefusal.detail),
    en["rulesError.deck_hand_size"]
      .replace("{deck}", String(deckRefusal.detail.values.deck))
      .replace("{hand_size}", String(deckRefusal.detail.values.hand_size)),
  );
  // An unknown parameter keeps its id; a known one gets its name.
  assert.equal(rulesText.rulesErrorText(unknownRefusal.detail), "There is no rule called “no_such_rule”.");
  assert.equal(valueRefusal.detail.values.param, "match_target");
  assert.equal(rulesText.rulesErrorText(valueRefusal.detail), `“${en["param.match_target"]}” cannot take that value.`);
  // The detail itself is not changed.
  assert.equal(valueRefusal.detail.values.param, "match_target");
});

test("a refusal without a known reason reads as the general one", () => {
  const general = en["custom.invalid"];
  assert.equal(rulesText.rulesErrorText(null), general);
  assert.equal(rulesText.rulesErrorText(undefined), general);
  assert.equal(rulesText.rulesErrorText({}), general);
  assert.equal(rulesText.rulesErrorText({ reason: "no_such_reason" }), general);
  assert.equal(rulesText.rulesErrorText({ reason: "missing_parameters" }), en["rulesError.missing_parameters"]);
});
