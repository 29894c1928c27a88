"""The rule-based climbing player behind the ``greedy`` bot.

It goes out when it can; otherwise it answers with the cheapest play that does not break up a
pair, triple or five-card hand, keeps its 2s while the others still hold many cards, and leads
the combination that sheds the most low cards.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from parlour.game import Action, Observation
from parlour.games.climbing.combos import MASK, PASS_VALUE, SIZE_SHIFT, STRENGTH_SHIFT

if TYPE_CHECKING:
    from parlour.games.climbing.game import ClimbingGame
    from parlour.games.climbing.observation import ClimbingObservation

TWO_RANK = 12


def rank_counts(mask: int) -> list[int]:
    """How many cards of each rank (low to high) a key-order mask holds."""
    return [(mask >> 4 * r & 15).bit_count() for r in range(13)]


def broken_groups(play: int, counts: list[int]) -> int:
    """How many pairs/triples/quads of a hand (``counts``: its :func:`rank_counts`) a play splits
    without using them whole."""
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


def greedy_play(game: ClimbingGame, observation: Observation, legal: Sequence[Action]) -> Action:
    obs: ClimbingObservation = observation  # type: ignore[assignment]
    hand = game.table.key_of(obs.hand)
    plays = [a for a in legal if a != PASS_VALUE]
    if not plays:
        return legal[0]
    for a in plays:
        if a & MASK == hand:
            return a  # going out
    counts = rank_counts(hand)
    in_fives = game.table.five_card_cards(hand)
    others = [n for i, n in enumerate(obs.hand_sizes) if i != obs.seat and n > 0]
    danger = min(others) if others else 13

    def cost(a: int) -> float:
        m = a & MASK
        size = a >> SIZE_SHIFT
        c = (a >> STRENGTH_SHIFT & 63) / 4.0 if size < 5 else float(m.bit_length() - 1 >> 2)
        c += 6.0 * broken_groups(a, counts)
        if size < 5 and m & in_fives:
            c += 3.0 * (m & in_fives).bit_count()
        twos = (m >> 4 * TWO_RANK & 15).bit_count()
        if twos and danger > 3 and hand.bit_count() > 4:
            c += 8.0 * twos  # keep 2s for the end while nobody is close to going out
        return c

    if obs.table is None:
        # Lead: shed as many low cards as possible in one go.
        return min(plays, key=lambda a: cost(a) - 2.5 * (a >> SIZE_SHIFT))
    best = min(plays, key=cost)
    if len(plays) < len(legal):  # passing is allowed
        if danger <= 2 and obs.table.size == 1:
            return max(plays)  # someone is about to go out: block with the highest single
        if cost(best) >= 14.0:
            return legal[0]  # too expensive to answer now: pass
    return best
