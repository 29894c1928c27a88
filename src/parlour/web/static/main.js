// The single page: `#/` is the lobby, `#/table/ID` a table (seated if this browser holds a seat
// there, else watching); the settings this browser keeps apply to both from the start.
import { hideLobby, showLobby } from "./lobby.js";
import { wireSettings } from "./settings.js";
import { closeTable, openTable } from "./table.js";

function route() {
  const match = /^#\/table\/([^/?#]+)/.exec(location.hash);
  if (match) {
    hideLobby();
    openTable(decodeURIComponent(match[1]));
  } else {
    closeTable();
    showLobby();
  }
}

wireSettings();
window.addEventListener("hashchange", route);
route();
