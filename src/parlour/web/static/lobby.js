// The lobby: a form that creates a table from /api/variants (players, seats and bot levels, the
// variant's options with their help text and allowed values, a seed, a turn timer), a first-game
// tutorial of each family to start, and the list of tables to join or watch, a page at a time,
// filtered by game and status.
import { api, loadVariants, owners, playerName, seats } from "./api.js";
import { byId as $, element, fmtSeconds, say } from "./dom.js";
import { renderProfilePanel } from "./people.js";

let variants = [];
let bots = [];
let refreshTimer = null;
let ready = null;

// The page of the lobby shown: only it is asked for, on every refresh.
const PAGE_SIZE = 20;
const listing = { variant: "", status: "", offset: 0, limit: PAGE_SIZE };
// Each request of the list is numbered: an answer that a later request overtook is dropped, so
// a slow refresh never puts back the page the player just left.
let asked = 0;

// The seat kinds offered for every seat, before the bot levels.
const SEAT_KINDS = [
  { value: "you", label: "You" },
  { value: "human", label: "Another player (open seat)" },
];
const PREFERRED_BOT = ["medium", "greedy"];


function showError(el, message) {
  say(el, message, "error");
}

function currentVariant() {
  return variants.find((v) => v.name === $("variant").value) ?? variants[0];
}

// The computer players this game offers at the chosen number of players (learned only where it
// has a network for that many).
function variantBots() {
  const variant = currentVariant();
  return variant?.bots_by_players?.[$("players").value] ?? variant?.bots ?? bots;
}

function defaultBot() {
  const offered = variantBots();
  return PREFERRED_BOT.find((b) => offered.includes(b)) ?? offered[0];
}

function renderVariant() {
  const variant = currentVariant();
  if (!variant) return;
  $("variant-description").textContent = variant.description;
  $("rules-text").textContent = variant.rules ?? "";
  $("match-end").textContent = variant.match_end ? `Match: ${variant.match_end}.` : "";
  const players = $("players");
  players.replaceChildren(...variant.players.map((n) => element("option", { value: n, textContent: n })));
  players.value = variant.default_players;
  players.disabled = variant.players.length === 1;
  renderSeats();
  renderOptions(variant);
}

function renderSeats() {
  const count = Number($("players").value);
  const rows = $("seat-rows");
  const previous = [...rows.querySelectorAll("select")].map((s) => s.value);
  const kinds = [...SEAT_KINDS, ...variantBots().map((b) => ({ value: `bot:${b}`, label: `Bot: ${b}` }))];
  rows.replaceChildren();
  for (let seat = 0; seat < count; seat++) {
    const select = element("select", { id: `seat-${seat}`, dataset: { seat } },
      ...kinds.map((k) => element("option", { value: k.value, textContent: k.label })));
    // A seat keeps its choice across games unless this game does not offer it.
    const fallback = seat === 0 ? "you" : `bot:${defaultBot()}`;
    const wanted = previous[seat] ?? fallback;
    select.value = kinds.some((k) => k.value === wanted) ? wanted : fallback;
    select.addEventListener("change", () => {
      // One "You" per table: choosing it here opens the seat that had it.
      if (select.value !== "you") return;
      for (const other of rows.querySelectorAll("select")) {
        if (other !== select && other.value === "you") other.value = "human";
      }
    });
    rows.append(element("label", { className: "seat-row" }, `Seat ${seat}`, select));
  }
}

function optionInput(option) {
  const id = `opt-${option.name}`;
  const dataset = { option: option.name };
  if (option.choices) {
    // Each choice in words; its value is what the server takes.
    const select = element("select", { id, dataset },
      ...option.choices.map((c, i) => element("option", {
        value: String(c), textContent: option.choice_labels?.[i] ?? String(c),
      })));
    select.value = String(option.default);
    return select;
  }
  if (typeof option.default === "boolean") {
    return element("input", { id, type: "checkbox", checked: option.default, dataset });
  }
  if (Number.isInteger(option.default)) {
    const input = element("input", { id, type: "number", step: 1, value: option.default, dataset });
    if (option.min !== null && option.min !== undefined) input.min = option.min;
    if (option.max !== null && option.max !== undefined) input.max = option.max;
    return input;
  }
  return element("input", { id, value: option.default ?? "", dataset });
}

/** An option's value as its input shows it, typed as declared. */
function optionValue(option) {
  const input = $(`opt-${option.name}`);
  if (input.type === "checkbox") return input.checked;
  if (Number.isInteger(option.default)) return input.value === "" ? option.default : Number(input.value);
  if (option.choices) return option.choices.find((c) => String(c) === input.value) ?? input.value;
  return input.value;
}

/** Whether `option` matters under the other options as shown (a number of deals does not
 * when the match ends at a penalty limit). */
function applies(variant, option) {
  return Object.entries(option.applies_when ?? {}).every(([name, values]) => {
    const other = variant.options.find((o) => o.name === name);
    return other !== undefined && values.includes(optionValue(other));
  });
}

/** Show the options that apply, hide the rest. */
function showApplying(variant) {
  for (const option of variant.options) {
    $(`opt-${option.name}`).closest(".option-row").hidden = !applies(variant, option);
  }
}

function renderOptions(variant) {
  const rows = $("option-rows");
  rows.replaceChildren(...variant.options.map((option) => {
    const input = optionInput(option);
    const label = element("label", { className: "option-name", htmlFor: input.id },
      option.label ?? option.name);
    const allowed = Number.isInteger(option.default) && option.min != null && option.max != null
      ? ` (${option.min} to ${option.max})` : "";
    input.addEventListener("change", () => showApplying(variant));
    const help = option.help ? `${option.help[0].toUpperCase()}${option.help.slice(1)}${allowed}.` : "";
    return element("div", { className: `option-row ${input.type === "checkbox" ? "check" : ""}` },
      label, input, element("p", { className: "help", textContent: help }));
  }));
  showApplying(variant);
  $("options").hidden = variant.options.length === 0;
}

/** The options that differ from the variant's defaults, typed as declared; an option that
 * does not apply under the others is left out (it is hidden). */
function chosenOptions(variant) {
  const options = {};
  for (const option of variant.options) {
    if (!applies(variant, option)) continue;
    const value = optionValue(option);
    if (value !== option.default) options[option.name] = value;
  }
  return options;
}

async function createTable(event) {
  event.preventDefault();
  const variant = currentVariant();
  const name = $("player-name").value.trim();
  if (name) playerName.set(name);
  const kinds = [...$("seat-rows").querySelectorAll("select")].map((s) => s.value);
  const spec = {
    variant: variant.name,
    players: Number($("players").value),
    options: chosenOptions(variant),
    seats: kinds.map((k) => (k.startsWith("bot:") ? { kind: "bot", bot: k.slice(4) } : { kind: "human" })),
    seed: $("seed").value === "" ? null : Number($("seed").value),
    // Empty means no timer: the field starts at the server's default.
    turn_timeout: timerSeconds(),
  };
  if (spec.turn_timeout !== null) spec.stand_in = $("stand-in").value;
  showError($("create-error"), "");
  $("create").disabled = true;
  try {
    const { table, owner_token: owner } = await api.create(spec);
    // This browser made the table: it may hand an absent player's seat on.
    if (owner) owners.set(table.id, owner);
    const mine = kinds.indexOf("you");
    if (mine >= 0) await takeSeat(table.id, mine, name);
    location.hash = `#/table/${encodeURIComponent(table.id)}`;
  } catch (err) {
    showError($("create-error"), err.message);
  } finally {
    $("create").disabled = false;
  }
}

/** The turn timer asked for, in seconds; null for none. */
function timerSeconds() {
  const text = $("turn-timeout").value.trim();
  return text === "" || Number(text) === 0 ? null : Number(text);
}

function renderTimerChoice() {
  $("stand-in-field").hidden = timerSeconds() === null;
}

/** Learn to play: each family's first-game tutorial, started with a click. */
function renderLearn(tutorials) {
  $("learn-games").replaceChildren(...tutorials.map((t) => element("li", {
    className: "learn-game", dataset: { family: t.family, variant: t.variant },
  },
  element("span", {}, element("strong", { textContent: t.title }),
    element("span", { className: "muted", textContent: ` · ${t.variant}` })),
  element("p", { className: "intro", textContent: t.intro }),
  element("button", {
    type: "button", className: "primary learn-start", textContent: "Start",
    title: `a first game of ${t.variant}`, onclick: () => startTutorial(t.variant),
  }))));
  $("learn").hidden = tutorials.length === 0;
}

/** A tutorial table of `variant`, this browser at its person's seat. */
async function startTutorial(variant) {
  const name = $("player-name").value.trim();
  if (name) playerName.set(name);
  showError($("learn-error"), "");
  try {
    const { table, owner_token: owner } = await api.create({ tutorial: true, variant });
    if (owner) owners.set(table.id, owner);
    await takeSeat(table.id, 0, name);
    location.hash = `#/table/${encodeURIComponent(table.id)}`;
  } catch (err) {
    showError($("learn-error"), err.message);
  }
}

/** Join `seat` (null: the first free human seat) and keep its token for reconnecting. */
export async function takeSeat(tableId, seat, name) {
  const joined = await api.join(tableId, seat, name || null);
  seats.set(tableId, { seat: joined.seat, token: joined.token, name: name || null });
  return joined;
}

function seatLabel(seat, table) {
  if (seat.kind === "bot") return seat.name && seat.name !== seat.bot ? `${seat.name} (bot: ${seat.bot})` : `bot: ${seat.bot}`;
  if (!seat.taken) return "free seat";
  if (seat.away) return `${seat.name} (away — ${table.stand_in} plays)`;
  return seat.name + (seat.connected ? "" : " (offline)");
}

/** What to know before sitting down: a tutorial, a chosen seed (the deals follow from it), a
 * turn timer. */
function tableTags(table) {
  const tags = [];
  if (table.tutorial) {
    tags.push(element("span", {
      className: "tag tutorial", title: "a first game, with the rules explained as they come up",
      textContent: "tutorial",
    }));
  }
  if (table.seeded) {
    tags.push(element("span", {
      className: "tag seed", title: "every deal follows from this seed", textContent: `seeded ${table.seed}`,
    }));
  }
  if (table.turn_timeout) {
    tags.push(element("span", {
      className: "tag timer", title: `${table.stand_in} plays for whoever lets the timer run out`,
      textContent: `${fmtSeconds(table.turn_timeout)} a turn`,
    }));
  }
  return tags;
}

function tableItem(table) {
  const free = table.seats.some((s) => s.kind === "human" && !s.taken);
  const mine = seats.get(table.id);
  const status = table.status === "playing" ? `deal ${table.deal}` : table.status;
  const actions = element("div", { className: "table-actions" });
  const open = () => { location.hash = `#/table/${encodeURIComponent(table.id)}`; };
  if (mine && table.status !== "finished") {
    actions.append(element("button", { type: "button", className: "primary resume", textContent: "Back to my seat", onclick: open }));
  } else if (free && table.status !== "finished") {
    const join = element("button", { type: "button", className: "primary join", textContent: "Join" });
    join.addEventListener("click", async () => {
      const name = $("player-name").value.trim();
      if (name) playerName.set(name);
      try {
        await takeSeat(table.id, null, name);
        open();
      } catch (err) {
        showError($("tables-error"), err.message);
        refreshTables();
      }
    });
    actions.append(join);
  }
  actions.append(element("button", { type: "button", className: "watch", textContent: "Watch", onclick: open }));
  return element("li", { className: `table-item ${table.status}`, dataset: { tableId: table.id } },
    element("div", { className: "table-summary" },
      element("strong", { textContent: table.variant }),
      element("span", { className: "muted", textContent: ` · ${table.players} players · ${status}` }),
      ...tableTags(table)),
    element("div", { className: "table-seats", textContent: table.seats.map((s) => seatLabel(s, table)).join(" · ") }),
    actions);
}

/** Ask for the page of tables shown (and only it), and show it. */
export async function refreshTables() {
  const ask = ++asked;
  try {
    const page = await api.tables(listing);
    if (ask !== asked) return;
    if (page.offset > 0 && page.offset >= page.total) {
      // This page's tables have gone (finished ones leave the lobby): show the last page.
      listing.offset = Math.max(0, Math.floor((page.total - 1) / listing.limit) * listing.limit);
      await refreshTables();
      return;
    }
    renderTables(page);
    $("tables-error").hidden = true;
  } catch (err) {
    if (ask === asked) showError($("tables-error"), err.message);
  }
}

function renderTables({ tables, total, offset }) {
  const list = $("tables");
  list.replaceChildren(...tables.map(tableItem));
  const filtered = listing.variant || listing.status;
  if (!tables.length) {
    list.append(element("li", { className: "muted", textContent: filtered ? "No tables like that." : "No tables yet: create one." }));
  }
  $("tables-range").textContent = total ? `${offset + 1}–${offset + tables.length} of ${total}` : "";
  $("tables-prev").disabled = offset === 0;
  $("tables-next").disabled = offset + tables.length >= total;
}

/** Go to another page (`step` pages on) or, with new filters, back to the first. */
function turnPage(step) {
  listing.offset = Math.max(0, listing.offset + step * listing.limit);
  refreshTables();
}

function filter() {
  listing.variant = $("filter-variant").value;
  listing.status = $("filter-status").value;
  listing.offset = 0;
  refreshTables();
}

async function setUp() {
  // Before anything is awaited: a name typed while the games load must not be overwritten.
  $("player-name").value = playerName.get();
  const data = await loadVariants();
  variants = data.variants;
  bots = data.bots;
  $("variant").replaceChildren(...variants.map((v) => element("option", { value: v.name, textContent: v.name })));
  $("variant").addEventListener("change", renderVariant);
  $("players").addEventListener("change", renderSeats);
  $("create-form").addEventListener("submit", createTable);
  $("refresh-tables").addEventListener("click", refreshTables);
  $("filter-variant").append(...variants.map((v) => element("option", { value: v.name, textContent: v.name })));
  $("filter-variant").addEventListener("change", filter);
  $("filter-status").addEventListener("change", filter);
  $("tables-prev").addEventListener("click", () => turnPage(-1));
  $("tables-next").addEventListener("click", () => turnPage(1));
  $("stand-in").replaceChildren(...bots.map((b) => element("option", { value: b, textContent: b })));
  // The form starts from the server's own defaults for a new table (its --turn-timeout and
  // --stand-in), so what is shown is what a table gets.
  $("stand-in").value = data.table_defaults.stand_in;
  $("turn-timeout").value = data.table_defaults.turn_timeout ?? "";
  $("turn-timeout").addEventListener("input", renderTimerChoice);
  renderTimerChoice();
  renderVariant();
  renderLearn(data.tutorials ?? []);
}

export async function showLobby() {
  $("lobby").hidden = false;
  document.title = "parlour";
  $("topbar-info").textContent = "lobby";
  ready ??= setUp().catch((err) => {
    ready = null;
    showError($("create-error"), `The games could not be loaded: ${err.message}`);
  });
  await ready;
  renderProfilePanel();
  refreshTables();
  clearInterval(refreshTimer);
  refreshTimer = setInterval(refreshTables, 4000);
}

export function hideLobby() {
  $("lobby").hidden = true;
  clearInterval(refreshTimer);
  refreshTimer = null;
}
