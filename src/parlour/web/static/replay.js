// The replay viewer (`#/replay/TABLE/DEAL`): a deal of a finished match, seen from the seat this
// browser's profile held, a frame at a time (as dealt, then after each move), with the review of
// its own moves beside them on request. It shows only what the seat saw then; the end adds the
// deal's result and the hands laid down to be counted.
import { api, profileKey } from "./api.js";
import { cardRow, prettyCards } from "./cards.js";
import { byId as $, element, say } from "./dom.js";

const R = { frames: [], at: 0, judged: new Map(), replay: null, table: "" };

function show(at) {
  R.at = Math.max(0, Math.min(at, R.frames.length - 1));
  const frame = R.frames[R.at];
  $("replay-step").value = String(R.at);
  $("replay-where").textContent = R.at === 0 ? "as dealt" : `move ${R.at} of ${R.frames.length - 1}`;
  $("replay-hand").replaceChildren(cardRow(frame.hand));
  $("replay-text").textContent = prettyCards(frame.text);
  for (const [i, item] of [...$("replay-moves").children].entries()) {
    item.classList.toggle("current", i + 1 === R.at);
    if (i + 1 === R.at) item.scrollIntoView({ block: "nearest" });
  }
  const last = R.at === R.frames.length - 1;
  $("replay-end").hidden = !last;
  $("replay-prev").disabled = R.at === 0;
  $("replay-next").disabled = last;
}

function moveItem(frame) {
  const move = frame.move;
  // Another seat's move reads as its log told it, which names the seat.
  const said = move.mine ? `You: ${move.words}` : move.words;
  const item = element("li", { className: move.mine ? "mine" : "", dataset: { step: move.step } },
    element("button", { type: "button", className: "link", textContent: prettyCards(said) }));
  item.firstChild.addEventListener("click", () => show(move.step));
  const judged = R.judged.get(move.step);
  if (judged) {
    item.append(element("span", { className: judged.mistake ? "judged mistake" : "judged" },
      judged.mistake ? ` — a mistake: ${prettyCards(judged.best)} was better (${prettyCards(judged.reason)})`
        : judged.played === judged.best ? " — the judge's move too" : " — fine"));
  }
  return item;
}

function renderMoves() {
  $("replay-moves").replaceChildren(...R.frames.slice(1).map(moveItem));
}

async function review() {
  const button = $("replay-review");
  button.disabled = true;
  say($("replay-error"), "The judge is looking at your moves…", "info");
  try {
    const judged = await api.replayReview(R.table, R.replay.deal, profileKey.get());
    R.judged = new Map(judged.decisions.map((d) => [d.move, d]));
    renderMoves();
    show(R.at);
    say($("replay-error"), judged.lines.length ? prettyCards(judged.lines.at(-1)) : "", "info");
  } catch (err) {
    say($("replay-error"), err.message, "error");
    button.disabled = false;
  }
}

function onKey(event) {
  if ($("replay-view").hidden || event.target.closest?.("input, select, textarea")) return;
  const to = { ArrowLeft: R.at - 1, ArrowRight: R.at + 1, Home: 0, End: R.frames.length - 1 }[event.key];
  if (to === undefined) return;
  event.preventDefault();
  show(to);
}

let wired = false;

export async function showReplay(tableId, deal) {
  const view = $("replay-view");
  view.hidden = false;
  $("topbar-info").textContent = "replay";
  document.title = "parlour — replay";
  R.table = tableId;
  R.judged = new Map();
  say($("replay-error"), "");
  if (!wired) {
    wired = true;
    $("replay-prev").addEventListener("click", () => show(R.at - 1));
    $("replay-next").addEventListener("click", () => show(R.at + 1));
    $("replay-step").addEventListener("input", (e) => show(Number(e.target.value)));
    $("replay-review").addEventListener("click", review);
    $("replay-deal").addEventListener("change", (e) => {
      location.hash = `#/replay/${encodeURIComponent(R.table)}/${e.target.value}`;
    });
    document.addEventListener("keydown", onKey);
  }
  try {
    R.replay = await api.replay(tableId, deal, profileKey.get());
  } catch (err) {
    $("replay-body").hidden = true;
    say($("replay-error"), err.message, "error");
    return;
  }
  $("replay-body").hidden = false;
  R.frames = R.replay.frames;
  $("replay-title").textContent = `Deal ${R.replay.deal} of ${R.replay.deals}, from your seat (P${R.replay.seat})`;
  $("replay-deal").replaceChildren(...Array.from({ length: R.replay.deals }, (_, i) =>
    element("option", { value: i + 1, textContent: `deal ${i + 1}` })));
  $("replay-deal").value = String(R.replay.deal);
  $("replay-step").max = String(R.frames.length - 1);
  $("replay-review").disabled = false;
  const end = R.replay.end;
  $("replay-end").replaceChildren(
    element("h3", {}, "End of the deal"),
    element("p", {}, `Points: ${end.result.map((r, s) => `P${s} ${r > 0 ? "+" : ""}${r}`).join(", ")}`),
    ...(end.hands_left ?? []).map((hand, s) => element("div", { className: "laid-down" },
      element("span", {}, `P${s} laid down: `), cardRow(hand))));
  renderMoves();
  show(0);
}

export function hideReplay() {
  $("replay-view").hidden = true;
}
