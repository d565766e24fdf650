// @ts-check
// Starting the game: the engine client (boot.js has usually started its
// worker already; the client adopts it), the saved game or a new one, drawn
// once it is playable, then what can wait: the tutorial's offer, the web app
// manifest, the presets and the service worker.

import { engineWorkerUrl } from "../boot.js";
import { EngineClient } from "../engine/engine-client.js";
import { keepDamagedCopy, onDamage, SAVED_GAME_KEY } from "../platform/damage.js";
import { t } from "../platform/i18n.js";
import { loadOnlineStats } from "../platform/online-stats.js";
import { loadAttempt, loadProgress } from "../platform/puzzle-progress.js";
import { linkManifest, registerServiceWorker } from "../platform/pwa.js";
import { signedResults } from "../platform/signed-results.js";
import { loadStats } from "../platform/stats.js";
import { loadCustomRules } from "../screens/custom-rules.js";
import { dealerArgument } from "../screens/settings.js";
import { narrateGame } from "../table/narrate.js";
import { openSharedLink } from "./controls.js";
import { bootFailed, bootProgress, notify } from "./draw.js";
import { maybeOfferTutorial } from "./help-and-tutorial.js";
import { adoptTable, errorText, proceed, recordStats, startGame } from "./loop.js";
import { holdTheTable, lost } from "./one-table.js";
import { resumeOnline } from "./online.js";
import { onlineLobby, openOnline } from "./online-door.js";
import { clone, dom, params, state, TEST, testLog, testMeetingGate } from "./state.js";

/** @import { View } from "../../types/engine.js" */

/**
 * Boot the engine and put the first table up; ``translated`` resolves once the page's words are loaded.
 * ``invitation``: the page was opened with an invitation link or a room code (the online dialog opens);
 * ``link``: with a link to a deal or a puzzle (the analysis board or the puzzle opens, over the table).
 * @param {Promise<void>} translated
 * @param {string} [invitation]
 * @param {string} [link]
 */
export async function start(translated, invitation = "", link = "") {
  if (!wasmSupported()) {
    bootFailed({ key: "boot.noWasm" });
    return;
  }
  // The browser may tell the page it is offline only after a download has failed: say it then.
  window.addEventListener("offline", () => {
    if (state.failure?.key === "boot.engineFailed") bootFailed({ ...state.failure, key: "boot.offline" });
  });
  // boot.js has usually started this worker already; the client adopts it.
  state.client = new EngineClient(engineWorkerUrl(), {
    onProgress: bootProgress,
    onFatal: (message, key) =>
      bootFailed(
        key
          ? { key }
          : navigator.onLine
            ? { key: "boot.engineFailed", detail: message }
            : { key: "boot.offline", detail: message },
      ),
    onMessage: TEST ? (message) => testLog.push(JSON.stringify(message)) : undefined,
    onNotice: (message) => {
      if (message.type === "snapshot") dom.root.dataset.snapshot = message.status;
      if (message.type === "computer") dom.root.dataset.computer = message.status;
      if (message.type === "warning") notify(t("notice.warning", { detail: message.message }));
      if (message.type === "superseded") lost(); // a save refused: another tab claimed the game since
    },
  });
  await translated;
  onDamage(tellDamage);
  // Every stored entry is read once now, so that damage is found (and said) at once, not mid-game.
  loadStats();
  loadOnlineStats();
  signedResults();
  loadCustomRules();
  loadProgress();
  await holdTheTable(); // one live table per browser: this tab plays once it holds it
  let info;
  try {
    info = await state.client.ready;
  } catch {
    return; // bootFailed has said why
  }
  dom.root.dataset.bootMode = info.mode;
  dom.root.dataset.build = info.build;
  bootProgress({ stage: "deal", fraction: 1 });
  state.busy = true;
  let restoredView = null;
  try {
    // The first table is drawn once, when it is playable, without the dealing
    // animation. The presets (for the settings, help and statistics) are
    // asked for after it.
    const saved = await state.client.resume();
    state.booted = true;
    if (saved.status === "restored") {
      state.game = saved.table;
      adoptTable(saved);
      restoredView = state.view;
      if (saved.view) state.model = clone(state.view);
      if (saved.view) narrateGame(/** @type {View} */ (state.view), true); // adoptTable took saved.view
    } else {
      if (saved.status === "corrupt") {
        // Said in words; the engine's own (English, technical) words are for the console.
        console.warn("saved game not restored:", saved.message);
        keepDamagedCopy(SAVED_GAME_KEY, saved.damaged);
        notify(t("notice.restoreFailed"));
      }
      const dealer = dealerArgument(state.settings);
      await startGame(dealer === undefined ? {} : { dealer }, { animate: false });
    }
  } catch (error) {
    bootFailed({ key: "boot.gameFailed", detail: errorText(error) });
    return;
  }
  await resumePuzzle();
  state.busy = false;
  dom.root.dataset.boot = "ready";
  proceed();
  // Someone who came by a link or an invitation came for it: the tutorial is offered on a later visit.
  if (!link && !invitation) maybeOfferTutorial();
  dom.root.dataset.bootMs = String(Math.round(performance.now()));
  // A saved online game (or an invitation in the address) comes once the table is playable; so does a link.
  resumeOnlineGame(invitation);
  if (link) openSharedLink(link);
  linkManifest();
  try {
    state.presets = (await state.client.request({ cmd: "presets" })).presets;
  } catch (error) {
    notify(t("notice.warning", { detail: errorText(error) }));
  }
  // A restored game may have ended a deal: it is counted once the presets tell custom rules from a preset.
  if (restoredView) recordStats(restoredView);
  if (params.get("sw") !== "0") {
    registerServiceWorker({
      onReady: () => {
        if (dom.root.dataset.sw === "failed") notify(t("offline.ready"));
        dom.root.dataset.sw = "ready";
      },
      onNotReady: () => {
        dom.root.dataset.sw = "failed";
        notify(t("offline.notReady"));
      },
      onUpdate: (apply) => {
        // index.html has both (hence the casts).
        const banner = /** @type {HTMLElement} */ (document.getElementById("update-banner"));
        banner.hidden = false;
        /** @type {HTMLElement} */ (document.getElementById("update-reload")).onclick = () => {
          // The browser switches once the old version's work is done: another tab still loading the game
          // delays it, and the player is told so.
          const text = /** @type {HTMLElement} */ (document.getElementById("update-text"));
          text.dataset.i18n = "update.switching";
          text.textContent = t("update.switching");
          apply();
        };
      },
    }).catch((error) => {
      dom.root.dataset.sw = "failed";
      notify(t("offline.unavailable", { detail: errorText(error) }));
    });
  }
}

/**
 * A puzzle that was on the table before the reload comes back on it, over the game (game/puzzle.js, loaded only
 * then): the first table drawn is the puzzle's. One that was kept damaged is said. The game is restored (or
 * started) already, and stays as it is whatever happens here.
 */
async function resumePuzzle() {
  const kept = loadAttempt();
  if (kept.damaged) {
    dom.root.dataset.puzzleDropped = "damaged";
    notify(t("puzzles.resume.damaged"));
  }
  if (!kept.attempt) return;
  bootProgress({ stage: "puzzle", fraction: 1 });
  try {
    await (await import("./puzzle.js")).resumePuzzle(kept.attempt);
  } catch (error) {
    notify(t("notice.error", { detail: errorText(error) }));
  }
}

/** What was damaged so far, said in one notice: {kept: names, reset: names}. */
const damaged = { kept: new Set(), reset: new Set() };
const DAMAGE_NAMES = [
  "stats",
  "settings",
  "modes",
  "customRules",
  "onlineStats",
  "puzzles",
  "signedResults",
  "nostrKey",
];

/**
 * Say that stored data was damaged (platform/damage.js), and what was done about it.
 * @param {import("../platform/damage.js").Damage} damage
 */
function tellDamage({ key, repaired }) {
  // "sixty-six.custom-rules" → "customRules", "sixty-six.settings.v1" → "settings"
  const name = key
    .replace(/^sixty-six\./, "")
    .replace(/\.v\d+$/, "")
    .replace(/-(\w)/g, (_, c) => c.toUpperCase());
  (repaired ? damaged.kept : damaged.reset).add(t(`damaged.what.${DAMAGE_NAMES.includes(name) ? name : "other"}`));
  const said = [];
  if (damaged.kept.size) said.push(t("damaged.kept", { what: [...damaged.kept].join(", ") }));
  if (damaged.reset.size) said.push(t("damaged.reset", { what: [...damaged.reset].join(", ") }));
  notify(said.join(" "));
}

/** Can this browser compile WebAssembly (the Python runtime needs it)? */
function wasmSupported() {
  try {
    const module = new WebAssembly.Module(Uint8Array.of(0, 97, 115, 109, 1, 0, 0, 0));
    return module instanceof WebAssembly.Module;
  } catch {
    return false;
  }
}

/**
 * An online game saved before a reload goes on (the other player is met again); a link to join opens the dialog.
 * @param {string} invitation
 */
async function resumeOnlineGame(invitation) {
  try {
    if (await resumeOnline()) {
      await testMeetingGate();
      (await onlineLobby()).meetAgain();
    }
  } catch (error) {
    console.warn("saved game not restored:", errorText(error));
    notify(t("notice.restoreFailed"));
  }
  if (invitation) openOnline(invitation);
}
