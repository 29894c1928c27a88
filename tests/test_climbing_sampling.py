"""States sampled from a climbing observation (``obs.sample_state``, dealt by the compiled
sampler) keep every constraint the observation implies, on many positions of the differential
traces: the sampled state shows the seat exactly its observation, every card is in one place,
whoever is to open holds the lowest card, and under ``pass_only_if_no_legal_play`` (B8) every
seat that passed could not have beaten the table then.
"""

from __future__ import annotations

import dataclasses
import random
from typing import Any

import pytest

import parlour
import trace_format as tf
from parlour.errors import DealError, IllegalAction
from parlour.games.climbing import ClimbingObservation
from parlour.games.climbing.engine import ClimbingState

VARIANTS = ["big-two-4card", "big-two", "pusoy-dos"]


def trace_deals(variant: str) -> list[dict[str, Any]]:
    """The first deals of the variant's traces, and in big-two also the first 12 deals played
    under B8 (the option is rare in the traces)."""
    deals = tf.load(tf.fixture_path(variant))["deals"]
    chosen = deals[:20]
    if variant == "big-two":
        chosen += [d for d in deals[20:] if d["options"]["pass_only_if_no_legal_play"]][:12]
    return chosen


def check_sample(obs: ClimbingObservation, sampled: ClimbingState) -> None:
    """What a state sampled from ``obs`` must keep."""
    seat = obs.seat
    assert sampled.observation(seat) == obs, "the sampled state shows the seat something else"
    zones = sampled.zones()
    cards = [int(c) for c in zones.values()]
    assert sum(c.bit_count() for c in cards) == 52
    everything = 0
    for c in cards:
        everything |= c
    assert everything == (1 << 52) - 1, "a card is in two places or nowhere"
    if obs.opening and obs.current_player != seat:
        lowest = obs.game.rules.lowest_card_text
        assert lowest in str(sampled.hand(obs.current_player)).split()
    # Replay the sampled deal from its start: at every pass the state offered only the pass
    # when B8 holds (the seat could not beat the table), and the deal is the sampled one.
    replay = obs.game.new_deal(**sampled.setup())
    b8 = obs.game.rules.pass_only_if_no_legal_play
    for who, action in obs.history:
        if b8 and str(action) == "pass":
            assert [str(a) for a in replay.legal_actions()] == ["pass"], (
                f"P{who} passed, but the sampled deal gives it a play beating the table")
        replay.apply(action)
    assert replay.observation(seat) == obs


@pytest.mark.parametrize("variant", VARIANTS)
def test_sampled_states_keep_the_observation_and_its_constraints(variant: str) -> None:
    rng = random.Random(variant)
    positions = 0
    for deal in trace_deals(variant):
        game = tf.new_game(deal, variant)
        state = game.new_deal(**deal["setup"])
        for played in [*deal["actions"], None]:
            for seat in range(game.players):
                obs = state.observation(seat)
                check_sample(obs, obs.sample_state(random.Random(rng.getrandbits(32))))
                positions += 1
            if played is None:
                break
            tf.apply_recorded(state, played)
    assert positions > 3_000


def test_forced_passes_are_kept_where_random_deals_rarely_fit() -> None:
    # B8 deals played by random bots pass on low tables often, which leaves few consistent
    # deals: the sampler's search finds them, and they replay.
    game = parlour.new_game("big-two", pass_only_if_no_legal_play=True)
    rng = random.Random(5)
    for seed in range(6):
        state = game.new_deal(seed=seed)
        while not state.is_over:
            for seat in range(4):
                obs = state.observation(seat)
                check_sample(obs, obs.sample_state(rng))
            state.apply(rng.choice(state.legal_actions()))


def test_a_sample_is_reproducible_from_its_generator_and_varies_with_it() -> None:
    state = parlour.new_game("big-two-4card").new_deal(seed=11)
    for _ in range(6):
        state.apply(state.game.greedy_action(state.observation(state.current_player),
                                             state.legal_actions(), random.Random(0)))
    obs = state.observation(2)
    first = obs.sample_state(random.Random(3))
    assert first.setup() == obs.sample_state(random.Random(3)).setup()
    assert first.history == state.history
    others = {str(obs.sample_state(random.Random(k)).hand(0)) for k in range(20)}
    assert len(others) > 15  # P0's hidden cards differ from world to world


def test_the_knowledge_is_built_once_and_left_out_of_equality() -> None:
    state = parlour.new_game("pusoy-dos").new_deal(seed=4)
    obs = state.observation(1)
    known = obs._knowledge()
    assert known is obs._knowledge() and known.seat == 1
    assert obs == state.observation(1)  # a cached knowledge changes no comparison
    assert obs.to_dict() == state.observation(1).to_dict()


def test_an_observation_no_deal_could_show_is_refused() -> None:
    state = parlour.new_game("big-two").new_deal(seed=1)
    obs = state.observation(0)
    sizes = list(obs.hand_sizes)
    sizes[1] += 1  # one card too many among the others
    for bad in (dataclasses.replace(obs, hand_sizes=tuple(sizes)),
                dataclasses.replace(obs, current_player=(obs.current_player + 1) % 4,
                                    hand=obs.hand) if obs.current_player == 0 else
                dataclasses.replace(obs, current_player=0)):
        with pytest.raises(DealError, match="no deal shows this observation"):
            bad.sample_state(random.Random(0))


def test_passes_that_no_deal_keeps_are_refused_in_bounded_time() -> None:
    # Under B8, three seats of 13 cards each pass on the lowest straight: none of them could
    # hold a straight, flush, full house or four of a kind. Few deals if any keep that, and a
    # search that tried every way of dealing to find out would not end in a lifetime: it gives
    # up instead.
    game = parlour.new_game("big-two", pass_only_if_no_legal_play=True)
    mine = "3H 4D 5D 6D 7C 3D 3C 8D 9D 10D JD QD KD"
    rest = [str(c) for c in parlour.CardSet((1 << 52) - 1).cards() if str(c) not in mine.split()]
    state = game.new_deal(hands=[mine, *(" ".join(rest[i:i + 13]) for i in (0, 13, 26))],
                          leader=0)
    state.apply("3H 4D 5D 6D 7C")
    obs = state.observation(0)
    passed = dataclasses.replace(
        obs, history=(*obs.history, *((seat, state.parse_action("pass")) for seat in (1, 2, 3))),
        current_player=0, table=None, table_seat=-1, passes=0)
    with pytest.raises(DealError, match="no deal consistent with the passes was found in"):
        passed.sample_state(random.Random(0))
    assert obs.sample_state(random.Random(0)).observation(0) == obs  # before the passes


def test_greedy_refuses_an_empty_choice_and_picks_from_what_it_is_given() -> None:
    game = parlour.new_game("big-two")
    state = game.new_deal(seed=3)
    obs = state.observation(state.current_player)
    with pytest.raises(IllegalAction, match="none were given"):
        game.greedy_action(obs, [], random.Random(0))
    legal = state.legal_actions()
    # A tuple or any iterable of the legal actions serves; the very object chosen comes back.
    pick = game.greedy_action(obs, tuple(legal), random.Random(0))
    assert any(pick is a for a in legal)
    assert game.greedy_action(obs, iter(legal), random.Random(0)) is pick
