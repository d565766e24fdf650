// Record files: saving a game as a record (PROTOCOL.md "Record") and opening
// one to review it.
//
// The worker makes the record to export: finished deals only, and while the
// game can go on without its seed (worker-games.js), so a file never tells
// a card that is still hidden. Opening a file never touches the game in play:
// the worker loads it as a separate game for the review screen, and a file
// that is not a record, or does not replay, is refused with a message.

import { t } from "./i18n.js";

/** Larger files are refused unread: a whole session's record is far smaller. */
export const MAX_RECORD_BYTES = 2_000_000;

function fileName() {
  const now = new Date();
  const pad = (n) => String(n).padStart(2, "0");
  const stamp = `${now.getFullYear()}-${pad(now.getMonth() + 1)}-${pad(now.getDate())}-${pad(now.getHours())}${pad(now.getMinutes())}`;
  return `sixty-six-${stamp}.json`;
}

/** Ask the worker for the record of ``game`` and offer it as a download; resolves to the file's text. */
export async function exportRecord(client, game) {
  const answer = await client.request({ cmd: "export_record", game });
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

function readText(file) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error);
    reader.readAsText(file);
  });
}

/**
 * Open a record file for review: {game, meta, deals} (the worker's separate
 * game), or {error} with the reason in the page's language.
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
    answer = await client.request({ cmd: "import_record", record });
  } catch (error) {
    if (error.code === "bad_record") return { error: t("modes.import.badRecord", { detail: error.message }) };
    return { error: t("notice.error", { detail: error.message }) };
  }
  if (!answer.deals.some((deal) => deal.finished)) {
    await client.request({ cmd: "close_review" }).catch(() => {});
    return { error: t("modes.import.noFinished") };
  }
  return answer;
}

function control(name, text) {
  const button = document.createElement("button");
  button.type = "button";
  button.className = "btn";
  button.dataset.control = name;
  button.textContent = text;
  return button;
}

/** Add "Review" and "Save record" to the end-of-deal panel (drawn by table.js) while a result shows. */
export function resultButtons(result, { shown }) {
  const row = result.querySelector(".result-buttons");
  if (!row || !shown || row.querySelector("[data-control]")) return;
  row.append(control("review", t("modes.review.open")), control("export", t("modes.export.button")));
}
