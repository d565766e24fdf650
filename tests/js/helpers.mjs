// Shared set-up of the Node tests of web/ (not a test file itself).
//
// The page's modules expect a browser. The few globals they touch are given
// here as tiny stand-ins, installed by the test files that need them, before
// they import the module under test:
//
// - installDocument(): a document whose elements only record what is set on
//   them (tag, attributes, children, text), enough for code that builds SVG or
//   sets <html lang>;
// - installFileFetch(): fetch() for file: URLs (i18n.js loads web/i18n/*.json
//   relative to itself), optionally refusing some files;
// - MemoryStorage: localStorage in memory.
//
// engine() asks the Python engine itself through its JSON protocol, so the
// tests see exactly the presets, parameters and refusals the page gets.

import { execFileSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
export const WEB = path.join(ROOT, "web");

/** An element that records what is done to it. */
export class FakeElement {
  constructor(tag, namespace = null) {
    this.tagName = tag;
    this.namespaceURI = namespace;
    this.attributes = new Map();
    this.children = [];
    this.textContent = "";
    this.dataset = {};
  }

  setAttribute(name, value) {
    this.attributes.set(name, String(value));
  }

  getAttribute(name) {
    return this.attributes.has(name) ? this.attributes.get(name) : null;
  }

  append(...nodes) {
    this.children.push(...nodes);
  }

  /** Every descendant element (depth first) with this tag name. */
  all(tag) {
    const found = [];
    for (const child of this.children) {
      if (!(child instanceof FakeElement)) continue;
      if (child.tagName === tag) found.push(child);
      found.push(...child.all(tag));
    }
    return found;
  }
}

/** Install a minimal global ``document`` (and return it). */
export function installDocument() {
  const document = {
    documentElement: new FakeElement("html"),
    createElement: (tag) => new FakeElement(tag),
    createElementNS: (namespace, tag) => new FakeElement(tag, namespace),
    createTextNode: (text) => ({ nodeType: 3, textContent: String(text) }),
  };
  globalThis.document = document;
  return document;
}

/**
 * Install a global ``fetch`` that reads file: URLs from disk. The names in
 * ``refused`` (file names such as "ro.json") answer HTTP 404, as a missing
 * file on a server would. Returns the list of URLs asked for.
 */
export function installFileFetch({ refused = [] } = {}) {
  const asked = [];
  globalThis.fetch = async (url) => {
    const target = new URL(url);
    asked.push(target.href);
    if (target.protocol !== "file:") throw new TypeError(`only file: URLs here, not ${target.href}`);
    if (refused.includes(path.basename(target.pathname))) return new Response("", { status: 404 });
    return new Response(await readFile(target, "utf8"), { status: 200 });
  };
  return asked;
}

/** The strings of web/i18n/<language>.json. */
export async function translations(language) {
  return JSON.parse(await readFile(path.join(WEB, "i18n", `${language}.json`), "utf8"));
}

/** localStorage in memory (the Storage interface the page uses). */
export class MemoryStorage {
  constructor(entries = {}) {
    this.map = new Map(Object.entries(entries));
  }

  get length() {
    return this.map.size;
  }

  key(index) {
    return [...this.map.keys()][index] ?? null;
  }

  getItem(key) {
    return this.map.has(key) ? this.map.get(key) : null;
  }

  setItem(key, value) {
    this.map.set(key, String(value));
  }

  removeItem(key) {
    this.map.delete(key);
  }

  clear() {
    this.map.clear();
  }
}

/**
 * The engine's answers to protocol requests (a list of {cmd, ...}), in order,
 * from one Python process ($PYTHON, else python3). A request the engine
 * refuses answers its error object ({code, message, detail?}).
 */
export function engine(requests) {
  const script = [
    "import json, sys",
    "from py_engine.service.protocol import handle",
    "out = []",
    "for request in json.load(sys.stdin):",
    "    answer = json.loads(handle(json.dumps({'v': 1, **request})))",
    "    out.append(answer if answer['ok'] else answer['error'])",
    "json.dump(out, sys.stdout)",
  ].join("\n");
  const output = execFileSync(process.env.PYTHON || "python3", ["-c", script], {
    cwd: ROOT,
    input: JSON.stringify(requests),
    encoding: "utf8",
  });
  return JSON.parse(output);
}

/** Run ``fn`` with console.warn silenced; returns what it returned and the warnings. */
export async function quietly(fn) {
  const warnings = [];
  const warn = console.warn;
  console.warn = (...args) => warnings.push(args);
  try {
    return { value: await fn(), warnings };
  } finally {
    console.warn = warn;
  }
}
