"""Rummy's card layout, card values, meld validity and lay-offs.

The engine keeps every card set as a 52-bit mask in *rummy layout*: bit ``suit * 13 + r`` where
``r`` is the ace-low rank (A = 0, 2 = 1 … K = 12). Each suit is then a 13-bit row, so a run is a
contiguous block of one row and runs are found with shifted ANDs; a rank is the column
``r, r + 13, r + 26, r + 39``.

The card sets handed out (hands, melds, zones) list their cards in rummy's own order, the layout
order: by suit (clubs, diamonds, hearts, spades), ace low within a suit, as a player sorts a
rummy hand to see the runs.

>>> from parlour.cards import CardSet, parse_cards
>>> m = rummy_mask(parse_cards("4C 5C 6C"))
>>> is_meld(m), mask_value(m), str(card_set(m))
(True, 15, '4C 5C 6C')
>>> str(card_set(rummy_mask(CardSet.parse("4C 2C 3H AC 3C KH"))))
'AC 2C 3C 4C 3H KH'
>>> is_meld(rummy_mask(parse_cards("QD KD AD")))
False
>>> [str(card_set(e)) for e in extensions(m, rummy_mask(parse_cards("3C 7C 8C 9H")))]
['7C', '7C 8C', '3C', '3C 7C', '3C 7C 8C']
"""

from __future__ import annotations

from collections.abc import Iterable

from parlour.cards import CARDS, Card, CardSet, bit_mover, bits

ROW = (1 << 13) - 1
FULL = (1 << 52) - 1

#: Card index (rank * 4 + suit, ace high) to rummy-layout bit, and back.
TO_RUMMY: tuple[int, ...] = tuple((c & 3) * 13 + ((c >> 2) + 1) % 13 for c in range(52))
TO_CARD: tuple[Card, ...] = tuple(
    CARDS[next(c for c in range(52) if TO_RUMMY[c] == i)] for i in range(52)
)

#: The card indices in rummy's own order (the layout order), lowest first.
CARD_ORDER: tuple[int, ...] = tuple(int(c) for c in TO_CARD)
#: The card-set type that lists cards in :data:`CARD_ORDER`.
RummyCards = CardSet.ordered(CARD_ORDER)


# Masks convert between card-index order and the rummy layout by byte tables: observations and
# zones convert every hand and meld, many times a turn.
_to_index = bit_mover(CARD_ORDER)
_to_layout = bit_mover(TO_RUMMY)


#: The four bits of each ace-low rank.
COLUMN: tuple[int, ...] = tuple(sum(1 << (s * 13 + r) for s in range(4)) for r in range(13))
_ACES = COLUMN[0]
#: The bits where a run of three can start within its suit's row (ranks A to J).
_RUN_STARTS = sum(((1 << 11) - 1) << (13 * s) for s in range(4))
_TENS_UP = COLUMN[9] | COLUMN[10] | COLUMN[11] | COLUMN[12]

#: Point value of each rummy-layout bit: A 20; 10, J, Q, K 10; 2-9 5.
VALUE: tuple[int, ...] = tuple(
    20 if i % 13 == 0 else 10 if i % 13 >= 9 else 5 for i in range(52)
)


def mask_value(m: int) -> int:
    """The points of the cards in ``m``: every card 5, plus 15 per ace and 5 per ten or court."""
    return 5 * m.bit_count() + 15 * (m & _ACES).bit_count() + 5 * (m & _TENS_UP).bit_count()


def rummy_mask(cards: CardSet | Iterable[Card | int]) -> int:
    """The rummy-layout mask of some cards (a card set, or cards or card indices)."""
    if isinstance(cards, CardSet):
        return _to_layout(int(cards))
    m = 0
    for c in cards:
        m |= 1 << TO_RUMMY[int(c)]
    return m


def card_set(m: int) -> CardSet:
    """The card set of a rummy-layout mask, listed in rummy's order."""
    return int.__new__(RummyCards, _to_index(m))


def text_of(m: int) -> str:
    """The cards of a rummy-layout mask in rummy's order: ``AC 2C 3C``, never ``2C 3C AC``."""
    return " ".join(str(TO_CARD[i]) for i in bits(m))


def is_run(m: int) -> bool:
    """Three or more consecutive ranks of one suit, ace low, no wrap."""
    if m.bit_count() < 3:
        return False
    low = m & -m
    suit = (low.bit_length() - 1) // 13
    if m >> (13 * suit) > ROW:
        return False
    return (m + low) & m == 0


def is_group(m: int) -> bool:
    """Three or four cards of one rank."""
    if m.bit_count() < 3:
        return False
    rank = ((m & -m).bit_length() - 1) % 13
    return m & ~COLUMN[rank] == 0


def is_meld(m: int) -> bool:
    return is_run(m) or is_group(m)


def why_not_meld(m: int) -> str:
    """Why ``m`` is not a valid meld (for error messages); empty if it is one."""
    if is_meld(m):
        return ""
    if m.bit_count() < 3:
        return "a meld needs at least three cards"
    low = m & -m
    suit = (low.bit_length() - 1) // 13
    if m >> (13 * suit) <= ROW:
        return "a run needs consecutive ranks (ace low: A 2 3 … J Q K, no wrap)"
    return "a run needs cards of one suit and a group cards of one rank"


def suits_of_rank(m: int, rank: int) -> int:
    """The 4-bit set of suits of ``rank`` present in ``m``."""
    m >>= rank
    return (m & 1) | (m >> 12 & 2) | (m >> 24 & 4) | (m >> 36 & 8)


def group_mask(rank: int, suits: int) -> int:
    m = 0
    for s in range(4):
        if suits >> s & 1:
            m |= 1 << (s * 13 + rank)
    return m


def extensions(meld: int, hand: int) -> list[int]:
    """Every set of cards from ``hand`` that can be laid off on ``meld`` in one go.

    A run grows at either end or both (lower end first); a group of three takes its fourth card.
    """
    if is_group(meld):
        if meld.bit_count() == 3:
            missing = COLUMN[((meld & -meld).bit_length() - 1) % 13] & ~meld
            if hand & missing:
                return [missing]
        return []
    lo = (meld & -meld).bit_length() - 1
    hi = meld.bit_length() - 1
    floor = lo - lo % 13
    lows = [0]
    ext = 0
    i = lo - 1
    while i >= floor and hand >> i & 1:
        ext |= 1 << i
        lows.append(ext)
        i -= 1
    highs = [0]
    ext = 0
    i = hi + 1
    while i <= floor + 12 and hand >> i & 1:
        ext |= 1 << i
        highs.append(ext)
        i += 1
    return [low | high for low in lows for high in highs if low | high]


def can_meld(cards: int) -> bool:
    """Whether some three of ``cards`` make a meld.

    >>> from parlour.cards import parse_cards
    >>> can_meld(rummy_mask(parse_cards("4C 5C 7C 6D 6H KS")))
    False
    >>> can_meld(rummy_mask(parse_cards("KS 4C 5C 6C")))
    True
    >>> can_meld(rummy_mask(parse_cards("QC KC AC 9S 9H 2D")))      # ace low: no wrap
    False
    >>> can_meld(rummy_mask(parse_cards("9C 9S 9H 2D")))
    True
    """
    if cards & (cards >> 1) & (cards >> 2) & _RUN_STARTS:
        return True
    return any(suits_of_rank(cards, r).bit_count() >= 3 for r in range(13))
