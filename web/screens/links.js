// @ts-check
// Links: a finished deal (a position in it) or a puzzle in the page's address.
//
// The engine makes and reads them (py_engine/service/links.py): this module
// only finds one in the address's fragment (#deal=1.… or #puzzle=1.…), says
// why one cannot be opened, copies one, and hands a puzzle to the puzzle
// screen through setPuzzleOpener().

import { t } from "../platform/i18n.js";

/** @import { Client } from "./records.js" */
/** @import { EngineError } from "../engine/engine-client.js" */

/** The fragment keys of a link (the engine's link kinds). */
export const LINK_KINDS = ["deal", "puzzle"];
/** Why the engine refuses a link (py_engine/service/links.py LINK_ERROR_REASONS), each said in words. */
export const LINK_ERRORS = ["not_link", "damaged", "version", "unfinished"];

/** @type {((id: string) => void) | null} */
let puzzleOpener = null;

/**
 * The puzzle screen opens a puzzle link's puzzle by its id (until it does, such a link says it cannot).
 * @param {((id: string) => void) | null} open
 */
export function setPuzzleOpener(open) {
  puzzleOpener = open;
}

/**
 * The link an address's fragment holds ("" if none): its text without "#".
 * @param {string} [hash]
 */
export function linkInHash(hash = location.hash) {
  const text = hash.replace(/^#/, "");
  const at = text.indexOf("=");
  return at > 0 && LINK_KINDS.includes(text.slice(0, at)) ? text : "";
}

/**
 * Take a link out of the page's address (to be opened once the game is ready); "" if it has none.
 */
export function takeLinkFromAddress() {
  const text = linkInHash();
  if (text) history.replaceState(null, "", `${location.pathname}${location.search}`);
  return text;
}

/**
 * The page's address with a link in its fragment.
 * @param {string} link
 */
export function linkUrl(link) {
  return `${location.origin}${location.pathname}#${link}`;
}

/**
 * Why a link cannot be opened, in the player's words.
 * @param {EngineError} error
 */
export function linkErrorText(error) {
  const reason = error.detail?.reason;
  if (error.code === "bad_link" && reason && LINK_ERRORS.includes(reason)) return t(`links.error.${reason}`);
  return t("links.failed", { detail: error.message });
}

/**
 * Show a link in its box, select it and copy it; the status says whether it was copied.
 * @param {string} url
 * @param {{box: HTMLElement, input: HTMLInputElement, status: HTMLElement}} where
 */
export async function copyLink(url, { box, input, status }) {
  box.hidden = false;
  input.value = url;
  box.dataset.link = url;
  let copied = false;
  try {
    await navigator.clipboard.writeText(url);
    copied = true;
  } catch {
    input.focus();
    input.select();
  }
  status.textContent = copied ? t("links.copied") : t("links.copyYourself");
  box.dataset.copied = copied ? "1" : "0";
}

/**
 * Open a link: a deal on the analysis board, a puzzle on the puzzle screen. ``onError`` gets the reason in
 * words and the engine's reason code.
 * @param {{client: Client, text: string, onError: (message: string, reason: string) => void}} options
 */
export async function openLink({ client, text, onError }) {
  let answer;
  try {
    answer = await client.request({ cmd: "link_open", link: text });
  } catch (error) {
    const engineError = /** @type {EngineError} */ (error);
    onError(linkErrorText(engineError), engineError.detail?.reason ?? engineError.code);
    return;
  }
  if (answer.kind === "puzzle") {
    if (puzzleOpener) puzzleOpener(answer.puzzle);
    else onError(t("links.puzzleUnavailable"), "puzzle");
    return;
  }
  // The board's screen loads on first use (it imports this module too).
  const { openAnalysis } = await import("./analysis.js");
  openAnalysis({ client, opened: answer });
}
