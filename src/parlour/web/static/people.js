// People: this browser's profile (in the lobby), the leaderboard of a game (`#/leaderboard/GAME`)
// and a person's page (`#/people/ID`: their ratings, a plot of each over their matches, and the
// matches). A profile's link (`#profile=KEY`) brings it to another browser.
import { api, loadVariants, profileKey } from "./api.js";
import { byId as $, element, say } from "./dom.js";

const SVG = "http://www.w3.org/2000/svg";

/** A profile's key arrived in the link: keep it, and go on to the lobby without it in view. */
export function takeProfileFromLink() {
  const match = /^#profile=([A-Za-z0-9_-]{20,64})$/.exec(location.hash);
  if (!match) return false;
  profileKey.set(match[1]);
  history.replaceState(null, "", `${location.pathname}#/`);
  return true;
}

function linkTo(key) {
  return `${location.origin}${location.pathname}#profile=${key}`;
}

/** The lobby's profile panel: create one, or show, rename, carry over and delete this one. */
export async function renderProfilePanel() {
  const panel = $("profile-panel");
  const key = profileKey.get();
  const error = element("p", { className: "error", role: "alert", hidden: true });
  if (!key) {
    const name = element("input", { id: "profile-name", maxLength: 40, autocomplete: "nickname",
                                     placeholder: "Your name" });
    const create = element("button", { id: "create-profile", type: "submit", className: "primary",
                                       textContent: "Create profile" });
    const form = element("form", { className: "profile-form" }, name, create);
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      try {
        const made = await api.createProfile(name.value.trim());
        profileKey.set(made.key);
        await renderProfilePanel();
      } catch (err) {
        say(error, err.message, "error");
      }
    });
    panel.replaceChildren(element("h2", {}, "Your profile"),
      element("p", { className: "muted" }, "A profile keeps your name, rating and matches at " +
        "every table, with no password: this browser keeps its key."), form, error);
    return;
  }
  let profile;
  try {
    profile = (await api.myProfile(key)).profile;
  } catch (err) {
    panel.replaceChildren(element("h2", {}, "Your profile"),
      element("p", { className: "error", role: "alert" }, err.message));
    const forget = element("button", { type: "button", className: "small", textContent: "Forget it" });
    forget.addEventListener("click", async () => { profileKey.clear(); await renderProfilePanel(); });
    panel.append(forget);
    return;
  }
  const rename = element("input", { id: "profile-rename", maxLength: 40, value: profile.name,
                                    "aria-label": "your name" });
  const save = element("button", { type: "submit", className: "small", textContent: "Rename" });
  const renameForm = element("form", { className: "profile-form" }, rename, save);
  renameForm.addEventListener("submit", async (event) => {
    event.preventDefault();
    try {
      await api.renameProfile(key, rename.value.trim());
      await renderProfilePanel();
    } catch (err) {
      say(error, err.message, "error");
    }
  });
  const copy = element("button", { id: "copy-profile-link", type: "button", className: "small",
                                   textContent: "Copy the link for another device" });
  const shown = element("input", { id: "profile-link", readOnly: true, value: linkTo(key),
                                   "aria-label": "your profile's link", hidden: true });
  copy.addEventListener("click", async () => {
    shown.hidden = false;
    shown.select();
    try {
      await navigator.clipboard.writeText(shown.value);
      say(error, "Copied. Open it in the other browser: keep it private, it is your profile.", "info");
    } catch {
      say(error, "Copy the link above. Keep it private: it is your profile.", "info");
    }
  });
  const remove = element("button", { id: "delete-profile", type: "button", className: "small danger",
                                     textContent: "Delete profile" });
  remove.addEventListener("click", async () => {
    if (!confirm("Delete your profile? Your name leaves every record; the games stay.")) return;
    try {
      await api.deleteProfile(key);
      profileKey.clear();
      await renderProfilePanel();
    } catch (err) {
      say(error, err.message, "error");
    }
  });
  panel.replaceChildren(
    element("h2", {}, "Your profile"),
    element("p", {}, "You play as ",
      element("a", { id: "my-page", href: `#/people/${encodeURIComponent(profile.id)}`,
                     textContent: profile.name }), "."),
    renameForm, element("div", { className: "profile-tools" }, copy, remove), shown, error);
}

/** The leaderboard of `variant` (the first game if none), with a choice of game. */
export async function showLeaderboard(variant) {
  const view = $("people-view");
  view.hidden = false;
  const { variants } = await loadVariants();
  const chosen = variants.find((v) => v.name === variant)?.name ?? variants[0].name;
  document.title = `parlour — ${chosen} leaderboard`;
  $("topbar-info").textContent = "leaderboard";
  const pick = element("select", { id: "leaderboard-variant", "aria-label": "game" },
    ...variants.map((v) => element("option", { value: v.name, textContent: v.name })));
  pick.value = chosen;
  pick.addEventListener("change", () => { location.hash = `#/leaderboard/${encodeURIComponent(pick.value)}`; });
  const board = await api.leaderboard(chosen);
  const rows = board.people.map((p, i) => element("tr", {},
    element("td", {}, String(i + 1)),
    element("td", {}, element("a", { href: `#/people/${encodeURIComponent(p.id)}`, textContent: p.name })),
    element("td", {}, p.rating.toFixed(1)), element("td", {}, String(p.matches))));
  const people = rows.length
    ? element("table", { id: "leaderboard", className: "people-table" },
        element("thead", {}, element("tr", {}, ...["", "player", "rating", "matches"].map((h) => element("th", {}, h)))),
        element("tbody", {}, ...rows))
    : element("p", { id: "leaderboard", className: "muted" }, "Nobody is rated at this game yet: finish a match with a profile.");
  const bots = element("p", { className: "muted" }, "The computer players' ratings are fixed, so that " +
    "every rating means the same: " + board.bots.map((b) => `${b.bot} ${b.rating.toFixed(1)}`).join(", ") + ".");
  view.replaceChildren(element("section", { className: "panel" },
    element("h2", {}, "Leaderboard ", pick), people, bots));
}

/** A person's page: their ratings, each plotted over their matches, and the matches. */
export async function showPerson(id) {
  const view = $("people-view");
  view.hidden = false;
  $("topbar-info").textContent = "player";
  let page;
  try {
    page = await api.profile(id);
  } catch (err) {
    view.replaceChildren(element("section", { className: "panel" },
      element("p", { className: "error", role: "alert" }, err.message)));
    return;
  }
  document.title = `parlour — ${page.profile.name}`;
  const ratings = page.ratings.map((r) => element("li", {},
    element("a", { href: `#/leaderboard/${encodeURIComponent(r.variant)}`, textContent: r.variant }),
    `: ${r.rating.toFixed(1)} after ${r.matches} ${r.matches === 1 ? "match" : "matches"}`));
  const plots = page.ratings.map((r) => plot(r.variant, page.matches.filter((m) => m.variant === r.variant)));
  // A person's own matches can be replayed: the viewer's profile is theirs.
  const mine = await myProfileId();
  const matches = page.matches.slice().reverse().map((m) => element("tr", {},
    element("td", {}, new Date(m.finished * 1000).toLocaleString()),
    element("td", {}, m.variant),
    element("td", {}, `${ordinalWord(m.place)} of ${m.players}`),
    element("td", {}, m.rating.toFixed(1)),
    element("td", {}, mine === page.profile.id
      ? element("a", { className: "replay-link", href: `#/replay/${encodeURIComponent(m.table)}/1`, textContent: "replay" })
      : element("a", { href: `#/table/${encodeURIComponent(m.table)}`, textContent: "table" }))));
  view.replaceChildren(element("section", { className: "panel person" },
    element("h2", { id: "person-name" }, page.profile.name),
    ratings.length ? element("ul", { id: "person-ratings" }, ...ratings)
      : element("p", { id: "person-ratings", className: "muted" }, "No rated match yet."),
    ...plots,
    matches.length ? element("table", { id: "person-matches", className: "people-table" },
      element("thead", {}, element("tr", {}, ...["finished", "game", "place", "rating after", ""].map((h) => element("th", {}, h)))),
      element("tbody", {}, ...matches)) : ""));
}

async function myProfileId() {
  const key = profileKey.get();
  if (!key) return null;
  try {
    return (await api.myProfile(key)).profile.id;
  } catch {
    return null;
  }
}

function ordinalWord(n) {
  return ["", "1st", "2nd", "3rd"][n] ?? `${n}th`;
}

/** A line of the rating after each match of one game, drawn as SVG (no inline style). */
function plot(variant, matches) {
  const width = 320;
  const height = 120;
  const pad = 8;
  const values = matches.map((m) => m.rating);
  const low = Math.min(...values, 0);
  const high = Math.max(...values, 1);
  const x = (i) => pad + (values.length < 2 ? (width - 2 * pad) / 2 : (i * (width - 2 * pad)) / (values.length - 1));
  const y = (v) => height - pad - ((v - low) * (height - 2 * pad)) / (high - low || 1);
  const svg = document.createElementNS(SVG, "svg");
  svg.setAttribute("viewBox", `0 0 ${width} ${height}`);
  svg.setAttribute("class", "rating-plot");
  svg.setAttribute("role", "img");
  svg.setAttribute("aria-label", `${variant} rating over ${values.length} matches`);
  const line = document.createElementNS(SVG, "polyline");
  line.setAttribute("points", values.map((v, i) => `${x(i).toFixed(1)},${y(v).toFixed(1)}`).join(" "));
  svg.append(line);
  for (const [i, v] of values.entries()) {
    const dot = document.createElementNS(SVG, "circle");
    dot.setAttribute("cx", x(i).toFixed(1));
    dot.setAttribute("cy", y(v).toFixed(1));
    dot.setAttribute("r", "3");
    svg.append(dot);
  }
  return element("figure", { className: "plot" }, svg,
    element("figcaption", { className: "muted" }, `${variant}: rating after each match`));
}

export function hidePeople() {
  $("people-view").hidden = true;
}
