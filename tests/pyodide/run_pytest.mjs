#!/usr/bin/env node
// Run the engine tests with pytest inside real Pyodide (Python 3.14 in
// WebAssembly) under Node, and exit with pytest's exit code.
//
//   node tests/pyodide/run_pytest.mjs                 # all of tests/ except tests/browser/
//   node tests/pyodide/run_pytest.mjs tests/test_smoke.py -x   # any pytest arguments
//   SHARD=0/2 node tests/pyodide/run_pytest.mjs       # every second test from the first: one of two shards
//
// Needs `npm ci` (node_modules/pyodide) and the wheels pinned in
// tests/pyodide/requirements.txt in .cache/pyodide-wheels/; missing wheels are
// fetched by tests/pyodide/fetch_wheels.py (with $PYTHON, default python3).
// Everything is loaded by local path: any network fetch is refused, so
// Pyodide can never fall back to a CDN.
//
// Inside Pyodide: ENGINE_IN_PYODIDE=1 is set (tests scale down slow loops),
// the repository is mounted with NODEFS at its own absolute path and is the
// working directory, nothing is written into it (no bytecode, no pytest
// cache, Hypothesis' database in memory), and Hypothesis runs with
// deadline=None because wall-clock deadlines mean little under WebAssembly.

import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const PYODIDE_DIR = path.join(ROOT, "node_modules", "pyodide");
const WHEEL_DIR = path.join(ROOT, ".cache", "pyodide-wheels");
const REQUIREMENTS = path.join(ROOT, "tests", "pyodide", "requirements.txt");
const FETCH_WHEELS = path.join(ROOT, "tests", "pyodide", "fetch_wheels.py");

// Always: never the browser tests (they need a browser) nor the commands tests (they run
// the README's commands), never write .pytest_cache.
const FIXED_ARGS = ["-p", "no:cacheprovider", "--ignore=tests/browser", "--ignore=tests/commands", "--ignore=tests/cpython"];
const DEFAULT_ARGS = ["tests"];
const INTERNAL_ERROR = 3; // pytest's ExitCode.INTERNAL_ERROR

const seconds = (ms) => `${(ms / 1000).toFixed(2)} s`;
const log = (msg) => process.stderr.write(`[pyodide] ${msg}\n`);

function fail(msg) {
  log(`ERROR: ${msg}`);
  process.exit(INTERNAL_ERROR);
}

// ------------------------------------------------------------------ no network

const realFetch = globalThis.fetch;
globalThis.fetch = async (resource, init) => {
  const url = typeof resource === "string" ? resource : (resource?.url ?? String(resource));
  if (/^(https?|wss?|ftp):/i.test(url)) {
    throw new Error(`run_pytest.mjs refuses network access (${url}): everything must load from local files`);
  }
  return realFetch(resource, init);
};

// ---------------------------------------------------------------------- wheels

const canonical = (name) => name.toLowerCase().replace(/[-_.]+/g, "_");

function requirements() {
  const pins = [];
  fs.readFileSync(REQUIREMENTS, "utf8")
    .split(/\r?\n/)
    .forEach((raw, i) => {
      const line = raw.split("#")[0].trim();
      if (!line) return;
      const m = /^([A-Za-z0-9][A-Za-z0-9._-]*)\s*==\s*([A-Za-z0-9.+!_-]+)$/.exec(line);
      if (!m) fail(`${REQUIREMENTS}:${i + 1}: expected 'name==version', got ${JSON.stringify(raw)}`);
      pins.push([m[1], m[2]]);
    });
  return pins;
}

// Same rule as fetch_wheels.py: right name and version, pure or Emscripten platform tag.
function wheelFits(file, name, version) {
  if (!file.endsWith(".whl")) return false;
  const parts = file.slice(0, -4).split("-");
  if (parts.length !== 5 && parts.length !== 6) return false;
  const [dist, ver] = parts;
  if (canonical(dist) !== canonical(name) || ver !== version) return false;
  return parts[parts.length - 1]
    .split(".")
    .every((p) => p === "any" || /^(pyemscripten|pyodide|emscripten)_/.test(p));
}

function findWheels(pins) {
  const files = fs.existsSync(WHEEL_DIR) ? fs.readdirSync(WHEEL_DIR).sort() : [];
  const found = [];
  const missing = [];
  for (const [name, version] of pins) {
    const file = files.find((f) => wheelFits(f, name, version));
    if (file) found.push(path.join(WHEEL_DIR, file));
    else missing.push(`${name}==${version}`);
  }
  return { found, missing };
}

function localWheels() {
  const pins = requirements();
  let { found, missing } = findWheels(pins);
  if (missing.length) {
    log(`wheels missing from .cache/pyodide-wheels: ${missing.join(", ")}; running fetch_wheels.py`);
    const python = process.env.PYTHON || "python3";
    const run = spawnSync(python, [FETCH_WHEELS], { cwd: ROOT, stdio: ["ignore", "inherit", "inherit"] });
    if (run.error) fail(`could not run ${python} ${FETCH_WHEELS}: ${run.error.message}`);
    ({ found, missing } = findWheels(pins));
    if (missing.length) fail(`still missing wheels: ${missing.join(", ")}`);
  }
  return found;
}

// ------------------------------------------------------------------------ main

const started = performance.now();
if (!fs.existsSync(path.join(PYODIDE_DIR, "pyodide.mjs"))) {
  fail("node_modules/pyodide is missing: run `npm ci` in the repository root");
}
const shard = process.env.SHARD || "0/1";
const shardMatch = /^(\d+)\/(\d+)$/.exec(shard);
if (!shardMatch || Number(shardMatch[1]) >= Number(shardMatch[2])) fail(`SHARD must be i/n with i < n, got ${shard}`);
const wheels = localWheels();
const userArgs = process.argv.slice(2);
const pytestArgs = [...FIXED_ARGS, ...(userArgs.length ? userArgs : DEFAULT_ARGS)];

const writer = (stream) => ({
  write(buf) {
    stream.write(Buffer.from(buf)); // copy: buf is a view into WebAssembly memory
    return buf.length;
  },
});

const { loadPyodide } = await import(pathToFileURL(path.join(PYODIDE_DIR, "pyodide.mjs")).href);
const bootStart = performance.now();
const pyodide = await loadPyodide({
  indexURL: PYODIDE_DIR + path.sep,
  env: {
    ENGINE_IN_PYODIDE: "1",
    PYTHONDONTWRITEBYTECODE: "1",
    HYPOTHESIS_STORAGE_DIRECTORY: "/tmp/hypothesis", // in Pyodide's in-memory file system
    HOME: "/home/pyodide",
  },
});
pyodide.setStdout(writer(process.stdout));
pyodide.setStderr(writer(process.stderr));
const bootMs = performance.now() - bootStart;

const wheelStart = performance.now();
const loadErrors = [];
await pyodide.loadPackage(wheels, {
  messageCallback: () => {},
  errorCallback: (msg) => loadErrors.push(msg),
});
if (loadErrors.length) fail(`loading wheels failed:\n  ${loadErrors.join("\n  ")}`);
const wheelMs = performance.now() - wheelStart;

const { FS } = pyodide;
FS.mkdirTree(ROOT);
FS.mount(FS.filesystems.NODEFS, { root: ROOT }, ROOT);

const importStart = performance.now();
pyodide.globals.set("REPO_ROOT", ROOT);
pyodide.globals.set("PYTEST_ARGS", pyodide.toPy(pytestArgs));
pyodide.globals.set("SHARD", shard);
try {
  pyodide.runPython(`
import os, sys
os.chdir(REPO_ROOT)
sys.path.insert(0, REPO_ROOT)
import pytest


class PyodidePlugin:
    """Hypothesis is imported only once pytest has registered it (so its modules can be assertion-rewritten)."""

    @pytest.hookimpl(tryfirst=True)
    def pytest_configure(self, config):
        import hypothesis

        hypothesis.settings.register_profile("pyodide", deadline=None)
        hypothesis.settings.load_profile("pyodide")

    def pytest_report_header(self, config):
        return f"pyodide: ENGINE_IN_PYODIDE=1, hypothesis profile 'pyodide' (deadline=None), shard {SHARD}"

    def pytest_collection_modifyitems(self, config, items):
        """SHARD=i/n keeps every n-th test from the i-th: the slow files' tests spread over the shards."""
        index, count = map(int, SHARD.split("/"))
        if count > 1:
            config.hook.pytest_deselected(items=[t for k, t in enumerate(items) if k % count != index])
            items[:] = [t for k, t in enumerate(items) if k % count == index]


PYODIDE_PLUGIN = PyodidePlugin()
`);
} catch (e) {
  fail(`setting up Python failed:\n${e}`);
}
const importMs = performance.now() - importStart;
log(`pyodide ${pyodide.version}: boot ${seconds(bootMs)}, wheels ${seconds(wheelMs)}, import pytest ${seconds(importMs)}`);
log(`pytest ${pytestArgs.join(" ")}`);

const testStart = performance.now();
let code;
try {
  code = pyodide.runPython("int(pytest.main(list(PYTEST_ARGS), plugins=[PYODIDE_PLUGIN]))");
} catch (e) {
  fail(`pytest.main raised:\n${e}`);
}
const testMs = performance.now() - testStart;
log(
  `pytest exit code ${code}; timings: boot ${seconds(bootMs)}, wheels ${seconds(wheelMs)}, ` +
    `import pytest ${seconds(importMs)}, tests ${seconds(testMs)}, total ${seconds(performance.now() - started)}`,
);
process.exit(code);
