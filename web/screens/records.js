// @ts-check
// Record files: saving a game as a record (PROTOCOL.md "Record") and opening
// one to review it.
//
// The engine's table makes the record to export: finished deals only, and
// while the game can go on without its seed (py_engine/service/table.py), so a file
// never tells a card that is still hidden. Opening a file never touches the
// game in play: the engine loads it as a separate table for the review
// screen, and a file that is not a record, or does not replay, is refused
// with a message.

import { t } from "../platform/i18n.js";

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
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = document.createElement("a");
  link.href = url;
  link.download = fileName();
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
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
 * Open a record file for review: {game, meta, deals} (a separate table), or
 * {error} with the reason in the page's language.
 * @param {Client} client
 * @param {File} file
 * @returns {Promise<{game: string, meta: Seating, deals: DealEntry[], error?: undefined} | {error: string}>}
 */
export async function importRecord(client, file) {
  if (file.size > MAX_RECORD_BYTES) return { error: t("modes.import.tooBig") };
  let record;
  try {
    record = JSON.parse(await readText(file));
  } catch {
    return { error: t("modes.import.notRecord") };
  }
  if (!record || typeof record !== "object" || Array.isArray(record)) return { error: t("modes.import.notRecord") };
  let answer;
  try {
    answer = await client.request({ cmd: "table_import", record });
  } catch (failure) {
    const error = /** @type {EngineError} */ (failure); // the client rejects with these only
    if (error.code === "bad_record") return { error: t("modes.import.badRecord", { detail: error.message }) };
    return { error: t("notice.error", { detail: error.message }) };
  }
  if (!answer.deals.some((deal) => deal.finished)) {
    await client.request({ cmd: "table_close", table: answer.table }).catch(() => {});
    return { error: t("modes.import.noFinished") };
  }
  return { game: answer.table, meta: answer.seating, deals: answer.deals };
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
 * Add "Review" and "Save record" to the end-of-deal panel (drawn by table.js) while a result shows.
 * @param {HTMLElement} result
 * @param {{shown: boolean}} options
 */
export function resultButtons(result, { shown }) {
  const row = result.querySelector(".result-buttons");
  if (!row || !shown || row.querySelector("[data-control]")) return;
  row.append(control("review", t("modes.review.open")), control("export", t("modes.export.button")));
}
