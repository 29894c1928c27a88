"""A web table's work pool: the hints and reviews its players ask for.

Hints and reviews are searches, worked out in the server's own small pool of processes
(:mod:`parlour.web.hints`), apart from the bots' threads, so one client asking for hints cannot
hold up any other table: a search in a thread would hold the interpreter's lock against them
all. Each is worked out once for what it is of (a hint: a decision; a review: a deal), and
asked again, the answer is sent again; a seat has at most :data:`WORK_IN_FLIGHT` being worked
out at once, and keeps its last :data:`ANSWERS_KEPT` answers.

The pool is sent plain data only: what a remote player would get (an observation as JSON, the
legal actions as text, the record of a finished deal), never the table's state.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass, field
from typing import Any

from parlour.errors import ParlourError
from parlour.game import Game, State
from parlour.records import deal_record
from parlour.web import hints
from parlour.web.hub import Client
from parlour.web.limits import shorten
from parlour.web.messages import ServerMessage, WebError, error, hint_reply, review_reply

log = logging.getLogger("parlour.web")

#: Hints and reviews one seat may have worked out at once, and the answers it keeps (asked
#: again, an answer kept is sent again).
WORK_IN_FLIGHT, ANSWERS_KEPT = 2, 16

#: What a hint or a review is of: ``("hint", deal, step)`` or ``("review", deal)``.
Key = tuple[Any, ...]
#: How an answer is sent to a client that asked with ``ref``.
Reply = Callable[[Any, object], ServerMessage]


@dataclass(eq=False)
class Advice:
    """A seat's latest hint or review: what it is of (``key``), and its answer once found, or
    the clients waiting for it (with their ``ref``) while it is worked out."""

    key: Key
    answer: Any = None
    waiting: list[tuple[Client, object]] = field(default_factory=list)


class WorkPool:
    """The hints and reviews of the table ``table_id`` of ``game``, judged at ``level``: worked
    out in ``executor`` (the server's hint processes), each as a task kept in ``tasks`` until
    it is done (the server cancels them when it shuts down)."""

    def __init__(self, table_id: str, game: Game, level: str, executor: Executor,
                 tasks: set[asyncio.Task[None]]) -> None:
        self.table_id = table_id
        self.game = game
        self.level = level
        self.executor = executor
        self.tasks = tasks
        #: Each seat's latest hints and reviews, by what they are of: being worked out, or
        #: their answers.
        self._advice: dict[int, OrderedDict[Key, Advice]] = {}

    def hint(self, client: Client, seat: int, deal: int, state: State, ref: object) -> None:
        """A hint for ``seat``, to move in deal number ``deal`` (``state``), for ``client``."""
        game = self.game
        # What a remote player would get, as plain data for the hint's own process.
        request = (game.name, game.players, game.option_values(), self.level,
                   state.observation(seat).to_dict(), [str(a) for a in state.legal_actions()])
        # (looked up now: a test may put its own work in the module's place)
        self._ask(client, seat, ("hint", deal, len(state.history)), hints.work_out_hint,
                  request, hint_reply, ref)

    def review(self, client: Client, seat: int, deal: int, state: State, ref: object) -> None:
        """A review of ``seat``'s decisions in finished deal number ``deal`` (``state``), for
        ``client``."""
        game = self.game
        request = (game.name, game.players, game.option_values(), deal_record(state), seat,
                   self.level, deal)
        self._ask(client, seat, ("review", deal), hints.work_out_review, request, review_reply,
                  ref)

    def _ask(self, client: Client, seat: int, key: Key, work: Callable[..., Any],
             request: tuple[Any, ...], reply: Reply, ref: object) -> None:
        """Answer ``client`` with ``reply(work(*request), ref)``, worked out in the
        hints' processes: once for each ``key`` (a decision's hint, a deal's review) of the
        seat. Asked again, the answer is sent again, or, while it is being worked out, sent
        to each who asked when it is found. A refusal the work raises is sent as an error."""
        answers = self._advice.setdefault(seat, OrderedDict())
        known = answers.get(key)
        if known is not None:
            answers.move_to_end(key)
            if known.answer is None:
                known.waiting.append((client, ref))
            else:
                client.send(reply(known.answer, ref))
            return
        # A new decision or deal: its own work. A player has one at a time, or two in the
        # moment after a move; past that a client is asking for earlier deals' reviews in a
        # flood, and waits.
        if sum(a.answer is None for a in answers.values()) >= WORK_IN_FLIGHT:
            raise WebError("your last hints and reviews are still being worked out: ask again "
                           "in a moment", 429, retry_after=1.0)
        advice = Advice(key, waiting=[(client, ref)])
        answers[key] = advice
        while len(answers) > ANSWERS_KEPT:
            answers.popitem(last=False)

        async def run() -> None:
            try:
                answer = await asyncio.get_running_loop().run_in_executor(
                    self.executor, work, *request)
            except Exception as e:
                if not isinstance(e, ParlourError):  # a bug: logged, and the seat may ask again
                    log.exception("table %s: a %s failed", self.table_id, key[0])
                    e = ParlourError(f"the {key[0]} could not be worked out")
                if answers.get(key) is advice:
                    del answers[key]
                for waiting, asked in advice.waiting:
                    waiting.send(error(shorten(str(e)), asked))
                return
            advice.answer = answer
            for waiting, asked in advice.waiting:
                waiting.send(reply(answer, asked))
            advice.waiting.clear()

        task = asyncio.get_running_loop().create_task(run())
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)
