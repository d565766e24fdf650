// Playing cards drawn as SVG in code: French suits, rank letters, pips for 9 and 10.
//
// The suit shapes and the card back live once in a hidden sprite (<symbol>s)
// that every card refers to with <use>. Card codes are the protocol's: rank
// A T K Q J 9 plus suit H D C S ("QH", "TD").

const SVG = "http://www.w3.org/2000/svg";

export const SUIT_NAMES = { H: "hearts", D: "diamonds", C: "clubs", S: "spades" };
export const SUIT_SYMBOLS = { H: "♥", D: "♦", C: "♣", S: "♠" };
const RANK_NAMES = { A: "Ace", T: "Ten", K: "King", Q: "Queen", J: "Jack", 9: "Nine" };
const RANK_TEXT = { A: "A", T: "10", K: "K", Q: "Q", J: "J", 9: "9" };
const RED = new Set(["H", "D"]);

// Suit outlines in a 100 x 100 box.
const SUIT_PATHS = {
  H: "M50 90 C36 76 8 58 8 33 C8 17 20 8 32 8 C41 8 47 14 50 22 C53 14 59 8 68 8 C80 8 92 17 92 33 C92 58 64 76 50 90 Z",
  D: "M50 4 L86 50 L50 96 L14 50 Z",
  S:
    "M50 6 C60 22 90 40 90 62 C90 76 80 84 69 84 C61 84 55 80 53 75 C54 85 58 91 66 95 L34 95 " +
    "C42 91 46 85 47 75 C45 80 39 84 31 84 C20 84 10 76 10 62 C10 40 40 22 50 6 Z",
  C: "M46 52 L54 52 C55 74 60 88 68 95 L32 95 C40 88 45 74 46 52 Z",
};
// The club's three leaves, drawn with its stem.
const CLUB_LEAVES = [
  [50, 26, 19],
  [29, 58, 19],
  [71, 58, 19],
  [50, 50, 10],
];

// Pip centres (x, y) on a 100 x 140 card for the number cards.
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

function el(name, attrs = {}, children = []) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  for (const child of children) node.append(child);
  return node;
}

/** Add the shared <symbol>s once per document. */
export function installCardSprites(doc = document) {
  if (doc.getElementById("card-sprites")) return;
  const defs = el("defs");
  for (const [suit, d] of Object.entries(SUIT_PATHS)) {
    const shapes = [el("path", { d })];
    if (suit === "C") for (const [cx, cy, r] of CLUB_LEAVES) shapes.push(el("circle", { cx, cy, r }));
    defs.append(el("symbol", { id: `suit-${suit}`, viewBox: "0 0 100 100" }, shapes));
  }
  const pattern = el("pattern", {
    id: "back-pattern",
    width: 12,
    height: 12,
    patternUnits: "userSpaceOnUse",
    patternTransform: "rotate(45)",
  }, [
    el("rect", { width: 12, height: 12, fill: "#1d4f91" }),
    el("rect", { width: 6, height: 6, fill: "#2b66b5" }),
    el("rect", { x: 6, y: 6, width: 6, height: 6, fill: "#2b66b5" }),
  ]);
  defs.append(pattern);
  defs.append(
    el("symbol", { id: "card-back", viewBox: "0 0 100 140" }, [
      el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, fill: "#fbfaf6", stroke: "#b9b3a4", "stroke-width": 1.2 }),
      el("rect", { x: 7, y: 7, width: 86, height: 126, rx: 5, fill: "url(#back-pattern)" }),
      el("rect", { x: 10, y: 10, width: 80, height: 120, rx: 3, fill: "none", stroke: "#e9e2cc", "stroke-width": 1.5 }),
      el("circle", { cx: 50, cy: 70, r: 18, fill: "#f6efdc", stroke: "#c9a94b", "stroke-width": 2 }),
      el("text", {
        x: 50,
        y: 76.5,
        fill: "#1d4f91",
        "text-anchor": "middle",
        "font-family": "system-ui, sans-serif",
        "font-weight": 800,
        "font-size": 17,
      }, [document.createTextNode("66")]),
    ]),
  );
  const sprite = el("svg", { id: "card-sprites", width: 0, height: 0, "aria-hidden": "true", class: "sprites" }, [defs]);
  doc.body.prepend(sprite);
}

export function cardSuit(code) {
  return code[1];
}

export function cardRank(code) {
  return code[0];
}

/** "Queen of hearts" */
export function cardLabel(code) {
  return `${RANK_NAMES[code[0]]} of ${SUIT_NAMES[code[1]]}`;
}

/** "Q♥" */
export function cardShort(code) {
  return `${RANK_TEXT[code[0]]}${SUIT_SYMBOLS[code[1]]}`;
}

function suitUse(suit, x, y, size, flip = false) {
  const use = el("use", { href: `#suit-${suit}`, x, y, width: size, height: size });
  if (flip) use.setAttribute("transform", `rotate(180 ${x + size / 2} ${y + size / 2})`);
  return use;
}

function corner(rank, suit) {
  const text = el("text", { x: 11, y: 24, class: rank === "T" ? "rank rank-10" : "rank" }, [
    document.createTextNode(RANK_TEXT[rank]),
  ]);
  return el("g", {}, [text, suitUse(suit, 3.5, 29, 15)]);
}

/** The face of a card as an <svg> (100 x 140 user units). */
export function cardFace(code) {
  const rank = cardRank(code);
  const suit = cardSuit(code);
  const svg = el("svg", {
    viewBox: "0 0 100 140",
    class: `card-svg ${RED.has(suit) ? "red" : "black"}`,
    "aria-hidden": "true",
    focusable: "false",
  });
  svg.append(el("rect", { x: 1, y: 1, width: 98, height: 138, rx: 8, class: "card-edge" }));
  svg.append(corner(rank, suit));
  const bottom = corner(rank, suit);
  bottom.setAttribute("transform", "rotate(180 50 70)");
  svg.append(bottom);
  if (rank === "A") {
    svg.append(suitUse(suit, 22, 42, 56));
  } else if (rank === "K" || rank === "Q" || rank === "J") {
    svg.append(el("rect", { x: 22, y: 20, width: 56, height: 100, rx: 4, class: "court" }));
    svg.append(el("text", { x: 50, y: 78, class: "court-letter" }, [document.createTextNode(rank)]));
    svg.append(suitUse(suit, 38, 28, 24));
    svg.append(suitUse(suit, 38, 88, 24, true));
  } else {
    for (const [x, y] of PIPS[rank]) svg.append(suitUse(suit, x - 9, y - 9, 18, y > 70));
  }
  return svg;
}

/** The back of a card as an <svg>. */
export function cardBack() {
  const svg = el("svg", { viewBox: "0 0 100 140", class: "card-svg back", "aria-hidden": "true", focusable: "false" });
  svg.append(el("use", { href: "#card-back", x: 0, y: 0, width: 100, height: 140 }));
  return svg;
}

/** A small suit symbol as an inline <svg>, for text lines. */
export function suitIcon(suit) {
  const svg = el("svg", {
    viewBox: "0 0 100 100",
    class: `suit-icon ${RED.has(suit) ? "red" : "black"}`,
    role: "img",
    "aria-label": SUIT_NAMES[suit],
  });
  svg.append(el("use", { href: `#suit-${suit}`, x: 0, y: 0, width: 100, height: 100 }));
  return svg;
}
