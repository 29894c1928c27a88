// Card faces and backs as inline SVG, drawn here: a large corner index (rank over suit) that stays
// readable when the cards of a hand overlap, and one big suit in the middle. Suits are paths, not
// font glyphs, so they look the same on every machine.

const SUITS = {
  C: { name: "clubs", red: false },
  D: { name: "diamonds", red: true },
  H: { name: "hearts", red: true },
  S: { name: "spades", red: false },
};

export const SUIT_SYMBOLS = { C: "♣", D: "♦", H: "♥", S: "♠" };
const RANK_NAMES = {
  A: "ace", K: "king", Q: "queen", J: "jack", 10: "ten", 9: "nine", 8: "eight", 7: "seven",
  6: "six", 5: "five", 4: "four", 3: "three", 2: "two",
};

// Each suit in a 100 x 100 box.
const SUIT_PATHS = {
  D: '<path d="M50 2 L90 50 L50 98 L10 50 Z"/>',
  H: '<path d="M50 94 C22 70 4 52 4 30 C4 14 16 4 29 4 C39 4 46 10 50 20 C54 10 61 4 71 4 ' +
     'C84 4 96 14 96 30 C96 52 78 70 50 94 Z"/>',
  S: '<path d="M50 2 C62 22 94 38 94 60 C94 74 84 82 72 82 C64 82 58 79 54 73 C55 84 59 92 ' +
     '68 98 L32 98 C41 92 45 84 46 73 C42 79 36 82 28 82 C16 82 6 74 6 60 C6 38 38 22 50 2 Z"/>',
  C: '<circle cx="50" cy="27" r="22"/><circle cx="26" cy="58" r="22"/>' +
     '<circle cx="74" cy="58" r="22"/><path d="M40 40 L60 40 L62 62 L38 62 Z"/>' +
     '<path d="M46 58 C46 80 40 90 30 98 L70 98 C60 90 54 80 54 58 Z"/>',
};

/** The rank and suit of a card in the rules' notation ("10H" → ["10", "H"]), or null. */
export function splitCard(text) {
  const m = /^(10|[2-9JQKA])([CDHS])$/.exec(String(text).trim().toUpperCase());
  return m ? [m[1], m[2]] : null;
}

// The hand's orders beside the game's own (the settings' `sort`): ranks from two up to ace, and
// the suits in alternating colours.
const RANK_ORDER = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"];
const SUIT_ORDER = ["S", "H", "C", "D"];

/** Where a card goes in each order: its suit's or its rank's place (not a card: last). */
function placeBy(key) {
  return (card) => {
    const parts = splitCard(card);
    return parts ? key(parts) : RANK_ORDER.length;
  };
}

const ORDERS = new Map([
  ["suit", placeBy(([, suit]) => SUIT_ORDER.indexOf(suit))],
  ["rank", placeBy(([rank]) => RANK_ORDER.indexOf(rank))],
]);

/**
 * The cards (as the game lists them) in the order `order` asks for: "suit", the suits apart
 * (♠ ♥ ♣ ♦), each in the game's order; "rank", twos up to aces, the cards of one rank in the
 * game's order; anything else, the game's order itself. A new array (anything not a card
 * goes last).
 */
export function sortCards(cards, order) {
  const listed = [...cards];
  const place = ORDERS.get(order);
  // Array.prototype.sort is stable: the cards of one suit (one rank) keep the game's order.
  return place ? listed.sort((a, b) => place(a) - place(b)) : listed;
}

/** Whether a word of an action ("3D", "pass", "on") is a card. */
export function isCard(word) {
  return splitCard(word) !== null;
}

/** "queen of spades", for screen readers and tooltips. */
export function cardName(text) {
  const parts = splitCard(text);
  return parts ? `${RANK_NAMES[parts[0]]} of ${SUITS[parts[1]].name}` : String(text);
}

function suitShape(suit, x, y, size) {
  const k = size / 100;
  return `<g transform="translate(${x} ${y}) scale(${k})">${SUIT_PATHS[suit]}</g>`;
}

/** A suit symbol as a small inline SVG (for text such as "trumps: ♦"). */
export function suitIcon(suit) {
  const red = SUITS[suit]?.red;
  return `<svg class="suit-icon ${red ? "red" : "black"} suit-${SUITS[suit] ? suit : "none"}" viewBox="0 0 100 100" ` +
    `aria-label="${SUITS[suit]?.name ?? suit}" role="img">${SUIT_PATHS[suit] ?? ""}</svg>`;
}

function corner(rank, suit) {
  const narrow = rank === "10";
  return `<text x="15" y="30" text-anchor="middle" class="idx"${narrow ? ' textLength="24" lengthAdjust="spacingAndGlyphs"' : ""}>${rank}</text>` +
    suitShape(suit, 6, 36, 18);
}

/** The SVG markup of a card's face (100 x 140 units; the element sizes it). */
export function cardFace(text) {
  const parts = splitCard(text);
  if (!parts) return cardBack();
  const [rank, suit] = parts;
  const colour = SUITS[suit].red ? "red" : "black";
  let middle;
  if ("JQK".includes(rank)) {
    // Court cards: a framed panel with the letter and its suit.
    middle = '<rect x="29" y="22" width="42" height="96" rx="5" class="court"/>' +
      `<text x="50" y="74" text-anchor="middle" class="court-letter">${rank}</text>` +
      suitShape(suit, 40, 82, 20);
  } else {
    const size = rank === "A" ? 52 : 42;
    middle = suitShape(suit, 50 - size / 2, 70 - size / 2, size);
  }
  return `<svg class="card-svg ${colour} suit-${suit}" viewBox="0 0 100 140" role="img" aria-label="${cardName(text)}">` +
    '<rect x="1.5" y="1.5" width="97" height="137" rx="9" class="face"/>' +
    corner(rank, suit) +
    `<g transform="rotate(180 50 70)">${corner(rank, suit)}</g>` +
    middle + "</svg>";
}

/** The SVG markup of a card's back (a hidden card). */
export function cardBack() {
  let lattice = "";
  for (let i = -120; i <= 120; i += 12) {
    lattice += `M${i + 10} 10 L${i + 130} 130 M${i + 130} 10 L${i + 10} 130 `;
  }
  return '<svg class="card-svg back" viewBox="0 0 100 140" role="img" aria-label="hidden card">' +
    '<rect x="1.5" y="1.5" width="97" height="137" rx="9" class="back-edge"/>' +
    '<clipPath id="parlour-back-clip"><rect x="9" y="9" width="82" height="122" rx="5"/></clipPath>' +
    '<rect x="9" y="9" width="82" height="122" rx="5" class="back-field"/>' +
    `<path d="${lattice}" class="back-lattice" clip-path="url(#parlour-back-clip)"/>` +
    '<rect x="9" y="9" width="82" height="122" rx="5" class="back-frame"/></svg>';
}

/**
 * A card as an element: `<div class="card" data-card="QS">` holding its face (or its back when
 * `text` is null). Extra classes are added as given.
 */
export function cardElement(text, classes = []) {
  const el = document.createElement("div");
  el.className = ["card", ...classes].join(" ");
  if (text) {
    el.dataset.card = text;
    el.title = cardName(text);
    el.innerHTML = cardFace(text);
  } else {
    el.classList.add("hidden-card");
    el.innerHTML = cardBack();
  }
  return el;
}

/** A row of cards (`cards` in the given order). */
export function cardRow(cards, classes = ["small"]) {
  const row = document.createElement("div");
  row.className = "card-row";
  for (const c of cards) row.append(cardElement(c, classes));
  return row;
}

/** The words of an action split into its cards and the rest ("layoff 7H on 2"). */
export function actionCards(action) {
  return String(action).split(/\s+/).filter(isCard).map((w) => splitCard(w).join(""));
}

/** Any text with every card named by its letters shown with its suit's symbol instead, as the
 * page shows cards everywhere ("3S does not beat 6D" → "3♠ does not beat 6♦"). */
export function prettyCards(text) {
  return String(text).replace(/(?<![0-9A-Za-z])(10|[2-9JQKA])([CDHS])(?![0-9A-Za-z])/g,
    (_, rank, suit) => rank + SUIT_SYMBOLS[suit]);
}

/** Action text with each card's suit letter shown as its symbol ("3D 3S" → "3♦ 3♠"). */
export function prettyAction(action) {
  return String(action).split(/\s+/).map((w) => {
    const parts = splitCard(w);
    return parts ? parts[0] + SUIT_SYMBOLS[parts[1]] : w;
  }).join(" ");
}
