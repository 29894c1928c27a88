"""The climbing games as data: one :class:`ClimbingRules` per variant, built from its options.

Everything the engine does differently between ``big-two-4card``, ``big-two`` and ``pusoy-dos``
is a field here (RULES.md sections 1, 2 and 4), so the engine has no per-variant branches.

Cards inside the engine live in *key order*: bit ``4 * r + s`` where ``r`` is the climbing rank
(3 = 0 … A = 11, 2 = 12) and ``s`` the suit's place in the variant's suit order. The lowest card
of the deck (3D or 3C) is bit 0 and a card's bit index is its single-card strength.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from parlour.cards import RANK_PLURALS, SUIT_TEXT
from parlour.registry import option

#: Climbing ranks, low to high.
RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")
#: The ranks' plurals in this family's order, 3 to 2 ("the pair of 9s").
RANK_WORDS = RANK_PLURALS[1:] + RANK_PLURALS[:1]



class Category(StrEnum):
    """The kind of a play (``ClimbingAction.category``); each is also its own text.

    Which categories a variant has, and how the 5-card ones rank, is in its
    ``ClimbingRules.five_card`` and :attr:`.ComboTable.categories`:

    >>> import parlour
    >>> play = parlour.new_game("pusoy-dos").new_deal(seed=1).parse_action("9C 9S 9H 9D 3S")
    >>> play.category is Category.FOUR_PLUS_ONE, str(play.category)
    (True, 'four of a kind with a kicker')
    """

    PASS = "pass"  # not a combination: the category of the pass action
    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "three of a kind"
    TWO_PAIR = "two pair"  # a 4-card play in big-two-4card
    FOUR_OF_A_KIND = "four of a kind"  # four cards alone: a 4-card play in big-two-4card
    STRAIGHT = "straight"
    FLUSH = "flush"
    FULL_HOUSE = "full house"
    FOUR_PLUS_ONE = "four of a kind with a kicker"  # a 5-card play in big-two and pusoy-dos
    STRAIGHT_FLUSH = "straight flush"


#: A straight window: its five ranks and the rank whose card decides its strength.
Window = tuple[tuple[int, ...], int]


def _runs(lows: range) -> tuple[Window, ...]:
    return tuple((tuple(range(lo, lo + 5)), lo + 4) for lo in lows)


A, TWO = 11, 12
# 3-4-5-6-7 … J-Q-K-A-2: nine windows, no wrap (RULES.md 1.2, 2.2).
STANDARD_WINDOWS = _runs(range(0, 9))
# Hong Kong: A-2-3-4-5 and 2-3-4-5-6 are the lowest, topped by their 5 and 6; no J-Q-K-A-2.
HONG_KONG_WINDOWS = (((A, TWO, 0, 1, 2), 2), ((TWO, 0, 1, 2, 3), 3), *_runs(range(0, 8)))
# Pusoy Dos seed (D1): the two named wraps count, and like J-Q-K-A-2 they are "2-high".
PUSOY_WINDOWS = (*STANDARD_WINDOWS, ((A, TWO, 0, 1, 2), TWO), ((TWO, 0, 1, 2, 3), TWO))
ALL_WRAP_WINDOWS = (*PUSOY_WINDOWS, ((10, A, TWO, 0, 1), TWO), ((9, 10, A, TWO, 0), TWO))

WINDOWS = {
    "standard": STANDARD_WINDOWS,
    "hong-kong": HONG_KONG_WINDOWS,
    "seed": PUSOY_WINDOWS,
    "all-wraps": ALL_WRAP_WINDOWS,
}


@dataclass(frozen=True)
class ClimbingRules:
    """Everything that varies between the climbing variants."""

    name: str  # the variant's name, for messages
    suit_order: str  # suit letters, low to high
    triples: bool
    four_card_hands: bool  # two pair and four of a kind as 4-card plays (big-two-4card)
    five_card: tuple[Category, ...]  # 5-card categories, low to high
    windows: tuple[Window, ...]
    flush_suit_first: bool
    opening_single: bool  # the lowest card must be played alone (big-two-4card)
    scoring: str  # "count" (zero-sum), "penalty" (1/2/3 per card) or "placement"
    ends_at_first_out: bool
    control_after_out: str  # "next-player" (seed) or "standard"
    pass_only_if_no_legal_play: bool = False
    placement_points: tuple[int, ...] = (3, 2, 1, 0)

    def suit_index(self, suit: int) -> int:
        """The place of a global suit (0 = C … 3 = S) in this variant's order."""
        return self.suit_order.index(SUIT_TEXT[suit])

    @property
    def lowest_card_text(self) -> str:
        return "3" + self.suit_order[0]

    @property
    def opening_text(self) -> str:
        """The opening rule in words, as the table states it while the first play is due."""
        if self.opening_single:
            return f"the first play is {self.lowest_card_text}, played alone"
        return f"the first play must include {self.lowest_card_text}"


# -- options -----------------------------------------------------------------------------------

@dataclass(frozen=True)
class BigTwo4CardOptions:
    deals: int = option(10, "number of deals in a match", min=1, max=1000)


@dataclass(frozen=True)
class BigTwoOptions:
    allow_triples: bool = option(False, "allow three of a kind as a 3-card play")
    straights: str = option("standard", "straight windows: 'standard' (3-7 … J-2, no wrap) or "
                            "'hong-kong' (A-5 and 2-6 lowest, no J-2)",
                            choices=("standard", "hong-kong"))
    flush_order: str = option("suit-first", "compare flushes by suit first, or by top card",
                              choices=("suit-first", "top-card"))
    pass_only_if_no_legal_play: bool = option(False, "a player may pass only when unable to beat")
    match_end: str = option("penalty-limit", "end a match when someone's penalties reach the "
                            "limit, or after a fixed number of deals",
                            choices=("penalty-limit", "deals"))
    penalty_limit: int = option(50, "penalty total that ends the match", min=1, max=10000)
    deals: int = option(10, "number of deals when match_end is 'deals'", min=1, max=1000)


@dataclass(frozen=True)
class PusoyDosOptions:
    straights: str = option("seed", "straight windows: 'seed' (A-5 and 2-6 wrap, ranked by the 2), "
                            "'all-wraps' (also K-4 and Q-3) or 'hong-kong' (A-5, 2-6 lowest)",
                            choices=("seed", "all-wraps", "hong-kong"))
    control_after_out: str = option("next-player", "when a player goes out: the next player "
                                    "leads at once (as in the original game), or the others "
                                    "may still beat the last play (as in Big Two)",
                                    choices=("next-player", "standard"))
    next_leader: str = option("3C", "who opens later deals of a match: the 3C holder, or the "
                              "previous first place leading freely", choices=("3C", "winner"))
    scoring: str = option("placement", "deal score: placement points 3/2/1/0, or Big Two card "
                          "penalties when the first player goes out", choices=("placement", "penalty"))
    deals: int = option(10, "number of deals in a match", min=1, max=1000)


BIG_TWO_FIVES = (Category.STRAIGHT, Category.FLUSH, Category.FULL_HOUSE, Category.FOUR_PLUS_ONE,
                 Category.STRAIGHT_FLUSH)


def big_two_4card_rules(o: BigTwo4CardOptions) -> ClimbingRules:
    return ClimbingRules(
        name="big-two-4card", suit_order="DCHS", triples=True, four_card_hands=True,
        five_card=(Category.STRAIGHT, Category.FLUSH, Category.FULL_HOUSE, Category.STRAIGHT_FLUSH),
        windows=STANDARD_WINDOWS,
        flush_suit_first=False, opening_single=True, scoring="count", ends_at_first_out=True,
        control_after_out="next-player",
    )


def big_two_rules(o: BigTwoOptions) -> ClimbingRules:
    return ClimbingRules(
        name="big-two", suit_order="DCHS", triples=o.allow_triples, four_card_hands=False,
        five_card=BIG_TWO_FIVES, windows=WINDOWS[o.straights],
        flush_suit_first=o.flush_order == "suit-first", opening_single=False, scoring="penalty",
        ends_at_first_out=True, control_after_out="next-player",
        pass_only_if_no_legal_play=o.pass_only_if_no_legal_play,
    )


def pusoy_dos_rules(o: PusoyDosOptions) -> ClimbingRules:
    return ClimbingRules(
        name="pusoy-dos", suit_order="CSHD", triples=True, four_card_hands=False,
        five_card=BIG_TWO_FIVES, windows=WINDOWS[o.straights], flush_suit_first=True, opening_single=False,
        scoring=o.scoring, ends_at_first_out=o.scoring == "penalty",
        control_after_out=o.control_after_out,
    )

