// @ts-check
// Playing cards drawn as SVG in code, in two patterns (the "deck style"):
//
// - "french": hearts, diamonds, clubs, spades; rank letters, pips for 9 and 10;
// - "tell": the Hungarian/German (Tell) pattern: hearts (Piros, Herz),
//   bells (Tök, Schellen), acorns (Makk, Eichel), leaves (Zöld, Laub);
//   Unter (Alsó), Ober (Felső), King, Ace (Daus), 10 and 9.
//
// Card codes are the protocol's, whatever the pattern: rank A T K Q J 9 plus
// suit H D C S ("QH" is the Queen of hearts, or the Ober of hearts). The suit
// shapes and the card backs live once in a hidden sprite (<symbol>s) that
// every card refers to with <use>; so do the court cards' figures
// (figures.js), built while the page is idle or when a card first shows
// them. The four Tell suits differ in shape and in colour: a red heart, a
// yellow round bell with a band and a slot, a brown acorn under a dark cap, a
// green leaf with a stem and veins.
//
// The corner shows the rank in the player's language (web/i18n/*.json,
// "rankShort.<deck>.<rank>") over the suit sign. No two ranks of a pattern
// may share an index once accents are ignored (tests/test_i18n.py): the
// Hungarian ace (ász) and Unter (alsó) are both "A..." words, and "Á" beside
// "A" reads the same at a glance on a small card, so the ace's index is the
// whole word "Ász" (squeezed to the corner's width), the Unter's "A", the
// Ober's "F", the King's "K", as Hungarian players write them; 10 and 9 are
// "X" and "IX" as on printed Hungarian cards.

import { t } from "../platform/i18n.js";
import { circles, courtSymbol, courtSymbolId, svgElement as el, INK } from "./figures.js";

export const DECK_STYLES = ["french", "tell"];
const RED = new Set(["H", "D"]);

let deck = "french";

/**
 * The pattern the next cards are drawn in.
 * @param {string} style
 */
export function setDeckStyle(style) {
  deck = DECK_STYLES.includes(style) ? style : "french";
  if (document.getElementById("card-sprites")) prepareCourts();
}

export function deckStyle() {
  return deck;
}

// ------------------------------------------------------------ the shapes

// The club's three leaves and its knot, drawn with its stem.
const CLUB_LEAVES = [
  [50, 26, 19],
  [29, 58, 19],
  [71, 58, 19],
  [50, 50, 10],
];

// French suit outlines in a 100 x 100 box, each one path (the fewer elements, the faster every card that
// shows them): the club's leaves are circles going the same way round as its stem, so they fill as one.
/** @type {Record<string, string>} */
const FRENCH_PATHS = {
  H: "M50 90 C36 76 8 58 8 33 C8 17 20 8 32 8 C41 8 47 14 50 22 C53 14 59 8 68 8 C80 8 92 17 92 33 C92 58 64 76 50 90 Z",
  D: "M50 4 L86 50 L50 96 L14 50 Z",
  S:
    "M50 6 C60 22 90 40 90 62 C90 76 80 84 69 84 C61 84 55 80 53 75 C54 85 58 91 66 95 L34 95 " +
    "C42 91 46 85 47 75 C45 80 39 84 31 84 C20 84 10 76 10 62 C10 40 40 22 50 6 Z",
  C: [
    "M46 52 L54 52 C55 74 60 88 68 95 L32 95 C40 88 45 74 46 52 Z",
    ...CLUB_LEAVES.map(([cx, cy, r]) => circles([[cx, cy]], r, true)),
  ].join(" "),
};

/** @typedef {Record<string, string | number>} Attributes An SVG element's attributes. */

// The Tell suits in a 100 x 100 box, each a list of [element, attributes], in their own colours.
// biome-ignore format: the dots in the rows of the cap
const ACORN_DOTS = [
  [40, 24], [50, 22], [60, 24],
  [28, 33], [39, 32], [50, 31], [61, 32], [72, 33],
  [22, 42], [33, 41], [44, 41], [56, 41], [67, 41], [78, 42],
];
/** @type {Record<string, [string, Attributes][]>} */
const TELL_SHAPES = {
  // Hearts (Piros, Herz): a full heart with a highlight.
  H: [
    ["path", { d: FRENCH_PATHS.H, fill: "#d0202e", stroke: "#6e0d16", "stroke-width": 3, class: "body" }],
    ["ellipse", { cx: 31, cy: 29, rx: 9, ry: 5.5, fill: "#f47c7c", transform: "rotate(-35 31 29)" }],
  ],
  // Bells (Tök, Schellen): a round yellow sleigh bell with a loop, a band, a slot and its clapper.
  D: [
    ["circle", { cx: 50, cy: 16, r: 7, fill: "none", stroke: "#6b4a00", "stroke-width": 4 }],
    ["circle", { cx: 50, cy: 57, r: 35, fill: "#f7c51e", stroke: "#6b4a00", "stroke-width": 3, class: "body" }],
    [
      "path",
      { d: "M15.9 49 Q50 60 84.1 49 L84.9 60 Q50 71 15.1 60 Z", fill: "#c8102e", stroke: "#6b4a00", "stroke-width": 2 },
    ],
    [
      "path",
      { d: "M33 79 Q50 85 67 79", fill: "none", stroke: "#3a2600", "stroke-width": 5, "stroke-linecap": "round" },
    ],
    [
      "path",
      {
        d: circles(
          [
            [33, 79],
            [67, 79],
          ],
          5.5,
        ),
        fill: "#3a2600",
      },
    ],
    ["circle", { cx: 50, cy: 85.5, r: 5, fill: "#8a5a00", stroke: "#3a2600", "stroke-width": 2 }],
    ["ellipse", { cx: 36, cy: 36, rx: 8, ry: 5, fill: "#fff1bf", transform: "rotate(-30 36 36)" }],
  ],
  // Acorns (Makk, Eichel): a brown nut under a dark dotted cap, on a stalk.
  C: [
    ["path", { d: "M46 3 Q50 1 54 3 L55 18 L45 18 Z", fill: "#5b3a14", stroke: INK, "stroke-width": 2 }],
    [
      "path",
      {
        d: "M22 44 L78 44 C80 70 66 90 50 97 C34 90 20 70 22 44 Z",
        fill: "#9c5a24",
        stroke: "#3e230a",
        "stroke-width": 3,
        class: "body",
      },
    ],
    ["ellipse", { cx: 38, cy: 66, rx: 5, ry: 11, fill: "#d0955a" }],
    [
      "path",
      {
        d: "M13 47 C13 22 30 14 50 14 C70 14 87 22 87 47 C70 53 30 53 13 47 Z",
        fill: "#5c5524",
        stroke: "#2f2d0c",
        "stroke-width": 3,
      },
    ],
    // One path for all the dots: every acorn on every card shows them.
    ["path", { d: circles(ACORN_DOTS, 2.6), fill: "#b3ae62" }],
  ],
  // Leaves (Zöld, Laub): a pointed leaf with a stem and veins.
  S: [
    ["path", { d: "M47.5 78 L45 98 L53 98 L52.5 78 Z", fill: "#2f5d1e", stroke: "#17340d", "stroke-width": 1.5 }],
    [
      "path",
      {
        d: "M50 3 C58 15 72 21 82 33 C93 47 89 66 75 76 C66 82 57 82 50 87 C43 82 34 82 25 76 C11 66 7 47 18 33 C28 21 42 15 50 3 Z",
        fill: "#3f8f2f",
        stroke: "#1d4413",
        "stroke-width": 3,
        class: "body",
      },
    ],
    [
      "path",
      {
        d: "M50 12 L50 84 M50 32 L32 23 M50 32 L68 23 M50 49 L24 41 M50 49 L76 41 M50 66 L30 63 M50 66 L70 63",
        fill: "none",
        stroke: "#c4e79a",
        "stroke-width": 3.5,
        "stroke-linecap": "round",
      },
    ],
  ],
};

// Pip centres (x, y) on a 100 x 140 card for the number cards.
// biome-ignore format: the pips in the rows of the card
/** @type {Record<string, number[][]>} */
const PIPS = {
  T: [
    [32, 30], [68, 30], [50, 45], [32, 57], [68, 57],
    [32, 83], [68, 83], [50, 95], [32, 110], [68, 110],
  ],
  9: [
    [32, 30], [68, 30], [32, 57], [68, 57], [50, 70],
    [32, 83], [68, 83], [32, 110], [68, 110],
  ],
};

/**
 * @param {string} id
 * @param {{dark: string, light: string, line: string}} colors
 */
function backSymbol(id, colors) {
  const pattern = el(
    "pattern",
    { id: `${id}-pattern`, width: 12, height: 12, patternUnits: "userSpaceOnUse", patternTransform: "rotate(45)" },
    [
      el("rect", { width: 12, height: 12, fill: colors.dark }),
      el("rect", { width: 6, height: 6, fill: colors.light }),
      el("rect", { x: 6, y: 6, width: 6, height: 6, fill: colors.light }),
    ],
  );
  const symbol = el("symbol", { id, viewBox: "0 0 100 140" }, [
    el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, fill: "#fbfaf6", stroke: "#b9b3a4", "stroke-width": 1.2 }),
    el("rect", { x: 7, y: 7, width: 86, height: 126, rx: 5, fill: `url(#${id}-pattern)` }),
    el("rect", { x: 10, y: 10, width: 80, height: 120, rx: 3, fill: "none", stroke: colors.line, "stroke-width": 1.5 }),
    el("circle", { cx: 50, cy: 70, r: 18, fill: "#f6efdc", stroke: "#c9a94b", "stroke-width": 2 }),
    el(
      "text",
      {
        x: 50,
        y: 76.5,
        fill: colors.dark,
        "text-anchor": "middle",
        "font-family": "system-ui, sans-serif",
        "font-weight": 800,
        "font-size": 17,
      },
      [document.createTextNode("66")],
    ),
  ]);
  return [pattern, symbol];
}

/**
 * Add the shared <symbol>s of both patterns once per document.
 * @param {Document} [doc]
 */
export function installCardSprites(doc = document) {
  if (doc.getElementById("card-sprites")) return;
  const defs = el("defs");
  for (const [suit, d] of Object.entries(FRENCH_PATHS)) {
    defs.append(el("symbol", { id: `suit-french-${suit}`, viewBox: "0 0 100 100" }, [el("path", { d })]));
  }
  for (const [suit, shapes] of Object.entries(TELL_SHAPES)) {
    const children = shapes.map(([name, attrs]) => el(name, attrs));
    defs.append(el("symbol", { id: `suit-tell-${suit}`, viewBox: "0 0 100 100", overflow: "visible" }, children));
  }
  defs.append(...backSymbol("back-french", { dark: "#1d4f91", light: "#2b66b5", line: "#e9e2cc" }));
  defs.append(...backSymbol("back-tell", { dark: "#7a1c2a", light: "#9c2c3c", line: "#e8cf86" }));
  const sprite = el("svg", { id: "card-sprites", width: 0, height: 0, "aria-hidden": "true", class: "sprites" }, [
    defs,
  ]);
  doc.body.prepend(sprite);
  if (doc === document) prepareCourts();
}

/**
 * Build the court figures of the current pattern (twelve <symbol>s of some 40 elements each) while
 * the page is idle, as it is while the engine boots, a few at a time: the first hand drawn then finds
 * them ready, and no task grows long.
 */
function prepareCourts() {
  const wanted = deck;
  const codes = [..."KQJ"].flatMap((rank) => [..."HDCS"].map((suit) => rank + suit));
  const later = (/** @type {(deadline?: IdleDeadline) => void} */ step) => {
    if ("requestIdleCallback" in window) requestIdleCallback(step, { timeout: 1000 });
    else setTimeout(step, 20);
  };
  /** @param {IdleDeadline} [deadline] */
  const step = (deadline) => {
    if (deck !== wanted) return; // another pattern now: it prepares its own
    do {
      courtHref(/** @type {string} */ (codes.shift()));
    } while (codes.length && deadline && deadline.timeRemaining() > 4);
    if (codes.length) later(step);
  };
  later(step);
}

/** Add every court figure of the current pattern that the sprite lacks at once (the benchmark times it). */
export function buildCourtSymbols() {
  for (const rank of "KQJ") for (const suit of "HDCS") courtHref(rank + suit);
}

// ------------------------------------------------------------- the words

/** @param {string} code */
export function cardSuit(code) {
  return code[1];
}

/** @param {string} code */
export function cardRank(code) {
  return code[0];
}

/**
 * The suit's name in the current pattern and language ("hearts", "bells", "makk").
 * @param {string} suit
 */
export function suitName(suit) {
  return t(`suit.${deck}.${suit}`);
}

/**
 * The rank's name in the current pattern and language ("Queen", "Ober", "felső").
 * @param {string} rank
 */
export function rankName(rank) {
  return t(`rank.${deck}.${rank}`);
}

/**
 * "Queen of hearts", "piros felső", "Eichel-Unter".
 * @param {string} code
 */
export function cardLabel(code) {
  return t("card.label", { rank: rankName(code[0]), suit: suitName(code[1]) });
}

// ------------------------------------------------------------- the faces

/**
 * @param {string} suit
 * @param {number} x
 * @param {number} y
 * @param {number} size
 */
function suitUse(suit, x, y, size, flip = false) {
  const use = el("use", { href: `#suit-${deck}-${suit}`, x, y, width: size, height: size });
  if (flip) use.setAttribute("transform", `rotate(180 ${x + size / 2} ${y + size / 2})`);
  return use;
}

// The corner's suit sign: 19 of the card's 100 units (10 px on a 52 px phone card).
const CORNER_SIGN = { x: 2, y: 28.5, size: 19 };

/**
 * The rank and suit in a corner; the bottom corner is the top one turned round (its Tell sign stays upright).
 * An index of three letters (the Hungarian "Ász") is squeezed to the corner's width.
 * @param {string} rank
 * @param {string} suit
 */
function corner(rank, suit, bottom = false) {
  const label = t(`rankShort.${deck}.${rank}`);
  /** @type {Record<string, string | number>} */
  const attrs = { x: 11.5, y: 24, class: "rank" };
  if (label.length === 2) attrs.class = "rank rank-10";
  if (label.length > 2)
    Object.assign(attrs, { class: "rank rank-3", textLength: 21, lengthAdjust: "spacingAndGlyphs" });
  const text = el("text", attrs, [document.createTextNode(label)]);
  const { x, y, size } = CORNER_SIGN;
  if (!bottom) return el("g", {}, [text, suitUse(suit, x, y, size)]);
  const turned = el("g", { transform: "rotate(180 50 70)" }, [text]);
  if (deck === "tell") return el("g", {}, [turned, suitUse(suit, 100 - x - size, 140 - y - size, size)]);
  turned.append(suitUse(suit, x, y, size));
  return turned;
}

/**
 * The href of a court card's figure in the current pattern, its <symbol> added to the sprite on first use.
 * @param {string} code
 */
function courtHref(code) {
  const id = courtSymbolId(deck, code);
  if (!document.getElementById(id)) {
    installCardSprites();
    document.querySelector("#card-sprites defs")?.append(courtSymbol(deck, code, FRENCH_PATHS[code[1]]));
  }
  return `#${id}`;
}

/**
 * The face of a card as an <svg> (100 x 140 user units) in the current pattern.
 * @param {string} code
 */
export function cardFace(code) {
  const rank = cardRank(code);
  const suit = cardSuit(code);
  const tone = deck === "tell" ? "tell" : RED.has(suit) ? "red" : "black";
  const svg = el("svg", {
    viewBox: "0 0 100 140",
    class: `card-svg deck-${deck} ${tone}`,
    "aria-hidden": "true",
    focusable: "false",
  });
  svg.append(el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, class: "card-edge" }));
  svg.append(corner(rank, suit), corner(rank, suit, true));
  if (rank === "A") {
    if (deck === "tell") {
      svg.append(el("ellipse", { cx: 50, cy: 70, rx: 33, ry: 44, class: "ace-ring" }));
      svg.append(suitUse(suit, 21, 41, 58));
    } else {
      svg.append(suitUse(suit, 22, 42, 56));
    }
  } else if (rank === "K" || rank === "Q" || rank === "J") {
    svg.append(el("use", { href: courtHref(code), x: 0, y: 0, width: 100, height: 140, class: "court-figure" }));
  } else if (deck === "tell") {
    // Upright pips: an upside-down leaf would look like a heart.
    const size = rank === "T" ? 18 : 20;
    for (const [x, y] of PIPS[rank]) svg.append(suitUse(suit, x - size / 2, y - size / 2, size));
  } else {
    for (const [x, y] of PIPS[rank]) svg.append(suitUse(suit, x - 9, y - 9, 18, y > 70));
  }
  return svg;
}

/** The back of a card as an <svg>. */
export function cardBack() {
  const svg = el("svg", {
    viewBox: "0 0 100 140",
    class: `card-svg back deck-${deck}`,
    "aria-hidden": "true",
    focusable: "false",
  });
  svg.append(el("use", { href: `#back-${deck}`, x: 0, y: 0, width: 100, height: 140 }));
  return svg;
}

/**
 * A small suit symbol as an inline <svg>, for text lines.
 * @param {string} suit
 */
export function suitIcon(suit) {
  const tone = deck === "tell" ? "tell" : RED.has(suit) ? "red" : "black";
  const svg = el("svg", {
    viewBox: "0 0 100 100",
    class: `suit-icon deck-${deck} ${tone}`,
    role: "img",
    "aria-label": suitName(suit),
  });
  svg.append(el("use", { href: `#suit-${deck}-${suit}`, x: 0, y: 0, width: 100, height: 100 }));
  return svg;
}
