// Starts the engine worker as early as possible.
//
// index.html loads this module (no imports) with `async`, so it runs as soon
// as it arrives, while app.js and its modules are still loading: Pyodide's
// runtime starts downloading (or restoring from the memory snapshot) a few
// hundred milliseconds earlier. EngineClient (engine-client.js) adopts the
// worker, with the messages it sent meanwhile.
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
