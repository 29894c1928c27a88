"""Why a rummy move is good, in the game's terms, for hints (:func:`reason`).

Every reason is a fact about the position as the seat sees it: its hand, the top discard and
the melds on the table. A card "goes with" another of the same rank, or of the same suit one
or two ranks away (ace low): the two could be part of one meld.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from parlour.cards import bits
from parlour.games.rummy.actions import DISCARD, DRAW_DISCARD, DRAW_STOCK, LAYOFF, MELD, RummyAction
from parlour.games.rummy.melds import COLUMN, TO_CARD, VALUE, extensions, mask_value, rummy_mask

if TYPE_CHECKING:
    from parlour.games.rummy.observation import RummyObservation


def reason(obs: RummyObservation, move: RummyAction) -> str:
    """Why ``move`` is good for ``obs``'s seat; empty when nothing is worth saying.

    >>> import parlour
    >>> s = parlour.new_game("rummy").new_deal(hands=["5H 6H KS 9C", "2C 3D 4S"],
    ...                                        stock="KD 8C ...", discard="7H")
    >>> obs = s.observation(0)
    >>> [reason(obs, m) for m in s.legal_actions()]
    ['', 'the 7♥ makes a meld with your 5♥ 6♥']
    >>> s.apply("draw discard")
    >>> obs = s.observation(0)
    >>> reason(obs, s.parse_action("meld 5H 6H 7H"))
    'it puts 15 points on the table, where they score for you'
    >>> print(reason(obs, s.parse_action("discard KS")))
    the K♠ goes with none of your cards, and no card you hold scores more; nobody can lay it off
    """
    hand = rummy_mask(obs.hand)
    kind = move.kind
    melds = [rummy_mask(m) for m in obs.melds]
    if kind in (DRAW_DISCARD, DRAW_STOCK):
        if not obs.discard:
            return ""
        top = rummy_mask([obs.discard[-1]])
        name = TO_CARD[top.bit_length() - 1].symbol()
        meld, partners = _meld_with(top, hand), _partners(top, hand)
        lays_off = any(extensions(m, top) for m in melds)
        if kind == DRAW_STOCK:
            if meld or partners or lays_off:
                return ""
            return f"the top discard, the {name}, goes with none of your cards"
        if meld:
            return f"the {name} makes a meld with your {_symbols(meld)}"
        if lays_off:
            return f"the {name} lays off on a meld on the table"
        if partners:
            return f"the {name} goes with your {_symbols(partners)}"
        return ""
    if kind in (MELD, LAYOFF):
        return (f"it puts {mask_value(move.cards)} points on the table, where they score for "
                "you")
    if kind != DISCARD:
        return ""
    card = move.cards
    rest = hand & ~card
    if not rest:
        return "it goes out"
    name = TO_CARD[card.bit_length() - 1].symbol()
    if _partners(card, rest):
        return ""
    lone = [b for b in bits(rest) if not _partners(1 << b, rest & ~(1 << b))]
    feeds = any(extensions(m, card) for m in melds)
    said = f"the {name} goes with none of your cards"
    if all(VALUE[card.bit_length() - 1] >= VALUE[b] for b in lone) and lone:
        said += ", and no card you hold scores more"
    if not feeds:
        said += "; nobody can lay it off"
    return said


def _partners(card: int, hand: int) -> int:
    """The cards of ``hand`` that go with ``card`` (one bit): same rank, or same suit one or
    two ranks away."""
    bit = card.bit_length() - 1
    rank = bit % 13
    near = COLUMN[rank] & ~card
    for step in (-2, -1, 1, 2):
        if 0 <= rank + step < 13:
            near |= 1 << (bit + step)
    return hand & near


def _meld_with(card: int, hand: int) -> int:
    """Cards of ``hand`` that make a meld with ``card`` (one bit): two or three of its rank,
    or the two that make the shortest run with it; 0 if none."""
    bit = card.bit_length() - 1
    rank = bit % 13
    same = hand & COLUMN[rank]
    if same.bit_count() >= 2:
        return same
    for low in (rank - 2, rank - 1, rank):
        if low >= 0 and low + 2 < 13:
            run = sum(1 << (bit - rank + r) for r in range(low, low + 3))
            if hand & run == run & ~card:
                return run & ~card
    return 0


def _symbols(mask: int) -> str:
    return " ".join(TO_CARD[b].symbol() for b in bits(mask))
