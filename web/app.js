// @ts-check
// The page's controller, wired together. boot.js imports this module once
// it has asked for the engine worker; it puts the placeholder table up,
// loads the words, listens to the page and starts the game (game/start.js).
//
// The parts, in web/game/ (each imports only those before it):
// - state.js: the state of the game in play, shared by the parts;
// - draw.js: drawing it (the table, the modes' controls, the boot screen);
// - frames.js: animating a table's answer, event by event;
// - loop.js: the game loop (one step at a time, the computer's moves);
// - controls.js: hand-over, undo, hints, watching, review and records;
// - input.js: clicks, dragging and the keyboard on the table;
// - settings-dialog.js, help-and-tutorial.js: the dialogs' side of the table;
// - test-hooks.js: window.__test (test mode only);
// - start.js: booting the engine and putting the first table up.
//
// Every word on the page comes from platform/i18n.js (web/i18n/<language>.json);
// the language and the card pattern are settings (screens/settings.js).

import { onChat, onImportFile, onSpeed, openSharedLink, showSheet } from "./game/controls.js";
import { draw, notify, placeholderTable } from "./game/draw.js";
import { showHelp } from "./game/help-and-tutorial.js";
import { installInput } from "./game/input.js";
import { newGame } from "./game/loop.js";
import { installOnlineDoor, openOnline } from "./game/online-door.js";
import { applyLanguageAndDeck, installSettingsDialog, openSettings } from "./game/settings-dialog.js";
import { start } from "./game/start.js";
import { ready, reducedMotion, state, TEST } from "./game/state.js";
import { installTestHooks } from "./game/test-hooks.js";
import { reloadIntoNewVersions } from "./platform/pwa.js";
import { overridesFor } from "./screens/custom-rules.js";
import { setPuzzleOpener, takeLinkFromAddress } from "./screens/links.js";
import { deckOf, languageOf } from "./screens/settings.js";
import { installCardSprites, setDeckStyle } from "./table/cards.js";
import { installSound } from "./table/sound.js";

// index.html has every element asked for here (hence the casts).
function main() {
  reloadIntoNewVersions();
  installCardSprites();
  setDeckStyle(deckOf(state.settings, languageOf(state.settings)));
  placeholderTable();
  // The words load while the engine boots.
  const translated = applyLanguageAndDeck();
  if (TEST) installTestHooks();
  installSound();
  installInput();
  /** @type {HTMLElement} */ (document.getElementById("open-settings")).addEventListener("click", () => openSettings());
  // At the end of a match "New" is the rematch, one tap (the gear opens the settings); before it, the settings.
  const matchOver = () => ready() && Boolean(state.view?.game_over) && !state.puzzle && state.meta.mode !== "online";
  /** @type {HTMLElement} */ (document.getElementById("new-game")).addEventListener("click", () =>
    matchOver() ? newGame() : openSettings(true),
  );
  installSettingsDialog();
  const settings = /** @type {HTMLDialogElement} */ (document.getElementById("settings-dialog"));
  settings.addEventListener("close", () => {
    if (settings.returnValue === "online") openOnline();
  });
  /** @type {HTMLElement} */ (document.getElementById("setting-preset")).addEventListener("change", (event) => {
    const preset = /** @type {HTMLSelectElement} */ (event.target).value;
    state.rulesEditor?.setPreset(preset, overridesFor(preset));
  });
  /** @type {HTMLElement} */ (document.getElementById("notice-close")).addEventListener("click", () => notify(""));
  /** @type {HTMLElement} */ (document.getElementById("open-help")).addEventListener("click", showHelp);
  /** @type {HTMLElement} */ (document.getElementById("match-score")).addEventListener("click", showSheet);
  /** @type {HTMLElement} */ (document.getElementById("watch-speed")).addEventListener("change", onSpeed);
  /** @type {HTMLElement} */ (document.getElementById("import-record")).addEventListener("click", () =>
    /** @type {HTMLElement} */ (document.getElementById("import-file")).click(),
  );
  /** @type {HTMLElement} */ (document.getElementById("import-file")).addEventListener("change", onImportFile);
  /** @type {HTMLElement} */ (document.getElementById("chat-form")).addEventListener("submit", onChat);
  reducedMotion.addEventListener("change", draw);
  // The puzzles load on first use: the screen from the top bar, a puzzle from a link.
  const puzzles = () => import("./game/puzzle.js");
  /** @type {HTMLElement} */ (document.getElementById("open-puzzles")).addEventListener("click", () =>
    puzzles().then((module) => module.showPuzzles()),
  );
  setPuzzleOpener((id) => {
    puzzles().then((module) => module.openPuzzle(id));
  });
  const invitation = installOnlineDoor();
  // A link to a deal or a puzzle: opened once the game is ready, and again whenever the address gets another.
  const link = takeLinkFromAddress();
  window.addEventListener("hashchange", () => {
    const next = takeLinkFromAddress();
    if (next && state.booted) openSharedLink(next);
  });
  start(translated, invitation, link);
}

main();
