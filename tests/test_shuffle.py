"""The compiled shuffle deals exactly what ``random.Random(seed).shuffle`` did: every seed
(negative, 0, past 64 bits) keeps meaning the same deal."""

from __future__ import annotations

import random

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour._core import shuffle
from parlour.game import shuffled_deck

seeds = st.one_of(st.integers(), st.integers(-(2**64), 2**64), st.integers(-(2**300), 2**300),
                  st.sampled_from([0, 1, -1, 2**32 - 1, 2**32, 2**63, -(2**63), 2**64 - 1, 2**64]))


@given(seed=seeds, n=st.integers(0, 60))
def test_the_compiled_shuffle_is_pythons(seed: int, n: int) -> None:
    ours, theirs = list(range(n)), list(range(n))
    shuffle(seed, ours)
    random.Random(seed).shuffle(theirs)
    assert ours == theirs


@given(seed=seeds, items=st.lists(st.one_of(st.integers(), st.text(max_size=3), st.none()),
                                  max_size=60))
def test_it_moves_any_objects(seed: int, items: list[object]) -> None:
    ours, theirs = list(items), list(items)
    shuffle(seed, ours)
    random.Random(seed).shuffle(theirs)
    assert ours == theirs
    assert all(a is b for a, b in zip(ours, theirs, strict=True))


@given(seed=seeds)
def test_the_deck_is_the_one_python_shuffled(seed: int) -> None:
    from parlour.cards import Card
    deck = [Card(i) for i in range(52)]
    random.Random(seed).shuffle(deck)
    assert shuffled_deck(seed) == deck


@pytest.mark.parametrize("seed", ["1", 1.0, None, b"1", [1]])
def test_only_an_int_seeds_it(seed: object) -> None:
    with pytest.raises(TypeError):
        shuffle(seed, [1, 2, 3])  # type: ignore[arg-type]


def test_it_takes_only_a_list() -> None:
    with pytest.raises(TypeError):
        shuffle(1, (1, 2, 3))  # type: ignore[arg-type]
