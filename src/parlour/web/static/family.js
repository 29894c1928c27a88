// The game's family, as its record from /api/variants describes it: the felt module that draws
// the middle of the table (its family's felt.js, served as /static/felts/<felt>.js, with the
// felt.css beside it as /static/felts/<felt>.css; none: the table's text) and the family's
// verbs, with their buttons' labels and keys.
import { byId as $, element } from "./dom.js";
import { relabel, S, seatName, shortName } from "./table-state.js";

// Each felt's style sheet linked into the page, by felt: settled once it is loaded. A sheet
// stays linked when the page goes to another table (its rules are for its felt's classes).
const styles = new Map();

/** The felt module of the game's family (`static/felts/<felt>.js`), or null: the table's text.
 * Its style sheet is linked into the page and loaded first, so that the felt is never drawn
 * without it. */
export async function loadFelt(family) {
  const name = family?.felt ?? "";
  if (!/^[a-z0-9-]+$/.test(name)) return null;
  try {
    const [felt] = await Promise.all([import(`./felts/${name}.js`), linkStyle(name)]);
    return felt;
  } catch {
    return null;
  }
}

/** Link the style sheet of felt `name` (`static/felts/<felt>.css`) into the page, once: settled
 * when it is loaded, or failed to load (the felt is drawn then as the page's style sheet
 * has it). */
function linkStyle(name) {
  if (!styles.has(name)) {
    styles.set(name, new Promise((resolve) => {
      const link = element("link", {
        rel: "stylesheet", href: new URL(`./felts/${name}.css`, import.meta.url).href, dataset: { felt: name },
      });
      link.addEventListener("load", resolve);
      link.addEventListener("error", resolve);
      document.head.append(link);
    }));
  }
  return styles.get(name);
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
