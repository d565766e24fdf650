// The engine worker's own messages (web/engine/worker.js), as the page reads them: written by hand, since the
// worker writes them, not the engine (types/engine.d.ts, generated from the engine's Python, re-exports them).

import type { RestoredTable } from "./engine.js";

/** The worker's answer to "resume": the saved game restored, none, or why it could not be. */
export type ResumeAnswer =
  | (RestoredTable & { status: "restored" })
  | { status: "none"; message?: string; view?: undefined }
  | { status: "corrupt"; message: string; damaged: string; view?: undefined };

/** The worker's boot progress: a stage (translation key "boot.stage.<stage>") and how far (0..1). */
export interface Progress {
  type?: "progress";
  stage: string;
  label?: string;
  fraction: number;
}

/** The worker is ready: how it booted, and the build. */
export interface ReadyInfo {
  type: "ready";
  /** "cold" or "snapshot". */
  mode: string;
  runtime: string;
  engine: string;
  build: string;
  timings: Record<string, number>;
  timeOrigin: number;
}

/** A message of the worker that is not an answer: the memory snapshot's fate, the computer player loaded ahead, or a warning. */
export interface Notice {
  type: string;
  status?: string;
  message?: string;
  bytes?: number;
}
