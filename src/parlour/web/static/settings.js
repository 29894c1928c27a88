// The table's settings, kept in this browser (localStorage, one versioned key): how the hand is
// sorted, the cards' size, a four-colour deck, sounds and card animations. They show on the
// page's root element as data attributes (`data-card-size="large"`, `data-four-colour="on"`,
// `data-motion="off"` …) that style.css reads; the hand's order and the sounds are read here
// by the modules that draw the hand and play them. The settings dialog opens from the top bar,
// at the lobby and at a table alike.
import { cardElement } from "./cards.js";
import { byId as $ } from "./dom.js";
import { playSound, unlockSound } from "./sounds.js";

const KEY = "parlour.settings.v1";

/** The settings of a browser that never changed them: the table as it always looked. */
export const DEFAULTS = Object.freeze({
  sort: "game",
  size: "medium",
  fourColour: false,
  sounds: false,
  motion: true,
});

// The values each setting may take: a choice among words, or on and off.
const CHOICES = {
  sort: ["game", "suit", "rank"],
  size: ["small", "medium", "large"],
};

/** The settings in `raw` (what JSON.parse made of the stored text), each one that is missing
 * or not one of its values taken from the defaults: a stored value, however it came to be
 * there, is never more than a known word or a boolean. */
export function sanitize(raw) {
  const settings = { ...DEFAULTS };
  if (!raw || typeof raw !== "object" || Array.isArray(raw)) return settings;
  for (const name of Object.keys(DEFAULTS)) {
    if (!Object.hasOwn(raw, name)) continue;
    const value = raw[name];
    const ok = Object.hasOwn(CHOICES, name) ? CHOICES[name].includes(value) : typeof value === "boolean";
    if (ok) settings[name] = value;
  }
  return settings;
}

function load() {
  try {
    return sanitize(JSON.parse(localStorage.getItem(KEY)));
  } catch {
    // Unreadable (not JSON), or no storage at all (a browser that refuses it): the defaults.
    return { ...DEFAULTS };
  }
}

let current = load();
const listeners = [];

/** The settings now (a copy). */
export function settings() {
  return { ...current };
}

/** Call `listener(settings)` after each change of the settings, here or in another tab. */
export function onSettings(listener) {
  listeners.push(listener);
}

/** Show the settings on the page's root element, where the style sheet reads them. */
function apply() {
  const root = document.documentElement.dataset;
  root.sort = current.sort;
  root.cardSize = current.size;
  root.fourColour = current.fourColour ? "on" : "off";
  root.sounds = current.sounds ? "on" : "off";
  root.motion = current.motion ? "on" : "off";
}

function changed() {
  apply();
  showInDialog();
  for (const listener of listeners) listener(settings());
}

/** Change some settings (`{size: "large"}`), keep them in this browser and apply them. */
export function changeSettings(change) {
  current = sanitize({ ...current, ...change });
  try {
    localStorage.setItem(KEY, JSON.stringify(current));
  } catch {
    // No storage (a private window's quota, storage refused): kept for this page only.
  }
  changed();
}

// -- the dialog ------------------------------------------------------------------------------------

function showInDialog() {
  if (!$("settings")) return;
  $("set-sort").value = current.sort;
  $("set-size").value = current.size;
  $("set-four-colour").checked = current.fourColour;
  $("set-sounds").checked = current.sounds;
  $("set-motion").checked = current.motion;
}

function openDialog() {
  showInDialog();
  $("settings").showModal();
}

/** Wire the settings button and dialog, and apply the settings kept in this browser. */
export function wireSettings() {
  apply();
  const dialog = $("settings");
  $("settings-btn").addEventListener("click", openDialog);
  $("settings-done").addEventListener("click", () => dialog.close());
  // A click on the backdrop (outside the dialog's box) closes it too; Escape does, natively.
  dialog.addEventListener("click", (event) => {
    const box = dialog.getBoundingClientRect();
    const outside = event.clientX < box.left || event.clientX > box.right ||
      event.clientY < box.top || event.clientY > box.bottom;
    if (event.target === dialog && outside) dialog.close();
  });
  dialog.addEventListener("close", () => $("settings-btn").focus());
  $("set-sort").addEventListener("change", (e) => changeSettings({ sort: e.target.value }));
  $("set-size").addEventListener("change", (e) => changeSettings({ size: e.target.value }));
  $("set-four-colour").addEventListener("change", (e) => changeSettings({ fourColour: e.target.checked }));
  $("set-motion").addEventListener("change", (e) => changeSettings({ motion: e.target.checked }));
  $("set-sounds").addEventListener("change", (e) => {
    changeSettings({ sounds: e.target.checked });
    // Switching sounds on is the gesture that lets the page make them: a first one, to hear.
    if (e.target.checked) {
      unlockSound();
      playSound("turn");
    }
  });
  // A card of each suit, to see the size and colours chosen: pictures only, none of them a
  // card of the game (no data-card, which names the cards at the table).
  $("settings-preview").replaceChildren(...["AS", "KH", "QC", "10D"].map((c) => {
    const card = cardElement(c, ["small"]);
    card.removeAttribute("data-card");
    return card;
  }));
  // Another tab of this browser changed them: this one follows.
  window.addEventListener("storage", (event) => {
    if (event.key !== KEY && event.key !== null) return;
    current = load();
    changed();
  });
  showInDialog();
}
