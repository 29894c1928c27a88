// The game's family, as its record from /api/variants describes it: the felt module that draws
// the middle of the table (its family's felt.js, served as /static/felts/<felt>.js; none: the
// table's text) and the family's verbs, with their buttons' labels and keys.
import { byId as $, element } from "./dom.js";
import { relabel, S, seatName, shortName } from "./table-state.js";

/** The felt module of the game's family (`static/felts/<felt>.js`), or null: the table's text. */
export async function loadFelt(family) {
  const name = family?.felt ?? "";
  if (!/^[a-z0-9-]+$/.test(name)) return null;
  try {
    return await import(`./felts/${name}.js`);
  } catch {
    return null;
  }
}

/** What a felt may read of the table (see pieces.js). */
export function feltContext() {
  return { view: S.view, table: S.table, seat: S.seat, seatName, shortName, relabel };
}

/** The felt: what the family's module draws of the observation `obs`, else the table's text;
 * before the deal, who the table waits for. */
export function renderFelt(obs) {
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

/** The family's verb of this name ({name, label, key, help}), or null. */
export function verbOf(name) {
  return S.family?.verbs?.find((v) => v.name === name) ?? null;
}

/** The name of the family's verb made with this key, or null. */
export function verbOfKey(key) {
  return S.family?.verbs?.find((v) => v.key === key)?.name ?? null;
}

/** The Keys panel's lines for the game's verbs, from its family's record. */
export function renderVerbKeys() {
  $("verb-keys").replaceChildren(...(S.family?.verbs ?? []).map((v) =>
    element("tr", {}, element("th", {}, element("kbd", { textContent: v.key })),
      element("td", { textContent: v.help }))));
}
