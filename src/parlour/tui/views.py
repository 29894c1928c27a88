"""What the table shows of one seat's observation, in panels, and how it names seats and scores.

Every family's ``view()`` already tells the table from a seat, with what that family needs (the
play to beat and who made it; trumps, robbing, each trick's plays and winner, sides and scores;
melds with who put down each card, the piles and the drawn card), and never a hidden card. The
table shows its title, the cards in hand (drawn as cards) and the other panels' lines, so no
family needs a layout of its own.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from rich.table import Table
from rich.text import Text

from parlour.cards import Card
from parlour.game import Game, Observation
from parlour.text import number
from parlour.tui.widgets import cards_markup


class SeatNames:
    """What the table calls each seat: ``P0``, ``P1`` …, in its own lines and in the game's text.

    Most games name their seats so already. Rummy's own names ("Human", "Computer 1") say who sits
    where as if the person always took seat 0; with the person at another seat they would call
    a bot "Human", so the table uses the seat numbers there too and rewrites the game's text.

    >>> import parlour
    >>> names = SeatNames(parlour.new_game("rummy", players=3))
    >>> names(1), names.text("Human discards 9D; Computer 1 melds")
    ('P1', 'P0 discards 9D; P1 melds')
    """

    def __init__(self, game: Game) -> None:
        self.names = [f"P{seat}" for seat in range(game.players)]
        labels = [game.seat_name(seat) for seat in range(game.players)]
        renamed = {label: name for label, name in zip(labels, self.names, strict=True)
                   if label != name}
        self._renamed = renamed
        # Longest first, so that "Computer 10" is never read as "Computer 1" and a "0".
        alternatives = "|".join(map(re.escape, sorted(renamed, key=len, reverse=True)))
        self._pattern = re.compile(rf"\b(?:{alternatives})\b") if renamed else None

    def __call__(self, seat: int) -> str:
        return self.names[seat]

    def text(self, text: str) -> str:
        """``text`` from the game with each seat called as the table calls it."""
        if self._pattern is None:
            return text
        return self._pattern.sub(lambda m: self._renamed[m.group()], text)


@dataclass(frozen=True)
class Standing:
    """The seats' standing in the match as the table shows it: a word for it and each seat's
    figure (``"chips"``, ``("18", "18", …)``)."""

    label: str
    figures: tuple[str, ...]


def standing(game: Game, totals: Sequence[float],
             figures: Mapping[str, Sequence[float]]) -> Standing:
    """The seats' standing: the figure per seat the seat's view counts, if it counts one
    (``SeatView.seat_figures``: Spoil Five's chips, with this deal's ante already in the pool,
    as its table says); otherwise the match totals as every table shows them (``Game.scores``:
    penalty points counted up from 0 where the game counts those).

    >>> import parlour
    >>> standing(parlour.new_game("big-two"), [-7.0, -0.0], {})
    Standing(label='penalties', figures=('7', '0'))
    >>> standing(parlour.new_game("spoil-five", players=2), [20.0, 20.0], {"chips": (19, 19)})
    Standing(label='chips', figures=('19', '19'))
    """
    if figures:
        label, values = next(iter(figures.items()))
        return Standing(label, tuple(number(value) for value in values))
    scores = game.scores
    return Standing(scores.standing, tuple(scores.total(total) for total in totals))


def grid(headers: Sequence[str], rows: Sequence[Sequence[str | Text]], *,
         right: int = 0) -> Table:
    """A borderless table of ``rows`` under ``headers`` (the last ``right`` columns numbers,
    aligned right): the seat panel and a deal's scores."""
    table = Table(box=None, pad_edge=False, padding=(0, 1, 0, 0), header_style="bold",
                  show_edge=False)
    for i, header in enumerate(headers):
        table.add_column(header, no_wrap=True,
                         justify="right" if i >= len(headers) - right else "left")
    for row in rows:
        table.add_row(*row)
    return table


#: The panels the table shows first, whatever their place in the game's text: what a player
#: looks at every turn, that a panel growing all deal long would push out of a small window's
#: sight (Rummy's piles, with the top discard, before its melds).
FIRST = ("piles",)


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
    #: What the view counts per seat (:func:`standing`).
    figures: Mapping[str, Sequence[float]] = field(default_factory=dict)


def view(obs: Observation, names: SeatNames | None = None) -> View:
    """``obs.view()`` for the table's panels: the panels but the hand (those of :data:`FIRST`
    first), as coloured text, with the seats called by ``names``.

    >>> import parlour
    >>> v = view(parlour.new_game("big-two").new_deal(seed=1).observation(0))
    >>> v.title, len(v.hand), "Your hand" in v.table.plain
    ('big-two — you are P0', 13, False)
    >>> state = parlour.new_game("rummy").new_deal(hands=["9H 2C AC", "2S 3D 4S"], stock="4C ...",
    ...                                             discard="9D", melds=["JS QS KS"])
    >>> view(state.observation(0)).table.plain.splitlines()[:2]
    ['discard pile: 1 card, top 9♦; stock: 42 cards', '  meld 1: J♠ Q♠ K♠']
    """
    seat = obs.view()
    rename = names.text if names is not None else str
    shown = sorted(seat.table_panels(), key=lambda panel: panel.name not in FIRST)
    lines = [line for panel in shown for line in panel.lines]
    return View(rename(seat.title), cards_markup(rename("\n".join(lines))), list(seat.hand),
                seat.just_drawn(), seat.seat_figures)
