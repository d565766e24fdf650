// The lists of JavaScript files under the checks agree: every page module in
// tsconfig.json (or tsconfig.sw.json) starts with `// @ts-check` (without it
// tsc would skip the file silently), Biome lints and formats the same files,
// and a module with the header is in the lists. A module joins the checks by
// getting the header and being added to the three lists.

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
const worker = (await jsonc("tsconfig.sw.json")).files;
const biome = (await jsonc("biome.json")).files.includes.filter((f) => f.startsWith("web/"));
const headed = [];
// Every module of the page, in web/ and its folders.
for (const name of (await readdir(WEB, { recursive: true })).sort()) {
  if (!name.endsWith(".js")) continue;
  const text = await readFile(path.join(WEB, name), "utf8");
  if (text.startsWith("// @ts-check\n")) headed.push(`web/${name.split(path.sep).join("/")}`);
}

test("every file tsc is given starts with // @ts-check, and every such file is given", () => {
  assert.ok(page.length >= 12, page.join(" "));
  assert.deepEqual(worker, ["web/sw.js"]);
  assert.deepEqual([...page, ...worker].sort(), headed);
});

test("Biome checks the files tsc checks", () => {
  assert.deepEqual([...biome].sort(), headed);
});
