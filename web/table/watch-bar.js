// @ts-check
// The controls of a game the computer plays against itself: its pace (the
// settings' pace), pause or play, and one move at a time while paused.

import { t } from "../platform/i18n.js";
import { PACES } from "../screens/settings.js";

/**
 * An element of index.html, which has every one asked for here (hence the cast).
 * @param {string} id
 */
const $ = (id) => /** @type {HTMLElement} */ (document.getElementById(id));

/**
 * Draw the bar; test hooks data-watch-speed and data-watch-paused on #table.
 * @param {{shown: boolean, speed: string, paused: boolean, canStep: boolean}} bar
 */
export function renderWatchBar({ shown, speed, paused, canStep }) {
  const bar = $("watch-bar");
  bar.hidden = !shown;
  const root = $("table");
  if (!shown) {
    delete root.dataset.watchSpeed;
    delete root.dataset.watchPaused;
    return;
  }
  root.dataset.watchSpeed = speed;
  root.dataset.watchPaused = paused ? "1" : "0";
  const select = /** @type {HTMLSelectElement} */ ($("watch-speed"));
  if (select.options.length !== PACES.length || select.dataset.language !== document.documentElement.lang) {
    select.replaceChildren(
      ...PACES.map((key) => {
        const option = document.createElement("option");
        option.value = key;
        option.textContent = t(`pace.${key}`);
        return option;
      }),
    );
    select.dataset.language = document.documentElement.lang;
  }
  select.value = speed;
  const pause = $("watch-pause");
  pause.textContent = paused ? t("modes.watch.play") : t("modes.watch.pause");
  pause.setAttribute("aria-pressed", paused ? "true" : "false");
  /** @type {HTMLButtonElement} */ ($("watch-step")).disabled = !paused || !canStep;
}
