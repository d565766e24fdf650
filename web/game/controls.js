// The table's controls besides the cards and the actions: the hand-over
// of a game for two (two players on one device take turns at the bottom of
// the table, state.seat, with a hand-over screen between turns), undo and
// hints, the watching controls, and the review and record files.

import { t } from "../platform/i18n.js";
import { savePreferences } from "../screens/modes.js";
import { exportRecord, importRecord } from "../screens/records.js";
import { openReview } from "../screens/review.js";
import { hideHandover } from "../table/handover.js";
import { describeTurn, say } from "../table/narrate.js";
import { draw, notify, show } from "./draw.js";
import { adoptTable, ask, cancelAi, errorText, noteHelpTaken, perform, playTableAnswer, proceed, run, watchMove } from "./loop.js";
import { clone, state } from "./state.js";

/** "I am <name>, show my hand": that player's view, asked for only now. */
function takeOver() {
  if (!state.handover || state.busy) return;
  const seat = state.handover.seat;
  state.hint = null;
  run(async () => {
    const answer = await ask({ cmd: "table_take", table: state.game, seat });
    adoptTable(answer);
    state.message = "";
    await show(clone(answer.view));
    say(describeTurn(answer.view));
  });
}

/** Two players: the player handing over the device claims 66 from the hand-over screen. */
function claimWhileHandingOver() {
  if (!state.handover || state.busy || state.handover.claimSeat === null) return;
  const seat = state.handover.claimSeat;
  state.handover = null;
  hideHandover();
  run(async () => playTableAnswer(await ask({ cmd: "table_act", table: state.game, seat, action: "claim" })));
}

function undo() {
  if (!state.booted || state.busy || !state.view || !state.may.undo) return;
  cancelAi();
  state.hint = null;
  run(async () => {
    const answer = await ask({ cmd: "table_undo", table: state.game });
    noteHelpTaken();
    adoptTable(answer);
    state.message = "";
    await show(clone(answer.view));
  });
}

function hint() {
  if (!state.booted || state.busy || !state.view || !state.may.hint) return;
  cancelAi();
  run(async () => {
    const answer = await ask({ cmd: "table_hint", table: state.game });
    noteHelpTaken();
    const best = answer.ranking.find((entry) => state.view.legal.includes(entry.action));
    state.hint = best ? { action: best.action, value: best.value } : null;
  });
}

export const lastExport = { text: null };

async function onExport() {
  try {
    lastExport.text = await exportRecord(state.client, state.game);
  } catch (error) {
    notify(error.code === "nothing_finished" ? t("modes.export.none") : t("notice.error", { detail: errorText(error) }));
  }
}

function onReview() {
  if (state.meta.mode === "watch" && !state.paused) {
    state.paused = true; // the computer waits while you look back
    cancelAi();
    draw();
  }
  openReview({ client: state.client, game: state.game, meta: state.meta, onError: notify });
}

/** A record file chosen in the settings: its review, or why not (the game in play is never touched). */
export async function onImportFile(event) {
  const input = event.target;
  const file = input.files && input.files[0];
  input.value = "";
  const error = document.getElementById("import-error");
  error.hidden = true;
  if (!file || !state.booted) return;
  const opened = await importRecord(state.client, file);
  if (opened.error) {
    error.textContent = opened.error;
    error.hidden = false;
    return;
  }
  document.getElementById("settings-dialog").close();
  await openReview({ client: state.client, ...opened, imported: true, onError: notify });
}

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
  } else if (control === "review") onReview();
  else if (control === "export") onExport();
}

export function onSpeed(event) {
  state.prefs = savePreferences({ ...state.prefs, speed: event.target.value });
  cancelAi();
  proceed();
}
