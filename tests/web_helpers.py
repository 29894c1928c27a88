"""Clients of the web table for the tests: WebSocket sessions that keep every message they get,
and a driver that plays whole deals with several clients at one table.

Used by test_web_server.py and test_web_hidden.py.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import parlour
from parlour.bots import make_bot
from parlour.client import observation_from_dict
from parlour.game import Game

#: Options that make each variant's match short: one deal (or the lowest target).
SHORT = {
    "big-two-4card": {"deals": 1}, "big-two": {"match_end": "deals", "deals": 1},
    "pusoy-dos": {"deals": 1}, "forty-five": {"target": 5}, "spoil-five": {"deals": 1},
    "rummy": {},
}


#: Every session not closed yet: a TestClient cannot shut down while one is open.
OPEN: list[Session] = []


def close_all() -> None:
    while OPEN:
        OPEN[-1].close()


class Session:
    """One WebSocket client of a table: its seat, its token, and every message it received."""

    def __init__(self, http: Any, table_id: str, token: str | None = None) -> None:
        self.context = http.websocket_connect(f"/ws/{table_id}")
        self.ws = self.context.__enter__()
        OPEN.append(self)
        self.token = token
        self.messages: list[dict[str, Any]] = []
        self.ws.send_json({"type": "hello", "token": token})
        welcome = self.receive()
        assert welcome["type"] == "welcome", welcome
        self.seat: int | None = welcome["seat"]
        self.update = self.receive_until(lambda m: m["type"] == "update")

    def receive(self) -> dict[str, Any]:
        message: dict[str, Any] = self.ws.receive_json()
        self.messages.append(message)
        if message["type"] == "update":
            self.update = message
        return message

    def receive_until(self, done: Any) -> dict[str, Any]:
        while True:
            message = self.receive()
            if done(message):
                return message

    def send(self, message: dict[str, Any]) -> None:
        self.ws.send_json({"token": self.token, **message})

    def quiet(self) -> None:
        """Check that nothing came since the last message read: a ping is answered first."""
        self.ws.send_json({"type": "ping", "ref": "quiet"})
        answer = self.receive()
        assert answer == {"type": "pong", "ref": "quiet"}, answer

    def close(self) -> None:
        if self in OPEN:
            OPEN.remove(self)
            self.context.__exit__(None, None, None)

    @property
    def view(self) -> dict[str, Any]:
        return dict(self.update["view"])


def create(http: Any, variant: str, seats: list[dict[str, Any]] | None = None,
           seed: int = 1, players: int | None = None, **options: Any) -> dict[str, Any]:
    answer = http.post("/api/tables", json={
        "variant": variant, "players": players, "options": options, "seats": seats,
        "seed": seed})
    assert answer.status_code == 201, answer.json()
    return dict(answer.json()["table"])


def join(http: Any, table_id: str, seat: int | None = None, name: str = "") -> dict[str, Any]:
    answer = http.post(f"/api/tables/{table_id}/join", json={"seat": seat, "name": name})
    assert answer.status_code == 200, answer.json()
    return dict(answer.json())


def humans_table(http: Any, variant: str, humans: list[int], seed: int = 1,
                 players: int | None = None, bot: str = "greedy",
                 **options: Any) -> tuple[dict[str, Any], list[Session]]:
    """A table whose ``humans`` seats are people (each with a connected session) and whose
    other seats are ``bot``s."""
    count = players or parlour.registry.get_variant(variant).default_players
    seats = [{"kind": "human"} if s in humans else {"kind": "bot", "bot": bot}
             for s in range(count)]
    table = create(http, variant, seats, seed=seed, players=players, **options)
    tokens = [join(http, table["id"], s, f"H{s}")["token"] for s in humans]
    return table, [Session(http, table["id"], token) for token in tokens]


def game_of(table: dict[str, Any]) -> Game:
    return parlour.new_game(table["variant"], players=table["players"], **table["options"])


def settled(message: dict[str, Any], humans: set[int]) -> bool:
    """An update after which nothing happens until a person acts: a person is to move, or
    the deal is over."""
    if message["type"] != "update":
        return False
    view = message["view"]
    return bool(view["deal_over"] or view["current_player"] in humans)


def play_deal(sessions: list[Session], game: Game, seed: int = 0,
              watchers: Sequence[Session] = ()) -> dict[str, Any]:
    """Play the current deal to its end: each person's move is the greedy bot's choice on the
    observation the server sent, rebuilt with ``observation_from_dict``. Every session (and
    every watcher) reads every update. Returns the final view."""
    humans = {s.seat for s in sessions if s.seat is not None}
    bot = make_bot("greedy")
    everyone = [*sessions, *watchers]
    while True:
        lead = everyone[0]
        if not settled(lead.update, humans):
            lead.receive_until(lambda m: settled(m, humans))
        version = lead.update["version"]
        for other in everyone[1:]:
            if other.update["version"] != version or not settled(other.update, humans):
                other.receive_until(lambda m, v=version: m["type"] == "update"
                                    and m["version"] == v)
        view = lead.view
        if view["deal_over"]:
            return view
        mover = next(s for s in sessions if s.seat == view["current_player"])
        action = choose(bot, game, mover.view, random.Random(f"{seed}/{version}"))
        mover.send({"type": "action", "action": action})
        # Everyone reads the update the move caused before anything else is decided.
        for s in everyone:
            s.receive_until(lambda m, v=version: m["type"] == "update" and m["version"] > v)


def choose(bot: Any, game: Game, view: dict[str, Any], rng: random.Random) -> str:
    observation = observation_from_dict(game, view["observation"])
    legal = {entry["action"] for entry in view["legal"]}
    state = game.new_deal(seed=0)
    actions = [state.parse_action(text) for text in sorted(legal)]
    return str(bot.choose(observation, actions, rng))
