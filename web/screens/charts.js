// @ts-check
// Two small SVG charts drawn by hand: a line (the rating over time) and
// horizontal stacked bars (results per rule set). Colours come from the
// stylesheet (classes chart-*); the words come from the caller.

const SVG = "http://www.w3.org/2000/svg";

/**
 * @param {string} tag
 * @param {Record<string, string | number>} [attrs]
 * @param {string} [text]
 */
function el(tag, attrs = {}, text = "") {
  const node = document.createElementNS(SVG, tag);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text) node.textContent = text;
  return node;
}

/**
 * @param {number} width
 * @param {number} height
 * @param {string} label
 */
function frame(width, height, label) {
  const svg = el("svg", { viewBox: `0 0 ${width} ${height}`, role: "img", "aria-label": label, class: "chart" });
  svg.append(el("title", {}, label));
  return svg;
}

const round1 = (/** @type {number} */ x) => Math.round(x * 10) / 10;

/**
 * A line chart of ``values`` (at least one), evenly spaced left to right.
 * ``marks``: [{value, label}] dashed reference lines (shown when inside the range).
 * ``dots``: per value, an extra class for its dot ("won"/"lost"), or null.
 * @param {{values: number[], marks?: {value: number, label: string}[], dots?: (string | null)[], label: string}} chart
 * @returns {SVGElement}
 */
export function lineChart({ values, marks = [], dots = [], label }) {
  const width = 320;
  const height = 160;
  const pad = { left: 40, right: 8, top: 10, bottom: 18 };
  let low = Math.min(...values);
  let high = Math.max(...values);
  if (high - low < 100) {
    const middle = (high + low) / 2;
    low = middle - 50;
    high = middle + 50;
  }
  low = Math.floor(low / 50) * 50;
  high = Math.ceil(high / 50) * 50;
  const x = (/** @type {number} */ i) =>
    round1(pad.left + (values.length === 1 ? 0 : (i * (width - pad.left - pad.right)) / (values.length - 1)));
  const y = (/** @type {number} */ v) =>
    round1(pad.top + ((high - v) * (height - pad.top - pad.bottom)) / (high - low));
  const svg = frame(width, height, label);
  svg.append(
    el("rect", {
      x: pad.left,
      y: pad.top,
      width: width - pad.left - pad.right,
      height: height - pad.top - pad.bottom,
      class: "chart-area",
    }),
  );
  for (const v of [low, high]) {
    svg.append(el("text", { x: pad.left - 4, y: y(v) + 4, class: "chart-axis", "text-anchor": "end" }, String(v)));
  }
  for (const mark of marks) {
    if (mark.value <= low || mark.value >= high) continue;
    svg.append(
      el("line", { x1: pad.left, x2: width - pad.right, y1: y(mark.value), y2: y(mark.value), class: "chart-mark" }),
    );
    svg.append(
      el(
        "text",
        { x: width - pad.right - 2, y: y(mark.value) - 3, class: "chart-mark-label", "text-anchor": "end" },
        mark.label,
      ),
    );
  }
  const path = values.map((v, i) => `${i ? "L" : "M"}${x(i)} ${y(v)}`).join(" ");
  svg.append(el("path", { d: path, class: "chart-line" }));
  values.forEach((v, i) => {
    if (dots[i]) svg.append(el("circle", { cx: x(i), cy: y(v), r: 3, class: `chart-dot ${dots[i]}` }));
  });
  return svg;
}

/**
 * Horizontal bars, one per row: {label, parts: [{value, kind}]} stacked left
 * to right, with the numbers written in each part wide enough to hold them.
 * @param {{rows: {label: string, parts: {value: number, kind: string}[]}[], label: string}} chart
 * @returns {SVGElement}
 */
export function barChart({ rows, label }) {
  const width = 320;
  const rowHeight = 26;
  const labelWidth = 110;
  const height = rows.length * rowHeight + 4;
  const longest = Math.max(1, ...rows.map((r) => r.parts.reduce((s, p) => s + p.value, 0)));
  const scale = (width - labelWidth - 8) / longest;
  const svg = frame(width, height, label);
  rows.forEach((row, i) => {
    const top = 2 + i * rowHeight;
    const text = el("text", { x: labelWidth - 6, y: top + 16, class: "chart-axis", "text-anchor": "end" }, row.label);
    svg.append(text);
    let left = labelWidth;
    for (const part of row.parts) {
      if (part.value <= 0) continue;
      const w = round1(part.value * scale);
      svg.append(el("rect", { x: left, y: top + 2, width: w, height: rowHeight - 6, class: `chart-bar ${part.kind}` }));
      if (w >= 14)
        svg.append(
          el(
            "text",
            { x: round1(left + w / 2), y: top + 17, class: "chart-bar-label", "text-anchor": "middle" },
            String(part.value),
          ),
        );
      left += w;
    }
  });
  return svg;
}
