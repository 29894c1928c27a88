"""Clients of the web table for the tests: WebSocket sessions that keep every message they get,
a driver that plays whole deals with several clients at one table, and a real uvicorn server
in a thread with real WebSocket clients of it.

Used by test_web_server.py, test_web_hidden.py, test_web_hostile.py and test_web_fuzz.py.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import random
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator, Sequence
from typing import Any, TypeVar

import uvicorn
from websockets.sync.client import ClientConnection, connect

import parlour
from helpers import hidden_now
from parlour.bots import make_bot
from parlour.cards import CardSet
from parlour.client import observation_from_dict
from parlour.game import Game, State
from parlour.web.serve import uvicorn_options

T = TypeVar("T")

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


# -- what a message names ------------------------------------------------------------------------

#: A card's name standing alone in a text ("10S", "QH"), as every message writes cards.
CARD = re.compile(r"(?<![A-Za-z0-9])(?:10|[2-9JQKA])[CDHS](?![A-Za-z0-9])")


def cards_named(message: dict[str, Any]) -> set[str]:
    """The cards a message names, leaving out the table's option values (``next_leader``
    is "3C" in pusoy-dos: a rule, not a card of the deal)."""
    shown = dict(message)
    if "table" in shown:
        shown["table"] = {k: v for k, v in shown["table"].items() if k != "options"}
    shown.pop("options", None)  # a record names the options at its top level
    return set(CARD.findall(json.dumps(shown)))


def hidden_from(state: State, seat: int | None) -> CardSet:
    """The cards ``seat`` may not be shown (``helpers.hidden_now``); for a spectator
    (``None``), those some seat may not be shown."""
    if seat is not None:
        return hidden_now(state, seat)
    hidden = CardSet(0)
    for s in range(state.game.players):
        hidden |= hidden_now(state, s)
    return hidden


# -- a real server -------------------------------------------------------------------------------


class LiveServer:
    """A uvicorn server running ``app`` in a thread, on a free port of 127.0.0.1.

    ``call`` runs a function on the server's event loop, where every change of a table
    happens: what it reads there is never half-way through a change."""

    def __init__(self, app: Any, **config: Any) -> None:
        self.app = app
        self.loop: asyncio.AbstractEventLoop | None = None

        async def capture(scope: Any, receive: Any, send: Any) -> None:
            if self.loop is None:
                self.loop = asyncio.get_running_loop()
            await app(scope, receive, send)

        # IPPROTO_TCP named, as a socket uvicorn binds itself: then asyncio sets TCP_NODELAY
        # on each connection (with proto 0 it does not, and every response that goes out
        # in two writes waits 40 ms for a delayed ACK).
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM, socket.IPPROTO_TCP)
        self.sock.bind(("127.0.0.1", 0))
        port = self.sock.getsockname()[1]
        self.url = f"http://127.0.0.1:{port}"
        self.ws_url = f"ws://127.0.0.1:{port}"
        # log_config=None: uvicorn's records go to the root logger, where the tests see them.
        # The rest as ``parlour serve`` sets it (no forwarded header trusted, unless told).
        config = {"log_level": "warning", "log_config": None, **uvicorn_options(), **config}
        self.server = uvicorn.Server(uvicorn.Config(capture, **config))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]},
                                       daemon=True)

    def start(self) -> None:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started or self.loop is None:
            assert time.monotonic() < deadline and self.thread.is_alive(), "no server started"
            time.sleep(0.01)

    def stop(self) -> None:
        self.server.should_exit = True
        self.thread.join(20)
        self.sock.close()

    @property
    def tables(self) -> Any:
        return self.app.state.tables

    def call(self, fn: Callable[[], T], timeout: float = 10) -> T:
        """``fn()`` run on the server's event loop."""
        assert self.loop is not None
        done: concurrent.futures.Future[T] = concurrent.futures.Future()

        def run() -> None:
            try:
                done.set_result(fn())
            except BaseException as e:
                done.set_exception(e)

        self.loop.call_soon_threadsafe(run)
        return done.result(timeout)

    def snapshot(self, table_id: str) -> tuple[int, str]:
        """The table's version and its whole record (every hand, the seed) as JSON: equal
        snapshots, nothing changed."""
        def read() -> tuple[int, str]:
            table = self.tables.get(table_id)
            return table.version, json.dumps(table.record(), sort_keys=True)
        return self.call(read)

    def state(self, table_id: str) -> tuple[int, State | None]:
        """The table's version and a copy of its deal in progress (``None`` between deals)."""
        def read() -> tuple[int, State | None]:
            table = self.tables.get(table_id)
            current = table.match.current
            return table.version, None if current is None else current.clone()
        return self.call(read)


@contextlib.contextmanager
def running_server(app: Any, **config: Any) -> Iterator[LiveServer]:
    """A :class:`LiveServer` started for the ``with`` block (``config``: uvicorn's)."""
    server = LiveServer(app, **config)
    server.start()
    try:
        yield server
    finally:
        server.stop()


class LogWatch(logging.Handler):
    """Every log record of level WARNING or above, or carrying a traceback, while installed
    on the root logger: where the server's errors and uvicorn's "Exception in ASGI
    application" go (with ``log_config=None``)."""

    def __init__(self) -> None:
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        if record.levelno >= logging.WARNING or record.exc_info:
            self.records.append(record)

    def problems(self) -> list[str]:
        return [f"{r.name} {r.levelname}: {r.getMessage()}"
                + ("" if r.exc_info is None else f" ({r.exc_info[1]!r})") for r in self.records]

    def __enter__(self) -> LogWatch:
        # The root logger, and wherever a server logger's records stop short of it: a server
        # started earlier in the same process with uvicorn's own logging configuration has
        # made "uvicorn" keep its records to itself (propagate False).
        self.loggers = [logging.getLogger()]
        for name in ("parlour.web", "uvicorn.error", "uvicorn.asgi"):
            logger: logging.Logger | None = logging.getLogger(name)
            while logger is not None and logger.propagate:
                logger = logger.parent
            if logger is not None and logger not in self.loggers:
                self.loggers.append(logger)
        for logger in self.loggers:
            logger.addHandler(self)
        return self

    def __exit__(self, *_: Any) -> None:
        for logger in self.loggers:
            logger.removeHandler(self)


class Live:
    """A real WebSocket client of a table (the ``websockets`` sync client): it says hello
    (unless told not to) and keeps every message it receives."""

    def __init__(self, server: LiveServer, table_id: str, token: str | None = None, *,
                 hello: bool = True, address: str | None = None) -> None:
        # Entered at once (and closed by close()): the form every version of the client takes.
        # ``address``: from another loopback address (127.0.0.2 …), another client as far as
        # the server can tell.
        where = {} if address is None else {"source_address": (address, 0)}
        self.ws: ClientConnection = connect(
            f"{server.ws_url}/ws/{table_id}", proxy=None, max_size=None, max_queue=None,
            open_timeout=20, **where).__enter__()
        self.token = token
        self.messages: list[dict[str, Any]] = []
        self.update: dict[str, Any] | None = None
        self.seat: int | None = None
        if hello:
            self.send_json({"type": "hello", "token": token})
            welcome = self.receive()
            assert welcome["type"] == "welcome", welcome
            self.seat = welcome["seat"]
            self.receive_until(lambda m: m["type"] == "update")

    def receive(self, timeout: float = 20) -> dict[str, Any]:
        message: dict[str, Any] = json.loads(self.ws.recv(timeout))
        self.messages.append(message)
        if message.get("type") == "update":
            self.update = message
        return message

    def receive_until(self, done: Callable[[dict[str, Any]], bool],
                      timeout: float = 20) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            message = self.receive(max(deadline - time.monotonic(), 0.01))
            if done(message):
                return message

    def wait(self, done: Callable[[dict[str, Any]], bool], timeout: float = 20) -> dict[str, Any]:
        """The latest update if it is ``done``, else the first update after it that is."""
        if self.update is not None and done(self.update):
            return self.update
        return self.receive_until(lambda m: m["type"] == "update" and done(m), timeout)

    def send_json(self, message: Any) -> None:
        self.ws.send(json.dumps(message))

    def send(self, message: dict[str, Any]) -> None:
        """``message`` with this client's token."""
        self.send_json({"token": self.token, **message})

    def ask(self, message: Any) -> dict[str, Any]:
        """Send ``message`` (a text is sent as it is) and return the first reply that is not
        an update or a notice."""
        self.ws.send(message if isinstance(message, str | bytes) else json.dumps(message))
        return self.receive_until(lambda m: m["type"] not in ("update", "notice"))

    def ping(self, ref: str = "ping") -> list[dict[str, Any]]:
        """Ping, wait for the pong; returns what came before it."""
        start = len(self.messages)
        self.send_json({"type": "ping", "ref": ref})
        self.receive_until(lambda m: m == {"type": "pong", "ref": ref})
        return self.messages[start:-1]

    def quiet(self) -> None:
        """Nothing came since the last message read: a ping is answered first."""
        before = self.ping("quiet")
        assert before == [], before

    def close(self) -> None:
        self.ws.close()

    @property
    def view(self) -> dict[str, Any]:
        assert self.update is not None
        return dict(self.update["view"])
