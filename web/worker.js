// The engine worker: the only place where Python runs.
//
// It boots Pyodide, installs the engine wheel, and answers the page's
// messages. Page -> worker: {id, type: "request", payload} (a protocol
// request without "v"/"id") or {id, type: "resume"}. Worker -> page:
// {id, type: "response", ok, result} and unsolicited {type: "progress" |
// "ready" | "fatal" | "snapshot"} reports.
//
// The worker is also the privacy boundary of the page: it keeps the saved
// game (the record holds the whole deck) to itself in IndexedDB, refuses
// "save"/"load" from the page, answers views for seat 0 only and always
// observes act/ai_move as seat 0.

import { loadPyodide, version as runtimeVersion } from "./pyodide/pyodide.mjs";

const BASE = new URL("./", import.meta.url);
const OPTIONS = new URL(self.location.href).searchParams;
const SNAPSHOT_CACHE = "sixty-six-snapshot";
const DB_NAME = "sixty-six";
const DB_STORE = "saves";
const SAVE_KEY = "current";
const WHEEL_PATH = "/tmp/engine.whl";

const t0 = performance.now();
const timings = {};
let handleFn = null; // the Python function py_engine.protocol.handle
let currentGame = null; // the handle of the game that is saved after each change
let bootMode = "cold";

function post(message) {
  self.postMessage(message);
}

function progress(stage, label, fraction) {
  timings[stage] = Math.round(performance.now() - t0);
  post({ type: "progress", stage, label, fraction });
}

async function fetchBytes(name) {
  const response = await fetch(new URL(name, BASE));
  if (!response.ok) throw new Error(`could not load ${name}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

// ------------------------------------------------------------ snapshots

function snapshotUrl(info) {
  const key = `${runtimeVersion}-${info.wheel_sha256.slice(0, 16)}`;
  return new URL(`__snapshot__/${key}.bin`, BASE).href;
}

function snapshotsUsable() {
  return OPTIONS.get("snapshot") !== "0" && typeof caches !== "undefined";
}

async function readSnapshot(info) {
  if (!snapshotsUsable()) return null;
  try {
    const cache = await caches.open(SNAPSHOT_CACHE);
    const response = await cache.match(snapshotUrl(info));
    return response ? new Uint8Array(await response.arrayBuffer()) : null;
  } catch {
    return null;
  }
}

async function storeSnapshot(info, bytes) {
  try {
    const cache = await caches.open(SNAPSHOT_CACHE);
    const url = snapshotUrl(info);
    for (const request of await cache.keys()) {
      if (request.url !== url) await cache.delete(request);
    }
    await cache.put(url, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
    post({ type: "snapshot", status: "stored", bytes: bytes.byteLength });
  } catch (error) {
    post({ type: "snapshot", status: "failed", message: String(error) });
  }
}

async function dropSnapshot(info) {
  try {
    const cache = await caches.open(SNAPSHOT_CACHE);
    await cache.delete(snapshotUrl(info));
  } catch {
    // nothing to drop
  }
}

// ------------------------------------------------------------------ boot

const INSTALL_ENGINE = `
import importlib, sysconfig, zipfile
with zipfile.ZipFile("${WHEEL_PATH}") as wheel:
    wheel.extractall(sysconfig.get_paths()["purelib"])
importlib.invalidate_caches()
import py_engine.protocol
`;

function installWheel(pyodide, wheel) {
  pyodide.FS.mkdirTree("/tmp");
  pyodide.FS.writeFile(WHEEL_PATH, wheel);
  pyodide.runPython(INSTALL_ENGINE);
  pyodide.FS.unlink(WHEEL_PATH);
}

async function coldBoot(info, wheelPromise, makeSnapshot) {
  progress("runtime", "Loading the Python runtime (about 13 MB on the first visit)", 0.15);
  const pyodide = await watched(loadPyodide({ indexURL: new URL("pyodide/", BASE).href, _makeSnapshot: makeSnapshot }));
  progress("engine", "Installing the rules engine", 0.8);
  installWheel(pyodide, await wheelPromise);
  let snapshot = null;
  if (makeSnapshot) {
    try {
      snapshot = pyodide.makeMemorySnapshot();
    } catch (error) {
      post({ type: "snapshot", status: "failed", message: String(error) });
    }
  }
  return { pyodide, snapshot };
}

// Pyodide only logs a warning and waits forever when its WebAssembly file
// cannot be fetched. While booting, every failed download fails the boot.
let bootFailed;
const downloadFailure = new Promise((_, reject) => {
  bootFailed = reject;
});
downloadFailure.catch(() => {});
const plainFetch = self.fetch.bind(self);

function watchedFetch(input, init) {
  const name = String(input && input.url ? input.url : input).split("/").pop();
  return plainFetch(input, init).then(
    (response) => {
      if (!response.ok) bootFailed(new Error(`could not download ${name} (HTTP ${response.status})`));
      return response;
    },
    (error) => {
      bootFailed(new Error(`could not download ${name} (${error.message || error})`));
      throw error;
    },
  );
}

function watched(promise) {
  return Promise.race([promise, downloadFailure]);
}

async function boot() {
  self.fetch = watchedFetch;
  try {
    await bootEngine();
  } finally {
    self.fetch = plainFetch;
  }
}

async function bootEngine() {
  progress("start", "Starting the engine", 0.05);
  const info = await (await fetch(new URL("build.json", BASE))).json();
  const wheelPromise = fetchBytes(info.wheel);
  let pyodide = null;
  let snapshot = null;
  const stored = await readSnapshot(info);
  if (stored) {
    progress("restore", "Restoring the engine", 0.5);
    try {
      pyodide = await watched(loadPyodide({ indexURL: new URL("pyodide/", BASE).href, _loadSnapshot: stored }));
      timings.restored = Math.round(performance.now() - t0);
      // Modules imported before the snapshot live in it; the files do not.
      // Put them back so that anything imported later still finds them.
      installWheel(pyodide, await wheelPromise);
      bootMode = "snapshot";
    } catch (error) {
      post({ type: "snapshot", status: "rejected", message: String(error) });
      await dropSnapshot(info);
      pyodide = null;
    }
  }
  if (!pyodide) {
    ({ pyodide, snapshot } = await coldBoot(info, wheelPromise, snapshotsUsable()));
  }
  const protocol = pyodide.pyimport("py_engine.protocol");
  handleFn = protocol.handle.copy();
  protocol.destroy();
  timings.ready = Math.round(performance.now() - t0);
  post({
    type: "ready",
    mode: bootMode,
    runtime: runtimeVersion,
    engine: info.engine_version,
    build: info.wheel_sha256.slice(0, 12),
    timings,
  });
  if (snapshot) storeSnapshot(info, snapshot);
}

const booted = boot();
booted.catch((error) => {
  post({ type: "fatal", message: `The game engine could not start: ${error && error.message ? error.message : error}` });
});

// -------------------------------------------------------------- engine calls

function call(request) {
  return JSON.parse(handleFn(JSON.stringify({ v: 1, ...request })));
}

function refusal(id, code, message) {
  return { v: 1, id, ok: false, error: { code, message } };
}

const PAGE_SEAT = 0;

async function answer(id, payload) {
  if (!payload || typeof payload !== "object" || typeof payload.cmd !== "string") {
    return refusal(id, "bad_request", "a request needs a 'cmd'");
  }
  const cmd = payload.cmd;
  if (cmd === "save" || cmd === "load") {
    return refusal(id, "bad_request", `'${cmd}' is handled inside the worker; the page never sees a record`);
  }
  if ((cmd === "view" || cmd === "legal" || cmd === "hint") && payload.seat !== PAGE_SEAT) {
    return refusal(id, "bad_request", `the page may ask '${cmd}' for seat ${PAGE_SEAT} only`);
  }
  const request = { ...payload, id };
  if (cmd === "act" || cmd === "ai_move") request.observer = PAGE_SEAT;
  const result = call(request);
  if (result.ok) {
    if (cmd === "new_game") {
      if (currentGame !== null) call({ cmd: "close_game", game: currentGame });
      currentGame = result.game;
      await persist();
    } else if ((cmd === "act" || cmd === "ai_move") && request.game === currentGame) {
      await persist();
    } else if (cmd === "close_game" && request.game === currentGame) {
      currentGame = null;
      await forget();
    }
  }
  return result;
}

// ------------------------------------------------------------- saved game

function openDb() {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(DB_NAME, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(DB_STORE);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

let dbPromise = null;

async function withStore(mode, action) {
  dbPromise ??= openDb();
  const db = await dbPromise;
  return new Promise((resolve, reject) => {
    const tx = db.transaction(DB_STORE, mode);
    const request = action(tx.objectStore(DB_STORE));
    tx.oncomplete = () => resolve(request.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  });
}

async function persist() {
  const saved = call({ cmd: "save", game: currentGame });
  if (!saved.ok) return;
  try {
    await withStore("readwrite", (store) => store.put({ record: saved.record, savedAt: Date.now() }, SAVE_KEY));
  } catch (error) {
    post({ type: "warning", message: `The game could not be saved: ${error}` });
  }
}

async function forget() {
  try {
    await withStore("readwrite", (store) => store.delete(SAVE_KEY));
  } catch {
    // nothing saved
  }
}

async function resume(id) {
  let saved;
  try {
    saved = await withStore("readonly", (store) => store.get(SAVE_KEY));
  } catch (error) {
    return { v: 1, id, ok: true, status: "none", message: `Saved games are not available: ${error}` };
  }
  if (saved === undefined) return { v: 1, id, ok: true, status: "none" };
  const record = saved && typeof saved === "object" ? saved.record : undefined;
  const loaded = record === undefined ? null : call({ cmd: "load", record });
  if (!loaded || !loaded.ok) {
    await forget();
    const why = loaded ? loaded.error.message : "the saved data is not a game record";
    return { v: 1, id, ok: true, status: "corrupt", message: why };
  }
  if (currentGame !== null) call({ cmd: "close_game", game: currentGame });
  currentGame = loaded.game;
  return { v: 1, id, ok: true, status: "restored", game: loaded.game, view: loaded.view };
}

// --------------------------------------------------------------- messages

let queue = Promise.resolve();

self.onmessage = (event) => {
  const { id, type, payload } = event.data || {};
  // One message at a time, in arrival order: saves finish before the next request runs.
  queue = queue.then(async () => {
    let result;
    try {
      await booted;
      if (type === "request") result = await answer(id, payload);
      else if (type === "resume") result = await resume(id);
      else result = refusal(id, "bad_request", `unknown message type ${JSON.stringify(type)}`);
    } catch (error) {
      result = refusal(id, "engine_unavailable", String(error && error.message ? error.message : error));
    }
    post({ id, type: "response", ok: Boolean(result.ok), result });
  });
};
