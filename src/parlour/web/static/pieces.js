// Small pieces of the table that the felts (felts/<family>.js) and the table share. A felt
// gets a context with what it may read of the table: `view` (the seat's View), `table`
// (TableInfo), `seat` (the reader's seat, null for a spectator) and `seatName(seat)`,
// `shortName(seat)` and `relabel(text)`, how the table names seats and cards.
import { cardElement } from "./cards.js";
import { element } from "./dom.js";

export const ORDINALS = ["1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th", "10th"];

export function caption(text, className = "caption") {
  return element("div", { className, textContent: text });
}

export function badge(text, className = "") {
  return element("span", { className: `badge ${className}`, textContent: text });
}

/** A card with the name of the seat it belongs to under it (a trick's play, a melded card). */
export function namedCard(ctx, card, seat, classes = [], short = false) {
  return element("figure", { className: `named-card ${classes.join(" ")}`, dataset: { seat }, title: ctx.seatName(seat) },
    cardElement(card, ["small"]),
    element("figcaption", { className: `seat-colour-${seat % 8}`, textContent: short ? ctx.shortName(seat) : ctx.seatName(seat) }));
}

/** The place of a seat still to play to a trick. */
export function emptySlot(ctx, seat) {
  return element("figure", { className: "named-card waiting-slot", dataset: { seat } },
    element("div", { className: "card small empty-slot" }),
    element("figcaption", { textContent: ctx.seatName(seat) }));
}
