"""Properties of the Spoil Five / Forty-Five engine under random play, and the Spoil Five pool."""

from __future__ import annotations

import contextlib
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.bots import make_bot
from parlour.cards import CARDS, FULL_DECK, parse_card
from parlour.errors import CardError, DealError, IllegalAction
from parlour.records import deal_record, replay_deal

CONFIGS = [
    ("forty-five", n, opts)
    for n in (2, 4, 6)
    for opts in ({}, {"silent_ace": True}, {"ace_pickup": "immediate", "scoring": "alternative"})
] + [
    ("spoil-five", n, opts)
    for n in range(2, 11)
    for opts in ({}, {"jinking": True, "silent_ace": True})
]


def snapshot(state):
    return [state.observation(s) for s in range(state.game.players)], list(state.history)


def mentioned(value) -> set[int]:
    """Every card named in a JSON-able structure."""
    if isinstance(value, str):
        found = set()
        for token in value.split():
            with contextlib.suppress(CardError):
                found.add(int(parse_card(token)))
        return found
    if isinstance(value, dict):
        value = list(value.values())
    if isinstance(value, (list, tuple)):
        return set().union(*(mentioned(v) for v in value))
    return set()


def random_texts(rng: random.Random) -> list[str]:
    card = str(CARDS[rng.randrange(52)])
    return [card, f"rob {card}", "keep", "silent", "jink", "stop", "rob"]


@pytest.mark.parametrize(("variant", "players", "options"), CONFIGS)
def test_random_play_keeps_every_invariant(variant, players, options) -> None:
    game = parlour.new_game(variant, players=players, **options)
    rng = random.Random(players)
    for seed in range(12):
        state = game.new_deal(seed=seed, dealer=seed % players)
        again = game.new_deal(**state.setup())
        assert [again.observation(s) for s in range(players)] == [
            state.observation(s) for s in range(players)]
        while not state.is_over:
            seat = state.current_player
            obs = state.observation(seat)
            sample = obs.sample_state(rng)
            assert sample.observation(seat) == obs
            assert sample.hidden_from(seat) | sample.observation(seat).hand == (
                state.hidden_from(seat) | obs.hand)
            for other in range(players):
                seen = state.observation(other)
                assert int(seen.hand) == state.hand(other)
                assert not mentioned(seen.to_dict()) & set(state.hidden_from(other))
            legal = state.legal_actions()
            assert legal
            for text in random_texts(rng):
                try:
                    action = state.parse_action(text)
                except IllegalAction:
                    continue
                if action in legal:
                    continue
                before = snapshot(state)
                with pytest.raises(IllegalAction):
                    state.apply(action)
                assert snapshot(state) == before
            action = rng.choice(legal)
            assert state.parse_action(str(action)) is action
            state.apply(action)
            in_play = sum(len(state.hand(s)) for s in range(players))
            played = sum(1 for _, a in state.history if int(a) < 52)
            assert in_play + played + (state.discard >= 0) + (
                state.robber < 0 or state.pending_ace) == players * 5 + 1
        assert len(state.history) <= 6 * players + 1  # robbing turns, five tricks, a jink
        replayed = replay_deal(deal_record(state))
        assert replayed.returns() == state.returns()
        assert replayed.history == state.history
        if variant == "forty-five":
            returns = state.returns()
            assert sorted(set(returns))[0] == 0.0 and len(set(returns)) == 2
            assert all(returns[s] == returns[s % 2] for s in range(players))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 4, 6]),
       dealer=st.integers(0, 5))
def test_a_deal_partitions_the_dealt_cards(seed, players, dealer) -> None:
    state = parlour.new_game("forty-five", players=players).new_deal(
        seed=seed, dealer=dealer % players)
    union = 0
    for hand in map(state.hand, range(players)):
        assert hand.bit_count() == 5
        assert not union & hand
        union |= hand
    assert not union >> state.turn_up & 1
    assert union.bit_count() == players * 5 and union & ~FULL_DECK == 0


def test_deck_is_dealt_three_then_two_from_the_dealers_left() -> None:
    deck = [str(c) for c in CARDS]
    state = parlour.new_game("forty-five", players=2).new_deal(deck=deck, dealer=1)
    obs = state.observation(0)
    assert str(obs.turn_up) == "4H"
    # Hearts are trumps: the hands list their trumps first, highest first.
    assert str(obs.hand) == "3H 2H 2C 2D 3S"
    assert str(state.observation(1).hand) == "3C 4C 4D 3D 2S"


def test_bad_deals_are_refused_with_the_reason() -> None:
    game = parlour.new_game("forty-five", players=2)
    with pytest.raises(DealError, match="twice"):
        game.new_deal(hands=["2C 3C 4C 5C 6C", "6C 7C 8C 9C 10C"], turn_up="AS")
    with pytest.raises(DealError, match="4 cards"):
        game.new_deal(hands=["2C 3C 4C 5C", "7C 8C 9C 10C JC"], turn_up="AS")
    with pytest.raises(DealError, match="not a card"):
        game.new_deal(hands=["2C 3C 4C 5C 1X", "7C 8C 9C 10C JC"], turn_up="AS")
    with pytest.raises(DealError, match="missing"):
        game.new_deal(deck=[str(c) for c in CARDS[:51]])


def spoil_five(**options):
    return parlour.new_game("spoil-five", players=3, **options)


# P0 leads; P1 takes tricks 1 and 5, P2 tricks 2 and 4, P0 trick 3: nobody takes three.
SPOIL_HANDS = ["2C 3C 4C KH 4H", "KC 5D 6D QD 8D", "QH JH 9D 10D JD"]
SPOIL_PLAYS = ["2C", "KC", "9D", "8D", "10D", "3C", "QH", "KH", "5D", "4H", "6D", "JH", "JD",
               "4C", "QD"]


def test_spoil_five_spoil_carries_the_pool() -> None:
    game = spoil_five()
    state = game.new_deal(hands=SPOIL_HANDS, turn_up="2S", dealer=2, pool=3)
    for card in SPOIL_PLAYS:
        state.apply(card)
    assert state.is_over
    assert state.observation(0).tricks_won == (1, 2, 2)
    assert state.returns() == [-1.0, -1.0, -1.0]
    assert state.winners() == []
    carry = game.match_after_deal({"dealer": 2, "carried": 0, "scores": [20, 20, 20]}, state)
    assert carry["carried"] == 3
    assert game.match_deal_setup(carry, random.Random(0))["pool"] == 6


def test_spoil_five_three_tricks_take_the_pool() -> None:
    game = spoil_five()
    hands = ["5S JS KS 2C 3C", "4D 5D 6D 7D 8D", "4H 5H 6H 7H 8H"]
    state = game.new_deal(hands=hands, turn_up="2S", dealer=2, pool=9)
    for card in ["5S", "4D", "4H", "JS", "5D", "5H", "KS", "6D", "6H"]:
        state.apply(card)
    assert state.is_over and state.winners() == [0]
    assert state.returns() == [8.0, -1.0, -1.0]


@pytest.mark.parametrize(
    ("jink", "returns"), [(True, [4.0, -2.0, -2.0]), (False, [2.0, -1.0, -1.0])]
)
def test_spoil_five_jinking(jink, returns) -> None:
    game = spoil_five(jinking=True)
    hands = ["5S JS KS QS 3S", "4D 5D 6D 7D 8D", "4H 5H 6H 7H 8H"]
    state = game.new_deal(hands=hands, turn_up="2S", dealer=2)
    for card in ["5S", "4D", "4H", "JS", "5D", "5H", "KS", "6D", "6H"]:
        state.apply(card)
    assert {str(a) for a in state.legal_actions()} == {"jink", "stop"}
    state.apply("jink" if jink else "stop")
    while not state.is_over:
        state.apply(state.legal_actions()[-1])
    assert state.returns() == returns


def test_spoil_five_match_ends_after_the_deals_or_when_someone_cannot_ante() -> None:
    game = parlour.new_game("spoil-five", players=4, deals=5, starting_chips=3)
    match = game.new_match(seed=2)
    while not match.is_over:
        match.play_out(match.next_deal(), [make_bot("random")] * 4)
    assert len(match.deals) == 5 or min(match.totals) < 1
    assert match.winners()


def test_greedy_beats_random_in_forty_five() -> None:
    game = parlour.new_game("forty-five")
    bots = [make_bot("greedy"), make_bot("random")] * 2
    rng = random.Random(7)
    points = [0.0, 0.0]
    for seed in range(150):
        state = game.new_deal(seed=seed, dealer=seed % 4)
        while not state.is_over:
            seat = state.current_player
            state.apply(bots[seat].choose(state.observation(seat), state.legal_actions(), rng))
        points[0] += state.returns()[0]
        points[1] += state.returns()[1]
    assert points[0] > 1.5 * points[1]
