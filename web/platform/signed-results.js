// @ts-check
// This player's signed results: the certificate of each online match that
// both players signed (the session's status.certificate), kept in this
// browser so that an open table can attach them and any page work out the
// rating they give (the engine's lobby_open and lobby_rating). The newest
// RESULTS_KEPT are kept, one per match. Damaged storage is handled as the
// other loaders do (damage.js): what can be read is kept, the damaged text
// goes aside with the data export, and the player is told.
//
//   {schema: 1, results: [SignedResult, ...]}   oldest first

import { loadEntry } from "./damage.js";

/** @import { SignedResult } from "../../types/engine.js" */

export const SIGNED_RESULTS_KEY = "sixty-six.signed-results";
export const RESULTS_KEPT = 200;
const FORMAT = "sixty-six/result-1";
/** A result larger than this is not one (four links of a transcript are a few KB). */
const RESULT_TEXT_MAX = 64 * 1024;

/**
 * Does ``value`` look like a signed result (the engine checks the rest)?
 * @param {any} value
 * @returns {value is SignedResult}
 */
function isResult(value) {
  return (
    Boolean(value) &&
    typeof value === "object" &&
    value.format === FORMAT &&
    typeof value.match === "string" &&
    Array.isArray(value.identities) &&
    Array.isArray(value.links) &&
    JSON.stringify(value).length <= RESULT_TEXT_MAX
  );
}

/**
 * Stored data as signed results: the ones that look whole are kept (one per match, the newest RESULTS_KEPT).
 * @param {any} data
 * @returns {{schema: 1, results: SignedResult[]}}
 */
export function validSignedResults(data) {
  const list = data && typeof data === "object" && Array.isArray(data.results) ? data.results : [];
  /** @type {Map<string, SignedResult>} */
  const byMatch = new Map();
  for (const value of list) if (isResult(value) && !byMatch.has(value.match)) byMatch.set(value.match, value);
  return { schema: 1, results: [...byMatch.values()].slice(-RESULTS_KEPT) };
}

/** This player's signed results, oldest first (damage is noted and repaired). @param {Storage} [storage] */
export function signedResults(storage = globalThis.localStorage) {
  return loadEntry(SIGNED_RESULTS_KEY, validSignedResults, storage).results;
}

/**
 * Keep ``result`` (once per match). Returns whether it was new.
 * @param {SignedResult} result
 * @param {Storage} [storage]
 */
export function keepSignedResult(result, storage = globalThis.localStorage) {
  if (!isResult(result)) return false;
  const results = signedResults(storage);
  if (results.some((r) => r.match === result.match)) return false;
  const kept = { schema: 1, results: [...results, result].slice(-RESULTS_KEPT) };
  try {
    storage.setItem(SIGNED_RESULTS_KEY, JSON.stringify(kept));
  } catch {
    return false; // storage full or disabled: not kept
  }
  return true;
}
