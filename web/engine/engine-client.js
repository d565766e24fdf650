// @ts-check
// A small promise-based client for the engine worker (engine/worker.js).
//
// request(payload) sends one protocol request and resolves with the
// engine's response object (ok: true) or rejects with an EngineError
// carrying the protocol's error code. Requests wait for the worker to be
// ready; a request that gets no answer in time rejects with code "timeout".
// The worker is usually already running: boot.js starts it early.

import { adoptEngineWorker, moduleWorkerOptions } from "../boot.js";

/**
 * @import { Answers, Command, Notice, Progress, ReadyInfo, Request, ResumeAnswer, RulesErrorDetail }
 *   from "../../types/engine.js"
 */
/**
 * What the page hears from the worker: its progress, readiness, failure
 * (``key``: a translation key for the player, if any), its other notices,
 * and (tests) every message as it came.
 * @typedef {{
 *   onProgress?: (progress: Progress) => void,
 *   onReady?: (info: ReadyInfo) => void,
 *   onFatal?: (message: string, key?: string) => void,
 *   onNotice?: (notice: Notice) => void,
 *   onMessage?: ((message: unknown) => void) | undefined,
 * }} Handlers
 */
/** @typedef {{resolve: (result: any) => void, reject: (error: EngineError) => void, timer: ReturnType<typeof setTimeout>}} Pending */

export class EngineError extends Error {
  /**
   * ``detail``: the engine's particulars of some errors, e.g. bad_rules' {reason, values}.
   * @param {string} code
   * @param {string} message
   * @param {RulesErrorDetail | null} [detail]
   */
  constructor(code, message, detail = null) {
    super(message);
    this.name = "EngineError";
    this.code = code;
    this.detail = detail;
  }
}

export class EngineClient {
  /**
   * @param {URL|string} url the worker script
   * @param {Handlers} handlers
   */
  constructor(url, handlers = {}) {
    this.handlers = handlers;
    this.nextId = 1;
    /** @type {Map<number, Pending>} */
    this.pending = new Map();
    /** @type {ReadyInfo | null} */
    this.info = null;
    /** @type {string | null} */
    this.failed = null;
    /** @type {Promise<ReadyInfo>} */
    this.ready = new Promise((resolve, reject) => {
      /** @type {(info: ReadyInfo) => void} */
      this._resolveReady = resolve;
      /** @type {(error: EngineError) => void} */
      this._rejectReady = reject;
    });
    this.ready.catch(() => {}); // reported through onFatal
    const early = adoptEngineWorker(url);
    if (early) {
      this._listen(early.worker);
      for (const message of early.messages) this._onMessage(message);
      if (early.error !== null) this._failedToLoad(early.error);
      return;
    }
    const { options, probe } = moduleWorkerOptions();
    let worker;
    try {
      worker = new Worker(url, options);
    } catch (error) {
      this._fail(`The game engine could not be started: ${/** @type {Error} */ (error).message || error}`);
      return;
    }
    if (!probe.supported) {
      worker.terminate();
      this._fail("this browser cannot run module workers", "boot.noModuleWorkers");
      return;
    }
    this._listen(worker);
  }

  /** @param {Worker} worker */
  _listen(worker) {
    /** @type {Worker | undefined} */
    this.worker = worker;
    worker.onmessage = (event) => this._onMessage(event.data);
    worker.onerror = (event) => {
      event.preventDefault();
      this._failedToLoad(event.message);
    };
  }

  /** @param {string} message */
  _failedToLoad(message) {
    this._fail(`The game engine failed to load${message ? `: ${message}` : "."}`);
  }

  /**
   * The engine cannot run: ``message`` says why (technical); ``key`` is a translation key for the player, if any.
   * @param {string} message
   * @param {string} [key]
   */
  _fail(message, key) {
    if (this.failed) return;
    this._end(message);
    this.handlers.onFatal?.(message, key);
  }

  /**
   * Stop the engine for good (another tab plays now): its worker ends, what was asked fails with ``why``.
   * @param {string} why
   */
  stop(why) {
    this.worker?.terminate();
    this._end(why);
  }

  /** @param {string} why */
  _end(why) {
    this.failed ||= why;
    const error = new EngineError("engine_unavailable", why);
    this._rejectReady(error);
    for (const { reject, timer } of this.pending.values()) {
      clearTimeout(timer);
      reject(error);
    }
    this.pending.clear();
  }

  /**
   * A message from the worker: a report, or the answer to a request.
   * @param {any} message as the worker sent it
   */
  _onMessage(message) {
    this.handlers.onMessage?.(message);
    if (!message || typeof message !== "object") return;
    switch (message.type) {
      case "progress":
        this.handlers.onProgress?.(message);
        return;
      case "ready":
        this.info = message;
        this._resolveReady(message);
        this.handlers.onReady?.(message);
        return;
      case "fatal":
        this._fail(message.message);
        return;
      case "response": {
        const entry = this.pending.get(message.id);
        if (!entry) return;
        this.pending.delete(message.id);
        clearTimeout(entry.timer);
        if (message.ok) entry.resolve(message.result);
        else {
          const error = message.result?.error || { code: "unknown", message: "no answer" };
          entry.reject(new EngineError(error.code, error.message, error.detail ?? null));
        }
        return;
      }
      default:
        this.handlers.onNotice?.(message);
    }
  }

  /**
   * @param {string} type
   * @param {Request | undefined} payload
   * @param {number} timeoutMs
   * @returns {Promise<any>}
   */
  _send(type, payload, timeoutMs) {
    return this.ready.then(
      () =>
        new Promise((resolve, reject) => {
          const id = this.nextId++;
          const timer = setTimeout(() => {
            this.pending.delete(id);
            reject(new EngineError("timeout", `the engine did not answer within ${Math.round(timeoutMs / 1000)} s`));
          }, timeoutMs);
          this.pending.set(id, { resolve, reject, timer });
          /** @type {Worker} */ (this.worker).postMessage({ id, type, payload }); // ready: there is one
        }),
    );
  }

  /**
   * One protocol request, e.g. {cmd: "table_act", table, seat: 0, action: "play:QH"}.
   * @template {Command} C
   * @param {Request<C>} payload
   * @param {{timeoutMs?: number}} [options]
   * @returns {Promise<Answers[C]>}
   */
  request(payload, { timeoutMs = 15000 } = {}) {
    return this._send("request", payload, timeoutMs);
  }

  /**
   * The saved game, if the worker has one: {status: "none" | "restored" | "corrupt", game?, view?, message?,
   * damaged?} (``damaged``: the damaged save as text, which the worker has dropped).
   * This tab claims the saves: a save of another tab is refused from then on.
   * @param {{timeoutMs?: number}} [options]
   * @returns {Promise<ResumeAnswer>}
   */
  resume({ timeoutMs = 15000 } = {}) {
    return this._send("resume", undefined, timeoutMs);
  }

  /**
   * The saved online game, if the worker has one, restored at ``now``: {resumed, session?, ...its answer}
   * (``resumed: "corrupt"``: ``damaged``, the damaged save as text, which the worker has dropped).
   * @param {number} now the page's clock (ms)
   * @param {string} key the identity's private key (the engine signs with it)
   * @returns {Promise<any>}
   */
  resumeOnline(now, key) {
    return this._send("resume_online", /** @type {any} */ ({ now, key }), 15000);
  }

  /**
   * Test mode only (?test=1): run Python in the engine's interpreter; resolves to what it left in ``result``.
   * @param {string} code
   * @returns {Promise<string>}
   */
  testPython(code) {
    return this._send("test_python", /** @type {any} */ ({ code }), 60000).then((answer) => answer.result);
  }
}
