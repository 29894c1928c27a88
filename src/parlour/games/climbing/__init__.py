"""Climbing games: ``big-two-4card``, ``big-two`` and ``pusoy-dos`` (RULES.md sections 1, 2, 4).

For bot writers: a play's kind is ``action.category``, a :class:`Category`; observations are
:class:`ClimbingObservation`.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
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
from parlour.registry import Family, Variant, Verb, register, register_family


def _factory(make_rules: Callable[[Any], ClimbingRules]) -> Callable[[Variant, int, Any], ClimbingGame]:
    def factory(variant: Variant, players: int, options: Any) -> ClimbingGame:
        return ClimbingGame(variant, players, options, make_rules(options))

    return factory


# The rules in a paragraph or two, for the tables' start and help screens (terminal and web).
_CLIMBING = (
    "Shed all your cards first. The leader plays any allowed combination; each player in turn "
    "beats it with a higher combination of the same size, or passes. When everyone else has "
    "passed, the last player to play leads anything."
)


register_family(Family(
    name="climbing",
    verbs=(
        Verb("play", "Play", "p", "play the selected cards"),
        Verb("pass", "Pass", "a", "pass"),
    ),
    felt=Path(__file__).with_name("felt.js"),
    features="parlour.games.climbing.features:ClimbingFeatures",
    tutorial="parlour.games.climbing.tutorial:LESSON",
    # The rollouts' own policy's choice stands unless clearly beaten: measured stronger here.
    level_settings={"keep_policy": 2.0},
))

# The networks play the searches' worlds out where that measured stronger than greedy's
# rollouts; each budget is rollouts a move (a network's rollout costs more than greedy's).
_EXPERT_PLAYED_OUT = {"network_playouts": True, "network_iterations": 1_500}

register(Variant(
    "big-two-4card",
    "Big Two with two-pair and four-of-a-kind 4-card plays; winner takes the others' card counts",
    (4,), 4, BigTwo4CardOptions, _factory(big_two_4card_rules), "climbing",
    encoding="parlour.games.climbing.encoding",
    weights={4: Path(__file__).with_name("big_two_4card.npz")},
    levels={
        # The network alone is stronger than a search played out by greedy here.
        "hard": {"network_playouts": True, "network_iterations": 60},
        # The other seats modelled by their kind, worlds chosen by the rule-based ones' moves.
        "expert": {**_EXPERT_PLAYED_OUT, "opponents": {"draws": 16}},
    },
    summary=_CLIMBING + "\n\nRanks 3 (low) … A, 2 (high); suits ♦ < ♣ < ♥ < ♠. The "
    "holder of 3♦ opens with it. Plays: singles, pairs, triples, two pairs and four of a kind "
    "(4 cards), and 5-card hands (straight < flush < full house < straight flush). The first "
    "player out wins the deal and takes the others' card counts."))
register(Variant(
    "big-two",
    "Big Two with 1, 2 and 5-card plays and 1/2/3-per-card penalties; a match ends at 50",
    (4,), 4, BigTwoOptions, _factory(big_two_rules), "climbing",
    encoding="parlour.games.climbing.encoding",
    weights={4: Path(__file__).with_name("big_two.npz")},
    levels={"expert": {**_EXPERT_PLAYED_OUT, "network_iterations": 800}},
    featured=True,  # the best known of the three, where a table starts
    summary=_CLIMBING + "\n\nRanks 3 (low) … A, 2 (high); suits ♦ < ♣ < ♥ < ♠. The first "
    "deal opens with a play including 3♦; later deals, the last winner leads anything. Plays: singles, pairs and 5-card hands (straight < "
    "flush < full house < four of a kind < straight flush). When someone goes out the others pay "
    "1 a card, 2 a card from 10 cards, 3 a card with all 13; the match ends at 50 and the "
    "lowest total wins."))
register(Variant(
    "pusoy-dos",
    "Filipino Big Two: suits C<S<H<D, 3C opens, wrap straights, play on for placements",
    (4,), 4, PusoyDosOptions, _factory(pusoy_dos_rules), "climbing",
    encoding="parlour.games.climbing.encoding",
    weights={4: Path(__file__).with_name("pusoy_dos.npz")},
    levels={"expert": _EXPERT_PLAYED_OUT},
    summary=_CLIMBING + "\n\nRanks 3 (low) … A, 2 (high); suits ♣ < ♠ < ♥ < ♦. The first "
    "play must include 3♣. Plays: singles, pairs, triples and 5-card hands (straight < flush < "
    "full house < four of a kind with one more card < straight flush); straights include "
    "A-2-3-4-5 and 2-3-4-5-6. Play goes on after the "
    "first player goes out, for places: first place scores most."))

__all__ = ["Category", "ClimbingAction", "ClimbingGame", "ClimbingObservation"]
