// The climbing games' felt (big-two-4card, big-two, pusoy-dos): the play to beat, who is out,
// and the last round of plays; on each seat, its place once it is out.
import { actionCards, cardRow } from "../cards.js";
import { element } from "../dom.js";
import { badge, caption, ORDINALS } from "../pieces.js";

export function felt(obs, ctx) {
  const area = element("div", { className: "play-area climbing" });
  if (ctx.view.caption) area.append(caption(ctx.relabel(ctx.view.caption)));
  if (obs.table) area.append(cardRow(actionCards(obs.table), ["table-card"]));
  else area.append(element("div", { className: "empty-table", textContent: "the table is clear" }));
  const finished = obs.finished ?? [];
  if (finished.length) {
    area.append(caption(`Out: ${finished.map((s, i) => `${ORDINALS[i]} ${ctx.seatName(s)}`).join(", ")}`, "note"));
  }
  const recent = (obs.history ?? []).slice(-(ctx.table.players));
  if (recent.length) {
    area.append(element("ol", { className: "recent" }, ...recent.map(([seat, action]) =>
      element("li", { dataset: { seat } },
        element("span", { className: "who", textContent: ctx.seatName(seat) }),
        actionCards(action).length ? cardRow(actionCards(action), ["tiny"])
          : element("span", { className: "word", textContent: action })))));
  }
  return area;
}

export function seat(obs, s) {
  const out = [];
  const place = (obs.finished ?? []).indexOf(s);
  if (place >= 0) out.push(badge(`out · ${ORDINALS[place]}`, "good"));
  return out;
}
