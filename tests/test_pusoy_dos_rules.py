"""RULES.md 4.4: every given/then case of pusoy-dos (Game 003), one test each.

Seats: the cases in RULES.md 4.4 name the players P1..P4. Here P1 is seat 0, P2 seat 1,
P3 seat 2 and P4 seat 3 (turn order is increasing seat index, so "P1, P2, P3, P4" is the
order of play).

"Given table play X" positions are composed: seat 0 holds X (plus a spare card, so it is still in
the deal after playing X) and leads freely, seat 1 holds the answer Y (plus a spare), seats 2 and
3 hold a spare card each, and every other card is out of play. Suits rank C < S < H < D.
"""

from __future__ import annotations

import random

import pytest

import parlour
from climbing_positions import (
    DECK,
    PASS,
    after_lead,
    assert_refusals_change_nothing,
    beats,
    full_hands,
    lead_position,
    legal,
    names,
    position,
    refusal,
)
from parlour import IllegalAction
from parlour.bots import make_bot

GAME = parlour.new_game("pusoy-dos")
RANKS = ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2")


def category(cards: str, game=GAME) -> str:
    """The category of ``cards`` as a lead (and check the holder is offered it)."""
    state = lead_position(game, cards)
    action = state.parse_action(cards)
    assert action in state.legal_actions()
    return action.category


def invalid(cards: str, game=GAME) -> bool:
    """Whether ``cards`` form no combination: parsing refuses it and no lead offers it."""
    state = lead_position(game, cards)
    try:
        state.parse_action(cards)
    except IllegalAction as err:
        assert "not a valid combination" in str(err)
        assert not [a for a in state.legal_actions() if a.size == len(names(cards))]
        return True
    return False


# -- RULES.md 4.4 --------------------------------------------------------------------------------


def test_4_4_01_three_of_clubs_holder_opens_and_must_include_it():
    hands = full_hands({2: "3C 3D 3S 3H 4D 5H 6S 7C"})
    state = GAME.new_deal(hands=hands)
    assert state.current_player == 2
    openings = legal(state)
    for play in ("3C", "3C 3D", "3C 3S 3H", "3C 4D 5H 6S 7C"):
        assert str(state.parse_action(play)) in openings
    assert all("3C" in play.split() for play in openings)
    assert "3S" not in openings and PASS not in openings
    with pytest.raises(IllegalAction, match="must include 3C"):
        state.apply("3S")
    with pytest.raises(IllegalAction, match="passing is not allowed"):
        state.apply(PASS)
    for play in ("3C", "3C 3D", "3C 3S 3H", "3C 4D 5H 6S 7C"):
        trial = GAME.new_deal(hands=hands)
        trial.apply(play)
        assert trial.history == [(2, trial.parse_action(play))]
        assert trial.current_player == 3


@pytest.mark.parametrize(("high", "low"), [
    ("7H", "3H"), ("10H", "10C"), ("2D", "2H"), ("2H", "2S"), ("2S", "2C"), ("2C", "AD"),
])
def test_4_4_02_single_card_order(high, low):
    assert beats(GAME, low, high)
    assert not beats(GAME, high, low)


def test_4_4_03_pairs_compare_rank_then_the_higher_suit():
    assert beats(GAME, "3H 3S", "3D 3C")
    assert not beats(GAME, "3D 3C", "3H 3S")
    assert beats(GAME, "5S 5C", "10H 10D")


def test_4_4_04_three_of_a_kind_by_rank():
    assert beats(GAME, "3C 3D 3S", "7C 7D 7H")
    assert not beats(GAME, "7C 7D 7H", "3C 3D 3S")


@pytest.mark.parametrize("cards", [
    "3C 4D 5H 6S 7C", "AC 2D 3H 4S 5C", "2C 3D 4H 5S 6C", "JC QD KH AS 2C",
])
def test_4_4_05_valid_straights(cards):
    assert category(cards) == "straight"


@pytest.mark.parametrize("cards", ["KC AD 2H 3S 4C", "QC KD AH 2S 3C"])
def test_4_4_05_other_wraps_are_not_straights(cards):
    assert invalid(cards)
    # They are valid only under the all-wraps option.
    assert category(cards, game=parlour.new_game("pusoy-dos", straights="all-wraps")) == "straight"


def test_4_4_06_ace_to_five_is_two_high_and_beats_an_ace_high_straight():
    assert beats(GAME, "10D JD QH KS AD", "AC 2D 3H 4S 5C")
    assert not beats(GAME, "AC 2D 3H 4S 5C", "10D JD QH KS AD")


def test_4_4_07_two_high_straights_rank_by_the_suit_of_the_two():
    assert beats(GAME, "AC 2H 3D 4S 5C", "2D 3C 4C 5D 6S")
    assert not beats(GAME, "AC 2H 3D 4S 5C", "2S 3C 4D 5H 6C")


def test_4_4_08_ace_to_five_can_beat_jack_to_two():
    assert beats(GAME, "JC QD KH AS 2C", "AD 2S 3H 4C 5D")


def test_4_4_09_every_higher_straight_beats_three_to_seven():
    table = "3C 4D 5H 6S 7C"
    assert beats(GAME, table, "3D 4C 5C 6C 7D")
    taken = set(names(table))
    windows = [tuple(range(lo, lo + 5)) for lo in range(1, 9)] + [(11, 12, 0, 1, 2),
                                                                  (12, 0, 1, 2, 3)]
    assert len(windows) == 10  # with 3-4-5-6-7, the 11 windows of the seed
    for window in windows:
        cards = []
        for i, r in enumerate(window):
            choices = [RANKS[r] + s for s in "DHSC" if RANKS[r] + s not in taken]
            cards.append(choices[1] if i == 0 else choices[0])  # never all one suit
        answer = " ".join(cards)
        assert category(answer) == "straight"
        assert beats(GAME, table, answer), answer


def test_4_4_10_flushes_compare_suit_first():
    assert beats(GAME, "KH 9H 7H 5H 3H", "3D 5D 7D 9D JD")
    assert not beats(GAME, "3D 5D 7D 9D JD", "KH 9H 7H 5H 3H")
    assert beats(GAME, "2S 10S 8S 6S 4S", "3H 5H 7H 9H JH")


def test_4_4_11_flushes_of_one_suit_compare_the_top_card():
    assert beats(GAME, "QS JS 10S 8S 6S", "KS 9S 7S 5S 3S")
    assert not beats(GAME, "KS 9S 7S 5S 3S", "QS JS 10S 8S 6S")


def test_4_4_12_full_house_by_the_triple():
    assert beats(GAME, "6S 6H 6D AC AD", "7C 7D 7H 3C 3D")
    assert not beats(GAME, "7C 7D 7H 3C 3D", "6S 6H 6D AC AD")


def test_4_4_13_quads_with_a_kicker_beat_full_house_and_need_the_kicker():
    assert beats(GAME, "2C 2S 2H AC AD", "9C 9S 9H 9D 3S")
    assert category("9C 9S 9H 9D 3S") == "four of a kind with a kicker"
    assert invalid("9C 9S 9H 9D")


def test_4_4_14_straight_flush_beats_quads():
    assert category("3S 4S 5S 6S 7S") == "straight flush"
    assert beats(GAME, "QC QS QH QD 3C", "3S 4S 5S 6S 7S")
    assert not beats(GAME, "3S 4S 5S 6S 7S", "QC QS QH QD 3C")


def test_4_4_15_three_passes_give_control_and_control_cannot_pass():
    state = position(GAME, ["8C 4C 4S", "9H KD", "JC 3H", "QS 5D"], leader=0)
    state.apply("8C")
    for seat in (1, 2, 3):
        assert state.current_player == seat
        state.apply(PASS)
    assert state.current_player == 0
    assert state.observation(0).table is None
    assert PASS not in legal(state)
    with pytest.raises(IllegalAction, match="control and must lead"):
        state.apply(PASS)


def test_4_4_16_going_out_passes_control_to_the_next_active_player():
    state = position(GAME, ["5C 9C", "2D", "4C 4S 8C", "6S 6H JD"], leader=0)
    state.apply("5C")
    state.apply("2D")  # P2's last card
    assert state.placements == [1]
    assert not state.is_over
    assert state.current_player == 2
    assert state.observation(2).table is None  # nobody gets to beat the 2D
    assert "4C 4S" in legal(state) and PASS not in legal(state)
    state.apply("4S 4C")
    state.apply("6S 6H")  # P4
    state.apply(PASS)  # P1
    assert state.current_player == 2  # P2 is skipped
    assert all(seat != 1 for seat, _ in state.history[2:])


def test_4_4_17_two_passes_suffice_with_three_active_players():
    state = position(GAME, ["5C 9C", "4C", "9H 10C", "JD KS"], leader=1)
    state.apply("4C")  # P2 goes out
    assert state.placements == [1] and state.current_player == 2
    state.apply("9H")
    state.apply(PASS)  # P4
    state.apply(PASS)  # P1
    assert state.current_player == 2
    assert state.observation(2).table is None
    assert PASS not in legal(state)


def test_4_4_18_the_deal_ends_when_one_player_still_holds_cards():
    state = position(GAME, ["6C", "4C", "5S 8D 9D", "7H"], leader=1)
    state.apply("4C")  # P2 out, 1st
    assert state.current_player == 2
    state.apply("5S")
    state.apply("7H")  # P4 out, 2nd
    assert state.current_player == 0  # next active after P4
    assert state.observation(0).table is None
    state.apply("6C")  # P1 out, 3rd
    assert state.is_over
    assert state.placements == [1, 3, 0, 2]
    assert state.legal_actions() == []
    assert state.returns() == [1.0, 3.0, 0.0, 2.0]  # placement points 3/2/1/0
    with pytest.raises(IllegalAction, match="over"):
        state.apply(PASS)


# -- further checks the cases invite --------------------------------------------------------------


def test_refusal_names_the_reason():
    assert refusal(GAME, "10H", "10C") == "10C does not beat 10H: clubs are below hearts"
    assert refusal(GAME, "AC 2H 3D 4S 5C", "2S 3C 4D 5H 6C") == (
        "3C 4D 5H 6C 2S does not beat 3D 4S 5C AC 2H: its top card 2S is below 2H: "
        "spades are below hearts")
    assert refusal(GAME, "3D 5D 7D 9D JD", "KH 9H 7H 5H 3H") == (
        "3H 5H 7H 9H KH does not beat 3D 5D 7D 9D JD: flushes compare by suit first, "
        "and hearts are below diamonds")


def test_a_refused_action_leaves_the_state_unchanged():
    state = after_lead(GAME, "10H", "10C")
    assert_refusals_change_nothing(state, ("10C", "10D", "2C 2S", "9C 9S 9H 9D"))
    for _ in range(3):
        state.apply(PASS)
    assert_refusals_change_nothing(state, [PASS])


def test_option_standard_control_after_going_out():
    game = parlour.new_game("pusoy-dos", control_after_out="standard")
    state = position(game, ["5C 9C", "10D", "JC 4S", "QS 6H"], leader=0)
    state.apply("5C")
    state.apply("10D")  # P2 goes out; the others may still beat the 10D
    assert state.placements == [1]
    assert state.current_player == 2
    assert str(state.observation(2).table) == "10D"
    assert "JC" in legal(state) and PASS in legal(state)
    state.apply(PASS)
    state.apply(PASS)
    state.apply(PASS)
    # All three active players passed: the lead goes to the player after P2.
    assert state.current_player == 2
    assert state.observation(2).table is None


def test_option_penalty_scoring_ends_at_the_first_player_out():
    game = parlour.new_game("pusoy-dos", scoring="penalty")
    rest = [c for c in DECK if c not in ("2D", "3C")]
    hands = ["3C " + " ".join(rest[:9]), "2D", " ".join(rest[9:19]), " ".join(rest[19:31])]
    state = position(game, hands, leader=0)
    state.apply("3C")
    state.apply("2D")
    assert state.is_over
    assert state.returns() == [-9.0, 0.0, -20.0, -24.0]


def test_every_deal_of_a_match_opens_with_the_3c_holder():
    game = parlour.new_game("pusoy-dos", deals=3)
    match = game.new_match(seed=4)
    bots = [make_bot("random")] * 4
    rng = random.Random(4)
    expected = [0.0] * 4
    while not match.is_over:
        state = match.next_deal()
        holder = next(s for s in range(4) if "3C" in {str(c) for c in state.hand(s)})
        assert state.current_player == holder
        assert all("3C" in str(a).split() for a in state.legal_actions())
        match.play_out(state, bots, rng)
        assert sorted(state.placements) == [0, 1, 2, 3]
        assert sorted(state.returns()) == [0.0, 1.0, 2.0, 3.0]
        expected = [t + r for t, r in zip(expected, state.returns(), strict=True)]
    assert len(match.deals) == 3
    assert match.totals == expected


def test_option_next_leader_winner():
    game = parlour.new_game("pusoy-dos", next_leader="winner")
    first = position(game, ["6C", "4C", "5S 8D 9D", "7H"], leader=1)
    for play in ("4C", "5S", "7H", "6C"):
        first.apply(play)
    carry = game.match_after_deal(game.match_start(), first)
    setup = game.match_deal_setup(carry, random.Random(0))
    assert setup == {"leader": 1}
    state = game.new_deal(hands=full_hands({1: "5D", 3: "3C"}), **setup)
    assert state.current_player == 1
    assert "5D" in legal(state)
    assert GAME.match_deal_setup(GAME.match_after_deal(GAME.match_start(), first),
                                 random.Random(0)) == {}
