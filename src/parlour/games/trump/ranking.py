"""Card order of Spoil Five and Forty-Five, precomputed per trump suit.

Every card gets a *power* for each trump suit: trumps (the trump suit plus the ace of hearts)
count 101 and up, plain cards 1..13 within their suit. Only powers of trumps, or of cards of the
suit led, are ever compared, so one integer table per trump suit decides every trick. The
compiled engine has the same tables (``rust/src/trump/tables.rs``) for the rules, the greedy
policy and the sampling of hidden hands; these serve the observations' text and the hand order,
and name the rules' orders for tests.

>>> from parlour.cards import SPADES, parse_card
>>> order = trump_order(SPADES)
>>> " ".join(map(str, order[:4])), len(order)
('5S JS AH AS', 14)
>>> POWER[SPADES][parse_card("2S")] > POWER[SPADES][parse_card("10S")]
True
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.cards import (
    ACE,
    CLUBS,
    DIAMONDS,
    FIVE,
    HEARTS,
    JACK,
    SPADES,
    Card,
    CardSet,
    parse_cards,
)

#: Powers at or above this mark are trumps; a demoted (silent) ace gets exactly this value,
#: below every other trump.
TRUMP_BASE = 100

AH = int(Card.make(ACE, HEARTS))
AH_BIT = 1 << AH

# Highest first, as RULES.md 3.2 lists them.
_TRUMP_TEXT = {
    SPADES: "5S JS AH AS KS QS 2S 3S 4S 6S 7S 8S 9S 10S",
    CLUBS: "5C JC AH AC KC QC 2C 3C 4C 6C 7C 8C 9C 10C",
    DIAMONDS: "5D JD AH AD KD QD 10D 9D 8D 7D 6D 4D 3D 2D",
    HEARTS: "5H JH AH KH QH 10H 9H 8H 7H 6H 4H 3H 2H",
}
# Plain ranks, highest first ("high in red, low in black"); the ace of hearts is never plain.
_PLAIN_TEXT = {
    SPADES: "KS QS JS AS 2S 3S 4S 5S 6S 7S 8S 9S 10S",
    CLUBS: "KC QC JC AC 2C 3C 4C 5C 6C 7C 8C 9C 10C",
    DIAMONDS: "KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D AD",
    HEARTS: "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
}

SUIT_MASK: tuple[int, ...] = tuple(
    sum(1 << (r * 4 + s) for r in range(13)) for s in range(4)
)


def _trump_order(trump: int) -> tuple[Card, ...]:
    return tuple(parse_cards(_TRUMP_TEXT[trump]))


def _plain_order(suit: int) -> tuple[Card, ...]:
    return tuple(parse_cards(_PLAIN_TEXT[suit]))


def _powers(trump: int) -> tuple[int, ...]:
    power = [0] * 52
    for suit in range(4):
        order = _plain_order(suit)
        for i, card in enumerate(order):
            power[card] = len(order) - i
    order = _trump_order(trump)
    for i, card in enumerate(order):
        power[card] = TRUMP_BASE + len(order) - i
    return tuple(power)


#: ``POWER[trump][card]``: the card's strength when ``trump`` is the trump suit.
POWER: tuple[tuple[int, ...], ...] = tuple(_powers(t) for t in range(4))

#: ``TRUMP_MASK[trump]``: the bits of every trump (the trump suit and the ace of hearts).
TRUMP_MASK: tuple[int, ...] = tuple(SUIT_MASK[t] | AH_BIT for t in range(4))

#: ``PLAIN_MASK[trump][suit]``: the cards that follow a plain lead of ``suit``.
PLAIN_MASK: tuple[tuple[int, ...], ...] = tuple(
    tuple(SUIT_MASK[s] & ~TRUMP_MASK[t] for s in range(4)) for t in range(4)
)

#: ``ACE_OF_TRUMPS[trump]``: the card whose holder may rob (the ace of hearts for hearts).
ACE_OF_TRUMPS: tuple[int, ...] = tuple(int(Card.make(ACE, t)) for t in range(4))

#: ``RENEGERS[trump]``: the cards with the reneging privilege (five and jack of trumps, AH).
RENEGERS: tuple[tuple[int, ...], ...] = tuple(
    (int(Card.make(FIVE, t)), int(Card.make(JACK, t)), AH) for t in range(4)
)


def trump_order(trump: int) -> tuple[Card, ...]:
    """The trumps, highest first (14, or 13 when hearts are trumps)."""
    return _trump_order(trump)


def plain_order(suit: int) -> tuple[Card, ...]:
    """The plain cards of ``suit``, highest first (the ace of hearts is never among them)."""
    return _plain_order(suit)


def demoted_powers(trump: int) -> tuple[int, ...]:
    """The power table after the holder of the ace of trumps stayed silent."""
    power = list(POWER[trump])
    power[ACE_OF_TRUMPS[trump]] = TRUMP_BASE
    return tuple(power)


DEMOTED_POWER: tuple[tuple[int, ...], ...] = tuple(demoted_powers(t) for t in range(4))


def trick_winner(trick: Sequence[int], power: Sequence[int]) -> int:
    """The position in ``trick`` (cards in playing order) of the card that takes it: the
    highest trump, else the highest card of the suit led.

    >>> from parlour.cards import CLUBS
    >>> trick_winner(parse_cards("KH QH AH 2C"), POWER[CLUBS])
    2
    """
    led_suit = trick[0] & 3
    best = -1
    winner = 0
    for i, c in enumerate(trick):
        p = power[c]
        if p > best and (p >= TRUMP_BASE or c & 3 == led_suit):
            best = p
            winner = i
    return winner


def _hand_order(power: Sequence[int]) -> tuple[int, ...]:
    # Trumps come first, highest first; then each plain suit (clubs, diamonds, hearts, spades)
    # highest first. Keys are (trump?, suit, -power) with the suit ignored among trumps.
    return tuple(sorted(range(52), key=lambda c: (
        power[c] < TRUMP_BASE, 0 if power[c] >= TRUMP_BASE else c & 3, -power[c])))


#: ``HAND_SET[demoted][trump]``: the card-set type that lists a hand as a player holds it,
#: trumps first, highest first, then the plain suits; ``demoted`` when the ace of trumps ranks
#: lowest trump.
HAND_SET: tuple[tuple[type[CardSet], ...], ...] = tuple(
    tuple(CardSet.ordered(_hand_order(table[t])) for t in range(4))
    for table in (POWER, DEMOTED_POWER)
)
