// The page's entry point: starts the engine worker, then loads the page.
//
// index.html loads only this module (with `async`, so it runs as soon as it
// arrives). It asks for the engine worker first and only then imports app.js
// and its modules: on a warm visit every request goes through the service
// worker, and the engine's files are then not queued behind twenty of the
// page's own. Pyodide's runtime starts restoring from the memory snapshot
// (or downloading) that much earlier. EngineClient (engine-client.js) adopts
// the worker, with the messages it sent meanwhile.
//
// app.js asks for the same URL (engineWorkerUrl()); a worker started for
// another URL than the client's is stopped, and the client starts its own.

/** Does this browser start module workers? (Reads the option only if it does.) */
export function moduleWorkerOptions() {
  const probe = { supported: false };
  const options = {
    get type() {
      probe.supported = true;
      return "module";
    },
  };
  return { options, probe };
}

/** The engine worker's URL for this page: worker.js, told when the memory snapshot is off (?snapshot=0). */
export function engineWorkerUrl() {
  const url = new URL("worker.js", import.meta.url);
  if (new URLSearchParams(window.location.search).get("snapshot") === "0") url.searchParams.set("snapshot", "0");
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

/** Says that the page's own scripts could not be loaded (in English: the translations are among them). */
function scriptsFailed(error) {
  early?.worker.terminate();
  early = null;
  document.getElementById("table").dataset.boot = "failed";
  document.getElementById("table").dataset.ready = "0";
  document.getElementById("boot-label").textContent = "The game could not start.";
  const message = document.getElementById("boot-error");
  message.textContent = `Its scripts could not be loaded (${error.message || error}). Reload the page to try again.`;
  message.hidden = false;
}

// The page itself, once the worker has been asked for.
import("./app.js").catch((error) => {
  if (document.readyState === "loading") {
    document.addEventListener("DOMContentLoaded", () => scriptsFailed(error), { once: true });
  } else {
    scriptsFailed(error);
  }
});
