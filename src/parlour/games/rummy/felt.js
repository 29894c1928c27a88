// Rummy's felt: the stock and the discard pile, and the melds on the table with whose cards
// they are; on each seat, its points down, the discards it took and whether it went out.
import { cardElement, cardRow } from "../cards.js";
import { element } from "../dom.js";
import { badge, namedCard } from "../pieces.js";

export function felt(obs, ctx) {
  const area = element("div", { className: "play-area rummy" });
  const discard = obs.discard ?? [];
  const top = discard.length ? discard[discard.length - 1] : null;
  area.append(element("div", { className: "piles" },
    element("figure", { className: "pile stock" }, cardElement(null, ["small"]),
      element("figcaption", { textContent: `stock · ${obs.stock_size ?? "?"}` })),
    element("figure", { className: "pile discard", dataset: { top: top ?? "" } },
      top ? cardElement(top, ["small"]) : element("div", { className: "card small empty-slot" }),
      element("figcaption", { textContent: `discard · ${discard.length}` }))));
  const melds = obs.melds ?? [];
  const owners = new Map();
  (obs.placed ?? []).forEach((cards, s) => (cards ?? []).forEach((c) => owners.set(c, s)));
  if (melds.length) {
    area.append(element("div", { className: "melds" }, ...melds.map((meld, i) =>
      element("div", { className: "meld", dataset: { meld: i + 1 } },
        element("span", { className: "meld-number", textContent: `meld ${i + 1}` }),
        element("div", { className: "meld-cards" }, ...(meld ?? []).map((card) =>
          namedCard(ctx, card, owners.get(card) ?? -1, ["in-meld"], true)))))));
  } else {
    area.append(element("div", { className: "empty-table", textContent: "no melds on the table yet" }));
  }
  return area;
}

export function seat(obs, s) {
  const out = [];
  const score = obs.scores?.[s];
  if (score !== undefined && score !== null) out.push(element("span", { className: "stat", textContent: `${score} pts down` }));
  const taken = obs.taken?.[s] ?? [];
  if (taken.length) out.push(element("span", { className: "took" }, "took ", cardRow(taken, ["tiny"])));
  if (obs.went_out === s) out.push(badge("went out", "good"));
  return out;
}
