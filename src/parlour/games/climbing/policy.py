"""Hand-shape helpers of the climbing games' rule-based player, for Python callers.

The ``greedy`` policy itself is compiled (``rust/src/climbing/policy.rs``, reached through
``game.greedy_action``); the learned policy's features (:mod:`parlour.bots.learned.features`)
describe a play with the same measures it uses, computed here.
"""

from __future__ import annotations

from parlour.games.climbing.combos import MASK


def rank_counts(mask: int) -> list[int]:
    """How many cards of each rank (low to high) a key-order mask holds.

    >>> rank_counts(0b0011_0001)[:3]
    [1, 2, 0]
    """
    return [(mask >> 4 * r & 15).bit_count() for r in range(13)]


def broken_groups(play: int, counts: list[int]) -> int:
    """How many pairs/triples/quads of a hand (``counts``: its :func:`rank_counts`) a play splits
    without using them whole.

    >>> counts = rank_counts(0b0111_0011)  # a pair of 3s, three 4s
    >>> broken_groups(0b0001, counts), broken_groups(0b0011_0011, counts)
    (1, 1)
    """
    m = play & MASK
    n = 0
    while m:  # the play's ranks, highest first
        sh = (m.bit_length() - 1) & ~3
        used = (m >> sh & 15).bit_count()
        held = counts[sh >> 2]
        if used < held and held >= 2:
            n += 1
        m &= ~(15 << sh)
    return n
