"""The climbing games' :class:`ClimbingGame`: deals, matches, and the greedy policy's entry."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from parlour.cards import Card, parse_cards
from parlour.errors import DealError
from parlour.game import (
    Action,
    Game,
    Observation,
    check_partition,
    parse_deck,
    seed_or_random,
    shuffled_deck,
)
from parlour.games.climbing.combos import ComboTable
from parlour.games.climbing.engine import ClimbingState
from parlour.games.climbing.rules import ClimbingRules
from parlour.registry import Variant

_TABLES: dict[ClimbingRules, ComboTable] = {}


def combo_table(rules: ClimbingRules) -> ComboTable:
    """The shared table of a ruleset (its interned actions are reused by every deal)."""
    table = _TABLES.get(rules)
    if table is None:
        table = _TABLES[rules] = ComboTable(rules)
    return table


class ClimbingGame(Game):
    """``big-two-4card``, ``big-two`` or ``pusoy-dos`` with their options.

    ``new_deal`` takes, besides ``seed``/``deck``/``hands``: ``leader`` (a seat that leads
    freely, as in later deals of a match; by default the holder of the lowest card opens under
    the opening rule) and ``out`` (cards already out of play, to compose a position with hands
    of fewer than 13 cards).

    >>> import parlour
    >>> s = parlour.new_game("big-two").new_deal(
    ...     hands=["3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 2D", "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2C",
    ...            "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2H", "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2S"])
    >>> s.apply("3d 4d 5d 6d 7d")
    >>> s.apply("10c 9c 8c 7c 6c")
    >>> s.apply("2h")
    Traceback (most recent call last):
    ...
    parlour.errors.IllegalAction: a 1-card single cannot answer a 5-card straight flush (6C 7C 8C 9C 10C): play 5 cards that beat it, or pass
    """

    def __init__(self, variant: Variant, players: int, options: Any, rules: ClimbingRules) -> None:
        super().__init__(variant, players, options)
        self.rules = rules
        self.table = combo_table(rules)

    def new_deal(
        self,
        *,
        seed: int | None = None,
        deck: Sequence[Card | str] | str | None = None,
        hands: Sequence[Sequence[Card | str] | str] | None = None,
        leader: int | None = None,
        out: Sequence[Card | str] | str | None = None,
        **setup: Any,
    ) -> ClimbingState:
        if setup:
            raise DealError(f"{self.name} deals take no {', '.join(sorted(setup))}; "
                            "they take seed, deck, hands, leader and out")
        n = self.players
        out_cards = parse_cards(out) if out is not None else []
        if hands is not None:
            if deck is not None or seed is not None:
                raise DealError("give hands, a deck or a seed, not several")
            if len(hands) != n:
                raise DealError(f"{self.name} needs {n} hands, not {len(hands)}")
            dealt = [parse_cards(h) for h in hands]
            check_partition([*dealt, out_cards], [f"P{i}'s hand" for i in range(n)] + ["out"])
            if not out_cards:
                for i, h in enumerate(dealt):
                    if len(h) != 52 // n:
                        raise DealError(f"each hand has {52 // n} cards; P{i} has {len(h)}")
        else:
            if out_cards:
                raise DealError("'out' composes a position: give it with explicit hands")
            if deck is not None:
                if seed is not None:
                    raise DealError("give a deck or a seed, not both")
                cards = parse_deck(deck)
            else:
                cards = shuffled_deck(seed_or_random(seed))
            dealt = [cards[i::n] for i in range(n)]  # one at a time, clockwise
        key = self.table.key_mask
        key_hands = [key(h) for h in dealt]
        if leader is None:
            if not any(h & 1 for h in key_hands):
                raise DealError(f"no hand holds {self.rules.lowest_card_text}: "
                                "say which seat leads (leader=…)")
        elif not (isinstance(leader, int) and 0 <= leader < n and key_hands[leader]):
            raise DealError(f"leader must be a seat 0..{n - 1} holding cards, not {leader!r}")
        return ClimbingState(self, key_hands, leader, key(out_cards))

    # -- matches (RULES.md "Several deals") -----------------------------------------------------
    def match_deal_setup(self, carry: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        return {"leader": carry["leader"]} if carry.get("leader") is not None else {}

    def match_after_deal(self, carry: dict[str, Any], state: Any) -> dict[str, Any]:
        # big-two: the previous winner leads freely; pusoy-dos only with next_leader='winner'.
        if getattr(self.options, "next_leader", None) == "winner" or self.name == "big-two":
            return {"leader": state.placements[0]}
        return carry

    def match_over(self, totals: Sequence[float], deals: int, carry: dict[str, Any]) -> bool:
        if getattr(self.options, "match_end", "deals") == "penalty-limit":
            return bool(-min(totals) >= self.options.penalty_limit)
        return bool(deals >= self.options.deals)

    def bench_extra(self, seconds: float) -> dict[str, str]:
        return {"all leads of a 13-card hand": f"{_leads_microseconds(self, seconds):.1f} µs"}

    def greedy_action(
        self, observation: Observation, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        from parlour.games.climbing.policy import greedy_play

        return greedy_play(self, observation, legal)


def _leads_microseconds(game: ClimbingGame, seconds: float) -> float:
    """Microseconds for ``legal_actions()`` to list every lead of a fresh 13-card hand.

    Measured through the public protocol: fresh deals where seat 0 leads freely are made
    untimed, then only their first ``legal_actions()`` (which builds the hand's plays) is timed.
    The best of several rounds is reported, as ``timeit`` does, to shed scheduling noise.
    """
    import time

    deals = [game.new_deal(seed=i, leader=0) for i in range(200)]
    for state in deals:  # warm the shared action table, as a long simulation would be
        state.legal_actions()
    best = float("inf")
    deadline = time.perf_counter() + seconds
    seed = 200
    while time.perf_counter() < deadline or best == float("inf"):
        fresh = [game.new_deal(seed=seed + i, leader=0) for i in range(200)]
        seed += 200
        start = time.perf_counter()
        for state in fresh:
            state.legal_actions()
        best = min(best, (time.perf_counter() - start) / len(fresh))
    return best * 1e6
