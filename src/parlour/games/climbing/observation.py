"""What one seat sees of a climbing deal (:class:`ClimbingObservation`), states sampled
consistently with it, and the table and log as text."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from parlour._core import ClimbingKnowledge
from parlour.cards import CardSet
from parlour.game import Action, Observation
from parlour.games.climbing.combos import PASS_VALUE, ClimbingAction
from parlour.games.climbing.engine import ClimbingState, Start
from parlour.games.climbing.reasons import reason
from parlour.view import HAND, SeatView, panels

if TYPE_CHECKING:
    from parlour.games.climbing.game import ClimbingGame


@dataclass(frozen=True)
class ClimbingObservation(Observation):
    """What one seat sees: its hand, every play so far, the table, card counts and places.

    Card sets list their cards in the variant's order (lowest first). The ``start_…`` fields,
    ``first_leader`` and ``out`` describe the position the deal started from (a fresh deal, or
    one composed with ``new_deal(hands=…, out=…, table=…)``); everything else is the present.
    """

    game: ClimbingGame  # the ruleset
    seat: int  # the seat that sees this
    current_player: int  # the seat to move; -1 (TERMINAL) once the deal is over
    hand: CardSet  # this seat's cards
    hand_sizes: tuple[int, ...]  # every seat's number of cards (public)
    table: ClimbingAction | None  # the play to beat; None when the player to move leads freely
    table_seat: int  # the seat that made the table play; -1 when the table is empty
    passes: int  # passes since the table play
    opening: bool  # the deal's first play is due, under the opening rule (lowest card)
    history: tuple[tuple[int, ClimbingAction], ...]  # (seat, play or pass) since the start
    played: CardSet  # every card out of the hands: played so far, or out of play from the start
    out: CardSet  # cards out of play from the start (a composed position)
    first_leader: int | None  # who led freely at the start; None: the opening rule or a trick
    start_table: ClimbingAction | None  # the play to beat at the start (a composed trick)
    start_table_seat: int  # who made start_table; -1 without one
    start_passes: int  # passes after start_table at the start
    start_finished: tuple[int, ...]  # seats out before the start, first place first (pusoy-dos)
    finished: tuple[int, ...]  # seats that went out, first place first (then the last one left)
    scores: tuple[float, ...]  # each seat's return; zeros until the deal is over

    def sample_state(self, rng: random.Random) -> ClimbingState:
        """Deal the unseen cards at random to the other seats, then replay the history.

        Whoever is to open holds the lowest card, and when a seat may pass only if it cannot
        beat the table (B8), no seat is dealt a play that would have beaten a table it passed
        on. The deal comes from the compiled sampler (:meth:`_knowledge`), seeded from
        ``rng.getrandbits(64)``, so the same ``rng`` state gives the same state.
        :class:`~parlour.errors.DealError` if no deal shows this observation, or, under B8, if
        none keeping its passes is found within the sampler's bound (about half a second: a
        hand-made observation can ask for one that does not exist)."""
        state = ClimbingState(self.game, self._start(rng.getrandbits(64)))
        for _, action in self.history:
            state.apply(action)
        return state

    def _knowledge(self) -> ClimbingKnowledge:
        """What this seat knows, compiled (``parlour._core.ClimbingKnowledge``): built once per
        observation and kept with it; it deals the worlds of :meth:`sample_state` and of the
        compiled search. :class:`~parlour.errors.DealError` if no deal shows this observation.

        >>> import parlour
        >>> state = parlour.new_game("big-two").new_deal(seed=2)
        >>> obs = state.observation(1)
        >>> obs._knowledge().seat, obs._knowledge() is obs._knowledge()
        (1, True)
        """
        known: ClimbingKnowledge | None = self.__dict__.get("_known")
        if known is None:
            # A frozen dataclass: the cache goes into __dict__ directly (it is no field, so it
            # takes no part in equality or to_dict()).
            known = self.__dict__["_known"] = self.game.table.core.knowledge(self)
        return known

    def _start(self, seed: int) -> Start:
        """A start position consistent with this observation: the cards this seat cannot see
        dealt from ``seed``, each seat also holding the cards it has played since."""
        t = self.game.table
        return Start(tuple(self._knowledge().sample(seed)), self.first_leader, t.key_of(self.out),
                     int(self.start_table or 0), self.start_table_seat, self.start_passes,
                     self.start_finished)

    # -- text ------------------------------------------------------------------------------------
    def prompt(self) -> str:
        """Beat the play on the table or pass; with the table clear, lead.

        >>> import parlour
        >>> state = parlour.new_game("big-two").new_deal(seed=1)
        >>> state.observation(state.current_player).prompt()
        'lead any combination'
        """
        return "beat the play or pass" if self.table is not None else "lead any combination"

    def reason(self, action: Action, legal: Sequence[Action], instead: Action | None = None,
               ) -> str:
        move = self.game.table.action_type
        return reason(self, move(action), [move(a) for a in legal],
                      None if instead is None else move(instead))

    def log_lines(self, start: int = 0) -> list[str]:
        """A line per action from ``start`` on, and what follows from it: who wins control
        ("all pass — P2 leads"), who goes out and in what place, and the deal's result.

        The history is replayed on a state sampled from this observation: what follows from
        an action depends only on public facts (the plays and card counts), and the lines name
        no card but those played.

        >>> import parlour
        >>> s = parlour.new_game("big-two").new_deal(hands=["3D 4D", "5C", "6C", "7C"],
        ...     out=[c for c in parlour.CardSet((1 << 52) - 1).cards()
        ...          if str(c) not in ("3D", "4D", "5C", "6C", "7C")], leader=0)
        >>> for play in ("3D", "pass", "pass", "pass", "4D"):
        ...     s.apply(play)
        >>> print("\\n".join(s.observation(1).log_lines()))
        P0: 3D
        P1: pass
        P2: pass
        P3: pass
        all pass — P0 leads
        P0: 4D
        P0 is out and wins the deal
        deal over — P0 wins the deal; penalties: P0 0, P1 1, P2 1, P3 1
        """
        name = self.game.seat_name
        rules = self.game.rules
        state = ClimbingState(self.game, self._start(0))
        first = len(self.history) - len(self.history[start:])
        lines: list[str] = []
        for i, (seat, action) in enumerate(self.history):
            placed = len(state.placements)
            state.apply(action)
            if i < first:
                continue
            lines.append(f"{name(seat)}: {action}"
                         + (f" ({action.category})" if action.size > 1 else ""))
            gone = state.placements[placed:]
            if action == PASS_VALUE:
                if not state.is_over and _leads(state):
                    lines.append(f"all pass — {name(state.current_player)} leads")
            elif gone:
                if rules.ends_at_first_out:
                    lines.append(f"{name(seat)} is out and wins the deal")
                else:
                    lines.append(f"{name(seat)} is out: {_ordinal(placed + 1)} place")
                    if not state.is_over and _leads(state):
                        lines.append(f"{name(state.current_player)} leads")
            if state.is_over:
                if not rules.ends_at_first_out:
                    last = len(state.placements)
                    lines.append(f"{name(state.placements[-1])} is left with cards: "
                                 f"{_ordinal(last)} place")
                lines.append("deal over — " + result_text(self.game, state.placements,
                                                          state.returns()))
        return lines

    def view(self) -> SeatView:
        """The table from this seat: card counts and places, the table play with who made it
        and the passes since (also the view's caption), who is to move, this seat's hand, and
        the result once over.

        >>> import parlour
        >>> obs = parlour.new_game("big-two").new_deal(seed=1).observation(2)
        >>> seat = obs.view()
        >>> [panel.name for panel in seat.panels], seat.caption, seat.result
        (['seats', 'table', 'hand'], 'empty — P1 leads (the first play must include 3D)', None)
        >>> print(seat.text())
        big-two — you are P2
        P0: 13 cards  P1*: 13 cards  P2: 13 cards  P3: 13 cards
        Table: empty — P1 leads (the first play must include 3D)
        Your hand: 3S 6H 6S 7S 9D 10C 10H JD JC QD QC KD 2C
        """
        game = self.game
        name = game.seat_name
        seats = []
        for i, n in enumerate(self.hand_sizes):
            mark = "*" if i == self.current_player else ""
            if i in self.finished and n == 0:
                place = self.finished.index(i) + 1
                status = ("out, wins the deal" if game.rules.ends_at_first_out
                          else f"out, {_ordinal(place)} place")
            elif i in self.finished:
                status = f"{n} card{'s' * (n != 1)}, {_ordinal(self.finished.index(i) + 1)} place"
            else:
                status = f"{n} card{'s' * (n != 1)}"
            seats.append(f"{name(i)}{mark}: {status}")
        if self.table is None:
            caption = "empty" + ("" if self.is_over else f" — {name(self.current_player)} leads")
            if self.opening:
                caption += f" ({game.rules.opening_text})"
        else:
            plural = "es" if self.passes != 1 else ""
            to_play = "" if self.is_over else f" — {name(self.current_player)} to play"
            caption = (f"{self.table} ({self.table.category}) by {name(self.table_seat)}, "
                       f"{self.passes} pass{plural} since{to_play}")
        result = result_text(game, self.finished, self.scores) if self.is_over else None
        return SeatView(
            f"{game.name} — you are {name(self.seat)}",
            panels(("seats", ["  ".join(seats)]),
                   ("table", [f"Table: {caption}"]),
                   (HAND, [f"Your hand: {self.hand or '(empty)'}"]),
                   ("result", [f"Deal over — {result}"] if result is not None else [])),
            hand=tuple(self.hand), marked={}, result=result, caption=caption)


def result_text(game: ClimbingGame, finished: tuple[int, ...] | list[int],
                scores: tuple[float, ...] | list[float]) -> str:
    """A finished deal's result in words, by the variant's scoring."""
    name = game.seat_name
    scoring = game.rules.scoring
    if scoring == "placement":
        return "places: " + ", ".join(f"{_ordinal(i + 1)} {name(s)}"
                                      for i, s in enumerate(finished))
    head = f"{name(finished[0])} wins the deal"
    if scoring == "penalty":
        return head + "; penalties: " + ", ".join(f"{name(i)} {abs(s):g}"
                                                  for i, s in enumerate(scores))
    return head + ": " + ", ".join(f"{name(i)} {s:+g}" for i, s in enumerate(scores))


def _leads(state: ClimbingState) -> bool:
    """Whether the player to move leads freely (the table is empty)."""
    return state.observation(state.current_player).table is None


def _ordinal(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n, "th")
    return f"{n}{suffix}"
