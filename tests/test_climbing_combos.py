"""The climbing games' combination table: generation, classification and ordering."""

from __future__ import annotations

import itertools
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.games.climbing.combos import MASK, SIZE_SHIFT

RULESETS = [
    ("big-two-4card", {}),
    ("big-two", {}),
    ("big-two", {"allow_triples": True, "straights": "hong-kong", "flush_order": "top-card"}),
    ("pusoy-dos", {}),
    ("pusoy-dos", {"straights": "all-wraps"}),
    ("pusoy-dos", {"straights": "hong-kong"}),
]

# Hands drawn from two suits only make flushes and straight flushes common.
two_suit_hands = st.lists(st.integers(0, 25), min_size=13, max_size=13, unique=True).map(
    lambda ks: [k // 2 * 4 + k % 2 for k in ks])
any_hands = st.lists(st.integers(0, 51), min_size=13, max_size=13, unique=True)


@pytest.mark.parametrize(("name", "options"), RULESETS)
@settings(max_examples=25, deadline=None)
@given(keys=st.one_of(two_suit_hands, any_hands))
def test_hand_plays_are_exactly_the_valid_subsets(name: str, options: dict[str, object],
                                                  keys: list[int]) -> None:
    table = parlour.new_game(name, **options).table
    hand = sum(1 << k for k in keys)
    generated = [int(a) for a in table.hand_combos(hand)]
    brute = set()
    for size in range(1, 6):
        for sub in combinations(keys, size):
            packed = table.classify(sum(1 << k for k in sub))
            if packed is not None:
                brute.add(packed)
    assert generated == sorted(brute)


@pytest.mark.parametrize(("name", "options"), RULESETS)
@settings(max_examples=60, deadline=None)
@given(keys=st.one_of(two_suit_hands, any_hands).flatmap(
    lambda ks: st.integers(0, 13).map(lambda n: ks[:n])))
def test_five_card_cards_are_the_cards_of_the_hands_five_card_plays(
        name: str, options: dict[str, object], keys: list[int]) -> None:
    table = parlour.new_game(name, **options).table
    hand = sum(1 << k for k in keys)
    union = 0
    for a in table.hand_combos(hand):
        if a >> SIZE_SHIFT == 5:
            union |= a & MASK
    assert table.five_card_cards(hand) == union


@pytest.mark.parametrize(("name", "options"), RULESETS)
def test_five_card_categories_rank_in_the_declared_order(name: str,
                                                          options: dict[str, object]) -> None:
    game = parlour.new_game(name, **options)
    table = game.table
    hand = (1 << 52) - 1
    fives = [a for a in table.hand_combos(hand) if a >> SIZE_SHIFT == 5]
    order = game.rules.five_card
    by_category: dict[str, list[int]] = {}
    for a in fives:
        by_category.setdefault(a.category, []).append(a)
    assert list(by_category) == list(order)  # sorted plays meet the categories low to high
    for low, high in itertools.pairwise(order):
        assert max(by_category[low]) < min(by_category[high])


def test_classify_agrees_with_the_cards_of_each_play() -> None:
    table = parlour.new_game("pusoy-dos").table
    for a in table.hand_combos(table.key_mask(list(parlour.CardSet.parse(
            "3C 4D 5H 6S 7C 7D 7H AC 2D 2S 9C 9S 9D")))):
        assert table.classify(int(a) & MASK) == int(a)
        assert str(a) == " ".join(str(c) for c in a.cards)
