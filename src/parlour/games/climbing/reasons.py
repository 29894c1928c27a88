"""Why a climbing play is good, in the game's terms, for hints (:func:`reason`).

Every reason is a fact about the position as the seat sees it — its hand, the play to beat and
the cards nobody has shown — never a guess about where the unseen cards are: "nobody can beat
it" means that no combination of the unseen cards beats it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING

from parlour.cards import bits
from parlour.games.climbing.combos import MASK, PASS_VALUE, ClimbingAction, can_beat
from parlour.games.climbing.rules import RANK_WORDS

if TYPE_CHECKING:
    from parlour.games.climbing.observation import ClimbingObservation

#: How a group of one rank is said, by its size.
_GROUP = {2: "pair of", 3: "three", 4: "four"}


def reason(obs: ClimbingObservation, move: ClimbingAction, legal: Sequence[ClimbingAction],
           instead: ClimbingAction | None = None) -> str:
    """Why ``move`` is good for ``obs``'s seat, one or two facts joined ("it is your lowest
    play that beats the K♠ and keeps your 2♠ for later"); empty when nothing is worth saying.
    ``instead`` is the next best move, which a fact may be measured against.

    >>> import parlour
    >>> hands = ["3D 5C 5S 9H 2S", "4D 6C KH", "7C 8C", "10C JC"]
    >>> dealt = parlour.parse_cards(" ".join(hands))
    >>> out = [c for c in parlour.CardSet((1 << 52) - 1).cards() if c not in dealt]
    >>> s = parlour.new_game("big-two").new_deal(hands=hands, out=out, leader=0)
    >>> reason(s.observation(0), s.parse_action("3D"), s.legal_actions())
    'it gets rid of your lowest card and keeps your 2♠, the highest card left, for later'
    >>> s.apply("9H")
    >>> [reason(s.observation(1), s.parse_action(m), s.legal_actions()) for m in ("KH", "pass")]
    ['it is your lowest play that beats the 9♥', 'it saves your K♥, the least of your plays that beats the 9♥']
    """
    t = obs.game.table
    hand = t.key_of(int(obs.hand))
    unseen = MASK & ~t.key_of(int(obs.hand) | int(obs.played))
    plays = sorted(a for a in legal if a != PASS_VALUE)
    if move == PASS_VALUE:
        if obs.table is None or not plays:
            return ""
        return (f"it saves {_your(plays[0].words())}, the least of your plays that beats "
                f"{obs.table.words()}")
    mask = int(move) & MASK
    if mask == hand:
        return "it goes out"
    facts: list[str] = []
    broken = _broken(hand, mask)
    top_key = hand.bit_length() - 1  # the hand's highest card
    if not can_beat(t.hand_combos(unseen), int(move)):
        facts.append("nobody can beat it, so you keep the lead")
    if obs.table is not None:
        if plays and move == plays[0]:
            facts.append(f"it is your lowest play that beats {obs.table.words()}")
        elif plays:
            kept = _broken(hand, int(plays[0]) & MASK) - broken
            if kept:
                facts.append(f"it beats {obs.table.words()} without breaking up "
                             f"{_group(hand, min(kept))}")
    else:
        if mask & -mask == hand & -hand:
            facts.append("it gets rid of your lowest card" if move.size == 1
                         else f"it sheds {move.size} cards including your lowest")
        elif move.size > 1:
            facts.append(f"it sheds {move.size} cards at once")
    if any(n == 1 for seat, n in enumerate(obs.hand_sizes) if seat != obs.seat):
        if move.size > 1:
            facts.append("a player with one card left cannot follow it")
        elif mask == 1 << top_key:
            facts.append("a player has one card left, so you play your highest")
    if not mask >> top_key & 1 and top_key > unseen.bit_length() - 1:
        card = t.cards(1 << top_key)[0]
        facts.append(f"it keeps your {card.symbol()}, the highest card left, for later")
    if instead is not None and instead != PASS_VALUE and len(facts) < 2:
        kept = _broken(hand, int(instead) & MASK) - broken
        if kept:
            facts.append(f"it does not break up {_group(hand, min(kept))}")
    return _joined(facts[:2])


def _broken(hand: int, play: int) -> set[int]:
    """The ranks (0 for 3s … 12 for 2s) of which ``hand`` holds two or more and ``play``
    takes some but not all."""
    held = Counter(k // 4 for k in bits(hand))
    taken = Counter(k // 4 for k in bits(play))
    return {r for r, n in taken.items() if held[r] >= 2 and n < held[r]}


def _group(hand: int, rank: int) -> str:
    """``hand``'s cards of ``rank`` in words: "your pair of 7s", "your three kings"."""
    n = sum(1 for k in bits(hand) if k // 4 == rank)
    return f"your {_GROUP[n]} {RANK_WORDS[rank]}"


def _your(words: str) -> str:
    """A play's words as the player's own: "the 2♠" → "your 2♠"."""
    for article in ("the ", "a "):
        if words.startswith(article):
            return "your " + words[len(article):]
    return words


def _joined(facts: list[str]) -> str:
    """One or two facts as one sentence: "it … and …" when both are said of the move."""
    if len(facts) < 2:
        return "".join(facts)
    first, second = facts
    if first.startswith("it ") and second.startswith("it "):
        return f"{first} and {second.removeprefix('it ')}"
    return f"{first}; {second}"
