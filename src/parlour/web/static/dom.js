// Building elements without a framework.

/**
 * `element("button", {className: "primary", onclick: go, dataset: {verb: "play"}}, "Play")`:
 * properties the element has are set as properties, anything else as an attribute.
 */
export function element(tag, props = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(props)) {
    if (value === undefined || value === null) continue;
    if (key === "dataset") Object.assign(el.dataset, value);
    else if (key in el) el[key] = value;
    else el.setAttribute(key, value);
  }
  el.append(...children.filter((c) => c !== null && c !== undefined && c !== false));
  return el;
}

export const byId = (id) => document.getElementById(id);

/** Show `message` in `el` (hidden when empty). */
export function say(el, message, kind = "") {
  el.textContent = message ?? "";
  el.hidden = !message;
  el.dataset.kind = kind;
}

/** Seconds for the page: "30 s", "2.5 s". */
export function fmtSeconds(seconds) {
  const v = Number(seconds);
  return `${Number.isInteger(v) ? v : v.toFixed(1)} s`;
}
