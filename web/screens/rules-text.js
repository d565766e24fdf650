// @ts-check
// The rules in words, generated from the engine's own rules value, so that
// what the page says can never disagree with what the engine plays.
//
// The parameters and their allowed values come from the engine's "rules"
// command ([{id, values}], in the engine's order); a rules value is the
// engine's rules dict (view.rules, or a preset's rules). Each parameter has a
// name ("param.<id>") and one sentence per value: "rule.<id>.yes" / ".no" for
// true/false, "rule.<id>.<value>" for a named value, and the plural forms of
// "rule.<id>.n" for a number.

import { has, t, tp } from "../platform/i18n.js";
import { isCustom } from "../platform/stats.js";
import { presetName } from "../table/table.js";

/** @import { Preset, Rules, RulesErrorDetail, RuleSet, RulesParameter, RuleValue } from "../../types/engine.js" */

/**
 * "bool", "number" or "choice", from the allowed values the engine lists.
 * @param {RulesParameter} parameter
 * @returns {"bool" | "number" | "choice"}
 */
export function kindOf(parameter) {
  const first = parameter.values[0];
  if (typeof first === "boolean") return "bool";
  return typeof first === "number" ? "number" : "choice";
}

/**
 * The parameter's name.
 * @param {string} id
 */
export function parameterName(id) {
  return t(`param.${id}`);
}

/**
 * The sentence that says what ``value`` of this parameter means.
 * @param {RulesParameter} parameter
 * @param {RuleValue} value
 */
export function ruleSentence(parameter, value) {
  switch (kindOf(parameter)) {
    case "bool":
      return t(`rule.${parameter.id}.${value ? "yes" : "no"}`);
    case "number":
      return tp(`rule.${parameter.id}.n`, /** @type {number} */ (value));
    default:
      return t(`rule.${parameter.id}.${value}`);
  }
}

/**
 * One sentence per parameter of ``rules``: [{id, text}], in the engine's order.
 * @param {Rules} rules
 * @param {RulesParameter[]} parameters
 */
export function rulesSentences(rules, parameters) {
  return parameters.map((p) => ({ id: p.id, text: ruleSentence(p, rules[p.id]) }));
}

/**
 * The rules' name in words, marked when they were changed from the preset.
 * @param {RuleSet} rules
 * @param {Preset[]} presets
 * @returns {string}
 */
export function rulesTitle(rules, presets) {
  const name = presetName(rules);
  return isCustom(rules, presets) ? t("stats.customRules", { name }) : name;
}

/**
 * Why the engine refused a rules combination, in words (``detail``: bad_rules' {reason, values}).
 * @param {RulesErrorDetail | null | undefined} detail
 */
export function rulesErrorText(detail) {
  const reason = detail?.reason;
  if (!reason || !has(`rulesError.${reason}`)) return t("custom.invalid");
  const values = { ...(detail.values || {}) };
  // values.param, when there, is a parameter id (hence the cast).
  if (values.param)
    values.param = has(`param.${values.param}`) ? parameterName(/** @type {string} */ (values.param)) : values.param;
  return t(`rulesError.${reason}`, values);
}
