"""Why a Forty-Five or Spoil Five move is good, in the game's terms, for hints
(:func:`reason`).

Every reason is a fact about the position as the seat sees it: its hand, the trick on the
table and the cards not yet played. "Nobody can beat it" means that no card still unplayed
outside the seat's hand would beat it, wherever it lies.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from parlour.cards import SUIT_NAMES
from parlour.games.trump.actions import ROB_BASE, STOP, TrumpAction
from parlour.games.trump.ranking import TRUMP_BASE, trick_winner

if TYPE_CHECKING:
    from parlour.games.trump.observation import TrumpObservation


def reason(obs: TrumpObservation, move: TrumpAction, legal: Sequence[TrumpAction]) -> str:
    """Why ``move`` is good for ``obs``'s seat; empty when nothing is worth saying.

    >>> import parlour
    >>> s = parlour.new_game("forty-five").new_deal(turn_up="10C", hands=[
    ...     "5C KH QH 9D 8S", "2H 3H 4H 6H 7H", "2S 3S 4S 6S 7S", "9H 10H JH 3D 4D"])
    >>> reason(s.observation(0), s.parse_action("5C"), s.legal_actions())
    'nobody can beat it: it is the highest trump left'
    >>> s.apply("KH")
    >>> reason(s.observation(1), s.parse_action("2H"), s.legal_actions())
    'you cannot take this trick, so you give up the weakest card you can play'
    """
    value = int(move)
    if move == STOP:
        return "it takes the pool now, with no risk of losing it"
    power = obs._power()
    hand = list(obs.hand)
    if ROB_BASE <= value < ROB_BASE + 52:
        discard = value - ROB_BASE
        if all(power[discard] <= power[c] for c in hand):
            return (f"it trades your weakest card for the turned-up {obs.turn_up.symbol()}, "
                    "a trump")
        return f"it takes the turned-up {obs.turn_up.symbol()}, a trump"
    if value >= 52:
        return ""
    card = value
    plays = [int(m) for m in legal if int(m) < 52]
    played = {int(a) for _, a in obs.history if int(a) < 52}
    unseen = [c for c in range(52) if c not in played and c not in hand]
    trump = power[card] >= TRUMP_BASE
    if not obs.trick:
        beaters = [c for c in unseen if _beats(power, c, card, card)]
        if not beaters:
            return ("nobody can beat it: it is the highest trump left" if trump
                    else "nobody can beat it: it is the highest "
                    f"{SUIT_NAMES[card & 3].removesuffix('s')} left, and nobody else can hold "
                    "a trump")
        return ""
    trick = list(obs.trick)
    led = trick[0]
    if trick_winner([*trick, card], power) == len(trick):
        winning = [c for c in plays if trick_winner([*trick, c], power) == len(trick)]
        lowest = power[card] == min(power[c] for c in winning)
        kind = "trump" if trump else "card"
        last = len(trick) == obs.game.players - 1
        sure = last or not any(_beats(power, c, card, led) for c in unseen)
        if sure and lowest:
            return f"it takes the trick with your lowest {kind} that does"
        if sure:
            return "it takes the trick" + ("" if last else ": nobody after you can beat it")
        if lowest:
            return f"it is your lowest {kind} that wins the trick so far"
        return ""
    # The weakest card only when no other card may be played is as weak (cards of two
    # plain suits rank within their suits, so they may tie).
    if any(power[c] <= power[card] for c in plays if c != card):
        return ""
    winner = (obs.leader + trick_winner(trick, power)) % obs.game.players
    sides = obs.game.rules.sides
    if winner != obs.seat and sides[winner] == sides[obs.seat]:
        return "your partner is winning the trick, so you give up the weakest card you can play"
    if not any(trick_winner([*trick, c], power) == len(trick) for c in plays):
        return "you cannot take this trick, so you give up the weakest card you can play"
    return ""


def _beats(power: Sequence[int], other: int, card: int, led: int) -> bool:
    """Whether ``other``, played after ``card`` in a trick led by ``led`` (``card`` itself
    when it leads), would beat it."""
    trick = [card, other] if led == card else [led, card, other]
    return trick_winner(trick, power) == len(trick) - 1
