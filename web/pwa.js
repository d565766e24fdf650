// Service worker registration and the "new version available" flow.

/**
 * Register sw.js (relative, so a project sub-path works).
 * onReady(): the site is cached for offline play.
 * onUpdate(apply): a new version is installed; apply() switches to it and reloads.
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
