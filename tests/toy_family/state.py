"""One deal of High Card in progress: the hands, the trick on the table, the tricks won.

Seat ``leader`` plays a card, the other seat plays one, and the higher card (by index:
rank, then suit C < D < H < S) takes the trick; its player leads the next. When the hands
are empty each seat's return is its tricks minus the other's.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from parlour.cards import FULL_DECK, CardSet
from parlour.errors import IllegalAction
from parlour.game import TERMINAL, Action, State
from toy_family.actions import PLAYS, ToyAction, parse_action

if TYPE_CHECKING:
    from toy_family.game import ToyGame
    from toy_family.observation import ToyObservation


class ToyState(State):
    """A deal from two hands (card masks), with ``leader`` to lead the first trick."""

    game: ToyGame

    def __init__(self, game: ToyGame, hands: tuple[int, int], leader: int) -> None:
        self.game = game
        self.start = (hands, leader)
        self.hands = list(hands)
        self.leader = leader
        self.current_player = leader
        #: The cards of the trick in progress, the leader's first.
        self.trick: list[int] = []
        self.tricks_won = [0, 0]
        #: Every card played so far (the trick in progress too).
        self.played = 0
        self._history: list[tuple[int, ToyAction]] = []
        self._returns = [0.0, 0.0]

    def legal_actions(self) -> list[Action]:
        if self.current_player == TERMINAL:
            return []
        return [PLAYS[c] for c in self.game.card_set(self.hands[self.current_player])]

    def apply(self, action: Action | str) -> None:
        move = action if action.__class__ is ToyAction else self.coerce_action(action)
        seat = self.current_player
        if seat == TERMINAL:
            raise IllegalAction("the deal is over")
        card = int(move)
        if not self.hands[seat] >> card & 1:
            raise IllegalAction(f"you do not hold {move}")
        self.hands[seat] &= ~(1 << card)
        self.played |= 1 << card
        self.trick.append(card)
        self._history.append((seat, PLAYS[card]))
        if len(self.trick) < 2:
            self.current_player = 1 - seat
            return
        led, answer = self.trick
        winner = self.leader if led > answer else 1 - self.leader
        self.tricks_won[winner] += 1
        self.trick = []
        self.leader = winner
        if self.hands[0] or self.hands[1]:
            self.current_player = winner
            return
        self.current_player = TERMINAL
        t0, t1 = self.tricks_won
        self._returns = [float(t0 - t1), float(t1 - t0)]

    def parse_action(self, text: str) -> ToyAction:
        return parse_action(text)

    def clone(self) -> ToyState:
        other = object.__new__(ToyState)
        other.__dict__.update(self.__dict__)
        other.hands = list(self.hands)
        other.trick = list(self.trick)
        other.tricks_won = list(self.tricks_won)
        other._history = list(self._history)
        other._returns = list(self._returns)
        return other

    def returns(self) -> list[float]:
        return list(self._returns)

    def observation(self, seat: int) -> ToyObservation:
        return self.game.observe(self, self.check_seat(seat))

    @property
    def history(self) -> list[tuple[int, Action]]:
        return list(self._history)

    def shared_history(self) -> tuple[tuple[int, ToyAction], ...]:
        """The history as every seat sees it (every card is played face up)."""
        return tuple(self._history)

    def setup(self) -> dict[str, Any]:
        hands, leader = self.start
        return {"hands": [str(self.game.card_set(h)) for h in hands], "leader": leader}

    def zones(self) -> dict[str, CardSet]:
        card_set = self.game.card_set
        held = self.hands[0] | self.hands[1]
        return {"P0": card_set(self.hands[0]), "P1": card_set(self.hands[1]),
                "played": card_set(self.played),
                "stock": card_set(FULL_DECK & ~held & ~self.played)}

    def hidden_from(self, seat: int) -> CardSet:
        """The other seat's hand and the cards never dealt."""
        seat = self.check_seat(seat)
        return self.game.card_set(FULL_DECK & ~self.hands[seat] & ~self.played)
