// The seat's moves: a button for each verb it may use now (labelled and keyed as its family's
// record says), the move a verb makes with the selected cards, and the choice between melds when
// the same cards fit several.
import { prettyAction } from "./cards.js";
import { byId as $, element, say } from "./dom.js";
import { verbOf } from "./family.js";
import { renderHand, roverCard } from "./hand.js";
import { S, send } from "./table-state.js";

export function renderActions() {
  const view = S.view;
  const seated = S.seat !== null;
  $("actions").hidden = !seated || Boolean(view.deal_over);
  $("actions").dataset.legal = JSON.stringify(view.legal ?? []);
  $("verbs").replaceChildren(...(view.verbs ?? []).map((verb) => {
    const known = verbOf(verb);
    return element("button", {
      type: "button", className: "verb primary", dataset: { verb }, textContent: known?.label ?? verb,
      "aria-keyshortcuts": known?.key, title: known ? `key: ${known.key}` : null,
      onclick: () => act(verb),
    });
  }));
  $("hint-btn").disabled = !view.your_turn;
}

function sameCards(a, b) {
  return a.length === b.length && a.every((c) => b.includes(c));
}

/** Make the move of `verb` with the selected cards (asking which, where several fit). */
export function act(verb) {
  const moves = S.view.legal.filter((m) => m.verb === verb);
  const selected = [...S.selected];
  $("choices").hidden = true;
  if (moves.length && moves.every((m) => m.cards.length === 0)) {
    send({ type: "action", verb, cards: [] });
    return;
  }
  const fitting = moves.filter((m) => sameCards(m.cards, selected));
  if (fitting.length > 1) {
    // A lay-off that fits several melds: ask which.
    $("choices").replaceChildren(element("span", { textContent: "Which one? " }), ...fitting.map((m) =>
      element("button", {
        type: "button", className: "choice", dataset: { action: m.action },
        textContent: m.target ? `on meld ${m.target}` : prettyAction(m.action),
        onclick: () => {
          $("choices").hidden = true;
          // The choice's button is hidden with the rest: the keyboard goes back to the hand.
          roverCard()?.focus();
          send({ type: "action", action: m.action });
        },
      })));
    $("choices").hidden = false;
    return;
  }
  say($("message"), "");
  send({ type: "action", verb, cards: selected });
}

/** Mark the button of `verb` as the one a hint suggests (null: none). */
export function markSuggested(verb) {
  for (const b of $("verbs").querySelectorAll("button")) b.classList.toggle("suggested", b.dataset.verb === verb);
}

export function clearSelection() {
  S.selected.clear();
  say($("message"), "");
  renderHand();
  renderActions();
}
