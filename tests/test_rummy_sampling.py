"""Rummy's sampled states (``observation.sample_state``, compiled: ``RummyKnowledge``) keep
every constraint the observation carries, on positions of the recorded trace deals; and the
compiled greedy policy draws from its generator only as the policy always did.
"""

from __future__ import annotations

import copy
import dataclasses
import functools
import operator
import pickle
import random
from typing import Any

import pytest

import parlour
import trace_format as tf
from parlour.errors import DealError
from parlour.games.rummy.actions import DISCARD, LAYOFF, MELD
from parlour.games.rummy.engine import RummyState
from parlour.games.rummy.observation import RummyObservation

DEALS = tf.load(tf.fixture_path("rummy"))["deals"]


def replay(deal: dict[str, Any], stop: int) -> RummyState:
    """A trace deal after its first ``stop`` actions."""
    state = tf.new_game(deal, "rummy").new_deal(**deal["setup"])
    assert isinstance(state, RummyState)
    for played in deal["actions"][:stop]:
        state.apply(next(a for a in state.legal_actions() if int(a) == played))
    return state


def unseen_by(state: RummyState, seat: int) -> int:
    """The cards ``seat`` cannot see: the stock, and the other hands but their taken cards
    (every hand once the deal is over)."""
    zones = state.zones()
    out = int(zones["stock"])
    if not state.is_over:
        obs = state.observation(seat)
        for s in range(state.game.players):
            if s != seat:
                out |= int(zones[f"P{s}"]) & ~int(obs.taken[s])
    return out


def assert_consistent(state: RummyState, seat: int, sample: RummyState) -> None:
    obs = state.observation(seat)
    assert sample.observation(seat) == obs
    zones = sample.zones()
    places = [int(z) for z in zones.values()]
    assert sum(z.bit_count() for z in places) == 52  # every card once: in one place
    assert functools.reduce(operator.or_, places) == (1 << 52) - 1
    for s in range(state.game.players):
        hand = zones[f"P{s}"]
        assert len(hand) == obs.hand_sizes[s]
        assert int(obs.taken[s]) & ~int(hand) == 0, f"P{s} lost a card it took from the pile"
    assert zones[f"P{seat}"] == obs.hand
    assert len(zones["stock"]) == obs.stock_size
    # The unseen cards are the same cards, dealt anew.
    assert unseen_by(sample, seat) == unseen_by(state, seat)


@pytest.mark.parametrize("part", range(4))
def test_samples_keep_every_constraint_on_trace_positions(part: int) -> None:
    rng = random.Random(part)
    checked = moved = 0
    for index in range(part, len(DEALS), 16):
        deal = DEALS[index]
        length = len(deal["actions"])
        for stop in sorted({rng.randrange(length + 1) for _ in range(3)} | {length}):
            state = replay(deal, stop)
            for seat in range(state.game.players):
                obs = state.observation(seat)
                sample = obs.sample_state(random.Random(rng.getrandbits(32)))
                assert_consistent(state, seat, sample)
                checked += 1
                moved += any(sample.observation(s).hand != state.observation(s).hand
                             for s in range(state.game.players))
    assert checked > 1_000
    assert moved > checked // 2  # the hidden cards really are dealt anew


def test_a_sample_is_reproducible_from_its_generator_and_plays_on() -> None:
    state = replay(DEALS[3], len(DEALS[3]["actions"]) // 2)
    obs = state.observation(1)
    first, again = obs.sample_state(random.Random(7)), obs.sample_state(random.Random(7))
    assert first.setup() == again.setup()
    assert first.setup() != obs.sample_state(random.Random(8)).setup()
    rng = random.Random(9)
    greedy = state.game.greedy_action
    while not first.is_over:
        p = first.current_player
        first.apply(greedy(first.observation(p), first.legal_actions(), rng))
    assert len(first.returns()) == state.game.players


def test_the_sampled_seat_sees_a_drawn_card_only_when_it_may() -> None:
    game = parlour.new_game("rummy", players=3)
    state = game.new_deal(seed=5)
    state.apply("draw stock")
    drawn = state.observation(0).drawn
    assert drawn is not None and state.observation(1).drawn is None
    for seat in range(3):
        sample = state.observation(seat).sample_state(random.Random(seat))
        assert sample.observation(seat) == state.observation(seat)
    # The drawer's own sample keeps the card as drawn this turn, in its hand.
    assert state.observation(0).sample_state(random.Random(1)).observation(0).drawn == drawn


def test_knowledge_is_made_once_and_stays_out_of_the_fields() -> None:
    state = replay(DEALS[5], 20)
    obs = state.observation(0)
    knowledge = obs._knowledge()
    assert obs._knowledge() is knowledge and knowledge.seat == 0
    fresh = state.observation(0)
    assert fresh == obs and repr(fresh) == repr(obs) and fresh.to_dict() == obs.to_dict()
    for twin in (pickle.loads(pickle.dumps(obs)), copy.deepcopy(obs)):
        assert twin == obs
        assert twin.sample_state(random.Random(3)).setup() == \
            obs.sample_state(random.Random(3)).setup()


@pytest.mark.parametrize("change", [
    {"hand_sizes": (99, 7, 7)},
    {"stock_size": 0},
    {"discard": ()},
    {"phase": "later"},
    {"scores": (2**63 - 1, 0, 0)},  # melds would add past the largest whole number kept
])
def test_an_observation_of_no_deal_is_refused(change: dict[str, Any]) -> None:
    state = parlour.new_game("rummy", players=3).new_deal(seed=2)
    obs = dataclasses.replace(state.observation(1), **change)
    with pytest.raises(DealError, match="no view of a rummy deal"):
        obs.sample_state(random.Random(0))


class CountingRandom(random.Random):
    """Counts the calls of ``random()``."""

    calls = 0

    def random(self) -> float:
        self.calls += 1
        return super().random()


def test_greedy_draws_once_per_discard_and_only_to_discard() -> None:
    game = parlour.new_game("rummy", players=2)
    cases = {"draw": 0, "meld": 0, "discard": 0}
    for seed in range(30):
        state = game.new_deal(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            legal = state.legal_actions()
            counter = CountingRandom(seed)
            obs = state.observation(state.current_player)
            choice = game.greedy_action(obs, legal, counter)
            assert choice in legal
            discards = sum(a.kind == DISCARD for a in legal)
            if obs.phase == "draw":
                assert counter.calls == 0
                cases["draw"] += 1
            elif any(a.kind in (MELD, LAYOFF) for a in legal):
                assert counter.calls == 0 and choice.kind in (MELD, LAYOFF)
                cases["meld"] += 1
            else:
                assert counter.calls == discards and choice.kind == DISCARD
                cases["discard"] += 1
            state.apply(choice if rng.random() < 0.9 else rng.choice(legal))
    assert min(cases.values()) > 20


def test_greedy_refuses_what_it_cannot_choose_from() -> None:
    state = parlour.new_game("rummy").new_deal(seed=1)
    obs = state.observation(0)
    with pytest.raises(TypeError, match="rummy observation"):
        state.game.greedy_action(parlour.new_game("big-two").new_deal(seed=1).observation(0),
                                 state.legal_actions(), random.Random(0))
    with pytest.raises(ValueError, match="no legal action"):
        state.game.greedy_action(obs, [], random.Random(0))
    assert isinstance(obs, RummyObservation)
