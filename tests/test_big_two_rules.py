"""RULES.md 2.4: every given/then case of big-two (Game 001), one test each.

Seats: the cases in RULES.md 2.4 name the players P1..P4. Here P1 is seat 0, P2 seat 1,
P3 seat 2 and P4 seat 3 (turn order is increasing seat index, so "P1, P2, P3, P4" is the
order of play).

"Given table play X" positions are composed: seat 0 holds X (plus a spare card, so it is still in
the deal after playing X) and leads freely, seat 1 holds the answer Y (plus a spare), seats 2 and
3 hold a spare card each, and every other card is out of play. Big-two returns are negated
penalties (higher is better).
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
from parlour import IllegalAction
from parlour.bots import make_bot

GAME = parlour.new_game("big-two")


def won_by(seat: int, game=GAME):
    """A finished deal that ``seat`` won by leading its only card."""
    hands = ["4C 5C", "4D 5D", "4H 5H", "4S 5S"]
    hands[seat] = "2S"
    state = position(game, hands, leader=seat)
    state.apply("2S")
    assert state.is_over and state.placements == [seat]
    return state


# -- RULES.md 2.4 --------------------------------------------------------------------------------


def test_2_4_01_first_play_must_contain_the_3d():
    hands = full_hands({0: "3D 3S 4C 5H 6S 7D 9D 9C 9H 9S"})
    state = GAME.new_deal(hands=hands)
    assert state.current_player == 0
    assert state.observation(0).opening
    openings = legal(state)
    for play in ("3D", "3D 3S", "3D 4C 5H 6S 7D", "3D 9D 9C 9H 9S"):
        assert str(state.parse_action(play)) in openings
    assert all("3D" in play.split() for play in openings)
    assert "4C" not in openings and PASS not in openings
    with pytest.raises(IllegalAction, match="must include 3D"):
        state.apply("4C")
    with pytest.raises(IllegalAction, match="passing is not allowed"):
        state.apply(PASS)
    for play in ("3D", "3D 3S", "3D 4C 5H 6S 7D", "9D 9C 9H 9S 3D"):
        trial = GAME.new_deal(hands=hands)
        trial.apply(play)
        assert trial.history == [(0, trial.parse_action(play))]
        assert trial.current_player == 1


def test_2_4_02_two_beats_ace_and_nothing_beats_the_two_of_spades():
    assert beats(GAME, "AS", "2D")
    state = position(GAME, ["2S 3C", "2H 2D AS", "2C AH", "AD AC"], leader=0)
    state.apply("2S")
    for seat in (1, 2, 3):
        assert state.current_player == seat
        assert legal(state) == {PASS}
        state.apply(PASS)
    assert state.current_player == 0 and state.observation(0).table is None


def test_2_4_03_pairs_compare_rank_then_the_higher_suit():
    assert beats(GAME, "10C 10H", "10D 10S")
    assert beats(GAME, "QS QH", "KD KC")
    assert not beats(GAME, "10D 10S", "10C 10H")


def test_2_4_04_no_triples_by_default():
    state = lead_position(GAME, "5D 5C 5H 3D")
    with pytest.raises(IllegalAction, match="not a valid combination"):
        state.parse_action("5D 5C 5H")
    assert not [a for a in state.legal_actions() if a.size == 3]
    with pytest.raises(IllegalAction):
        state.apply("5D 5C 5H")

    game = parlour.new_game("big-two", allow_triples=True)
    state = lead_position(game, "5D 5C 5H 3D")
    triple = state.parse_action("5D 5C 5H")
    assert triple.category == "three of a kind"
    assert triple in state.legal_actions()
    state.apply(triple)
    assert state.observation(1).table == triple


def test_2_4_05_four_of_a_kind_needs_a_kicker():
    state = lead_position(GAME, "9D 9C 9H 9S 4C")
    with pytest.raises(IllegalAction, match="not a valid combination"):
        state.parse_action("9D 9C 9H 9S")
    assert not [a for a in state.legal_actions() if a.size == 4]
    quads = state.parse_action("9D 9C 9H 9S 4C")
    assert quads.category == "four of a kind with a kicker"
    assert quads in state.legal_actions()
    state.apply(quads)
    assert state.observation(1).table == quads


def test_2_4_06_straight_windows():
    state = lead_position(GAME, "JD QC KH AS 2D")
    top = state.parse_action("JD QC KH AS 2D")
    assert top.category == "straight" and top in state.legal_actions()
    for cards in ("2D 3C 4H 5S 6D", "AD 2C 3H 4S 5D"):
        state = lead_position(GAME, cards)
        with pytest.raises(IllegalAction, match="not a valid combination"):
            state.parse_action(cards)
        assert not [a for a in state.legal_actions() if a.size == 5]


def test_2_4_07_straights_compare_top_card():
    assert beats(GAME, "10C JD QH KS AH", "10D JC QS KH AS")
    assert not beats(GAME, "10C JD QH KS AH", "9S 10S JH QC KD")


def test_2_4_08_flushes_compare_suit_first():
    assert beats(GAME, "2H AH KH QH 10H", "3S 4S 5S 7S 9S")
    assert not beats(GAME, "3S 4S 5S 7S 9S", "2H AH KH QH 10H")


def test_2_4_09_flushes_of_one_suit_compare_the_top_card():
    assert beats(GAME, "AH KH QH JH 8H", "2H 9H 7H 5H 3H")
    assert not beats(GAME, "2H 9H 7H 5H 3H", "AH KH QH JH 8H")


def test_2_4_10_any_flush_beats_any_straight():
    assert beats(GAME, "JD QC KH AS 2S", "3D 5D 7D 9D KD")


def test_2_4_11_full_house_by_the_triple():
    assert beats(GAME, "7S 7H 7D AS AC", "8C 8D 8H 3S 3C")
    assert not beats(GAME, "8C 8D 8H 3S 3C", "7S 7H 7D AS AC")


def test_2_4_12_quads_beat_full_house_and_compare_by_rank():
    assert beats(GAME, "2S 2H 2D AS AH", "QD QC QH QS 3C")
    assert not beats(GAME, "QD QC QH QS 3C", "2S 2H 2D AS AH")
    assert beats(GAME, "4D 4C 4H 4S 3C", "5D 5C 5H 5S 3H")


def test_2_4_13_straight_flush_beats_quads():
    assert beats(GAME, "2D 2C 2H 2S 3D", "3C 4C 5C 6C 7C")
    assert not beats(GAME, "3C 4C 5C 6C 7C", "2D 2C 2H 2S 3D")


def test_2_4_14_three_passes_give_control_and_control_cannot_pass():
    state = position(GAME, ["9C 4D 4S", "10H KD", "JC 3H", "QS 5S"], leader=0)
    state.apply("9C")
    for seat in (1, 2, 3):
        assert state.current_player == seat
        state.apply(PASS)
    assert state.current_player == 0
    assert state.observation(0).table is None
    assert "4D 4S" in legal(state) and PASS not in legal(state)
    with pytest.raises(IllegalAction, match="control and must lead"):
        state.apply(PASS)
    state.apply("4S 4D")
    assert str(state.observation(1).table) == "4D 4S"


def test_2_4_15_penalties_one_two_or_three_per_card():
    rest = [c for c in DECK if c not in ("2S", "3D")]
    hands = ["3D " + " ".join(rest[:9]), "2S", " ".join(rest[9:19]), " ".join(rest[19:32])]
    state = position(GAME, hands, leader=0)
    state.apply("3D")  # P1 now holds 9 cards
    state.apply("2S")  # P2 plays the last card
    assert state.is_over
    assert [len(state.hand(s)) for s in range(4)] == [9, 0, 10, 13]
    assert state.returns() == [-9.0, 0.0, -20.0, -39.0]
    assert state.winners() == [1]

    hands = ["3D " + " ".join(rest[:12]), "2S", " ".join(rest[12:23]), " ".join(rest[23:24])]
    state = position(GAME, hands, leader=0)
    state.apply("3D")  # P1 now holds 12 cards, P3 11, P4 1
    state.apply("2S")
    assert state.returns() == [-24.0, 0.0, -22.0, -1.0]


def test_2_4_16_the_previous_winner_leads_the_next_deal_freely():
    first = won_by(1)
    carry = GAME.match_after_deal(GAME.match_start(), first)
    setup = GAME.match_deal_setup(carry, random.Random(0))
    assert setup == {"leader": 1}
    hands = full_hands({1: "6D 6H 7C", 3: "3D"})
    state = GAME.new_deal(hands=hands, **setup)
    assert state.current_player == 1
    assert not state.observation(1).opening
    assert "6D 6H" in legal(state) and "7C" in legal(state)
    state.apply("6H 6D")
    assert state.history == [(1, state.parse_action("6D 6H"))]
    assert state.current_player == 2


def test_2_4_16_a_match_deals_the_next_deal_to_the_previous_winner():
    match = GAME.new_match(seed=11)
    bots = [make_bot("random")] * 4
    rng = random.Random(11)
    state = match.next_deal()
    assert state.observation(state.current_player).opening
    match.play_out(state, bots, rng)
    for _ in range(3):
        winner = state.placements[0]
        state = match.next_deal()
        assert state.current_player == winner
        assert not state.observation(winner).opening
        singles = {str(c) for c in state.hand(winner)}
        assert singles <= legal(state)  # any card may lead, with or without 3D
        match.play_out(state, bots, rng)


def test_2_4_17_match_ends_when_a_penalty_total_reaches_50_lowest_wins():
    totals = [-48.0, -12.0, -30.0, -22.0]
    assert not GAME.match_over(totals, 4, {})
    # A real deal: P3 goes out while P1 holds 5 cards (P2 and P4 hold one each).
    state = position(GAME, ["4C 5C 6C 7C 8C 9C", "3C", "2S", "3H"], leader=0)
    state.apply("4C")
    state.apply(PASS)
    state.apply("2S")
    assert state.returns() == [-5.0, -1.0, 0.0, -1.0]
    totals = [t + r for t, r in zip(totals, state.returns(), strict=True)]
    assert totals == [-53.0, -13.0, -30.0, -23.0]
    assert GAME.match_over(totals, 5, {})
    assert GAME.match_winners(totals, {}) == [1]
    assert not GAME.match_over([-49.0, -12.0, -30.0, -22.0], 5, {})
    assert GAME.match_over([-50.0, -12.0, -30.0, -22.0], 5, {})  # reaching 50 is enough
    lower = parlour.new_game("big-two", penalty_limit=30)
    assert lower.match_over([-48.0, -12.0, -30.0, -22.0], 4, {})


def test_2_4_17_a_played_match_stops_at_the_first_deal_reaching_50():
    match = GAME.new_match(seed=3)
    bots = [make_bot("random")] * 4
    rng = random.Random(3)
    while not match.is_over:
        assert max(-t for t in match.totals) < 50
        match.play_out(match.next_deal(), bots, rng)
    assert max(-t for t in match.totals) >= 50
    low = max(match.totals)
    assert match.winners() == [s for s in range(4) if match.totals[s] == low]


# -- further checks the cases invite --------------------------------------------------------------


def test_refusal_names_the_reason():
    assert refusal(GAME, "10C", "10D") == "10D does not beat 10C: diamonds are below clubs"
    assert refusal(GAME, "3S 4S 5S 7S 9S", "2H AH KH QH 10H") == (
        "10H QH KH AH 2H does not beat 3S 4S 5S 7S 9S: flushes compare by suit first, "
        "and hearts are below spades")
    assert refusal(GAME, "AS", "2D 2C").startswith("a 2-card pair cannot answer a 1-card single")


def test_a_refused_action_leaves_the_state_unchanged():
    state = after_lead(GAME, "10C", "10D")
    assert_refusals_change_nothing(state, ("10D", "10S", "2C 2H", "5D 5C 5H"))
    for _ in range(3):
        state.apply(PASS)
    assert_refusals_change_nothing(state, [PASS])


def test_the_3d_may_be_a_full_house_pair_or_a_quads_kicker_on_the_opening():
    state = GAME.new_deal(hands=full_hands({2: "3D 3H KC KD KS"}))
    assert state.current_player == 2
    assert "3D 3H KD KC KS" in legal(state)  # canonical: lowest first, D < C < H < S
    state.apply("KC KD KS 3D 3H")
    assert state.observation(3).table.category == "full house"


def test_option_pass_only_if_no_legal_play():
    game = parlour.new_game("big-two", pass_only_if_no_legal_play=True)
    state = position(game, ["5C 3D", "9H 4D", "4C 3C", "6S"], leader=0)
    state.apply("5C")
    assert PASS not in legal(state)
    with pytest.raises(IllegalAction, match="only when you cannot beat"):
        state.apply(PASS)
    state.apply("9H")
    assert legal(state) == {PASS}  # P3 holds nothing above 9H
    state.apply(PASS)
    # By default the same pass is allowed.
    state = position(GAME, ["5C 3D", "9H 4D", "4C 3C", "6S"], leader=0)
    state.apply("5C")
    assert PASS in legal(state)
    state.apply(PASS)


def test_option_flush_order_top_card():
    game = parlour.new_game("big-two", flush_order="top-card")
    assert beats(game, "3S 4S 5S 7S 9S", "2H AH KH QH 10H")
    assert not beats(game, "2H AH KH QH 10H", "3S 4S 5S 7S 9S")


def test_option_hong_kong_straights():
    game = parlour.new_game("big-two", straights="hong-kong")
    state = lead_position(game, "AD 2C 3H 4S 5D JC QD KH AS 2D")
    assert state.parse_action("AD 2C 3H 4S 5D").category == "straight"
    with pytest.raises(IllegalAction):
        state.parse_action("JC QD KH AS 2D")
    assert beats(game, "AD 2C 3H 4S 5D", "2H 3D 4H 5S 6D")
    assert beats(game, "2H 3D 4H 5S 6D", "3C 4C 5H 6S 7D")


def test_option_match_end_after_a_number_of_deals():
    game = parlour.new_game("big-two", match_end="deals", deals=2)
    match = game.new_match(seed=2)
    bots = [make_bot("random")] * 4
    rng = random.Random(2)
    while not match.is_over:
        match.play_out(match.next_deal(), bots, rng)
    assert len(match.deals) == 2
