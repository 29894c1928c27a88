// The single page: `#/` is the lobby, `#/table/ID` a table (seated if this browser holds a seat
// there, else watching), `#/leaderboard/GAME` a game's leaderboard and `#/people/ID` a person's
// page, `#/replay/TABLE/DEAL` a deal of a finished match replayed for who played it;
// `#profile=KEY` brings a profile to this browser. The settings this browser keeps apply
// to every view from the start.
import { hideLobby, showLobby } from "./lobby.js";
import { hidePeople, showLeaderboard, showPerson, takeProfileFromLink } from "./people.js";
import { hideReplay, showReplay } from "./replay.js";
import { wireSettings } from "./settings.js";
import { closeTable, openTable } from "./table.js";

function route() {
  takeProfileFromLink();
  const table = /^#\/table\/([^/?#]+)/.exec(location.hash);
  const board = /^#\/leaderboard(?:\/([^/?#]+))?$/.exec(location.hash);
  const person = /^#\/people\/([^/?#]+)$/.exec(location.hash);
  const replay = /^#\/replay\/([^/?#]+)(?:\/(\d+))?$/.exec(location.hash);
  if (!replay) hideReplay();
  if (table) {
    hideLobby();
    hidePeople();
    openTable(decodeURIComponent(table[1]));
  } else if (board || person || replay) {
    closeTable();
    hideLobby();
    hidePeople();
    if (board) showLeaderboard(board[1] ? decodeURIComponent(board[1]) : null);
    else if (person) showPerson(decodeURIComponent(person[1]));
    else showReplay(decodeURIComponent(replay[1]), Number(replay[2] ?? 1));
  } else {
    closeTable();
    hidePeople();
    showLobby();
  }
}

wireSettings();
window.addEventListener("hashchange", route);
route();
