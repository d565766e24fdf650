// @ts-check
// Custom rules: any preset with any parameter changed. The changes are kept
// in localStorage ("sixty-six.custom-rules": {preset, rules}) and sent as
// new_game's "rules" overrides when that preset is chosen. The editor lists
// the parameters the engine reports ("rules" command) with a sentence for
// each value (rules-text.js); the engine checks every combination
// ("check_rules") and its refusal is shown in words.

import { loadEntry } from "../platform/damage.js";
import { t } from "../platform/i18n.js";
import { h } from "../table/table.js";
import { kindOf, parameterName, ruleSentence, rulesErrorText } from "./rules-text.js";

/** @import { Preset, Rules, RulesErrorDetail, RulesParameter } from "../../types/engine.js" */
/**
 * @typedef {{
 *   presets: Preset[],
 *   parameters: RulesParameter[],
 *   preset: string,
 *   overrides: Rules,
 *   check: (preset: string, overrides: Rules) => Promise<RulesErrorDetail | null>,
 *   onValidity: (valid: boolean) => void,
 * }} RulesEditorOptions
 */

export const STORAGE_KEY = "sixty-six.custom-rules";

const isPlainValue = (/** @type {unknown} */ v) =>
  typeof v === "boolean" || typeof v === "string" || Number.isFinite(v);

/**
 * The stored custom rules {preset, rules}, or null.
 * @param {Storage} [storage]
 * @returns {{preset: string, rules: Rules} | null}
 */
export function loadCustomRules(storage = globalThis.localStorage) {
  return loadEntry(STORAGE_KEY, validCustomRules, storage);
}

/**
 * @param {any} data anything (as read from storage)
 * @returns {{preset: string, rules: Rules} | null}
 */
function validCustomRules(data) {
  if (!data || typeof data.preset !== "string" || !data.rules || typeof data.rules !== "object") return null;
  if (Array.isArray(data.rules) || !Object.values(data.rules).every(isPlainValue)) return null;
  return { preset: data.preset, rules: { ...data.rules } };
}

/**
 * Keep ``rules`` (overrides, possibly empty) as the custom rules of ``preset``.
 * @param {string} preset
 * @param {Rules} rules
 * @param {Storage} [storage]
 */
export function saveCustomRules(preset, rules, storage = globalThis.localStorage) {
  try {
    if (Object.keys(rules).length) storage.setItem(STORAGE_KEY, JSON.stringify({ preset, rules }));
    else storage.removeItem(STORAGE_KEY);
  } catch {
    // storage full or disabled: the rules last for this visit only
  }
}

/**
 * The overrides to play ``preset`` with ({} for the preset as it is).
 * @param {string} preset
 * @param {Storage} [storage]
 * @returns {Rules}
 */
export function overridesFor(preset, storage = globalThis.localStorage) {
  const stored = loadCustomRules(storage);
  return stored && stored.preset === preset ? stored.rules : {};
}

/**
 * Build the editor in ``container``. ``options``: {presets, parameters,
 * preset, overrides, check(preset, overrides) -> Promise<null | detail>,
 * onValidity(valid)}. Returns {overrides(), setPreset(preset, overrides)}.
 * @param {HTMLElement} container
 * @param {RulesEditorOptions} options
 */
export function mountRulesEditor(container, options) {
  let preset = options.preset;
  /** @type {Rules} */
  let values = {};
  let checks = 0;

  /** @type {() => Rules} */
  const baseRules = () => (options.presets.find((p) => p.id === preset) || { rules: {} }).rules;
  const overrides = () => {
    const base = baseRules();
    return Object.fromEntries(Object.entries(values).filter(([id, value]) => base[id] !== value));
  };

  const error = h("p", { class: "rules-error", id: "rules-error", role: "alert", hidden: true });
  const count = h("span", { class: "rules-count", id: "custom-rules-count" });
  const fields = h("div", { class: "rules-fields" });
  const reset = h("button", {
    type: "button",
    class: "btn btn-small",
    "data-action": "rules-reset",
    text: t("custom.reset"),
  });
  reset.addEventListener("click", () => {
    values = { ...baseRules() };
    draw();
    changed();
  });

  /** @param {RulesParameter} parameter */
  function field(parameter) {
    const id = parameter.id;
    const value = values[id];
    const isChanged = baseRules()[id] !== value;
    const legendText = [parameterName(id)];
    const mark = isChanged ? h("span", { class: "rule-changed", text: t("custom.changed") }) : null;
    const pick = (/** @type {number} */ index) => {
      values[id] = parameter.values[index];
      draw(id);
      changed();
    };
    if (kindOf(parameter) === "number") {
      const select = h("select", { name: `rule-${id}`, id: `rule-${id}` });
      parameter.values.forEach((v, i) => {
        const option = h("option", { value: String(i), text: String(v) });
        option.selected = v === value;
        select.append(option);
      });
      select.addEventListener("change", () => pick(Number(select.value)));
      return h(
        "div",
        { class: `rule-field${isChanged ? " changed" : ""}`, "data-param": id },
        h("label", { class: "rule-name", for: `rule-${id}` }, ...legendText, mark ? " " : null, mark),
        select,
        h("p", { class: "muted small rule-sentence", text: ruleSentence(parameter, value) }),
      );
    }
    const options_ = parameter.values.map((v, i) => {
      const input = h("input", { type: "radio", name: `rule-${id}`, value: String(i) });
      input.checked = v === value;
      input.addEventListener("change", () => pick(i));
      return h("label", { class: "rule-option" }, input, h("span", { text: ruleSentence(parameter, v) }));
    });
    return h(
      "fieldset",
      { class: `rule-field${isChanged ? " changed" : ""}`, "data-param": id },
      h("legend", { class: "rule-name" }, ...legendText, mark ? " " : null, mark),
      ...options_,
    );
  }

  /**
   * Redraw the fields (keeping the keyboard focus on the parameter ``focusId`` if given).
   * @param {string | null} [focusId]
   */
  function draw(focusId = null) {
    fields.replaceChildren(...options.parameters.map(field));
    const n = Object.keys(overrides()).length;
    count.textContent = n ? t("custom.count", { n }) : "";
    container.dataset.changed = String(n);
    if (focusId) {
      const target = /** @type {HTMLElement | null} */ (
        fields.querySelector(`[data-param="${focusId}"] input:checked, [data-param="${focusId}"] select`)
      );
      if (target) target.focus();
    }
  }

  async function changed() {
    const mine = ++checks;
    const wanted = overrides();
    // A preset as it is needs no check; a change waits for the engine's word.
    let detail = null;
    if (Object.keys(wanted).length) {
      container.dataset.valid = "checking";
      options.onValidity(false);
      detail = await options.check(preset, wanted);
    }
    if (mine !== checks) return; // a later change is being checked
    error.hidden = detail === null;
    error.textContent = detail === null ? "" : rulesErrorText(detail);
    error.dataset.reason = detail === null ? "" : detail.reason || "";
    container.dataset.valid = detail === null ? "1" : "0";
    options.onValidity(detail === null);
  }

  /**
   * @param {string} id
   * @param {Rules} [stored]
   */
  function setPreset(id, stored) {
    preset = id;
    values = { ...baseRules(), ...stored };
    draw();
    changed();
  }

  container.replaceChildren(
    h("p", { class: "muted small", text: t("custom.explain") }),
    h("div", { class: "rules-tools" }, count, reset),
    error,
    fields,
  );
  setPreset(preset, options.overrides);
  return { overrides, setPreset, count };
}
