"""The High Card ruleset: its options, deals, observations, match and rule-based policy.

>>> from toy_family import VARIANT
>>> game = VARIANT.make()
>>> state = game.new_deal(hands=["2C 9D KS", "3H 10S AC"])
>>> for card in ("KS", "AC", "3H", "9D", "2C", "10S"):
...     state.apply(card)
>>> state.is_over, state.returns()
(True, [-1.0, 1.0])
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parlour.cards import Card, mask_of, parse_cards
from parlour.errors import DealError
from parlour.game import Action, Game, Observation, check_partition, parse_deck, shuffled_deck
from parlour.play import seed_or_random
from parlour.registry import option
from toy_family.observation import ToyObservation
from toy_family.state import ToyState


@dataclass(frozen=True)
class ToyOptions:
    """High Card's one option: how many cards each player is dealt (one trick each)."""

    tricks: int = option(3, "how many cards each player is dealt: one trick each",
                         label="Tricks", min=1, max=13)


class ToyGame(Game):
    """Two players, ``tricks`` cards each, the higher card takes each trick."""

    options_type = ToyOptions

    @property
    def tricks(self) -> int:
        return int(self.options.tricks)

    def card_order(self) -> Sequence[int]:
        """Lowest first: by rank, then suit C < D < H < S, the card-index order."""
        return range(52)

    def max_deal_length(self) -> int:
        return 2 * self.tricks

    def new_deal(
        self,
        *,
        seed: int | None = None,
        deck: Sequence[Card | str] | str | None = None,
        hands: Sequence[Sequence[Card | str] | str] | None = None,
        **setup: Any,
    ) -> ToyState:
        """From ``seed`` or ``deck`` (top first) the cards are dealt one at a time, P0 first;
        from ``hands``, as given. ``leader`` (0 by default) leads the first trick."""
        leader = setup.pop("leader", 0)
        if setup:
            raise DealError(f"{self.name} has no deal setting {', '.join(map(repr, setup))}; "
                            "its setting is leader")
        if leader not in (0, 1) or isinstance(leader, bool):
            raise DealError(f"leader must be seat 0 or 1, not {leader!r}")
        if sum(x is not None for x in (seed, deck, hands)) > 1:
            raise DealError("give either hands, a deck or a seed, not several")
        n = self.tricks
        if hands is None:
            cards = shuffled_deck(seed_or_random(seed)) if deck is None else parse_deck(deck)
            dealt = (mask_of(cards[0:2 * n:2]), mask_of(cards[1:2 * n:2]))
        else:
            if isinstance(hands, str) or len(hands) != 2:
                raise DealError(f"hands must be the 2 players' hands, not {hands!r}")
            parsed = [parse_cards(h) for h in hands]
            for seat, hand in enumerate(parsed):
                if len(hand) != n:
                    raise DealError(f"P{seat} has {len(hand)} cards; each player is dealt {n}")
            check_partition(parsed, ["P0's hand", "P1's hand"], total=2 * n)
            dealt = (mask_of(parsed[0]), mask_of(parsed[1]))
        return ToyState(self, dealt, leader)

    def observe(self, state: ToyState, seat: int) -> ToyObservation:
        """``seat``'s view of ``state``."""
        return ToyObservation(
            game=self, seat=seat, current_player=state.current_player,
            hand=self.card_set(state.hands[seat]),
            hand_sizes=(state.hands[0].bit_count(), state.hands[1].bit_count()),
            leader=state.leader, trick=tuple(Card(c) for c in state.trick),
            tricks_won=tuple(state.tricks_won), returns=tuple(state.returns()),
            history=state.shared_history())

    def match_over(self, totals: Sequence[float], deals: int, carry: dict[str, Any]) -> bool:
        return deals >= 1

    def greedy_action(self, observation: Observation, legal: Sequence[Action],
                      rng: random.Random) -> Action:
        """Lead the highest card; follow with the lowest card that wins, else the lowest."""
        assert isinstance(observation, ToyObservation)
        if not observation.trick:
            return max(legal, key=int)
        led = int(observation.trick[0])
        winning = [a for a in legal if int(a) > led]
        return min(winning or legal, key=int)
