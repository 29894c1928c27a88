"""The arena's statistics, with the deal as the unit of independence.

Plays of one deal share its cards (and, in duplicate mode, replay them in every seating), so
they are not independent samples. Each bot's seat-returns within a deal are first averaged into
one number per deal; means, confidence intervals and head-to-head differences are then taken
over deals.

>>> mean, half = mean_ci([1.0, 2.0, 3.0])     # standard error 1/sqrt(3)
>>> mean, round(half, 4)
(2.0, 1.1316)
>>> mean_ci([4.0])
(4.0, inf)
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

from parlour.arena.core import ArenaResult
from parlour.arena.deals import Play
from parlour.errors import ParlourError

#: The two-sided 95% quantile of the normal distribution.
Z95 = 1.959963984540054


def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% confidence interval (normal approximation;
    infinite for fewer than two values). Sums are exact (``math.fsum``), so equal values in any
    order give an exactly equal mean."""
    n = len(values)
    mean = math.fsum(values) / n
    if n < 2:
        return mean, math.inf
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, Z95 * math.sqrt(var / n)


@dataclass(frozen=True)
class DealScores:
    """One deal summed up per entry, or group of entries (``None`` for one that did not sit in
    it): the mean of its seat-returns over the deal's plays, and its mean share of the wins (a play's win is
    split between tied winners; partners both count as winners)."""

    deal: int
    score: tuple[float | None, ...]
    wins: tuple[float | None, ...]
    seat_deals: tuple[int, ...]


def deal_scores(plays: Sequence[Play], groups: Sequence[int]) -> list[DealScores]:
    """Per-deal averages of ``plays`` (sorted by deal, as in :class:`ArenaResult`) for each
    group of entries: entry ``e`` counts towards group ``groups[e]`` (``range(entries)`` for
    one group per entry; the ratings pool the entries of one bot)."""
    out = []
    for deal, same_deal in itertools.groupby(plays, key=lambda p: p.deal):
        returns: list[list[float]] = [[] for _ in range(max(groups) + 1)]
        wins: list[list[float]] = [[] for _ in range(max(groups) + 1)]
        for play in same_deal:
            for seat, entry in enumerate(play.seating):
                returns[groups[entry]].append(play.returns[seat])
                share = 1 / len(play.winners) if seat in play.winners else 0.0
                wins[groups[entry]].append(share)
        out.append(DealScores(
            deal,
            tuple(math.fsum(r) / len(r) if r else None for r in returns),
            tuple(math.fsum(w) / len(w) if w else None for w in wins),
            tuple(len(r) for r in returns),
        ))
    return out


@dataclass(frozen=True)
class BotStats:
    """An entry's results: mean score per seat-deal with its 95% CI half-width over ``deals``
    deals, and its share of the wins per seat-deal (``1 / players`` is parity)."""

    label: str
    seat_deals: int
    deals: int
    mean: float
    half: float
    win_rate: float


@dataclass(frozen=True)
class HeadToHead:
    """``first``'s mean score minus ``second``'s, over the ``deals`` deals where both sat."""

    first: str
    second: str
    deals: int
    mean: float
    half: float


def bot_stats(result: ArenaResult) -> list[BotStats]:
    """Each entry's :class:`BotStats`, in the order the bots were named (an entry that sat in
    no deal has none)."""
    per_deal = deal_scores(result.plays, range(len(result.entries)))
    out = []
    for i, entry in enumerate(result.entries):
        scores = [s for d in per_deal if (s := d.score[i]) is not None]
        wins = [w for d in per_deal if (w := d.wins[i]) is not None]
        if not scores:  # more bots than seats, and too few deals for the rotation to reach it
            continue
        mean, half = mean_ci(scores)
        out.append(BotStats(entry.label, sum(d.seat_deals[i] for d in per_deal), len(scores),
                            mean, half, math.fsum(wins) / len(wins)))
    return out


def head_to_head(result: ArenaResult) -> list[HeadToHead]:
    """For each pair of entries (in the order named), the mean per-deal score difference with
    its 95% CI, over the deals where they met. Every rotation seats each pair together unless
    there are more bots than seats."""
    per_deal = deal_scores(result.plays, range(len(result.entries)))
    out = []
    for i, j in itertools.combinations(range(len(result.entries)), 2):
        pair = _difference(result, per_deal, i, j)
        if pair is not None:
            out.append(pair)
    return out


def paired_runs(first: ArenaResult, second: ArenaResult) -> HeadToHead:
    """How much more the first bot led the second by in run ``first`` than in run ``second``,
    deal by deal over the deals both hold: two versions of a bot (one as it was, one as it is,
    say) measured on the same deals against the same opponent, so that the deals' luck cancels
    in each deal's difference. The runs must be of the same game, seed and seatings (their
    journals, read back, say so), each of two bots; the labels are ``first``'s and ``second``'s
    head-to-head pairs. A :class:`~parlour.errors.ParlourError` for runs of other deals.

    >>> import parlour
    >>> from parlour.arena import run_arena
    >>> game = parlour.new_game("big-two-4card")
    >>> a = run_arena(game, ["greedy", "random"], 6, seed=3, duplicate=True)
    >>> b = run_arena(game, ["easy", "random"], 4, seed=3, duplicate=True)
    >>> pair = paired_runs(a, b)
    >>> pair.first, pair.second, pair.deals
    ('greedy − random', 'easy − random', 4)
    >>> paired_runs(a, run_arena(game, ["easy", "random"], 4, seed=4, duplicate=True))
    Traceback (most recent call last):
    ...
    parlour.errors.ParlourError: the runs are of other deals: seed 3 and 4
    """
    if len(first.entries) != 2 or len(second.entries) != 2:
        raise ParlourError("each run must be of two bots")
    for what, one, other in (("game", first.game, second.game), ("seed", first.seed, second.seed),
                             ("duplicate", first.duplicate, second.duplicate)):
        if one != other:
            raise ParlourError(f"the runs are of other deals: {what} {one} and {other}")
    leads = [_leads(deal_scores(run.plays, range(2)), 0, 1) for run in (first, second)]
    diffs = [lead - leads[1][deal] for deal, lead in leads[0].items() if deal in leads[1]]
    if not diffs:
        raise ParlourError("the runs share no deal")
    mean, half = mean_ci(diffs)
    labels = [f"{run.entries[0].label} − {run.entries[1].label}" for run in (first, second)]
    return HeadToHead(labels[0], labels[1], len(diffs), mean, half)


@dataclass(frozen=True)
class Split:
    """The first bot's difference from the second over the plays where it held ``seats`` of
    the table's seats and the second the ``others``."""

    seats: int
    others: int
    difference: HeadToHead


def split_differences(result: ArenaResult) -> list[Split]:
    """For a duplicate run of two bots at a table of three or more seats, the head-to-head
    difference within each split of the seats: 1 against 3, 2 against 2 and 3 against 1 at
    four seats. The pooled :func:`head_to_head` mixes these; a bot that exploits a weaker one
    shows it most where it sits alone among them. Empty for any other run.

    >>> import parlour
    >>> from parlour.arena import run_arena
    >>> result = run_arena(parlour.new_game("big-two-4card"), ["greedy", "random"], 4, seed=1,
    ...                    duplicate=True)
    >>> [(s.seats, s.others, s.difference.deals) for s in split_differences(result)]
    [(1, 3, 4), (2, 2, 4), (3, 1, 4)]
    """
    players = result.game.players
    if not result.duplicate or len(result.entries) != 2 or players < 3:
        return []
    out = []
    for seats in range(1, players):
        plays = [p for p in result.plays if p.seating.count(0) == seats]
        pair = _difference(result, deal_scores(plays, (0, 1)), 0, 1)
        assert pair is not None  # every split is played in every deal of a duplicate run
        out.append(Split(seats, players - seats, pair))
    return out


def _difference(result: ArenaResult, per_deal: Sequence[DealScores], i: int,
                j: int) -> HeadToHead | None:
    """Entry ``i``'s mean per-deal score minus entry ``j``'s over the deals where both sat
    (``None``: none)."""
    diffs = list(_leads(per_deal, i, j).values())
    if not diffs:
        return None
    mean, half = mean_ci(diffs)
    return HeadToHead(result.entries[i].label, result.entries[j].label, len(diffs), mean, half)


def _leads(per_deal: Sequence[DealScores], i: int, j: int) -> dict[int, float]:
    """Entry ``i``'s per-deal score minus entry ``j``'s, by deal, in the deals where both sat."""
    return {d.deal: a - b for d in per_deal
            if (a := d.score[i]) is not None and (b := d.score[j]) is not None}
