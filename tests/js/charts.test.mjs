// web/screens/charts.js under Node, on a document whose elements only record what is
// set on them: the scales, the SVG geometry and the words of both charts.

import assert from "node:assert/strict";
import { test } from "node:test";

import { installDocument } from "./helpers.mjs";

installDocument();
const { barChart, lineChart } = await import("../../web/screens/charts.js");

const SVG = "http://www.w3.org/2000/svg";
const attrs = (node) => Object.fromEntries(node.attributes);

test("a line chart: frame, title, scale rounded to 50 and at least 100 wide", () => {
  const svg = lineChart({ values: [1200, 1216, 1200], label: "Rating from 1200 to 1200" });
  assert.equal(svg.namespaceURI, SVG);
  assert.deepEqual(attrs(svg), {
    viewBox: "0 0 320 160",
    role: "img",
    "aria-label": "Rating from 1200 to 1200",
    class: "chart",
  });
  assert.equal(svg.children[0].tagName, "title");
  assert.equal(svg.children[0].textContent, "Rating from 1200 to 1200");
  const [area] = svg.all("rect");
  assert.deepEqual(attrs(area), { x: "40", y: "10", width: "272", height: "132", class: "chart-area" });
  // 1200..1216 is widened to 1158..1258 round its middle, then to 1150..1300.
  assert.deepEqual(
    svg.all("text").map((n) => n.textContent),
    ["1150", "1300"],
  );
  // x: 40 + i * 272 / 2; y: 10 + (1300 - v) * 132 / 150, to one decimal.
  assert.equal(svg.all("path")[0].getAttribute("d"), "M40 98 L176 83.9 L312 98");
  assert.equal(svg.all("path")[0].getAttribute("class"), "chart-line");
});

test("a wide range keeps its own bounds (rounded outwards to 50)", () => {
  const svg = lineChart({ values: [980, 1333], label: "r" });
  assert.deepEqual(
    svg.all("text").map((n) => n.textContent),
    ["950", "1350"],
  );
  // y: 10 + (1350 - v) * 132 / 400.
  assert.equal(svg.all("path")[0].getAttribute("d"), "M40 132.1 L312 15.6");
});

test("one value sits at the left edge", () => {
  const svg = lineChart({ values: [1200], label: "r" });
  assert.equal(svg.all("path")[0].getAttribute("d"), "M40 76");
});

test("marks inside the range are drawn, the others left out; dots carry their class", () => {
  const svg = lineChart({
    values: [1200, 1216, 1200],
    marks: [
      { value: 1200, label: "Level 3" },
      { value: 1600, label: "Level 5" },
      { value: 1150, label: "on the edge" },
    ],
    dots: ["won", null, "lost"],
    label: "r",
  });
  const lines = svg.all("line");
  assert.equal(lines.length, 1);
  assert.deepEqual(attrs(lines[0]), { x1: "40", x2: "312", y1: "98", y2: "98", class: "chart-mark" });
  const labels = svg.all("text").filter((n) => n.getAttribute("class") === "chart-mark-label");
  assert.deepEqual(
    labels.map((n) => [n.textContent, n.getAttribute("y")]),
    [["Level 3", "95"]],
  );
  assert.deepEqual(
    svg.all("circle").map((n) => [n.getAttribute("class"), n.getAttribute("cx"), n.getAttribute("cy")]),
    [
      ["chart-dot won", "40", "98"],
      ["chart-dot lost", "312", "98"],
    ],
  );
});

test("a bar chart: one row per rule set, parts stacked to scale, numbers where they fit", () => {
  const svg = barChart({
    label: "Deals per rule set",
    rows: [
      {
        label: "HU24",
        parts: [
          { value: 3, kind: "won" },
          { value: 1, kind: "lost" },
        ],
      },
      {
        label: "AT20*",
        parts: [
          { value: 0, kind: "won" },
          { value: 2, kind: "lost" },
        ],
      },
    ],
  });
  // Two rows of 26 plus 4; the longest row (4) fills 320 - 110 - 8.
  assert.equal(svg.getAttribute("viewBox"), "0 0 320 56");
  assert.equal(svg.getAttribute("aria-label"), "Deals per rule set");
  const bars = svg.all("rect").map((n) => [n.getAttribute("class"), n.getAttribute("x"), n.getAttribute("width")]);
  assert.deepEqual(bars, [
    ["chart-bar won", "110", "151.5"],
    ["chart-bar lost", "261.5", "50.5"],
    ["chart-bar lost", "110", "101"],
  ]);
  const words = svg.all("text").map((n) => [n.textContent, n.getAttribute("x"), n.getAttribute("y")]);
  assert.deepEqual(words, [
    ["HU24", "104", "18"],
    ["3", "185.8", "19"],
    ["1", "286.8", "19"],
    ["AT20*", "104", "44"],
    ["2", "160.5", "45"],
  ]);
});

test("an empty bar chart still has its frame", () => {
  const svg = barChart({ label: "none", rows: [] });
  assert.equal(svg.getAttribute("viewBox"), "0 0 320 4");
  assert.deepEqual(svg.all("rect"), []);
  assert.equal(svg.children.length, 1); // the <title>
});

test("a part too narrow for its number is drawn without it", () => {
  const svg = barChart({
    label: "r",
    rows: [
      {
        label: "DE24",
        parts: [
          { value: 40, kind: "won" },
          { value: 1, kind: "lost" },
        ],
      },
    ],
  });
  // 202 / 41 per deal: the single lost deal is 4.9 wide.
  assert.deepEqual(
    svg.all("rect").map((n) => n.getAttribute("width")),
    ["197.1", "4.9"],
  );
  assert.deepEqual(
    svg.all("text").map((n) => n.textContent),
    ["DE24", "40"],
  );
});
