"""The web tables: one authority per table over its match, its seats and its clients.

A :class:`Table` holds a :class:`~parlour.match.Match` built from the registry, its seats (people
with a token, or bots) and the clients connected to it. Every change happens in one synchronous
method on the event loop (nothing is awaited half-way), so a change is atomic: it is checked by
the engine, stored, then sent to every client as its own view. Bots think in a worker thread on
an observation and the legal actions only, then their move goes through the same path as a
person's, and is dropped if the table moved on meanwhile.

:class:`Tables` is the set of tables one server process owns: it creates them, resumes the
unfinished ones from the database at start-up, and looks them up for the HTTP and WebSocket
handlers.
"""

from __future__ import annotations

import asyncio
import json
import logging
import random
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from parlour.bots import Bot, bot_names, make_bot
from parlour.cards import parse_card
from parlour.errors import CardError, ParlourError
from parlour.game import Action, Game, Observation, State
from parlour.match import Match
from parlour.moves import pick
from parlour.records import match_record, save
from parlour.registry import new_game
from parlour.web.store import SeatRow, Store, TableRow, hash_token, token_matches
from parlour.web.views import empty_view, seat_view, spectator_view

log = logging.getLogger("parlour.web")

#: The default bot of a seat that is not given one.
DEFAULT_BOT = "greedy"
NAME_LIMIT = 40


class WebError(ParlourError):
    """A request refused: its message goes to that client alone; ``status`` for HTTP."""

    def __init__(self, message: str, status: int = 400) -> None:
        super().__init__(message)
        self.status = status


@dataclass
class Seat:
    seat: int
    kind: str  # "human" or "bot"
    bot_name: str | None
    name: str
    token_hash: str | None
    bot: Bot | None = None
    connections: int = 0

    def info(self) -> dict[str, Any]:
        human = self.kind == "human"
        return {"seat": self.seat, "kind": self.kind, "bot": self.bot_name, "name": self.name,
                "taken": not human or self.token_hash is not None,
                "connected": not human or self.connections > 0}


@dataclass(eq=False)
class Client:
    """One WebSocket: the seat it said hello for (``None``: a spectator) and its outbox, which
    a writer task drains in order, so a slow client never holds up the table."""

    seat: int | None
    outbox: asyncio.Queue[str] = field(default_factory=asyncio.Queue)

    def send(self, message: dict[str, Any]) -> None:
        self.outbox.put_nowait(json.dumps(message))


@dataclass
class Settings:
    """How a server's tables behave."""

    #: Seconds a bot waits before its move (and a bots-only table before its next deal).
    bot_delay: float = 0.8
    #: The bot that answers a hint.
    hint_bot: str = "hard"
    #: A folder where each finished match is also saved as ``TABLE_ID.json`` (``None``: the
    #: records stay in the database only).
    records: str | None = None
    #: The name of this server process: it serves the tables it created, whose ids start
    #: with it; several processes on one database each have their own.
    instance: str = "t"


class Table:
    """One table: a match, its seats and its clients."""

    def __init__(self, tables: Tables, table_id: str, game: Game, seed: int,
                 seats: list[Seat]) -> None:
        self.tables = tables
        self.store = tables.store
        self.id = table_id
        self.game = game
        self.match = Match(game, seed)
        self.seats = seats
        self.version = 0
        self.clients: list[Client] = []
        self.finished_record: dict[str, Any] | None = None
        #: Per seat, the deal's log so far: (deal number, actions told, lines).
        self._logs: dict[int, tuple[int, int, list[str]]] = {}
        self._task: asyncio.Task[None] | None = None
        for s in seats:
            if s.kind == "bot":
                s.bot = make_bot(s.bot_name or DEFAULT_BOT, interactive=True)

    # -- what the table shows ----------------------------------------------------------------
    @property
    def state(self) -> State | None:
        """The deal shown: in progress, or the last one once scored."""
        if self.match.current is not None:
            return self.match.current
        return self.match.deals[-1] if self.match.deals else None

    @property
    def status(self) -> str:
        if self.match.is_over:
            return "finished"
        return "playing" if self.state is not None else "waiting"

    @property
    def deal_number(self) -> int:
        return len(self.match.deals) + (self.match.current is not None)

    def info(self) -> dict[str, Any]:
        return {
            "id": self.id, **self.game.describe(), "status": self.status,
            "deal": self.deal_number, "totals": list(self.match.totals),
            "match_end": self.game.match_end_text(),
            "seats": [{**s.info(), "label": self.game.seat_name(s.seat),
                       "display": self.seat_label(s.seat)} for s in self.seats],
        }

    def record(self) -> dict[str, Any]:
        """The match record so far, with who sat where (extra fields replay ignores)."""
        record = match_record(self.match)
        record["seats"] = [{k: v for k, v in s.info().items() if k != "connected"}
                           for s in self.seats]
        return record

    def view(self, seat: int | None, cache: dict[int | None, dict[str, Any]]) -> dict[str, Any]:
        """The View for ``seat`` (``None``: a spectator), shared through ``cache`` by the clients
        of one seat within one broadcast."""
        if seat in cache:
            return cache[seat]
        state = self.state
        if state is None:
            view = {"deal": 0, "step": 0, **empty_view(seat), "deal_over": False, "result": None}
        else:
            if seat is None:
                observations = [state.observation(s) for s in range(self.game.players)]
                part = spectator_view(observations, [self.log(o) for o in observations])
            else:
                obs = state.observation(seat)
                legal = state.legal_actions() if state.current_player == seat else []
                part = seat_view(obs, legal, self.log(obs))
            view = {"deal": self.deal_number, "step": len(state.history), **part,
                    "deal_over": state.is_over, "result": self.result()}
        cache[seat] = view
        return view

    def log(self, obs: Observation) -> list[str]:
        """``obs.log_lines(0)``, extended by the lines of the new actions only: a deal's log
        for a seat only grows, and telling it all again on every move costs the most of an
        update in the long deals."""
        deal, told, lines = self._logs.get(obs.seat, (0, 0, []))
        steps = len(obs.history)
        if deal != self.deal_number or told > steps:
            told, lines = 0, []
        if told < steps or not lines:
            lines = lines + obs.log_lines(told)
            self._logs[obs.seat] = (self.deal_number, steps, lines)
        return lines

    def result(self) -> dict[str, Any] | None:
        state = self.state
        if state is None or not state.is_over:
            return None
        returns = state.returns()
        name = self.seat_label
        summary = "; ".join(f"{name(s)} {_number(r):+}" for s, r in enumerate(returns))
        line = f"deal {self.deal_number}: {summary}"
        if self.match.is_over:
            line += " — match over, won by " + ", ".join(map(name, self.match.winners()))
        return {"returns": returns, "totals": list(self.match.totals),
                "match_over": self.match.is_over, "winners": self.match.winners(),
                "summary": line}

    def seat_label(self, seat: int) -> str:
        """What the table calls ``seat``: its player's name, numbered by seat when another
        seat has the same name (bots are named after their level: "greedy 1", "greedy 3")."""
        name = self.seats[seat].name or self.game.seat_name(seat)
        shared = any((s.name or self.game.seat_name(s.seat)) == name
                     for s in self.seats if s.seat != seat)
        return f"{name} {seat}" if shared else name

    def broadcast(self) -> None:
        """Send every client its own view of the table as it is now."""
        cache: dict[int | None, dict[str, Any]] = {}
        table = self.info()
        for client in self.clients:
            client.send({"type": "update", "version": self.version, "table": table,
                         "view": self.view(client.seat, cache)})

    # -- seats and clients ---------------------------------------------------------------------
    def seat_of(self, token: object) -> int:
        """The seat ``token`` holds; :class:`WebError` otherwise. Every seat is compared, in
        constant time, so the answer's timing says nothing about the tokens."""
        if not isinstance(token, str):
            raise WebError("a token (the text given when the seat was taken) is required")
        found = -1
        for s in self.seats:
            if token_matches(token, s.token_hash):
                found = s.seat
        if found < 0:
            raise WebError("that token holds no seat at this table", 401)
        return found

    def join(self, seat: object, name: object) -> tuple[int, str]:
        """Take a human seat (``None``: the first free one); returns it and its new token."""
        free = [s.seat for s in self.seats if s.kind == "human" and s.token_hash is None]
        if seat is None:
            if not free:
                raise WebError(f"table {self.id} is full: every seat is taken", 409)
            seat = free[0]
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise WebError(f"{seat!r} is not a seat of this table: seats are 0 to "
                           f"{len(self.seats) - 1}")
        if self.seats[seat].kind != "human":
            raise WebError(f"seat {seat} is a bot's seat")
        if seat not in free:
            raise WebError(f"seat {seat} is already taken", 409)
        if name is None or name == "":
            name = f"Player {seat}"
        if not isinstance(name, str) or len(name) > NAME_LIMIT or not name.isprintable():
            raise WebError(f"a name is printable text of at most {NAME_LIMIT} characters")
        token = secrets.token_urlsafe(24)
        chosen = self.seats[seat]
        chosen.name, chosen.token_hash = name, hash_token(token)
        self.store.take_seat(self.id, seat, name, chosen.token_hash)
        if self.status == "waiting" and self.all_taken():
            self.deal()
        else:
            self.broadcast()
        return seat, token

    def all_taken(self) -> bool:
        return all(s.token_hash is not None for s in self.seats if s.kind == "human")

    def connect(self, client: Client) -> None:
        self.clients.append(client)
        if client.seat is not None:
            self.seats[client.seat].connections += 1
        client.send({"type": "welcome", "seat": client.seat, "table": self.info()})
        self.broadcast()

    def disconnect(self, client: Client) -> None:
        if client not in self.clients:
            return
        self.clients.remove(client)
        if client.seat is not None:
            self.seats[client.seat].connections -= 1
            self.broadcast()

    # -- changes -------------------------------------------------------------------------------
    def deal(self) -> None:
        """Deal the match's next deal."""
        self.match.next_deal()
        self.record_event("deal", -1, "")
        self.changed()

    def apply(self, seat: int, action: Action) -> None:
        """Apply ``action`` (already checked legal) for ``seat``, the player to move."""
        state = self.match.current
        assert state is not None and state.current_player == seat
        state.apply(action)
        self.record_event("action", seat, str(action))
        if state.is_over:
            self.match.finish_deal(state)
            if self.match.is_over:
                self.finished_record = self.record()
                self.store.set_status(self.id, "finished", self.finished_record)
                folder = self.tables.settings.records
                if folder is not None:
                    try:
                        save(self.finished_record, Path(folder) / f"{self.id}.json")
                    except ParlourError as e:  # the database has it all the same
                        log.error("table %s: %s", self.id, e)
        self.changed()

    def record_event(self, kind: str, seat: int, text: str) -> None:
        self.version += 1
        self.store.add_event(self.id, self.version, kind, seat, text)
        if self.version == 1:
            self.store.set_status(self.id, "playing")

    def changed(self) -> None:
        self.broadcast()
        self.schedule()

    def schedule(self) -> None:
        """Start the bot's turn, or the next deal of a bots-only table, if one is due."""
        if self._task is not None and not self._task.done():
            return
        job = self.due()
        if job is not None and not self.tables.closed:
            self._task = asyncio.get_running_loop().create_task(job())
            self._task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        # The next turn is scheduled once this one is over (its own move found it running).
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            log.error("table %s: %s failed: %r", self.id, task.get_coro(), error)
            return
        self.schedule()

    def due(self) -> Callable[[], Any] | None:
        state = self.match.current
        if state is None:
            humans = any(s.kind == "human" for s in self.seats)
            if self.match.deals and not self.match.is_over and not humans:
                return self._auto_deal
            return None
        if not state.is_over and self.seats[state.current_player].kind == "bot":
            return self._bot_turn
        return None

    async def _bot_turn(self) -> None:
        version = self.version
        await asyncio.sleep(self.tables.settings.bot_delay)
        state = self.match.current
        if state is None or self.version != version or self.tables.closed:
            return
        seat = state.current_player
        bot = self.seats[seat].bot
        assert bot is not None
        # The bot gets what a remote player would: an observation and the legal actions.
        observation, legal, rng = state.observation(seat), state.legal_actions(), self.match.bot_rng()
        action = await asyncio.to_thread(bot.choose, observation, legal, rng)
        if self.version == version and not self.tables.closed:
            self.apply(seat, action)

    async def _auto_deal(self) -> None:
        await asyncio.sleep(self.tables.settings.bot_delay)
        if self.match.current is None and not self.match.is_over and not self.tables.closed:
            self.deal()

    # -- requests from clients -----------------------------------------------------------------
    def act(self, client: Client, message: dict[str, Any]) -> None:
        """An ``action`` message from ``client``; :class:`WebError` if refused (nothing changes)."""
        seat = self.acting_seat(client, message)
        state = self.match.current
        if state is None or state.is_over:
            raise WebError("no deal is in progress" if state is None
                           else "the deal is over: send next_deal for the next one")
        if state.current_player != seat:
            raise WebError(f"it is {self.seat_label(state.current_player)}'s turn, not yours")
        self.apply(seat, self.resolve(state, message))

    @staticmethod
    def resolve(state: State, message: dict[str, Any]) -> Action:
        """The legal action a message names, by ``action`` text or by ``verb`` and ``cards``."""
        try:
            if "action" in message:
                text = message["action"]
                if not isinstance(text, str):
                    raise WebError("'action' must be the text of an action, such as \"3D 3S\"")
                action = state.parse_action(text)
                if action not in state.legal_actions():
                    state.clone().apply(action)  # raises the engine's reason
                    raise WebError(f"{action} is not one of your legal moves")
                return action
            verb, cards = message.get("verb"), message.get("cards", [])
            if not isinstance(verb, str) or not isinstance(cards, list) or not all(
                    isinstance(c, str) for c in cards):
                raise WebError("an action message needs 'action' (text), or 'verb' (text) "
                               "and 'cards' (a list of card texts)")
            return pick(state, verb, [parse_card(c) for c in cards])
        except WebError:
            raise
        except CardError as e:
            raise WebError(str(e)) from None
        except ParlourError as e:
            raise WebError(str(e)) from None

    def acting_seat(self, client: Client, message: dict[str, Any]) -> int:
        seat = self.seat_of(message.get("token"))
        if client.seat is None:
            raise WebError("this connection is a spectator's: say hello with your token first")
        if seat != client.seat:
            raise WebError("that token is for another seat than the one this connection "
                           "said hello for")
        return seat

    def next_deal(self, client: Client, message: dict[str, Any]) -> None:
        self.acting_seat(client, message)
        if self.match.is_over:
            raise WebError("the match is over")
        if self.match.current is not None:
            raise WebError("the deal is not over yet")
        self.deal()

    def hint_request(self, client: Client, message: dict[str, Any]) -> tuple[Bot, Any, Any, Any]:
        """What a hint needs (the bot, an observation, the legal actions, a generator), for
        the caller to run in a worker thread."""
        seat = self.acting_seat(client, message)
        state = self.match.current
        if state is None or state.is_over or state.current_player != seat:
            raise WebError("a hint is for your turn")
        bot = make_bot(self.tables.settings.hint_bot, interactive=True)
        rng = random.Random(f"hint/{self.match.seed}/{self.deal_number}/{len(state.history)}")
        return bot, state.observation(seat), state.legal_actions(), rng


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


class Tables:
    """The tables one server process owns."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        self.live: dict[str, Table] = {}
        self.closed = False

    # -- creating ------------------------------------------------------------------------------
    def create(self, body: object) -> Table:
        """A new table from a lobby request; :class:`WebError` naming what is wrong."""
        if not isinstance(body, dict):
            raise WebError("the request must be a JSON object")
        unknown = set(body) - {"variant", "players", "options", "seats", "seed"}
        if unknown:
            raise WebError(f"unknown field(s): {', '.join(sorted(unknown))}")
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise WebError("'options' must be an object of option values by name")
        variant = body.get("variant")
        if not isinstance(variant, str):
            raise WebError("'variant' must name a variant")
        try:
            game = new_game(variant, players=body.get("players"), **options)
        except ParlourError as e:
            raise WebError(str(e)) from None
        seats = self._seats(body.get("seats"), game.players)
        seed = body.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                                 or not 0 <= seed < 2**63):
            raise WebError("'seed' must be an integer from 0 to 2**63 - 1, or null")
        match = Match(game, seed)
        table_id = f"{self.settings.instance}-{secrets.token_hex(6)}"
        table = Table(self, table_id, game, match.seed, seats)
        self.store.add_table(
            TableRow(table_id, game.name, game.players, game.option_values(), match.seed,
                     self.settings.instance, "waiting"),
            [SeatRow(s.seat, s.kind, s.bot_name, s.name, None) for s in seats])
        self.live[table_id] = table
        if table.all_taken():
            table.deal()
        return table

    @staticmethod
    def _seats(spec: object, players: int) -> list[Seat]:
        if spec is None:
            spec = [{"kind": "human"}] + [{"kind": "bot", "bot": DEFAULT_BOT}] * (players - 1)
        if not isinstance(spec, list) or len(spec) != players:
            raise WebError(f"'seats' must list the {players} seats, each "
                           '{"kind": "human"} or {"kind": "bot", "bot": NAME}')
        seats = []
        for n, s in enumerate(spec):
            kind = s.get("kind") if isinstance(s, dict) else None
            if kind == "human":
                seats.append(Seat(n, "human", None, "", None))
                continue
            if kind != "bot":
                raise WebError(f"seat {n}: the kind must be \"human\" or \"bot\", not {kind!r}")
            name = s.get("bot") or DEFAULT_BOT
            if name not in bot_names():
                raise WebError(f"seat {n}: unknown bot {name!r}; the bots are: "
                               + ", ".join(bot_names()))
            seats.append(Seat(n, "bot", name, name, None))
        return seats

    # -- finding -------------------------------------------------------------------------------
    def get(self, table_id: str) -> Table:
        table = self.live.get(table_id)
        if table is None:
            raise WebError(f"no table {table_id!r}", 404)
        return table

    def listing(self) -> list[dict[str, Any]]:
        """Every table's info: unfinished first, newest first within each."""
        tables = list(self.live.values())[::-1]
        return [t.info() for t in sorted(tables, key=lambda t: t.status == "finished")]

    # -- resuming ------------------------------------------------------------------------------
    def resume(self) -> None:
        """Rebuild every table this process owns from the database: the match replayed event by
        event to exactly where it stopped (its seats, tokens and bots with it). A table whose
        events do not replay (stored by a version with other rules) is left out, and logged."""
        for row in self.store.tables(self.settings.instance):
            try:
                self.live[row.id] = self._rebuild(row)
            except (ParlourError, AssertionError) as e:
                log.error("table %s cannot be resumed: %s", row.id, e)

    def _rebuild(self, row: TableRow) -> Table:
        seats = [Seat(s.seat, s.kind, s.bot, s.name, s.token_hash)
                 for s in self.store.seats(row.id)]
        game = new_game(row.variant, players=row.players, **row.options)
        table = Table(self, row.id, game, row.seed, seats)
        for kind, seat, text in self.store.events(row.id):
            table.version += 1
            if kind == "deal":
                table.match.next_deal()
                continue
            state = table.match.current
            if state is None or state.current_player != seat:
                raise ParlourError(f"event {table.version} ({text}) is out of turn")
            state.apply(state.parse_action(text))
            if state.is_over:
                table.match.finish_deal(state)
        table.finished_record = row.record
        return table

    def start(self) -> None:
        """Set the bots of every resumed table going (on the running event loop)."""
        for table in self.live.values():
            table.schedule()

    def close(self) -> None:
        self.closed = True
        for table in self.live.values():
            if table._task is not None:
                table._task.cancel()
