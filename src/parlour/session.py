"""One table session: a match, who sits at each seat, the bots' turns, people's moves, hints,
the end of each deal, and the record. Every table is a thin adapter over it: the plain-text
player (:mod:`parlour.cli`), the terminal table (:mod:`parlour.tui`) and the web tables
(:mod:`parlour.web.tables`).

A bot's turn is handed out as a :class:`Turn`: everything the bot may see (its observation and
the legal actions) and the generator the position fixes, so that a table can think in another
thread and come back with the move; the move is applied only if the table has not moved on.

>>> import parlour
>>> match = parlour.new_game("big-two").new_match(seed=5)
>>> session = TableSession(match, [HUMAN, "greedy", "greedy", "greedy"])
>>> state = session.start_deal()
>>> while session.bot_to_move():
...     turn = session.bot_turn()
...     _ = session.apply_turn(turn, turn.think())
>>> session.to_move() in (0, None)
True
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parlour.advice import ADVISER, Hint, adviser, hint, position_rng
from parlour.bots import Bot, make_bot
from parlour.bots.search import SearchBot
from parlour.cards import Card
from parlour.errors import ParlourError, RecordError, SeatError
from parlour.game import Action, Observation, State
from parlour.match import Match
from parlour.moves import pick
from parlour.records import match_record, save
from parlour.stats import PlayerStats

#: What a person's seat is called in a session's ``seats`` and in a record's ``seats`` list;
#: every other entry is a bot's name.
HUMAN = "human"

#: Where a table is: (deal number, actions played in it). A bot's or a hint's answer for an
#: older position is dropped.
Position = tuple[int, int]


@dataclass(frozen=True)
class Turn:
    """A decision to make away from the table: what the seat may see, the generator the
    position fixes, and the position it belongs to."""

    seat: int
    bot: Bot
    observation: Observation
    legal: tuple[Action, ...]
    rng: random.Random
    position: Position

    def think(self) -> Action:
        """The bot's choice."""
        return self.bot.choose(self.observation, list(self.legal), self.rng)

    def explain(self) -> tuple[Action, str]:
        """The bot's choice with its one-line reason."""
        return self.bot.choose_explained(self.observation, list(self.legal), self.rng)

    def advise(self) -> Hint:
        """The judge's hint (a turn from :meth:`TableSession.hint_turn`)."""
        if not isinstance(self.bot, SearchBot):
            raise ParlourError(f"{self.bot.name} does not search: a hint comes from a searching "
                               "level")
        return hint(self.observation, self.legal, self.bot)


@dataclass(frozen=True)
class DealResult:
    """A deal scored into the match: each seat's return and the match totals after it, the
    deal's result in words, the hands the rules lay down at the end (``None``: they stay
    hidden), and whether the match is over and who won it."""

    number: int
    returns: tuple[float, ...]
    totals: tuple[float, ...]
    summary: str
    hands: tuple[tuple[Card, ...], ...] | None
    match_over: bool
    winners: tuple[int, ...]


class TableSession:
    """A match at a table: ``seats`` names :data:`HUMAN` or a bot at each seat.

    ``interactive`` bots answer a person within a time limit (the searching levels) instead
    of a fixed budget. ``save_path``: where :meth:`save` writes the match after every deal.
    ``stats``: the person's statistics (:mod:`parlour.stats`), to which every deal finished
    at a person's seat is added (a table on this computer; never a server's).
    """

    def __init__(self, match: Match, seats: Sequence[str], *, save_path: Path | None = None,
                 interactive: bool = True, stats: PlayerStats | None = None) -> None:
        if len(seats) != match.game.players:
            raise SeatError(f"give {match.game.players} seats, not {len(seats)}")
        self.match = match
        self.game = match.game
        self.seats = list(seats)
        self.interactive = interactive
        self.bots: list[Bot | None] = [None if s == HUMAN else make_bot(s, interactive=interactive)
                                       for s in self.seats]
        self.save_path = save_path
        self.stats = stats
        # The last hint given, and the decision it was for (see given_hint).
        self._hint: tuple[Position, Hint] | None = None

    # -- where the table is ---------------------------------------------------------------------
    @property
    def state(self) -> State | None:
        """The deal on the table: in progress, or the last one once scored (``None`` before
        the first)."""
        if self.match.current is not None:
            return self.match.current
        return self.match.deals[-1] if self.match.deals else None

    @property
    def deal_number(self) -> int:
        return len(self.match.deals) + (self.match.current is not None)

    @property
    def position(self) -> Position:
        state = self.match.current
        return self.deal_number, 0 if state is None else len(state.history)

    def to_move(self) -> int | None:
        """The seat to move in the deal in progress; ``None`` between deals or once it is over."""
        state = self.match.current
        return None if state is None or state.is_over else state.current_player

    def bot_to_move(self) -> bool:
        seat = self.to_move()
        return seat is not None and self.bots[seat] is not None

    def seat_bot(self, seat: int, name: str) -> None:
        """Seat the bot ``name`` at ``seat`` from now on (a person's seat handed to a bot)."""
        bot = make_bot(name, interactive=self.interactive)  # an unknown name is refused first
        self.seats[seat], self.bots[seat] = name, bot

    def humans(self) -> list[int]:
        return [s for s, name in enumerate(self.seats) if name == HUMAN]

    # -- play -----------------------------------------------------------------------------------
    def start_deal(self) -> State:
        """The deal in progress, or the match's next one dealt."""
        return self.match.current or self.match.next_deal()

    def bot_turn(self, bot: Bot | None = None) -> Turn:
        """The turn of the seat to move, for its bot (or ``bot``: a stand-in for a person)."""
        state = self._deal_in_progress()
        seat = state.current_player
        player = bot or self.bots[seat]
        if player is None:
            raise ParlourError(f"{self.game.seat_name(seat)} is a person's seat: give a stand-in "
                               "bot to play for them")
        return Turn(seat, player, state.observation(seat), tuple(state.legal_actions()),
                    self.match.bot_rng(), self.position)

    def hint_turn(self, seat: int, level: str = ADVISER) -> Turn:
        """A hint for ``seat`` (to move), to be judged at ``level`` by :meth:`Turn.advise`
        (:mod:`parlour.advice`): the same position always gets the same hint, the one the
        review of it agrees with, and the bots' draws are untouched."""
        state = self._turn_of(seat, "a hint is for your turn")
        observation = state.observation(seat)
        return Turn(seat, adviser(level), observation, tuple(state.legal_actions()),
                    position_rng(observation), self.position)

    def given_hint(self) -> Hint | None:
        """The hint already given at this decision, if any: a table asked again shows it with
        the figures behind it rather than judge the position again."""
        given = self._hint
        return given[1] if given is not None and given[0] == self.position else None

    def note_hint(self, turn: Turn, advice: Hint) -> bool:
        """Keep ``advice``, the hint of ``turn``; False (nothing kept) if the table moved on
        while it was judged."""
        if turn.position != self.position:
            return False
        self._hint = (turn.position, advice)
        return True

    def apply_turn(self, turn: Turn, action: Action) -> bool:
        """Play a bot's answer to ``turn``; False (nothing changes) if the table moved on."""
        if turn.position != self.position or self.to_move() != turn.seat:
            return False
        self._deal_in_progress().apply(action)
        return True

    def play(self, seat: int, action: Action | str) -> Action:
        """Play ``action`` (an action or its text) for ``seat``; :class:`ParlourError` with the
        rule's reason, and nothing changed, if it is not ``seat``'s turn or not legal."""
        state = self._turn_of(seat)
        state.apply(action)  # refused with the rule's reason, leaving the deal unchanged
        return state.history[-1][1]

    def pick(self, seat: int, verb: str, cards: Iterable[Card]) -> Action:
        """Play the legal action of ``verb`` with ``cards`` selected for ``seat``
        (:func:`parlour.moves.pick`: :class:`~parlour.moves.Choice` when it takes a choice)."""
        state = self._turn_of(seat)
        action = pick(state, verb, cards)
        state.apply(action)
        return action

    def finish_deal(self) -> DealResult:
        """Score the deal just played into the match, save the match, and say how it ended."""
        state = self.match.current
        if state is None or not state.is_over:
            raise ParlourError("the deal is not over yet")
        self.match.finish_deal(state)
        self.save()
        self._count(state)
        return self.result()

    def result(self) -> DealResult:
        """How the last scored deal ended."""
        if not self.match.deals:
            raise ParlourError("no deal has been scored yet")
        state = self.match.deals[-1]
        return DealResult(len(self.match.deals), tuple(state.returns()), tuple(self.match.totals),
                          deal_summary(state), laid_down(state), self.match.is_over,
                          tuple(self.match.winners()))

    # -- the record -----------------------------------------------------------------------------
    def record(self) -> dict[str, Any]:
        """The match's record, with who sat where (``seats``: :data:`HUMAN` or a bot name)."""
        record = match_record(self.match)
        record["seats"] = list(self.seats)
        return record

    def save(self, path: Path | None = None) -> Path | None:
        """Write the record to ``path`` (then kept as the session's file), or to the session's
        file if it has one; the path written."""
        if path is not None:
            self.save_path = path
        if self.save_path is not None:
            save(self.record(), self.save_path)
        return self.save_path

    def _count(self, state: State) -> None:
        """Add the deal to the statistics of each person's seat."""
        if self.stats is None:
            return
        returns, winners = state.returns(), state.winners()
        over = self.match.is_over
        bots = [name for name in self.seats if name != HUMAN]
        for seat in self.humans():
            try:
                self.stats.add_deal(self.game.name, bots or [HUMAN], returns[seat],
                                    seat in winners,
                                    seat in self.match.winners() if over else None)
            except RecordError as e:  # the game goes on; the statistics stop, saying why
                self.stats.problem = str(e)

    def _deal_in_progress(self) -> State:
        state = self.match.current
        if state is None or state.is_over:
            raise ParlourError("no deal is in progress" if state is None else "the deal is over")
        return state

    def _turn_of(self, seat: int, refusal: str = "") -> State:
        """The deal in progress, if it is ``seat``'s turn; otherwise :class:`ParlourError`."""
        state = self._deal_in_progress()
        if state.current_player != seat:
            raise ParlourError(refusal or f"it is {self.game.seat_name(state.current_player)}'s "
                                          "turn, not yours")
        return state


def laid_down(state: State) -> tuple[tuple[Card, ...], ...] | None:
    """The cards each seat still holds at the end of a finished deal, where the rules lay them
    down to be counted (``Game.reveals_hands_at_end``); ``None`` where they stay hidden."""
    if not state.game.reveals_hands_at_end:
        return None
    zones = state.zones()
    return tuple(tuple(zones[f"P{s}"]) for s in range(state.game.players))


def deal_summary(state: State) -> str:
    """A finished deal's result in one line (the result every seat's view of it states)."""
    return state.observation(0).view().result or ""
