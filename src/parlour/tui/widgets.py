"""The table's own widgets: cards drawn with suit colours, and the hand the player picks from."""

from __future__ import annotations

import re

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from parlour.cards import RANK_TEXT, SUIT_SYMBOLS, Card

#: Hearts and diamonds are red, clubs and spades are drawn in the foreground colour.
RED_SUITS = (1, 2)
#: Columns each card takes in the hand (``" 10♥ "``), so a click's column says which card.
CARD_WIDTH = 5
_CARD_TOKEN = re.compile(r"(?<![\w])(10|[2-9JQKA])([CDHS])(?![\w])")


def card_face(card: Card) -> str:
    """``10♥``: the rank and the suit's symbol."""
    return RANK_TEXT[card.rank] + SUIT_SYMBOLS[card.suit]


def suit_style(suit: int) -> str:
    return "bold red" if suit in RED_SUITS else "bold"


def cards_markup(text: str) -> Text:
    """``text`` with every card (``10H``, ``QS``) drawn as its face in its suit's colour.

    >>> cards_markup("trick 1: P0 10H, P1 QS").plain
    'trick 1: P0 10♥, P1 Q♠'
    """
    out = Text()
    last = 0
    for m in _CARD_TOKEN.finditer(text):
        out.append(text[last:m.start()])
        suit = "CDHS".index(m.group(2))
        out.append(m.group(1) + SUIT_SYMBOLS[suit], style=suit_style(suit))
        last = m.end()
    out.append(text[last:])
    return out


class Hand(Widget, can_focus=True):
    """The player's cards in the variant's order: ←/→ move, space selects, a click selects.

    Selected cards are raised (highlighted); the card just drawn is marked ``new``.
    """

    cursor: reactive[int] = reactive(0)

    class Changed(Message):
        """The selection changed."""

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.cards: list[Card] = []
        self.selected: set[Card] = set()
        self.new_card: Card | None = None

    def show(self, cards: list[Card], new_card: Card | None) -> None:
        """Show ``cards``, keeping the selection of the cards still held."""
        self.cards = cards
        self.selected &= set(cards)
        self.new_card = new_card
        self.cursor = min(self.cursor, max(len(cards) - 1, 0))
        self.refresh()

    def select_only(self, cards: set[Card]) -> None:
        self.selected = cards & set(self.cards)
        self.refresh()
        self.post_message(self.Changed())

    def toggle(self, index: int) -> None:
        if 0 <= index < len(self.cards):
            card = self.cards[index]
            self.selected ^= {card}
            self.cursor = index
            self.refresh()
            self.post_message(self.Changed())

    def render(self) -> Text:
        if not self.cards:
            return Text("(no cards)", style="dim")
        faces = Text()
        marks = Text()
        for i, card in enumerate(self.cards):
            style = suit_style(card.suit) + (" on yellow" if card in self.selected else "")
            faces.append(f" {card_face(card):<3} ", style=style)
            mark = "new" if card == self.new_card else ""
            cursor = i == self.cursor and self.has_focus
            marks.append(f"{'▲' if cursor else ' '}{mark:^3}{'▲' if cursor else ' '}",
                         style="bold cyan" if cursor else "dim")
        return Text("\n").join([faces, marks])

    def on_key(self, event: events.Key) -> None:
        moves = {"left": -1, "right": 1, "home": -len(self.cards), "end": len(self.cards)}
        if event.key in moves and self.cards:
            self.cursor = max(0, min(len(self.cards) - 1, self.cursor + moves[event.key]))
            event.stop()
        elif event.key == "space":
            self.toggle(self.cursor)
            event.stop()

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None:
            self.toggle(offset.x // CARD_WIDTH)

    def watch_cursor(self) -> None:
        self.refresh()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
