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
// "save"/"load" from the page, and answers each game by its mode
// (worker-games.js): against the computer, views for seat 0 only and act/
// ai_move observed as seat 0; two players on one device, the seat that has
// something to do; watching, seat 0 with both hands.
//
// Beyond the protocol, the page may send (worker-games.js says what they give):
// new_game with "meta" {mode, ranked, names, levels}; "export_record" {game};
// "import_record" {record} (a game to review, never the saved one);
// "deals" {game} (the deals of a game, no cards); "review_deal" {game, index,
// evaluate?: [seats], budget_ms?}; "close_review" {}.

// The modules this worker needs are imported dynamically, so that the boot's
// other first steps (build.json, the snapshot store, the saved game) start
// at once instead of after both modules have arrived.
// A failed import fails the boot where it is awaited (with a message to the page).
const runtimeModule = import("./pyodide/pyodide.mjs");
runtimeModule.catch(() => {});
// The runtime's own script (1.25 MB) too: loadPyodide would fetch and compile
// it only after its other first steps; it is handed over (runtimeOptions).
const runtimeScript = import("./pyodide/pyodide.asm.mjs");
runtimeScript.catch(() => {});
let games = null; // worker-games.js, loaded while the runtime boots (before any message is answered)
const gamesLoaded = import("./worker-games.js").then((module) => {
  games = module;
});
gamesLoaded.catch(() => {});

const BASE = new URL("./", import.meta.url);
const INDEX_URL = new URL("pyodide/", BASE).href;
const OPTIONS = new URL(self.location.href).searchParams;
const SNAPSHOT_CACHE = "sixty-six-snapshot";
const DB_NAME = "sixty-six";
const DB_STORE = "saves";
const SAVE_KEY = "current";
// The engine is imported straight from its wheel (zipimport): nothing is
// extracted, and after a snapshot restore only this one file is put back.
const WHEEL_PATH = "/opt/sixty-six/engine.whl";
// Work that can wait (storing the snapshot) runs once no message has come for this long.
const IDLE_MS = 500;

const t0 = performance.now();
const timings = {}; // milliseconds since the worker started, by boot stage (sent with "ready")
let handleFn = null; // the Python function py_engine.protocol.handle
let currentGame = null; // the handle of the game that is saved after each change
let bootMode = "cold";
let runtimeVersion = ""; // Pyodide's version, known once its module has loaded

function post(message) {
  self.postMessage(message);
}

function mark(stage) {
  timings[stage] = Math.round(performance.now() - t0);
}

function progress(stage, label, fraction) {
  mark(stage);
  post({ type: "progress", stage, label, fraction });
}

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

function snapshotName(info) {
  return `${runtimeVersion}-${info.wheel_sha256.slice(0, 16)}.bin`;
}

function snapshotUrl(info) {
  return new URL(`__snapshot__/${snapshotName(info)}`, BASE).href;
}

/** Where snapshots live here: {folder} (the file system), {cache} (Cache Storage) or {} (nowhere). */
async function openSnapshotStore() {
  if (OPTIONS.get("snapshot") === "0") return {};
  const syncFiles =
    typeof FileSystemFileHandle !== "undefined" && "createSyncAccessHandle" in FileSystemFileHandle.prototype;
  if (syncFiles && self.navigator?.storage?.getDirectory) {
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

/** This build's stored snapshot, found now and read later: {read(): Promise<Uint8Array>}, or null. */
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

async function storeSnapshot(store, info, bytes) {
  try {
    if (store.folder) {
      await writeSnapshotFile(store.folder, snapshotName(info), bytes);
    } else {
      const url = snapshotUrl(info);
      for (const request of await store.cache.keys()) {
        if (request.url !== url) await store.cache.delete(request);
      }
      await store.cache.put(url, new Response(bytes, { headers: { "Content-Type": "application/octet-stream" } }));
    }
    post({ type: "snapshot", status: "stored", bytes: bytes.byteLength });
  } catch (error) {
    post({ type: "snapshot", status: "failed", message: String(error) });
  }
}

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
import py_engine.protocol
`;

/** loadPyodide's options for this site: its files, and the runtime script already loading. */
function runtimeOptions(more) {
  return {
    indexURL: INDEX_URL,
    createPyodideModule: async (settings) => (await runtimeScript).default(settings),
    ...more,
  };
}

function writeWheel(pyodide, wheel) {
  pyodide.FS.mkdirTree(WHEEL_PATH.slice(0, WHEEL_PATH.lastIndexOf("/")));
  pyodide.FS.writeFile(WHEEL_PATH, wheel);
}

async function coldBoot(loadPyodide, wheelPromise, makeSnapshot) {
  progress("runtime", "Loading the Python runtime (about 13 MB on the first visit)", 0.15);
  const pyodide = await watched(loadPyodide(runtimeOptions({ _makeSnapshot: makeSnapshot })));
  progress("engine", "Installing the rules engine", 0.8);
  writeWheel(pyodide, await wheelPromise);
  pyodide.runPython(INSTALL_ENGINE);
  mark("installed");
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

async function restore(loadPyodide, found, wheelPromise) {
  progress("restore", "Restoring the engine", 0.5);
  // The snapshot is read once Pyodide has begun to fetch its runtime (a task later).
  const bytes = new Promise((resolve) => setTimeout(resolve, 0)).then(() => found.read());
  bytes.then(() => mark("snapshotRead"), () => {});
  const pyodide = await watched(loadPyodide(runtimeOptions({ _loadSnapshot: bytes })));
  mark("restored");
  // Modules imported before the snapshot live in it; the wheel file does not.
  // Put it back where sys.path expects it, for modules imported later.
  writeWheel(pyodide, await wheelPromise);
  return pyodide;
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
  const protocol = pyodide.pyimport("py_engine.protocol");
  handleFn = protocol.handle.copy();
  const warmUp = protocol.warm_up.copy();
  protocol.destroy();
  await gamesLoaded;
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
    } catch (error) {
      post({ type: "warning", message: `The computer player could not be loaded ahead: ${error}` });
    } finally {
      warmUp.destroy();
    }
  });
}

const booted = boot();
booted.catch((error) => {
  post({ type: "fatal", message: `The game engine could not start: ${error && error.message ? error.message : error}` });
});

// ------------------------------------------------------------------ idle

let pendingMessages = 0; // received and not answered yet
let idleTasks = [];
let idleTimer = null;

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

function call(request) {
  return JSON.parse(handleFn(JSON.stringify({ v: 1, ...request })));
}

function refusal(id, code, message) {
  return { v: 1, id, ok: false, error: { code, message } };
}

const metas = new Map(); // game handle -> its meta (worker-games.js)
let reviewGame = null; // the handle of an imported record, if any (never saved)

function metaOf(game) {
  return metas.get(game) || games.cleanMeta(null);
}

function gameFor(payload) {
  const game = payload.game;
  if (typeof game !== "string" || (game !== currentGame && game !== reviewGame)) return null;
  return game;
}

/** The worker's own commands (records and review): answered here, never passed to the engine as they are. */
function records(id, payload) {
  const cmd = payload.cmd;
  if (cmd === "import_record") {
    const loaded = call({ cmd: "load", record: payload.record, id });
    if (!loaded.ok) return loaded;
    if (reviewGame !== null) call({ cmd: "close_game", game: reviewGame });
    reviewGame = loaded.game;
    const players = payload.record && typeof payload.record === "object" ? payload.record.players : null;
    metas.set(reviewGame, games.cleanMeta(players));
    return { v: 1, id, ok: true, game: reviewGame, meta: metaOf(reviewGame), deals: dealsOf(reviewGame) };
  }
  if (cmd === "close_review") {
    if (reviewGame !== null) call({ cmd: "close_game", game: reviewGame });
    reviewGame = null;
    return { v: 1, id, ok: true };
  }
  const game = gameFor(payload);
  if (game === null) return refusal(id, "unknown_game", "no such game here");
  if (cmd === "deals") return { v: 1, id, ok: true, meta: metaOf(game), deals: dealsOf(game) };
  if (cmd === "export_record") {
    const view = call({ cmd: "view", game, seat: 0 }).view;
    const record = games.exportable(
      call({ cmd: "save", game }).record,
      { dealOver: Boolean(view.deal_result), finished: Boolean(view.game_over) },
      metaOf(game),
    );
    if (!record) return refusal(id, "nothing_finished", "no deal of this game is finished yet");
    return { v: 1, id, ok: true, record };
  }
  // review_deal
  const index = payload.index;
  const record = call({ cmd: "save", game }).record;
  if (!Number.isInteger(index) || index < 0 || index >= record.deals.length) {
    return refusal(id, "bad_request", `no deal ${index} in this game`);
  }
  const scratch = call({ cmd: "load", record: games.recordUpTo(record, index) });
  if (!scratch.ok) return { ...scratch, id };
  try {
    const seats = Array.isArray(payload.evaluate) ? payload.evaluate.filter((s) => s === 0 || s === 1) : [];
    // The scratch game's last deal is the one asked for (the engine refuses it while it is in play).
    const deal = scratch.view.match.deal_number;
    const base = { cmd: "review", game: scratch.game, deal, budget_ms: payload.budget_ms, seed: 0 };
    const answers = seats.length ? seats.map((seat) => call({ ...base, evaluate: seat })) : [call(base)];
    const failed = answers.find((answer) => !answer.ok);
    if (failed) return { ...failed, id };
    return { v: 1, id, ok: true, review: games.mergeReviews(answers.map((answer) => answer.review)), meta: metaOf(game) };
  } finally {
    call({ cmd: "close_game", game: scratch.game });
  }
}

function dealsOf(game) {
  const view = call({ cmd: "view", game, seat: 0 }).view;
  return games.dealList(call({ cmd: "save", game }).record, Boolean(view.deal_result));
}

const RECORD_COMMANDS = new Set(["import_record", "close_review", "deals", "export_record", "review_deal"]);

async function answer(id, payload) {
  if (!payload || typeof payload !== "object" || typeof payload.cmd !== "string") {
    return refusal(id, "bad_request", "a request needs a 'cmd'");
  }
  const cmd = payload.cmd;
  if (cmd === "save" || cmd === "load") {
    return refusal(id, "bad_request", `'${cmd}' is handled inside the worker; the page never sees a record`);
  }
  if (RECORD_COMMANDS.has(cmd)) return records(id, payload);
  if (cmd === "new_game") {
    const { meta, ...rest } = payload;
    const result = call({ ...rest, id });
    if (!result.ok) return result;
    if (currentGame !== null) {
      call({ cmd: "close_game", game: currentGame });
      metas.delete(currentGame);
    }
    currentGame = result.game;
    metas.set(currentGame, games.cleanMeta(meta));
    await persist();
    return { ...games.decorate(payload, result, metaOf(currentGame), currentGame, call), meta: metaOf(currentGame) };
  }
  if (cmd === "review" && gameFor(payload) === null) return refusal(id, "unknown_game", "no such game here");
  const meta = metaOf(payload.game);
  const gated = games.gate(payload, meta, call);
  if (gated.refused) return { v: 1, id, ...gated.refused };
  const request = { ...gated.request, id };
  if (cmd === "undo" && payload.game === currentGame) {
    const why = games.undoAllowed(call({ cmd: "save", game: currentGame }).record, payload.seat, call({ cmd: "view", game: currentGame, seat: 0 }).view);
    if (why) return refusal(id, "illegal_action", why);
  }
  const result = call(request);
  if (result.ok) {
    if ((cmd === "act" || cmd === "ai_move" || cmd === "undo") && request.game === currentGame) {
      await persist();
    } else if (cmd === "close_game" && request.game === currentGame) {
      currentGame = null;
      metas.delete(request.game);
      await forget();
    }
  }
  return games.decorate(payload, result, meta, request.game, call);
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

/** The saved game's entry in the database (undefined if there is none). */
function readSave() {
  return withStore("readonly", (store) => store.get(SAVE_KEY));
}

// The saved game is read while the runtime boots; resume() takes this read
// unless something was saved or deleted since.
let earlySave = readSave();
earlySave.catch(() => {}); // resume() reports a failure

async function persist() {
  earlySave = null;
  const saved = call({ cmd: "save", game: currentGame });
  if (!saved.ok) return;
  try {
    const entry = { record: saved.record, meta: metaOf(currentGame), savedAt: Date.now() };
    await withStore("readwrite", (store) => store.put(entry, SAVE_KEY));
  } catch (error) {
    post({ type: "warning", message: `The game could not be saved: ${error}` });
  }
}

async function forget() {
  earlySave = null;
  try {
    await withStore("readwrite", (store) => store.delete(SAVE_KEY));
  } catch {
    // nothing saved
  }
}

async function resume(id) {
  let saved;
  try {
    const early = earlySave;
    earlySave = null;
    saved = await (early ?? readSave());
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
  const meta = games.cleanMeta(saved.meta);
  metas.set(currentGame, meta);
  // A game for two opens on the hand-over screen: the page asks for a seat's view itself.
  const shown = games.decorate({ cmd: "new_game" }, loaded, meta, currentGame, call);
  return { v: 1, id, ok: true, status: "restored", game: loaded.game, view: shown.view, handover: shown.handover, meta };
}

// --------------------------------------------------------------- messages

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
      else result = refusal(id, "bad_request", `unknown message type ${JSON.stringify(type)}`);
    } catch (error) {
      result = refusal(id, "engine_unavailable", String(error && error.message ? error.message : error));
    }
    post({ id, type: "response", ok: Boolean(result.ok), result });
    pendingMessages -= 1;
    armIdle();
  });
};
