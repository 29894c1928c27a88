// What a bot's judgement tells the seat: a hint (the move it suggests, selected in the hand,
// with the reason and, a click away, the figures behind it) and, after a deal, the review of
// the seat's moves.
import { actionCards, prettyAction } from "./cards.js";
import { byId as $, element, say } from "./dom.js";
import { renderHand } from "./hand.js";
import { markSuggested, renderActions } from "./moves.js";
import { relabel, S, send } from "./table-state.js";

export function askHint() {
  const ref = send({ type: "hint" });
  if (!ref) return;
  S.hintAsked = { ref, version: S.version };
  say($("message"), "Thinking…", "info");
}

export function showHint(message) {
  // A hint for a decision the table has moved on from (the player moved while it was worked
  // out) would select the wrong cards: it is dropped.
  const asked = S.hintAsked;
  if (asked && message.ref === asked.ref && asked.version !== S.version) return;
  const move = S.view.legal.find((m) => m.action === message.action);
  const cards = move ? move.cards : actionCards(message.action);
  S.selected = new Set(cards.filter((c) => S.view.hand.includes(c)));
  renderHand();
  renderActions();
  markSuggested(move?.verb ?? null);
  const el = $("message");
  // The judge's sentence names the move; the figures behind it are a click away.
  say(el, `Hint: ${message.reason ? relabel(message.reason) : prettyAction(message.action)}`, "hint");
  if (message.details) {
    el.append(" ", element("details", { className: "hint-details" },
      element("summary", { textContent: "details" }), relabel(message.details)));
  }
  el.dataset.action = message.action;
}

export function askReview() {
  if (send({ type: "review" })) say($("message"), "Reviewing your moves…", "info");
}

/** The review of the seat's decisions in a deal: a line each, mistakes marked. */
export function reviewBox(review) {
  const items = review.decisions.map((d) => element("li", { className: d.mistake ? "mistake" : "", textContent: `${d.mistake ? "? " : ""}move ${d.move}: ${relabel(d.reason)}` }));
  return element("div", { id: "review", className: "review" },
    element("h4", { textContent: `Your moves in deal ${review.deal}, judged by ${review.level}` }),
    element("ol", {}, ...items),
    element("p", { className: "muted", textContent: review.lines[review.lines.length - 1] ?? "" }));
}
