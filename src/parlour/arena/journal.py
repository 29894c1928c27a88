"""The journal of an arena run: every finished deal kept as it ends, so that a long run survives
an interruption and grows by pieces.

A run's deals depend only on its seed and their index (:mod:`parlour.arena.deals`), so a deal
played once need never be played again. With a journal (``run_arena(…, journal=PATH)``,
``parlour arena … --journal PATH``) each task's plays are appended to the file as the task
ends; started again with the same file, the run plays only the deals the file lacks, and its
result is the one an uninterrupted run would have given, play for play. Asking for more deals
than the journal holds extends a run; asking for fewer uses the first ones.

The file is JSON lines: a header naming the run (the variant with its options, the bots and
their labels, the seed, duplicate mode), then one line per finished task with its plays. A line
cut short by an interruption is dropped when the journal is opened again; any other damage, or
a header of another run, is refused rather than mixed in. Before deals are added, the journal's
first deal is played again and must end as the file says (:meth:`Journal.check`): a change to
the rules or the bots since the file was written is refused rather than mixed in as well.

>>> import parlour, tempfile, pathlib
>>> from parlour.arena import run_arena
>>> game = parlour.new_game("big-two-4card")
>>> path = pathlib.Path(tempfile.mkdtemp()) / "run.jsonl"
>>> first = run_arena(game, ["greedy", "random"], 3, seed=1, journal=path)
>>> again = run_arena(game, ["greedy", "random"], 5, seed=1, journal=path)  # plays deals 3 and 4
>>> again.plays[:3] == first.plays, len(again.plays)
(True, 5)
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from parlour.arena.deals import Entry, Play, deal_seatings
from parlour.errors import ParlourError
from parlour.game import Game

#: The first line's ``journal`` value: what the file is, and its format's version.
KIND = "parlour arena journal 1"


class Journal:
    """An open journal: the plays it already holds (:attr:`plays`, by deal) and where to append
    the next ones (:meth:`add`)."""

    def __init__(self, path: Path, plays: dict[int, list[Play]]) -> None:
        self.path = path
        #: The plays read from the file, each deal's in seating order.
        self.plays = plays

    @classmethod
    def open(cls, path: str | Path, game: Game, entries: Sequence[Entry], seed: int,
             duplicate: bool) -> Journal:
        """The journal at ``path`` of the run these arguments describe, created if there is no
        file; :class:`ParlourError` if the file is another run's or damaged."""
        path = Path(path)
        header = _header(game, entries, seed, duplicate)
        try:
            text = path.read_text(encoding="utf-8") if path.exists() else ""
        except (OSError, UnicodeDecodeError) as e:
            raise ParlourError(f"cannot read the journal {path}: {e}") from None
        lines = text.split("\n")
        # A last line without its newline was cut short: its deals are played again.
        complete = [line for line in lines[:-1] if line]
        if not complete:
            _write(path, json.dumps(header) + "\n", "w")
            return cls(path, {})
        if lines[-1]:
            _write(path, "\n".join(complete) + "\n", "w")
        first, *rest = complete
        found = _parse(path, 1, first)
        if found.get("journal") != KIND:
            raise ParlourError(f"{path} is not an arena journal; name another file")
        differ = [key for key in header if found.get(key) != header[key]]
        if differ:
            raise ParlourError(f"{path} is the journal of another run (its {', '.join(differ)} "
                               "differ); name another file, or run it as it was")
        plays: dict[int, list[Play]] = {}
        for number, line in enumerate(rest, start=2):
            for play in _plays(path, number, _parse(path, number, line), len(entries),
                               game.players):
                plays.setdefault(play.deal, []).append(play)
        for deal, got in plays.items():
            seatings = deal_seatings(len(entries), game.players, duplicate, deal)
            if len(got) != len(seatings):
                raise ParlourError(f"{path} holds {len(got)} plays of deal {deal}, not "
                                   f"{len(seatings)}: it is damaged")
            if [p.seating for p in got] != seatings:
                raise ParlourError(f"{path} holds deal {deal} in seatings other than this run's: "
                                   "it is damaged")
        return cls(path, plays)

    def add(self, plays: Iterable[Play]) -> None:
        """Append the plays of a finished task (whole deals) as one line, flushed to disk."""
        line = json.dumps({"plays": [[p.deal, p.seating, p.returns, p.winners] for p in plays]})
        _write(self.path, line + "\n", "a")

    def check(self, replayed: Sequence[Play], labels: Sequence[str]) -> None:
        """Compare the journal's plays of a deal with ``replayed``, the same deal played again
        now (``labels``: the entries' labels, for the message); :class:`ParlourError` if they
        differ. Nothing in the header says which code wrote the file, so this is how a run
        carried on after a change to the rules or the bots is caught before the two are mixed.
        """
        # Both in seating order: :meth:`open` checked the file's.
        for then, now in zip(self.plays[replayed[0].deal], replayed, strict=True):
            if then != now:
                seats = ", ".join(labels[e] for e in now.seating)
                raise ParlourError(
                    f"{self.path} was written by a parlour that plays otherwise: deal {now.deal} "
                    f"seated {seats} ended {_outcome(then)} then and {_outcome(now)} now. Go on "
                    "with the version that wrote it, or name another file")


def _outcome(play: Play) -> str:
    winners = ", ".join(str(w) for w in play.winners)
    return f"with returns {list(play.returns)} (seats {winners} winning)"


def _header(game: Game, entries: Sequence[Entry], seed: int, duplicate: bool) -> dict[str, Any]:
    header = {"journal": KIND, "game": game.describe(),
              "bots": [[e.label, e.bot] for e in entries], "seed": seed, "duplicate": duplicate}
    # As it reads back (tuples as lists), so that a header compares equal to its own file's.
    loaded: dict[str, Any] = json.loads(json.dumps(header))
    return loaded


def _write(path: Path, text: str, mode: str) -> None:
    try:
        with path.open(mode, encoding="utf-8") as f:
            f.write(text)
            f.flush()
            os.fsync(f.fileno())
    except OSError as e:
        raise ParlourError(f"cannot write the journal {path}: {e.strerror or e}") from None


def _parse(path: Path, number: int, line: str) -> dict[str, Any]:
    try:
        value = json.loads(line)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        raise ParlourError(f"line {number} of the journal {path} is not a journal line: it is "
                           "damaged")
    return value


def _plays(path: Path, number: int, line: dict[str, Any], entries: int,
           players: int) -> list[Play]:
    """The plays of one task's line, each checked for its shape."""
    items = line.get("plays")
    damaged = ParlourError(f"line {number} of the journal {path} holds a play that is not one "
                           "of this run: it is damaged")
    if not isinstance(items, list) or not items:
        raise damaged
    out = []
    for item in items:
        try:
            deal, seating, returns, winners = item  # type: ignore[misc]
            play = Play(int(deal), tuple(int(e) for e in seating),
                        tuple(float(r) for r in returns), tuple(int(w) for w in winners))
        except (TypeError, ValueError):
            play = None
        if (play is None or play.deal < 0 or len(play.seating) != players
                or len(play.returns) != players
                or not all(0 <= e < entries for e in play.seating)
                or not all(0 <= w < players for w in play.winners)):
            raise damaged
        out.append(play)
    return out


def journal_seed(path: str | Path) -> int | None:
    """The seed in the header of the journal at ``path``, or ``None`` where there is no such
    journal (so a run resumed without ``--seed`` takes the journal's)."""
    try:
        with Path(path).open(encoding="utf-8") as f:
            header = json.loads(f.readline())
    except (OSError, ValueError):
        return None
    seed = header.get("seed") if isinstance(header, dict) else None
    return seed if isinstance(seed, int) else None
