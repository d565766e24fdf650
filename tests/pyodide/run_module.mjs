#!/usr/bin/env node
// Run `python -m MODULE ARGS...` inside real Pyodide under Node, with the
// repository mounted and on sys.path; exit with the module's exit status.
//
//   node tests/pyodide/run_module.mjs lab.bench --runs 3
//
// Used by `python -m lab.bench --pyodide` to print CPython and Pyodide
// figures side by side. Needs `npm ci`; loads nothing from the network.

import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const PYODIDE_DIR = path.join(ROOT, "node_modules", "pyodide");
const [moduleName, ...args] = process.argv.slice(2);
if (!moduleName) {
  process.stderr.write("usage: node tests/pyodide/run_module.mjs MODULE [ARGS...]\n");
  process.exit(2);
}
if (!fs.existsSync(path.join(PYODIDE_DIR, "pyodide.mjs"))) {
  process.stderr.write("node_modules/pyodide is missing: run `npm ci` in the repository root\n");
  process.exit(2);
}
const writer = (stream) => ({
  write(buf) {
    stream.write(Buffer.from(buf));
    return buf.length;
  },
});
const { loadPyodide } = await import(pathToFileURL(path.join(PYODIDE_DIR, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: PYODIDE_DIR + path.sep, env: { PYTHONDONTWRITEBYTECODE: "1" } });
pyodide.setStdout(writer(process.stdout));
pyodide.setStderr(writer(process.stderr));
pyodide.FS.mkdirTree(ROOT);
pyodide.FS.mount(pyodide.FS.filesystems.NODEFS, { root: ROOT }, ROOT);
pyodide.globals.set("REPO_ROOT", ROOT);
pyodide.globals.set("MODULE", moduleName);
pyodide.globals.set("ARGS", pyodide.toPy(args));
const code = pyodide.runPython(`
import os, runpy, sys
os.chdir(REPO_ROOT)
sys.path.insert(0, REPO_ROOT)
sys.argv = [MODULE, *ARGS]
try:
    runpy.run_module(MODULE, run_name="__main__", alter_sys=True)
    status = 0
except SystemExit as e:
    status = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
status
`);
process.exit(code);
