// A first-game tutorial's notes: what its coach explained of the rules as they came up, from this
// seat's own view (the view's `tutorial`), newest first. Those that came since the player last
// moved stand out. Every text goes in as text, never as markup.
import { byId as $, element } from "./dom.js";
import { relabel, S } from "./table-state.js";

export function renderTutorial() {
  const tutorial = S.view?.tutorial ?? null;
  const panel = $("tutorial");
  panel.hidden = !tutorial;
  $("table-view").dataset.tutorial = String(Boolean(tutorial));
  if (!tutorial) return;
  $("tutorial-title").textContent = `Tutorial: ${tutorial.title}`;
  const items = tutorial.notes.map((note, i) => element("li", {
    className: i >= S.notesRead ? "new" : "", dataset: { key: note.key },
  }, element("strong", { textContent: `${note.title}: ` }), relabel(note.text)));
  $("tutorial-notes").replaceChildren(...items.reverse());
}

/** Whether the tutorial's hint is due: the player's turn has just come (the table moved on to
 * it, or the page just opened on it), and nobody plays the seat for them. */
export function hintDue(changed) {
  return Boolean(changed && S.view?.tutorial && S.view.your_turn && !S.table?.seats?.[S.seat]?.away);
}

/** The table moved on from `before`, the view shown: if it was the player's turn, they moved,
 * and the notes they had were read. */
export function moved(before) {
  if (before?.your_turn) S.notesRead = before.tutorial?.notes?.length ?? 0;
}
