// The seat's hand: its cards (the playable ones marked, the selected ones raised), in the order
// the settings ask for, laid out to fit the width, selected by click or by keyboard, and where
// the keyboard focus goes when the table is drawn again.
import { cardElement, prettyCards, sortCards } from "./cards.js";
import { byId as $, element } from "./dom.js";
import { settings } from "./settings.js";
import { S } from "./table-state.js";

// The least width of a card in hand left showing, in CSS pixels: enough for a finger.
const MIN_VISIBLE = 40;

// What the table does when the player selects or unselects a card, after the hand is drawn
// again (see `wireHand`).
let toggled = () => {};

/** Listen to the hand's keys and size; `onToggle` is called each time the selection changes
 * by a click or a key in the hand. */
export function wireHand(onToggle) {
  toggled = onToggle;
  $("hand").addEventListener("keydown", onHandKey);
  new ResizeObserver(layoutHand).observe($("hand"));
}

function playableCards() {
  const playable = new Set();
  for (const move of S.view.legal) for (const c of move.cards) playable.add(c);
  return playable;
}

export function renderHand() {
  const view = S.view;
  const hand = $("hand");
  // Redrawing the hand drops the focus of a card in it: it goes back to the same card, or the
  // nearest one, so that a keyboard player goes on from where they were.
  const focused = focusedCard();
  const inHand = Boolean(document.activeElement?.closest("#hand"));
  if (focused) S.rover = focused;
  hand.replaceChildren();
  if (S.seat === null) {
    hand.append(element("p", { className: "muted watching", textContent: "You are watching: no hand is shown." }));
    return;
  }
  const playable = playableCards();
  const anyCards = view.legal.some((m) => m.cards.length);
  // In the order the player chose (the game's own unless they chose another): the arrows, the
  // rover and the two rows all follow the cards as they are laid out.
  for (const card of sortCards(view.hand, settings().sort)) {
    const classes = ["in-hand"];
    if (S.selected.has(card)) classes.push("selected");
    if (card === view.new_card) classes.push("new-card");
    if (view.your_turn && anyCards && !playable.has(card)) classes.push("unplayable");
    const el = cardElement(card, classes);
    el.tabIndex = -1;
    el.setAttribute("role", "button");
    el.setAttribute("aria-label", prettyCards(card));
    el.setAttribute("aria-pressed", String(S.selected.has(card)));
    if (card === view.new_card) el.append(element("span", { className: "new-badge", textContent: "new" }));
    el.addEventListener("click", () => toggle(card));
    hand.append(el);
  }
  const rover = roverCard();
  if (rover) {
    rover.tabIndex = 0;
    if (inHand) rover.focus({ preventScroll: true });
  }
  // The last card played, the hand itself keeps the focus until the deal's end has a button.
  if (inHand && !rover) {
    hand.tabIndex = -1;
    hand.focus({ preventScroll: true });
  } else hand.removeAttribute("tabindex");
  $("clear-btn").disabled = S.selected.size === 0;
  layoutHand();
}

/** Overlap the hand's cards just enough to fit its width; where a card would show less than
 * MIN_VISIBLE pixels of itself (a 13-card hand on a phone), the hand takes two rows. */
function layoutHand() {
  const hand = $("hand");
  hand.querySelector(".row-break")?.remove();
  hand.classList.remove("two-rows");
  const cards = [...hand.querySelectorAll(".card")];
  if (!cards.length) return;
  const width = hand.clientWidth - 8;
  const cardWidth = cards[0].offsetWidth;
  const overlap = (n) => (n > 1 ? Math.min(6, (width - n * cardWidth) / (n - 1)) : 0);
  let gap = overlap(cards.length);
  if (cards.length > 1 && cardWidth + gap < MIN_VISIBLE) {
    const first = Math.ceil(cards.length / 2);
    cards[first - 1].after(element("div", { className: "row-break" }));
    hand.classList.add("two-rows");
    gap = overlap(first);
  }
  hand.style.setProperty("--overlap", `${Math.floor(gap)}px`);
}

function toggle(card) {
  // Where every move takes one card (the trump games, a discard), a click picks that card alone.
  const single = S.view.legal.length > 0 && S.view.legal.every((m) => m.cards.length <= 1) ||
    (S.view.legal.length === 0 && Boolean(S.family?.one_card_moves));
  if (S.selected.has(card)) S.selected.delete(card);
  else {
    if (single) S.selected.clear();
    S.selected.add(card);
  }
  renderHand();
  toggled();
}

// -- the keyboard ----------------------------------------------------------------------------------

/** The card of the hand that has the keyboard focus and its place ({card, index}), or null. */
function focusedCard() {
  const el = document.activeElement;
  if (!el?.matches("#hand .card")) return null;
  return { card: el.dataset.card, index: [...$("hand").querySelectorAll(".card")].indexOf(el) };
}

/** The card Tab reaches: the rover if still in the hand, else the one now at its place. */
export function roverCard() {
  const cards = [...$("hand").querySelectorAll(".card")];
  if (!cards.length) return null;
  return cards.find((c) => c.dataset.card === S.rover?.card) ??
    cards[Math.min(S.rover?.index ?? 0, cards.length - 1)];
}

function focusCard(cards, to) {
  for (const c of cards) c.tabIndex = c === to ? 0 : -1;
  S.rover = { card: to.dataset.card, index: cards.indexOf(to) };
  to.focus();
}

/** Where the keyboard plays from before a render: the id of the focused element, when it is
 * in the hand, on the moves' buttons or on the deal's end (null: elsewhere, left alone). */
export function keyboardPlace() {
  const el = document.activeElement;
  if (!el?.closest("#hand, #actions, #choices, #deal-over")) return null;
  return { id: el === $("hand") ? "" : el.id };
}

/** After a render, focus that fell to the page (its element redrawn or hidden) goes to the
 * element of the same id, else to the hand, else, the hand empty, to the deal's next step. */
export function keepFocus(place) {
  const now = document.activeElement;
  if (!place || (now && now !== document.body && now !== $("hand") && now.getClientRects().length)) return;
  const same = place.id ? $(place.id) : null;
  const to = (same?.getClientRects().length ? same : null) ?? roverCard() ??
    $("deal-over").querySelector("button.primary");
  to?.focus({ preventScroll: true });
}

/** Arrows, Home and End move along the hand; Space and Enter select or unselect a card. */
function onHandKey(event) {
  const card = event.target.closest(".card");
  if (!card || event.ctrlKey || event.altKey || event.metaKey) return;
  const cards = [...$("hand").querySelectorAll(".card")];
  const at = cards.indexOf(card);
  const to = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: cards.length - 1 }[event.key];
  if (to !== undefined) {
    event.preventDefault();
    focusCard(cards, cards[Math.max(0, Math.min(to, cards.length - 1))]);
  } else if (event.key === " " || event.key === "Enter") {
    event.preventDefault();
    if (!event.repeat) toggle(card.dataset.card);
  }
}
