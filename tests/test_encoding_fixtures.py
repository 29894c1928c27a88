"""The observation encodings and action indexes recorded along the differential traces, and the
batched environment's arrays (``tests/fixtures/encoding/``, recorded by
``scripts/record_encodings.py`` from the Python encoders, indexes and environment; its
docstring gives the format), are reproduced exactly.

The compiled encoders and indexes (``parlour.encoding.compiled``) are checked at every
position of every deal; the Python ones, which made the recording, on every tenth deal and the
deals kept in full (this guards them against drifting).
"""

from __future__ import annotations

import functools
import hashlib
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import parlour
import trace_format as tf
from parlour.encoding import compiled
from parlour.envs import batched, encoder
from parlour.envs.batched import BatchedEnv, sample_legal

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "scripts"))
from record_encodings import (
    ARRAYS,
    BATCHED_FORMAT,
    BATCHED_RUNS,
    BATCHED_STEPS,
    DEAL_BYTES,
    FIXTURES,
    FORMAT,
    POSITION_BYTES,
    array_digest,
    full_position,
    legal_bytes,
    legal_indexes,
    obs_bytes,
    position_bytes,
)

VARIANTS = [v.name for v in parlour.variants()]


@functools.cache
def recorded(variant: str) -> dict[str, Any]:
    data: dict[str, Any] = tf.read_xz(FIXTURES / f"{variant}.json.xz")
    assert data["format"] == FORMAT and data["variant"] == variant
    assert (data["position_bytes"], data["deal_bytes"]) == (POSITION_BYTES, DEAL_BYTES)
    return data


def _digest(data: bytes, size: int = POSITION_BYTES) -> bytes:
    return hashlib.blake2b(data, digest_size=size).digest()


@pytest.mark.parametrize("variant", VARIANTS)
def test_python_encoders_reproduce_the_recorded_encodings(variant: str) -> None:
    traces = tf.load(tf.fixture_path(variant))["deals"]
    deals = recorded(variant)["deals"]
    assert len(deals) == len(traces) >= 2000
    checked = 0
    for index, (deal, want) in enumerate(zip(traces, deals, strict=True)):
        if index % 10 and "full" not in want:
            continue
        game = tf.new_game(deal, variant)
        state = game.new_deal(**deal["setup"])
        positions = bytes.fromhex(want["positions"])
        assert len(positions) == POSITION_BYTES * (len(deal["actions"]) + 1)
        obs_parts = hashlib.blake2b(digest_size=DEAL_BYTES)
        legal_parts = hashlib.blake2b(digest_size=DEAL_BYTES)
        for i in range(len(deal["actions"]) + 1):
            legal = legal_indexes(state)
            ob, lb = obs_bytes(state), legal_bytes(legal)
            where = f"{variant} deal {index} position {i} ({game!r})"
            if "full" in want:
                assert full_position(state, legal) == want["full"][i], where
            assert _digest(position_bytes(ob, lb)) == positions[
                POSITION_BYTES * i:POSITION_BYTES * (i + 1)], where
            obs_parts.update(ob)
            legal_parts.update(lb + b"\n")
            if i < len(deal["actions"]):
                tf.apply_recorded(state, deal["actions"][i])
        assert {"obs": obs_parts.hexdigest(), "legal": legal_parts.hexdigest()} == want["digests"]
        checked += 1
    assert checked >= 200


@pytest.mark.parametrize("variant", VARIANTS)
def test_compiled_encoders_reproduce_every_recorded_encoding(variant: str) -> None:
    traces = tf.load(tf.fixture_path(variant))["deals"]
    deals = recorded(variant)["deals"]
    assert len(deals) == len(traces) >= 2000
    positions_checked = 0
    for index, (deal, want) in enumerate(zip(traces, deals, strict=True)):
        game = tf.new_game(deal, variant)
        fast = compiled(game)
        assert fast is not None and fast.size == encoder(game).size
        state = game.new_deal(**deal["setup"])
        positions = bytes.fromhex(want["positions"])
        obs_parts = hashlib.blake2b(digest_size=DEAL_BYTES)
        legal_parts = hashlib.blake2b(digest_size=DEAL_BYTES)
        rows = np.empty((game.players, fast.size), dtype="<f4")
        for i in range(len(deal["actions"]) + 1):
            for seat in range(game.players):
                fast.encode_state(state, seat, rows[seat])
            legal = fast.legal(state)
            ob, lb = rows.tobytes(), legal_bytes(legal)
            where = f"{variant} deal {index} position {i} ({game!r})"
            if "full" in want:
                full = want["full"][i]
                assert legal == full["legal"], where
                for seat, entries in enumerate(full["obs"]):
                    nz = np.flatnonzero(rows[seat].view(np.uint32))
                    assert [[int(k), float(rows[seat, k])] for k in nz] == entries, where
            assert _digest(position_bytes(ob, lb)) == positions[
                POSITION_BYTES * i:POSITION_BYTES * (i + 1)], where
            obs_parts.update(ob)
            legal_parts.update(lb + b"\n")
            if i < len(deal["actions"]):
                tf.apply_recorded(state, deal["actions"][i])
        assert {"obs": obs_parts.hexdigest(), "legal": legal_parts.hexdigest()} == want["digests"]
        positions_checked += len(deal["actions"]) + 1
    assert positions_checked > 40_000


def test_the_full_deals_hold_the_encodings_they_digest() -> None:
    # The full positions and the digests are two records of one thing: they agree.
    for variant in VARIANTS:
        game_deals = tf.load(tf.fixture_path(variant))["deals"]
        for deal, want in zip(game_deals, recorded(variant)["deals"], strict=False):
            if "full" not in want:
                break
            game = tf.new_game(deal, variant)
            size = encoder(game).size
            positions = bytes.fromhex(want["positions"])
            for i, pos in enumerate(want["full"]):
                rows = np.zeros((game.players, size), dtype="<f4")
                for seat, entries in enumerate(pos["obs"]):
                    for k, value in entries:
                        rows[seat, k] = value
                digest = _digest(position_bytes(rows.tobytes(), legal_bytes(pos["legal"])))
                assert digest == positions[POSITION_BYTES * i:POSITION_BYTES * (i + 1)]


# -- the batched environment -----------------------------------------------------------------

@functools.cache
def batched_runs() -> list[dict[str, Any]]:
    data: dict[str, Any] = tf.read_xz(FIXTURES / "batched.json.xz")
    assert data["format"] == BATCHED_FORMAT and data["steps"] == BATCHED_STEPS
    runs: list[dict[str, Any]] = data["runs"]
    return runs


@pytest.mark.parametrize("run", range(len(BATCHED_RUNS)))
def test_batched_env_reproduces_the_recorded_arrays(run: int) -> None:
    _replay_batched(run)


@pytest.mark.parametrize("run", [1, 9, 13])  # one of each family
def test_the_python_rows_of_a_family_without_compiled_parts_reproduce_them_too(
        run: int, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(batched, "compiled", lambda game: None)
    _replay_batched(run)


def _replay_batched(run: int) -> None:
    want = batched_runs()[run]
    variant, players, options, num_envs, seed, rewards = BATCHED_RUNS[run]
    assert (want["variant"], want["players"], want["options"], want["num_envs"], want["seed"],
            want["rewards"]) == (variant, players, options, num_envs, seed, rewards)
    env = BatchedEnv(variant, num_envs, players, seed=seed, rewards=rewards, **options)
    rng = np.random.default_rng(seed)
    step = env.reset()
    ended = 0
    for call, digests in enumerate(want["calls"]):
        where = f"{variant} run {run} call {call}"
        arrays = {name: getattr(step, name) for name in ARRAYS}
        if call < len(want["full"]):
            full = want["full"][call]
            for name, a in arrays.items():
                assert a.tolist() == full[name], f"{where}: {name}"
        assert {name: array_digest(a) for name, a in arrays.items()} == {
            name: digests[name] for name in ARRAYS}, where
        if call % 50 == 0:  # the mask is built from the legal indexes: now and then
            assert array_digest(step.mask) == digests["mask"], where
        ended += int(step.done.sum())
        if call < BATCHED_STEPS:
            step = env.step(sample_legal(step, rng))
    assert ended > 0  # deals ended and were dealt again
