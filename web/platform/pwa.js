// @ts-check
// Service worker registration, the "new version available" flow, and the
// web app manifest.

/**
 * Link the web app manifest (manifest.webmanifest), which makes the site
 * installable. index.html leaves it out and the page links it once the table
 * is playable: a browser that sees the link at once fetches the manifest and
 * decodes its icons to check installability, in the middle of the engine's
 * boot, which on a busy machine costs it CPU it needs.
 */
export function linkManifest() {
  const link = document.createElement("link");
  link.rel = "manifest";
  link.href = "manifest.webmanifest";
  document.head.append(link);
}

/**
 * A new version that takes control (this tab's update button, or another tab's) reloads every tab that
 * runs the old one: its modules still to load would come from the new version. The first install also
 * takes control (clients.claim) of a page that had none: that page keeps running. Called at once on
 * load, also in a tab that waits for the table.
 */
export function reloadIntoNewVersions() {
  if (!("serviceWorker" in navigator)) return;
  let runsAVersion = navigator.serviceWorker.controller !== null;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    if (runsAVersion) window.location.reload();
    runsAVersion = true;
  });
}

/**
 * Register sw.js (relative, so a project sub-path works).
 * onReady(): the site is cached for offline play.
 * onUpdate(apply): a new version is installed; apply() switches to it and reloads.
 * onNotReady(): the first download for offline play failed (the connection went, a file was damaged on
 * the way); it is tried again each time the browser is back online or the page is shown again.
 * @param {{onReady: () => void, onUpdate: (apply: () => void) => void, onNotReady: () => void}} handlers
 */
export async function registerServiceWorker({ onReady, onUpdate, onNotReady }) {
  if (!("serviceWorker" in navigator)) return null;
  const register = () => navigator.serviceWorker.register("sw.js", { scope: "./" });
  let registration = await register();
  // The button always does something: with no version waiting any more (another tab applied it, or a newer one
  // replaced it while installing), a reload takes whatever version is current.
  const apply = () => {
    const waiting = registration.waiting;
    if (waiting) waiting.postMessage({ type: "skip-waiting" });
    else window.location.reload();
  };
  const offer = () => {
    if (registration.waiting && navigator.serviceWorker.controller) onUpdate(apply);
  };
  /** @type {WeakSet<object>} */
  const followed = new WeakSet();
  /** @param {ServiceWorker | null} worker */
  const follow = (worker) => {
    if (!worker || followed.has(worker)) return;
    followed.add(worker);
    worker.addEventListener("statechange", () => {
      if (worker.state === "installed") offer();
      if (worker.state === "redundant" && !registration.active) onNotReady();
    });
  };
  const watch = () => {
    if (!followed.has(registration)) {
      followed.add(registration);
      registration.addEventListener("updatefound", () => follow(registration.installing));
    }
    follow(registration.installing);
  };
  watch();
  offer();
  navigator.serviceWorker.ready.then(() => onReady());
  // After a failed first install the browser has forgotten the registration: register again.
  const retry = async () => {
    try {
      if (registration.active) await registration.update();
      else {
        registration = await register();
        watch();
      }
    } catch {
      // still offline: the next "online" or visit tries again
    }
  };
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") retry();
  });
  window.addEventListener("online", retry);
  return registration;
}
