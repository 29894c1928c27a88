"""A player's own statistics, kept on this computer across sessions: per variant and opponents,
the deals played and won, the points, and the matches played and won.

The terminal table and the plain-text player add every deal a person finishes; ``parlour stats``
and the start screen show them. The same file keeps the player's profile key at each server's
web tables (``parlour client --profile``), so that they are the same person there at every
table. They live in one small JSON file: ``$PARLOUR_STATS`` if set,
otherwise ``$XDG_DATA_HOME/parlour/stats.json`` (``~/.local/share/parlour/stats.json``). A file
that cannot be read is never overwritten: the statistics are then left alone, and
``parlour stats`` says why.

>>> import tempfile, pathlib
>>> path = pathlib.Path(tempfile.mkdtemp()) / "stats.json"
>>> stats = PlayerStats(path)
>>> stats.add_deal("big-two", ["greedy", "greedy", "expert"], points=-3.0, won=False)
>>> stats.add_deal("big-two", ["expert", "greedy", "greedy"], points=-0.0, won=True)
>>> [(row.variant, row.opponents, row.deals, row.wins, row.points) for row in stats.rows()]
[('big-two', 'expert, greedy', 2, 1, -3.0)]
>>> stats.lines()
['big-two against expert, greedy: 2 deals, won 50%, 1.50 penalty points a deal']
>>> PlayerStats(path).rows() == stats.rows()
True
"""

from __future__ import annotations

import json
import math
import os
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from parlour.errors import ParlourError, RecordError
from parlour.text import Scores, plural

FORMAT = "parlour-stats/1"


def default_path() -> Path:
    """Where a person's statistics are kept (see the module)."""
    given = os.environ.get("PARLOUR_STATS")
    if given:
        return Path(given)
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "parlour" / "stats.json"


@dataclass
class Row:
    """One variant against one set of opponents (their bot names, each once, sorted)."""

    variant: str
    opponents: str
    deals: int = 0
    wins: int = 0
    points: float = 0.0
    matches: int = 0
    match_wins: int = 0

    def line(self) -> str:
        """The row in words."""
        rate = self.wins / self.deals if self.deals else 0.0
        mean = self.points / self.deals if self.deals else 0.0
        matches = (f"; matches {self.match_wins} won of {self.matches}" if self.matches else "")
        return (f"{self.variant} against {self.opponents}: {plural(self.deals, 'deal')}, "
                f"won {rate:.0%}, {_scores(self.variant).per_deal(mean)}{matches}")


def _scores(variant: str) -> Scores:
    """How ``variant``'s scores read, by its default rules (a row counts the variant's deals
    whatever their options)."""
    from parlour.registry import new_game  # the registry loads every game: only when shown

    try:
        return new_game(variant).scores
    except ParlourError:
        return Scores()


class PlayerStats:
    """The statistics in the file at ``path`` (made when first written)."""

    def __init__(self, path: Path | None = None) -> None:
        self.path = path or default_path()
        self._rows: dict[tuple[str, str], Row] = {}
        #: The player's profile keys at web tables, by server (``parlour client --profile``).
        self._profiles: dict[str, str] = {}
        #: Why the file could not be read (then it is never written); ``None`` if it could.
        self.problem: str | None = None
        try:
            text = self.path.read_text(encoding="utf-8")
        except FileNotFoundError:
            return
        except OSError as e:
            self.problem = f"cannot read {self.path}: {e.strerror or e}"
            return
        try:
            self._load(json.loads(text))
        except (ValueError, TypeError, KeyError) as e:
            self.problem = f"{self.path} is not a statistics file parlour wrote ({e})"
            self._rows.clear()
            self._profiles.clear()

    def _load(self, data: Any) -> None:
        if not isinstance(data, dict) or data.get("format") != FORMAT:
            raise ValueError(f"its format is not {FORMAT}")
        for item in data["rows"]:
            row = Row(**item)
            numbers = (row.deals, row.wins, row.matches, row.match_wins)
            if (not all(isinstance(n, int) and n >= 0 for n in numbers)
                    or not isinstance(row.points, (int, float)) or not math.isfinite(row.points)):
                raise ValueError(f"a row has counts that are not whole numbers: {item!r:.80}")
            self._rows[(row.variant, row.opponents)] = row
        keys = data.get("profiles", {})
        if not isinstance(keys, dict) or not all(isinstance(k, str) and isinstance(v, str)
                                                 for k, v in keys.items()):
            raise ValueError("its profiles are not keys by server")
        self._profiles = dict(keys)

    def rows(self) -> list[Row]:
        """Every row, by variant and then opponents."""
        return [self._rows[k] for k in sorted(self._rows)]

    def profile_key(self, server: str) -> str | None:
        """The key of this player's profile at the web tables of ``server`` (its address, as
        ``parlour client`` is given it), or ``None``."""
        return self._profiles.get(server.rstrip("/"))

    def set_profile_key(self, server: str, key: str) -> None:
        """Keep the key of this player's profile at ``server``, and save."""
        self._profiles[server.rstrip("/")] = key
        self.save()

    def add_deal(self, variant: str, opponents: Iterable[str], points: float, won: bool,
                 match_won: bool | None = None) -> None:
        """Count a finished deal (and, with ``match_won``, the match it ended) and save."""
        row = self._row(variant, opponents)
        row.deals += 1
        row.wins += won
        row.points += points
        if match_won is not None:
            row.matches += 1
            row.match_wins += match_won
        self.save()

    def save(self) -> None:
        """Write the file (atomically: a crash leaves the old one); never over one that could
        not be read. :class:`RecordError` if it cannot be written."""
        if self.problem is not None:
            return
        data: dict[str, Any] = {"format": FORMAT, "rows": [asdict(r) for r in self.rows()]}
        if self._profiles:
            data["profiles"] = dict(sorted(self._profiles.items()))
        part = self.path.with_name(self.path.name + ".part")
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            part.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")
            part.replace(self.path)
        except OSError as e:
            raise RecordError(f"cannot save the statistics to {self.path}: "
                              f"{e.strerror or e}") from None

    def lines(self) -> list[str]:
        """The statistics in words, a line per row (or why there are none)."""
        if self.problem is not None:
            return [f"The statistics cannot be shown: {self.problem}."]
        if not self._rows:
            return ["No deals played yet: your statistics start with your first deal."]
        return [row.line() for row in self.rows()]

    def _row(self, variant: str, opponents: Iterable[str]) -> Row:
        key = (variant, ", ".join(sorted(set(opponents))))
        if key not in self._rows:
            self._rows[key] = Row(*key)
        return self._rows[key]
