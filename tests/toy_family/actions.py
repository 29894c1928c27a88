"""The one kind of move of High Card: play a card, written as the card alone (``7H``).

>>> str(PLAYS[0]), PLAYS[51].words(), parse_action(" qs ") is PLAYS[43]
('2C', 'the A♠', True)
"""

from __future__ import annotations

from parlour.cards import CARDS, Card, parse_card
from parlour.errors import CardError, IllegalAction
from parlour.game import Action, action_text


class ToyAction(Action):
    """Playing the card whose index is the action's value; take them from the state."""

    __slots__ = ()

    def __str__(self) -> str:
        return str(CARDS[int(self)])

    def words(self) -> str:
        """The move as a player says it: "the 7♥"."""
        return f"the {CARDS[int(self)].symbol()}"

    @property
    def card(self) -> Card:
        """The card played."""
        return CARDS[int(self)]


#: Every move, one shared object per card, by card index.
PLAYS: tuple[ToyAction, ...] = tuple(ToyAction(i) for i in range(52))


def parse_action(text: object) -> ToyAction:
    """The move ``text`` writes (one card, any case); :class:`IllegalAction` otherwise."""
    words = action_text(text).split()
    if len(words) != 1:
        raise IllegalAction(f"expected one card to play, such as 7H, not {text!r}")
    try:
        return PLAYS[parse_card(words[0])]
    except CardError:
        raise IllegalAction(f"expected one card to play, such as 7H, not {text!r}") from None
