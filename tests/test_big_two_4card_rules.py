"""RULES.md 1.4: every given/then case of big-two-4card (Game 000), one test each.

Seats: the cases in RULES.md 1.4 name the players P1..P4. Here P1 is seat 0, P2 seat 1,
P3 seat 2 and P4 seat 3 (turn order is increasing seat index, so "P1, P2, P3, P4" is the
order of play).

"Given table play X" positions are composed: seat 0 holds X (plus a spare card, so it is still in
the deal after playing X) and leads freely, seat 1 holds the answer Y (plus a spare), seats 2 and
3 hold a spare card each, and every other card is out of play.
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
    position,
    refusal,
)
from parlour import DealError, IllegalAction, State
from parlour.bots import make_bot

GAME = parlour.new_game("big-two-4card")


def full_deal(fixed: dict[int, str]) -> State:
    """A fresh deal of 13 cards each: seat i holds ``fixed[i]``, topped up from the rest."""
    return GAME.new_deal(hands=full_hands(fixed))


# -- RULES.md 1.4 --------------------------------------------------------------------------------


def test_1_4_01_three_of_diamonds_holder_must_open_with_the_single_3d():
    state = full_deal({1: "3D 3C 4C 5H 6S 7D"})
    assert state.current_player == 1
    assert [str(a) for a in state.legal_actions()] == ["3D"]
    for play in ("3D 3C", "3D 4C 5H 6S 7D", PASS):
        action = state.parse_action(play)
        assert action not in state.legal_actions()
        with pytest.raises(IllegalAction):
            state.apply(action)
    assert state.history == []
    state.apply("3D")
    assert state.history == [(1, state.parse_action("3D"))]
    assert state.current_player == 2


def test_1_4_02_ten_of_hearts_beats_ten_of_clubs():
    assert beats(GAME, "10C", "10H")
    assert not beats(GAME, "10C", "10D")


def test_1_4_03_two_of_diamonds_beats_ace_of_spades():
    assert beats(GAME, "AS", "2D")
    assert not beats(GAME, "AS", "KS")


def test_1_4_04_two_of_spades_leaves_only_passes_then_control():
    state = position(GAME, ["2S 4D", "2H AS 3C", "2D 2C KS", "AH AD"], leader=0)
    state.apply("2S")
    for seat in (1, 2, 3):
        assert state.current_player == seat
        assert [str(a) for a in state.legal_actions()] == [PASS]
        with pytest.raises(IllegalAction):
            state.apply("2H" if seat == 1 else "2D" if seat == 2 else "AH")
        state.apply(PASS)
    assert state.current_player == 0
    assert state.observation(0).table is None
    assert PASS not in legal(state)
    assert "4D" in legal(state)


def test_1_4_05_pair_with_the_higher_top_suit_beats():
    assert beats(GAME, "10C 10H", "10D 10S")
    assert not beats(GAME, "10D 10C", "5S 5H")


def test_1_4_06_three_of_a_kind_by_rank():
    assert beats(GAME, "5D 5H 5C", "6D 6C 6H")
    assert not beats(GAME, "5D 5H 5C", "4S 4H 4C")


def test_1_4_07_two_pair_king_pair_beats_queen_pair():
    assert beats(GAME, "QD QS JH JS", "KC KH 4D 4C")


def test_1_4_08_two_pair_only_the_top_pair_counts():
    assert beats(GAME, "KC KH 4D 4C", "KS KD 3D 3C")
    assert beats(GAME, "KC KH 4D 4C", "AD AC 3H 3S")
    # The converse: KH KC with a higher low pair does not beat KS KD over 3s.
    assert not beats(GAME, "KS KD 3D 3C", "KC KH 4D 4C")


def test_1_4_09_four_of_a_kind_beats_any_two_pair():
    assert beats(GAME, "2S 2H AD AC", "4D 4C 4H 4S")
    assert beats(GAME, "4D 4C 4H 4S", "5D 5C 5H 5S")
    assert not beats(GAME, "4D 4C 4H 4S", "2S 2H AD AC")


def test_1_4_10_four_fives_are_four_of_a_kind_not_two_pair():
    state = lead_position(GAME, "5D 5C 5H 5S")
    action = state.parse_action("5D 5C 5H 5S")
    assert action.category == "four of a kind"
    assert action.size == 4
    fours = [a for a in state.legal_actions() if a.size == 4]
    assert fours == [action]


def test_1_4_11_size_mismatch_against_two_pair_is_illegal():
    state = after_lead(GAME, "3D 3H KH KS", "3C 4D 5H 6S 7C")
    for play in ("3C 4D 5H 6S 7C", "7C"):
        action = state.parse_action(play)
        assert action not in state.legal_actions()
        with pytest.raises(IllegalAction, match="cannot answer a 4-card two pair"):
            state.apply(action)
    assert {a.size for a in state.legal_actions() if str(a) != "pass"} <= {4}


@pytest.mark.parametrize("cards", ["3D 4C 5H 6S 7D", "JD QC KH AS 2D"])
def test_1_4_12_valid_straights(cards):
    state = lead_position(GAME, cards)
    action = state.parse_action(cards)
    assert action.category == "straight"
    assert action in state.legal_actions()


@pytest.mark.parametrize("cards", ["2D 3C 4H 5S 6D", "AD 2C 3H 4S 5D", "QD KC AH 2S 3D"])
def test_1_4_12_wrapping_runs_are_not_straights(cards):
    state = lead_position(GAME, cards)
    with pytest.raises(IllegalAction, match="not a valid combination"):
        state.parse_action(cards)
    assert not [a for a in state.legal_actions() if a.size == 5]


def test_1_4_13_straights_compare_top_card_rank_then_suit():
    assert beats(GAME, "9D 10C JH QS KD", "10D JC QH KS AD")
    assert beats(GAME, "3D 4C 5H 6S 7D", "3C 4D 5D 6D 7S")
    assert not beats(GAME, "3C 4D 5D 6D 7S", "3D 4C 5H 6S 7D")


def test_1_4_14_any_flush_beats_any_straight():
    assert beats(GAME, "JD QC KH AS 2S", "3C 5C 7C 9C JC")


def test_1_4_15_flushes_compare_the_top_card_only():
    table = "4H 6H 8H 10H KH"
    assert beats(GAME, table, "3S 5S 7S 9S KS")
    assert beats(GAME, table, "AC JC 9C 7C 5C")
    assert beats(GAME, table, "2D 9D 7D 5D 3D")
    # Top-card rule (A3): KC beats KD although the diamond flush is higher card by card.
    assert beats(GAME, "KD QD JD 9D 7D", "KC 6C 5C 4C 3C")
    assert not beats(GAME, "KC 6C 5C 4C 3C", "KD QD JD 9D 7D")


def test_1_4_16_suited_two_to_six_is_a_two_high_flush():
    state = lead_position(GAME, "2D 3D 4D 5D 6D")
    action = state.parse_action("2D 3D 4D 5D 6D")
    assert action.category == "flush"
    assert beats(GAME, "AC KC QC JC 9C", "2D 3D 4D 5D 6D")


def test_1_4_17_full_house_by_rank_of_the_triple():
    assert beats(GAME, "2S 2H 4C 4H 4S", "3S 3H 10H 10S 10C")
    assert not beats(GAME, "3S 3H 10H 10S 10C", "2S 2H 4C 4H 4S")


def test_1_4_18_straight_flush_beats_full_house_and_no_quads_with_kicker():
    assert beats(GAME, "2S 2H 2C AS AH", "3D 4D 5D 6D 7D")
    state = lead_position(GAME, "9D 9C 9H 9S 3C")
    with pytest.raises(IllegalAction, match="not a valid combination"):
        state.parse_action("9D 9C 9H 9S 3C")
    assert not [a for a in state.legal_actions() if a.size == 5]


def test_1_4_19_three_passes_give_control_and_control_cannot_pass():
    state = position(GAME, ["5D 6D 6C 8H 8S", "7H 9C", "JD QS", "KC 2H"], leader=0)
    state.apply("5D")
    for _ in range(3):
        state.apply(PASS)
    assert state.current_player == 0
    assert state.observation(0).table is None
    assert "6D 6C 8H 8S" in legal(state)
    assert PASS not in legal(state)
    with pytest.raises(IllegalAction, match="control and must lead"):
        state.apply(PASS)
    state.apply("8H 6D 8S 6C")
    assert str(state.observation(1).table) == "6D 6C 8H 8S"
    assert state.observation(1).table.category == "two pair"


def test_1_4_20_an_earlier_pass_does_not_lock_a_player_out():
    state = position(GAME, ["5D 3C", "9D 4H", "7C 10S", "JH"], leader=0)
    state.apply("5D")
    state.apply(PASS)  # P2
    state.apply("7C")  # P3
    state.apply(PASS)  # P4
    state.apply(PASS)  # P1
    assert state.current_player == 1
    assert "9D" in legal(state)
    replay = state.clone()
    replay.apply("9D")
    assert replay.observation(0).table_seat == 1
    state.apply(PASS)  # P2 passes too: three passes since P3's 7C
    assert state.current_player == 2
    assert state.observation(2).table is None
    assert PASS not in legal(state)


def test_1_4_21_winner_takes_the_others_card_counts():
    state = position(GAME, ["4D 5C 6H 7S", "3C 8D 9H 10S JD", "2S", "3H 4S 5H 6C 7D 8S 9C 10H"],
                     leader=0)
    state.apply("4D")
    state.apply(PASS)
    state.apply("2S")  # P3 plays the last card; P1, P2, P4 hold 3, 5 and 8 cards
    assert state.is_over
    assert [len(state.hand(s)) for s in range(4)] == [3, 5, 0, 8]
    assert state.returns() == [-3.0, -5.0, 16.0, -8.0]
    assert sum(state.returns()) == 0
    assert state.placements == [2]
    assert state.winners() == [2]
    assert state.legal_actions() == []
    with pytest.raises(IllegalAction, match="over"):
        state.apply(PASS)


# -- further checks the cases invite --------------------------------------------------------------


def test_refusal_names_the_suit_reason():
    assert refusal(GAME, "10C", "10D") == "10D does not beat 10C: diamonds are below clubs"


def test_refusal_names_the_rank_and_category_reasons():
    assert refusal(GAME, "AS", "KS") == "KS does not beat AS: K is below A"
    assert refusal(GAME, "4D 4C 4H 4S", "2S 2H AD AC") == (
        "AD AC 2H 2S does not beat 4D 4C 4H 4S: a two pair is below a four of a kind")


def test_opening_refusal_says_3d_must_be_played_alone():
    state = full_deal({1: "3D 3C"})
    with pytest.raises(IllegalAction, match="3D as a single card"):
        state.apply("3D 3C")
    with pytest.raises(IllegalAction, match="passing is not allowed"):
        state.apply(PASS)


def test_the_table_says_the_opening_3d_is_played_alone():
    state = full_deal({1: "3D 3C"})
    opener = state.current_player
    assert state.observation(opener).view().caption.endswith("(the first play is 3D, played alone)")
    state.apply("3D")
    assert "first play" not in state.observation(opener).render()


def test_a_refused_action_leaves_the_state_unchanged():
    state = after_lead(GAME, "10C", "10D")
    assert_refusals_change_nothing(state, ("10D", "10S", "2C 2H", "10D 3D 4D 5D 6D"))
    for _ in range(3):
        state.apply(PASS)
    assert state.current_player == 0 and state.observation(0).table is None
    assert_refusals_change_nothing(state, [PASS])


def test_card_counts_are_public():
    state = full_deal({0: "3D"})
    state.apply("3D")
    for seat in range(4):
        assert state.observation(seat).hand_sizes == (12, 13, 13, 13)


def test_impossible_deals_are_refused():
    hands = [" ".join(DECK[i::4]) for i in range(4)]
    GAME.new_deal(hands=hands)
    with pytest.raises(DealError, match="twice"):
        GAME.new_deal(hands=[hands[0], hands[0], hands[2], hands[3]])
    with pytest.raises(DealError):
        GAME.new_deal(hands=hands[:3])


def test_a_match_is_independent_deals_each_opened_by_the_3d_single():
    game = parlour.new_game("big-two-4card", deals=3)
    match = game.new_match(seed=5)
    bots = [make_bot("random")] * 4
    rng = random.Random(5)
    expected = [0.0] * 4
    while not match.is_over:
        state = match.next_deal()
        holder = next(s for s in range(4) if "3D" in {str(c) for c in state.hand(s)})
        assert state.current_player == holder
        assert [str(a) for a in state.legal_actions()] == ["3D"]
        match.play_out(state, bots, rng)
        assert sum(state.returns()) == 0
        expected = [t + r for t, r in zip(expected, state.returns(), strict=True)]
    assert len(match.deals) == 3
    assert match.totals == expected
    assert sum(match.totals) == 0
    best = max(match.totals)
    assert match.winners() == [s for s in range(4) if match.totals[s] == best]
