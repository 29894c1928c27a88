"""What the table shows of one seat's observation, in panels.

Every family's ``render()`` already tells the table from a seat in words, with what that family
needs (the play to beat and who made it; trumps, robbing, each trick's plays and winner, sides and
scores; melds with who put down each card, the piles and the drawn card), and never a hidden card.
The table splits it into its title, the cards in hand (drawn as cards instead) and the rest, so no
family needs a layout of its own. What differs per family is only which card in hand is marked.
"""

from __future__ import annotations

from dataclasses import dataclass

from rich.text import Text

from parlour.cards import Card
from parlour.game import Observation
from parlour.tui.widgets import cards_markup


@dataclass(frozen=True)
class View:
    """One seat's observation split for the table's panels."""

    #: "big-two — you are P0", "forty-five · you are P0, partners with P2: side A" …
    title: str
    #: Everything else the seat sees of the table, cards coloured.
    table: Text
    #: The hand in the variant's card order.
    hand: list[Card]
    #: The card the seat just drew and still holds (Rummy), marked in the hand.
    new_card: Card | None


def view(obs: Observation) -> View:
    """Split ``obs.render()`` into the table's panels.

    >>> import parlour
    >>> v = view(parlour.new_game("big-two").new_deal(seed=1).observation(0))
    >>> v.title, len(v.hand), "Your hand" in v.table.plain
    ('big-two — you are P0', 13, False)
    """
    lines = obs.render().splitlines()
    rest = [line for line in lines[1:] if not line.lower().startswith("your hand:")]
    return View(lines[0] if lines else obs.game.name, cards_markup("\n".join(rest)),
                list(obs.hand), drawn_card(obs))


def drawn_card(obs: Observation) -> Card | None:
    """The card this seat drew this turn (only Rummy has one), while it is this seat's turn."""
    drawn = getattr(obs, "drawn", None)
    return drawn if isinstance(drawn, Card) and obs.current_player == obs.seat else None
