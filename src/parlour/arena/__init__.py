"""The arena: a trustworthy way to compare bots.

Bots play each other on the same deals, in parallel processes, deterministically for a seed;
results are averaged per deal (the unit of independence) before confidence intervals are taken,
and every run extends a SQLite results file with openskill ratings across runs.

>>> import parlour
>>> from parlour.arena import bot_stats, run_arena
>>> result = run_arena(parlour.new_game("forty-five"), ["greedy", "random"], 8, seed=2,
...                    duplicate=True)
>>> len(result.plays)                   # every deal in each of the 14 seatings
112
>>> [s.label for s in bot_stats(result)]
['greedy', 'random']

The results file and its ratings are in :mod:`parlour.arena.results` (imported on its own: it
brings in SQLAlchemy and openskill), the rating plot in :mod:`parlour.arena.plot`, the Ray
backend (``run_arena(…, backend="ray")``) in :mod:`parlour.arena.ray_backend`, the journal that
lets a long run be interrupted and extended (``run_arena(…, journal=path)``) in
:mod:`parlour.arena.journal`, and ``parlour arena`` in :mod:`parlour.arena.cli`.
"""

from parlour.arena.core import ArenaResult, run_arena
from parlour.arena.deals import Entry, Play, all_seatings
from parlour.arena.stats import (
    BotStats,
    HeadToHead,
    Split,
    bot_stats,
    head_to_head,
    mean_ci,
    paired_runs,
    split_differences,
)

__all__ = [
    "ArenaResult", "BotStats", "Entry", "HeadToHead", "Play", "Split", "all_seatings",
    "bot_stats", "head_to_head", "mean_ci", "paired_runs", "run_arena", "split_differences",
]
