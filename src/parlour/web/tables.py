"""The web tables: one authority per table over its match, its seats and its clients.

A :class:`Table` holds a :class:`~parlour.match.Match` built from the registry and coordinates
the parts that each own one thing:

- :class:`~parlour.web.seating.Seating`: the seats, the tokens that hold them, what each is
  called;
- :class:`~parlour.web.turns.TurnDriver`: the bots' turns, the deals of a bots-only table, the
  turn timer;
- :class:`~parlour.web.hub.Hub`: the connected clients, and each one's own view;
- :class:`~parlour.web.work.WorkPool`: the hints and reviews players ask for;
- :class:`~parlour.web.chat.Chat`: what the players write, for everyone at the table to read.

A tutorial table (:mod:`parlour.tutorial`) is a table like any other, made from its lesson (the
set deal, the person at seat 0, the lesson's bots, a one-deal match), with a coach that follows
the person's seat after every event; that seat's view carries the coach's notes. It is not
rated.

A client's message reaches the table read and typed (:mod:`parlour.web.messages`). Every change
happens in one synchronous method on the event loop (nothing is awaited half-way), so a change
is atomic: it is checked by the engine, stored, then sent to every client as its own view. The
parts change only what they own; the table stores what changed (its events, seats, names, chat
and records) and has the hub tell everyone, so there is one path for a person's move and a
bot's.

:class:`Tables` is the set of tables one server process owns: it creates them (within a cap on
open tables and a rate per client), resumes the unfinished ones from the database at start-up,
closes and archives those nobody has been at for a while, and looks them up for the HTTP and
WebSocket handlers.
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

from parlour.bots import searchable
from parlour.cards import parse_card
from parlour.errors import ParlourError, VariantError
from parlour.game import Action, Game, State
from parlour.match import Match
from parlour.records import deal_record, save
from parlour.registry import new_game
from parlour.session import HUMAN, TableSession
from parlour.tutorial import SEAT, Coach, lesson_of, tutorial
from parlour.web import hints, replays
from parlour.web.chat import KEPT, Chat
from parlour.web.hub import Client, Hub, SeatViews, ViewCache
from parlour.web.limits import RateLimit, quote, shorten
from parlour.web.messages import (
    ActionText,
    AskHint,
    AskReview,
    Back,
    BadMove,
    CardPick,
    ChatLine,
    Move,
    NextDeal,
    Play,
    React,
    Say,
    Timer,
    Update,
    WebError,
    chat_message,
    notice,
    rematch_message,
    welcome,
)
from parlour.web.people import FORMER, People, Seated
from parlour.web.seating import Seat, Seating, checked_bot, requested_seats
from parlour.web.settings import DEFAULT_BOT, TURN_TIMEOUT_RANGE, Settings
from parlour.web.store import SeatRow, Store, TableRow, forget_in_record, hash_token
from parlour.web.turns import TurnDriver
from parlour.web.views import public_deal
from parlour.web.work import WorkPool

log = logging.getLogger("parlour.web")

#: What the record of a match in progress says it is (the full record is ``parlour-match/1``).
PROGRESS_FORMAT = "parlour-match-progress/1"


class Table:
    """One table: a match, and the parts that seat its players, drive its turns, tell its
    clients and work out its hints (see the module's docstring)."""

    def __init__(self, tables: Tables, table_id: str, game: Game, seed: int,
                 seats: list[Seat], *, seeded: bool = False, owner_hash: str | None = None,
                 turn_timeout: float | None = None, stand_in: str = DEFAULT_BOT,
                 creator: str = "", tutorial: bool = False) -> None:
        self.tables = tables
        self.store = tables.store
        self.id = table_id
        self.game = game
        self.match = Match(game, seed)
        # The session runs the match: the bots' turns, people's moves, the end of each deal.
        self.session = TableSession(self.match, [s.bot_name or DEFAULT_BOT if s.kind == "bot"
                                                 else HUMAN for s in seats])
        #: Whether the creator chose the seed: then everyone is told it (every deal and every
        #: bot choice follows from it); otherwise it stays secret until the match is over.
        self.seeded = seeded
        #: The address of the client that created it ("" for a table resumed at start-up):
        #: each address has its share of the server's open tables.
        self.creator = creator
        #: The match's events so far (each deal dealt, each action played).
        self.version = 0
        self.finished_record: dict[str, Any] | None = None
        #: Closed for want of players before its match was over.
        self.archived = False
        #: When a client last joined, connected, left or sent something (``time.monotonic``).
        self.touched = time.monotonic()
        #: The table of the rematch, once a player asked for one.
        self.rematch_id: str | None = None
        #: What the lobby shows of the table, as last kept in the database (:meth:`publish`).
        self._published: dict[str, Any] | None = None
        lesson = lesson_of(game.name) if tutorial else None
        if tutorial and lesson is None:
            raise ParlourError(f"there is no tutorial of {game.name}")
        #: A tutorial's coach, which follows the person's seat (``None``: no tutorial).
        self.coach = None if lesson is None else Coach(lesson, SEAT)
        # The parts, each given what it needs of the match and of the server.
        self.seating = Seating(game, seats, owner_hash)
        self.hub = Hub(SeatViews(self.session, self.seating, self.coach))
        self.turns = TurnDriver(self, self.session, self.seating, turn_timeout=turn_timeout,
                                stand_in=stand_in, bot_delay=tables.settings.bot_delay,
                                bot_pool=tables.bot_pool, closing=lambda: tables.closed)
        self.work = WorkPool(table_id, game, tables.settings.advice_level, tables.hint_pool,
                             tables.hints)
        self.chat = Chat()

    # -- what the table shows ----------------------------------------------------------------
    @property
    def turn_timeout(self) -> float | None:
        """The turn timer's seconds (``None``: no timer)."""
        return self.turns.turn_timeout

    @property
    def stand_in(self) -> str:
        """The bot that plays for a person who is away."""
        return self.turns.stand_in

    @property
    def state(self) -> State | None:
        """The deal shown: in progress, or the last one once scored."""
        return self.session.state

    @property
    def status(self) -> str:
        if self.match.is_over:
            return "finished"
        if self.archived:
            return "archived"
        return "playing" if self.state is not None else "waiting"

    @property
    def open(self) -> bool:
        """Whether play can go on here (not finished, not archived)."""
        return not self.match.is_over and not self.archived

    @property
    def deal_number(self) -> int:
        return self.session.deal_number

    def info(self) -> dict[str, Any]:
        return {
            "id": self.id, **self.game.describe(), "status": self.status,
            **self.seed_info(), "turn_timeout": self.turn_timeout, "stand_in": self.stand_in,
            "deal": self.deal_number, "totals": list(self.match.totals),
            "scores": self.scores_info(),
            "match_end": self.game.match_end_text(),
            "sides": None if self.game.sides is None else list(self.game.sides),
            "seats": self.seating.info(self.deal_number),
            "tutorial": self.coach is not None,
        }

    def scores_info(self) -> dict[str, Any]:
        """How the page shows the scores (``Game.scores``, as every table shows them): what
        they count, the headings of a deal's and the match's, and each seat's match total."""
        scores = self.game.scores
        return {"counts": scores.counts, "headings": list(scores.headings),
                "standing": scores.standing,
                "totals": [scores.total(t) for t in self.match.totals]}

    def seed_info(self) -> dict[str, Any]:
        """``seeded``, and the seed if the creator chose it: a drawn seed is told nobody."""
        return {"seeded": True, "seed": self.match.seed} if self.seeded else {"seeded": False}

    def record(self) -> dict[str, Any]:
        """The whole match record, with who sat where and the chat (extra fields replay
        ignores): every hand and the seed. Only for a match that is over (or closed):
        :meth:`public_record` is what may be shown while it goes on."""
        record = self.session.record()
        record["seeded"] = self.seeded
        record["seats"] = self.seating.records()
        record["chat"] = self.chat.record()
        return record

    def closed_record(self) -> dict[str, Any]:
        """The whole record of a match over or closed, as stored when it ended, with the chat
        as it is now: the players may still write once the match is over."""
        return {**(self.finished_record or self.record()), "chat": self.chat.record()}

    def public_record(self, seat: int | None) -> dict[str, Any]:
        """The record of a match in progress as ``seat`` (``None``: anyone) may see it: no
        seed unless it was chosen, no hand, no stock, no face-down card.

        Each finished deal shows what its end reveals: its public play (as a spectator saw
        it), its result, and the hands left when the family lays them down to be counted
        (``Game.reveals_hands_at_end``). The deal in progress is ``seat``'s own view, or the
        spectator's.
        """
        cache: ViewCache = {}
        return {
            "format": PROGRESS_FORMAT, **self.game.describe(), **self.seed_info(),
            "deals": [public_deal(n, state, self.game.players)
                      for n, state in enumerate(self.match.deals, 1)],
            "current": self.view(seat, cache) if self.match.current is not None else None,
            "totals": list(self.match.totals), "winners": [], "over": False,
            "seats": self.seating.records(), "chat": self.chat.record(),
        }

    def view(self, seat: int | None, cache: ViewCache) -> dict[str, Any]:
        """The View for ``seat`` (``None``: a spectator), shared through ``cache`` by the clients
        of one seat within one broadcast."""
        return self.hub.views.view(seat, cache, self.version)

    def names_changed(self) -> None:
        """Keep what the table calls its seats from the next event on, if that changed: in
        the database too once the match has begun (the lines before a restart keep their
        names)."""
        for n, entry in self.seating.rename(self.version):
            self.store.set_names(self.id, n, list(entry))

    def result(self) -> dict[str, Any] | None:
        """The result of the deal shown once it is scored (``None`` until then)."""
        return self.hub.views.result()

    def broadcast(self) -> None:
        """Send every client its own view of the table as it is now, and keep what the lobby
        shows of it in the database where that changed (for the other processes' lobbies)."""
        info = self.info()
        self.publish(info)
        self.hub.broadcast(self.version, info, self.timer())

    def publish(self, info: dict[str, Any] | None = None) -> None:
        """Keep the table's lobby entry in the database, if it changed since it was last kept."""
        info = self.info() if info is None else info
        if info != self._published:
            self.store.set_lobby(self.id, info)
            self._published = info

    def updates(self, seats: list[int | None]) -> list[Update]:
        """The ``update`` messages for clients of ``seats``: the table and its timer worked out
        once, and each seat's view once."""
        return self.hub.updates(seats, self.version, self.info(), self.timer())

    def timer(self) -> Timer | None:
        """The turn timer running now: the seat it runs for and the seconds it has left."""
        return self.turns.timer()

    # -- seats and clients ---------------------------------------------------------------------
    def seat_of(self, token: str | None) -> int:
        """The seat ``token`` holds; :class:`WebError` otherwise."""
        return self.seating.seat_of(token)

    def join(self, seat: object, name: object, profile_key: object = None,
             profile: str | None = None) -> tuple[int, str]:
        """Take a human seat (``None``: the first free one); returns it and its new token.
        With a profile's key, the person sits under the profile's name and is rated with it
        when the match ends (``profile``: a profile id already checked, for a rematch)."""
        seat = self.seating.choose(seat, f"table {self.id} is full: every seat is taken")
        if not self.open:
            raise WebError(f"table {self.id} is {self.status}", 409)
        if profile_key is not None:
            held = self.tables.people.holder(profile_key)
            name, profile = held.name, held.id
        # A seat freed during the match is played from the next deal: the deal shown now
        # (in progress, or over) holds the hand of the seat's last holder.
        sits_from = self.deal_number + 1 if self.state is not None else 0
        token = self.seating.take(seat, name, sits_from, profile)
        self.store.take_seat(self.id, seat, self.seating.seats[seat].name, hash_token(token),
                             sits_from, profile)
        self.touched = time.monotonic()
        self.seats_changed(seat)
        return seat, token

    def plays(self, seat: int) -> bool:
        """Whether a person plays ``seat`` in the deal shown (a seat nobody holds, or whose
        holder sits down at the next deal, is played by the stand-in)."""
        return self.seating.plays(seat, self.deal_number)

    def seats_changed(self, seat: int) -> None:
        """``seat`` changed hands: deal the first deal once every seat is taken; otherwise tell
        everyone. If it is that seat's turn, the turn starts afresh for its new holder (a
        person who just sat down is not away; a bot has no timer)."""
        self.names_changed()
        if self.status == "waiting" and self.seating.all_taken():
            self.deal()
        else:
            state = self.match.current
            if state is not None and state.current_player == seat:
                self.turns.restart_clock()
            self.turns.arm()
            self.broadcast()
            self.turns.schedule()

    def hand_over(self, owner_token: str | None, seat: object, body: object) -> None:
        """The table's creator hands an absent person's seat to a bot (``{"to": "bot", "bot":
        NAME}``) or frees it for someone else to join (``{"to": "free"}``). A seat freed
        during the match is played by the stand-in until whoever takes it plays it, from the
        next deal: the owner powers never show anyone a hand that was someone else's."""
        self.seating.check_owner(owner_token)
        seat = self.seating.check_seat(seat)
        if not isinstance(body, dict) or body.get("to") not in ("bot", "free"):
            raise WebError('the request is {"to": "bot", "bot": NAME} or {"to": "free"}')
        if not self.open:
            raise WebError(f"table {self.id} is {self.status}", 409)
        self.seating.check_absent(seat)
        if body["to"] == "free":
            self.seating.free(seat)
        else:
            name = checked_bot(body.get("bot") or self.stand_in, self.game)
            self.seating.seat_bot(seat, name)
            self.session.seat_bot(seat, name)
        self.store.set_seat(self.id, self.seating.seats[seat].row())
        self.touched = time.monotonic()
        self.seats_changed(seat)

    def connect(self, client: Client) -> None:
        if not self.hub.watched:
            self.turns.restart_clock()  # the clock stood still with nobody here
        self.hub.add(client)
        self.touched = time.monotonic()
        if client.seat is not None:
            self.seating.connected(client.seat, 1)
        client.send(welcome(client.seat, self.info()))
        recent = self.chat.recent()
        if recent:
            client.send(chat_message(recent))
        self.turns.arm()
        if client.seat is None:
            # A spectator changes nothing the others see: the update is for it alone.
            client.send(self.updates([None])[0])
            return
        self.broadcast()
        if self.state is not None and not self.plays(client.seat):
            client.send(notice(self.not_yet()))

    def disconnect(self, client: Client) -> None:
        if not self.hub.remove(client):
            return
        self.touched = time.monotonic()
        if not self.hub.watched:
            self.turns.arm()  # nobody left: the table pauses
        if client.seat is not None:
            self.seating.connected(client.seat, -1)
            self.broadcast()

    # -- changes -------------------------------------------------------------------------------
    def deal(self) -> None:
        """Deal the match's next deal."""
        self.match.next_deal()
        self.record_event("deal", -1, "")
        self.changed()

    def moved(self, seat: int, action: Action) -> None:
        """``seat`` has just played ``action`` through the session: store it, score the deal
        if it is over, and tell everyone."""
        self.record_event("action", seat, str(action))
        if self.session.to_move() is None:
            self.session.finish_deal()
            if self.match.is_over:
                self.finished_record = self.record()
                self.store.set_status(self.id, "finished", self.finished_record)
                if self.coach is None:  # a tutorial is practice: it is not rated
                    self.tables.people.rate(self.id, self.game, [
                        Seated(s.seat, s.profile, s.bot_name if s.kind == "bot" else None, total)
                        for s, total in zip(self.seating.seats, self.match.totals, strict=True)])
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
        """An event happened: a new turn starts; tell everyone, and set its bot going."""
        self.follow()
        self.turns.restart_clock()
        self.turns.arm()
        self.broadcast()
        self.turns.schedule()

    def follow(self) -> None:
        """A tutorial's coach sees the position as its seat does: the seat's observation and,
        at its turn, its legal moves (its notes new here join those its view carries)."""
        coach, state = self.coach, self.state
        if coach is None or state is None:
            return
        mine = state.current_player == coach.seat and not state.is_over
        coach.follow(state.observation(coach.seat), state.legal_actions() if mine else [])

    # -- what the turn driver asks of its table (turns.Driven) --------------------------------
    def schedule(self) -> None:
        """Set going the bot's turn or the deal that is due, if any (:class:`TurnDriver`)."""
        self.turns.schedule()

    @property
    def watched(self) -> bool:
        """Whether anybody is connected."""
        return self.hub.watched

    def timed_out(self, seat: int) -> None:
        """``seat``'s person let the turn timer run out: the stand-in plays for them until they
        act again."""
        self.seating.mark_away(seat, True)
        self.hub.notify(seat, f"your {_seconds(self.turn_timeout)} ran out: {self.stand_in} "
                              "plays for you until you act again")
        self.broadcast()
        self.turns.schedule()

    # -- requests from clients -----------------------------------------------------------------
    def act(self, client: Client, message: Play) -> None:
        """An ``action`` message from ``client``; :class:`WebError` if refused (nothing changes)."""
        seat = self.acting_seat(client, message.token)
        if self.archived:
            raise WebError(f"table {self.id} was closed")
        state = self.match.current
        if state is None or state.is_over:
            raise WebError("no deal is in progress" if state is None
                           else "the deal is over: send next_deal for the next one")
        self.check_plays(seat)
        if state.current_player != seat:
            raise WebError(f"it is {self.seating.label(state.current_player)}'s turn, not yours")
        action = self.play(seat, message.move)
        self.seating.mark_away(seat, False)
        self.moved(seat, action)

    def play(self, seat: int, move: Move) -> Action:
        """Play the legal action ``move`` names for ``seat``, by its text or by a verb and
        cards; :class:`WebError` with the reason, and nothing changed, if it names none."""
        try:
            match move:
                case BadMove():
                    raise WebError(move.reason)
                case ActionText():
                    return self.session.play(seat, move.text)
                case CardPick():
                    return self.session.pick(seat, move.verb, [parse_card(c) for c in move.cards])
        except WebError:
            raise
        except ParlourError as e:  # a card that is none, an illegal move: the rules' reason
            raise WebError(str(e)) from None

    def acting_seat(self, client: Client, token: str | None) -> int:
        seat = self.seat_of(token)
        if client.seat is None:
            raise WebError("this connection is a spectator's: say hello with your token first")
        if seat != client.seat:
            raise WebError("that token is for another seat than the one this connection "
                           "said hello for")
        return seat

    def check_plays(self, seat: int) -> None:
        """Refuse a move or a hint for ``seat`` whose holder plays it from a later deal."""
        if not self.plays(seat):
            raise WebError(self.not_yet())

    def not_yet(self) -> str:
        return f"you play this seat from the next deal: until then {self.stand_in} plays it"

    def next_deal(self, client: Client, message: NextDeal) -> None:
        seat = self.acting_seat(client, message.token)
        if self.match.is_over:
            raise WebError("the match is over")
        if self.archived:
            raise WebError(f"table {self.id} was closed")
        if self.match.current is not None:
            raise WebError("the deal is not over yet")
        self.back(seat)
        self.deal()

    def back(self, seat: int) -> None:
        """``seat``'s person acted: they have their seat back from the stand-in."""
        if self.seating.mark_away(seat, False):
            self.turns.restart_clock()
            self.turns.arm()
            self.broadcast()

    def come_back(self, client: Client, message: Back) -> None:
        """A ``back`` message: the person takes their seat back from the stand-in."""
        self.back(self.acting_seat(client, message.token))

    def hint(self, client: Client, message: AskHint) -> None:
        """Work out a hint for ``client``'s seat; it is sent when found.

        One hint a decision: asking again at the same decision gets the same hint, without
        working it out again. Refused (:class:`WebError`) when it is not the seat's turn."""
        seat = self.acting_seat(client, message.token)
        self.check_plays(seat)
        self.check_judged("hints")
        state = self.match.current
        if state is None or state.is_over or state.current_player != seat:
            raise WebError("a hint is for your turn")
        self.back(seat)
        self.check_working()
        self.work.hint(client, seat, self.deal_number, state, message.ref)

    def say(self, client: Client, message: Say) -> None:
        """A ``chat`` line from ``client``'s seat, for everyone at the table; :class:`WebError`
        if refused (a spectator, its text, its seat's pace), and nothing changes."""
        seat = self.writing_seat(client, message.token)
        self.chat_line(self.chat.write(seat, self.seating.label(seat), message.text))

    def react(self, client: Client, message: React) -> None:
        """A quick reaction from ``client``'s seat, as a chat line of its words."""
        seat = self.writing_seat(client, message.token)
        self.chat_line(self.chat.react(seat, self.seating.label(seat), message.reaction))

    def writing_seat(self, client: Client, token: str | None) -> int:
        """The seat a chat message is written for: spectators read the chat, and a closed
        table's chat is closed too."""
        if client.seat is None:
            raise WebError("spectators read the chat: take a seat to write in it", 403)
        seat = self.acting_seat(client, token)
        if self.archived:
            raise WebError(f"table {self.id} was closed")
        return seat

    def chat_line(self, line: ChatLine) -> None:
        """Store a new chat line and send it to everyone at the table."""
        self.store.add_chat(self.id, line, KEPT)
        self.hub.send_all(chat_message([line]))

    def check_judged(self, what: str) -> None:
        """Refuses ``what`` (hints, reviews) in a game no searching level can judge."""
        if not searchable(self.game.variant):
            raise WebError(f"there are no {what} in {self.game.name}: no computer player here "
                           "can judge its moves")

    def review(self, client: Client, message: AskReview) -> None:
        """Review ``client``'s seat's decisions in a finished deal (``deal``: its number,
        default the last one); the review is sent to that client alone when done. One review
        a deal, as one hint a decision; refused when the deal is not finished."""
        seat = self.acting_seat(client, message.token)
        self.check_judged("reviews")
        number = len(self.match.deals) if message.deal is None else message.deal
        if not 1 <= number <= len(self.match.deals):
            raise WebError("a review is of a finished deal: 'deal' is its number, from 1 to "
                           f"{len(self.match.deals)}" if self.match.deals
                           else "a review is of a finished deal: none is finished yet")
        sits_from = self.seating.seats[seat].sits_from
        if number < sits_from:
            raise WebError(f"you have played this seat from deal {sits_from}: "
                           "a review is of your own deals")
        self.check_working()
        self.work.review(client, seat, number, self.match.deals[number - 1], message.ref)

    def check_working(self) -> None:
        """Refuse hints and reviews at a closed table, or once the server is shutting down."""
        if self.archived:
            raise WebError(f"table {self.id} was closed")
        if self.tables.closed:
            raise WebError("the server is shutting down")


def _number(value: float) -> int | float:
    return int(value) if float(value).is_integer() else value


def _seconds(value: float | None) -> str:
    return f"{_number(value or 0)} s"


#: The replays' reviews a process keeps.
REVIEWS_KEPT = 256
#: The most tables of the other processes a lobby lists (the newest).
LOBBY_FROM_OTHERS = 500


class Tables:
    """The tables one server process owns."""

    def __init__(self, store: Store, settings: Settings) -> None:
        self.store = store
        self.settings = settings
        #: The people's profiles and ratings, in the same store.
        self.people = People(store)
        self.live: dict[str, Table] = {}
        #: Finished and archived tables looked up lately, rebuilt from the database.
        self.done: OrderedDict[str, Table] = OrderedDict()
        self.closed = False
        self.bot_pool = ThreadPoolExecutor(settings.bot_workers, thread_name_prefix="bot")
        self.hint_pool = hints.hint_executor(settings.hint_workers)
        #: The hints being worked out (a task must be referenced until it is done).
        self.hints: set[asyncio.Task[None]] = set()
        self.create_limit = RateLimit(settings.tables_per_minute, settings.table_burst)
        self._sweeper: asyncio.Task[None] | None = None
        #: The replays' reviews worked out lately, by table, seat and deal.
        self._reviews: OrderedDict[tuple[str, int, int], dict[str, Any]] = OrderedDict()

    # -- creating ------------------------------------------------------------------------------
    def create(self, body: object, client: str = "") -> tuple[Table, str]:
        """A new table from a lobby request by the client at address ``client``, and the
        owner token that lets its creator hand seats on; :class:`WebError` naming what is
        wrong, or that the server's cap or the client's rate is reached."""
        if not isinstance(body, dict):
            raise WebError("the request must be a JSON object")
        fields = {"variant", "players", "options", "seats", "seed", "turn_timeout", "stand_in",
                  "tutorial"}
        unknown = set(body) - fields
        if unknown:
            raise WebError(f"unknown field(s): {shorten(', '.join(sorted(unknown)), 80)}")
        lesson = body.get("tutorial", False)
        if not isinstance(lesson, bool):
            raise WebError("'tutorial' must be true or false")
        if lesson:
            body = self._tutorial_spec(body)
        options = body.get("options") or {}
        if not isinstance(options, dict):
            raise WebError("'options' must be an object of option values by name")
        variant = body.get("variant")
        if not isinstance(variant, str):
            raise WebError("'variant' must name a variant")
        try:
            game = new_game(variant, players=body.get("players"), **options)
        except VariantError as e:  # an option by its label, as the page shows it
            raise WebError(e.words) from None
        except ParlourError as e:
            raise WebError(str(e)) from None
        except TypeError:
            raise WebError("'options' must be an object of option values by name") from None
        seats = requested_seats(body.get("seats"), game)
        seed = body.get("seed")
        if seed is not None and (not isinstance(seed, int) or isinstance(seed, bool)
                                 or not 0 <= seed < 2**63):
            raise WebError(f"The seed must be a whole number from 0 to {2**63 - 1}, or none")
        turn_timeout = self._turn_timeout(body)
        stand_in = checked_bot(body.get("stand_in", self.settings.stand_in), game, "the stand-in: ")
        self._check_room(client)
        seeded = seed is not None
        if seed is None:
            seed = secrets.randbelow(2**63)  # nothing a client sees tells it
        owner = secrets.token_urlsafe(24)
        table_id = f"{self.settings.instance}-{secrets.token_hex(6)}"
        table = Table(self, table_id, game, seed, seats, seeded=seeded,
                      owner_hash=hash_token(owner), turn_timeout=turn_timeout, stand_in=stand_in,
                      creator=client, tutorial=lesson)
        self.store.add_table(
            TableRow(table_id, game.name, game.players, game.option_values(), seed,
                     self.settings.instance, "waiting", seeded=seeded,
                     owner_hash=table.seating.owner_hash, turn_timeout=turn_timeout, stand_in=stand_in,
                     tutorial=lesson),
            [SeatRow(s.seat, s.kind, s.bot_name, s.name, None) for s in seats])
        table.publish()
        self.live[table_id] = table
        if table.seating.all_taken():
            table.deal()
        return table, owner

    @staticmethod
    def _tutorial_spec(body: dict[str, Any]) -> dict[str, Any]:
        """The table a tutorial request (``{"tutorial": true, "variant": NAME}``) asks for:
        its lesson's one-deal match of the variant (or of a family's simplest, or of the
        usual game's family without one), the person at seat 0 and the lesson's bots, with no
        turn timer; :class:`WebError` for anything else given, or a name without a tutorial."""
        extra = set(body) - {"tutorial", "variant"}
        if extra:
            raise WebError("a tutorial is a set deal with its own seats and bots: give it "
                           "'variant' alone, not " + shorten(", ".join(sorted(extra)), 80))
        name = body.get("variant")
        if name is not None and not isinstance(name, str):
            raise WebError("'variant' must name a variant or a family of games")
        try:
            lesson = tutorial(name)
        except VariantError as e:
            raise WebError(str(e)) from None
        return {"variant": lesson.variant, "options": lesson.options,
                "seats": [{"kind": "human"} if s == HUMAN else {"kind": "bot", "bot": s}
                          for s in lesson.seats()],
                "seed": lesson.lesson.seed, "turn_timeout": None}

    def rematch(self, table: Table, token: str | None, client: str = "") -> tuple[Table, int, str,
                                                                            str | None]:
        """Play again: a new table with ``table``'s game, seats and settings (a new secret
        seed), where the holder of ``token`` takes the same seat under the same name. The first
        to ask creates it (and gets its owner token) and every client of ``table`` is told; the
        others who ask join it. Returns the new table, the seat, its token and the owner token
        (``None`` but for the creator); :class:`WebError` if refused."""
        seat = table.seat_of(token)
        if not table.match.is_over:
            raise WebError("a rematch follows a finished match: this one goes on", 409)
        owner = None
        new = self.live.get(table.rematch_id) if table.rematch_id else None
        if new is None:
            spec: dict[str, Any] = {
                "variant": table.game.name, "players": table.game.players,
                "options": table.game.option_values(), "seats": table.seating.request(),
                "turn_timeout": table.turn_timeout, "stand_in": table.stand_in}
            if table.coach is not None:  # a tutorial again, as it was
                spec = {"tutorial": True, "variant": table.game.name}
            new, owner = self.create(spec, client)
            table.rematch_id = new.id
            table.hub.send_all(rematch_message(new.id, seat))
        held = table.seating.seats[seat]
        seat, token = new.join(seat, held.name, profile=held.profile)
        return new, seat, token, owner

    def _turn_timeout(self, body: dict[str, Any]) -> float | None:
        if "turn_timeout" not in body:
            return self.settings.turn_timeout
        value = body["turn_timeout"]
        if value is None or value == 0:
            return None
        low, high = TURN_TIMEOUT_RANGE
        if (not isinstance(value, (int, float)) or isinstance(value, bool)
                or not low <= value <= high):
            raise WebError(f"The turn timer must be from {low:g} to {high:g} seconds, or none")
        return float(value)

    def _check_room(self, client: str) -> None:
        """Refuse a new table from ``client`` past the server's cap on open tables, past the
        client's share of it, or past its rate of new tables."""
        cap, share = self.settings.max_tables, self.settings.tables_per_address
        open_tables = [t for t in self.live.values() if t.open]
        if len(open_tables) >= cap:
            raise WebError(f"this server has its most open tables ({cap}): join one, or try "
                           "again later", 503, retry_after=60.0)
        if sum(t.creator == client for t in open_tables) >= share:
            raise WebError(f"your address has its most open tables ({share}): finish one, or "
                           "leave one to be closed", 429, retry_after=60.0)
        wait = self.create_limit.wait(client)
        if wait:
            raise WebError(f"too many new tables from your address: try again in "
                           f"{math.ceil(wait)} s", 429, retry_after=wait)

    # -- replays -------------------------------------------------------------------------------
    def replay_seat(self, table_id: str, key: object, deal: int) -> tuple[Table, int]:
        """The finished table ``table_id`` and the seat the profile of ``key`` held in its deal
        number ``deal``: refused when the match goes on (409), for anyone who did not play it
        (403), and for a deal from before the person sat down."""
        table = self.get(table_id)
        profile = self.people.holder(key)
        if not table.match.is_over:
            raise WebError("a replay is of a finished match: this one goes on", 409)
        held = [s for s in table.seating.seats if s.profile == profile.id]
        if not held:
            raise WebError("a replay is of your own matches: you did not play this one", 403)
        if held[0].sits_from > deal:
            raise WebError(f"you played this seat from deal {held[0].sits_from}: a replay is "
                           "of your own deals", 403)
        return table, held[0].seat

    def replay(self, table_id: str, key: object, deal: int) -> dict[str, Any]:
        """Deal ``deal`` of a finished match, for a person who played it
        (:func:`parlour.web.replays.replay`)."""
        table, seat = self.replay_seat(table_id, key, deal)
        return replays.replay(table.match.deals, seat, deal, table.game.players)

    async def replay_review(self, table_id: str, key: object, deal: int) -> dict[str, Any]:
        """The review of the viewer's own decisions in deal ``deal`` of a finished match they
        played, judged at the server's advice level in its hint processes (worked out once a
        deal and seat, then kept)."""
        table, seat = self.replay_seat(table_id, key, deal)
        if not 1 <= deal <= len(table.match.deals):
            raise WebError(f"a review is of a deal of the match, from 1 to "
                           f"{len(table.match.deals)}")
        cached = self._reviews.get((table_id, seat, deal))
        if cached is not None:
            return cached
        game = table.game
        answer: dict[str, Any] = await asyncio.get_running_loop().run_in_executor(
            self.hint_pool, hints.work_out_review, game.name, game.players,
            game.option_values(), deal_record(table.match.deals[deal - 1]), seat,
            self.settings.advice_level, deal)
        self._reviews[(table_id, seat, deal)] = answer
        while len(self._reviews) > REVIEWS_KEPT:
            self._reviews.popitem(last=False)
        return answer

    def forget(self, profile: str) -> None:
        """A profile was deleted: the tables in memory call its seats as the database now does
        (:data:`~parlour.web.people.FORMER`), in their records too, and tell their clients."""
        for table in [*self.live.values(), *self.done.values()]:
            held = table.seating.forget(profile, FORMER)
            if not held:
                continue
            if table.finished_record is not None:
                table.finished_record = forget_in_record(table.finished_record, held, FORMER)
            table.hub.views.forget()
            table.broadcast()

    # -- finding -------------------------------------------------------------------------------
    def get(self, table_id: str) -> Table:
        """The table ``table_id``: a live one, or a finished or archived one of this process
        rebuilt from the database; :class:`WebError` 404 otherwise."""
        table = self.live.get(table_id)
        if table is not None:
            return table
        table = self.done.get(table_id)
        if table is not None:
            self.done.move_to_end(table_id)
            return table
        row = self.store.table(table_id) if isinstance(table_id, str) else None
        if (row is None or row.owner != self.settings.instance
                or row.status not in ("finished", "archived")):
            # An unfinished table of this process's is live, unless it could not be resumed.
            raise WebError(f"no table {quote(table_id)}", 404)
        try:
            table = self._rebuild(row)
        except (ParlourError, AssertionError) as e:
            log.error("table %s cannot be rebuilt: %s", row.id, e)
            raise WebError(f"no table {quote(table_id)}", 404) from None
        self.done[table_id] = table
        while len(self.done) > 64:
            self.done.popitem(last=False)
        return table

    def listing(self, variant: str | None = None, status: str | None = None,
                offset: int = 0, limit: int = 20) -> tuple[list[dict[str, Any]], int]:
        """A page of the lobby: this process's live tables, then the other processes' on the
        same database (as they last kept them), of ``variant`` and with ``status`` when given,
        unfinished first, newest first within each; and how many there are in all. One site
        served by several processes lists every table whichever process answers."""
        # Each entry with its status; only the page's own tables have their info worked out.
        entries: list[tuple[str, Table | dict[str, Any]]] = [
            (t.status, t) for t in reversed(self.live.values())
            if variant is None or t.game.name == variant]
        entries += [(t["status"], t) for t in self.store.lobby(self.settings.instance,
                                                               LOBBY_FROM_OTHERS)
                    if variant is None or t["variant"] == variant]
        entries = [e for e in entries if status is None or e[0] == status]
        entries.sort(key=lambda e: e[0] == "finished")
        page = [t.info() if isinstance(t, Table) else t for _, t in entries[offset:offset + limit]]
        return page, len(entries)

    # -- resuming and closing ------------------------------------------------------------------
    def resume(self) -> None:
        """Rebuild every unfinished table this process owns from the database: the match
        replayed event by event to exactly where it stopped (its seats, tokens and bots with
        it). A table whose events do not replay (stored by a version with other rules) is left
        out, and logged. Finished and archived tables are rebuilt only when asked for."""
        for row in self.store.tables(self.settings.instance, ("waiting", "playing")):
            try:
                self.live[row.id] = self._rebuild(row)
            except (ParlourError, AssertionError) as e:
                log.error("table %s cannot be resumed: %s", row.id, e)

    def _rebuild(self, row: TableRow) -> Table:
        seats = [Seat(s.seat, s.kind, s.bot, s.name, s.token_hash, s.sits_from,
                      profile=s.profile) for s in self.store.seats(row.id)]
        game = new_game(row.variant, players=row.players, **row.options)
        table = Table(self, row.id, game, row.seed, seats, seeded=row.seeded,
                      owner_hash=row.owner_hash, turn_timeout=row.turn_timeout,
                      stand_in=row.stand_in or self.settings.stand_in, tutorial=row.tutorial)
        table.seating.restore_names(self.store.names(row.id))
        table.chat.restore(self.store.chat(row.id))
        session = table.session
        for kind, seat, text in self.store.events(row.id):
            table.version += 1
            if kind == "deal":
                table.match.next_deal()
                table.follow()  # a tutorial's notes come back as they came
                continue
            if session.to_move() != seat:
                raise ParlourError(f"event {table.version} ({text}) is out of turn")
            session.play(seat, text)
            table.follow()
            if session.to_move() is None:
                session.finish_deal()
        table.finished_record = row.record
        table.archived = row.status == "archived"
        return table

    def sweep(self) -> None:
        """Close the tables nobody has been at for ``idle_timeout`` seconds, or for
        ``waiting_timeout`` if still waiting with no seat taken: an unfinished one is archived
        (its whole record kept in the database), a finished one leaves the lobby."""
        now = time.monotonic()
        idle = [t for t in self.live.values()
                if not t.hub.watched and now - t.touched >= self.timeout(t)]
        for table in idle:
            if table.open:
                table.archived = True
                table.finished_record = table.record()
                self.store.set_status(table.id, "archived", table.finished_record)
                log.info("table %s archived: nobody came for %s", table.id,
                         _seconds(self.timeout(table)))
            table.turns.stop()
            del self.live[table.id]

    def timeout(self, table: Table) -> float:
        """Seconds after which ``table`` is closed when nobody is there."""
        unseated = table.status == "waiting" and not table.seating.any_taken()
        return self.settings.waiting_timeout if unseated else self.settings.idle_timeout

    async def _sweep_now_and_then(self) -> None:
        shortest = min(self.settings.idle_timeout, self.settings.waiting_timeout)
        while True:
            await asyncio.sleep(min(max(shortest / 4, 0.05), 60.0))
            self.sweep()

    def start(self) -> None:
        """Set the bots of every resumed table going, and the sweeper (on the running loop)."""
        for table in self.live.values():
            table.schedule()
        self._sweeper = asyncio.get_running_loop().create_task(self._sweep_now_and_then())

    def close(self) -> None:
        self.closed = True
        if self._sweeper is not None:
            self._sweeper.cancel()
        for table in self.live.values():
            table.turns.stop()
        for task in self.hints:
            task.cancel()
        self.bot_pool.shutdown(wait=False, cancel_futures=True)
        self.hint_pool.shutdown(wait=False, cancel_futures=True)
