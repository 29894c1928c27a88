"""Cards, their text notation, and the 52-bit card-set type.

A :class:`Card` is a small int (its index, ``rank * 4 + suit``) that prints as ``3D``, ``10H``,
``AS``. Ranks run ``2 3 4 5 6 7 8 9 10 J Q K A`` (index 0 to 12) and suits ``C D H S`` (0 to 3);
this index order is only a storage order: each game ranks cards in its own way.

>>> parse_card("10h")
Card('10H')
>>> parse_cards("3C 4♦ th")
[Card('3C'), Card('4D'), Card('10H')]
>>> hand = CardSet.from_cards(parse_cards("AS 3D 10C"))
>>> str(hand), len(hand), parse_card("3D") in hand
('3D 10C AS', 3, True)
"""

from __future__ import annotations

import operator
import reprlib
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import ClassVar, SupportsIndex

from parlour.errors import CardError

RANK_TEXT = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_TEXT = ("C", "D", "H", "S")
SUIT_NAMES = ("clubs", "diamonds", "hearts", "spades")
SUIT_SYMBOLS = ("♣", "♦", "♥", "♠")
RANK_NAMES = ("two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
              "jack", "queen", "king", "ace")
#: A rank's cards spoken of together: "the pair of 9s", "three jacks".
RANK_PLURALS = ("2s", "3s", "4s", "5s", "6s", "7s", "8s", "9s", "10s", "jacks", "queens", "kings",
                "aces")

CLUBS, DIAMONDS, HEARTS, SPADES = range(4)
TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, JACK, QUEEN, KING, ACE = range(13)

FULL_DECK = (1 << 52) - 1

_RANK_INPUT = {text: i for i, text in enumerate(RANK_TEXT)} | {"T": TEN, "1": -1}
_SUIT_INPUT = {text: i for i, text in enumerate(SUIT_TEXT)}
_SUIT_INPUT |= {sym: i for i, sym in enumerate(SUIT_SYMBOLS)}
_SUIT_INPUT |= {"♧": CLUBS, "♢": DIAMONDS, "♡": HEARTS, "♤": SPADES}


class Card(int):
    """One playing card. ``Card(i)`` returns the shared instance for index ``i``.

    >>> c = Card.parse("qs")
    >>> c.rank == QUEEN, c.suit == SPADES, str(c), int(c)
    (True, True, 'QS', 43)
    """

    __slots__ = ()

    def __new__(cls, index: SupportsIndex) -> Card:
        i = int(index)
        if not 0 <= i < 52:
            raise CardError(f"card index {i} is outside 0..51")
        return _CARDS[i]

    @classmethod
    def make(cls, rank: int, suit: int) -> Card:
        """The card of ``rank`` (0 = two … 12 = ace) and ``suit`` (0 = clubs … 3 = spades)."""
        return _CARDS[rank * 4 + suit]

    @classmethod
    def parse(cls, text: str) -> Card:
        """Parse one card (``10H``, ``th``, ``Q♠``); raises :class:`CardError` naming the token."""
        return parse_card(text)

    @property
    def rank(self) -> int:
        return int(self) >> 2

    @property
    def suit(self) -> int:
        return int(self) & 3

    @property
    def mask(self) -> int:
        """This card's bit in a :class:`CardSet`."""
        return 1 << int(self)

    def __str__(self) -> str:
        return _TEXT[int(self)]

    def __repr__(self) -> str:
        return f"Card('{_TEXT[int(self)]}')"

    def __format__(self, spec: str) -> str:
        return format(_TEXT[int(self)], spec)

    def symbol(self) -> str:
        """``"Q♠"``: the card as a player reads it."""
        return RANK_TEXT[self.rank] + SUIT_SYMBOLS[self.suit]

    def name(self) -> str:
        """``"queen of spades"``."""
        return f"{RANK_NAMES[self.rank]} of {SUIT_NAMES[self.suit]}"


_TEXT = tuple(RANK_TEXT[i >> 2] + SUIT_TEXT[i & 3] for i in range(52))
_CARDS: tuple[Card, ...] = tuple(int.__new__(Card, i) for i in range(52))
CARDS = _CARDS
_BY_TEXT = {t: c for t, c in zip(_TEXT, _CARDS, strict=False)}


def parse_card(text: str) -> Card:
    """Parse one card. Accepts ``T`` for ten, lower case, and suit symbols.

    >>> parse_card("t♣")
    Card('10C')
    """
    if not isinstance(text, str):
        raise CardError(f"expected the text of a card (e.g. 10H or QS), not {text!r}")
    token = text.strip().upper()
    card = _BY_TEXT.get(token)
    if card is not None:
        return card
    if len(token) >= 2:
        rank = _RANK_INPUT.get(token[:-1], -1)
        suit = _SUIT_INPUT.get(token[-1], -1)
        if rank >= 0 and suit >= 0:
            return _CARDS[rank * 4 + suit]
    raise CardError(
        f"'{text.strip()}' is not a card: expected a rank (2-10, J, Q, K, A, or T for ten) "
        "followed by a suit (C, D, H, S or ♣ ♦ ♥ ♠), e.g. 10H or QS"
    )


def parse_cards(cards: str | Iterable[Card | str | int]) -> list[Card]:
    """Parse a space- or comma-separated list of cards, or convert an iterable of cards/text.

    Raises :class:`CardError` naming the first bad token:

    >>> parse_cards("3C 1H")
    Traceback (most recent call last):
    ...
    parlour.errors.CardError: '1H' is not a card: expected a rank (2-10, J, Q, K, A, or T for ten) followed by a suit (C, D, H, S or ♣ ♦ ♥ ♠), e.g. 10H or QS
    """
    if isinstance(cards, str):
        return [parse_card(tok) for tok in cards.replace(",", " ").split()]
    if isinstance(cards, (bytes, bytearray)) or not isinstance(cards, Iterable):
        raise CardError(f"expected cards (a list, or text such as '3D 10H'), not {cards!r}")
    out: list[Card] = []
    for item in cards:
        if isinstance(item, Card):
            out.append(item)
        elif isinstance(item, str):
            out.append(parse_card(item))
        elif isinstance(item, int) and not isinstance(item, bool):
            out.append(Card(item))
        else:
            raise CardError(f"{item!r} is not a card")
    return out


def cards_text(cards: Iterable[Card | int]) -> str:
    """Canonical text of several cards, in the order given."""
    return " ".join(_TEXT[int(c)] for c in cards)


# Bit tricks shared by the engines. ``mask & -mask`` isolates the lowest set bit.
def bits(mask: int) -> Iterator[int]:
    """Indices of the set bits of ``mask``, ascending."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def mask_of(cards: Iterable[Card | int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << int(c)
    return m


def bit_mover(to: Sequence[int]) -> Callable[[int], int]:
    """A function that moves bit ``i`` of a 52-bit mask to bit ``to[i]``: a card mask from one
    card order to another, in seven byte-table lookups rather than a loop over its cards
    (observations convert every hand and pile, many times a step).

    >>> reverse = bit_mover(range(51, -1, -1))
    >>> reverse(1), reverse(0b110) == 1 << 50 | 1 << 49, reverse(reverse(12345)) == 12345
    (2251799813685248, True, True)
    """
    tables: list[tuple[int, ...]] = []
    for base in range(0, 56, 8):
        table = [0] * 256
        for value in range(1, 256):
            low = value & -value
            i = base + low.bit_length() - 1
            table[value] = table[value ^ low] | (1 << to[i] if i < 52 else 0)
        tables.append(tuple(table))
    t0, t1, t2, t3, t4, t5, t6 = tables

    def move(m: int) -> int:
        return (t0[m & 255] | t1[m >> 8 & 255] | t2[m >> 16 & 255] | t3[m >> 24 & 255]
                | t4[m >> 32 & 255] | t5[m >> 40 & 255] | t6[m >> 48 & 255])

    return move


class CardSet(int):
    """An immutable set of cards stored as a 52-bit mask (bit ``i`` is ``Card(i)``).

    A plain ``CardSet`` lists its cards in index order (twos first, aces last); the type
    ``CardSet.ordered(order)`` lists them in a game's own order, and that is what games hand out,
    so a hand prints as the player sorts it. Set operators keep the type of the left operand;
    sets compare equal by their cards alone.

    >>> a = CardSet.parse("3D 4D 5D")
    >>> str(a - CardSet.parse("4D")), len(a | CardSet.parse("AS"))
    ('3D 5D', 4)
    >>> twos_high = CardSet.ordered([*range(4, 52), *range(4)])
    >>> hand = twos_high(CardSet.parse("2H 3C AS"))
    >>> str(hand), hand == CardSet.parse("AS 3C 2H")
    ('3C AS 2H', True)
    """

    __slots__ = ()
    #: The card indices lowest first, for listing; ``None`` for index order.
    order: ClassVar[tuple[int, ...] | None] = None

    @classmethod
    def ordered(cls, order: Sequence[int]) -> type[CardSet]:
        """The ``CardSet`` type that lists cards in ``order`` (the 52 card indices, lowest first).

        One type per order, made once, so ordered sets cost nothing extra to create.
        """
        try:
            # operator.index, unlike int(), refuses what is no index (a float, a text, a list).
            key = tuple(map(operator.index, order))
        except TypeError:
            key = ()
        made = _ORDERED.get(key)
        if made is None:
            if sorted(key) != list(range(52)):
                raise CardError("a card order must list each of the 52 card indices "
                                f"(ints 0 to 51) once, not {reprlib.repr(order)}")
            made = _ORDERED[key] = type("CardSet", (CardSet,), {"__slots__": (), "order": key})
        return made

    def __reduce__(self) -> tuple[object, tuple[object, ...]]:
        # Ordered types are made at run time; pickle them by their order (for worker processes).
        return (_unpickle_card_set, (self.order, int(self)))

    def __new__(cls, mask: SupportsIndex = 0) -> CardSet:
        m = int(mask)
        if m & ~FULL_DECK or m < 0:
            raise CardError(f"{m:#x} is not a 52-bit card mask")
        return int.__new__(cls, m)

    @classmethod
    def from_cards(cls, cards: Iterable[Card | int]) -> CardSet:
        return int.__new__(cls, mask_of(cards))

    @classmethod
    def parse(cls, text: str) -> CardSet:
        return cls.from_cards(parse_cards(text))

    def __iter__(self) -> Iterator[Card]:
        m = int(self)
        if self.order is None:
            for i in bits(m):
                yield _CARDS[i]
        else:
            for i in self.order:
                if m >> i & 1:
                    yield _CARDS[i]

    def __len__(self) -> int:
        return int(self).bit_count()

    def __contains__(self, card: object) -> bool:
        return isinstance(card, int) and 0 <= card < 52 and bool(int(self) >> int(card) & 1)

    def __bool__(self) -> bool:
        return int(self) != 0

    def __or__(self, other: int) -> CardSet:  # type: ignore[override]
        return int.__new__(self.__class__, int(self) | int(other))

    def __and__(self, other: int) -> CardSet:  # type: ignore[override]
        return int.__new__(self.__class__, int(self) & int(other))

    def __sub__(self, other: int) -> CardSet:  # type: ignore[override]
        return int.__new__(self.__class__, int(self) & ~int(other))

    def __xor__(self, other: int) -> CardSet:  # type: ignore[override]
        return int.__new__(self.__class__, int(self) ^ int(other))

    def cards(self) -> list[Card]:
        return list(self)

    def __str__(self) -> str:
        return " ".join(_TEXT[c] for c in self)

    def __repr__(self) -> str:
        return f"CardSet('{self}')"


_ORDERED: dict[tuple[int, ...], type[CardSet]] = {}


def _unpickle_card_set(order: tuple[int, ...] | None, mask: int) -> CardSet:
    return (CardSet if order is None else CardSet.ordered(order))(mask)
