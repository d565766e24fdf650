// The page's modules as build.py bundles them into page/ (web/app.js and all it
// imports): boot.js loads the bundle, which exports nothing.
export {};
