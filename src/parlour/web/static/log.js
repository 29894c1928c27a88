// The table's log beside it, and the game's own text of the table under it.
import { prettyCards } from "./cards.js";
import { byId as $, element } from "./dom.js";
import { named, namer, relabel, S } from "./table-state.js";

/** The log, each line naming the seats as the table called them when it was written (the
 * server's `log_names`: a seat handed on since, or renumbered, changes no earlier line). */
export function renderLog() {
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
