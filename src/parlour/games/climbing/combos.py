"""Combinations of the climbing games, packed one int each, with a global strength order.

A play is packed as ``size << 61 | strength << 52 | mask`` where ``mask`` holds the cards in key
order (see :mod:`.rules`) and ``strength = category * 64 + key``. Two plays of the same size
compare as plain ints, so a hand's plays sorted once give every legal answer by bisection:
the answers to ``table`` are the plays above ``table | MASK`` and below the next size.

:class:`ComboTable` knows one variant's combinations: it classifies a card mask (for parsing and
validation), names plays, and holds the compiled table (``parlour._core``) that lists every
combination in a hand (once per deal; the engine then only filters them as cards leave).
"""

from __future__ import annotations

from bisect import bisect_right
from collections import Counter
from collections.abc import Sequence
from typing import ClassVar

from parlour._core import ClimbingTable
from parlour.cards import CARDS, SUIT_NAMES, Card, CardSet, bit_mover
from parlour.errors import IllegalAction
from parlour.game import Action
from parlour.games.climbing.rules import RANK_WORDS, RANKS, Category, ClimbingRules

# Short names for the categories the tables below are built from.
SINGLE, PAIR, TRIPLE, TWO_PAIR, FOUR, QUADS = (
    Category.SINGLE, Category.PAIR, Category.TRIPLE, Category.TWO_PAIR, Category.FOUR_OF_A_KIND,
    Category.FOUR_PLUS_ONE)
STRAIGHT, FLUSH, FULL_HOUSE, STRAIGHT_FLUSH = (
    Category.STRAIGHT, Category.FLUSH, Category.FULL_HOUSE, Category.STRAIGHT_FLUSH)

MASK = (1 << 52) - 1
SIZE_SHIFT = 61
STRENGTH_SHIFT = 52
STRENGTH_BITS = 0x1FF  # category (up to 4) * 64 + key (up to 51) needs nine bits
PASS_VALUE = 0
SUIT_ROW = sum(1 << 4 * r for r in range(13))  # one suit's bits in key order (suit 0)


def can_beat(plays: Sequence[int], table: int) -> bool:
    """Whether any of ``plays`` (packed, sorted, as :meth:`ComboTable.hand_combos` lists a
    hand's) beats the packed ``table`` play: one of its size and stronger.

    >>> import parlour
    >>> t = parlour.new_game("big-two").table
    >>> def packed(cards: str) -> int: return t.classify(t.key_mask(parlour.parse_cards(cards)))
    >>> plays = t.hand_combos(t.key_mask(parlour.parse_cards("4D 4S 9C")))
    >>> can_beat(plays, packed("4C 4H")), can_beat(plays, packed("10C"))
    (True, False)
    """
    i = bisect_right(plays, table | MASK)
    return i < len(plays) and plays[i] >> SIZE_SHIFT == table >> SIZE_SHIFT


class ClimbingAction(Action):
    """A climbing-game play (its cards, lowest first in the variant's order) or ``pass``.

    Each variant has its own subclass, so a play of one variant is never taken for another's.
    Every play is made once per variant and shared; calling the type returns that shared object,
    and a value that is no play of the variant is refused, so no hand-made value can reach the
    engine:

    >>> import parlour
    >>> a = parlour.new_game("big-two").new_deal(seed=1).parse_action("3D 3S")
    >>> type(a)(int(a)) is a
    True
    >>> type(a)(12345)
    Traceback (most recent call last):
    ...
    parlour.errors.IllegalAction: 12345 is not a play of big-two: take actions from state.legal_actions() or state.parse_action(text)
    """

    __slots__ = ()
    table: ClassVar[ComboTable]

    def __new__(cls, value: object) -> ClimbingAction:
        table: ComboTable | None = cls.__dict__.get("table")  # the shared base has none
        play = None
        if table is not None and isinstance(value, int) and not isinstance(value, bool):
            play = table.known(int(value))
        if play is None:
            where = f"a play of {table.rules.name}" if table is not None else "a climbing play"
            raise IllegalAction(f"{value!r} is not {where}: take actions from "
                                "state.legal_actions() or state.parse_action(text)")
        return play

    def __str__(self) -> str:
        if self == PASS_VALUE:
            return "pass"
        return self.table.cards_text(int(self) & MASK)

    @property
    def cards(self) -> list[Card]:
        """The cards of the play, lowest first (empty for ``pass``)."""
        return self.table.cards(int(self) & MASK)

    @property
    def size(self) -> int:
        return int(self) >> SIZE_SHIFT

    @property
    def category(self) -> Category:
        """The kind of play: ``Category.SINGLE``, ``Category.PAIR`` … (``Category.PASS`` for a
        pass)."""
        if self == PASS_VALUE:
            return Category.PASS
        return self.table.category(int(self))

    def words(self) -> str:
        """The play as a player says it, with its cards where the words do not name them all.

        >>> import parlour
        >>> deal = parlour.new_game("big-two").new_deal(seed=1)
        >>> [deal.parse_action(t).words() for t in ("9S", "9C 9S", "4D 4C 4H 9C 9S", "pass")]
        ['the 9♠', 'the pair of 9s (9♣ 9♠)', 'a full house, three 4s and two 9s (4♦ 4♣ 4♥ 9♣ 9♠)', 'pass']
        >>> parlour.new_game("pusoy-dos").new_deal(seed=1).parse_action("AS 2D 3C 4C 5H").words()
        'a straight, A to 5 (3♣ 4♣ 5♥ A♠ 2♦)'
        """
        category = self.category
        if category is Category.PASS:
            return "pass"
        cards = self.cards
        if category is Category.SINGLE:
            return f"the {cards[0].symbol()}"
        return f"{self._kind_words(category, cards)} ({' '.join(c.symbol() for c in cards)})"

    def _kind_words(self, category: Category, cards: list[Card]) -> str:
        """A combination of two or more cards in words: "the pair of 9s", "a flush in hearts".
        """
        # The family's ranks (3 lowest, 2 highest) by how many of the play's cards have them,
        # most first, then the higher first.
        counts = Counter(_family_rank(card) for card in cards)
        ranks = sorted(counts, key=lambda r: (-counts[r], -r))
        word = [RANK_WORDS[r] for r in ranks]
        if category is Category.PAIR:
            return f"the pair of {word[0]}"
        if category is Category.TRIPLE:
            return f"three {word[0]}"
        if category is Category.FOUR_OF_A_KIND:
            return f"four {word[0]}"
        if category is Category.TWO_PAIR:
            return f"two pair, {word[0]} and {word[1]}"
        if category is Category.FULL_HOUSE:
            return f"a full house, three {word[0]} and two {word[1]}"
        if category is Category.FOUR_PLUS_ONE:
            kicker = next(c for c in cards if _family_rank(c) == ranks[1])
            return f"four {word[0]} and the {kicker.symbol()}"
        suit = SUIT_NAMES[cards[0].suit]
        if category is Category.FLUSH:
            return f"a flush in {suit}"
        # A straight's ranks as its window runs (A to 5 where straights wrap), not card order.
        window = next(w for w, _ in self.table.rules.windows if set(w) == set(counts))
        run = f"{RANKS[window[0]]} to {RANKS[window[-1]]}"
        if category is Category.STRAIGHT:
            return f"a straight, {run}"
        return f"a straight flush in {suit}, {run}"


def _family_rank(card: Card) -> int:
    """The card's rank in this family's order: 0 for a 3 … 12 for a 2."""
    return (card.rank + 12) % 13


class ComboTable:
    """The combinations of one variant's rules."""

    def __init__(self, rules: ClimbingRules) -> None:
        self.rules = rules
        order = [rules.suit_order.index(s) for s in "CDHS"]
        # global card index (rank 2..A, suit C D H S) <-> key bit (rank 3..2, variant suit order)
        self.to_key = [((g >> 2) + 12) % 13 * 4 + order[g & 3] for g in range(52)]
        self.from_key = [0] * 52
        for g, k in enumerate(self.to_key):
            self.from_key[k] = g
        self._text = [str(CARDS[self.from_key[k]]) for k in range(52)]
        self._to_global = bit_mover(self.from_key)
        self._to_key = bit_mover(self.to_key)
        #: The card indices from the lowest card to the highest in this variant (key order).
        self.card_order = tuple(self.from_key)
        self._card_set = CardSet.ordered(self.card_order)
        #: The categories of each play size, low to high.
        self.categories: dict[int, tuple[Category, ...]] = {1: (SINGLE,), 2: (PAIR,)}
        if rules.triples:
            self.categories[3] = (TRIPLE,)
        if rules.four_card_hands:
            self.categories[4] = (TWO_PAIR, FOUR)
        self.categories[5] = rules.five_card
        self._cat = {size: {name: i for i, name in enumerate(names)}
                     for size, names in self.categories.items()}
        self._windows = [(ranks, top, sum(1 << r for r in ranks)) for ranks, top in rules.windows]
        self.action_type: type[ClimbingAction] = type(
            "ClimbingAction", (ClimbingAction,), {"__slots__": (), "table": self}
        )
        #: The compiled table that lists plays (and plays deals, see the engine).
        self.core = ClimbingTable(
            card_order=list(self.from_key), triples=rules.triples, four_card_hands=rules.four_card_hands,
            five_card=[str(c) for c in rules.five_card],
            windows=[(rankset, top) for _, top, rankset in self._windows],
            flush_suit_first=rules.flush_suit_first, opening_single=rules.opening_single,
            scoring=rules.scoring, ends_at_first_out=rules.ends_at_first_out,
            next_player_leads_after_out=rules.control_after_out == "next-player",
            pass_only_if_no_legal_play=rules.pass_only_if_no_legal_play,
            placement_points=list(rules.placement_points))
        # Every possible play made once (~25,000) and shared: the engine hands out these objects.
        self._interned: dict[int, ClimbingAction] = {}
        self.PASS = self.action(PASS_VALUE)
        self.core.set_actions(self.PASS, [self.action(p) for p in self.core.all_plays()])

    # -- actions ---------------------------------------------------------------------------
    def action(self, packed: int) -> ClimbingAction:
        """The shared action object of a packed play."""
        a = self._interned.get(packed)
        if a is None:
            a = self._interned[packed] = int.__new__(self.action_type, packed)
        return a

    def known(self, packed: int) -> ClimbingAction | None:
        """The shared action of ``packed`` if it is a play (or the pass) of this variant."""
        return self._interned.get(packed)

    def cards(self, mask: int) -> list[Card]:
        out = []
        while mask:
            low = mask & -mask
            out.append(CARDS[self.from_key[low.bit_length() - 1]])
            mask ^= low
        return out

    def cards_text(self, mask: int) -> str:
        out = []
        while mask:
            low = mask & -mask
            out.append(self._text[low.bit_length() - 1])
            mask ^= low
        return " ".join(out)

    def key_mask(self, cards: list[Card]) -> int:
        m = 0
        for c in cards:
            m |= 1 << self.to_key[c]
        return m

    def key_of(self, global_mask: int) -> int:
        """The key-order mask of a card set (a global mask); the inverse of :meth:`global_mask`."""
        return self._to_key(int(global_mask))

    def global_mask(self, key_mask: int) -> int:
        """The card-index mask of a key-order mask (its cards only: strength bits are dropped)."""
        return self._to_global(key_mask)

    def card_set(self, key_mask: int) -> CardSet:
        """The cards of a key-order mask as a card set that lists them in this variant's order."""
        return int.__new__(self._card_set, self._to_global(key_mask))

    def card_set_of(self, global_mask: int) -> CardSet:
        """The cards of a card-index mask as a card set listed in this variant's order."""
        return int.__new__(self._card_set, global_mask)

    def category(self, packed: int) -> Category:
        size = packed >> SIZE_SHIFT
        return self.categories[size][(packed >> STRENGTH_SHIFT & STRENGTH_BITS) >> 6]

    def plays_text(self) -> str:
        """The play sizes and their categories, for messages: ``1 (single), 2 (pair), …``."""
        return ", ".join(f"{k} ({'/'.join(v)})" for k, v in self.categories.items())

    def _pack(self, size: int, category: Category, key: int, mask: int) -> int:
        return size << SIZE_SHIFT | (self._cat[size][category] << 6 | key) << STRENGTH_SHIFT | mask

    # -- classification ----------------------------------------------------------------------
    def classify(self, mask: int) -> int | None:
        """The packed play of a key-order card mask, or ``None`` if it is no valid combination."""
        size = mask.bit_count()
        if size not in self.categories or size == 0:
            return None
        top = mask.bit_length() - 1
        counts: dict[int, int] = {}
        m = mask
        while m:
            low = m & -m
            r = (low.bit_length() - 1) >> 2
            counts[r] = counts.get(r, 0) + 1
            m ^= low
        shape = sorted(counts.values(), reverse=True)
        if size == 1:
            return self._pack(1, SINGLE, top, mask)
        if size == 2:
            return self._pack(2, PAIR, top, mask) if shape == [2] else None
        if size == 3:
            return self._pack(3, TRIPLE, top, mask) if shape == [3] else None
        if size == 4:
            if shape == [4]:
                return self._pack(4, FOUR, top, mask)
            return self._pack(4, TWO_PAIR, top, mask) if shape == [2, 2] else None
        return self._classify_five(mask, counts, shape)

    def _classify_five(self, mask: int, counts: dict[int, int], shape: list[int]) -> int | None:
        fives = self.rules.five_card
        if shape == [3, 2]:
            triple = next(r for r, n in counts.items() if n == 3)
            return self._pack(5, FULL_HOUSE, triple * 4 + 3, mask)
        if shape == [4, 1]:
            if QUADS not in fives:
                return None
            quad = next(r for r, n in counts.items() if n == 4)
            return self._pack(5, QUADS, quad * 4 + 3, mask)
        if shape != [1, 1, 1, 1, 1]:
            return None
        suits = {i & 3 for i in range(52) if mask >> i & 1}
        ranks = sum(1 << r for r in counts)
        flush = len(suits) == 1
        for _, top, rankset in self._windows:
            if rankset == ranks:
                key = 4 * top + (mask >> 4 * top & 15).bit_length() - 1
                return self._pack(5, STRAIGHT_FLUSH if flush else STRAIGHT, key, mask)
        if flush:
            return self._pack(5, FLUSH, self._flush_key(mask), mask)
        return None

    def _flush_key(self, mask: int) -> int:
        top = mask.bit_length() - 1
        if self.rules.flush_suit_first:
            return (top & 3) * 13 + (top >> 2)
        return top

    # -- every combination of a hand ------------------------------------------------------------
    def hand_combos(self, hand: int) -> list[ClimbingAction]:
        """Every valid play in ``hand`` (key order), sorted by packed value."""
        return self.core.hand_plays(int(hand) & MASK)

    def five_card_cards(self, hand: int) -> int:
        """The cards of ``hand`` (key order) that belong to some five-card play of it: the
        union of the five-card plays :meth:`hand_combos` lists, found without listing them.

        >>> import parlour
        >>> t = parlour.new_game("big-two").table
        >>> hand = t.key_mask(parlour.parse_cards("3D 4C 5H 6S 7D 9C 9H KS"))
        >>> t.cards_text(t.five_card_cards(hand))
        '3D 4C 5H 6S 7D'
        """
        return self.core.five_card_cards(int(hand) & MASK)

    # -- explanations ---------------------------------------------------------------------------
    def why_not_beating(self, play: int, table: int) -> str:
        """Why ``play`` does not beat ``table`` (both packed, same size, play not stronger)."""
        new, old = self.cards_text(play & MASK), self.cards_text(table & MASK)
        cn, co = self.category(play), self.category(table)
        head = f"{new} does not beat {old}: "
        if cn != co:
            return head + f"a {cn} is below a {co}"
        kn, ko = play >> STRENGTH_SHIFT & 63, table >> STRENGTH_SHIFT & 63
        if cn in (TRIPLE, FULL_HOUSE, QUADS, FOUR):
            return head + f"{RANK_WORDS[kn >> 2]} are below {RANK_WORDS[ko >> 2]}"
        if cn == FLUSH and self.rules.flush_suit_first:
            sn, so = kn // 13, ko // 13
            if sn != so:
                return head + (f"flushes compare by suit first, and {self._suit_word(sn)} are "
                               f"below {self._suit_word(so)}")
            return head + f"its top card is below {self._text[ko % 13 * 4 + so]}"
        rn, ro = kn >> 2, ko >> 2
        what = "" if cn == SINGLE else "its top card "
        if rn != ro:
            return head + f"{what}{RANKS[rn]} is below {RANKS[ro]}"
        return head + (f"{what}{self._text[kn]} is below {self._text[ko]}: "
                       f"{self._suit_word(kn & 3)} are below {self._suit_word(ko & 3)}"
                       if what else
                       f"{self._suit_word(kn & 3)} are below {self._suit_word(ko & 3)}")

    def _suit_word(self, key_suit: int) -> str:
        return SUIT_NAMES["CDHS".index(self.rules.suit_order[key_suit])]
