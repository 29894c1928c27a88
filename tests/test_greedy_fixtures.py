"""The ``greedy`` policy makes the recorded choice at every position of the differential traces
(``tests/fixtures/greedy/``, recorded by ``scripts/record_greedy.py`` from the policy as it was
written in Python; its docstring gives the format), and draws from its generator exactly as
that policy did.

Every deal is replayed through the public API; the policy is asked at every position before the
end, for the seat to move, with the generator the recorder gave it.
"""

from __future__ import annotations

import functools
import sys
from pathlib import Path
from typing import Any

import pytest

import parlour
import trace_format as tf

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from record_greedy import FIXTURES, FORMAT, position_rng

VARIANTS = [v.name for v in parlour.variants()]


@functools.cache
def recorded(variant: str) -> dict[str, Any]:
    data: dict[str, Any] = tf.read_xz(FIXTURES / f"{variant}.json.xz")
    assert data["format"] == FORMAT and data["variant"] == variant
    return data


@pytest.mark.parametrize("variant", VARIANTS)
def test_greedy_makes_every_recorded_choice(variant: str) -> None:
    traces = tf.load(tf.fixture_path(variant))["deals"]
    choices = recorded(variant)["deals"]
    assert len(choices) == len(traces) >= 2000
    decisions = 0
    for index, (deal, want) in enumerate(zip(traces, choices, strict=True)):
        game = tf.new_game(deal, variant)
        state = game.new_deal(**deal["setup"])
        assert len(want["choices"]) == len(deal["actions"])
        for i, played in enumerate(deal["actions"]):
            legal = state.legal_actions()
            ints = [int(a) for a in legal]
            rng = position_rng(variant, index, i)
            choice = game.greedy_action(state.observation(state.current_player), legal, rng)
            where = f"{variant} deal {index} position {i} ({game!r}, setup {deal['setup']})"
            assert choice in legal, f"{where}: {choice} is not legal"
            assert (int(choice), rng.getrandbits(16)) == (want["choices"][i], want["after"][i]), (
                f"{where}: chose {choice}, recorded "
                f"{legal[ints.index(want['choices'][i])]} (or it drew differently)")
            decisions += len(legal) > 1
            tf.apply_recorded(state, played, legal)
    assert decisions > 10_000  # real choices, not only forced moves
