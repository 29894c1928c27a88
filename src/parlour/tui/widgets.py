"""The table's own widgets: cards drawn with suit colours, and the hand the player picks from."""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import ClassVar

from rich.text import Text
from textual import events
from textual.binding import Binding, BindingType
from textual.geometry import Size
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from parlour.cards import RANK_TEXT, SUIT_SYMBOLS, Card

#: Hearts and diamonds are red, clubs and spades are drawn in the foreground colour.
RED_SUITS = (1, 2)
#: Columns each card takes in the hand (``"10♥ "``), so a click's column says which card: 13
#: cards fit a 60-column window.
CARD_WIDTH = 4
#: Rows each row of cards takes: the raised (selected) cards, the others, the cursor.
ROWS_PER_CARD = 3
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


def sorted_hand(cards: Sequence[Card], by: str, order: Sequence[int]) -> list[Card]:
    """``cards`` sorted ``by`` ``"suit"`` (each suit together, in rank order) or ``"rank"``
    (each rank together), ranks and suits ranked as in the game's ``order`` (its card indices,
    lowest first).

    >>> import parlour
    >>> order = parlour.new_game("big-two").card_order()  # 3 low, 2 high; suits D C H S
    >>> hand = [Card.parse(c) for c in ("2D", "3S", "3D", "KD")]
    >>> " ".join(map(str, sorted_hand(hand, "suit", order)))
    '3D KD 2D 3S'
    >>> " ".join(map(str, sorted_hand(hand, "rank", order)))
    '3D 3S KD 2D'
    """
    suits: dict[int, int] = {}
    ranks: dict[Card, int] = {}
    seen = [0, 0, 0, 0]
    for index in order:
        card = Card(index)
        suits.setdefault(card.suit, len(suits))
        ranks[card] = seen[card.suit]
        seen[card.suit] += 1
    if by == "suit":
        return sorted(cards, key=lambda c: (suits[c.suit], ranks[c]))
    return sorted(cards, key=lambda c: (ranks[c], suits[c.suit]))


class Hand(Widget, can_focus=True):
    """The player's cards: ←/→ move, space selects, a click selects; sorted on demand.

    A selected card is raised a row above the others (and highlighted), so the selection shows
    without colour; on the player's turn the cards that no legal move uses are dimmed. Under
    each card, the cursor (▲) and the card just drawn (``new``). The cards wrap onto more rows
    when the hand is wider than the window, each row keeping its cursor row.

    Its keys are bindings, not a key handler, so that they take their turn with the table's own
    (``c`` to clear, ``p`` to play): a key handler would act on a key at once, while a binding's
    key is passed up to the app first, so a space typed just after a ``c`` would be taken
    before the ``c`` and then cleared. Every key going the same way, they are done in the
    order typed.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left", "move(-1)", "Left", show=False),
        Binding("right", "move(1)", "Right", show=False),
        Binding("home", "move(-100)", "First", show=False),
        Binding("end", "move(100)", "Last", show=False),
        Binding("space", "select_card", "Select", show=False),
    ]

    cursor: reactive[int] = reactive(0)
    #: How the hand is sorted: ``None`` in the game's order, ``"suit"`` or ``"rank"``.
    sort_by: reactive[str | None] = reactive(None)

    class Changed(Message):
        """The selection changed."""

    def __init__(self, order: Sequence[int] = range(52), *, id: str | None = None) -> None:
        super().__init__(id=id)
        #: The game's card order, that ranks and suits are sorted by.
        self.order = order
        self.dealt: list[Card] = []
        self.cards: list[Card] = []
        self.selected: set[Card] = set()
        self.new_card: Card | None = None
        #: The cards some legal move uses, on the player's turn; ``None``: none are dimmed.
        self.playable: frozenset[Card] | None = None

    def show(self, cards: list[Card], new_card: Card | None,
             playable: frozenset[Card] | None = None) -> None:
        """Show ``cards`` (in the game's order), keeping the selection of the cards still held."""
        self.dealt = list(cards)
        self.selected &= set(cards)
        self.new_card = new_card
        self.playable = playable
        self._arrange()

    def _arrange(self) -> None:
        self.cards = (self.dealt if self.sort_by is None
                      else sorted_hand(self.dealt, self.sort_by, self.order))
        self.cursor = min(self.cursor, max(len(self.cards) - 1, 0))
        self.refresh(layout=True)

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

    def action_move(self, step: int) -> None:
        if self.cards:
            self.cursor = max(0, min(len(self.cards) - 1, self.cursor + step))

    def action_select_card(self) -> None:
        self.toggle(self.cursor)

    def sort(self) -> str:
        """Sort by suit, or by rank if the hand is already in suit order; which it is now."""
        by_suit = sorted_hand(self.cards, "suit", self.order)
        self.sort_by = "rank" if self.cards == by_suit else "suit"
        return self.sort_by

    def watch_sort_by(self) -> None:
        self._arrange()

    def per_row(self, width: int | None = None) -> int:
        """How many cards fit on a row of the widget (all of them before it is laid out)."""
        width = self.content_size.width if width is None else width
        return max(1, width // CARD_WIDTH) if width else max(1, len(self.cards))

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        rows = -(-max(len(self.cards), 1) // self.per_row(width))
        return ROWS_PER_CARD * rows

    def render(self) -> Text:
        if not self.cards:
            return Text("(no cards)", style="dim")
        per_row = self.per_row()
        lines: list[Text] = []
        for start in range(0, len(self.cards), per_row):
            raised, faces, marks = Text(), Text(), Text()
            for i, card in enumerate(self.cards[start:start + per_row], start):
                face = Text(f"{card_face(card):>{CARD_WIDTH - 1}} ", style=self.card_style(card))
                up = card in self.selected
                (raised if up else faces).append_text(face)
                (faces if up else raised).append(" " * CARD_WIDTH)
                marks.append_text(self._mark(i, card))
            lines += [raised, faces, marks]
        return Text("\n").join(lines)

    def card_style(self, card: Card) -> str:
        """A card's style: its suit's colour, dimmed if no legal move uses it, highlighted
        if selected."""
        dim = self.playable is not None and card not in self.playable
        style = "dim" if dim else suit_style(card.suit)
        if dim and card.suit in RED_SUITS:
            style += " red"
        return style + (" on yellow" if card in self.selected else "")

    def _mark(self, index: int, card: Card) -> Text:
        """What is under a card: ``new`` for the card just drawn, ▲ for the cursor."""
        cursor = index == self.cursor and self.has_focus
        if card == self.new_card:
            return Text.assemble(("new", "reverse bold" if cursor else "italic"), " ")
        return Text(" ▲  " if cursor else " " * CARD_WIDTH, style="bold cyan")

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is not None:
            per_row = self.per_row()
            column = offset.x // CARD_WIDTH
            if column < per_row:
                self.toggle(offset.y // ROWS_PER_CARD * per_row + column)

    def watch_cursor(self) -> None:
        self.refresh()

    def on_focus(self) -> None:
        self.refresh()

    def on_blur(self) -> None:
        self.refresh()
