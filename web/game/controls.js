// @ts-check
// The table's controls besides the cards and the actions: the hand-over
// of a game for two (two players on one device take turns at the bottom of
// the table, state.seat, with a hand-over screen between turns), undo and
// hints, the watching controls, and the review and record files.

import { t } from "../platform/i18n.js";
import { block } from "../platform/identity.js";
import { saveFile } from "../platform/save-file.js";
import { loadTally } from "../platform/tally.js";
import { confirmStep } from "../screens/confirm.js";
import { openLink } from "../screens/links.js";
import { exportRecord, importRecord } from "../screens/records.js";
import { openReview } from "../screens/review.js";
import { saveSettings } from "../screens/settings.js";
import { hideHandover } from "../table/handover.js";
import { describeTurn, say } from "../table/narrate.js";
import { CHAT_MAX } from "../table/online-bar.js";
import { draw, notify, show } from "./draw.js";
import {
  adoptTable,
  ask,
  cancelAi,
  confirmed,
  errorText,
  noteHelpTaken,
  perform,
  playTableAnswer,
  proceed,
  run,
  watchMove,
} from "./loop.js";
import { backToOwnGame, currentOnline, intend, reportOnline } from "./online.js";
import { hangUpVoice, localVoice, muteVoice } from "./online-voice.js";
import { clone, dom, state } from "./state.js";

/** @import { EngineClient, EngineError } from "../engine/engine-client.js" */
/** @import { DealEntry, Seating, View } from "../../types/engine.js" */

/** "I am <name>, show my hand": that player's view, asked for only now. */
function takeOver() {
  if (!state.handover || state.busy) return;
  const seat = state.handover.seat;
  state.hint = null;
  run(async () => {
    const answer = await ask({ cmd: "table_take", table: state.game, seat });
    adoptTable(answer);
    state.message = "";
    const view = /** @type {View} */ (answer.view); // the player who takes the device sees their seat
    await show(clone(view));
    say(describeTurn(view));
  });
}

/** Two players: the player handing over the device claims 66 from the hand-over screen (asked first). */
async function claimWhileHandingOver() {
  if (!state.handover || state.busy || state.handover.claimSeat === null) return;
  const seat = state.handover.claimSeat;
  if (!(await confirmed("claim")) || state.handover?.claimSeat !== seat || state.busy) return;
  state.handover = null;
  hideHandover();
  run(async () => playTableAnswer(await ask({ cmd: "table_act", table: state.game, seat, action: "claim" })));
}

/** Take back your last move (against the computer, casual games). */
function undo() {
  if (!state.booted || state.busy || !state.view || !state.may.undo) return;
  cancelAi();
  state.hint = null;
  run(async () => {
    const answer = await ask({ cmd: "table_undo", table: state.game });
    noteHelpTaken();
    adoptTable(answer);
    state.message = "";
    await show(clone(/** @type {View} */ (answer.view))); // against the computer, there is always one
  });
}

/** Ask the engine for the best action of the seat at the bottom, and mark it. */
function hint() {
  if (!state.booted || state.busy || !state.view || !state.may.hint) return;
  cancelAi();
  run(async () => {
    const answer = await ask({ cmd: "table_hint", table: state.game });
    noteHelpTaken();
    const best = answer.ranking.find((entry) => /** @type {View} */ (state.view).legal.includes(entry.action));
    state.hint = best ? { action: best.action, value: best.value } : null;
  });
}

/**
 * The text of the last record file made (a test hook).
 * @type {{text: string | null}}
 */
export const lastExport = { text: null };

/** Save the game's record as a file. */
async function onExport() {
  try {
    lastExport.text = await exportRecord(
      /** @type {EngineClient} */ (state.client),
      /** @type {string} */ (state.game),
    );
  } catch (error) {
    notify(
      /** @type {EngineError} */ (error).code === "nothing_finished"
        ? t("modes.export.none")
        : t("notice.error", { detail: errorText(error) }),
    );
  }
}

/** Open the review of the game in play (watching, the computer waits meanwhile). */
function onReview() {
  if (state.meta.mode === "watch" && !state.paused) {
    state.paused = true; // the computer waits while you look back
    cancelAi();
    draw();
  }
  openReview({
    client: /** @type {EngineClient} */ (state.client),
    game: /** @type {string} */ (state.game),
    meta: state.meta,
    onError: notify,
  });
}

/**
 * Open a link from the address (a deal on the analysis board, a puzzle); one that cannot be opened is said in
 * words at the table, which stays as it was.
 * @param {string} text
 */
export async function openSharedLink(text) {
  delete dom.root.dataset.linkError;
  await openLink({
    client: /** @type {EngineClient} */ (state.client),
    text,
    onError: (message, reason) => {
      dom.root.dataset.linkError = reason;
      notify(message);
    },
  });
}

/**
 * A record file chosen in the settings: its review, or why not (the game in play is never touched).
 * @param {Event} event
 */
export async function onImportFile(event) {
  const input = /** @type {HTMLInputElement} */ (event.target);
  const file = input.files?.[0];
  input.value = "";
  const error = /** @type {HTMLElement} */ (document.getElementById("import-error"));
  error.hidden = true;
  if (!file || !state.booted) return;
  const opened = await importRecord(/** @type {EngineClient} */ (state.client), file);
  if (opened.error !== undefined) {
    // Why, in the player's words; the engine's own (English) words small beneath, as for a failed boot.
    error.replaceChildren(opened.error);
    if (opened.detail) {
      const detail = document.createElement("small");
      detail.className = "error-detail";
      detail.textContent = opened.detail;
      error.append(detail);
    }
    error.dataset.reason = opened.reason;
    error.hidden = false;
    return;
  }
  delete error.dataset.reason;
  /** @type {HTMLDialogElement} */ (document.getElementById("settings-dialog")).close();
  // Not an error: a game to review.
  const review = /** @type {{game: string, meta: Seating, deals: DealEntry[]}} */ (opened);
  await openReview({ client: /** @type {EngineClient} */ (state.client), ...review, imported: true, onError: notify });
}

/** The score sheet of the game on the table, from the seat at its bottom (loaded on first use). */
export async function showSheet() {
  const view = state.view;
  if (!view) return; // two players changing hands: nothing is shown
  const { openSheet } = await import("../screens/sheet.js");
  // Against the computer, the sheet also keeps the session's tally of Bummerls, across matches.
  openSheet(view, state.meta.mode === "computer" ? loadTally() : []);
}

/**
 * A control of the table was pressed (its data-control).
 * @param {string} control
 */
export function onControl(control) {
  if (control === "show-hand") takeOver();
  else if (control === "handover-claim") claimWhileHandingOver();
  else if (control === "other-claim") perform("claim", 1 - state.seat);
  else if (control === "undo") undo();
  else if (control === "hint") hint();
  else if (control === "pause") {
    state.paused = !state.paused;
    cancelAi();
    proceed();
  } else if (control === "step") {
    if (state.paused && !state.busy) {
      cancelAi();
      run(watchMove);
    }
  } else if (control.startsWith("online-")) onOnlineControl(control.slice("online-".length));
  else if (control === "review") onReview();
  else if (control === "export") onExport();
  else if (control === "sheet") showSheet();
}

/**
 * Watching: the pace was chosen (the settings' pace: the same for playing).
 * @param {Event} event
 */
export function onSpeed(event) {
  state.settings = saveSettings({ ...state.settings, pace: /** @type {HTMLSelectElement} */ (event.target).value });
  cancelAi();
  proceed();
}

/**
 * A button of the online bar (conceding, blocking and leaving ask first).
 * @param {string} what
 */
async function onOnlineControl(what) {
  const game = currentOnline();
  if (!game) return;
  if (what.startsWith("voice-")) onVoiceControl(what.slice("voice-".length));
  else if (what === "show") intend({ t: "show_cards" });
  else if (what === "pause") intend({ t: "pause" });
  else if (what === "back") intend({ t: "back" });
  else if (what === "rematch") intend({ t: "rematch" });
  else if (what === "resign" || what === "block" || what === "leave" || what === "report") {
    const [question, yes] = {
      resign: [t("online.resign.confirm"), t("online.resign")],
      block: [t("online.block.confirm"), t("online.block")],
      leave: [t("online.leave.confirm"), t("online.leave")],
      report: [t("online.report.confirm"), t("online.report")],
    }[what];
    if (!(await confirmStep({ ask: `online-${what}`, question, yes })) || currentOnline() !== game) return;
    if (what === "resign") {
      intend({ t: "resign" });
      return;
    }
    if (what === "block" || what === "report") {
      const other = game.side === "host" ? 1 : 0;
      const identity = game.identities?.[other];
      if (identity) block(identity, game.status?.names?.[other] || "");
    }
    if (what === "report") {
      const file = await reportOnline();
      if (file) {
        saveFile(file.name, file.text);
        notify(t("online.report.saved", { file: file.name }));
      }
      return;
    }
    backToOwnGame();
  }
}

/**
 * A voice button: mute and hang-up act at once here, and every step is told to the engine (which decides).
 * @param {string} step ask, accept, decline, mute, hang_up
 */
function onVoiceControl(step) {
  if (step === "mute") {
    const muted = !localVoice().muted;
    muteVoice(muted);
    intend({ t: "voice", do: muted ? "mute" : "unmute" });
    return;
  }
  if (step === "hang_up") hangUpVoice();
  intend({ t: "voice", do: step });
}

/**
 * The chat's form: a line of text or a ready-made phrase.
 * @param {SubmitEvent} event
 */
export function onChat(event) {
  event.preventDefault();
  const text = /** @type {HTMLInputElement} */ (document.getElementById("chat-text"));
  const phrase = /** @type {HTMLSelectElement} */ (document.getElementById("chat-phrase"));
  if (phrase.value) {
    intend({ t: "chat", phrase: phrase.value });
    phrase.value = "";
  } else if (text.value.length > CHAT_MAX) {
    notify(t("online.chat.tooLong", { max: CHAT_MAX, count: text.value.length })); // the draft stays
  } else if (text.value.trim()) {
    intend({ t: "chat", text: text.value });
    text.value = "";
  }
}
