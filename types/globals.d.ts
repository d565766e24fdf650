// Globals the page's checked JavaScript uses that TypeScript's DOM library
// does not declare. (Types only; nothing here is shipped.)

interface Window {
  /** Safari before 14.1 names its AudioContext so (table/sound.js falls back to it). */
  webkitAudioContext?: typeof AudioContext;
  /** The test hooks, in test mode only (game/test-hooks.js; tests/browser/README.md lists them). */
  __test?: unknown;
}
