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
    deals: int = option(10, "the deals in a match", label="Number of deals", min=1, max=1000)


@dataclass(frozen=True)
class BigTwoOptions:
    allow_triples: bool = option(
        False, "three cards of one rank may be played on their own, beaten by a higher three",
        label="Allow three of a kind")
    straights: str = option(
        "standard", "which five ranks in a row count as a straight: standard runs from "
        "3-4-5-6-7 up to J-Q-K-A-2 without wrapping round; Hong Kong makes A-2-3-4-5 and "
        "2-3-4-5-6 the two lowest and has no J-Q-K-A-2",
        label="Straights", choices={"standard": "standard", "hong-kong": "Hong Kong"})
    flush_order: str = option(
        "suit-first", "the higher of two flushes is the one in the higher suit (in the same "
        "suit, the one with the higher top card), or the one with the higher top card",
        label="Flushes compare",
        choices={"suit-first": "by suit first", "top-card": "by top card"})
    pass_only_if_no_legal_play: bool = option(
        False, "a player may pass only when nothing in their hand beats the play on the table",
        label="Pass only when unable to beat")
    match_end: str = option(
        "penalty-limit", "after the deal in which someone's penalty points reach the penalty "
        "limit (the lowest total wins), or after a fixed number of deals",
        label="Match ends",
        choices={"penalty-limit": "at the penalty limit", "deals": "after a number of deals"})
    penalty_limit: int = option(
        50, "the penalty points that end the match once someone has them", label="Penalty limit",
        min=1, max=10000, applies_when={"match_end": ("penalty-limit",)})
    deals: int = option(10, "the deals in a match", label="Number of deals", min=1, max=1000,
                        applies_when={"match_end": ("deals",)})


@dataclass(frozen=True)
class PusoyDosOptions:
    straights: str = option(
        "seed", "which five ranks in a row count as a straight: usually 3-4-5-6-7 up to "
        "J-Q-K-A-2, and A-2-3-4-5 and 2-3-4-5-6, the three with a 2 ranking highest by the "
        "suit of their 2; all wraps adds K-A-2-3-4 and Q-K-A-2-3; Hong Kong makes A-2-3-4-5 "
        "and 2-3-4-5-6 the two lowest and has no J-Q-K-A-2",
        label="Straights",
        choices={"seed": "usual: A-2-3-4-5 and 2-3-4-5-6 rank high",
                 "all-wraps": "all wraps: also K-A-2-3-4 and Q-K-A-2-3",
                 "hong-kong": "Hong Kong: A-2-3-4-5 and 2-3-4-5-6 lowest"})
    control_after_out: str = option(
        "next-player", "the next player leads at once (as in the original game), or the others "
        "may still beat the play that went out (as in Big Two)",
        label="When a player goes out",
        choices={"next-player": "the next player leads",
                 "standard": "the others may still beat the last play"},
        applies_when={"scoring": ("placement",)})
    next_leader: str = option(
        "3C", "the holder of the 3♣, with a play including it, or the winner of the deal "
        "before, leading freely",
        label="Later deals are started by",
        choices={"3C": "the holder of the 3♣", "winner": "the winner of the deal before"})
    scoring: str = option(
        "placement", "by place, 3, 2, 1 and 0 points from first to last; or with card "
        "penalties: the deal ends when the first player goes out and the others score penalty "
        "points for the cards they hold, as in Big Two",
        label="Scoring",
        choices={"placement": "by place (3, 2, 1, 0)",
                 "penalty": "card penalties, as in Big Two"})
    deals: int = option(10, "the deals in a match", label="Number of deals", min=1, max=1000)


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

