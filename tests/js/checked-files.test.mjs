// Every JavaScript file of web/ is under the checks, and their lists agree:
// each starts with `// @ts-check` (without it tsc would skip the file
// silently) and is in tsconfig.json (the page's modules) or
// tsconfig.worker.json (the service worker and the engine worker), and Biome
// lints and formats the same files. A new module gets the header and joins
// the lists.

import assert from "node:assert/strict";
import { readdir, readFile } from "node:fs/promises";
import path from "node:path";
import { test } from "node:test";

import { ROOT, WEB } from "./helpers.mjs";

/** A JSON file that may have // comment lines (tsconfig). */
async function jsonc(name) {
  const text = await readFile(path.join(ROOT, name), "utf8");
  return JSON.parse(
    text
      .split("\n")
      .filter((line) => !line.trimStart().startsWith("//"))
      .join("\n"),
  );
}

const page = (await jsonc("tsconfig.json")).files.filter((f) => f.startsWith("web/"));
const worker = (await jsonc("tsconfig.worker.json")).files.filter((f) => f.startsWith("web/"));
const biome = (await jsonc("biome.json")).files.includes.filter((f) => f.startsWith("web/"));
const modules = [];
const headed = [];
// Every module, in web/ and its folders.
for (const name of (await readdir(WEB, { recursive: true })).sort()) {
  if (!name.endsWith(".js")) continue;
  const file = `web/${name.split(path.sep).join("/")}`;
  modules.push(file);
  if ((await readFile(path.join(WEB, name), "utf8")).startsWith("// @ts-check\n")) headed.push(file);
}

test("every module of web/ starts with // @ts-check", () => {
  assert.ok(modules.length >= 30, modules.join(" "));
  assert.deepEqual(headed, modules);
});

test("every file tsc is given starts with // @ts-check, and every such file is given", () => {
  assert.ok(page.length >= 30, page.join(" "));
  assert.deepEqual(worker, ["web/engine/worker.js", "web/sw.js"]);
  assert.deepEqual([...page, ...worker].sort(), headed);
});

test("Biome checks the files tsc checks", () => {
  assert.deepEqual([...biome].sort(), headed);
});
