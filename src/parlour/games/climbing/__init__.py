"""Climbing games: ``big-two-4card``, ``big-two`` and ``pusoy-dos`` (RULES.md sections 1, 2, 4).

For bot writers: a play's kind is ``action.category``, a :class:`Category`; observations are
:class:`ClimbingObservation`.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from parlour.games.climbing.combos import ClimbingAction
from parlour.games.climbing.game import ClimbingGame
from parlour.games.climbing.observation import ClimbingObservation
from parlour.games.climbing.rules import (
    BigTwo4CardOptions,
    BigTwoOptions,
    Category,
    ClimbingRules,
    PusoyDosOptions,
    big_two_4card_rules,
    big_two_rules,
    pusoy_dos_rules,
)
from parlour.registry import Variant, register


def _factory(make_rules: Callable[[Any], ClimbingRules]) -> Callable[[Variant, int, Any], ClimbingGame]:
    def factory(variant: Variant, players: int, options: Any) -> ClimbingGame:
        return ClimbingGame(variant, players, options, make_rules(options))

    return factory


register(Variant(
    "big-two-4card",
    "Big Two with two-pair and four-of-a-kind 4-card plays; winner takes the others' card counts",
    (4,), 4, BigTwo4CardOptions, _factory(big_two_4card_rules), "climbing"))
register(Variant(
    "big-two",
    "Big Two with 1, 2 and 5-card plays and 1/2/3-per-card penalties; a match ends at 50",
    (4,), 4, BigTwoOptions, _factory(big_two_rules), "climbing"))
register(Variant(
    "pusoy-dos",
    "Filipino Big Two: suits C<S<H<D, 3C opens, wrap straights, play on for placements",
    (4,), 4, PusoyDosOptions, _factory(pusoy_dos_rules), "climbing"))

__all__ = ["Category", "ClimbingAction", "ClimbingGame", "ClimbingObservation"]
