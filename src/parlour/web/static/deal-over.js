// The end of a deal: its scores, the hands laid down, the review of the seat's moves, and the
// next step (the next deal; after the match, a rematch or the lobby).
import { askReview, reviewBox } from "./advice.js";
import { api, owners, seats } from "./api.js";
import { cardRow } from "./cards.js";
import { byId as $, element, say } from "./dom.js";
import { relabel, S, seatName, send } from "./table-state.js";

export function renderDealOver() {
  const view = S.view;
  const panel = $("deal-over");
  const result = view.result;
  if (!view.deal_over || !result) {
    panel.hidden = true;
    panel.replaceChildren();
    return;
  }
  const n = S.table.players;
  const winners = new Set(result.winners ?? []);
  const rows = Array.from({ length: n }, (_, s) => element("tr", { className: winners.has(s) ? "winner" : "" },
    element("th", { textContent: seatName(s) + (s === S.seat ? " (you)" : "") }),
    element("td", { textContent: result.scores?.deal?.[s] ?? "" }),
    element("td", { textContent: result.scores?.totals?.[s] ?? "" })));
  // The scores as every table shows them, under headings that say what they count.
  const [dealHeading, matchHeading] = S.table.scores?.headings ?? ["this deal", "match"];
  const parts = [
    element("h3", { textContent: result.match_over ? "The match is over" : `Deal ${view.deal} is over` }),
    element("p", { className: "summary", textContent: relabel(result.summary ?? "") }),
    element("table", { className: "results" },
      element("thead", {}, element("tr", {}, element("th", { textContent: "" }), element("th", { textContent: dealHeading }), element("th", { textContent: matchHeading }))),
      element("tbody", {}, ...rows)),
  ];
  // The hands left, where the rules lay them down to be counted.
  const shown = result.hands ?? [];
  if (shown.length) {
    parts.push(element("div", { className: "shown" }, ...shown.map((cards, s) => element("div", { className: "shown-hand" },
      element("span", { className: "who", textContent: `${seatName(s)}:` }),
      (cards ?? []).length ? cardRow(cards, ["small"]) : element("span", { className: "muted", textContent: "no cards" })))));
  }
  if (S.review?.deal === view.deal) parts.push(reviewBox(S.review));
  const review = S.seat !== null
    ? element("button", { type: "button", id: "review-btn", textContent: "Review my moves", onclick: askReview })
    : null;
  if (result.match_over) {
    parts.push(element("p", { className: "winners", textContent: `Winner${winners.size === 1 ? "" : "s"}: ${[...winners].map(seatName).join(", ")}` }));
    if (S.seat !== null) {
      parts.push(element("button", { type: "button", id: "rematch-btn", className: "primary", textContent: S.rematch ? "Join the rematch" : "Play again", onclick: playAgain }));
      parts.push(review);
    }
    parts.push(element("a", { className: "button", href: "#/", id: "to-lobby", textContent: "Back to the lobby" }));
  } else if (S.seat !== null) {
    parts.push(element("button", { type: "button", id: "next-deal", className: "primary", textContent: "Next deal", onclick: nextDeal }));
    parts.push(review);
  } else {
    parts.push(element("p", { className: "muted", textContent: "Waiting for a player to start the next deal." }));
  }
  panel.replaceChildren(...parts);
  panel.hidden = false;
}

export function nextDeal() {
  send({ type: "next_deal" });
}

/** Play again at a rematch table (made by the first to ask), in the same seat. */
async function playAgain() {
  const held = seats.get(S.id);
  if (!held) return;
  try {
    const joined = await api.rematch(S.id, held.token);
    seats.set(joined.table.id, { seat: joined.seat, token: joined.token, name: held.name ?? null });
    if (joined.owner_token) owners.set(joined.table.id, joined.owner_token);
    location.hash = `#/table/${encodeURIComponent(joined.table.id)}`;
  } catch (err) {
    say($("message"), err.message, "error");
  }
}
