// The trump games' felt (forty-five, spoil-five): the turn-up and trumps, what was announced,
// the trick in progress (or the last one) and, where seats play in sides, the sides' points;
// on each seat, the dealer, its side, the robber and its tricks.
import { cardElement, suitIcon } from "../cards.js";
import { element } from "../dom.js";
import { badge, caption, emptySlot, namedCard } from "../pieces.js";

const SUIT_LETTERS = "CDHS";
const SUIT_WORDS = ["clubs", "diamonds", "hearts", "spades"];
const SIDE_NAMES = "AB";

/** The seat that played `card` to a trick of the View's `tricks` (-1: none). */
function seatOfCard(trick, card) {
  return trick.plays.find(([, played]) => played === card)?.[0] ?? -1;
}

function trickRow(ctx, plays, best) {
  return element("div", { className: "trick" }, ...plays.map(({ seat, card }) =>
    namedCard(ctx, card, seat, card === best ? ["winning"] : [])));
}

export function felt(obs, ctx) {
  const area = element("div", { className: "play-area trump" });
  const n = ctx.table.players;
  const sides = ctx.table.sides;
  const suit = SUIT_LETTERS[obs.trump] ?? null;
  const info = element("div", { className: "trump-info" });
  if (obs.turn_up) {
    info.append(element("figure", { className: "turn-up" }, cardElement(obs.turn_up, ["small"]),
      element("figcaption", { textContent: "turn-up" })));
  }
  const facts = element("div", { className: "facts" });
  if (suit) {
    const trumps = element("div", { className: "trumps" }, "Trumps: ");
    trumps.insertAdjacentHTML("beforeend", suitIcon(suit));
    trumps.append(` ${SUIT_WORDS[obs.trump]}`);
    facts.append(trumps);
  }
  if (obs.dealer >= 0 && obs.dealer !== null) facts.append(caption(`Dealer: ${ctx.seatName(obs.dealer)}`, "note"));
  if (obs.robber >= 0) facts.append(caption(`${ctx.seatName(obs.robber)} robbed the turn-up`, "note"));
  if (obs.announced >= 0) facts.append(caption(`${ctx.seatName(obs.announced)} holds the ace of trumps`, "note"));
  if (obs.ace_demoted) facts.append(caption("the ace of trumps ranks lowest this deal", "note"));
  if (obs.jinker >= 0) facts.append(caption(`${ctx.seatName(obs.jinker)} jinked: playing for all five`, "note"));
  // A pool where each plays for it (Spoil Five); sides play for points instead.
  if (!sides && obs.pool !== null && obs.pool !== undefined) facts.append(caption(`Pool: ${obs.pool} chips`, "pool"));
  info.append(facts);
  area.append(info);

  const tricks = ctx.view.tricks ?? [];
  const current = tricks.find((t) => t.winner === null);
  const trick = obs.trick ?? [];
  if (trick.length && obs.leader !== null) {
    const plays = trick.map((card, i) => ({ card, seat: (obs.leader + i) % n }));
    area.append(caption(`Trick ${(obs.trick_winners ?? []).length + 1}` +
      (current ? ` · ${ctx.seatName(seatOfCard(current, current.best))} is winning` : "")));
    const row = trickRow(ctx, plays, current?.best);
    // The seats still to play, in turn, as empty places.
    for (let i = trick.length; i < n; i++) row.append(emptySlot(ctx, (obs.leader + i) % n));
    area.append(row);
  } else {
    const last = tricks.filter((t) => t.winner !== null).pop();
    if (last) {
      area.append(caption(`Trick ${last.number} to ${ctx.seatName(last.winner)}`));
      area.append(trickRow(ctx, last.plays.map(([seat, card]) => ({ seat, card })), last.best));
    } else {
      area.append(element("div", { className: "empty-table", textContent: obs.phase === "rob" ? "robbing: before the first lead" : "no trick yet" }));
    }
  }
  if (sides && Array.isArray(obs.scores)) area.append(sidesPanel(obs, ctx));
  return area;
}

function sidesPanel(obs, ctx) {
  const sides = ctx.table.sides;
  const target = ctx.table.options?.target ?? 45;
  const panel = element("div", { className: "sides" });
  [...new Set(sides)].sort().forEach((k) => {
    const side = SIDE_NAMES[k] ?? String(k + 1);
    const members = sides.map((of, s) => [of, s]).filter(([of]) => of === k).map(([, s]) => s);
    const tricks = members.reduce((sum, s) => sum + (obs.tricks_won?.[s] ?? 0), 0);
    const mine = ctx.seat !== null && sides[ctx.seat] === k;
    // The match totals are the sides' points after the deals finished (each partner holds
    // its side's); the observation's are those before this deal.
    const points = ctx.table.totals?.[members[0]] ?? obs.scores[k] ?? "?";
    panel.append(element("div", { className: `side-score ${mine ? "mine" : ""}`, dataset: { side } },
      element("strong", { textContent: `Side ${side}${mine ? " (your side)" : ""}` }),
      element("span", { textContent: members.map(ctx.seatName).join(", ") }),
      element("span", { className: "points", textContent: `${points} / ${target} points · ${tricks} trick${tricks === 1 ? "" : "s"} this deal` })));
  });
  return panel;
}

export function seat(obs, s, ctx) {
  const out = [];
  if (obs.dealer === s) out.push(badge("dealer"));
  const sides = ctx.table.sides;
  if (sides) out.push(badge(`side ${SIDE_NAMES[sides[s]] ?? sides[s] + 1}`, "side"));
  if (obs.robber === s) out.push(badge("robbed"));
  const tricks = obs.tricks_won?.[s];
  if (tricks !== undefined && tricks !== null) out.push(element("span", { className: "stat", textContent: `${tricks} trick${tricks === 1 ? "" : "s"}` }));
  return out;
}
