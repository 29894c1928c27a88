"""Card notation, parsing errors and the bitmask card set."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from parlour.cards import CARDS, Card, CardError, CardSet, cards_text, parse_card, parse_cards


def test_canonical_text_of_every_card_round_trips() -> None:
    assert [str(c) for c in CARDS[:5]] == ["2C", "2D", "2H", "2S", "3C"]
    for card in CARDS:
        assert parse_card(str(card)) is card


@pytest.mark.parametrize(("text", "canonical"), [
    ("10h", "10H"), ("TH", "10H"), ("th", "10H"), ("q♠", "QS"), ("A♥", "AH"), ("2♦", "2D"),
    ("k♣", "KC"), (" 3d ", "3D"), ("jS", "JS"),
])
def test_input_accepts_ten_as_t_lower_case_and_suit_symbols(text: str, canonical: str) -> None:
    assert str(parse_card(text)) == canonical


@pytest.mark.parametrize("bad", ["1H", "11C", "10X", "Z", "", "AH2", "0S"])
def test_bad_card_is_refused_naming_the_token(bad: str) -> None:
    with pytest.raises(CardError) as e:
        parse_card(bad)
    assert repr(bad.strip())[1:-1] in str(e.value)


def test_parse_cards_names_the_bad_token() -> None:
    with pytest.raises(CardError, match="'1H'"):
        parse_cards("3C 1H")
    assert parse_cards("3c, 10d  AS") == [Card.parse("3C"), Card.parse("10D"), Card.parse("AS")]


def test_card_attributes() -> None:
    c = Card.parse("QS")
    assert (c.rank, c.suit, c.name()) == (10, 3, "queen of spades")
    assert Card(int(c)) is c
    with pytest.raises(CardError):
        Card(52)


@given(st.sets(st.integers(0, 51)), st.sets(st.integers(0, 51)))
def test_card_set_behaves_like_a_set(a: set[int], b: set[int]) -> None:
    sa, sb = CardSet.from_cards(a), CardSet.from_cards(b)
    assert {int(c) for c in sa} == a
    assert len(sa) == len(a)
    assert {int(c) for c in sa | sb} == a | b
    assert {int(c) for c in sa & sb} == a & b
    assert {int(c) for c in sa - sb} == a - b
    assert all(Card(i) in sa for i in a)
    assert CardSet.parse(str(sa)) == sa


def test_cards_text_keeps_the_given_order() -> None:
    assert cards_text(parse_cards("AS 3D 10C")) == "AS 3D 10C"
    assert str(CardSet.parse("AS 3D 10C")) == "3D 10C AS"
