"""Differential traces: every variant's engine replays the deals recorded from it, position by
position, exactly (``tests/fixtures/traces/``, recorded by ``scripts/record_traces.py``; the
format is described there and in ``tests/trace_format.py``).

Only the public API is used, so an engine written anew under it (the planned Rust one) is
checked by this very test.

Every deal of every fixture is replayed: it is dealt again from its seed and from its setup,
and each recorded action is taken from the legal actions by its int, its text checked both
ways, while the play part of each position (whose turn, the legal actions in order, the
returns) is digested and compared with the deal's digest, and the returns at the end are
compared exactly. The observations of every seat and the card zones are checked in full (each
position's digest, each part's digest, and field by field for the deals stored in full) on
the deals stored in full and every :data:`SAMPLE`-th deal (about 50 s of CPU time for the six
variants, rummy the longest); with ``PARLOUR_TRACES=all`` in the environment on every deal
(about 6 minutes of CPU time; every deal passes).
"""

from __future__ import annotations

import functools
import os
from typing import Any

import pytest

import parlour
import trace_format as tf
from parlour.registry import get_variant

VARIANTS = [v.name for v in parlour.variants()]
#: Every this many deals one is checked in full (besides those stored in full).
SAMPLE = 1 if os.environ.get("PARLOUR_TRACES") == "all" else 20
MIN_DEALS = 2000


@functools.cache
def fixture(variant: str) -> dict[str, Any]:
    return tf.load(tf.fixture_path(variant))


def differences(got: Any, want: Any, path: str) -> list[str]:
    """Where two JSON values differ, as paths with both values (the first few)."""
    if isinstance(got, dict) and isinstance(want, dict):
        out = [f"{path}.{k}: missing" for k in want if k not in got]
        out += [f"{path}.{k}: unexpected" for k in got if k not in want]
        for k in want:
            if k in got:
                out += differences(got[k], want[k], f"{path}.{k}")
        return out
    if isinstance(got, list) and isinstance(want, list) and len(got) == len(want):
        return [d for i, (g, w) in enumerate(zip(got, want, strict=True))
                for d in differences(g, w, f"{path}[{i}]")]
    if tf.canonical(got) != tf.canonical(want):
        return [f"{path}: {tf.canonical(got).decode()[:300]} != {tf.canonical(want).decode()[:300]}"]
    return []


def check_deal(variant: str, index: int, deal: dict[str, Any], full: bool) -> None:
    game = tf.new_game(deal, variant)
    where = f"{variant} deal {index} ({game!r}, seed {deal['seed']}, args {deal['args']})"
    dealt = game.new_deal(seed=deal["seed"], **deal["args"])
    assert tf.plain(dealt.setup()) == deal["setup"], f"{where}: the setup differs"
    state = game.new_deal(**deal["setup"])
    assert tf.plain(state.setup()) == deal["setup"], f"{where}: new_deal(**setup) differs"
    actions, texts = deal["actions"], deal["texts"]
    assert len(actions) == len(texts)
    stored = deal.get("full")
    digests = tf.DealDigests() if full else tf.DealDigests(("play",))
    width = tf.POSITION_BYTES
    expected = bytes.fromhex(deal["positions"])
    assert len(expected) == width * (len(actions) + 1), f"{where}: fixture positions"
    for pos, i in tf.positions(state, actions, texts, full=full):
        k = len(actions) if i is None else i
        at = f"{where}, position {k}" + (f" (after {texts[k - 1]})" if k else "")
        if stored is not None:
            want = stored[k]
            got = {**pos, "legal_text": [str(a) for a in state.legal_actions()]}
            if tf.canonical(got) != tf.canonical(want):
                diff = differences(tf.plain(got), want, "position")
                pytest.fail(f"{at}:\n  " + "\n  ".join(diff[:10]))
        digest = digests.add(pos)
        if full:
            assert digest == expected[k * width:(k + 1) * width], (
                f"{at}: the position differs (player {pos['player']}, "
                f"{len(pos['legal'])} legal actions)")
    assert state.is_over, f"{where}: not over after the recorded actions"
    assert tf.canonical(state.returns()) == tf.canonical(deal["returns"]), (
        f"{where}: returns {state.returns()} != {deal['returns']}")
    got_parts = digests.parts()
    wrong = [name for name, h in got_parts.items() if h != deal["digests"][name]]
    assert not wrong, f"{where}: the {' and '.join(wrong)} of some position(s) differ"


@pytest.mark.parametrize("variant", VARIANTS)
def test_replay(variant: str) -> None:
    data = fixture(variant)
    assert data["variant"] == variant
    assert (data["position_bytes"], data["deal_bytes"]) == (tf.POSITION_BYTES, tf.DEAL_BYTES)
    for index, deal in enumerate(data["deals"]):
        check_deal(variant, index, deal, "full" in deal or index % SAMPLE == 0)


@pytest.mark.parametrize("variant", VARIANTS)
def test_coverage(variant: str) -> None:
    """The fixture holds enough deals, of every player count, with other options, and each
    way of playing."""
    deals = fixture(variant)["deals"]
    assert len(deals) >= MIN_DEALS
    assert {d["players"] for d in deals} == set(get_variant(variant).players)
    defaults = parlour.new_game(variant).option_values()
    for name, default in defaults.items():
        assert any(d["options"][name] != default for d in deals), f"option {name} never moved"
    bots = {b for d in deals for b in d["bots"]}
    assert bots == {"random", "greedy", "easy", "search"}
    assert sum("full" in d for d in deals) >= 20
    assert len({d["run"] for d in deals}) < len(deals), "no deal follows another in a run"
