"""A seat's view of the table as data: what ``Observation.view()`` returns, the parts that
``render()`` writes out and that the terminal and web tables draw.

A :class:`SeatView` is a title and :class:`Panel` s of lines, in the order the text shows them,
with the facts a table draws as cards kept as cards: the hand, the cards marked in it, and the
tricks of the trump games (:class:`TrickView`). Like the observation it comes from, it never
names a card hidden from its seat.

>>> from parlour.cards import parse_card
>>> seat = SeatView("whist — you are P0",
...                 (Panel("table", ("Table: 7H by P3",)), Panel("hand", ("Your hand: 2C 9D",))),
...                 hand=(parse_card("2C"), parse_card("9D")), marked={}, result=None,
...                 caption="7H by P3")
>>> print(seat.text())
whist — you are P0
Table: 7H by P3
Your hand: 2C 9D
>>> [panel.name for panel in seat.table_panels()]
['table']
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Final

from parlour.cards import Card

#: The reason a card in hand is marked when its seat has just drawn it and still holds it.
JUST_DRAWN: Final = "just drawn"
#: The name of the panel that shows the seat's own hand.
HAND: Final = "hand"


@dataclass(frozen=True)
class Panel:
    """A part of the table in words: a stable ``name`` a front end may look for, and the
    lines ``render()`` writes for it.

    The names in use: ``seats``, ``table``, ``trumps``, ``robbing``, ``hand``, ``tricks``,
    ``counts``, ``scores``, ``melds``, ``piles``, ``turn`` and ``result``.

    >>> Panel("piles", ("discard pile: 1 card, top 9D; stock: 30 cards",)).lines[0][:12]
    'discard pile'
    """

    name: str
    lines: tuple[str, ...]


@dataclass(frozen=True)
class TrickView:
    """A trick: its number (trick 1 first), each ``(seat, card)`` in the order played, the
    card winning it so far (or that won it), and the seat that took it (``None`` while it is
    in progress).

    >>> from parlour.cards import parse_card
    >>> trick = TrickView(2, ((1, parse_card("KC")), (2, parse_card("AC"))), parse_card("AC"),
    ...                   None)
    >>> trick.seat_of(trick.best), trick.winner
    (2, None)
    """

    number: int
    plays: tuple[tuple[int, Card], ...]
    best: Card | None
    winner: int | None

    def seat_of(self, card: Card | None) -> int | None:
        """The seat that played ``card`` to this trick, or ``None``."""
        return next((seat for seat, played in self.plays if played == card), None)


@dataclass(frozen=True)
class SeatView:
    """The table from one seat: the title, the panels in the order the text shows them, the
    hand in the variant's card order, the cards in hand marked with why (``{card: reason}``,
    such as :data:`JUST_DRAWN`), the deal's result in one line once it is over (``None``
    before), the trump games' last finished trick and trick in progress, and the climbing
    games' caption over the table play (``None`` elsewhere), and figures each seat has, by
    what they count (``{"chips": (18, 20, 22)}`` in Spoil Five), for a seat panel to show.

    ``marked`` and ``seat_figures`` are kept read-only, so a view is a value like the
    observation it comes from.

    >>> from parlour.cards import parse_card
    >>> drawn = parse_card("4C")
    >>> seat = SeatView("rummy: you are Human", (Panel("hand", ("your hand: [4C] 9H",)),),
    ...                 hand=(drawn, parse_card("9H")), marked={drawn: JUST_DRAWN}, result=None)
    >>> seat.just_drawn(), seat.table_panels(), seat.text()
    (Card('4C'), (), 'rummy: you are Human\\nyour hand: [4C] 9H')
    """

    title: str
    panels: tuple[Panel, ...]
    hand: tuple[Card, ...]
    marked: Mapping[Card, str] = field(hash=False)
    result: str | None
    tricks: tuple[TrickView, ...] = ()
    caption: str | None = None
    seat_figures: Mapping[str, tuple[float, ...]] = field(default_factory=dict, hash=False)

    def __post_init__(self) -> None:
        # Frozen: the read-only copies are put in place the way dataclasses set fields.
        object.__setattr__(self, "marked", MappingProxyType(dict(self.marked)))
        object.__setattr__(self, "seat_figures", MappingProxyType(dict(self.seat_figures)))

    def text(self) -> str:
        """The title line, then every panel's lines in order: ``Observation.render()``."""
        return "\n".join([self.title, *(line for panel in self.panels for line in panel.lines)])

    def table_panels(self) -> tuple[Panel, ...]:
        """The panels other than the hand: what a table that draws the hand as cards shows
        in words."""
        return tuple(panel for panel in self.panels if panel.name != HAND)

    def just_drawn(self) -> Card | None:
        """The card in hand marked :data:`JUST_DRAWN`, if any."""
        return next((card for card, why in self.marked.items() if why == JUST_DRAWN), None)


def panels(*parts: tuple[str, list[str] | tuple[str, ...]]) -> tuple[Panel, ...]:
    """The panels of ``(name, lines)`` pairs, leaving out those without a line (a part of the
    table that has nothing to show at this point of the deal).

    >>> [p.name for p in panels(("seats", ["P0: 3 cards"]), ("robbing", []))]
    ['seats']
    """
    return tuple(Panel(name, tuple(lines)) for name, lines in parts if lines)
