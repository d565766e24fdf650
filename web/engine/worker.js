// @ts-check
// @ts-check
// The engine worker: the only place where Python runs.
//
// It boots Pyodide, installs the engine wheel, and answers the page's
// messages. Page -> worker: {id, type: "request", payload} (a protocol
// request without "v"/"id") or {id, type: "resume"}. Worker -> page:
// {id, type: "response", ok, result} and unsolicited {type: "progress" |
// "ready" | "fatal" | "snapshot"} reports.
//
// The worker is transport and storage, not policy: the page's requests go to
// the engine's page entry point (py_engine.service.protocol.handle_page), which
// answers only the table commands and refuses anything that would show a
// bare seat or a record with the pack (py_engine/service/table.py owns who sees
// and does what). The worker keeps the game in play (the table that the
// page started last with "table_new") in IndexedDB: after every answer
// with "save": true it asks the engine for the table's saved form
// ("table_save") and stores it; "resume" restores it ("table_restore") and
// marks the saves as this tab's: a save finds the mark of a tab that claimed
// them later, and is dropped (the page is told: "superseded").

/** @import { LoadPyodide, PyodideInterface, PyProxy } from "../pyodide/pyodide.mjs" */
/**
 * build.json: this build's engine wheel and its hash, and the engine's version.
 * @typedef {{wheel: string, wheel_sha256: string, engine_version: string}} BuildInfo
 */
/**
 * Where snapshots live here: the origin-private file system, Cache Storage, or nowhere ({}).
 * @typedef {{folder?: FileSystemDirectoryHandle, cache?: Cache}} SnapshotStore
 */
/** @typedef {{read: () => Promise<Uint8Array>}} FoundSnapshot A stored snapshot, read when asked. */
/** @typedef {Record<string, any>} Answer A protocol answer (a JSON object: ok, and the command's fields or an error). */

// The modules this worker needs are imported dynamically, so that the boot's
// other first steps (build.json, the snapshot store, the saved game) start
// at once instead of after both modules have arrived.
// A failed import fails the boot where it is awaited (with a message to the page).
const runtimeModule = import("../pyodide/pyodide.mjs");
runtimeModule.catch(() => {});
// The runtime's own script (1.25 MB) too: loadPyodide would fetch and compile
// it only after its other first steps; it is handed over (runtimeOptions).
const runtimeScript = import("../pyodide/pyodide.asm.mjs");
runtimeScript.catch(() => {});

// The site's root (this script lives in engine/): build.json, the wheel, pyodide/.
const BASE = new URL("../", import.meta.url);
const INDEX_URL = new URL("pyodide/", BASE).href;
const OPTIONS = new URL(self.location.href).searchParams;
const SNAPSHOT_CACHE = "sixty-six-snapshot";
const DB_NAME = "sixty-six";
const DB_STORE = "saves";
const SAVE_KEY = "current";
// The online game in play (host or guest), kept apart from the game against the computer.
const ONLINE_KEY = "online";
// The mark of the tab that claimed the saves last (its "resume"): one live table per browser
// (platform/table-lock.js). A save finds another mark once a later tab has claimed them, and is not written.
const OWNER_KEY = "owner";
const OWN_MARK = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}`;
// The engine is imported straight from its wheel (zipimport): nothing is
// extracted, and after a snapshot restore only this one file is put back.
const WHEEL_PATH = "/opt/sixty-six/engine.whl";
// Work that can wait (storing the snapshot) runs once no message has come for this long.
const IDLE_MS = 500;

const t0 = performance.now();
/** @type {Record<string, number>} */
const timings = {}; // milliseconds since the worker started, by boot stage (sent with "ready")
/** @type {PyProxy | null} */
let handleFn = null; // the Python function py_engine.service.protocol.handle (the worker's own requests)
/** @type {PyProxy | null} */
let handlePageFn = null; // py_engine.service.protocol.handle_page (the page's requests)
/** @type {string | null} */
let currentTable = null; // the handle of the table that is saved after each change
/** @type {string | null} */
let reviewTable = null; // the handle of a record opened for review (never saved)
/** @type {string | null} */
let onlineSession = null; // the handle of the online game in play (saved after each change)
let bootMode = "cold";
let runtimeVersion = ""; // Pyodide's version, known once its module has loaded
/** @type {PyodideInterface | null} */
let testRuntime = null; // the runtime, for the browser tests' own Python (test mode only)

/** @param {object} message */
function post(message) {
  self.postMessage(message);
}

/** @param {string} stage */
function mark(stage) {
  timings[stage] = Math.round(performance.now() - t0);
}

/**
 * @param {string} stage
 * @param {string} label
 * @param {number} fraction
 */
function progress(stage, label, fraction) {
  mark(stage);
  post({ type: "progress", stage, label, fraction });
}

/** @param {string} name */
async function fetchBytes(name) {
  const response = await fetch(new URL(name, BASE));
  if (!response.ok) throw new Error(`could not load ${name}: HTTP ${response.status}`);
  return new Uint8Array(await response.arrayBuffer());
}

// ------------------------------------------------------------ snapshots
//
// The memory snapshot (about 30 MB) is kept where this worker reads it
// fastest: in the origin-private file system, read synchronously (a few
// tens of ms), or else in Cache Storage (100-300 ms). Its name carries the
// runtime version and the engine wheel's hash; only the latest is kept. In
// the file system a trailer (a magic number and the length) tells a
// complete file from one cut short.

const SNAPSHOT_MAGIC = 0x36365350;

/** A snapshot that cannot be read now (another tab holds it, or it is cut short): boot without it. */
class SnapshotUnreadable extends Error {}

/** @param {BuildInfo} info */
function snapshotName(info) {
  return `${runtimeVersion}-${info.wheel_sha256.slice(0, 16)}.bin`;
}

/** @param {BuildInfo} info */
function snapshotUrl(info) {
  return new URL(`__snapshot__/${snapshotName(info)}`, BASE).href;
}

/**
 * Where snapshots live here: {folder} (the file system), {cache} (Cache Storage) or {} (nowhere).
 * @returns {Promise<SnapshotStore>}
 */
async function openSnapshotStore() {
  if (OPTIONS.get("snapshot") === "0") return {};
  const syncFiles =
    typeof FileSystemFileHandle !== "undefined" && "createSyncAccessHandle" in FileSystemFileHandle.prototype;
  // (The types know getDirectory everywhere; the browsers do not.)
  if (syncFiles && /** @type {Partial<StorageManager> | undefined} */ (self.navigator?.storage)?.getDirectory) {
    try {
      const root = await navigator.storage.getDirectory();
      return { folder: await root.getDirectoryHandle(SNAPSHOT_CACHE, { create: true }) };
    } catch {
      // no file system here (a private window of some browsers): try Cache Storage
    }
  }
  if (typeof caches !== "undefined") {
    try {
      return { cache: await caches.open(SNAPSHOT_CACHE) };
    } catch {
      // no storage at all
    }
  }
  return {};
}

/**
 * @param {FileSystemFileHandle} file
 * @returns {Promise<Uint8Array>}
 */
async function readSnapshotFile(file) {
  let handle;
  try {
    handle = await file.createSyncAccessHandle();
  } catch (error) {
    throw new SnapshotUnreadable(`the snapshot is in use: ${error}`);
  }
  try {
    const size = handle.getSize();
    const trailer = new Uint32Array(2);
    const complete =
      size > trailer.byteLength &&
      handle.read(trailer, { at: size - trailer.byteLength }) === trailer.byteLength &&
      trailer[0] === SNAPSHOT_MAGIC &&
      trailer[1] === size - trailer.byteLength;
    if (!complete) throw new SnapshotUnreadable("the snapshot file is incomplete");
    const bytes = new Uint8Array(trailer[1]);
    if (handle.read(bytes, { at: 0 }) !== bytes.byteLength) throw new SnapshotUnreadable("the snapshot file is short");
    return bytes;
  } finally {
    handle.close();
  }
}

/**
 * This build's stored snapshot, found now and read later: {read(): Promise<Uint8Array>}, or null.
 * @param {SnapshotStore} store
 * @param {BuildInfo} info
 * @returns {Promise<FoundSnapshot | null>}
 */
async function findSnapshot(store, info) {
  try {
    if (store.folder) {
      const file = await store.folder.getFileHandle(snapshotName(info)); // throws if there is none
      return { read: () => readSnapshotFile(file) };
    }
    if (store.cache) {
      const response = await store.cache.match(snapshotUrl(info));
      if (response) return { read: async () => new Uint8Array(await response.arrayBuffer()) };
    }
  } catch {
    // none
  }
  return null;
}

/**
 * @param {FileSystemDirectoryHandle} folder
 * @param {string} name
 * @param {Uint8Array} bytes
 */
async function writeSnapshotFile(folder, name, bytes) {
  const handle = await (await folder.getFileHandle(name, { create: true })).createSyncAccessHandle();
  try {
    handle.truncate(0);
    const trailer = Uint32Array.of(SNAPSHOT_MAGIC, bytes.byteLength);
    const written = handle.write(bytes, { at: 0 }) + handle.write(trailer, { at: bytes.byteLength });
    if (written !== bytes.byteLength + trailer.byteLength) throw new Error("the disk is full");
    handle.flush();
  } catch (error) {
    handle.close();
    await folder.removeEntry(name).catch(() => {});
    throw error;
  }
  handle.close();
  for await (const old of folder.keys()) {
    if (old !== name) await folder.removeEntry(old).catch(() => {});
  }
  // Earlier versions of the game kept their snapshot in Cache Storage.
  if (typeof caches !== "undefined") await caches.delete(SNAPSHOT_CACHE).catch(() => {});
}

/**
 * @param {SnapshotStore} store (with a folder or a cache: there is a snapshot to store)
 * @param {BuildInfo} info
 * @param {Uint8Array<ArrayBuffer>} bytes
 */
async function storeSnapshot(store, info, bytes) {
  try {
    if (store.folder) {
      await writeSnapshotFile(store.folder, snapshotName(info), bytes);
    } else {
      const url = snapshotUrl(info);
      const cache = /** @type {Cache} */ (store.cache);
      for (const request of await cache.keys()) {
        if (request.url !== url) await cache.delete(request);
      }
      await cache.put(url, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
    }
    post({ type: "snapshot", status: "stored", bytes: bytes.byteLength });
  } catch (error) {
    post({ type: "snapshot", status: "failed", message: String(error) });
  }
}

/**
 * @param {SnapshotStore} store
 * @param {BuildInfo} info
 */
async function dropSnapshot(store, info) {
  try {
    if (store.folder) await store.folder.removeEntry(snapshotName(info));
    else if (store.cache) await store.cache.delete(snapshotUrl(info));
  } catch {
    // nothing to drop
  }
}

// ------------------------------------------------------------------ boot

const INSTALL_ENGINE = `
import sys
sys.path.insert(0, "${WHEEL_PATH}")
import py_engine.service.protocol
`;

/**
 * loadPyodide's options for this site: its files, and the runtime script already loading.
 * @param {{_makeSnapshot?: boolean, _loadSnapshot?: Promise<Uint8Array>}} more
 */
function runtimeOptions(more) {
  return {
    indexURL: INDEX_URL,
    createPyodideModule: async (/** @type {object} */ settings) => (await runtimeScript).default(settings),
    ...more,
  };
}

/**
 * @param {PyodideInterface} pyodide
 * @param {Uint8Array} wheel
 */
function writeWheel(pyodide, wheel) {
  pyodide.FS.mkdirTree(WHEEL_PATH.slice(0, WHEEL_PATH.lastIndexOf("/")));
  pyodide.FS.writeFile(WHEEL_PATH, wheel);
}

/**
 * @param {LoadPyodide} loadPyodide
 * @param {Promise<Uint8Array>} wheelPromise
 * @param {boolean} makeSnapshot
 */
async function coldBoot(loadPyodide, wheelPromise, makeSnapshot) {
  progress("runtime", "Loading the Python runtime (about 13 MB on the first visit)", 0.15);
  const pyodide = await watched(loadPyodide(runtimeOptions({ _makeSnapshot: makeSnapshot })));
  progress("engine", "Installing the rules engine", 0.8);
  writeWheel(pyodide, await wheelPromise);
  pyodide.runPython(INSTALL_ENGINE);
  mark("installed");
  /** @type {Uint8Array<ArrayBuffer> | null} */
  let snapshot = null;
  if (makeSnapshot) {
    // A copy of the interpreter's memory (about 30 MB, some 40 ms): it is
    // stored later, when the page is idle.
    try {
      snapshot = pyodide.makeMemorySnapshot();
      mark("snapshot");
    } catch (error) {
      post({ type: "snapshot", status: "failed", message: String(error) });
    }
  }
  return { pyodide, snapshot };
}

/**
 * @param {LoadPyodide} loadPyodide
 * @param {FoundSnapshot} found
 * @param {Promise<Uint8Array>} wheelPromise
 */
async function restore(loadPyodide, found, wheelPromise) {
  progress("restore", "Restoring the engine", 0.5);
  // The snapshot is read once Pyodide has begun to fetch its runtime (a task later).
  const bytes = new Promise((resolve) => setTimeout(resolve, 0)).then(() => found.read());
  bytes.then(
    () => mark("snapshotRead"),
    () => {},
  );
  const pyodide = await watched(loadPyodide(runtimeOptions({ _loadSnapshot: bytes })));
  mark("restored");
  // Modules imported before the snapshot live in it; the wheel file does not.
  // Put it back where sys.path expects it, for modules imported later.
  writeWheel(pyodide, await wheelPromise);
  return pyodide;
}

// Pyodide only logs a warning and waits forever when its WebAssembly file
// cannot be fetched. While booting, every failed download fails the boot.
/** @type {(error: Error) => void} */
let bootFailed;
/** @type {Promise<never>} */
const downloadFailure = new Promise((_, reject) => {
  bootFailed = reject;
});
downloadFailure.catch(() => {});
const plainFetch = self.fetch.bind(self);

/**
 * fetch(), failing the boot if the download fails.
 * @param {RequestInfo | URL} input
 * @param {RequestInit} [init]
 */
function watchedFetch(input, init) {
  const name = String(input && /** @type {Request} */ (input).url ? /** @type {Request} */ (input).url : input)
    .split("/")
    .pop();
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

/**
 * @template T
 * @param {Promise<T>} promise
 * @returns {Promise<T>}
 */
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
  // The snapshot store opens while build.json (which names this build's snapshot) loads.
  const storePromise = openSnapshotStore();
  storePromise.then(() => mark("store"));
  const info = await (await fetch(new URL("build.json", BASE))).json();
  mark("info");
  const wheelPromise = fetchBytes(info.wheel);
  wheelPromise.catch(() => {}); // awaited below; a failure then fails the boot
  const runtime = await runtimeModule;
  runtimeVersion = runtime.version;
  mark("module");
  const store = await storePromise;
  let pyodide = null;
  let snapshot = null;
  const found = await findSnapshot(store, info);
  if (found) {
    try {
      pyodide = await restore(runtime.loadPyodide, found, wheelPromise);
      bootMode = "snapshot";
    } catch (error) {
      if (error instanceof SnapshotUnreadable) {
        post({ type: "snapshot", status: "unreadable", message: error.message });
      } else {
        post({ type: "snapshot", status: "rejected", message: String(error) });
        await dropSnapshot(store, info);
      }
      pyodide = null;
    }
  }
  if (!pyodide) {
    ({ pyodide, snapshot } = await coldBoot(runtime.loadPyodide, wheelPromise, Boolean(store.folder || store.cache)));
  }
  if (OPTIONS.get("test") === "1") testRuntime = pyodide;
  const protocol = pyodide.pyimport("py_engine.service.protocol");
  handleFn = protocol.handle.copy();
  handlePageFn = protocol.handle_page.copy();
  const warmUp = protocol.warm_up.copy();
  protocol.destroy();
  mark("ready");
  post({
    type: "ready",
    mode: bootMode,
    runtime: runtimeVersion,
    engine: info.engine_version,
    build: info.wheel_sha256.slice(0, 12),
    timings,
    // The clock of the stages above: they count from when this script began to run.
    timeOrigin: performance.timeOrigin + t0,
  });
  // Storing 30 MB must not delay the page's first requests: it waits until the page is idle.
  if (snapshot) whenIdle(() => storeSnapshot(store, info, snapshot));
  // The computer player is imported when first needed, or here, once the page is idle.
  whenIdle(() => {
    try {
      warmUp();
      post({ type: "computer", status: "loaded" });
    } catch (error) {
      post({ type: "warning", message: `The computer player could not be loaded ahead: ${error}` });
    } finally {
      warmUp.destroy();
    }
  });
}

const booted = boot();
booted.catch((error) => {
  post({
    type: "fatal",
    message: `The game engine could not start: ${error?.message ? error.message : error}`,
  });
});

// ------------------------------------------------------------------ idle

let pendingMessages = 0; // received and not answered yet
/** @type {(() => void)[]} */
let idleTasks = [];
/** @type {ReturnType<typeof setTimeout> | undefined} */
let idleTimer;

/**
 * Run ``task`` once the page has sent nothing for a while.
 * @param {() => void} task
 */
function whenIdle(task) {
  idleTasks.push(task);
  armIdle();
}

function armIdle() {
  clearTimeout(idleTimer);
  if (!idleTasks.length || pendingMessages) return;
  idleTimer = setTimeout(() => {
    if (pendingMessages) return;
    const tasks = idleTasks;
    idleTasks = [];
    for (const task of tasks) task();
  }, IDLE_MS);
}

// -------------------------------------------------------------- engine calls

// The engine is there once booted: requests wait for the boot (hence the casts).

/**
 * A request of the worker's own to the engine.
 * @param {Record<string, unknown>} request
 * @returns {Answer}
 */
function call(request) {
  return JSON.parse(/** @type {PyProxy} */ (handleFn)(JSON.stringify({ v: 1, ...request })));
}

/**
 * A request of the page to the engine.
 * @param {Record<string, unknown>} request
 * @returns {Answer}
 */
function callForPage(request) {
  return JSON.parse(/** @type {PyProxy} */ (handlePageFn)(JSON.stringify({ v: 1, ...request })));
}

/**
 * @param {unknown} id
 * @param {string} code
 * @param {string} message
 * @returns {Answer}
 */
function refusal(id, code, message) {
  return { v: 1, id, ok: false, error: { code, message } };
}

/**
 * A page request, answered by the engine; the game in play is stored after each change.
 * @param {unknown} id
 * @param {any} payload as the page sent it
 * @returns {Promise<Answer>}
 */
async function answer(id, payload) {
  if (!payload || typeof payload !== "object" || typeof payload.cmd !== "string") {
    return refusal(id, "bad_request", "a request needs a 'cmd'");
  }
  const result = callForPage({ ...payload, id });
  if (!result.ok) return result;
  const cmd = payload.cmd;
  if (cmd === "table_new") {
    if (currentTable !== null) call({ cmd: "table_close", table: currentTable });
    currentTable = result.table;
  } else if (cmd === "table_import") {
    if (reviewTable !== null) call({ cmd: "table_close", table: reviewTable });
    reviewTable = result.table;
  } else if (cmd === "peer_open") {
    if (onlineSession !== null) call({ cmd: "peer_close", session: onlineSession });
    onlineSession = result.session;
  } else if (cmd === "peer_close" && payload.session === onlineSession) {
    onlineSession = null;
    await forget(ONLINE_KEY);
  } else if (cmd === "table_close") {
    if (payload.table === reviewTable) reviewTable = null;
    if (payload.table === currentTable) {
      currentTable = null;
      await forget();
    }
  }
  if (result.save && (result.table ?? payload.table) === currentTable) await persist();
  if (result.save && onlineSession !== null && (result.session ?? payload.session) === onlineSession) {
    await persistOnline();
  }
  return result;
}

// ------------------------------------------------------------- saved game

/** @returns {Promise<IDBDatabase>} */
function openDb() {
  return new Promise((resolve, reject) => {
    const open = indexedDB.open(DB_NAME, 1);
    open.onupgradeneeded = () => open.result.createObjectStore(DB_STORE);
    open.onsuccess = () => resolve(open.result);
    open.onerror = () => reject(open.error);
  });
}

/** @type {Promise<IDBDatabase> | null} */
let dbPromise = null;

/**
 * Run ``action`` on the saves' store in a transaction; resolves to its request's result once committed.
 * @param {IDBTransactionMode} mode
 * @param {(store: IDBObjectStore) => IDBRequest} action
 * @returns {Promise<any>}
 */
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

/** Claim the saves for this tab; resolves to the saved game's entry (undefined if there is none). */
function claimSaves() {
  return withStore("readwrite", (store) => {
    store.put(OWN_MARK, OWNER_KEY);
    return store.get(SAVE_KEY);
  });
}

/**
 * Write (or with ``value`` undefined, delete) one stored game, if this tab still holds the saves;
 * else nothing is written and the page is told ("superseded").
 * @param {string} key
 * @param {unknown} value
 */
async function writeIfMine(key, value) {
  const written = await withStore("readwrite", (store) => {
    const mark = store.get(OWNER_KEY);
    mark.onsuccess = () => {
      if (mark.result !== OWN_MARK) return;
      if (value === undefined) store.delete(key);
      else store.put(value, key);
    };
    return mark;
  });
  if (written !== OWN_MARK) post({ type: "superseded" });
}

// The database opens while the runtime boots (resume() reports a failure).
dbPromise = openDb();
dbPromise.catch(() => {});

/** Store the game in play as the engine saves it. */
async function persist() {
  const saved = call({ cmd: "table_save", table: currentTable });
  if (!saved.ok) return;
  try {
    await writeIfMine(SAVE_KEY, { saved: saved.saved, savedAt: Date.now() });
  } catch (error) {
    post({ type: "warning", message: `The game could not be saved: ${error}` });
  }
}

/** Store the online game in play as the engine saves it (it holds this seat's secret for the match). */
async function persistOnline() {
  const saved = call({ cmd: "peer_save", session: onlineSession });
  if (!saved.ok) return;
  try {
    await writeIfMine(ONLINE_KEY, { saved: saved.saved, savedAt: Date.now() });
  } catch (error) {
    post({ type: "warning", message: `The online game could not be saved: ${error}` });
  }
}

/**
 * Drop a stored game (the game in play, or the online game).
 * @param {string} key
 */
async function forget(key = SAVE_KEY) {
  try {
    await writeIfMine(key, undefined);
  } catch {
    // nothing saved
  }
}

/**
 * A damaged stored game as text, for the page to keep a copy of (it goes with the data export).
 * @param {unknown} entry
 */
function asText(entry) {
  try {
    return JSON.stringify(entry) ?? String(entry);
  } catch {
    return String(entry);
  }
}

/**
 * The stored online game, restored at ``now`` (``resumed``: "restored", "none" or "corrupt").
 * @param {unknown} id
 * @param {number} now the page's clock (ms)
 * @param {unknown} key the identity's private key (the engine signs with it)
 * @returns {Promise<Answer>}
 */
async function resumeOnline(id, now, key) {
  let entry;
  try {
    entry = await withStore("readonly", (store) => store.get(ONLINE_KEY));
  } catch (error) {
    return { v: 1, id, ok: true, resumed: "none", message: `Saved games are not available: ${error}` };
  }
  if (entry === undefined) return { v: 1, id, ok: true, resumed: "none" };
  const restored = call({ cmd: "peer_restore", saved: entry?.saved, key, now });
  if (!restored.ok) {
    await forget(ONLINE_KEY);
    return { v: 1, id, ok: true, resumed: "corrupt", message: restored.error.message, damaged: asText(entry) };
  }
  if (onlineSession !== null) call({ cmd: "peer_close", session: onlineSession });
  onlineSession = restored.session;
  await persistOnline();
  return { ...restored, id, resumed: "restored" };
}

/**
 * The stored game, restored (``status``: "restored", "none" or "corrupt"); this tab claims the saves.
 * @param {unknown} id
 * @returns {Promise<Answer>}
 */
async function resume(id) {
  let entry;
  try {
    entry = await claimSaves();
  } catch (error) {
    return { v: 1, id, ok: true, status: "none", message: `Saved games are not available: ${error}` };
  }
  if (entry === undefined) return { v: 1, id, ok: true, status: "none" };
  // Saves of earlier versions hold {record, meta}; the engine reads both forms.
  const saved =
    entry && typeof entry === "object" ? (entry.saved ?? { record: entry.record, seating: entry.meta }) : null;
  const restored = saved ? call({ cmd: "table_restore", saved }) : null;
  if (!restored?.ok) {
    await forget();
    const why = restored ? restored.error.message : "the saved data is not a game record";
    return { v: 1, id, ok: true, status: "corrupt", message: why, damaged: asText(entry) };
  }
  if (currentTable !== null) call({ cmd: "table_close", table: currentTable });
  currentTable = restored.table;
  return { ...restored, id, status: "restored" };
}

// --------------------------------------------------------------- messages

/**
 * Test mode only: run the browser tests' Python in the engine's interpreter (a test plays a page whose engine
 * was changed, e.g. to cheat); answers the text the code leaves in ``result``.
 * @param {unknown} id
 * @param {unknown} code
 * @returns {Answer}
 */
function testPython(id, code) {
  if (!testRuntime || typeof code !== "string") return refusal(id, "bad_request", "no test runtime, or no code");
  try {
    // A JSON string is a Python string literal too: the code runs in a namespace of its own.
    const result = testRuntime.runPython(
      `_test = {}\nexec(${JSON.stringify(code)}, _test)\nstr(_test.get("result", ""))`,
    );
    return { v: 1, id, ok: true, result: String(result ?? "") };
  } catch (error) {
    return refusal(id, "test_failed", String(error));
  }
}

/** @type {Promise<void>} */
let queue = Promise.resolve();

self.onmessage = (event) => {
  const { id, type, payload } = event.data || {};
  pendingMessages += 1;
  clearTimeout(idleTimer);
  // One message at a time, in arrival order: saves finish before the next request runs.
  queue = queue.then(async () => {
    let result;
    try {
      await booted;
      if (type === "request") result = await answer(id, payload);
      else if (type === "resume") result = await resume(id);
      else if (type === "resume_online") {
        result = await resumeOnline(id, Number(payload?.now) || Date.now(), payload?.key);
      } else if (type === "test_python" && OPTIONS.get("test") === "1") result = testPython(id, payload?.code);
      else result = refusal(id, "bad_request", `unknown message type ${JSON.stringify(type)}`);
    } catch (error) {
      const failure = /** @type {Error} */ (error);
      result = refusal(id, "engine_unavailable", String(failure?.message ? failure.message : failure));
    }
    post({ id, type: "response", ok: Boolean(result.ok), result });
    pendingMessages -= 1;
    armIdle();
  });
};
