// @ts-check
// The page's entry point: starts the engine worker, then loads the page.
//
// index.html loads only this module (with `async`, so it runs as soon as it
// arrives). It asks for the engine worker first and only then imports app.js
// and its modules, which build.py bundles into page/ (a dozen files instead
// of sixty): on a warm visit every request goes through the service worker,
// and the engine's files are then not queued behind the page's own.
// Pyodide's runtime starts restoring from the memory snapshot (or
// downloading) that much earlier. EngineClient (engine-client.js) adopts
// the worker, with the messages it sent meanwhile.
//
// The page (game/start.js) asks for the same URL (engineWorkerUrl()); a
// worker started for another URL than the client's is stopped, and the
// client starts its own.

/**
 * The engine worker started early: its URL, the messages it sent so far and why it failed to load (or null).
 * @typedef {{url: string, worker: Worker, messages: unknown[], error: string | null}} EarlyWorker
 */

/** Does this browser start module workers? (Reads the option only if it does.) */
export function moduleWorkerOptions() {
  const probe = { supported: false };
  /** @type {WorkerOptions} */
  const options = {
    /** @returns {WorkerType} */
    get type() {
      probe.supported = true;
      return "module";
    },
  };
  return { options, probe };
}

/** The engine worker's URL for this page: engine/worker.js, told when the memory snapshot is off (?snapshot=0). */
export function engineWorkerUrl() {
  const url = new URL("engine/worker.js", import.meta.url);
  const search = new URLSearchParams(window.location.search);
  if (search.get("snapshot") === "0") url.searchParams.set("snapshot", "0");
  if (search.get("test") === "1") url.searchParams.set("test", "1"); // the worker's test hooks (tests/browser)
  return url;
}

function start() {
  if (typeof WebAssembly !== "object" || typeof Worker !== "function") return null;
  const url = engineWorkerUrl();
  const { options, probe } = moduleWorkerOptions();
  let worker;
  try {
    worker = new Worker(url, options);
  } catch {
    return null; // the client tries again and reports why
  }
  if (!probe.supported) {
    worker.terminate();
    return null;
  }
  /** @type {EarlyWorker} */
  const early = { url: url.href, worker, messages: [], error: null };
  worker.onmessage = (event) => early.messages.push(event.data);
  worker.onerror = (event) => {
    event.preventDefault();
    early.error ??= event.message || "";
  };
  return early;
}

let early = start();

/**
 * The worker already started for ``url``, once: {worker, messages, error}
 * (the messages it sent so far; error: null, or why it failed to load).
 * Null if there is none for that URL.
 * @param {string | URL} url
 */
export function adoptEngineWorker(url) {
  const found = early;
  early = null;
  if (!found) return null;
  if (found.url !== new URL(url, window.location.href).href) {
    found.worker.terminate();
    return null;
  }
  found.worker.onmessage = null;
  found.worker.onerror = null;
  return found;
}

/** Resolves once the document is parsed (boot.js, being async, and the modules it imports may run before). */
export function documentParsed() {
  if (document.readyState !== "loading") return Promise.resolve();
  return new Promise((resolve) => document.addEventListener("DOMContentLoaded", resolve, { once: true }));
}

/**
 * Show that the boot failed: ``label`` under the progress bar, ``message`` (text or nodes) in the error box.
 * (index.html has the three elements, hence the casts.)
 * @param {string} label
 * @param {...(string | Node)} message
 */
export function showBootFailure(label, ...message) {
  const table = /** @type {HTMLElement} */ (document.getElementById("table"));
  table.dataset.boot = "failed";
  table.dataset.ready = "0";
  /** @type {HTMLElement} */ (document.getElementById("boot-label")).textContent = label;
  const box = /** @type {HTMLElement} */ (document.getElementById("boot-error"));
  box.replaceChildren(...message);
  box.hidden = false;
}

/**
 * The words of a failed boot in English, for when no language file could be
 * loaded (a first visit that goes offline). Same texts as i18n/en.json (a
 * Node test compares them).
 * @type {Readonly<Record<string, string>>}
 */
export const BOOT_WORDS_IN_ENGLISH = {
  "boot.failed": "The game cannot start",
  "boot.offline":
    "You are offline, and this browser does not have the whole game yet. Connect to the internet and reload the page.",
  "boot.engineFailed": "The game engine could not start.",
  "boot.gameFailed": "The game could not start.",
  "boot.noWasm": "This browser cannot run WebAssembly, which the game engine needs. Please use a current browser.",
};

// The page itself, once the worker has been asked for. If its scripts cannot
// be loaded, the worker is stopped and the failure shown in English (the
// translations are among those scripts). build.py bundles them from app.js.
import("./page/app.js").catch(async (error) => {
  early?.worker.terminate();
  early = null;
  await documentParsed();
  showBootFailure(
    BOOT_WORDS_IN_ENGLISH["boot.failed"],
    navigator.onLine
      ? `Its scripts could not be loaded (${error.message || error}). Reload the page to try again.`
      : BOOT_WORDS_IN_ENGLISH["boot.offline"],
  );
});
