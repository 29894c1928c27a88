// The table: drawn from the View the server sends, by the shared modules beside this one (the
// seats and head, the hand, the moves, the log, the deal's end, the turn timer, the owner's
// menus, hints and reviews, a tutorial's notes) and, in the middle, by the felt module of the
// game's family, named
// by the family's record from /api/variants (family.js). This module holds them together: it
// opens and closes the table, answers the socket's messages, draws the whole table on each
// update (again on a change of the settings, and with the cue of each update: a card that came
// onto the felt eased in, a sound), and takes the table's keys from anywhere on the page (but a
// text field: the chat's input, a name).
import { api, loadVariants, owners, playerName, seats, TableSocket } from "./api.js";
import { askHint, showHint } from "./advice.js";
import { addChatLines, chatRefused, renderChat, resetChat, setChatInfo, wireChat } from "./chat.js";
import { nextDeal, renderDealOver } from "./deal-over.js";
import { byId as $, element, say } from "./dom.js";
import { loadFelt, renderFelt, renderVerbKeys, verbOfKey } from "./family.js";
import { keepFocus, keyboardPlace, renderHand, roverCard, wireHand } from "./hand.js";
import { takeSeat } from "./lobby.js";
import { renderLog } from "./log.js";
import { act, clearSelection, markSuggested, renderActions } from "./moves.js";
import { renderHead, renderSeats } from "./seats.js";
import { onSettings, settings } from "./settings.js";
import { playSound } from "./sounds.js";
import { relabel, S, seatName } from "./table-state.js";
import { comeBack, countdown, renderNotice, runsFor, setTimer, showNotice } from "./timer.js";
import { hintDue, moved, renderTutorial } from "./tutorial.js";

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
  if (view.your_turn && runsFor(S.seat)) turn.append(" ", countdown("long"));
}

/** The cards on the felt now, by their faces. */
function feltCards() {
  return new Set([...$("felt").querySelectorAll(".card[data-card]")].map((c) => c.dataset.card));
}

/** Mark the cards that came onto the felt since it was last drawn at this table (a card played
 * to the trick, a meld, a discard): the style sheet eases them in, unless the player turned the
 * animations off or their system asks for reduced motion. */
function markArrivals(before) {
  if (!before) return;
  for (const card of $("felt").querySelectorAll(".card[data-card]")) {
    if (!before.has(card.dataset.card)) card.classList.add("arrive");
  }
}

/** The sounds an update calls for, if the player switched them on: a card played (fewer cards
 * held in all, in the same deal) and the turn come to this seat. */
function soundCues(before, view, table) {
  if (!before || !settings().sounds) return;
  const held = (v) => (v.hand_sizes ?? []).reduce((sum, n) => sum + n, 0);
  const played = before.table.deal === table.deal && held(view) < held(before.view);
  if (played) playSound("card");
  if (view.your_turn && !before.view.your_turn) playSound("turn", played ? 0.15 : 0);
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
  const before = S.feltCards;
  renderFelt(obs);
  S.feltCards = obs ? feltCards() : null;
  markArrivals(obs ? before : null);
  renderTurn(obs);
  renderHand();
  renderActions();
  renderDealOver();
  renderLog();
  renderChat();
  renderTutorial();
  keepFocus(keyboard);
}

// -- the keyboard ----------------------------------------------------------------------------------

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
  // The settings dialog open: its keys are its own (Escape closes it).
  if ($("settings").open) return;
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

// -- talking to the server -------------------------------------------------------------------------

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
      if (changed && S.view && S.table) soundCues({ view: S.view, table: S.table }, message.view, message.table);
      if (changed) moved(S.view);
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
      // A tutorial shows the hint at every turn of the player's, unasked.
      if (hintDue(changed)) askHint();
      break;
    }
    case "chat":
      addChatLines(message.lines);
      break;
    case "error":
      if (chatRefused(message)) break;
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
  wireChat();
  // A card selected or unselected: an old hint or choice of meld no longer applies.
  wireHand(() => {
    say($("message"), "");
    $("choices").hidden = true;
    markSuggested(null);
  });
  document.addEventListener("keydown", onKey);
  // A new order of the hand, a card size, colours: the table drawn again at once.
  onSettings(() => {
    if (!$("table-view").hidden) render();
  });
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
}

export async function openTable(id) {
  if (S.id === id && S.socket) return;
  closeTable();
  wire();
  const stored = seats.get(id);
  Object.assign(S, {
    id, seat: stored?.seat ?? null, token: stored?.token ?? null, table: null, view: null,
    version: -1, family: null, felt: null, feltCards: null, selected: new Set(), rover: null, labels: null, owner: owners.get(id),
    menus: new Map(), review: null, rematch: null, hintAsked: null, notesRead: 0,
  });
  $("table-view").hidden = false;
  $("table-error").hidden = true;
  $("join-name").value = playerName.get();
  $("felt").replaceChildren(element("p", { className: "muted", textContent: "Connecting to the table…" }));
  for (const part of ["opponents", "me", "hand", "verbs", "log", "tutorial-notes"]) $(part).replaceChildren();
  $("deal-over").hidden = true;
  $("tutorial").hidden = true;
  $("notice").hidden = true;
  say($("message"), "");
  resetChat(id);
  try {
    const [{ table }, { variants, bots, chat }] = await Promise.all([api.table(id), loadVariants()]);
    if (S.id !== id) return;
    const variant = variants.find((v) => v.name === table.variant);
    S.bots = variant?.bots_by_players?.[table.players] ?? variant?.bots ?? bots;
    S.family = variant?.family ?? null;
    S.felt = await loadFelt(S.family);
    if (S.id !== id) return;
    renderVerbKeys();
    setChatInfo(chat);
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
