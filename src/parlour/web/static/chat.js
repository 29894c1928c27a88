// The table's chat: the lines its players write and their quick reactions, for everyone at the
// table to read; a spectator reads and has no input. Every name and line is put on the page as
// text (textContent), never as markup. A reader may mute a seat for themselves: this browser
// keeps each table's muted seats (localStorage) and hides their lines; the server is not told.
import { byId as $, element, say } from "./dom.js";
import { S, send, seatName } from "./table-state.js";

// The lines kept on the page, as the server keeps them: the last 500.
const KEPT = 500;
const MUTE_KEY = "parlour.mute.";

/** The seats this browser muted at table `id`. */
function loadMutes(id) {
  try {
    const seats = JSON.parse(localStorage.getItem(MUTE_KEY + id));
    return new Set(Array.isArray(seats) ? seats.filter(Number.isInteger) : []);
  } catch {
    return new Set();
  }
}

function saveMutes() {
  if (S.muted.size) localStorage.setItem(MUTE_KEY + S.id, JSON.stringify([...S.muted]));
  else localStorage.removeItem(MUTE_KEY + S.id);
}

/** Start the chat of table `id` afresh: no line yet, this browser's mutes for it. */
export function resetChat(id) {
  S.chat = [];
  S.chatSent = new Map();
  S.muted = loadMutes(id);
  $("chat-lines").replaceChildren();
  $("chat-text").value = "";
  say($("chat-error"), "");
  say($("chat-muted"), "");
}

/** The chat's reactions and limits, as /api/variants gives them: one button per reaction. */
export function setChatInfo(info) {
  const reactions = info?.reactions ?? [];
  $("chat-reactions").replaceChildren(...reactions.map((r) => element("button", {
    type: "button", className: "small reaction", dataset: { reaction: r.name }, textContent: r.text,
    onclick: () => react(r.name),
  })));
  $("chat-text").title = info?.text_limit ? `up to ${info.text_limit} characters` : "";
}

export function wireChat() {
  $("chat-form").addEventListener("submit", (event) => {
    event.preventDefault();
    write();
  });
  $("chat-text").addEventListener("input", () => say($("chat-error"), ""));
}

function write() {
  const input = $("chat-text");
  const text = input.value;
  if (!text.trim()) return;
  const ref = send({ type: "chat", text });
  if (!ref) return;
  S.chatSent.set(ref, text);
  input.value = "";
  say($("chat-error"), "");
}

function react(reaction) {
  const ref = send({ type: "react", reaction });
  if (ref) S.chatSent.set(ref, "");
}

/** Show a refusal of this page's own chat line or reaction (`message.ref` is one of theirs):
 * the line refused comes back into the input to be mended. Whether it was one. */
export function chatRefused(message) {
  if (!S.chatSent?.has(message.ref)) return false;
  const text = S.chatSent.get(message.ref);
  S.chatSent.delete(message.ref);
  const input = $("chat-text");
  if (text && !input.value) input.value = text;
  say($("chat-error"), message.message, "error");
  return true;
}

/** Lines the server sent (a new one, or the latest ones on connecting): each kept once. */
export function addChatLines(lines) {
  const known = new Set(S.chat.map((line) => line.n));
  const fresh = (lines ?? []).filter((line) => !known.has(line.n));
  if (!fresh.length) return;
  S.chat = [...S.chat, ...fresh].sort((a, b) => a.n - b.n).slice(-KEPT);
  // A line of this seat's came: what it sent went through.
  if (fresh.some((line) => line.seat === S.seat)) say($("chat-error"), "");
  renderChatLines();
  if (S.table) renderMutes();
}

function time(t) {
  return new Date(t * 1000).toLocaleTimeString([], { hour: "2-digit", minute: "2-digit" });
}

function chatLine(line) {
  return element("li", {
    className: `chat-line${line.reaction ? " reaction" : ""}`,
    dataset: { n: line.n, seat: line.seat },
    title: new Date(line.t * 1000).toLocaleString(),
  },
  element("span", { className: "chat-time", textContent: time(line.t) }),
  element("span", { className: `chat-name seat-colour-${line.seat % 8}`, textContent: line.name }),
  element("span", { className: "chat-text", textContent: line.text }));
}

function renderChatLines() {
  const list = $("chat-lines");
  const atEnd = list.scrollHeight - list.scrollTop - list.clientHeight < 24;
  const shown = S.chat.filter((line) => !S.muted.has(line.seat));
  list.replaceChildren(...shown.map(chatLine));
  const hidden = S.chat.length - shown.length;
  say($("chat-muted"), hidden ? `${hidden} line${hidden === 1 ? "" : "s"} from muted players hidden` : "");
  if (atEnd) list.scrollTop = list.scrollHeight;
}

function toggleMute(seat) {
  if (S.muted.has(seat)) S.muted.delete(seat);
  else S.muted.add(seat);
  saveMutes();
  renderChatLines();
  renderMutes();
}

/** A mute button for each seat a person holds or that wrote something, but this one's: the
 * same button from one update to the next, so that one in use keeps the focus. */
function renderMutes() {
  const list = $("chat-mute-list");
  const wrote = new Set(S.chat.map((line) => line.seat));
  const seats = (S.table?.seats ?? []).filter((s) => s.seat !== S.seat && (s.kind === "human" || wrote.has(s.seat)));
  const buttons = new Map([...list.querySelectorAll("button.mute")].map((b) => [Number(b.dataset.seat), b]));
  for (const [seat, button] of buttons) if (!seats.some((s) => s.seat === seat)) button.remove();
  for (const { seat } of seats) {
    let button = buttons.get(seat);
    if (!button) {
      button = element("button", { type: "button", className: "small mute", dataset: { seat }, onclick: () => toggleMute(seat) });
      list.append(button);
    }
    const muted = S.muted.has(seat);
    button.textContent = `${muted ? "Unmute" : "Mute"} ${seatName(seat)}`;
    button.setAttribute("aria-pressed", String(muted));
  }
  $("chat-mutes").hidden = !seats.length;
}

/** What changes with the table: who may write (a seated player, at a table not closed), and
 * the seats to mute. */
export function renderChat() {
  const writes = S.seat !== null && S.table.status !== "archived";
  $("chat-form").hidden = !writes;
  $("chat-reactions").hidden = !writes;
  $("chat-watching").hidden = S.seat !== null;
  renderMutes();
}
