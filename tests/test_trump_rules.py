"""RULES.md 3.4: every given/then case of Spoil Five / Forty-Five, one test each."""

from __future__ import annotations

import itertools

import pytest

import parlour
from parlour.bots import make_bot
from parlour.cards import CARDS, parse_card, parse_cards
from parlour.errors import IllegalAction
from parlour.games.trump.ranking import ACE_OF_TRUMPS, trump_order


def legal(state) -> set[str]:
    return {str(a) for a in state.legal_actions()}


def cards(text: str) -> set[str]:
    return {str(c) for c in parse_cards(text)}


def deal_for_trick(turn_up: str, plays: list[str], players: int = 2, **options):
    """A deal (forty-five, or spoil-five for odd player counts) in which the seats from the
    leader on hold ``plays`` (one card each) plus filler cards no rule cares about; returns
    the state at the opening lead."""
    used = {parse_card(c) for c in plays} | {parse_card(turn_up)}
    trump = parse_card(turn_up).suit
    spare = [c for c in CARDS if c not in used and c != ACE_OF_TRUMPS[trump]
             and c.suit != trump and c != parse_card("AH")]
    hands = []
    for seat in range(players):
        hand = [parse_card(plays[seat])]
        hand += [spare.pop() for _ in range(4)]
        hands.append(hand)
    variant = "forty-five" if players in (2, 4, 6) else "spoil-five"
    game = parlour.new_game(variant, players=players, **options)
    state = game.new_deal(hands=hands, turn_up=turn_up, dealer=players - 1)
    while state.observation(0).phase == "rob":
        state.apply("keep")
    return state


def trick_winner(trump: str, plays: list[str]) -> str:
    """The card that wins a trick of ``plays`` (the first one led) when ``trump`` is trumps."""
    turn_up = next(str(c) for c in trump_order(parse_card("2" + trump).suit)
                   if str(c) not in plays and c.suit == parse_card("2" + trump).suit)
    state = deal_for_trick(turn_up, plays, players=len(plays))
    leader = state.observation(0).leader
    for card in plays:
        state.apply(card)
    winner = state.observation(0).trick_winners[0]
    return plays[(winner - leader) % len(plays)]


def check_trump_order(trump: str, expected: str) -> None:
    order = expected.split()
    assert [str(c) for c in trump_order(parse_card("2" + trump).suit)] == order
    for high, low in itertools.pairwise(order):
        assert trick_winner(trump, [low, high]) == high
        assert trick_winner(trump, [high, low]) == high


def test_case_01_spades_trump_order() -> None:
    check_trump_order("S", "5S JS AH AS KS QS 2S 3S 4S 6S 7S 8S 9S 10S")
    assert trick_winner("S", ["10S", "2S"]) == "2S"
    assert trick_winner("S", ["KS", "AS"]) == "AS"


def test_case_02_hearts_has_thirteen_trumps() -> None:
    check_trump_order("H", "5H JH AH KH QH 10H 9H 8H 7H 6H 4H 3H 2H")
    assert len(trump_order(parse_card("9H").suit)) == 13


def test_case_03_diamonds_trump_order() -> None:
    check_trump_order("D", "5D JD AH AD KD QD 10D 9D 8D 7D 6D 4D 3D 2D")


def test_case_04_plain_black_suit_order() -> None:
    assert trick_winner("C", ["10S", "2S", "AS", "9S"]) == "AS"
    assert trick_winner("C", ["9S", "2S"]) == "2S"
    assert trick_winner("C", ["10S", "9S"]) == "9S"


def test_case_05_plain_red_suit_order() -> None:
    assert trick_winner("S", ["10D", "2D", "AD", "9D"]) == "10D"
    assert trick_winner("S", ["AD", "2D"]) == "2D"


def test_case_06_ace_of_hearts_is_a_trump_in_clubs() -> None:
    assert trick_winner("C", ["KH", "QH", "AH", "2C"]) == "AH"
    assert trick_winner("C", ["KH", "QH", "AH", "2C", "JC"]) == "JC"


def test_case_07_follow_or_trump_on_a_plain_lead() -> None:
    game = parlour.new_game("forty-five")
    state = game.new_deal(
        hands=["7S 2D 3D 4D 5D", "KS 6D 7D 9D 10D", "9S 4C 8D JD QD", "4H 8H KH 2H 3H"],
        turn_up="2C", dealer=3,
    )
    state.apply("7S")
    state.apply("KS")
    assert legal(state) == {"9S", "4C"}
    with pytest.raises(IllegalAction, match="follow suit or trump"):
        state.apply("8D")
    state.apply("9S")
    assert legal(state) == cards("4H 8H KH 2H 3H")


def test_case_07_no_card_of_the_lead_allows_any_card() -> None:
    game = parlour.new_game("forty-five")
    state = game.new_deal(
        hands=["7S 2D 3D 4D 5D", "KS 6D 7D 9D 10D", "9S 3C 8D JD QD", "4C 8H KH 2H 3H"],
        turn_up="2C", dealer=3,
    )
    for card in ("7S", "KS", "9S"):
        state.apply(card)
    assert legal(state) == cards("4C 8H KH 2H 3H")


def test_case_08_ace_of_hearts_is_not_a_heart() -> None:
    game = parlour.new_game("forty-five")
    hands = ["3H 2C 3C 4C 5C", "KH 6C 7C 8C 4D", "AH 8D 9C 10C JC", "KS QS JS 10S 9S"]
    state = game.new_deal(hands=hands, turn_up="2D", dealer=3)
    state.apply("3H")
    state.apply("KH")
    assert legal(state) == cards("AH 8D 9C 10C JC")

    hands = ["3H 2C 3C 4C 5C", "KH 6C 7C 8C 4D", "AH 6H 9C 10C JC", "KS QS JS 10S 9S"]
    state = game.new_deal(hands=hands, turn_up="2D", dealer=3)
    state.apply("3H")
    state.apply("KH")
    assert legal(state) == {"6H", "AH"}
    with pytest.raises(IllegalAction):
        state.apply("9C")


def test_case_09_trump_led_must_be_followed() -> None:
    game = parlour.new_game("forty-five")
    hands = ["9H 2C 3C 4C 5C", "KH 6C 7C 8C 9C", "2H KS 7D 10C JC", "QS JS 10S 9S 8S"]
    state = game.new_deal(hands=hands, turn_up="3H", dealer=3)
    assert state.current_player == 0  # AH lies in the pack: nobody may rob
    state.apply("9H")
    state.apply("KH")
    assert legal(state) == {"2H"}
    with pytest.raises(IllegalAction):
        state.apply("KS")


def test_case_10_five_may_renege_against_a_lower_trump() -> None:
    game = parlour.new_game("forty-five")
    hands = ["KS 2C 3C 4C 6C", "2D 3D 4D 6D 9C", "5S 7D 8C 10C JC", "KH QH JH 10H 9H"]
    state = game.new_deal(hands=hands, turn_up="2S", dealer=3)
    state.apply("KS")
    state.apply("2D")
    assert legal(state) == cards("5S 7D 8C 10C JC")

    hands = ["KS 2C 3C 4C 6C", "2D 3D 4D 6D 9C", "5S 3S 7D 8C 10C", "KH QH JH 10H 9H"]
    state = game.new_deal(hands=hands, turn_up="2S", dealer=3)
    state.apply("KS")
    state.apply("2D")
    assert legal(state) == {"5S", "3S"}
    with pytest.raises(IllegalAction, match="trump"):
        state.apply("7D")


def test_case_11_jack_led_ace_of_hearts_has_no_privilege() -> None:
    game = parlour.new_game("forty-five")
    hands = ["JS 2C 3C 4C 6C", "2D 3D 4D 6D 9C", "AH 7D 8C 10C JC", "KH QH JH 10H 9H"]
    state = game.new_deal(hands=hands, turn_up="2S", dealer=3)
    state.apply("JS")
    state.apply("2D")
    assert legal(state) == {"AH"}

    hands = ["JS 2C 3C 4C 6C", "2D 3D 4D 6D 9C", "5S 7D 8C 10C JC", "KH QH JH 10H 9H"]
    state = game.new_deal(hands=hands, turn_up="2S", dealer=3)
    state.apply("JS")
    state.apply("2D")
    assert "7D" in legal(state)


def test_case_12_privilege_depends_on_the_card_led() -> None:
    game = parlour.new_game("forty-five")
    hands = ["AH 2C 3C 4C 6C", "2D 3D 4D 6D 9C", "JS 7D 8C 10C JC", "KH QH 8H 10H 9H"]
    state = game.new_deal(hands=hands, turn_up="2S", dealer=3)
    state.apply("AH")
    state.apply("2D")
    assert "7D" in legal(state)

    hands = ["5S 2C 3C 4C 6C", "2D 3D 4D 6D 9C", "JS 7D 8C 10C JC", "KH QH 8H 10H 9H"]
    state = game.new_deal(hands=hands, turn_up="2S", dealer=3)
    state.apply("5S")
    state.apply("2D")
    assert legal(state) == {"JS"}


def test_case_13_robbing_and_announcing_the_ace() -> None:
    game = parlour.new_game("forty-five")
    hands = ["2C 3C 4C 5C 7C", "2D 3D 5D 6D 7D", "2H 3H 4H 5H 6H", "AS 4D 6C 8H KC"]
    state = game.new_deal(hands=hands, turn_up="9S", dealer=2)
    assert state.current_player == 3
    robbed = state.clone()
    robbed.apply("rob 4D")
    assert robbed.observation(3).hand == parlour.CardSet.parse("AS 9S 6C 8H KC")
    assert all(robbed.observation(s).robber == 3 for s in range(4))
    assert str(robbed.observation(0).history[-1][1]) == "rob"  # the discard stays hidden
    assert str(robbed.observation(3).history[-1][1]) == "rob 4D"
    state.apply("keep")
    assert all(state.observation(s).announced == 3 for s in range(4))


def test_case_13_silent_ace_ranks_below_ten() -> None:
    hands = ["10S 2C 3C 4C 5C", "2D 3D 5D 6D 7D", "2H 3H 4H 5H 6H", "AS 4D 6C 8H KC"]
    for silent, winner in ((True, 0), (False, 3)):
        game = parlour.new_game("forty-five", silent_ace=silent)
        state = game.new_deal(hands=hands, turn_up="9S", dealer=3)
        if silent:
            for seat in range(4):
                assert state.current_player == seat
                state.apply("silent")
        else:
            state.apply("keep")
        for card in ("10S", "2D", "2H", "AS"):
            state.apply(card)
        assert state.observation(0).trick_winners == (winner,)


def test_case_14_dealer_robs_a_turned_ace_after_trick_one() -> None:
    game = parlour.new_game("forty-five")
    hands = ["2D 3D 4D 5D 6D", "2H 3H 4H 5H 6H", "2S 3S 4S 5S 6S", "8H KC QC 7S 8S"]
    state = game.new_deal(hands=hands, turn_up="AC", dealer=3)
    assert state.current_player == 3
    state.apply("rob 8H")
    assert state.observation(0).hand_sizes == (5, 5, 5, 4)
    for card in ("2D", "2H", "2S"):
        state.apply(card)
    assert "AC" not in legal(state)
    with pytest.raises(IllegalAction, match="after trick 1"):
        state.apply("AC")
    state.apply("7S")
    obs = state.observation(3)
    assert parse_card("AC") in obs.hand and len(obs.hand) == 4
    while state.current_player != 3:
        state.apply(state.legal_actions()[0])
    assert "AC" in legal(state)


def test_case_15_leader_and_dealer_rotation() -> None:
    game = parlour.new_game("forty-five")
    state = game.new_deal(seed=11, dealer=3)
    while state.observation(0).phase == "rob":
        state.apply("keep")
    assert state.current_player == 0
    for _ in range(4):
        state.apply(state.legal_actions()[0])
    assert state.current_player == state.observation(0).trick_winners[0]
    match = game.new_match(seed=5)
    bots = [make_bot("random")] * 4
    dealers = []
    while not match.is_over:
        deal = match.next_deal()
        obs = deal.observation(0)
        assert obs.leader == (obs.dealer + 1) % 4
        dealers.append(obs.dealer)
        match.play_out(deal, bots)
    assert all(b == (a + 1) % 4 for a, b in itertools.pairwise(dealers))


SCORING_DEALS = {  # P0 (side A) against P1 (side B), spades trumps, AS in the pack
    5: (["5S JS KS QS 3S", "4D 5D 6D 7D 8D"], "5S 4D JS 5D KS 6D QS 7D 3S 8D"),
    4: (["5S JS KS QS 4C", "4D 5D 6D 7D KC"], "5S 4D JS 5D KS 6D QS 7D 4C KC"),
    3: (["5S JS KS 4C 6C", "4D 5D 6D KC QC"], "5S 4D JS 5D KS 6D 4C KC QC 6C"),
}


def play_scoring_deal(tricks: int, scoring: str) -> list[float]:
    game = parlour.new_game("forty-five", players=2, scoring=scoring)
    hands, plays = SCORING_DEALS[tricks]
    state = game.new_deal(hands=hands, turn_up="2S", dealer=1)
    for card in plays.split():
        assert state.returns() == [0.0, 0.0]
        state.apply(card)
    assert state.is_over
    assert state.observation(0).tricks_won == (tricks, 5 - tricks)
    return state.returns()


def test_case_16_primary_scoring() -> None:
    assert play_scoring_deal(3, "primary") == [5.0, 0.0]
    assert play_scoring_deal(4, "primary") == [5.0, 0.0]
    assert play_scoring_deal(5, "primary") == [10.0, 0.0]


def test_case_17_alternative_scoring() -> None:
    assert play_scoring_deal(3, "alternative") == [5.0, 0.0]
    assert play_scoring_deal(4, "alternative") == [15.0, 0.0]
    assert play_scoring_deal(5, "alternative") == [25.0, 0.0]


def test_case_18_first_side_to_45_wins() -> None:
    game = parlour.new_game("forty-five")
    for seed in range(5):
        match = game.new_match(seed=seed)
        match.totals = [40.0, 40.0, 40.0, 40.0]
        match.carry["scores"] = [40, 40]
        deal = match.next_deal()
        match.play_out(deal, [make_bot("random")] * 4)
        scored = 0 if deal.returns()[0] > 0 else 1
        assert match.is_over
        assert match.winners() == [scored, scored + 2]
        assert max(match.totals[1 - scored], match.totals[3 - scored]) == 40.0
