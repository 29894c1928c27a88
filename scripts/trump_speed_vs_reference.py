"""``parlour bench``'s random and greedy play of Forty-Five and Spoil Five through the package's
engine and through the pure-Python trump engine of an earlier commit, in alternating rounds of
one process so that both see the same machine load.

    python scripts/trump_speed_vs_reference.py --seconds 3
"""

from __future__ import annotations

import argparse
import importlib
from functools import partial
from typing import Any

from reference_package import load_reference
from trump_differential import REFERENCE, reference_game

import parlour
from parlour import bench
from parlour.timing import timed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--rev", default=REFERENCE, help="the commit of the reference engine")
    args = parser.parse_args()
    # Each engine is played by its own package's bench functions and greedy bot.
    reference = load_reference(args.rev)
    benches = {"reference": importlib.import_module("parlour_reference.bench"), "package": bench}
    for name in ("forty-five", "spoil-five"):
        game = parlour.new_game(name)
        games: dict[str, Any] = {"reference": reference_game(reference, game), "package": game}
        best: dict[str, tuple[float, float]] = {}
        for _ in range(args.rounds):
            for label, g in games.items():
                play = benches[label]
                _, steps, elapsed = timed(args.seconds, partial(play.random_play, g))
                _, bot_steps, bot_elapsed = timed(args.seconds,
                                                  partial(play.bot_play, g, "greedy"))
                rates = (steps / elapsed, bot_steps / bot_elapsed)
                best[label] = max(best.get(label, (0.0, 0.0)), rates)
        for label, (rand, greedy) in best.items():
            print(f"{name} {label:9}: random play {rand:9,.0f} steps/s   "
                  f"greedy play {greedy:9,.0f} steps/s")
        (r0, g0), (r1, g1) = best["reference"], best["package"]
        print(f"{name} package / reference: random x{r1 / r0:.2f}, greedy x{g1 / g0:.2f}")


if __name__ == "__main__":
    main()
