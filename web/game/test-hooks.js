// @ts-check
// window.__test, in test mode only (?test=1): what the browser tests read
// and do (tests/browser/README.md lists it).

import { missingKeys } from "../platform/i18n.js";
import { loadProgress } from "../platform/puzzle-progress.js";
import { lastSaved } from "../platform/save-file.js";
import { loadStats, statsSettled } from "../platform/stats.js";
import { savePreferences } from "../screens/modes.js";
import { saveSettings } from "../screens/settings.js";
import { soundStats } from "../table/sound.js";
import { lastExport } from "./controls.js";
import { draw } from "./draw.js";
import { newGame } from "./loop.js";
import { currentOnline } from "./online.js";
import { voiceForTests } from "./online-voice.js";
import { clone, meetingHold, ready, state, testLog } from "./state.js";

/** @import { EngineClient } from "../engine/engine-client.js" */
/** @import { Preferences } from "../screens/modes.js" */
/** @import { Settings } from "../screens/settings.js" */
/** @import { Request } from "../../types/engine.js" */
/** @import { GameOptions } from "./loop.js" */

/** Install window.__test. */
export function installTestHooks() {
  window.__test = {
    messages: testLog,
    view: () => clone(state.view),
    settings: () => clone(state.settings),
    /** The puzzle progress as stored (puzzle-progress.js). */
    puzzleProgress: () => loadProgress(),
    /** Open a puzzle on the table by its id (as a link would); resolves when it is shown. */
    openPuzzle: (/** @type {string} */ id) => import("./puzzle.js").then((module) => module.openPuzzle(id)),
    /** The statistics as stored (stats.js, schema 2), once the engine's updates asked for so far are stored. */
    stats: () => statsSettled().then(() => loadStats()),
    /** Translation keys the page asked for that its language lacks (none, if all is well). */
    missingKeys: () => missingKeys(),
    /** What the sound module scheduled and dropped, and its switch (sound.js). */
    sounds: () => soundStats(),
    ready: () => ready(),
    /** The worker's handle of the game in play. */
    game: () => state.game,
    /** The mode of the game in play ({mode, ranked, names, levels}) and the seat at the bottom. */
    meta: () => ({ ...clone(state.meta), seat: state.seat }),
    /** What the table allows now: {undo, hint, claim_for_other, computer_move}. */
    may: () => clone(state.may),
    /** The next new game's mode: {mode, ranked, names, watchLevel} (merged into the preferences). */
    setPreferences: (/** @type {Partial<Preferences>} */ prefs) => {
      state.prefs = savePreferences({ ...state.prefs, ...prefs });
      draw();
    },
    /** Some of the settings, e.g. {pace: "fast"} (merged into them and saved, as the settings dialog does). */
    setSettings: (/** @type {Partial<Settings>} */ settings) => {
      state.settings = saveSettings({ ...state.settings, ...settings });
      draw();
    },
    /** The last file the page offered to save: {name, text} (a report, a record, the local data). */
    savedFile: () => clone(lastSaved),
    /** The text of the last record file the page made (export), or null. */
    exported: () => lastExport.text,
    /** Start a game with fixed cards: {preset, seed, deck, dealer, match}. Resolves when it is shown. */
    newGame: (/** @type {GameOptions} */ options) => newGame(options),
    /** The online game in play: {side, session, connected, status, chat, problems, said, counts} (null if none). */
    online: () => {
      const game = currentOnline();
      if (!game) return null;
      const { side, session, status, chat, problems, said, via, roomCode, dropped } = game;
      const channel = game.channel;
      return clone({
        side,
        session,
        status,
        chat,
        problems,
        said,
        dropped,
        via,
        roomCode,
        connected: Boolean(channel?.isOpen),
        counts: channel?.counts ?? null,
      });
    },
    /**
     * Online voice (a promise): {call, media, microphone, muted, opened, live, sent, received, level}: this side's
     * call (0: none), microphones asked for and still open, bytes of sound sent and received, the received level.
     */
    voice: () => voiceForTests(),
    /** Online: after the next reload, the saved online game waits for releaseMeeting to meet the other again. */
    holdMeeting: meetingHold.hold,
    /** Online: the reloaded page (see holdMeeting) meets the other player again. */
    releaseMeeting: meetingHold.release,
    /** Online: the channel to the other browser breaks, as a lost connection would (not a goodbye). */
    dropConnection: () => currentOnline()?.channel?.lost("connection_lost", "test"),
    /**
     * Online (a promise): from the next connection on, this page claims ``identity`` (someone else's public key)
     * while it can only sign with its own key, as an impostor would; "" to be itself again.
     */
    claimIdentity: (/** @type {string} */ identity) =>
      import("../online/handshake.js").then((module) => {
        module.handshakeForTests.claim = identity;
      }),
    /** Online: send one raw text to the other browser, as a forged or malformed message would come. */
    sendRaw: (/** @type {unknown} */ value) => currentOnline()?.channel?.send(value),
    /**
     * Online: this page's engine runs ``code`` (Python, in the worker; ``session``: the online game's handle), as
     * a changed page's engine would; the texts it leaves in ``result`` (a JSON list) go to the other page.
     */
    cheat: async (/** @type {string} */ code) => {
      const game = currentOnline();
      const client = /** @type {EngineClient} */ (state.client);
      const texts = JSON.parse(await client.testPython(`session = ${JSON.stringify(game?.session)}\n${code}`));
      for (const text of texts) game?.channel?.send(text);
      return texts.length;
    },
    /** Send one raw protocol request through the worker: {ok, result} or {ok: false, code, message}. */
    request: (/** @type {Request} */ payload) =>
      /** @type {EngineClient} */ (state.client).request(payload).then(
        (result) => ({ ok: true, result }),
        (error) => ({ ok: false, code: error.code, message: error.message }),
      ),
  };
}
