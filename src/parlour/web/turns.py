"""A web table's turn driver: its bots' moves, its deals without people, and its turn timer.

Bots think in a worker thread on an observation and the legal actions only (what a remote
player would get), after a pause that lets people follow the play; their move then goes through
the table like a person's, and is dropped if the table moved on meanwhile. A table whose seats
are all bots deals its next deal by itself. The turn timer runs while a person present at the
table is to move; when it runs out, the table marks them away and the stand-in bot plays their
turns until they act again.

A table with nobody connected pauses: its bots, its deals and its timer wait until someone
watches again. At most one bot turn or deal is under way at a time; the next is scheduled when
it ends.

The driver changes nothing itself: it asks its table (:class:`Driven`) to play, to deal, or to
mark a person away, so every change goes through the one path that stores it and tells the
clients.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable, Coroutine
from concurrent.futures import Executor
from typing import Any, Protocol

from parlour.bots import Bot, make_bot
from parlour.game import Action
from parlour.session import TableSession
from parlour.web.messages import Timer
from parlour.web.seating import Seating

log = logging.getLogger("parlour.web")

#: A turn to drive: a bot's move, or a deal.
Job = Callable[[], Coroutine[Any, Any, None]]


class Driven(Protocol):
    """What the turn driver asks of the table it drives."""

    @property
    def id(self) -> str: ...

    @property
    def version(self) -> int:
        """The events so far: a turn begun at one version is dropped at another."""

    @property
    def open(self) -> bool:
        """Whether play can go on (the match is not over, the table not closed)."""

    @property
    def watched(self) -> bool:
        """Whether anybody is connected."""

    def moved(self, seat: int, action: Action) -> None:
        """``seat`` has just played ``action`` through the session."""

    def deal(self) -> None:
        """Deal the next deal."""

    def timed_out(self, seat: int) -> None:
        """``seat``'s person let the turn timer run out."""


class TurnDriver:
    """The turns of ``table``: its ``session`` (the match), its ``seating`` (who plays each
    seat), its turn timer (``turn_timeout`` seconds, ``None`` for none) and the bot that stands
    in for a person (``stand_in``). The server lends the pause before each bot move
    (``bot_delay``), the threads bots think in (``bot_pool``) and whether it is shutting down
    (``closing``)."""

    def __init__(self, table: Driven, session: TableSession, seating: Seating, *,
                 turn_timeout: float | None, stand_in: str, bot_delay: float,
                 bot_pool: Executor, closing: Callable[[], bool]) -> None:
        self.table = table
        self.session = session
        self.seating = seating
        self.turn_timeout = turn_timeout
        self.stand_in = stand_in
        self.bot_delay = bot_delay
        self.bot_pool = bot_pool
        self.closing = closing
        #: The bot turn or deal under way.
        self._task: asyncio.Task[None] | None = None
        #: When the turn started (``time.monotonic``), and the turn timer's handle.
        self._turn_started = time.monotonic()
        self._timer: asyncio.TimerHandle | None = None
        self._stand_in_bot: Bot | None = None

    # -- bots and deals ------------------------------------------------------------------------
    def schedule(self) -> None:
        """Start the bot's turn (or the stand-in's for a person who is away), or the next deal
        of a bots-only table, if one is due and none is under way."""
        if self._task is not None and not self._task.done():
            return
        job = self._due()
        if job is not None and not self.closing():
            self._task = asyncio.get_running_loop().create_task(job())
            self._task.add_done_callback(self._done)

    def _done(self, task: asyncio.Task[None]) -> None:
        # The next turn is scheduled once this one is over (its own move found it running).
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:
            log.error("table %s: %s failed: %r", self.table.id, task.get_coro(), error)
            return
        self.schedule()

    def _due(self) -> Job | None:
        if not self.table.watched or not self.table.open:
            return None  # nobody is watching: the table waits for them
        state = self.session.match.current
        if state is None:
            if self.session.match.deals and not self.seating.has_people():
                return self._auto_deal
            return None
        if state.is_over:
            return None
        if self.seating.player(state.current_player, self.session.deal_number) != "person":
            return self._bot_turn
        return None

    async def _bot_turn(self) -> None:
        version = self.table.version
        await asyncio.sleep(self.bot_delay)
        seat = self.session.to_move()
        if seat is None or self.table.version != version or self.closing():
            return
        player = self.seating.player(seat, self.session.deal_number)
        if player == "person":
            return  # the person came back meanwhile
        stand_in = None
        if player == "stand-in":
            if self._stand_in_bot is None:
                self._stand_in_bot = make_bot(self.stand_in, interactive=True)
            stand_in = self._stand_in_bot
        # The bot gets what a remote player would: an observation and the legal actions.
        turn = self.session.bot_turn(stand_in)
        action = await asyncio.get_running_loop().run_in_executor(self.bot_pool, turn.think)
        if (self.table.version == version and not self.closing()
                and self.session.apply_turn(turn, action)):
            self.table.moved(seat, action)

    async def _auto_deal(self) -> None:
        await asyncio.sleep(self.bot_delay)
        if self.session.match.current is None and self.table.open and not self.closing():
            self.table.deal()

    # -- the turn timer ------------------------------------------------------------------------
    def restart_clock(self) -> None:
        """The turn starts afresh: a new turn, its person back, or someone there again after
        the clock stood still with nobody watching."""
        self._turn_started = time.monotonic()

    def arm(self) -> None:
        """(Re)start the turn timer if a person present at the table is to move, or stop it."""
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
        state = self.session.match.current
        if (self.turn_timeout is None or not self.table.watched or state is None
                or state.is_over or not self.table.open or self.closing()):
            return
        if self.seating.player(state.current_player, self.session.deal_number) != "person":
            return
        left = self._turn_started + self.turn_timeout - time.monotonic()
        self._timer = asyncio.get_running_loop().call_later(
            max(left, 0.0), self._time_out, self.table.version)

    def _time_out(self, version: int) -> None:
        self._timer = None
        state = self.session.match.current
        if version != self.table.version or state is None or state.is_over or self.closing():
            return
        self.table.timed_out(state.current_player)

    def timer(self) -> Timer | None:
        """The turn timer running now: the seat it runs for and the seconds it has left."""
        if self._timer is None:
            return None
        state = self.session.match.current
        assert state is not None and self.turn_timeout is not None
        left = self._turn_started + self.turn_timeout - time.monotonic()
        return {"seat": state.current_player, "seconds": round(max(left, 0.0), 1)}

    def stop(self) -> None:
        """Stop the turn under way and the timer: the table is closed, or the server is."""
        if self._task is not None:
            self._task.cancel()
        if self._timer is not None:
            self._timer.cancel()
            self._timer = None
