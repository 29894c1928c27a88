"""Record today's observation encodings, action indexes and batched environment as fixtures
(``tests/fixtures/encoding/``), so that an encoder, index or environment written anew (the
compiled one) must give exactly the same numbers: ``tests/test_encoding_fixtures.py`` checks
them.

The committed fixtures were made by::

    .venv/bin/python scripts/record_encodings.py

(every variant; ``--variant NAME`` for one; ``--part traces`` or ``--part batched`` for one
kind of fixture). The script puts ``src`` and ``tests`` on the path itself.

Encodings along the differential traces
---------------------------------------
Each deal of ``tests/fixtures/traces/{variant}.json.xz`` (2,000 deals of random, greedy, mixed
and searching play, every player count and many option settings) is replayed, and at every
position (before each action, and once more at the end) it records

- the encoding of every seat, ``encoder(game).encode(state.observation(seat))`` (``float32``),
  seat 0 first;
- the legal actions' indexes, ``action_index(game).indices(state.legal_actions(), state)``
  (none at the end).

``{variant}.json.xz`` (JSON, sorted keys, lzma, as the traces) holds ``format``
(``"parlour-encoding/1"``), ``variant``, ``position_bytes``, ``deal_bytes`` and ``deals``, one
object per trace deal in order with

- ``positions``: hexadecimal, per position the first ``position_bytes`` bytes of the BLAKE2b
  digest of :func:`position_bytes` (every seat's encoding, then the legal indexes);
- ``digests``: ``obs`` and ``legal``, a ``deal_bytes``-byte BLAKE2b digest over all the
  positions of that part alone (:func:`obs_bytes`, :func:`legal_bytes`), so that a mismatch
  says which part differs;
- ``full`` (the first :data:`FULL_DEALS` deals only): per position ``legal`` (the indexes) and
  ``obs``, per seat the entries of its encoding other than ``0.0`` (``-0.0`` is kept) as
  ``[index, value]`` pairs (the ``float32`` value written as the double it converts to, so
  exactly).

The batched environment
-----------------------
``batched.json.xz`` holds runs of ``parlour.envs.batched.BatchedEnv`` as it is today: for each
run (:data:`BATCHED_RUNS`: every variant, several player counts and options, both reward
scales, a few batch sizes) ``reset()`` and then :data:`BATCHED_STEPS` calls of ``step(sample_legal(step, rng))``
with ``rng = numpy.random.default_rng(run's seed)``. Per call it keeps a 16-byte BLAKE2b digest
of each array of the :class:`~parlour.envs.batched.BatchStep` but the mask (``obs``, ``legal``,
``offsets``, ``player``, ``rewards``, ``done``: its dtype, shape and bytes, :func:`array_bytes`),
and the mask's digest separately; the first :data:`BATCHED_FULL` calls of each run are kept in
full as well.
"""

from __future__ import annotations

import argparse
import hashlib
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

import parlour  # noqa: E402
import trace_format as tf  # noqa: E402
from parlour.envs import action_index, encoder  # noqa: E402
from parlour.game import State  # noqa: E402

FORMAT = "parlour-encoding/1"
BATCHED_FORMAT = "parlour-batched/1"
FIXTURES = ROOT / "tests" / "fixtures" / "encoding"
POSITION_BYTES = 4
DEAL_BYTES = 16
#: Deals kept in full (every encoding's nonzero entries and the legal indexes).
FULL_DEALS = 3
#: ``(variant, players, options, num_envs, seed, rewards)`` of each batched run.
BATCHED_RUNS: list[tuple[str, int | None, dict[str, Any], int, int, str]] = [
    ("big-two-4card", None, {}, 8, 1, "score"),
    ("big-two-4card", None, {}, 3, 2, "normalised"),
    ("big-two", None, {}, 8, 3, "score"),
    ("big-two", None, {"allow_triples": True, "pass_only_if_no_legal_play": True}, 5, 4,
     "normalised"),
    ("pusoy-dos", None, {}, 8, 5, "normalised"),
    ("pusoy-dos", None, {"scoring": "penalty", "control_after_out": "standard"}, 5, 6, "score"),
    ("forty-five", 4, {}, 8, 7, "score"),
    ("forty-five", 6, {"scoring": "alternative", "silent_ace": True}, 5, 8, "normalised"),
    ("forty-five", 2, {}, 4, 9, "score"),
    ("spoil-five", 5, {"jinking": True, "ante": 2}, 8, 10, "normalised"),
    ("spoil-five", 2, {}, 6, 11, "score"),
    ("spoil-five", 10, {"ace_pickup": "immediate"}, 3, 12, "score"),
    ("rummy", 2, {}, 6, 13, "score"),
    ("rummy", 3, {"forbid_discard_of_drawn_discard": True, "turn_limit": 40}, 4, 14,
     "normalised"),
    ("rummy", 4, {"score_melds": False}, 5, 15, "score"),
]
BATCHED_STEPS = 300
BATCHED_FULL = 3
ARRAYS = ("obs", "legal", "offsets", "player", "rewards", "done")


def obs_bytes(state: State) -> bytes:
    """Every seat's encoding of ``state``, seat 0 first (``float32``, native little-endian)."""
    enc = encoder(state.game)
    return b"".join(enc.encode(state.observation(seat)).astype("<f4").tobytes()
                    for seat in range(state.game.players))


def legal_indexes(state: State) -> list[int]:
    return list(action_index(state.game).indices(state.legal_actions(), state))


def legal_bytes(indexes: list[int]) -> bytes:
    return np.asarray(indexes, dtype="<i8").tobytes()


def position_bytes(obs: bytes, legal: bytes) -> bytes:
    """What a position's short digest is taken over: the encodings, a separator, the indexes."""
    return obs + b"|" + legal


def full_position(state: State, legal: list[int]) -> dict[str, Any]:
    enc = encoder(state.game)
    obs = []
    for seat in range(state.game.players):
        x = enc.encode(state.observation(seat))
        nz = np.flatnonzero(x.view(np.uint32))  # -0.0 too (a return of no points)
        obs.append([[int(i), float(x[i])] for i in nz])
    return {"legal": legal, "obs": obs}


def record_deal(variant: str, index: int, deal: dict[str, Any]) -> dict[str, Any]:
    game = tf.new_game(deal, variant)
    state = game.new_deal(**deal["setup"])
    positions = bytearray()
    parts = {"obs": hashlib.blake2b(digest_size=DEAL_BYTES),
             "legal": hashlib.blake2b(digest_size=DEAL_BYTES)}
    full: list[dict[str, Any]] = []
    actions = deal["actions"]
    for i in range(len(actions) + 1):
        legal = legal_indexes(state)
        ob, lb = obs_bytes(state), legal_bytes(legal)
        positions += hashlib.blake2b(position_bytes(ob, lb), digest_size=POSITION_BYTES).digest()
        parts["obs"].update(ob)
        parts["legal"].update(lb + b"\n")
        if index < FULL_DEALS:
            full.append(full_position(state, legal))
        if i < len(actions):
            tf.apply_recorded(state, actions[i])
    out: dict[str, Any] = {"positions": positions.hex(),
                           "digests": {k: h.hexdigest() for k, h in parts.items()}}
    if index < FULL_DEALS:
        out["full"] = full
    return out


def record_traces(variant: str) -> None:
    start = time.process_time()
    traces = tf.load(tf.fixture_path(variant))
    deals = [record_deal(variant, i, d) for i, d in enumerate(traces["deals"])]
    tf.save(FIXTURES / f"{variant}.json.xz",
            {"format": FORMAT, "variant": variant, "position_bytes": POSITION_BYTES,
             "deal_bytes": DEAL_BYTES, "deals": deals})
    positions = sum(len(d["positions"]) // (2 * POSITION_BYTES) for d in deals)
    print(f"{variant}: {len(deals)} deals, {positions} positions, "
          f"{time.process_time() - start:.0f} s", flush=True)


def array_bytes(a: np.ndarray) -> bytes:
    """An array's dtype, shape and bytes (C order), for its digest."""
    return f"{a.dtype.str}{a.shape}".encode("ascii") + np.ascontiguousarray(a).tobytes()


def array_digest(a: np.ndarray) -> str:
    return hashlib.blake2b(array_bytes(a), digest_size=DEAL_BYTES).hexdigest()


def record_batched_run(variant: str, players: int | None, options: dict[str, Any],
                       num_envs: int, seed: int, rewards: str) -> dict[str, Any]:
    from parlour.envs.batched import BatchedEnv, sample_legal

    env = BatchedEnv(variant, num_envs, players, seed=seed, rewards=rewards, **options)
    rng = np.random.default_rng(seed)
    step = env.reset()
    calls: list[dict[str, Any]] = []
    full: list[dict[str, Any]] = []
    for call in range(BATCHED_STEPS + 1):
        arrays = {name: getattr(step, name) for name in ARRAYS}
        calls.append({**{name: array_digest(a) for name, a in arrays.items()},
                      "mask": array_digest(step.mask)})
        if call < BATCHED_FULL:
            full.append({name: a.tolist() for name, a in arrays.items()})
        if call < BATCHED_STEPS:
            step = env.step(sample_legal(step, rng))
    return {"variant": variant, "players": players, "options": options, "num_envs": num_envs,
            "seed": seed, "rewards": rewards, "calls": calls, "full": full}


def record_batched() -> None:
    start = time.process_time()
    runs = [record_batched_run(*run) for run in BATCHED_RUNS]
    tf.save(FIXTURES / "batched.json.xz",
            {"format": BATCHED_FORMAT, "steps": BATCHED_STEPS, "runs": runs})
    print(f"batched: {len(runs)} runs, {time.process_time() - start:.0f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=[v.name for v in parlour.variants()])
    parser.add_argument("--part", choices=("traces", "batched"))
    args = parser.parse_args()
    FIXTURES.mkdir(parents=True, exist_ok=True)
    if args.part in (None, "traces"):
        for variant in [args.variant] if args.variant else [v.name for v in parlour.variants()]:
            record_traces(variant)
    if args.part in (None, "batched") and args.variant is None:
        record_batched()


if __name__ == "__main__":
    main()
