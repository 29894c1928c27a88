"""Card notation, parsing errors and the bitmask card set."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

import parlour
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


# -- ordered card sets ------------------------------------------------------------------------

TWOS_HIGH = [*range(4, 52), *range(4)]  # Big Two's rank order: 3 lowest, 2 highest
orders = st.permutations(range(52))
masks = st.integers(0, (1 << 52) - 1)


@given(orders, masks, masks)
def test_ordered_sets_list_their_cards_in_their_order_through_every_operator(
        order: list[int], a: int, b: int) -> None:
    kind = CardSet.ordered(order)
    x, y = kind(a), kind(b)
    rank = {index: place for place, index in enumerate(order)}
    for result, expected in [(x | y, a | b), (x & y, a & b), (x - y, a & ~b), (x ^ y, a ^ b),
                             (x | CardSet(b), a | b), (kind.from_cards(CardSet(a)), a)]:
        assert type(result) is kind
        assert result == expected
        listed = [int(c) for c in result]
        assert listed == sorted(listed, key=rank.__getitem__)
        assert str(result) == cards_text(result)
    assert type(CardSet(a) | x) is CardSet  # the left operand's type, as documented


@given(orders, masks)
def test_ordered_sets_equal_plain_sets_with_the_same_cards(order: list[int], mask: int) -> None:
    ordered, plain = CardSet.ordered(order)(mask), CardSet(mask)
    assert ordered == plain and hash(ordered) == hash(plain)
    assert {ordered} == {plain}
    assert set(ordered) == set(plain) and len(ordered) == len(plain)
    assert CardSet.parse(str(ordered)) == ordered


def test_one_type_per_order() -> None:
    kind = CardSet.ordered(TWOS_HIGH)
    assert CardSet.ordered(tuple(TWOS_HIGH)) is kind
    assert CardSet.ordered([CARDS[i] for i in TWOS_HIGH]) is kind  # cards are indices too
    assert CardSet.ordered(range(52)) is not kind
    assert kind.order == tuple(TWOS_HIGH) and CardSet.order is None


@given(st.one_of(st.none(), orders), masks)
def test_card_sets_pickle_with_their_order(order: list[int] | None, mask: int) -> None:
    kind = CardSet if order is None else CardSet.ordered(order)
    cards = kind(mask)
    again = pickle.loads(pickle.dumps(cards))
    assert type(again) is kind
    assert again == cards and list(again) == list(cards)


@pytest.mark.parametrize("order", [
    list(range(51)),                     # one missing
    [*range(51), 50],                    # one twice
    [*range(1, 52), 52],                 # not a card index
    [*range(51), -1],
    [float(i) for i in range(52)],       # floats are not indices, even whole ones
    [str(i) for i in range(52)],
    [[i] for i in range(52)],
    "0123456789",
    None,
    52,
])
def test_bad_card_orders_are_refused(order: object) -> None:
    with pytest.raises(CardError, match="52 card indices"):
        CardSet.ordered(order)  # type: ignore[arg-type]


def test_game_card_sets_are_ordered_by_the_game() -> None:
    game = parlour.new_game("big-two")
    hand = game.card_set(parse_cards("2S 3D AS 10C"))
    assert hand == CardSet.parse("2S 3D AS 10C")
    assert [int(c) for c in hand] == sorted(map(int, hand), key=list(game.card_order()).index)
    assert game.card_set(int(hand)) == hand and type(game.card_set(int(hand))) is type(hand)


# -- parse_cards refusals ---------------------------------------------------------------------


@pytest.mark.parametrize(("value", "named"), [
    (None, "None"),
    (52, "52"),
    (3.0, "3.0"),
    (b"3D 4D", "b'3D 4D'"),
    (bytearray(b"3D"), "bytearray"),
    (["3D", None], "None"),
    (["3D", True], "True"),
    (["3D", 2.0], "2.0"),
    (["3D", ["4D"]], "['4D']"),
    (["3D", b"4D"], "b'4D'"),
    ([3, 52], "52"),
    ([-1], "-1"),
    ("3D 4X", "4X"),
    (["3D", "4D 5D"], "4D 5D"),
])
def test_parse_cards_refuses_what_is_not_cards_naming_it(value: object, named: str) -> None:
    with pytest.raises(CardError) as e:
        parse_cards(value)  # type: ignore[arg-type]
    assert named in str(e.value)


@pytest.mark.parametrize("value", [None, 10, 1.5, b"10H", ["10H"]])
def test_parse_card_refuses_what_is_not_text(value: object) -> None:
    with pytest.raises(CardError, match="expected the text of a card"):
        parse_card(value)  # type: ignore[arg-type]


def test_parse_cards_takes_cards_indices_and_text_alike() -> None:
    expected = [Card.parse("3D"), Card.parse("10H"), Card.parse("AS")]
    for value in ("3d, th A♠", ["3D", "10H", "AS"], expected, [int(c) for c in expected],
                  (c for c in expected), CardSet.from_cards(expected)):
        assert sorted(parse_cards(value)) == expected  # type: ignore[arg-type]
