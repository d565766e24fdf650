// @ts-check
// The help dialog and the tutorial, from the table's side: both are loaded
// on first use (screens/help.js, screens/tutorial.js), since neither is
// needed to start playing.

import { t } from "../platform/i18n.js";
import { PLAIN_SEATING } from "../screens/modes.js";
import { draw, focusPlay } from "./draw.js";
import { cancelAi, mayAbandon, run, startGame } from "./loop.js";
import { openSettings, ruleParameters } from "./settings-dialog.js";
import { dom, params, state, TEST } from "./state.js";

/** @import { EngineClient } from "../engine/engine-client.js" */

/** The help dialog (loaded on first use: it is not needed to start playing). */
export async function showHelp() {
  const { openHelp } = await import("../screens/help.js");
  openHelp({
    rules: state.view ? state.view.rules : null,
    presets: state.presets,
    parameters: ruleParameters,
    // The tutorial asks first while a match is in play (its first-visit offer comes with a fresh one).
    // Importing or resetting the local data starts the page afresh from it; a reset also drops the saved game.
    onTutorial: async () => {
      if (await mayAbandon(t("tutorial.offerStart"))) startTutorial();
    },
    onImported: () => window.location.reload(),
    onReset: async () => {
      cancelAi();
      if (state.game)
        await /** @type {EngineClient} */ (state.client)
          .request({ cmd: "table_close", table: state.game })
          .catch(() => {});
      window.location.reload();
    },
  });
}

/** Deal the tutorial's deal against the computer and guide it (it does not count in the statistics). */
async function startTutorial() {
  if (!state.booted) return;
  const { createTutorial, TUTORIAL_GAME } = await import("../screens/tutorial.js");
  state.tutorial?.end();
  cancelAi();
  await run(() => startGame({ ...TUTORIAL_GAME, seating: { ...PLAIN_SEATING } }, { counted: false }));
  // Beside the table where the side panel is (wide screens), under the status line on narrower ones: either way
  // the hand stays in view.
  const panel = /** @type {HTMLElement} */ (document.querySelector("#panel > .panel-block"));
  state.tutorial = createTutorial({
    anchor: matchMedia("(min-width: 980px)").matches ? panel : dom.status,
    root: dom.root,
    onEnd: () => {
      state.tutorial = null;
    },
  });
  draw();
}

/** On the first visit, offer the tutorial (tests: only with ?tutorial=offer). */
export async function maybeOfferTutorial() {
  if (TEST && params.get("tutorial") !== "offer") return;
  const { offerTutorial, tutorialSeen } = await import("../screens/tutorial.js");
  const rules = t(`preset.${state.settings.preset}`);
  if (!tutorialSeen())
    offerTutorial(startTutorial, { rules, changeRules: () => openSettings(), onDeclined: focusPlay });
}
