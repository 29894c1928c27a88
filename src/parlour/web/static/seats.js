// The seats around the table and the table's head: each seat's box (its name, who plays it,
// its cards left, what its family's felt shows of it, its total, the owner's menu) and, above,
// the table's title, settings and the match's standing.
import { byId as $, element, fmtSeconds } from "./dom.js";
import { feltContext } from "./family.js";
import { ownerMenu } from "./owner.js";
import { badge } from "./pieces.js";
import { S, seatName } from "./table-state.js";
import { countdown, runsFor } from "./timer.js";

function miniBacks(count) {
  const fan = element("span", { className: "mini-backs", ariaHidden: "true" });
  for (let i = 0; i < Math.min(count, 5); i++) fan.append(element("span", { className: "mini-back" }));
  return fan;
}

function seatBox(obs, seat, mine) {
  const view = S.view;
  const info = S.table.seats[seat] ?? {};
  const count = view.hand_sizes?.[seat];
  const box = element("div", {
    className: `seat-box ${view.current_player === seat ? "active" : ""} ${mine ? "mine" : ""}`,
    dataset: { seat },
  });
  const title = element("div", { className: "seat-name" },
    element("span", { className: `dot seat-colour-${seat % 8}` }),
    element("span", { className: "name", textContent: seatName(seat) + (mine ? " (you)" : "") }));
  if (info.kind === "bot") title.append(badge(info.name === info.bot ? "bot" : `bot · ${info.bot}`, "bot"));
  else if (!info.taken) title.append(badge("free seat", "warn"));
  else if (info.away) title.append(badge(`away — ${S.table.stand_in} plays`, "warn away"));
  else if (!info.connected) title.append(badge("offline", "warn"));
  if (runsFor(seat)) title.append(countdown("short"));
  box.append(title);
  const row = element("div", { className: "seat-details" });
  if (count !== undefined && !mine) row.append(miniBacks(count), element("span", { className: "count", textContent: `${count} card${count === 1 ? "" : "s"}` }));
  if (obs && S.felt) row.append(...S.felt.seat(obs, seat, feltContext()));
  // What the view counts per seat (Spoil Five's chips), as the table's text counts it.
  for (const [label, values] of Object.entries(S.view?.seat_figures ?? {})) {
    if (values[seat] !== undefined) row.append(element("span", { className: "stat", textContent: `${values[seat]} ${label}` }));
  }
  // The match total as every table shows it (penalties counted up from 0), unless the family's
  // felt shows it in place (the trump games: the sides' points, or the chips).
  const total = S.table.scores?.totals?.[seat];
  if (total !== undefined && S.family?.seat_totals !== false) row.append(element("span", { className: "total", textContent: `${S.table.scores.standing} ${total}` }));
  box.append(row);
  const menu = ownerMenu(seat, info);
  if (menu) box.append(menu);
  return box;
}

export function renderHead() {
  const t = S.table;
  $("table-title").textContent = `${t.variant} · ${t.status === "waiting" ? "waiting for players" : `deal ${t.deal}`}`;
  $("topbar-info").textContent = S.seat === null ? `table ${t.id} · watching` : `table ${t.id} · ${seatName(S.seat)}`;
  document.title = `${t.variant} · parlour`;
  const seed = $("table-seed");
  seed.hidden = !t.seeded;
  seed.textContent = t.seeded ? `seeded: ${t.seed}` : "";
  const timer = $("table-timer");
  timer.hidden = !t.turn_timeout;
  timer.textContent = t.turn_timeout ? `${fmtSeconds(t.turn_timeout)} a turn` : "";
  timer.title = t.turn_timeout ? `${t.stand_in} plays for whoever lets the timer run out` : "";
  const standing = $("standing");
  standing.replaceChildren();
  if (t.deal > 0) {
    standing.append(element("span", { className: "muted", textContent: `${t.scores?.standing ?? "match"}: ` }),
      ...t.seats.map((s) => element("span", { className: "standing-seat", dataset: { seat: s.seat }, textContent: `${seatName(s.seat)} ${t.scores?.totals?.[s.seat] ?? 0}` })));
  }
  if (t.match_end) standing.append(element("span", { className: "muted match-end", textContent: t.match_end }));
  const free = t.seats.some((s) => s.kind === "human" && !s.taken);
  $("join-bar").hidden = !(S.seat === null && free && t.status !== "finished");
}

/** The other seats above the felt, in turn from this one, and this seat below it. */
export function renderSeats(obs) {
  const n = S.table.players;
  const start = S.seat ?? 0;
  const others = [];
  for (let k = S.seat === null ? 0 : 1; k < n; k++) others.push((start + k) % n);
  $("opponents").replaceChildren(...others.map((s) => seatBox(obs, s, false)));
  $("me").replaceChildren(...(S.seat === null ? [] : [seatBox(obs, S.seat, true)]));
}
