// @ts-check
// Record files: saving a game as a record (docs/protocol.md, "Records") and opening
// one to review it.
//
// The engine's table makes the record to export: finished deals only, and
// while the game can go on without its seed (py_engine/service/table.py), so a file
// never tells a card that is still hidden. Opening a file never touches the
// game in play: the engine loads it as a separate table for the review
// screen, and a file that is not a record, or does not replay, is refused
// with a sentence in the player's language (the engine's own words, in
// English, only beneath it).

import { t } from "../platform/i18n.js";
import { saveFile } from "../platform/save-file.js";

/** @import { EngineClient, EngineError } from "../engine/engine-client.js" */
/** @import { DealEntry, Seating } from "../../types/engine.js" */
/** @typedef {Pick<EngineClient, "request">} Client The engine client (a stand-in in the Node tests). */

/** Larger files are refused unread: a whole session's record is far smaller. */
export const MAX_RECORD_BYTES = 2_000_000;

function fileName() {
  const now = new Date();
  const pad = (/** @type {number} */ n) => String(n).padStart(2, "0");
  const stamp = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}`;
  return `sixty-six-${stamp}.json`;
}

/**
 * Ask the engine for the record of ``table`` and offer it as a download; resolves to the file's text.
 * @param {Client} client
 * @param {string} table
 */
export async function exportRecord(client, table) {
  const answer = await client.request({ cmd: "table_export", table });
  const text = `${JSON.stringify(answer.record, null, 1)}\n`;
  saveFile(fileName(), text);
  return text;
}

/**
 * @param {Blob} file
 * @returns {Promise<string>}
 */
function readText(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });
}

/**
 * Why a record was refused, in the page's language: the translation key of the reason (``reason``: the
 * engine's for a refused record, "tooBig", "notJson" or "failed" otherwise), its sentence (``error``)
 * and, for the curious, the engine's own words (``detail``, English, shown small beneath).
 * @typedef {{error: string, reason: string, detail?: string}} Refusal
 */

/**
 * Open a record file for review: {game, meta, deals} (a separate table), or a {@link Refusal}.
 * @param {Client} client
 * @param {File} file
 * @returns {Promise<{game: string, meta: Seating, deals: DealEntry[], error?: undefined} | Refusal>}
 */
export async function importRecord(client, file) {
  if (file.size > MAX_RECORD_BYTES) return { error: t("modes.import.tooBig"), reason: "tooBig" };
  let record;
  try {
    record = JSON.parse(await readText(file));
  } catch {
    return { error: t("modes.import.error.not_record"), reason: "notJson" };
  }
  if (!record || typeof record !== "object" || Array.isArray(record))
    return { error: t("modes.import.error.not_record"), reason: "not_record" };
  let answer;
  try {
    answer = await client.request({ cmd: "table_import", record });
  } catch (failure) {
    const error = /** @type {EngineError} */ (failure); // the client rejects with these only
    return refusal(error);
  }
  if (!answer.deals.some((deal) => deal.finished)) {
    await client.request({ cmd: "table_close", table: answer.table }).catch(() => {});
    return { error: t("modes.import.noFinished"), reason: "noFinished" };
  }
  return { game: answer.table, meta: answer.seating, deals: answer.deals };
}

/** The engine's reasons for refusing a record (py_engine/core/errors.py RECORD_ERROR_REASONS). */
export const RECORD_ERRORS = ["not_record", "version", "rules", "damaged", "no_replay"];

/**
 * The engine refused the record (or failed): its reason in words, the engine's message as the detail.
 * @param {EngineError} error
 * @returns {Refusal}
 */
function refusal(error) {
  const reason = error.code === "bad_record" ? error.detail?.reason : undefined;
  if (reason && RECORD_ERRORS.includes(reason)) {
    const deal = error.detail?.values?.deal;
    return {
      error: t(`modes.import.error.${reason}`, { deal: typeof deal === "number" ? deal : "?" }),
      reason,
      detail: error.message,
    };
  }
  return { error: t("modes.import.failed"), reason: "failed", detail: error.message };
}

/**
 * @param {string} name
 * @param {string} text
 */
function control(name, text) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "btn";
  button.dataset.control = name;
  button.textContent = text;
  return button;
}

/**
 * Add "Score sheet", "Review" and "Save record" to the end-of-deal panel (drawn by table.js) while a result shows.
 * @param {HTMLElement} result
 * @param {{shown: boolean}} options
 */
export function resultButtons(result, { shown }) {
  const row = result.querySelector(".result-buttons");
  if (!row || !shown || row.querySelector("[data-control]")) return;
  row.append(
    control("sheet", t("sheet.title")),
    control("review", t("modes.review.open")),
    control("export", t("modes.export.button")),
  );
}
