// The page's modules import each other without a cycle. In a cycle, one
// module of it runs before a module it imports has finished, and meets its
// bindings uninitialised (a ReferenceError, or a value read too early)
// depending on which module the browser reached first. The graph is that
// of the static imports (`import … from`, `export … from`), which the
// browser links and runs before a module's own code. A dynamic `import()`
// is a call made later, once its module has run (boot.js imports app.js
// that way, and the help and the tutorial are loaded on first use), and a
// JSDoc `@import` is a type only; neither is an edge. Every import must
// name a file that exists.

import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";

import { ROOT, WEB } from "./helpers.mjs";

/** The code of a module without its comments (a commented-out or documented import is not one). */
function withoutComments(source) {
  return source.replace(/\/\*[\s\S]*?\*\//g, "").replace(/^\s*\/\/.*$/gm, "");
}

const STATIC = /^\s*(?:import|export)\s+(?:[^"'`;]*?\s+from\s+)?["']([^"']+)["']/gm;
const DYNAMIC = /\bimport\(\s*["']([^"']+)["']\s*\)/g;

/** The modules a module imports statically, and those it imports dynamically (specifiers as written). */
function importsOf(source) {
  const code = withoutComments(source);
  return {
    statics: [...code.matchAll(STATIC)].map((m) => m[1]),
    dynamics: [...code.matchAll(DYNAMIC)].map((m) => m[1]),
  };
}

/** A cycle of ``graph`` (module -> the modules it imports) as [a, b, …, a], or null if it has none. */
function findCycle(graph) {
  const state = new Map(); // module -> "open" (on the current path) or "done"
  const trail = [];
  function visit(node) {
    state.set(node, "open");
    trail.push(node);
    for (const next of graph.get(node) ?? []) {
      if (state.get(next) === "open") return [...trail.slice(trail.indexOf(next)), next];
      if (!state.has(next)) {
        const found = visit(next);
        if (found) return found;
      }
    }
    trail.pop();
    state.set(node, "done");
    return null;
  }
  for (const node of [...graph.keys()].sort()) {
    if (state.has(node)) continue;
    const found = visit(node);
    if (found) return found;
  }
  return null;
}

const names = (await readdir(WEB, { recursive: true }))
  .map((name) => name.split(path.sep).join("/"))
  .filter((name) => name.endsWith(".js"))
  .sort();
const graph = new Map();
const missing = [];
for (const name of names) {
  const { statics, dynamics } = importsOf(await readFile(path.join(WEB, name), "utf8"));
  const resolve = (specifier) => path.posix.normalize(path.posix.join(path.posix.dirname(name), specifier));
  graph.set(name, statics.map(resolve));
  for (const specifier of statics) {
    if (!existsSync(path.join(WEB, resolve(specifier)))) missing.push(`${name}: ${specifier}`);
  }
  // The worker imports Pyodide from pyodide/, online play its bundled packages from vendor/, and boot.js
  // the page's own modules bundled in page/: the build adds them next to the page, and their declarations
  // are in types/site/ (tsconfig's rootDirs).
  for (const specifier of dynamics) {
    const built = path.join(ROOT, "types", "site", resolve(specifier).replace(/\.(m?)js$/, ".d.$1ts"));
    if (!existsSync(path.join(WEB, resolve(specifier))) && !existsSync(built)) {
      missing.push(`${name}: import(${specifier})`);
    }
  }
}

test("the page's modules import one another without a cycle", () => {
  assert.ok(graph.size >= 30, [...graph.keys()].join(" "));
  assert.ok(graph.get("app.js").length >= 5, "app.js's imports were not found");
  const cycle = findCycle(graph);
  assert.equal(cycle, null, `import cycle: ${cycle?.join(" -> ")}`);
});

test("every import names a module that exists", () => {
  assert.deepEqual(missing, []);
});

test("the check finds a cycle, and reads imports as the browser does", () => {
  const cyclic = new Map([
    ["a.js", ["b.js"]],
    ["b.js", ["c.js"]],
    ["c.js", ["a.js", "d.js"]],
    ["d.js", []],
  ]);
  assert.deepEqual(findCycle(cyclic), ["a.js", "b.js", "c.js", "a.js"]);
  assert.equal(findCycle(new Map([...cyclic, ["c.js", ["d.js"]]])), null);
  const source = [
    'import { a,\n  b } from "./a.js";',
    'import "./side-effect.js";',
    'export { c } from "../c.js";',
    '// import { d } from "./commented.js";',
    '/** @import { T } from "./types.js" */',
    'const later = () => import("./lazy.js");',
  ].join("\n");
  assert.deepEqual(importsOf(source), {
    statics: ["./a.js", "./side-effect.js", "../c.js"],
    dynamics: ["./lazy.js"],
  });
});
