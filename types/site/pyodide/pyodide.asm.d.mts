// Pyodide's own runtime script (the build copies it to pyodide/pyodide.asm.mjs):
// the engine worker starts loading it early and hands its factory to
// loadPyodide (see pyodide.d.mts). Types only.

/** Make the runtime's WebAssembly module with loadPyodide's settings. */
declare function createPyodideModule(settings: object): Promise<unknown>;
export default createPyodideModule;
