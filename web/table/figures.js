// @ts-check
// The court cards' figures, drawn in code as SVG (no borrowed art), each one a
// <symbol> on the card's own 100 x 140 grid that the face shows with one <use>.
//
// - Tell pattern (Hungarian/German): a standing figure in a frame, a different
//   character for every court card. The Ober (Felső) holds the suit sign up
//   above his head, the Unter (Alsó) holds it low at his belt, as on printed
//   cards; the King stands in a long robe with an ermine cape, his sign by his
//   crown. The twelve differ in headwear, beard, clothes' colours, what the
//   other hand holds and how they stand (see TELL_FIGURES).
// - French pattern: a double-headed bust in a frame (the upper half turned
//   round for the lower one, as on printed cards): the King with a crown,
//   beard and sceptre, the Queen with long hair, a small crown and a flower,
//   the Jack with a feathered cap and a halberd, in the colours of the suit.
//
// The parts of a figure carry a class (hat, held, sign, face, body) that the
// tests compare. Symbols are built when a card first needs them (cards.js).

const SVG = "http://www.w3.org/2000/svg";
export const INK = "#2b1d0e";
const SKIN = "#f3cfa6";
const GOLD = "#e0b53a";
const STEEL = "#c9ced4";
const WOOD = "#7a5230";
const ERMINE = "#f7f3e8";
const PAPER = "#f6efdc";
const LINE = { stroke: INK, "stroke-width": 1.2 };
const THIN = { stroke: INK, "stroke-width": 0.9 };

/** @typedef {Record<string, string | number>} Attributes An SVG element's attributes. */
/** @typedef {"left" | "right"} Side The figure's side as the viewer sees it. */

/**
 * @param {string} name
 * @param {Attributes} [attrs]
 * @param {Node[]} [children]
 */
export function svgElement(name, attrs = {}, children = []) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) node.append(child);
  return node;
}

const el = svgElement;

/**
 * @param {string} d
 * @param {string} fill
 * @param {Attributes} [more]
 */
function shape(d, fill, more = LINE) {
  return el("path", { d, fill, ...more });
}

/**
 * A group drawn for the right-hand side, mirrored across the card's middle for the left.
 * @param {Side} side
 * @param {Element[]} children
 * @param {Attributes} [attrs]
 */
function sided(side, children, attrs = {}) {
  const mirror = side === "left" ? { transform: "matrix(-1 0 0 1 100 0)" } : {};
  return el("g", { ...attrs, ...mirror }, children);
}

/**
 * A suit sign held or shown on a figure (its own upright colours).
 * @param {string} deck
 * @param {string} suit
 * @param {number} x centre
 * @param {number} y centre
 * @param {number} size
 */
function sign(deck, suit, x, y, size) {
  const half = size / 2;
  return el("use", {
    href: `#suit-${deck}-${suit}`,
    x: x - half,
    y: y - half,
    width: size,
    height: size,
    class: "sign",
  });
}

/**
 * Mark ``elements`` as one part of a figure (class "hat", "held", ...), without a wrapping group:
 * every element of a figure is copied into each card that shows it, so the fewer the better.
 * @param {string} name
 * @param {Element[]} elements
 */
function part(name, elements) {
  for (const element of elements) element.setAttribute("class", name);
  return elements;
}

/**
 * Little black tails on ermine.
 * @param {number[][]} points
 */
function ermineSpots(points) {
  const d = points.map(([x, y]) => `M${x} ${y} l0 2.2`).join(" ");
  return el("path", { d, stroke: INK, "stroke-width": 1.1, "stroke-linecap": "round", fill: "none" });
}

/**
 * Path data of circles (one path draws many: fewer elements for every card that shows them).
 * @param {number[][]} centres
 * @param {number} r
 * @param {boolean} [clockwise] the way round (as seen on the screen): where circles overlap another
 *   subpath of the same path, both must go the same way for the overlap to be filled
 */
export function circles(centres, r, clockwise = false) {
  const sweep = clockwise ? 1 : 0;
  return centres
    .map(
      ([x, y]) =>
        `M${round(x - r)} ${round(y)} a${r} ${r} 0 1 ${sweep} ${2 * r} 0 a${r} ${r} 0 1 ${sweep} ${-2 * r} 0 Z`,
    )
    .join(" ");
}

/**
 * The outline of a thick line through ``points``, round at both ends: a sleeve or a staff
 * as one filled and outlined path rather than two strokes.
 * @param {number[][]} points
 * @param {number} width
 */
function tube(points, width) {
  const h = width / 2;
  /** @type {number[][]} */
  const normals = [];
  for (let i = 0; i + 1 < points.length; i++) {
    const [dx, dy] = [points[i + 1][0] - points[i][0], points[i + 1][1] - points[i][1]];
    const length = Math.hypot(dx, dy);
    normals.push([-dy / length, dx / length]);
  }
  // At each point the offset along the normal (mitred at the bends).
  const offsets = points.map((_, i) => {
    const a = normals[Math.max(0, i - 1)];
    const b = normals[Math.min(normals.length - 1, i)];
    const [mx, my] = [a[0] + b[0], a[1] + b[1]];
    const m = Math.hypot(mx, my);
    const scale = h / (((mx / m) * b[0] + (my / m) * b[1]) * m);
    return [mx * scale, my * scale];
  });
  const at = (/** @type {number} */ i, /** @type {number} */ sign) =>
    `${round(points[i][0] + sign * offsets[i][0])} ${round(points[i][1] + sign * offsets[i][1])}`;
  const last = points.length - 1;
  const left = points.map((_, i) => at(i, 1));
  const right = points.map((_, i) => at(last - i, -1));
  return `M${left.join(" L")} A${h} ${h} 0 0 0 ${right.join(" L")} A${h} ${h} 0 0 0 ${left[0]} Z`;
}

/** @param {number} n */
function round(n) {
  return Math.round(n * 100) / 100;
}

// ------------------------------------------------------ Tell: the figures

/** @typedef {"full" | "long" | "goatee" | "moustache" | "none"} Beard */
/**
 * One court card's character.
 * @typedef {object} Figure
 * @property {string} coat the coat's (a King's robe's) colour
 * @property {string} sleeve
 * @property {string} trim the band down the front
 * @property {string} hose the legs' colour (a King's robe hides them)
 * @property {string} hair
 * @property {Beard} beard
 * @property {string} beardColor
 * @property {string} hat a key of HATS
 * @property {string} holds a key of HELD: what the other hand holds
 * @property {Side} sign the side of the hand with the suit sign (a King's sign is by his crown, on that side)
 * @property {number} lean degrees the figure leans (positive: its head to the right)
 */

// Card code (rank and suit, as the protocol's) -> the character on it.
// Hearts: a nobleman with a plumed hat and a sword; a page with a beret and a horn.
// Bells: a halberdier in a steel helmet; a standard-bearer in a fur cap.
// Acorns: a crossbowman in a pointed hunter's hat; an old shepherd in a straw hat with a crook.
// Leaves: an official in a tall black hat with a sealed letter; a woodsman in a hood with an axe.
// Kings: a crown with points and a sceptre, a closed crown and an orb, a crown of
// trefoils and a sword, a fur-trimmed crown and a goblet.
/** @type {Record<string, Figure>} */
export const TELL_FIGURES = {
  QH: {
    coat: "#b3202c",
    sleeve: "#e0b53a",
    trim: "#2b2b3a",
    hose: "#27406e",
    hair: "#5a3820",
    beard: "goatee",
    beardColor: "#5a3820",
    hat: "plumed",
    holds: "sword",
    sign: "left",
    lean: 1,
  },
  JH: {
    coat: "#3d7cc9",
    sleeve: "#f2ead6",
    trim: "#b3202c",
    hose: "#b3202c",
    hair: "#d9a441",
    beard: "none",
    beardColor: "#d9a441",
    hat: "beret",
    holds: "horn",
    sign: "right",
    lean: 1.5,
  },
  QD: {
    coat: "#7b4b2a",
    sleeve: "#e2ad2b",
    trim: "#1e1e24",
    hose: "#7b1e1e",
    hair: "#241a12",
    beard: "full",
    beardColor: "#241a12",
    hat: "morion",
    holds: "halberd",
    sign: "right",
    lean: 0,
  },
  JD: {
    coat: "#6a3d8f",
    sleeve: "#e8dcc0",
    trim: "#e0b53a",
    hose: "#2f6b3a",
    hair: "#a8452a",
    beard: "moustache",
    beardColor: "#a8452a",
    hat: "fur",
    holds: "banner",
    sign: "left",
    lean: 1,
  },
  QC: {
    coat: "#3c6e34",
    sleeve: "#cdb48a",
    trim: "#6b4423",
    hose: "#6b4423",
    hair: "#6b4423",
    beard: "full",
    beardColor: "#6b4423",
    hat: "hunter",
    holds: "crossbow",
    sign: "left",
    lean: 1.5,
  },
  JC: {
    coat: "#8c6a46",
    sleeve: "#f4efe2",
    trim: "#f4efe2",
    hose: "#8a8f96",
    hair: "#cfcac0",
    beard: "full",
    beardColor: "#e4e0d6",
    hat: "straw",
    holds: "crook",
    sign: "right",
    lean: -2.5,
  },
  QS: {
    coat: "#26262f",
    sleeve: "#6a2f7a",
    trim: "#e0b53a",
    hose: "#26262f",
    hair: "#9b968c",
    beard: "goatee",
    beardColor: "#b9b4aa",
    hat: "tall",
    holds: "letter",
    sign: "right",
    lean: -1,
  },
  JS: {
    coat: "#c4571f",
    sleeve: "#5f7f34",
    trim: "#5b3a14",
    hose: "#d9c29a",
    hair: "#1e1a18",
    beard: "moustache",
    beardColor: "#1e1a18",
    hat: "hood",
    holds: "axe",
    sign: "left",
    lean: -1.5,
  },
  KH: {
    coat: "#a31d2c",
    sleeve: "#a31d2c",
    trim: ERMINE,
    hose: INK,
    hair: "#e8e4da",
    beard: "long",
    beardColor: "#eeeae0",
    hat: "crown",
    holds: "sceptre",
    sign: "left",
    lean: 0,
  },
  KD: {
    coat: "#1f4f8b",
    sleeve: "#1f4f8b",
    trim: ERMINE,
    hose: INK,
    hair: "#6b4423",
    beard: "long",
    beardColor: "#6b4423",
    hat: "arched",
    holds: "orb",
    sign: "right",
    lean: 0,
  },
  KC: {
    coat: "#5b2a75",
    sleeve: "#5b2a75",
    trim: ERMINE,
    hose: INK,
    hair: "#8d8a84",
    beard: "full",
    beardColor: "#a9a59d",
    hat: "fleurons",
    holds: "sword",
    sign: "left",
    lean: 0,
  },
  KS: {
    coat: "#2f6b3a",
    sleeve: "#2f6b3a",
    trim: ERMINE,
    hose: INK,
    hair: "#b8662e",
    beard: "goatee",
    beardColor: "#b8662e",
    hat: "furCrown",
    holds: "goblet",
    sign: "right",
    lean: 0,
  },
};

/**
 * A headwear: "back" is drawn behind the head, "front" over it. The head's centre is (50, 47), radius 10.
 * @typedef {{back?: () => Element[], front: () => Element[]}} Hat
 */
/** @type {Record<string, Hat>} */
const HATS = {
  // A black wide-brimmed hat with a white plume.
  plumed: {
    front: () => [
      shape("M57 34 Q71 31 73 15 Q68 25 61 27 Q67 20 66 13 Q61 25 55 31 Z", "#fbfaf6"),
      shape("M41 39 Q41 28 50 28 Q59 28 59 39 Z", "#2b2b3a"),
      shape("M41.3 35.5 L58.7 35.5 L59 39 L41 39 Z", GOLD),
      el("ellipse", { cx: 50, cy: 39.5, rx: 15.5, ry: 3.4, fill: "#2b2b3a", ...LINE }),
    ],
  },
  // A steel helmet with a comb and an upturned brim.
  morion: {
    front: () => [
      shape("M43 29 Q50 15 57 29 Z", "#aab1b8"),
      shape("M34.5 42 Q35 37.5 40 37.5 Q40 27 50 26 Q60 27 60 37.5 Q65 37.5 65.5 42 Q50 37 34.5 42 Z", STEEL),
      shape("M42 33 Q50 30.5 58 33", "none", THIN),
    ],
  },
  // A pointed hunter's hat with a feather.
  hunter: {
    front: () => [
      shape("M55 29 Q63 16 59 6 Q56 18 52.5 27 Z", "#c62828"),
      shape("M40 40 L43.5 25 Q50 20.5 56.5 25 L60 40 Z", "#34552a"),
      shape("M41.4 34 L58.6 34 L59.3 37 L40.7 37 Z", "#6b4423"),
      el("ellipse", { cx: 50, cy: 40, rx: 13.5, ry: 2.8, fill: "#34552a", ...LINE }),
    ],
  },
  // A tall black hat with a gold band and a grey plume.
  tall: {
    front: () => [
      shape("M44 25 Q33 22 29 9 Q36 17 40 17 Q36 12 37 7 Q41 18 46 22 Z", "#cfd3d8"),
      shape("M41.5 39 L43.5 18 Q50 16 56.5 18 L58.5 39 Z", "#1e1e28"),
      shape("M42.6 32 L57.4 32 L57.8 36 L42.2 36 Z", GOLD),
      el("ellipse", { cx: 50, cy: 39.2, rx: 14, ry: 2.9, fill: "#1e1e28", ...LINE }),
    ],
  },
  // A red beret worn aslant, with a small white feather.
  beret: {
    front: () => [
      shape("M56 35 Q65 31 68 23 Q62 28 55 32 Z", "#fbfaf6"),
      el("ellipse", {
        cx: 48.5,
        cy: 36.5,
        rx: 13.5,
        ry: 5,
        fill: "#b3202c",
        transform: "rotate(-10 48.5 36.5)",
        ...LINE,
      }),
      el("circle", { cx: 47, cy: 32.5, r: 1.6, fill: GOLD, ...THIN }),
    ],
  },
  // A round fur cap with a blue top.
  fur: {
    front: () => [
      shape("M40.5 37 Q40 23 50 22.5 Q60 23 59.5 37 Z", "#3d6e9e"),
      el("rect", { x: 38.5, y: 33, width: 23, height: 7.5, rx: 3.7, fill: "#6b4a2e", ...LINE }),
      shape("M42 34.5 l1 4 M46 34.5 l1 4 M50 34.5 l1 4 M54 34.5 l1 4 M58 34.5 l0.6 3.5", "none", {
        stroke: "#3b2716",
        "stroke-width": 0.9,
      }),
    ],
  },
  // A wide straw hat with a brown band.
  straw: {
    front: () => [
      el("ellipse", { cx: 50, cy: 38.5, rx: 18, ry: 4, fill: "#e6c46f", ...LINE }),
      shape("M42 38.5 Q42 28.5 50 28.5 Q58 28.5 58 38.5 Z", "#e6c46f"),
      shape("M42.3 35 L57.7 35 L57.9 38.4 L42.1 38.4 Z", "#7a3b1e"),
    ],
  },
  // A hood over the head and shoulders, its point falling back.
  hood: {
    back: () => [shape("M37.5 58 Q36 35 50 32.5 Q60 32.5 63.5 39 Q68 33 73 31 Q70 41 62.5 47 L62.5 58 Z", "#56606b")],
    front: () => [shape("M39.8 46 Q40.5 35.5 50 35.5 Q59.5 35.5 60.2 46 Q57 40 50 39.5 Q43 40 39.8 46 Z", "#56606b")],
  },
  // Crowns of the four Kings.
  crown: {
    front: () => [
      shape("M39 39 L39 27 L44.5 32 L50 22 L55.5 32 L61 27 L61 39 Z", GOLD),
      shape(
        circles(
          [
            [39, 26.5],
            [50, 21.5],
            [61, 26.5],
          ],
          1.7,
        ),
        GOLD,
        THIN,
      ),
      shape(
        circles(
          [
            [44, 35.5],
            [56, 35.5],
          ],
          1.4,
        ),
        "#c8102e",
        { stroke: "none" },
      ),
      el("circle", { cx: 50, cy: 35.5, r: 1.4, fill: "#1f4f8b" }),
    ],
  },
  arched: {
    front: () => [
      shape("M50 11.5 V19 M47 14 H53", "none", { stroke: GOLD, "stroke-width": 2, "stroke-linecap": "round" }),
      shape("M39.5 33 Q40 18 50 18 Q60 18 60.5 33 Z", "#b3202c"),
      shape("M50 18 V33 M41.5 26 Q50 20 58.5 26", "none", { stroke: GOLD, "stroke-width": 2 }),
      el("rect", { x: 39, y: 32, width: 22, height: 7, fill: GOLD, ...LINE }),
      el("circle", { cx: 50, cy: 35.5, r: 1.5, fill: "#2e7d32" }),
    ],
  },
  fleurons: {
    front: () => [
      ...[41.5, 50, 58.5].flatMap((x) => [
        el("circle", { cx: x, cy: 26.5, r: 2.4, fill: GOLD, ...THIN }),
        el("circle", { cx: x - 2.3, cy: 29.5, r: 1.9, fill: GOLD, ...THIN }),
        el("circle", { cx: x + 2.3, cy: 29.5, r: 1.9, fill: GOLD, ...THIN }),
      ]),
      el("rect", { x: 39, y: 31, width: 22, height: 8, fill: GOLD, ...LINE }),
      shape(
        circles(
          [
            [44, 35],
            [56, 35],
          ],
          1.4,
        ),
        "#2e7d32",
        { stroke: "none" },
      ),
      el("circle", { cx: 50, cy: 35, r: 1.6, fill: "#c8102e" }),
    ],
  },
  furCrown: {
    front: () => [
      shape("M40.5 34 Q40 21 50 20.5 Q60 21 59.5 34 Z", "#2f6b3a"),
      shape("M50 20.5 V34 M50 16 V20.5", "none", { stroke: GOLD, "stroke-width": 2.2 }),
      el("circle", { cx: 50, cy: 15.5, r: 2, fill: GOLD, ...THIN }),
      el("rect", { x: 38.5, y: 32.5, width: 23, height: 7, rx: 3, fill: ERMINE, ...LINE }),
      ermineSpots([
        [42, 34.5],
        [47, 34.5],
        [53, 34.5],
        [58, 34.5],
      ]),
    ],
  },
};

/**
 * The arm of one side as points (shoulder, elbow, hand), for the right; mirrored for the left.
 * @type {Record<string, number[][]>}
 */
const ARMS = {
  raised: [
    [63, 64],
    [70.5, 50],
    [67, 33.5],
  ],
  low: [
    [63, 64],
    [69, 83],
    [64.5, 99],
  ],
  down: [
    [63, 64],
    [69.5, 82],
    [69, 98],
  ],
  chest: [
    [63, 64],
    [68, 82],
    [58, 86],
  ],
  hip: [
    [63, 64],
    [72.5, 76],
    [64.5, 88],
  ],
};

/**
 * An arm in its sleeve with its hand (drawn for the right; mirrored for the left).
 * @param {string} pose a key of ARMS
 * @param {string} sleeve
 * @param {Element[]} [inHand] drawn between the sleeve and the fingers
 */
function arm(pose, sleeve, inHand = []) {
  const points = ARMS[pose];
  const [hx, hy] = points[points.length - 1];
  return [
    shape(tube(points, 6.8), sleeve, { ...LINE, "stroke-linejoin": "round" }),
    ...inHand,
    el("circle", { cx: hx, cy: hy, r: 3.2, fill: SKIN, ...THIN }),
  ];
}

/**
 * What a figure's free hand holds: the arm's pose, and the object drawn for the right side
 * (over the sleeve, under the fingers).
 * @type {Record<string, {pose: string, draw: () => Element[]}>}
 */
const HELD = {
  // Resting point down, the hand on the hilt.
  sword: {
    pose: "down",
    draw: () => [
      shape("M67.8 103 L67.8 124 L69 128.5 L70.2 124 L70.2 103 Z", STEEL),
      el("rect", { x: 63.5, y: 100.5, width: 11, height: 2.6, rx: 1, fill: GOLD, ...THIN }),
      el("circle", { cx: 69, cy: 93.6, r: 2, fill: GOLD, ...THIN }),
    ],
  },
  halberd: {
    pose: "down",
    draw: () => [
      el("rect", { x: 68, y: 13, width: 2.2, height: 116, fill: WOOD, ...THIN }),
      shape("M69 6 L70.4 15 L67.8 15 Z", STEEL),
      shape("M70.2 17 Q75.5 18 75 30 Q72.5 27 70.2 27.5 Z", STEEL),
      shape("M68 20 L63 18 L68 24 Z", STEEL),
    ],
  },
  // A crossbow held across the chest.
  crossbow: {
    pose: "chest",
    draw: () => [
      el("g", { transform: "translate(62 70) rotate(20)" }, [
        el("rect", { x: -1.9, y: -19, width: 3.8, height: 33, rx: 1, fill: WOOD, ...THIN }),
        shape("M-9 -13 L0 -7 L9 -13", "none", { stroke: "#efe8d6", "stroke-width": 0.8 }),
        shape("M-9 -13 Q0 -22 9 -13", "none", { stroke: "#3b2a1c", "stroke-width": 2.6, "stroke-linecap": "round" }),
      ]),
    ],
  },
  // A rolled letter with a red seal.
  letter: {
    pose: "chest",
    draw: () => [
      el("g", { transform: "translate(60 81) rotate(-35)" }, [
        el("rect", { x: -10, y: -3, width: 20, height: 6, rx: 2.5, fill: PAPER, ...THIN }),
        shape("M-2 3 L-3 9 M2 3 L3 9", "none", { stroke: "#b3202c", "stroke-width": 1.2 }),
        el("circle", { cx: 0, cy: 9.5, r: 2.6, fill: "#b3202c", ...THIN }),
      ]),
    ],
  },
  // A curved hunting horn.
  horn: {
    pose: "chest",
    draw: () => [
      shape("M55 83 Q68.5 82 70 67 L74.5 63.5 Q75.5 69 73.5 71 Q72 88 56 89 Z", GOLD),
      el("ellipse", { cx: 72.6, cy: 66.8, rx: 2.7, ry: 1.3, fill: "#8a6a1e", transform: "rotate(-40 72.6 66.8)" }),
    ],
  },
  // A banner on a tall pole, flying over the head.
  banner: {
    pose: "down",
    draw: () => [
      el("rect", { x: 68, y: 10, width: 2.2, height: 119, fill: WOOD, ...THIN }),
      el("circle", { cx: 69.1, cy: 9.5, r: 2, fill: GOLD, ...THIN }),
      shape("M68 11 L44 12.5 L50 18 L44 23.5 L68 23 Z", "#c62828"),
      shape("M68 15 L48 16 L50.5 18 L48 20 L68 19.5 Z", "#fbfaf6", { stroke: "none" }),
    ],
  },
  // A shepherd's crook.
  crook: {
    pose: "down",
    draw: () => [
      shape("M69 129 L69 30 Q69 22 63 22 Q57.5 22 57.5 28", "none", {
        stroke: INK,
        "stroke-width": 3.6,
        "stroke-linecap": "round",
      }),
      shape("M69 129 L69 30 Q69 22 63 22 Q57.5 22 57.5 28", "none", {
        stroke: "#9a7440",
        "stroke-width": 2,
        "stroke-linecap": "round",
      }),
    ],
  },
  // A woodsman's axe, blade up.
  axe: {
    pose: "down",
    draw: () => [
      el("rect", { x: 68, y: 58, width: 2.4, height: 52, rx: 1, fill: WOOD, ...THIN }),
      shape("M70.4 58 L74.5 54 Q76.5 62 74.5 70 L70.4 66.5 Z", STEEL),
    ],
  },
  sceptre: {
    pose: "down",
    draw: () => [
      el("rect", { x: 67.9, y: 50, width: 2.2, height: 58, fill: GOLD, ...THIN }),
      el("circle", { cx: 69, cy: 48, r: 3, fill: GOLD, ...THIN }),
      shape("M69 45 V40 M66.6 42 H71.4", "none", { stroke: GOLD, "stroke-width": 1.6 }),
    ],
  },
  // An orb with a cross, held before the chest.
  orb: {
    pose: "chest",
    draw: () => [
      el("circle", { cx: 58, cy: 78.5, r: 5.5, fill: GOLD, ...LINE }),
      shape("M52.5 78.5 H63.5 M58 73 V84", "none", THIN),
      shape("M58 73 V68.5 M55.8 70.5 H60.2", "none", { stroke: GOLD, "stroke-width": 1.6 }),
    ],
  },
  goblet: {
    pose: "chest",
    draw: () => [
      shape("M52.5 72 L63.5 72 Q63.5 80 58 81.5 L58 84 L61 85.5 L55 85.5 L58 84 L58 81.5 Q52.5 80 52.5 72 Z", GOLD),
      el("circle", { cx: 58, cy: 76, r: 1.3, fill: "#c8102e" }),
    ],
  },
};

/** @param {Figure} figure */
function face(figure) {
  const parts = [
    el("circle", { cx: 50, cy: 47, r: 10, fill: SKIN, ...LINE }),
    shape("M44.5 43.5 Q46.3 42.3 48 43.5 M52 43.5 Q53.7 42.3 55.5 43.5 M50 47.5 L48.8 51.5 L50.6 51.8", "none", THIN),
    el("path", {
      d: circles(
        [
          [46.3, 46.5],
          [53.7, 46.5],
        ],
        1.2,
      ),
      fill: INK,
    }),
  ];
  const moustache = "M44 54.5 Q47 52 50 53.3 Q53 52 56 54.5 Q53 56 50 54.6 Q47 56 44 54.5 Z";
  const chin = {
    full: "M40.3 49 Q40.5 62 50 64.5 Q59.5 62 59.7 49 Q57 55.5 50 55.8 Q43 55.5 40.3 49 Z",
    long: "M40.3 49 Q40 68 50 77 Q60 68 59.7 49 Q57 55.5 50 55.8 Q43 55.5 40.3 49 Z",
    goatee: "M47 56 Q50 65 53 56 Q50 57.5 47 56 Z",
  };
  const color = figure.beardColor;
  if (figure.beard === "none") parts.push(shape("M46.5 55 Q50 57 53.5 55", "none", THIN));
  else {
    if (figure.beard !== "moustache") parts.push(shape(chin[figure.beard], color, THIN));
    parts.push(shape(moustache, color, THIN));
  }
  return part("face", parts);
}

/** @param {string} color */
function hair(color) {
  return shape("M39.6 50 Q38.5 36 50 35.5 Q61.5 36 60.4 50 L59 56 Q58.5 48 57 44 L43 44 Q41.5 48 41 56 Z", color);
}

/**
 * The body below the head: legs and a belted coat, or a King's long robe with an ermine cape.
 * @param {Figure} figure
 * @param {boolean} king
 */
function body(figure, king) {
  if (king) {
    return part("body", [
      shape("M37 61 Q50 57 63 61 L68 72 L73 131.2 L27 131.2 L32 72 Z", figure.coat),
      shape("M47 62 L53 62 L55.5 131.2 L44.5 131.2 Z", ERMINE),
      ermineSpots([
        [49, 90],
        [51.5, 104],
        [49, 118],
      ]),
      shape("M34 63 Q50 77 66 63 L68.5 74 Q50 87 31.5 74 Z", ERMINE),
      ermineSpots([
        [38, 70],
        [45, 76],
        [55, 76],
        [62, 70],
      ]),
    ]);
  }
  return part("body", [
    shape("M41.5 108 h7 v20 h-7 Z M51.5 108 h7 v20 h-7 Z", figure.hose),
    shape("M40 131 v-3 q0-2 2-2 h7.5 v5 Z M60 131 v-3 q0-2 -2-2 h-7.5 v5 Z", "#3a2a1a", THIN),
    shape("M37 61 Q50 57 63 61 L67 70 L70 112 Q50 116 30 112 L33 70 Z", figure.coat),
    shape("M47.5 60 L52.5 60 L54 114.6 L46 114.6 Z", figure.trim),
    shape("M32.3 86 L67.7 86 L68 90.5 L32 90.5 Z", "#4a2e14"),
    el("rect", { x: 47.5, y: 85.3, width: 5, height: 5.9, rx: 1, fill: GOLD, ...THIN }),
    shape("M42 59 Q50 66 58 59 L56.5 56 Q50 61 43.5 56 Z", "#fbfaf6"),
  ]);
}

/**
 * The children of a Tell court card's symbol: frame, ground, figure.
 * @param {string} rank K, Q (Ober) or J (Unter)
 * @param {string} suit
 */
function tellFigure(rank, suit) {
  const figure = TELL_FIGURES[rank + suit];
  const king = rank === "K";
  const hat = HATS[figure.hat];
  const held = HELD[figure.holds];
  const free = figure.sign === "left" ? "right" : "left";
  const mirror = (/** @type {number} */ x) => (figure.sign === "left" ? 100 - x : x);
  const parts = body(figure, king);
  // The free hand with what it holds.
  parts.push(sided(free, arm(held.pose, figure.sleeve, part("held", held.draw()))));
  // The hand with the suit sign: up for the Ober, low for the Unter; the King's rests on his hip.
  if (rank === "Q" || rank === "J") {
    const [sleeve, hand] = arm(rank === "Q" ? "raised" : "low", figure.sleeve);
    const [x, y] = rank === "Q" ? [66.5, 21.5] : [57.5, 101];
    parts.push(sided(figure.sign, [sleeve]), sign("tell", suit, mirror(x), y, 19), sided(figure.sign, [hand]));
  } else {
    parts.push(sided(figure.sign, arm("hip", figure.sleeve)));
  }
  // The head: hair (and a hood) behind it, the face, then the headwear.
  parts.push(...part("hat-back", [...(hat.back ? hat.back() : []), hair(figure.hair)]));
  parts.push(...face(figure));
  parts.push(...part("hat", hat.front()));
  if (king) parts.push(sign("tell", suit, mirror(67), 18, 17));
  return [
    el("rect", { x: 24, y: 8, width: 52, height: 124, rx: 3, fill: "#f3ead2" }),
    shape("M24.6 116 H75.4 V129 A2.4 2.4 0 0 1 73 131.4 H27 A2.4 2.4 0 0 1 24.6 129 Z", "#b7c98c", { stroke: "none" }),
    shape("M24.6 116 H75.4", "none", { stroke: "#8ea25f", "stroke-width": 1 }),
    el("g", { transform: `rotate(${figure.lean} 50 128)` }, parts),
    el("rect", { x: 24, y: 8, width: 52, height: 124, rx: 3, fill: "none", stroke: "#cdb98a", "stroke-width": 1.5 }),
  ];
}

// ---------------------------------------------------- French: the busts

// The colours of each suit's court: main (robe), second (lining, cap), third (details).
/** @type {Record<string, string[]>} */
const FRENCH_COLORS = {
  H: ["#c8202f", "#1f4f99", GOLD],
  D: ["#e2ad2b", "#c8202f", "#1f4f99"],
  C: ["#1f4f99", "#e2ad2b", "#c8202f"],
  S: ["#2b2b33", "#c8202f", GOLD],
};
/** @type {Record<string, string>} */
const FRENCH_HAIR = { H: "#6b4423", D: "#b8662e", C: "#2b2118", S: "#9b968c" };

/**
 * The upper half of a French court card: a bust from y 8 to 70, its suit sign at the top left
 * (a copy of the suit's path in the card's colour: one element, where a nested <use> costs more).
 * @param {string} rank
 * @param {string} suit
 * @param {string} signPath the suit's outline in a 100 x 100 box
 */
function frenchHalf(rank, suit, signPath) {
  const [main, second, third] = FRENCH_COLORS[suit];
  const hairColor = FRENCH_HAIR[suit];
  const parts = [];
  // Hair behind the head: long for the Queen.
  if (rank === "Q") {
    parts.push(
      shape(
        "M40 46 Q37.5 27 50 27 Q62.5 27 60 46 L63 60 L56.5 57 Q58 45 56 37 L44 37 Q42 45 43.5 57 L37 60 Z",
        hairColor,
      ),
    );
  } else {
    parts.push(
      shape("M40.6 42 Q40 28 50 28 Q60 28 59.4 42 L58.4 47 Q57.6 40 56 37 L44 37 Q42.4 40 41.6 47 Z", hairColor),
    );
  }
  // The bust: robe, lining down the front; the King's ermine collar, the Queen's necklace, the Jack's lace.
  const lace = shape("M41 50 Q50 58 59 50 L57.5 54 Q50 60.5 42.5 54 Z", "#fbfaf6");
  /** @type {Record<string, Element[]>} */
  const collars = {
    K: [
      shape("M36 51 Q50 61 64 51 L62.5 57.5 Q50 66 37.5 57.5 Z", ERMINE),
      ermineSpots([
        [41, 55],
        [50, 59],
        [59, 55],
      ]),
    ],
    Q: [
      lace,
      shape("M43.5 55 Q50 61 56.5 55", "none", { stroke: third, "stroke-width": 1.8, "stroke-dasharray": "1.6 1.4" }),
    ],
    J: [lace],
  };
  parts.push(
    ...part("body", [
      shape("M26.5 70 L26.5 61 Q28.5 51.5 40 49.5 L60 49.5 Q71.5 51.5 73.5 61 L73.5 70 Z", main),
      shape("M44 49.5 L50 70 L56 49.5 L53.3 49.5 L50 61 L46.7 49.5 Z", second),
      ...collars[rank],
    ]),
  );
  // The head.
  const features = [
    el("circle", { cx: 50, cy: 38.5, r: 9, fill: SKIN, ...LINE }),
    el("path", {
      d: circles(
        [
          [46.7, 38],
          [53.3, 38],
        ],
        1.1,
      ),
      fill: INK,
    }),
    shape("M50 39 L49 42.3 L50.5 42.5", "none", THIN),
  ];
  if (rank === "K") {
    features.push(
      shape(
        "M41.3 40 Q41.5 51.5 50 54 Q58.5 51.5 58.7 40 Q56 45.5 50 45.8 Q44 45.5 41.3 40 Z " +
          "M45 44.8 Q50 42.8 55 44.8 Q50 46.2 45 44.8 Z",
        hairColor,
        THIN,
      ),
    );
  } else if (rank === "Q") {
    features.push(el("ellipse", { cx: 50, cy: 44.6, rx: 2, ry: 0.9, fill: "#c62828" }));
  } else {
    features.push(shape("M47.3 44.3 Q50 46 52.7 44.3", "none", THIN));
  }
  parts.push(...part("face", features));
  // The headwear.
  /** @type {Element[]} */
  let hat;
  if (rank === "K") {
    hat = [
      shape("M40.5 32 L40.5 20.5 L45 25.5 L50 16.5 L55 25.5 L59.5 20.5 L59.5 32 Z", GOLD),
      el("path", {
        d: circles(
          [
            [45, 29],
            [55, 29],
          ],
          1.3,
        ),
        fill: "#c8102e",
      }),
      el("circle", { cx: 50, cy: 29, r: 1.3, fill: "#1f4f99" }),
    ];
  } else if (rank === "Q") {
    hat = [
      shape("M42.5 31.5 L42.5 26 L46.2 28.5 L50 22.5 L53.8 28.5 L57.5 26 L57.5 31.5 Z", GOLD),
      el("circle", { cx: 50, cy: 28.5, r: 1.2, fill: second === GOLD ? "#c8102e" : second }),
    ];
  } else {
    hat = [
      shape("M57 27 Q68 19 67 10 Q63 19 54.5 24.5 Z", "#fbfaf6"),
      shape("M39 33 Q39.5 23.5 51 23.5 Q62 24.5 61.5 33 Q50 29.5 39 33 Z", second),
      shape("M39 33 Q50 29.5 61.5 33", "none", { stroke: third, "stroke-width": 1.6 }),
    ];
  }
  parts.push(...part("hat", hat));
  // The hand with what it holds, before the chest on the right.
  /** @type {Element[]} */
  let held;
  if (rank === "K") {
    held = [
      shape(
        tube(
          [
            [60, 69.5],
            [69.5, 34],
          ],
          2.4,
        ),
        GOLD,
        THIN,
      ),
      el("circle", { cx: 70, cy: 31.5, r: 3, fill: GOLD, ...THIN }),
      shape("M70.6 28.7 L71.6 24.5 M69.1 26 L73.1 27", "none", { stroke: GOLD, "stroke-width": 1.5 }),
    ];
  } else if (rank === "Q") {
    held = [
      shape("M59 69.5 Q63 55 66.5 41", "none", { stroke: "#2e7d32", "stroke-width": 1.6 }),
      shape("M63.5 52 Q68 50 69 46 Q65 47 63.5 52 Z", "#2e7d32", THIN),
      // Five petals round the heart of the flower, in one path.
      shape(
        circles(
          [0, 1, 2, 3, 4].map((k) => [
            66.5 + 2.6 * Math.sin((k * 2 * Math.PI) / 5),
            40 - 2.6 * Math.cos((k * 2 * Math.PI) / 5),
          ]),
          2.3,
        ),
        main === "#2b2b33" ? "#c8202f" : main,
        THIN,
      ),
      el("circle", { cx: 66.5, cy: 40, r: 1.6, fill: GOLD, ...THIN }),
    ];
  } else {
    held = [
      shape(
        tube(
          [
            [58, 69.5],
            [71, 17],
          ],
          2.2,
        ),
        WOOD,
        THIN,
      ),
      shape("M71.6 14.5 L72.4 8.5 L69.6 13.5 Z", STEEL),
      shape("M70.6 19 Q75.5 19 75.3 28 Q73 25 69.3 24.5 Z", STEEL),
    ];
  }
  const [hx, hy] = rank === "K" ? [62.4, 60.5] : rank === "Q" ? [61, 60.5] : [60.5, 59.5];
  parts.push(
    shape(
      tube(
        [
          [70, 53],
          [71.3, 59],
          [hx + 2, hy + 2],
        ],
        6.3,
      ),
      main,
      { ...LINE, "stroke-linejoin": "round" },
    ),
    ...part("held", held),
    el("circle", { cx: hx, cy: hy, r: 3, fill: SKIN, ...THIN }),
  );
  parts.push(
    el("path", { d: signPath, class: "sign", "data-suit": suit, transform: "translate(26.5 12) scale(0.14)" }),
  );
  return el("g", {}, parts);
}

/**
 * The children of a French court card's symbol: the frame and the bust twice, the lower one turned round.
 * @param {string} rank
 * @param {string} suit
 * @param {string} signPath
 */
function frenchFigure(rank, suit, signPath) {
  const upper = frenchHalf(rank, suit, signPath);
  const lower = /** @type {Element} */ (upper.cloneNode(true));
  lower.setAttribute("transform", "rotate(180 50 70)");
  return [
    el("rect", { x: 24, y: 8, width: 52, height: 124, rx: 3, fill: "#f6efdc" }),
    upper,
    lower,
    shape("M24.6 70 H75.4", "none", { stroke: "#b9a77a", "stroke-width": 1 }),
    el("rect", { x: 24, y: 8, width: 52, height: 124, rx: 3, fill: "none", stroke: "#cdb98a", "stroke-width": 1.5 }),
  ];
}

/**
 * The id of a court card's figure symbol ("court-tell-QH").
 * @param {string} deck "french" or "tell"
 * @param {string} code a King, Queen/Ober or Jack/Unter: "KH", "QD", "JS"
 */
export function courtSymbolId(deck, code) {
  return `court-${deck}-${code}`;
}

/**
 * The <symbol> of a court card's figure in a pattern.
 * @param {string} deck
 * @param {string} code
 * @param {string} frenchSign the French suit's outline (a 100 x 100 box), drawn beside the bust
 */
export function courtSymbol(deck, code, frenchSign) {
  const [rank, suit] = code;
  const children = deck === "tell" ? tellFigure(rank, suit) : frenchFigure(rank, suit, frenchSign);
  return el("symbol", { id: courtSymbolId(deck, code), viewBox: "0 0 100 140", class: "figure" }, children);
}
