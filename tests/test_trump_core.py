"""The compiled trump engine (``parlour._core.TrumpEngine``) under bad input: whatever it is
given it refuses with an ordinary Python error, never a Rust panic, and a refused move leaves
the deal unchanged."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour._core import TrumpEngine, TrumpRules
from parlour.errors import DealError
from parlour.games.trump.actions import MOVES

BIG = st.integers(-(2**70), 2**70)
SMALL = st.integers(-3, 140)


def rules(**flags: object) -> TrumpRules:
    return TrumpRules(moves=[MOVES.get(v) for v in range(133)], silent_ace=False,
                      immediate_pickup=False, stop_at_three=True, jinking=True, ante=1,
                      **flags)  # type: ignore[arg-type]


@settings(max_examples=300, deadline=None)
@given(hands=st.lists(st.one_of(BIG, st.integers(0, 2**52 - 1)), max_size=12),
       turn_up=st.one_of(BIG, st.integers(0, 60)), dealer=st.one_of(BIG, st.integers(0, 12)),
       pool=st.floats(allow_nan=True))
def test_any_deal_is_made_or_refused_without_a_panic(hands, turn_up, dealer, pool) -> None:
    try:
        engine = TrumpEngine(rules(), hands, turn_up, dealer, pool)
    except (DealError, OverflowError, TypeError):
        return
    assert engine.current_player in range(len(hands))


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32), values=st.lists(st.one_of(SMALL, BIG), min_size=1,
                                                    max_size=40))
def test_any_int_is_applied_or_refused_leaving_the_deal_unchanged(seed, values) -> None:
    game = parlour.new_game("spoil-five", players=1 + seed % 9 + 1, jinking=True,
                            silent_ace=bool(seed & 1))
    state = game.new_deal(seed=seed)
    engine = state._e
    rng = random.Random(seed)
    for v in values:
        if engine.current_player < 0:
            break
        before = (engine.hands(), engine.history(), engine.observe(0))
        moved = engine.apply(v)
        if moved < -1:
            assert (engine.hands(), engine.history(), engine.observe(0)) == before
        legal = engine.legal_actions()
        if legal:
            engine.apply(rng.choice(legal))
    for seat in (-1, 10, 2**70):
        with pytest.raises((ValueError, OverflowError)):
            engine.observe(seat)
        with pytest.raises((ValueError, OverflowError)):
            engine.hidden_from(seat)


def test_bad_rules_are_refused() -> None:
    with pytest.raises(ValueError, match="moves"):
        TrumpRules(moves=[], silent_ace=False, immediate_pickup=False, stop_at_three=False,
                   jinking=False)
    with pytest.raises(ValueError, match="points"):
        rules(points=[0, 5])
    extreme = TrumpRules(moves=[MOVES.get(v) for v in range(133)], silent_ace=False,
                         immediate_pickup=False, stop_at_three=True, jinking=False,
                         ante=-(2**31))
    engine = TrumpEngine(extreme, [0b11111, 0b11111 << 5], 51, 0, 0.0)
    while engine.current_player >= 0:
        engine.apply(engine.legal_actions()[0])
    assert engine.returns() in ([2.0**31, 2.0**31], [-(2.0**31), 2.0**31 * 3],
                                [2.0**31 * 3, -(2.0**31)])


def test_games_observations_and_states_copy_as_before() -> None:
    import copy
    import pickle

    for name in ("forty-five", "spoil-five"):
        game = parlour.new_game(name, silent_ace=True)
        assert pickle.loads(pickle.dumps(game)) == game
        state = game.new_deal(seed=3)
        state.apply(state.legal_actions()[0])
        obs = state.observation(1)
        assert pickle.loads(pickle.dumps(obs)).to_dict() == obs.to_dict()
        other = copy.deepcopy(state)
        assert other.history == state.history and other.zones() == state.zones()
        other.apply(other.legal_actions()[0])
        assert len(other.history) == len(state.history) + 1
