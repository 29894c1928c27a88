"""What the table shows of one seat's observation, in panels.

Every family's ``view()`` already tells the table from a seat, with what that family needs (the
play to beat and who made it; trumps, robbing, each trick's plays and winner, sides and scores;
melds with who put down each card, the piles and the drawn card), and never a hidden card. The
table shows its title, the cards in hand (drawn as cards) and the other panels' lines, so no
family needs a layout of its own.
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
    """``obs.view()`` for the table's panels: the panels but the hand, as coloured text.

    >>> import parlour
    >>> v = view(parlour.new_game("big-two").new_deal(seed=1).observation(0))
    >>> v.title, len(v.hand), "Your hand" in v.table.plain
    ('big-two — you are P0', 13, False)
    """
    seat = obs.view()
    lines = [line for panel in seat.table_panels() for line in panel.lines]
    return View(seat.title, cards_markup("\n".join(lines)), list(seat.hand), seat.just_drawn())
