"""parlour's Forty-Five beside OpenSpiel's C++ Euchre, both driven the same way from Python.

Euchre is the nearest game OpenSpiel has to Forty-Five: four players in two partnerships, a
short deck dealt by the engine, a trump suit, five tricks. Both engines are driven through
their public Python API by the same loop: a new deal, then at every step the legal actions and
one of them applied at random (OpenSpiel's chance nodes, its dealing a card at a time, are
driven the same way but not counted as steps; parlour deals inside ``new_deal``, also timed). The two
are measured in one process, in alternating rounds, so that both see the same machine; the
median round of each is reported, with the ratio.

    .venv/bin/python scripts/bench_openspiel.py            # installs open_spiel if missing
    .venv/bin/python scripts/bench_openspiel.py --seconds 2 --rounds 5

OpenSpiel comes from PyPI (``open_spiel``, Apache-2.0); the script installs it into the
running interpreter's environment when it is not there (``--no-install`` refuses instead). It
is a benchmark, not a dependency of parlour.
"""

from __future__ import annotations

import argparse
import importlib
import importlib.metadata
import random
import statistics
import subprocess
import sys
import time
from collections.abc import Callable
from typing import Any

import parlour
from parlour.bench import random_play


def load_pyspiel(install: bool) -> Any:
    try:
        return importlib.import_module("pyspiel")
    except ImportError:
        if not install:
            raise SystemExit("open_spiel is not installed (pip install open_spiel)") from None
    print("installing open_spiel from PyPI ...", flush=True)
    subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "open_spiel"], check=True)
    return importlib.import_module("pyspiel")


def openspiel_play(game: Any, seed: int, count_chance: bool = False) -> int:
    """One deal of uniformly random play in an OpenSpiel game; the player actions taken (and
    the chance actions too, with ``count_chance``)."""
    rng = random.Random(seed)
    state = game.new_initial_state()
    steps = 0
    while not state.is_terminal():
        chance = state.is_chance_node()  # Euchre's chance nodes deal: every outcome alike
        state.apply_action(rng.choice(state.legal_actions()))
        steps += count_chance or not chance
    return steps


def steps_per_second(play: Callable[[int], int], seconds: float, first_seed: int) -> float:
    steps, seed = 0, first_seed
    start = time.perf_counter()
    while time.perf_counter() - start < seconds:
        steps += play(seed)
        seed += 1
    return steps / (time.perf_counter() - start)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per measurement")
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds of each")
    parser.add_argument("--no-install", action="store_true",
                        help="do not install open_spiel when it is missing")
    args = parser.parse_args(argv)
    pyspiel = load_pyspiel(not args.no_install)
    euchre = pyspiel.load_game("euchre")
    forty_five = parlour.new_game("forty-five", players=4)
    ours: list[float] = []
    theirs: list[float] = []
    for r in range(args.rounds):
        ours.append(steps_per_second(lambda s: random_play(forty_five, s), args.seconds, r << 20))
        theirs.append(steps_per_second(lambda s: openspiel_play(euchre, s), args.seconds, r << 20))
    mine, other = statistics.median(ours), statistics.median(theirs)
    # Steps per deal, to say what the ratio would be if the dealing steps counted as well.
    player = sum(openspiel_play(euchre, s) for s in range(200))
    every = sum(openspiel_play(euchre, s, count_chance=True) for s in range(200))
    print(f"parlour forty-five (4 players), random play:  {mine:10,.0f} steps/s "
          f"(rounds {min(ours):,.0f}–{max(ours):,.0f})")
    print(f"OpenSpiel {pyspiel.__name__} euchre, random play:   {other:10,.0f} steps/s "
          f"(rounds {min(theirs):,.0f}–{max(theirs):,.0f})")
    print(f"  ({every / player * other:,.0f} steps/s counting its {(every - player) / 200:.0f} "
          f"dealing steps a deal as well, {player / 200:.1f} player steps)")
    print(f"ratio: {mine / other:.2f}× (open_spiel "
          f"{importlib.metadata.version('open_spiel')}, Python {sys.version.split()[0]})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
