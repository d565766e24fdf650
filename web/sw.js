// @ts-check
// Service worker: precache every file of this build, serve them cache-first.
//
// build.py replaces the placeholder below with the precache manifest
// ({version, files: [{url, sha256, size}]}), so every deploy changes this
// script, which makes the browser install the new version next to the old
// one. The page offers a reload; the new worker then takes over, and the
// old cache is deleted. Each version only ever serves its own cache, so
// old and new files never mix.

/** @typedef {{url: string, sha256: string, size: number}} PrecacheFile */
/** @typedef {{version: string, files: PrecacheFile[]}} PrecacheManifest */

// TypeScript's worker library knows `self` as a plain worker's global scope.
const sw = /** @type {ServiceWorkerGlobalScope} */ (/** @type {unknown} */ (self));
// The string becomes the manifest (an object) in the build.
const MANIFEST = /** @type {PrecacheManifest} */ (/** @type {unknown} */ ("__PRECACHE_MANIFEST__"));
const PREFIX = "sixty-six-precache-";
const CACHE = PREFIX + MANIFEST.version;
const SCOPE = new URL("./", sw.location.href).href;
const INDEX = new URL("index.html", SCOPE).href;
const FILES = new Map(MANIFEST.files.map((file) => [new URL(file.url, SCOPE).href, file]));
const HASH_HEADER = "X-Content-Sha256";
const PARALLEL = 4;
/** @type {Promise<Cache> | null} */
let opened = null; // this version's cache, opened once per start of the worker

/** @param {ArrayBuffer} buffer */
async function sha256(buffer) {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", buffer));
  return Array.from(digest, (b) => b.toString(16).padStart(2, "0")).join("");
}

/**
 * The file from an older version's cache, if its content is unchanged.
 * @param {string} url
 * @param {string} hash
 */
async function fromOlderCache(url, hash) {
  for (const name of await caches.keys()) {
    if (!name.startsWith(PREFIX) || name === CACHE) continue;
    const response = await (await caches.open(name)).match(url);
    if (response && response.headers.get(HASH_HEADER) === hash) return response;
  }
  return null;
}

/**
 * Fetch a file and check it against the manifest; a stale HTTP cache gets one more try.
 * @param {string} url
 * @param {string} hash
 */
async function fetchVerified(url, hash) {
  for (const cache of /** @type {RequestCache[]} */ (["default", "reload"])) {
    const response = await fetch(url, { cache });
    if (!response.ok) throw new Error(`${url}: HTTP ${response.status}`);
    const body = await response.arrayBuffer();
    if ((await sha256(body)) === hash) {
      const type = response.headers.get("Content-Type") || "application/octet-stream";
      return new Response(body, { headers: { "Content-Type": type, [HASH_HEADER]: hash } });
    }
  }
  throw new Error(`${url} does not match this version's manifest (a deploy in progress?)`);
}

async function precache() {
  const cache = await caches.open(CACHE);
  const todo = [...FILES.entries()];
  async function next() {
    while (todo.length) {
      const [url, file] = /** @type {[string, PrecacheFile]} */ (todo.shift()); // todo is not empty
      if (await cache.match(url)) continue;
      const response = (await fromOlderCache(url, file.sha256)) || (await fetchVerified(url, file.sha256));
      await cache.put(url, response);
    }
  }
  await Promise.all(Array.from({ length: PARALLEL }, next));
}

sw.addEventListener("install", (event) => {
  event.waitUntil(precache());
});

sw.addEventListener("activate", (event) => {
  event.waitUntil(
    (async () => {
      for (const name of await caches.keys()) {
        if (name.startsWith(PREFIX) && name !== CACHE) await caches.delete(name);
      }
      await sw.clients.claim();
    })(),
  );
});

sw.addEventListener("message", (event) => {
  if (event.data && event.data.type === "skip-waiting") sw.skipWaiting();
});

sw.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET") return;
  const url = new URL(request.url);
  url.search = "";
  url.hash = "";
  const key = url.href === SCOPE ? INDEX : url.href;
  if (!FILES.has(key)) return;
  event.respondWith(
    (async () => {
      opened ??= caches.open(CACHE);
      const hit = await (await opened).match(key);
      return hit || fetch(request);
    })(),
  );
});
