// @ts-check
// QR codes of invitation links and answer codes: drawn as SVG (sharp at any
// size) or on a canvas, and read back from a picture, a canvas or the camera.
// qrcode-generator draws, jsQR reads; the build bundles both into vendor/,
// and they load on first use.
//
// Capacity, error correction L (the default here: the codes are shown on a
// screen, not printed on something that wears): an invitation link of about
// 700 characters gives a version 15-18 symbol (77-89 modules); the most a
// symbol holds is 2,953 bytes.

import { OnlineError } from "./errors.js";

const SVG = "http://www.w3.org/2000/svg";
/** The widest picture read (pixels, longer side); larger ones are scaled down first, for speed. */
const READ_MAX_SIDE = 1_280;

/** @typedef {"L" | "M" | "Q" | "H"} ErrorCorrection */
/** @typedef {{modules: boolean[][], size: number, version: number}} Matrix */

/** @type {Promise<typeof import("../vendor/qrcode-generator.mjs").default> | null} */
let generator = null;
/** @type {Promise<typeof import("../vendor/jsqr.mjs").default> | null} */
let reader = null;

/**
 * @template T
 * @param {() => Promise<T>} load
 */
function library(load) {
  return load().catch((error) => {
    throw new OnlineError("unsupported", `the QR library did not load: ${error}`);
  });
}

/**
 * The modules of ``text``'s QR code (encoded as UTF-8 bytes), the smallest version that holds it.
 * Rejects with ``qr_too_long``.
 * @param {string} text
 * @param {ErrorCorrection} [ecl]
 * @returns {Promise<Matrix>}
 */
export async function qrMatrix(text, ecl = "L") {
  generator ??= library(async () => (await import("../vendor/qrcode-generator.mjs")).default);
  const qrcode = await generator;
  // The library writes each character's low byte: give it the UTF-8 bytes one per character.
  const bytes = String.fromCharCode(...new TextEncoder().encode(text));
  const qr = qrcode(0, ecl);
  try {
    qr.addData(bytes, "Byte");
    qr.make();
  } catch (error) {
    throw new OnlineError("qr_too_long", `${bytes.length} bytes: ${error}`);
  }
  const size = qr.getModuleCount();
  const modules = Array.from({ length: size }, (_, row) =>
    Array.from({ length: size }, (_, col) => qr.isDark(row, col)),
  );
  return { modules, size, version: (size - 17) / 4 };
}

/**
 * ``text``'s QR code as an SVG element: one path of dark squares on a light square, with a quiet zone of
 * ``margin`` modules. Its size is set by CSS (viewBox only); ``title`` is read out by screen readers.
 * @param {string} text
 * @param {{ecl?: ErrorCorrection, margin?: number, title?: string, dark?: string, light?: string}} [options]
 */
export async function qrSvg(text, options = {}) {
  const { modules, size, version } = await qrMatrix(text, options.ecl);
  const margin = options.margin ?? 4;
  const side = size + 2 * margin;
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${side} ${side}`);
  svg.setAttribute("shape-rendering", "crispEdges");
  svg.setAttribute("role", "img");
  svg.dataset.qrVersion = String(version);
  if (options.title) {
    const title = document.createElementNS(SVG, "title");
    title.textContent = options.title;
    svg.append(title);
  }
  const background = document.createElementNS(SVG, "rect");
  background.setAttribute("width", String(side));
  background.setAttribute("height", String(side));
  background.setAttribute("fill", options.light ?? "#fff");
  let d = "";
  modules.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) d += `M${x + margin} ${y + margin}h1v1h-1z`;
    });
  });
  const path = document.createElementNS(SVG, "path");
  path.setAttribute("d", d);
  path.setAttribute("fill", options.dark ?? "#000");
  svg.append(background, path);
  return svg;
}

/**
 * Draw ``text``'s QR code on ``canvas`` (resized to fit: ``scale`` pixels a module, ``margin`` modules of
 * quiet zone). Returns the symbol's version.
 * @param {HTMLCanvasElement | OffscreenCanvas} canvas
 * @param {string} text
 * @param {{ecl?: ErrorCorrection, scale?: number, margin?: number}} [options]
 */
export async function drawQr(canvas, text, options = {}) {
  const { modules, size, version } = await qrMatrix(text, options.ecl);
  const scale = Math.max(1, Math.floor(options.scale ?? 4));
  const margin = options.margin ?? 4;
  canvas.width = canvas.height = (size + 2 * margin) * scale;
  const context = /** @type {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null} */ (
    canvas.getContext("2d")
  );
  if (!context) throw new OnlineError("unsupported", "no 2d canvas");
  context.fillStyle = "#fff";
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = "#000";
  modules.forEach((row, y) => {
    row.forEach((dark, x) => {
      if (dark) context.fillRect((x + margin) * scale, (y + margin) * scale, scale, scale);
    });
  });
  return version;
}

/**
 * The pixels of ``source``, scaled down to READ_MAX_SIDE at most.
 * @param {ImageData | CanvasImageSource} source
 * @returns {ImageData}
 */
function pixels(source) {
  if (typeof ImageData !== "undefined" && source instanceof ImageData) return source;
  const image = /** @type {CanvasImageSource} */ (source);
  let width = 0;
  let height = 0;
  if (typeof HTMLVideoElement !== "undefined" && image instanceof HTMLVideoElement) {
    width = image.videoWidth;
    height = image.videoHeight;
  } else if (typeof HTMLImageElement !== "undefined" && image instanceof HTMLImageElement) {
    width = image.naturalWidth || image.width;
    height = image.naturalHeight || image.height;
  } else if ("width" in image && typeof image.width === "number") {
    width = image.width;
    height = /** @type {{height: number}} */ (image).height;
  }
  if (!width || !height) throw new OnlineError("qr_not_found", "the picture is empty");
  const shrink = Math.min(1, READ_MAX_SIDE / Math.max(width, height));
  const w = Math.max(1, Math.round(width * shrink));
  const h = Math.max(1, Math.round(height * shrink));
  const canvas =
    typeof OffscreenCanvas === "function"
      ? new OffscreenCanvas(w, h)
      : Object.assign(document.createElement("canvas"), { width: w, height: h });
  const context = /** @type {CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D | null} */ (
    canvas.getContext("2d", { willReadFrequently: true })
  );
  if (!context) throw new OnlineError("unsupported", "no 2d canvas");
  // A light background: a transparent picture's "empty" pixels would read as black.
  context.fillStyle = "#fff";
  context.fillRect(0, 0, w, h);
  context.drawImage(image, 0, 0, w, h);
  return context.getImageData(0, 0, w, h);
}

/**
 * The text of the QR code in ``source`` (an image, canvas, video frame, bitmap, or ImageData), or null if
 * none is found. The bytes are read as UTF-8.
 * @param {ImageData | CanvasImageSource} source
 * @returns {Promise<string | null>}
 */
export async function readQr(source) {
  reader ??= library(async () => (await import("../vendor/jsqr.mjs")).default);
  const jsQR = await reader;
  const image = pixels(source);
  const found = jsQR(image.data, image.width, image.height, { inversionAttempts: "attemptBoth" });
  if (!found) return null;
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(new Uint8Array(found.binaryData));
  } catch {
    return found.data;
  }
}

/**
 * Read a QR code from the camera into ``video`` (shown to the person while they aim) until one is found
 * (resolves with its text) or ``signal`` is aborted (resolves null). The camera is stopped either way.
 * Rejects with ``camera_unavailable``.
 * @param {HTMLVideoElement} video
 * @param {{signal?: AbortSignal, intervalMs?: number}} [options]
 * @returns {Promise<string | null>}
 */
export async function scanCamera(video, options = {}) {
  const signal = options.signal ?? new AbortController().signal;
  const interval = options.intervalMs ?? 200;
  /** @type {() => void} */
  let wake = () => {};
  const onAbort = () => wake();
  signal.addEventListener("abort", onAbort);
  /** @type {MediaStream} */
  let stream;
  try {
    stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: "environment" }, audio: false });
  } catch (error) {
    signal.removeEventListener("abort", onAbort);
    throw new OnlineError("camera_unavailable", error instanceof Error ? `${error.name}: ${error.message}` : "");
  }
  try {
    video.srcObject = stream;
    video.muted = true;
    video.playsInline = true;
    await video.play();
    while (!signal.aborted) {
      if (video.readyState >= HTMLMediaElement.HAVE_CURRENT_DATA && video.videoWidth) {
        const text = await readQr(video);
        if (text !== null) return text;
      }
      await new Promise((resolve) => {
        const timer = setTimeout(resolve, interval);
        wake = () => {
          clearTimeout(timer);
          resolve(undefined);
        };
      });
    }
    return null;
  } finally {
    signal.removeEventListener("abort", onAbort);
    for (const track of stream.getTracks()) track.stop();
    video.srcObject = null;
  }
}
