// The build bundles the npm package trystero (its Nostr strategy, pinned in
// package-lock.json) into vendor/trystero.mjs next to the page (build.py:
// VENDOR); tsconfig.json maps this folder onto the site's (rootDirs), so
// web/online/room.js's import of "../vendor/trystero.mjs" finds the
// package's own declarations here. Types only.
export * from "trystero";
