"""Text helpers shared by the command line and the tables."""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass


def clip(text: str, word: int = 40, line: int = 300) -> str:
    """``text`` if it is at most ``line`` characters; otherwise with every run of more than
    ``word`` non-blank characters cut to ``word`` + "…", and the whole to ``line``. Messages
    that echo what someone typed stay readable, and an ordinary message (naming a long path,
    say) is left whole.

    >>> clip("'" + "x" * 400 + "' is not a card") == "'" + "x" * 39 + "… is not a card"
    True
    """
    if len(text) <= line:
        return text
    text = re.sub(rf"\S{{{word + 1},}}", lambda m: m.group()[:word] + "…", text)
    return text if len(text) <= line else text[:line] + "…"


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first letter and a closing full stop."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def plural(count: int, word: str) -> str:
    """``1 deal``, ``2 deals``.

    >>> plural(1, "deal"), plural(0, "card")
    ('1 deal', '0 cards')
    """
    return f"{count} {word}{'' if count == 1 else 's'}"


def signed(value: float) -> str:
    """A score with its sign, never ``-0``: ``+1.5``, ``-2``, ``0``.

    >>> signed(1.5), signed(-2.0), signed(-0.0001)
    ('+1.5', '-2', '0')
    """
    text = f"{value:+.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("+0", "-0") else text


def number(value: float) -> str:
    """A score as it stands, never ``-0``: ``7``, ``-2.5``, ``0``.

    >>> number(7.0), number(-0.0), number(-2.5)
    ('7', '0', '-2.5')
    """
    text = f"{value:g}"
    return "0" if text == "-0" else text


@dataclass(frozen=True)
class Scores:
    """How a game's scores read, the same in every front end: ``parlour replay``, the plain and
    the terminal tables, the web page, the arena, ``parlour simulate`` and ``parlour stats``,
    and the hints' figures. ``Game.scores`` gives each game's.

    Where a deal scores penalty points (``penalty``: Big Two, each card left costs points and
    the fewest win), they are shown as the rules count them, up from 0 and never signed: a
    deal's penalty ``7``, a match's ``23``, under headings that say "penalty". The numbers the
    engine keeps (``State.returns()``, the match totals) are their negatives, higher being
    better for every game; no player reads those. Any other game shows a deal's score signed
    (``+5``, ``-2``, ``0``) and a match total as it stands (``12``), counted in ``unit``
    (points, or Spoil Five's chips).

    >>> big_two, rummy = Scores(penalty=True), Scores()
    >>> big_two.deal(-7.0), big_two.total(-23.0), rummy.deal(5.0), rummy.total(12.0)
    ('7', '23', '+5', '12')
    >>> big_two.line("Result", ["P0", "P1"], [-7.0, 0.0])
    'Result, penalties: P0 7, P1 0'
    >>> Scores(unit="chips").line("Match totals", ["P0", "P1"], [19.0, 23.0], total=True)
    'Match totals, chips: P0 19, P1 23'
    """

    penalty: bool = False
    #: What a score counts where it is not penalties: "points", or "chips".
    unit: str = "points"

    @property
    def counts(self) -> str:
        """What the numbers count: "penalties", "points" or "chips"."""
        return "penalties" if self.penalty else self.unit

    @property
    def headings(self) -> tuple[str, str]:
        """The headings of a deal's scores and of the match's, side by side."""
        if self.penalty:
            return "deal penalty", "match penalties"
        return "this deal", "match total" if self.unit == "points" else self.unit

    @property
    def standing(self) -> str:
        """The short heading of the match's scores by seat (a table's seat panel)."""
        return "match" if not self.penalty and self.unit == "points" else self.counts

    def deal(self, value: float) -> str:
        """A seat's score for one deal (its return)."""
        return number(-value) if self.penalty else signed(value)

    def total(self, value: float) -> str:
        """A seat's match total."""
        return number(-value) if self.penalty else number(value)

    def mean(self, value: float, places: int = 2) -> str:
        """A mean score for one deal, to ``places`` places: ``5.20`` penalty points, ``+1.26``
        points."""
        return _fixed(-value, places, sign=False) if self.penalty else _fixed(value, places)

    @property
    def difference_heading(self) -> str:
        """The heading of a difference between two mean scores, the first's less the
        second's: in a penalty game, the penalty points the first pays fewer, so that, as in
        every game, more is better for the first."""
        return "penalties saved" if self.penalty else "difference"

    def difference(self, value: float, places: int = 3) -> str:
        """A difference between two mean scores (of the engine's, the first's less the
        second's: the same figure as the penalties the first saves), signed."""
        return _fixed(value, places)

    @property
    def mean_heading(self) -> str:
        """The heading of a column of mean scores a deal."""
        return "mean penalty" if self.penalty else "mean score"

    def interval(self, mean: float, half: float, places: int = 3, *,
                 difference: bool = False) -> str:
        """The interval ``mean`` ± ``half`` of a mean score (or of a ``difference``), lower
        end first as it reads.

        >>> Scores(penalty=True).interval(-5.0, 0.5), Scores().interval(5.0, 0.5, 1)
        ('[4.500, 5.500]', '[+4.5, +5.5]')
        >>> Scores(penalty=True).interval(1.5, 0.5, 1, difference=True)
        '[+1.0, +2.0]'
        """
        show = self.difference if difference else self.mean
        ends = sorted((mean - half, mean + half), reverse=self.penalty and not difference)
        return f"[{show(ends[0], places)}, {show(ends[1], places)}]"

    def amount(self, value: float, places: int = 2) -> str:
        """A mean score with what it counts: ``5.20 penalty points``, ``+1.26 points``."""
        unit = "penalty points" if self.penalty else self.unit
        return f"{self.mean(value, places)} {unit}"

    def per_deal(self, value: float, places: int = 2) -> str:
        """A mean score a deal in words: ``5.20 penalty points a deal``."""
        return f"{self.amount(value, places)} a deal"

    def line(self, head: str, names: Sequence[str], values: Sequence[float], *,
             total: bool = False) -> str:
        """``head`` and each seat's score (``total``: match totals), in one line."""
        show = self.total if total else self.deal
        return f"{head}, {self.counts}: " + ", ".join(
            f"{name} {show(value)}" for name, value in zip(names, values, strict=True))


def _fixed(value: float, places: int, sign: bool = True) -> str:
    """``value`` to ``places`` places, signed if ``sign``, never ``-0.00``."""
    text = f"{value:+.{places}f}" if sign else f"{value:.{places}f}"
    if float(text) == 0:
        text = text.replace("-", "+" if sign else "")
    return text
