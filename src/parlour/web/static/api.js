// The server's HTTP API and the table's WebSocket (docs/web/protocol.md), and the seats this
// browser holds. Every refusal comes back as an Error carrying the server's own message.

async function request(method, url, body, bearer) {
  const init = { method, headers: { Accept: "application/json" } };
  if (bearer) init.headers.Authorization = `Bearer ${bearer}`;
  if (body !== undefined) {
    init.headers["Content-Type"] = "application/json";
    init.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(url, init);
  } catch (err) {
    throw new Error(`the server cannot be reached (${err.message})`);
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    // A body that is not JSON: the status line is all there is to say.
  }
  if (!response.ok) {
    throw new Error(data?.error ?? `${response.status} ${response.statusText}`);
  }
  return data;
}

export const api = {
  variants: () => request("GET", "/api/variants"),
  /** One page of the lobby: `{tables, total, offset, limit}`; empty filters are left out. */
  tables: ({ variant, status, offset = 0, limit = 20 } = {}) => {
    const query = new URLSearchParams({ offset, limit });
    if (variant) query.set("variant", variant);
    if (status) query.set("status", status);
    return request("GET", `/api/tables?${query}`);
  },
  table: (id) => request("GET", `/api/tables/${encodeURIComponent(id)}`),
  create: (spec) => request("POST", "/api/tables", spec),
  /** Take a seat; with this browser's profile, under its name (and rated with it). */
  join: (id, seat, name) => {
    const key = profileKey.get();
    const body = key ? { seat, name, profile: key } : { seat, name };
    return request("POST", `/api/tables/${encodeURIComponent(id)}/join`, body);
  },
  createProfile: (name) => request("POST", "/api/profiles", { name }),
  myProfile: (key) => request("GET", "/api/profiles/me", undefined, key),
  renameProfile: (key, name) => request("PATCH", "/api/profiles/me", { name }, key),
  deleteProfile: (key) => request("DELETE", "/api/profiles/me", undefined, key),
  profile: (id) => request("GET", `/api/profiles/${encodeURIComponent(id)}`),
  leaderboard: (variant) => request("GET", `/api/leaderboard/${encodeURIComponent(variant)}`),
  /** A deal of a finished match this profile played, frame by frame; and its review. */
  replay: (id, deal, key) =>
    request("GET", `/api/tables/${encodeURIComponent(id)}/replay/${deal}`, undefined, key),
  replayReview: (id, deal, key) =>
    request("POST", `/api/tables/${encodeURIComponent(id)}/replay/${deal}/review`, undefined, key),
  /** Play again: the rematch table of a finished match, the same seat taken there. */
  rematch: (id, token) =>
    request("POST", `/api/tables/${encodeURIComponent(id)}/rematch`, undefined, token),
  /** The owner hands a seat on: `{to: "bot", bot: NAME}` or `{to: "free"}`. */
  handOver: (id, seat, owner, body) =>
    request("POST", `/api/tables/${encodeURIComponent(id)}/seats/${seat}`, body, owner),
};

let variantsPromise = null;

/** The variants and bot names, asked for once per page. */
export function loadVariants() {
  variantsPromise ??= api.variants().catch((err) => {
    variantsPromise = null;
    throw err;
  });
  return variantsPromise;
}

// A reload must find its seat again: the token is kept per table in localStorage.
const SEAT_KEY = "parlour.seat.";
const NAME_KEY = "parlour.name";

export const seats = {
  get(tableId) {
    try {
      return JSON.parse(localStorage.getItem(SEAT_KEY + tableId));
    } catch {
      return null;
    }
  },
  set(tableId, seat) {
    localStorage.setItem(SEAT_KEY + tableId, JSON.stringify(seat));
  },
  forget(tableId) {
    localStorage.removeItem(SEAT_KEY + tableId);
  },
};

// The creator's browser keeps the table's owner token, which lets it hand an absent player's
// seat on.
const OWNER_KEY = "parlour.owner.";

export const owners = {
  get: (tableId) => localStorage.getItem(OWNER_KEY + tableId),
  set: (tableId, token) => localStorage.setItem(OWNER_KEY + tableId, token),
};

// This browser's profile: its private key (the server keeps only its hash). Whoever has the key
// is the person; the profile's link carries it to another device.
const PROFILE_KEY = "parlour.profile";

export const profileKey = {
  get: () => localStorage.getItem(PROFILE_KEY),
  set: (key) => localStorage.setItem(PROFILE_KEY, key),
  clear: () => localStorage.removeItem(PROFILE_KEY),
};

export const playerName = {
  get: () => localStorage.getItem(NAME_KEY) ?? "",
  set: (name) => localStorage.setItem(NAME_KEY, name),
};

/**
 * One table's WebSocket: says hello with the seat's token (null: a spectator), hands every
 * server message to `onMessage`, and reconnects after a dropped connection until closed.
 */
export class TableSocket {
  constructor(tableId, token, { onMessage, onStatus }) {
    this.tableId = tableId;
    this.token = token;
    this.onMessage = onMessage;
    this.onStatus = onStatus ?? (() => {});
    this.closed = false;
    this.retry = 0;
    this.nextRef = 1;
    this.connect();
  }

  connect() {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const ws = new WebSocket(`${scheme}://${location.host}/ws/${encodeURIComponent(this.tableId)}`);
    this.ws = ws;
    this.onStatus("connecting");
    ws.addEventListener("open", () => {
      this.retry = 0;
      ws.send(JSON.stringify({ type: "hello", token: this.token }));
      this.onStatus("connected");
    });
    ws.addEventListener("message", (event) => {
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (this.ws !== ws || this.closed) return;
      // 4401: the token holds no seat here; 4404: no such table. Retrying cannot help.
      if (event.code === 4401 || event.code === 4404) {
        this.closed = true;
        this.onStatus("refused", event.code);
        return;
      }
      this.onStatus("reconnecting");
      const delay = Math.min(5000, 250 * 2 ** this.retry++);
      this.timer = setTimeout(() => this.connect(), delay);
    });
  }

  /** Send a message for this seat (the token is added); returns its `ref`. */
  send(message) {
    const ref = this.nextRef++;
    const full = { ...message, ref };
    if (this.token) full.token = this.token;
    if (this.ws?.readyState === WebSocket.OPEN) {
      this.ws.send(JSON.stringify(full));
      return ref;
    }
    throw new Error("not connected to the table yet; try again in a moment");
  }

  close() {
    this.closed = true;
    clearTimeout(this.timer);
    this.ws?.close();
  }
}
