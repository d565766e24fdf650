// @ts-check
// One live table per browser: every tab (and installed app window) of the
// site asks for one Web Lock before it touches the saved game. The tab that
// holds it plays; another waits, or takes it over (the lock is stolen, and
// the tab that had it is told at once). The worker's saves carry a mark of
// the tab that claimed them last (engine/worker.js), so a tab that lost the
// lock cannot write over the game either, even while a save is on its way,
// and a browser without Web Locks still has one writer: the last to open.

const LOCK_NAME = "sixty-six.table";

/**
 * @typedef {object} TableLockHandlers
 * @property {() => void} onLost another tab has taken the table over
 */

/** Does this browser have Web Locks? (Not in an insecure context, nor in old browsers.) */
function locks() {
  return typeof navigator !== "undefined" && navigator.locks ? navigator.locks : null;
}

/**
 * Ask for the table: ``"held"`` once this tab has it, ``"busy"`` if another tab has it (nothing is held then).
 * ``steal``: take it from the tab that has it; ``wait``: wait for it instead (``signal`` gives up waiting).
 * @param {TableLockHandlers & {steal?: boolean, wait?: boolean, signal?: AbortSignal}} options
 * @returns {Promise<"held" | "busy">}
 */
export function claimTable({ onLost, steal = false, wait = false, signal }) {
  const manager = locks();
  if (!manager) return Promise.resolve("held");
  /** @type {LockOptions} */
  const options = steal ? { steal: true } : wait ? (signal ? { signal } : {}) : { ifAvailable: true };
  return new Promise((resolve, reject) => {
    manager
      .request(LOCK_NAME, options, (lock) => {
        if (!lock) {
          resolve("busy");
          return undefined;
        }
        resolve("held");
        return new Promise(() => {}); // held until the page goes, or another tab steals it
      })
      .catch((/** @type {unknown} */ error) => {
        // Stolen after it was held (or waiting given up: then the promise has been settled by neither).
        if (error instanceof DOMException && error.name === "AbortError" && !signal?.aborted) onLost();
        reject(error);
      });
  }).catch((error) => {
    if (error instanceof DOMException && error.name === "AbortError") return "busy";
    throw error;
  });
}
