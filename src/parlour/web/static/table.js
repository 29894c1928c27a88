// The table: everything drawn from the View the server sends (hand, observation fields, text,
// the tricks and the caption over the table play, log, legal moves). What differs per family (the
// play to beat, the trick and trumps, the melds and piles) is its felt module (its family's
// felt.js, served as /static/felts/<family>.js: a felt and a few seat details), named by the
// family's record from /api/variants, which gives its verbs' labels and keys too; the rest is
// shared. Around the game: the turn timer's countdown, the notice when a stand-in bot took over,
// and the owner's seat menus.
import { api, loadVariants, owners, playerName, seats, TableSocket } from "./api.js";
import { actionCards, cardElement, cardRow, prettyAction, prettyCards } from "./cards.js";
import { byId as $, element, fmtSeconds, say } from "./dom.js";
import { takeSeat } from "./lobby.js";
import { badge } from "./pieces.js";

// The least width of a card in hand left showing, in CSS pixels: enough for a finger.
const MIN_VISIBLE = 40;

const S = {
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
  selected: new Set(),
  // The card of the hand that Tab reaches (the hand is one stop, arrows move within it) and
  // its place, kept across updates: the nearest card takes over when it leaves the hand.
  rover: null,
  labels: null,
  // The turn timer of the last update: the seat it runs for and when it runs out
  // (performance.now() milliseconds); null when none runs.
  timer: null,
  ticking: null,
  // The owner token, when this browser created the table; the bot levels for its seat menus,
  // and each seat's menu, kept from one update to the next so that an open menu stays open.
  owner: null,
  bots: [],
  menus: new Map(),
  // The last review of this seat's moves (a "review" message), and the rematch table once a
  // player asked for one.
  review: null,
  rematch: null,
};

// -- names -----------------------------------------------------------------------------------------

/** What the table calls a seat (the server numbers names that two seats share). */
function seatName(seat) {
  return S.table?.seats?.[seat]?.display ?? `P${seat}`;
}

/** A seat's name in a few letters, for the tags under melded cards ("Ann", "g2"). */
function shortName(seat) {
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
function relabel(text) {
  return prettyCards(named(text));
}

function named(text) {
  if (!S.labels) S.labels = namer(Array.from({ length: S.table?.players ?? 0 }, (_, s) => seatName(s)));
  return S.labels(text);
}

/** A function that puts in a text each seat's name from `names` (by seat) for its label. */
function namer(names) {
  const labels = names.map((name, s) => [labelOf(s), name ?? labelOf(s)]);
  labels.sort((a, b) => b[0].length - a[0].length);
  const escaped = labels.map(([l]) => l.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
  if (!escaped.length) return (text) => String(text);
  const map = new Map(labels);
  const re = new RegExp(`\\b(${escaped.join("|")})\\b`, "g");
  return (text) => String(text).replace(re, (l) => map.get(l) ?? l);
}

// -- small pieces ---------------------------------------------------------------------------------

function miniBacks(count) {
  const fan = element("span", { className: "mini-backs", ariaHidden: "true" });
  for (let i = 0; i < Math.min(count, 5); i++) fan.append(element("span", { className: "mini-back" }));
  return fan;
}

// -- the family: its felt module and its verbs ----------------------------------------------------

/** The felt module of the game's family (`static/felts/<felt>.js`), or null: the table's text. */
async function loadFelt(family) {
  const name = family?.felt ?? "";
  if (!/^[a-z0-9-]+$/.test(name)) return null;
  try {
    return await import(`./felts/${name}.js`);
  } catch {
    return null;
  }
}

/** What a felt may read of the table (see pieces.js). */
function feltContext() {
  return { view: S.view, table: S.table, seat: S.seat, seatName, shortName, relabel };
}

function verbOf(name) {
  return S.family?.verbs?.find((v) => v.name === name) ?? null;
}

function verbOfKey(key) {
  return S.family?.verbs?.find((v) => v.key === key)?.name ?? null;
}

/** The Keys panel's lines for the game's verbs, from its family's record. */
function renderVerbKeys() {
  $("verb-keys").replaceChildren(...(S.family?.verbs ?? []).map((v) =>
    element("tr", {}, element("th", {}, element("kbd", { textContent: v.key })),
      element("td", { textContent: v.help }))));
}

// -- the page --------------------------------------------------------------------------------------

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
  if (S.timer?.seat === seat) title.append(countdown("short"));
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

function renderHead() {
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

function renderSeats(obs) {
  const n = S.table.players;
  const start = S.seat ?? 0;
  const others = [];
  for (let k = S.seat === null ? 0 : 1; k < n; k++) others.push((start + k) % n);
  $("opponents").replaceChildren(...others.map((s) => seatBox(obs, s, false)));
  $("me").replaceChildren(...(S.seat === null ? [] : [seatBox(obs, S.seat, true)]));
}

function renderFelt(obs) {
  const felt = $("felt");
  if (!obs) {
    const free = S.table.seats.filter((s) => s.kind === "human" && !s.taken).length;
    felt.replaceChildren(element("div", { className: "waiting" },
      element("p", { textContent: free ? `Waiting for ${free} more player${free === 1 ? "" : "s"} to take a seat.` : "Dealing…" }),
      element("p", { className: "muted", textContent: "Share this page's address: whoever opens it can take a free seat." })));
    return;
  }
  felt.replaceChildren(S.felt ? S.felt.felt(obs, feltContext()) : element("pre", { className: "text", textContent: relabel(S.view.text) }));
}

function playableCards() {
  const playable = new Set();
  for (const move of S.view.legal) for (const c of move.cards) playable.add(c);
  return playable;
}

function renderHand() {
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
  for (const card of view.hand) {
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
  say($("message"), "");
  $("choices").hidden = true;
  renderHand();
  markSuggested(null);
}

function renderActions() {
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

function renderTurn(obs) {
  const view = S.view;
  let text;
  if (view.deal_over) text = "The deal is over.";
  else if (!obs) text = "";
  else if (view.your_turn && S.table.seats[S.seat]?.away) text = `Your turn: ${S.table.stand_in} plays it for you while you are away.`;
  else if (view.your_turn) text = `Your turn: ${view.prompt ?? "choose a move"}.`;
  else if (view.current_player >= 0) {
    const bot = S.table.seats[view.current_player]?.kind === "bot";
    text = `${seatName(view.current_player)}${bot ? " (bot) is thinking…" : " to play."}`;
  } else text = "";
  const turn = $("turn");
  turn.textContent = text;
  turn.classList.toggle("yours", Boolean(view.your_turn));
  if (view.your_turn && S.timer?.seat === S.seat) turn.append(" ", countdown("long"));
}

function renderDealOver(obs) {
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

/** The log, each line naming the seats as the table called them when it was written (the
 * server's `log_names`: a seat handed on since, or renumbered, changes no earlier line). */
function renderLog() {
  const log = $("log");
  const lines = S.view.log ?? [];
  const runs = S.view.log_names ?? [];
  let run = -1;
  let name = named;
  log.replaceChildren(...lines.map((line, i) => {
    while (run + 1 < runs.length && runs[run + 1][0] <= i) name = namer(runs[++run][1]);
    return element("li", { textContent: name(prettyCards(line)) });
  }));
  log.scrollTop = log.scrollHeight;
  $("text").textContent = relabel(S.view.text ?? "");
}

function render() {
  if (!S.table || !S.view) return;
  const obs = S.view.observation;
  const root = $("table-view");
  root.dataset.version = S.version;
  root.dataset.yourTurn = String(Boolean(S.view.your_turn));
  root.dataset.dealOver = String(Boolean(S.view.deal_over));
  root.dataset.family = S.family?.name ?? "";
  root.dataset.seat = S.seat ?? "";
  root.dataset.status = S.table.status;
  const keyboard = keyboardPlace();
  renderHead();
  renderNotice();
  renderSeats(obs);
  renderFelt(obs);
  renderTurn(obs);
  renderHand();
  renderActions();
  renderDealOver(obs);
  renderLog();
  keepFocus(keyboard);
}

// -- the keyboard ----------------------------------------------------------------------------------

/** The card of the hand that has the keyboard focus and its place ({card, index}), or null. */
function focusedCard() {
  const el = document.activeElement;
  if (!el?.matches("#hand .card")) return null;
  return { card: el.dataset.card, index: [...$("hand").querySelectorAll(".card")].indexOf(el) };
}

/** The card Tab reaches: the rover if still in the hand, else the one now at its place. */
function roverCard() {
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
function keyboardPlace() {
  const el = document.activeElement;
  if (!el?.closest("#hand, #actions, #choices, #deal-over")) return null;
  return { id: el === $("hand") ? "" : el.id };
}

/** After a render, focus that fell to the page (its element redrawn or hidden) goes to the
 * element of the same id, else to the hand, else, the hand empty, to the deal's next step. */
function keepFocus(place) {
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

/** Whether a key pressed in `target` is typing (a name, a bot level), not a command. */
function typing(target) {
  return Boolean(target?.closest?.("input, textarea, select, [contenteditable]"));
}

/** The table's keys, from anywhere on the page but a text field: a letter makes the move of its
 * verb with the selected cards, 1-9 pick a lay-off's meld, and the rest as the Keys panel says.
 * A key held down acts once; with Ctrl, Alt or Meta it is the browser's. */
function onKey(event) {
  if (event.defaultPrevented || event.ctrlKey || event.altKey || event.metaKey || event.repeat) return;
  if ($("table-view").hidden || S.seat === null || !S.view || typing(event.target)) return;
  const key = event.key.length === 1 ? event.key.toLowerCase() : event.key;
  const choices = $("choices");
  const verb = verbOfKey(key);
  let done = true;
  if (!choices.hidden && /^[1-9]$/.test(key)) choices.querySelectorAll("button.choice")[Number(key) - 1]?.click();
  else if (!choices.hidden && key === "Escape") {
    if (choices.contains(document.activeElement)) roverCard()?.focus();
    choices.hidden = true;
  }
  else if (verb) {
    done = !$("actions").hidden && (S.view.verbs ?? []).includes(verb);
    if (done) act(verb);
  } else if (key === "c") clearSelection();
  else if (key === "h") {
    done = !$("hint-btn").disabled;
    if (done) askHint();
  } else if (key === "n") {
    done = Boolean($("next-deal"));
    if (done) nextDeal();
  } else if (key === "?") $("keys-help").open = !$("keys-help").open;
  else done = false;
  if (done) event.preventDefault();
}

// -- the turn timer, the stand-in and the owner's menus --------------------------------------------

/** A countdown of the running turn timer, kept up to date by `tick` ("long": "12 s left"; the
 * short one, on the seat, is drawn with a clock face by the style sheet). */
function countdown(kind) {
  // A timer role, not announced each second (the turn line around it is a live region).
  const el = element("span", {
    className: `countdown ${kind}`, dataset: { countdown: kind }, role: "timer", "aria-live": "off",
  });
  showCountdown(el, secondsLeft());
  return el;
}

function secondsLeft() {
  return S.timer ? Math.max(0, Math.ceil((S.timer.deadline - performance.now()) / 1000)) : 0;
}

function showCountdown(el, left) {
  el.textContent = el.dataset.countdown === "long" ? `${left} s left` : `${left} s`;
  el.classList.toggle("urgent", left <= 5);
}

/** The update's timer counts down here from the seconds it had left when it was sent. */
function setTimer(timer) {
  S.timer = timer ? { seat: timer.seat, deadline: performance.now() + timer.seconds * 1000 } : null;
  clearInterval(S.ticking);
  S.ticking = S.timer ? setInterval(tick, 250) : null;
}

function tick() {
  const left = secondsLeft();
  for (const el of document.querySelectorAll("#table-view [data-countdown]")) showCountdown(el, left);
}

/** The server's notice stays until the seat is back from its stand-in (`I'm back`, or a move). */
function showNotice(message) {
  $("notice-text").textContent = message;
  $("notice").hidden = false;
}

function renderNotice() {
  const mine = S.seat === null ? null : S.table.seats[S.seat];
  if (!mine?.away) $("notice").hidden = true;
  else if ($("notice").hidden) {
    // Came back to the page while away (a reload): the notice went to the old connection.
    showNotice(`Your time ran out: ${S.table.stand_in} plays for you until you act again.`);
  }
}

function comeBack() {
  send({ type: "back" });
}

/** Whether the owner may hand `info`'s seat on: a person's seat that is free or whose player is
 * not connected, at a table still in play. */
function canHandOver(info) {
  return Boolean(S.owner) && info.kind === "human" && !(info.taken && info.connected) &&
    S.table.status !== "finished" && S.table.status !== "archived";
}

/** The owner's menu for `seat` (null when it has none): the same element across updates. */
function ownerMenu(seat, info) {
  if (!canHandOver(info)) {
    S.menus.delete(seat);
    return null;
  }
  if (!S.menus.has(seat)) S.menus.set(seat, buildOwnerMenu(seat));
  const menu = S.menus.get(seat);
  menu.querySelector(".free-seat").hidden = !info.taken;
  return menu;
}

function buildOwnerMenu(seat) {
  const level = element("select", { className: "menu-bot", "aria-label": "bot level" },
    ...S.bots.map((b) => element("option", { value: b, textContent: b })));
  level.value = S.bots.includes(S.table.stand_in) ? S.table.stand_in : S.bots[0];
  const error = element("p", { className: "error menu-error", role: "alert", hidden: true });
  const menu = element("details", { className: "owner-menu", dataset: { seat } },
    element("summary", { textContent: "hand on…", title: "you created this table: hand this seat on" }),
    element("div", { className: "menu-body" },
      element("div", { className: "menu-row" }, level,
        element("button", {
          type: "button", className: "small hand-to-bot", textContent: "hand to a bot",
          onclick: () => handOver(menu, seat, { to: "bot", bot: level.value }),
        })),
      element("button", {
        type: "button", className: "small free-seat", textContent: "free the seat",
        onclick: () => handOver(menu, seat, { to: "free" }),
      }),
      error));
  return menu;
}

async function handOver(menu, seat, body) {
  const error = menu.querySelector(".menu-error");
  const buttons = menu.querySelectorAll("button");
  say(error, "");
  buttons.forEach((b) => { b.disabled = true; });
  try {
    await api.handOver(S.id, seat, S.owner, body);
    // The seat's new state comes with the update the server sends everyone.
    menu.open = false;
  } catch (err) {
    say(error, err.message, "error");
  } finally {
    buttons.forEach((b) => { b.disabled = false; });
  }
}

// -- talking to the server -------------------------------------------------------------------------

function send(message) {
  try {
    S.socket.send(message);
    return true;
  } catch (err) {
    say($("message"), err.message, "error");
    return false;
  }
}

function sameCards(a, b) {
  return a.length === b.length && a.every((c) => b.includes(c));
}

function act(verb) {
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

function markSuggested(verb) {
  for (const b of $("verbs").querySelectorAll("button")) b.classList.toggle("suggested", b.dataset.verb === verb);
}

function askHint() {
  if (send({ type: "hint" })) say($("message"), "Thinking…", "info");
}

function showHint(message) {
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

function clearSelection() {
  S.selected.clear();
  say($("message"), "");
  renderHand();
  renderActions();
}

function nextDeal() {
  send({ type: "next_deal" });
}

function askReview() {
  if (send({ type: "review" })) say($("message"), "Reviewing your moves…", "info");
}

/** The review of the seat's decisions in a deal: a line each, mistakes marked. */
function reviewBox(review) {
  const items = review.decisions.map((d) => element("li", { className: d.mistake ? "mistake" : "", textContent: `${d.mistake ? "? " : ""}move ${d.move}: ${relabel(d.reason)}` }));
  return element("div", { id: "review", className: "review" },
    element("h4", { textContent: `Your moves in deal ${review.deal}, judged by ${review.level}` }),
    element("ol", {}, ...items),
    element("p", { className: "muted", textContent: review.lines[review.lines.length - 1] ?? "" }));
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

async function copyInvite() {
  const link = `${location.origin}${location.pathname}#/table/${encodeURIComponent(S.id)}`;
  try {
    await navigator.clipboard.writeText(link);
    say($("message"), `Copied the invite link: ${link}`, "info");
  } catch {
    say($("message"), `The invite link: ${link}`, "info");
  }
}

function onMessage(message) {
  switch (message.type) {
    case "welcome":
      S.seat = message.seat ?? null;
      S.table = message.table;
      S.labels = null;
      break;
    case "update": {
      const changed = message.version !== S.version;
      S.table = message.table;
      S.view = message.view;
      S.version = message.version;
      S.labels = null;
      setTimer(message.timer);
      const hand = new Set(S.view.hand ?? []);
      S.selected = new Set([...S.selected].filter((c) => hand.has(c)));
      if (changed) {
        // The game moved on: an old hint or refusal no longer applies.
        say($("message"), "");
        $("choices").hidden = true;
      }
      render();
      break;
    }
    case "error":
      if (message.ref === null || message.ref === undefined) say($("table-error"), message.message, "error");
      else say($("message"), relabel(message.message), "error");
      break;
    case "hint":
      showHint(message);
      break;
    case "review":
      S.review = message;
      say($("message"), "");
      render();
      break;
    case "rematch":
      S.rematch = message.table;
      render();
      break;
    case "notice":
      showNotice(message.message);
      break;
    default:
      break;
  }
}

function onStatus(status, code) {
  const conn = $("conn");
  conn.hidden = false;
  conn.dataset.status = status;
  conn.textContent = { connecting: "connecting…", connected: "connected", reconnecting: "reconnecting…", refused: "disconnected" }[status] ?? status;
  if (status === "refused" && code === 4401 && S.id) {
    // The stored token holds no seat here (any more): watch instead.
    seats.forget(S.id);
    const id = S.id;
    closeTable();
    openTable(id);
    say($("table-error"), "This browser's seat at the table was not recognised: you are watching.", "error");
  } else if (status === "refused" && code === 4404) {
    say($("table-error"), "There is no such table.", "error");
  }
}

let wired = false;

function wire() {
  if (wired) return;
  wired = true;
  $("hint-btn").addEventListener("click", askHint);
  $("invite-btn").addEventListener("click", copyInvite);
  $("back-btn").addEventListener("click", comeBack);
  $("clear-btn").addEventListener("click", clearSelection);
  $("hand").addEventListener("keydown", onHandKey);
  document.addEventListener("keydown", onKey);
  $("join-bar").addEventListener("submit", async (event) => {
    event.preventDefault();
    const name = $("join-name").value.trim();
    if (name) playerName.set(name);
    try {
      await takeSeat(S.id, null, name);
      const id = S.id;
      closeTable();
      openTable(id);
    } catch (err) {
      say($("table-error"), err.message, "error");
    }
  });
  new ResizeObserver(layoutHand).observe($("hand"));
}

export async function openTable(id) {
  if (S.id === id && S.socket) return;
  closeTable();
  wire();
  const stored = seats.get(id);
  Object.assign(S, {
    id, seat: stored?.seat ?? null, token: stored?.token ?? null, table: null, view: null,
    version: -1, family: null, felt: null, selected: new Set(), rover: null, labels: null, owner: owners.get(id),
    menus: new Map(), review: null, rematch: null,
  });
  $("table-view").hidden = false;
  $("table-error").hidden = true;
  $("join-name").value = playerName.get();
  $("felt").replaceChildren(element("p", { className: "muted", textContent: "Connecting to the table…" }));
  for (const part of ["opponents", "me", "hand", "verbs", "log"]) $(part).replaceChildren();
  $("deal-over").hidden = true;
  $("notice").hidden = true;
  say($("message"), "");
  try {
    const [{ table }, { variants, bots }] = await Promise.all([api.table(id), loadVariants()]);
    if (S.id !== id) return;
    const variant = variants.find((v) => v.name === table.variant);
    S.bots = variant?.bots_by_players?.[table.players] ?? variant?.bots ?? bots;
    S.family = variant?.family ?? null;
    S.felt = await loadFelt(S.family);
    if (S.id !== id) return;
    renderVerbKeys();
    S.table = S.table ?? table;
    $("table-rules").textContent = variant?.rules ?? "";
  } catch (err) {
    say($("table-error"), err.message, "error");
    return;
  }
  S.socket = new TableSocket(id, S.token, { onMessage, onStatus });
}

export function closeTable() {
  S.socket?.close();
  S.socket = null;
  S.id = null;
  setTimer(null);
  $("table-view").hidden = true;
  $("conn").hidden = true;
}
