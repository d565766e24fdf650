// What the engine worker (web/engine/worker.js) uses of Pyodide's runtime
// module, which the build copies to pyodide/pyodide.mjs (from the npm
// package pinned in package-lock.json). tsconfig.worker.json maps this
// folder onto the site's (rootDirs), so the worker's import of
// "../pyodide/pyodide.mjs" finds these declarations. Types only.

/** A Python function seen from JavaScript: call it, keep a copy of it, free it. */
export interface PyProxy {
  // biome-ignore lint/suspicious/noExplicitAny: what comes back is the function's (py_engine.service.protocol.handle: a JSON string)
  (...args: unknown[]): any;
  /** A copy that stays valid after the original is freed. */
  copy(): PyProxy;
  destroy(): void;
}

/** A Python module seen from JavaScript: its functions, and freeing it. */
export type PyModule = { destroy(): void } & Record<string, PyProxy>;

/** A running Python interpreter. */
export interface PyodideInterface {
  FS: {
    mkdirTree(path: string): void;
    writeFile(path: string, data: Uint8Array): void;
  };
  runPython(code: string): unknown;
  pyimport(name: string): PyModule;
  /** The interpreter's memory, to restore it later (loadPyodide's _loadSnapshot). */
  makeMemorySnapshot(): Uint8Array<ArrayBuffer>;
}

/** loadPyodide's options as the worker gives them: its files' URL, the runtime's factory, and the snapshot's. */
export interface LoadOptions {
  indexURL: string;
  createPyodideModule?: (settings: object) => Promise<unknown>;
  _makeSnapshot?: boolean;
  _loadSnapshot?: Promise<Uint8Array>;
}

/** Pyodide's version, e.g. "0.28.0". */
export const version: string;

/** Start an interpreter. */
export function loadPyodide(options: LoadOptions): Promise<PyodideInterface>;
export type LoadPyodide = typeof loadPyodide;
