// @ts-check
// One live table per browser (platform/table-lock.js): before the saved game
// is read, this tab claims the table. If another tab has it, a dialog says so
// and offers to play here; this tab also takes over by itself once the other
// is closed. A tab whose table is taken over stops its engine and its online
// connection at once (it never acts on a position that went on elsewhere),
// and its own "play here" reloads it into the position the other tab left.

import { t } from "../platform/i18n.js";
import { claimTable } from "../platform/table-lock.js";
import { currentOnline } from "./online.js";
import { state } from "./state.js";

/** The next load of this tab takes the table over (its "play here" reloads it). */
const TAKE_OVER_KEY = "sixty-six.take-over";

function dialog() {
  return /** @type {HTMLDialogElement} */ (document.getElementById("elsewhere-dialog"));
}

/**
 * The dialog: the game is open in another tab (``"open"``) or went on there (``"moved"``).
 * Resolves when the player asks to play here (never, if the dialog is closed another way).
 * @param {"open" | "moved"} why
 * @returns {Promise<void>}
 */
function showElsewhere(why) {
  const box = dialog();
  /** @type {HTMLElement} */ (box.querySelector("#elsewhere-text")).textContent = t(`elsewhere.${why}`);
  box.dataset.why = why;
  box.oncancel = (event) => event.preventDefault(); // Escape: this tab has no table to go back to
  if (!box.open) box.showModal();
  return new Promise((resolve) => {
    /** @type {HTMLElement} */ (box.querySelector("[data-action=take-over]")).onclick = () => resolve();
  });
}

/** Another tab has taken the table (its lock was stolen, or a save was refused): stop here and say so. */
export function lost() {
  if (state.superseded) return;
  state.superseded = true;
  // The connection drops as a lost one would: the tab that took over meets the other player again.
  currentOnline()?.channel?.lost("connection_lost", "the game went on in another tab");
  state.client?.stop("the game went on in another tab");
  showElsewhere("moved").then(() => {
    sessionStorage.setItem(TAKE_OVER_KEY, "1");
    location.reload();
  });
}

/**
 * Claim the table before the saved game is read. Resolves once this tab plays: at once, or after the
 * dialog (the player took over, or the other tab went away).
 */
export async function holdTheTable() {
  const takingOver = sessionStorage.getItem(TAKE_OVER_KEY) === "1";
  sessionStorage.removeItem(TAKE_OVER_KEY);
  if ((await claimTable({ onLost: lost, steal: takingOver })) === "held") return;
  const waiting = new AbortController();
  const freed = claimTable({ onLost: lost, wait: true, signal: waiting.signal });
  const chosen = showElsewhere("open").then(() => "chosen");
  if ((await Promise.race([freed, chosen])) !== "held") {
    waiting.abort();
    await claimTable({ onLost: lost, steal: true });
  }
  dialog().close();
}
