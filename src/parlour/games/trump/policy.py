"""The rule-based policy for ``greedy``: win cheaply, save top trumps, help the partner, rob.

It reads only the observation: cards still out are those neither in hand, played, nor buried
(the turn-up left on the pack, one's own discard).

>>> import parlour, random
>>> game = parlour.new_game("forty-five")
>>> state = game.new_deal(hands=["5S 3S 7D 8C 9H", "KS 2D 3D 4D 5D", "6S 7S 8S 9S 10S",
...                              "AS 4C 6C 8H KC"], turn_up="2S", dealer=3)
>>> str(game.greedy_action(state.observation(3), state.legal_actions(), random.Random(0)))
'rob 6C'
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from parlour.cards import FULL_DECK
from parlour.game import Action, Observation
from parlour.games.trump.actions import JINK, KEEP, ROB, ROB_BASE, SILENT, STOP
from parlour.games.trump.ranking import DEMOTED_POWER, POWER, TRUMP_BASE, TRUMP_MASK

if TYPE_CHECKING:
    from parlour.games.trump.observation import TrumpObservation


def greedy_action(observation: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
    obs: TrumpObservation = observation  # type: ignore[assignment]
    power = DEMOTED_POWER[obs.trump] if obs.ace_demoted else POWER[obs.trump]
    if obs.phase == "rob":
        return _rob(legal, power)
    if obs.phase == "jink":
        return JINK if _sure_winners(obs, power) >= 2 else STOP
    return _play(obs, legal, power)


def _rob(legal: Sequence[Action], power: Sequence[int]) -> Action:
    discards = [int(a) - ROB_BASE for a in legal if ROB_BASE <= int(a) < ROB_BASE + 52]
    if discards:
        # Taking a trump for the weakest card only ever strengthens the hand.
        return ROB[min(discards, key=lambda c: power[c])]
    return KEEP if KEEP in legal else SILENT


def _outstanding(obs: TrumpObservation) -> int:
    """Cards that another seat may still play."""
    gone = int(obs.hand)
    for _, action in obs.history:
        v = int(action)
        if v < 52:
            gone |= 1 << v
        elif ROB_BASE <= v < ROB_BASE + 52:
            gone |= 1 << (v - ROB_BASE)
    if obs.robber < 0:
        gone |= 1 << int(obs.turn_up)
    return FULL_DECK & ~gone


def _top_outstanding_trump(obs: TrumpObservation, power: Sequence[int]) -> int:
    trumps = _outstanding(obs) & TRUMP_MASK[obs.trump]
    best = 0
    while trumps:
        low = trumps & -trumps
        best = max(best, power[low.bit_length() - 1])
        trumps ^= low
    return best


def _sure_winners(obs: TrumpObservation, power: Sequence[int]) -> int:
    top = _top_outstanding_trump(obs, power)
    return sum(1 for c in obs.hand if power[c] > top and power[c] >= TRUMP_BASE)


def _play(obs: TrumpObservation, legal: Sequence[Action], power: Sequence[int]) -> Action:
    cards = sorted((int(a) for a in legal), key=lambda c: power[c])
    by_card = {int(a): a for a in legal}
    weakest = by_card[_weakest(cards, power)]
    trick = [int(c) for c in obs.trick]
    n = len(obs.hand_sizes)
    if not trick:
        top = _top_outstanding_trump(obs, power)
        trumps = [c for c in cards if power[c] >= TRUMP_BASE]
        if trumps and power[trumps[-1]] > top:
            return by_card[trumps[-1]]  # draw trumps with a card nobody can beat
        plain = [c for c in cards if power[c] < TRUMP_BASE]
        if plain:
            best = max(plain, key=lambda c: power[c])
            if power[best] >= 12:  # a king or queen: a fair chance to win the trick plainly
                return by_card[best]
        return weakest
    led_suit = trick[0] & 3
    best_i = 0
    for i, c in enumerate(trick):
        if _beats(c, trick[best_i], led_suit, power):
            best_i = i
    best = trick[best_i]
    winner = (obs.leader + best_i) % n
    sides = obs.game.rules.sides  # type: ignore[attr-defined]
    last = len(trick) == n - 1
    partner_wins = sides[winner] == sides[obs.seat] and winner != obs.seat
    if partner_wins and (last or power[best] > _top_outstanding_trump(obs, power)):
        return weakest  # the partner has the trick
    winning = [c for c in cards if _beats(c, best, led_suit, power)]
    if not winning:
        return weakest
    later = ((obs.leader + i) % n for i in range(len(trick) + 1, n))
    if any(sides[s] != sides[obs.seat] and obs.tricks_won[s] >= 2 for s in later):
        return by_card[winning[-1]]  # an opponent on two tricks is still to play: hold it off
    return by_card[winning[0]]  # the cheapest card that takes it


def _beats(card: int, best: int, led_suit: int, power: Sequence[int]) -> bool:
    p, q = power[card], power[best]
    if p >= TRUMP_BASE or q >= TRUMP_BASE:
        return p > q
    return card & 3 == led_suit and (best & 3 != led_suit or p > q)


def _weakest(cards: Sequence[int], power: Sequence[int]) -> int:
    plain = [c for c in cards if power[c] < TRUMP_BASE]
    return min(plain or cards, key=lambda c: power[c])
