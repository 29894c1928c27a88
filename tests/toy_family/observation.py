"""What one seat sees of a High Card deal: its hand and every card played (all face up).

>>> import random
>>> from toy_family import VARIANT
>>> state = VARIANT.make().new_deal(seed=3)
>>> obs = state.observation(1)
>>> obs.sample_state(random.Random(0)).observation(1) == obs
True
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from parlour.cards import CARDS, Card, CardSet
from parlour.game import Observation
from parlour.text import plural
from parlour.view import HAND, SeatView, TrickView, panels
from toy_family.actions import ToyAction
from toy_family.state import ToyState

if TYPE_CHECKING:
    from toy_family.game import ToyGame


@dataclass(frozen=True)
class ToyObservation(Observation):
    """One seat's view: its hand, the trick in progress, the tricks won, the plays so far."""

    #: The ruleset.
    game: ToyGame
    #: The seat this view belongs to (0 or 1).
    seat: int
    #: The seat to play, or -1 once the deal is over.
    current_player: int
    #: This seat's cards, lowest first.
    hand: CardSet
    #: How many cards each seat holds.
    hand_sizes: tuple[int, ...]
    #: The seat that leads (or led) the trick in progress.
    leader: int
    #: The cards of the trick in progress, the leader's first.
    trick: tuple[Card, ...]
    #: The tricks each seat has taken.
    tricks_won: tuple[int, ...]
    #: Each seat's return (``state.returns()``): zeros until the deal is over.
    returns: tuple[float, ...]
    #: ``(seat, action)`` so far: every card, as every seat saw it played.
    history: tuple[tuple[int, ToyAction], ...]

    def prompt(self) -> str:
        return "play a card: the higher card takes the trick"

    def sample_state(self, rng: random.Random) -> ToyState:
        """A deal consistent with this view: the other seat's cards dealt at random from those
        this seat has not seen, then every play so far made again."""
        other = 1 - self.seat
        played: list[list[Card]] = [[], []]
        for seat, action in self.history:
            played[seat].append(action.card)
        seen = int(self.hand) | sum(1 << c for cards in played for c in cards)
        unseen = [c for c in CARDS if not seen >> c & 1]
        rng.shuffle(unseen)
        hands: list[list[Card]] = [[], []]
        hands[self.seat] = [*self.hand, *played[self.seat]]
        hands[other] = [*unseen[:self.hand_sizes[other]], *played[other]]
        first = self.history[0][0] if self.history else self.leader
        state = self.game.new_deal(hands=hands, leader=first)
        for _seat, action in self.history:
            state.apply(action)
        return state

    # -- text -----------------------------------------------------------------------------------
    def tricks(self) -> list[TrickView]:
        """Every trick so far, finished or in progress, from the history."""
        out = []
        history = self.history
        for start in range(0, len(history), 2):
            plays = tuple((seat, action.card) for seat, action in history[start:start + 2])
            best = max((card for _, card in plays), key=int)
            winner = next(s for s, c in plays if c == best) if len(plays) == 2 else None
            out.append(TrickView(start // 2 + 1, plays, best, winner))
        return out

    def _trick_line(self, trick: TrickView) -> str:
        name = self.game.seat_name
        plays = ", ".join(f"{name(seat)} {card}" for seat, card in trick.plays)
        if trick.winner is None:
            return f"trick {trick.number}: {plays}"
        return f"trick {trick.number}: {plays} · won by {name(trick.winner)} with {trick.best}"

    def result_text(self) -> str:
        """The deal's result in one line, once it is over."""
        name = self.game.seat_name
        t0, t1 = self.tricks_won
        winner = ("a draw" if t0 == t1 else f"{name(0 if t0 > t1 else 1)} wins")
        return (f"the deal is over: {name(0)} took {plural(t0, 'trick')}, "
                f"{name(1)} {plural(t1, 'trick')}; {winner}")

    def view(self) -> SeatView:
        """The title, the last finished trick and the trick in progress, the hand, the counts,
        the result once over, and whose turn it is."""
        name = self.game.seat_name
        tricks = self.tricks()
        shown = tricks[-2:] if tricks and tricks[-1].winner is None else tricks[-1:]
        turn = []
        if not self.is_over:
            you = " (you)" if self.current_player == self.seat else ""
            turn.append(f"{name(self.current_player)}{you} to play")
        result = self.result_text() if self.is_over else None
        return SeatView(
            f"{self.game.name} · you are {name(self.seat)}",
            panels(("table", [self._trick_line(t) for t in shown]),
                   (HAND, [f"your hand: {self.hand or '(empty)'}"]),
                   ("counts", [f"cards in hand: {name(0)} {self.hand_sizes[0]} · "
                               f"{name(1)} {self.hand_sizes[1]}",
                               f"tricks won: {name(0)} {self.tricks_won[0]} · "
                               f"{name(1)} {self.tricks_won[1]}"]),
                   ("result", [result] if result else []),
                   ("turn", turn)),
            hand=tuple(self.hand), marked={}, result=result, tricks=tuple(tricks))

    def log_lines(self, start: int = 0) -> list[str]:
        """A line per card played, one per trick taken, and the result at the end."""
        name = self.game.seat_name
        lines: list[str] = []
        tricks = self.tricks()
        for i, (seat, action) in enumerate(self.history):
            if i < start:
                continue
            lines.append(f"{name(seat)}: {action}")
            trick = tricks[i // 2]
            if i % 2 == 1 and trick.winner is not None:
                lines.append(f"{name(trick.winner)} takes trick {trick.number} with {trick.best}")
        if self.is_over and start < len(self.history):
            lines.append(self.result_text())
        return lines
