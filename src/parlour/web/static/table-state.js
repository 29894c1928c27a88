// What the page keeps of the table it shows, shared by the table's modules: the one state object
// `S`, sending the server a message, and how the table names its seats.
import { prettyCards } from "./cards.js";
import { byId as $, say } from "./dom.js";

export const S = {
  id: null,
  socket: null,
  seat: null,
  token: null,
  table: null,
  view: null,
  version: -1,
  // The game's family record (from /api/variants: its verbs, felt, …) and its felt module.
  family: null,
  felt: null,
  // The cards the felt showed when last drawn (null: not drawn yet at this table): those new
  // since are eased in.
  feltCards: null,
  selected: new Set(),
  // The card of the hand that Tab reaches (the hand is one stop, arrows move within it) and
  // its place, kept across updates: the nearest card takes over when it leaves the hand.
  rover: null,
  labels: null,
  // The owner token, when this browser created the table; the bot levels for its seat menus,
  // and each seat's menu, kept from one update to the next so that an open menu stays open.
  owner: null,
  bots: [],
  menus: new Map(),
  // The last review of this seat's moves (a "review" message), and the rematch table once a
  // player asked for one.
  review: null,
  rematch: null,
  // The chat's lines (each {n, seat, name, text, reaction, t}), the texts of this page's own
  // lines and reactions by their message's ref (until answered), and the seats muted here.
  chat: [],
  chatSent: new Map(),
  muted: new Set(),
  // The hint asked for last: its message's ref and the version of the table it was asked at
  // (an answer that comes after the table moved on is not shown).
  hintAsked: null,
  // At a tutorial, how many of its notes were there when the player last moved: those after
  // stand out as new.
  notesRead: 0,
};

/** Send `message` on the table's socket: its `ref` (a number from 1), or null (and the reason
 * shown) if it could not go. */
export function send(message) {
  try {
    return S.socket.send(message);
  } catch (err) {
    say($("message"), err.message, "error");
    return null;
  }
}

// -- names -----------------------------------------------------------------------------------------

/** What the table calls a seat (the server numbers names that two seats share). */
export function seatName(seat) {
  return S.table?.seats?.[seat]?.display ?? `P${seat}`;
}

/** A seat's name in a few letters, for the tags under melded cards ("Ann", "g2"). */
export function shortName(seat) {
  const name = seatName(seat);
  if (name.length <= 6) return name;
  const numbered = /^(\S).* (\d+)$/.exec(name);
  return numbered ? numbered[1] + numbered[2] : name.slice(0, 4);
}

/** How the game's own text (render(), the log) names a seat, as the server says ("P2"). */
function labelOf(seat) {
  return S.table?.seats?.[seat]?.label ?? `P${seat}`;
}

/** The engine's text as a player reads it: each seat's label ("P2", "Computer 1") replaced by
 * the seat's name, and each card by its face ("3♦", not "3D"). */
export function relabel(text) {
  return prettyCards(named(text));
}

/** A text with each seat's label replaced by the seat's name as the table calls it now. */
export function named(text) {
  if (!S.labels) S.labels = namer(Array.from({ length: S.table?.players ?? 0 }, (_, s) => seatName(s)));
  return S.labels(text);
}

/** A function that puts in a text each seat's name from `names` (by seat) for its label. */
export function namer(names) {
  const labels = names.map((name, s) => [labelOf(s), name ?? labelOf(s)]);
  labels.sort((a, b) => b[0].length - a[0].length);
  const escaped = labels.map(([l]) => l.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  if (!escaped.length) return (text) => String(text);
  const map = new Map(labels);
  const re = new RegExp(`\\b(${escaped.join("|")})\\b`, "g");
  return (text) => String(text).replace(re, (l) => map.get(l) ?? l);
}
