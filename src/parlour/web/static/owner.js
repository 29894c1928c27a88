// The menus of the table's owner (the browser that created it), one on each seat it may hand
// on: a person's seat that is free or whose player is gone goes to a bot, or is freed.
import { api } from "./api.js";
import { element, say } from "./dom.js";
import { S } from "./table-state.js";

/** Whether the owner may hand `info`'s seat on: a person's seat that is free or whose player is
 * not connected, at a table still in play. */
function canHandOver(info) {
  return Boolean(S.owner) && info.kind === "human" && !(info.taken && info.connected) &&
    S.table.status !== "finished" && S.table.status !== "archived";
}

/** The owner's menu for `seat` (null when it has none): the same element across updates. */
export function ownerMenu(seat, info) {
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
