// Every JavaScript file of web/ is under the checks, and no list of them is
// kept by hand: each starts with `// @ts-check` (without it tsc would skip
// the file silently), tsconfig.json takes web/**/*.js less the workers,
// tsconfig.worker.json takes the workers (its "files", the one list, which
// tsconfig.json excludes), and Biome takes web/**/*.js. A new module needs
// only the header. tsc itself says which files each project checks.

import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
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

/** The files of web/ that tsc checks in a project, as tsc lists them. */
function checkedBy(project) {
  const tsc = path.join(ROOT, "node_modules", "typescript", "bin", "tsc");
  const out = execFileSync(process.execPath, [tsc, "-p", project, "--listFilesOnly"], { cwd: ROOT, encoding: "utf8" });
  return out
    .split("\n")
    .map((line) => path.relative(ROOT, line.trim()).split(path.sep).join("/"))
    .filter((file) => file.startsWith("web/"))
    .sort();
}

const pageConfig = await jsonc("tsconfig.json");
const workerConfig = await jsonc("tsconfig.worker.json");
const biome = (await jsonc("biome.json")).files.includes;
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

test("the workers are listed once: the page's project excludes exactly the worker project's files", () => {
  assert.deepEqual(workerConfig.files, ["web/engine/worker.js", "web/sw.js"]);
  assert.deepEqual(pageConfig.exclude, workerConfig.files);
  assert.ok(pageConfig.include.includes("web/**/*.js"), "the page's project takes web/ by a glob");
  assert.equal(pageConfig.files, undefined, "no list of the page's modules");
});

test("tsc checks every module of web/ in exactly one project", () => {
  const page = checkedBy("tsconfig.json");
  const worker = checkedBy("tsconfig.worker.json");
  assert.deepEqual(worker, [...workerConfig.files].sort());
  assert.deepEqual(
    page.filter((file) => worker.includes(file)),
    [],
  );
  assert.deepEqual([...page, ...worker].sort(), modules);
});

test("Biome checks every module of web/ by a glob, not a list", () => {
  assert.ok(biome.includes("web/**/*.js"), biome.join(" "));
  assert.deepEqual(
    biome.filter((entry) => entry.startsWith("web/") && entry !== "web/**/*.js"),
    [],
  );
});
