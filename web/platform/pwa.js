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
 * Register sw.js (relative, so a project sub-path works).
 * onReady(): the site is cached for offline play.
 * onUpdate(apply): a new version is installed; apply() switches to it and reloads.
 * @param {{onReady: () => void, onUpdate: (apply: () => void) => void}} handlers
 */
export async function registerServiceWorker({ onReady, onUpdate }) {
  if (!("serviceWorker" in navigator)) return null;
  let switching = false;
  navigator.serviceWorker.addEventListener("controllerchange", () => {
    // The first install also takes control (clients.claim); only reload when asked to.
    if (switching) window.location.reload();
  });
  const registration = await navigator.serviceWorker.register("sw.js", { scope: "./" });
  const apply = () => {
    if (!registration.waiting) return;
    switching = true;
    registration.waiting.postMessage({ type: "skip-waiting" });
  };
  const offer = () => {
    if (registration.waiting && navigator.serviceWorker.controller) onUpdate(apply);
  };
  registration.addEventListener("updatefound", () => {
    const worker = registration.installing;
    worker?.addEventListener("statechange", () => {
      if (worker.state === "installed") offer();
    });
  });
  offer();
  navigator.serviceWorker.ready.then(() => onReady());
  document.addEventListener("visibilitychange", () => {
    if (document.visibilityState === "visible") registration.update().catch(() => {});
  });
  return registration;
}
