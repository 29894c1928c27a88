"""The environments' compiled parts (``parlour._core.EnvCore``, ``parlour.envs.encoding.compiled``):
they read only what a seat may see, and refuse what does not fit them without changing
anything. (That they reproduce the Python encoders exactly is ``test_encoding_fixtures.py``.)"""

from __future__ import annotations

import random

import numpy as np
import pytest

import parlour
from parlour.envs import encoder
from parlour.envs.encoding import compiled

SEATINGS = [(v.name, n) for v in parlour.variants() for n in v.players]


@pytest.mark.parametrize(("variant", "players"), SEATINGS)
def test_hidden_cards_never_change_the_compiled_encoding(variant: str, players: int) -> None:
    game = parlour.new_game(variant, players=players)
    fast = compiled(game)
    assert fast is not None
    rng = random.Random(players)
    differed = 0
    for d in range(3):
        state = game.new_deal(seed=100 * players + d)
        step = 0
        while True:
            if step % 7 == 0:
                seat = rng.randrange(players)
                x = fast.encode_state(state, seat)
                assert np.array_equal(x, encoder(game).encode(state.observation(seat)))
                other = state.observation(seat).sample_state(rng)  # hidden cards dealt anew
                assert np.array_equal(fast.encode_state(other, seat), x)
                zones, other_zones = state.zones(), other.zones()
                differed += any(zones[f"P{p}"] != other_zones[f"P{p}"] for p in range(players))
            if state.is_over:
                break
            state.apply(rng.choice(state.legal_actions()))
            step += 1
    assert differed  # the samples did move hidden cards


def test_the_compiled_parts_refuse_what_does_not_fit() -> None:
    game = parlour.new_game("big-two-4card")
    fast = compiled(game)
    assert fast is not None
    state = game.new_deal(seed=1)
    x = fast.encode_state(state, 0)
    for seat in (4, -1, 10**30):
        with pytest.raises((ValueError, OverflowError)):
            fast.encode_state(state, seat)
    with pytest.raises(ValueError, match="entries"):
        fast.encode_state(state, 0, np.empty(fast.size + 1, dtype=np.float32))
    with pytest.raises(TypeError):
        fast.encode_state(state, 0, np.empty(fast.size, dtype=np.float64))  # type: ignore[arg-type]
    with pytest.raises(TypeError):  # another family's deal
        fast.core.encode(parlour.new_game("forty-five").new_deal(seed=1)._e, 0,
                         np.empty(fast.size, dtype=np.float32))
    three = compiled(parlour.new_game("spoil-five", players=3))
    assert three is not None
    with pytest.raises(ValueError, match="seats"):  # another player count's deal
        three.encode_state(parlour.new_game("spoil-five", players=5).new_deal(seed=1), 0)
    with pytest.raises(ValueError, match="entries"):
        fast.legal_mask(state, np.zeros(10, dtype=np.int8))
    assert np.array_equal(fast.encode_state(state, 0), x)  # nothing changed
    trump = parlour.new_game("forty-five")
    t = compiled(trump)
    assert t is not None
    with pytest.raises(ValueError, match="scores"):
        t.core.encode(trump.new_deal(seed=1)._e, 0, np.empty(t.size, dtype=np.float32), [1.0])
    rummy = parlour.new_game("rummy")
    r = compiled(rummy)
    assert r is not None
    with pytest.raises(ValueError, match="discard"):
        r.core.encode(rummy.new_deal(seed=1)._core, 0, np.empty(r.size, dtype=np.float32), [0])
