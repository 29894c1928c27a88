"""Record the ``greedy`` policy's choice at every position of the differential traces
(``tests/fixtures/greedy/``), so that a policy written anew (the compiled one) must make the
same choices: ``tests/test_greedy_fixtures.py`` checks them.

The committed fixtures were made by::

    .venv/bin/python scripts/record_greedy.py

(every variant; ``--variant NAME`` for one). It replays each deal of
``tests/fixtures/traces/{variant}.json.xz`` (2,000 deals of random, greedy, mixed and searching
play, every player count and many option settings) and, at every position before the end, asks
``game.greedy_action(state.observation(seat), state.legal_actions(), rng)`` for the seat to
move, with ``rng = random.Random(f"parlour-greedy/{variant}/{deal}/{position}")``.

The fixture, ``{variant}.json.xz`` (JSON, sorted keys, lzma, as the traces): ``format``
(``"parlour-greedy/1"``), ``variant`` and ``deals``, one object per trace deal in order with
``choices`` (``int`` of the policy's choice at each position) and ``after`` (``rng.getrandbits(16)``
drawn once the policy has chosen: a policy that draws from ``rng`` must draw exactly as much, in
the same cases, for these to match).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

import parlour  # noqa: E402
import trace_format as tf  # noqa: E402

FORMAT = "parlour-greedy/1"
FIXTURES = ROOT / "tests" / "fixtures" / "greedy"


def position_rng(variant: str, deal: int, position: int) -> random.Random:
    """The generator the policy is given at one position (seeded from a string: SHA-512)."""
    return random.Random(f"parlour-greedy/{variant}/{deal}/{position}")


def greedy_choices(variant: str, index: int, deal: dict[str, Any]) -> dict[str, list[int]]:
    """The policy's choice, and the generator's next draw, at each position of one deal."""
    game = tf.new_game(deal, variant)
    state = game.new_deal(**deal["setup"])
    choices: list[int] = []
    after: list[int] = []
    for i, played in enumerate(deal["actions"]):
        legal = state.legal_actions()
        rng = position_rng(variant, index, i)
        choice = game.greedy_action(state.observation(state.current_player), legal, rng)
        choices.append(int(choice))
        after.append(rng.getrandbits(16))
        tf.apply_recorded(state, played, legal)
    return {"choices": choices, "after": after}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--variant", choices=[v.name for v in parlour.variants()])
    args = parser.parse_args()
    FIXTURES.mkdir(parents=True, exist_ok=True)
    for variant in [args.variant] if args.variant else [v.name for v in parlour.variants()]:
        start = time.process_time()
        traces = tf.load(tf.fixture_path(variant))
        deals = [greedy_choices(variant, i, d) for i, d in enumerate(traces["deals"])]
        tf.save(FIXTURES / f"{variant}.json.xz",
                {"format": FORMAT, "variant": variant, "deals": deals})
        positions = sum(len(d["choices"]) for d in deals)
        print(f"{variant}: {len(deals)} deals, {positions} positions, "
              f"{time.process_time() - start:.0f} s", flush=True)


if __name__ == "__main__":
    main()
