"""The rule-based rummy policy behind the ``greedy`` bot.

Draw: take the discard when it makes a meld with the hand or extends a table meld. Then meld and
lay off, the most points first. Discard: the highest-value card that is not part of a pair or a
near-run and that no opponent is collecting (nor could lay off on the table).

>>> import parlour, random
>>> state = parlour.new_game("rummy").new_deal(hands=["5H 6H 7H 9C", "2C 3D 4S"],
...                                            stock="KD 8C ...", discard="9D")
>>> state.apply("draw stock")
>>> obs = state.observation(0)
>>> str(greedy_action(obs, state.legal_actions(), random.Random(0)))
'meld 5H 6H 7H'
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from parlour.game import Action, Observation
from parlour.games.rummy.actions import (
    DISCARD,
    DRAW_DISCARD_ACTION,
    DRAW_STOCK_ACTION,
    KIND_BITS,
    LAYOFF,
    MELD,
)
from parlour.games.rummy.melds import (
    FULL,
    ROW,
    TO_RUMMY,
    VALUE,
    extensions,
    mask_value,
    rummy_mask,
    suits_of_rank,
)
from parlour.games.rummy.observation import RummyObservation

# Weights of the discard choice: points shed, against keeping a card that may still meld or
# feeding an opponent.
_KEEP = 6
_FEED = 8


def _run_through(card: int, hand: int) -> int:
    """The length of the same-suit run through ``card`` in ``hand | card``."""
    row = (hand | 1 << card) >> (card - card % 13) & ROW
    pos = card % 13
    lo = hi = pos
    while lo > 0 and row >> (lo - 1) & 1:
        lo -= 1
    while hi < 12 and row >> (hi + 1) & 1:
        hi += 1
    return hi - lo + 1


def _fits_table(card: int, melds: Sequence[int]) -> bool:
    return any(extensions(m, 1 << card) for m in melds)


def _useful(card: int, hand: int, melds: Sequence[int]) -> bool:
    """Whether ``card`` completes a meld with ``hand`` or extends a table meld."""
    return (
        suits_of_rank(hand, card % 13).bit_count() >= 2
        or _run_through(card, hand) >= 3
        or _fits_table(card, melds)
    )


def _collecting(card: int, taken: int) -> bool:
    """Whether cards an opponent took from the discard pile go with ``card``."""
    if suits_of_rank(taken, card % 13):
        return True
    near = _run_through(card, taken & ~(1 << card))
    return near >= 2


def greedy_action(observation: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
    """The greedy choice among ``legal`` for a rummy observation."""
    if not isinstance(observation, RummyObservation):
        raise TypeError("the rummy policy needs a rummy observation")
    obs = observation
    hand = rummy_mask(obs.hand)
    melds = [rummy_mask(m) for m in obs.melds]
    if obs.phase == "draw":
        if DRAW_DISCARD_ACTION in legal and obs.discard:
            top = TO_RUMMY[int(obs.discard[-1])]
            if _useful(top, hand, melds) or DRAW_STOCK_ACTION not in legal:
                return DRAW_DISCARD_ACTION
        return DRAW_STOCK_ACTION if DRAW_STOCK_ACTION in legal else legal[0]
    best: Action | None = None
    best_key = (0, 0)
    for a in legal:
        kind = int(a) & 7
        if kind in (MELD, LAYOFF):
            cards = int(a) >> KIND_BITS & FULL
            key = (mask_value(cards), cards.bit_count())
            if key > best_key:
                best, best_key = a, key
    if best is not None:
        return best
    opponents = 0
    for seat, t in enumerate(obs.taken):
        if seat != obs.seat:
            opponents |= rummy_mask(t)
    scored: list[tuple[int, float, Action]] = []
    for a in legal:
        if int(a) & 7 != DISCARD:
            continue
        card = (int(a) >> KIND_BITS & FULL).bit_length() - 1
        rest = hand & ~(1 << card)
        keep = (suits_of_rank(rest, card % 13).bit_count() >= 1) + (_run_through(card, rest) >= 2)
        feed = _collecting(card, opponents) + _fits_table(card, melds)
        scored.append((VALUE[card] - _KEEP * keep - _FEED * feed, rng.random(), a))
    if not scored:
        return legal[0]
    return max(scored)[2]
