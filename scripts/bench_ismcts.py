"""Time a move of ``ismcts`` beside ``expert``'s, on the same positions, in one process.

The positions are those of a deal played by ``greedy`` (every one where the player to move has
more than one legal move; the first 20), as ``parlour bench`` takes them; each bot chooses at
each in turn, and the CPU time of each choice is kept (``time.process_time``, so that other
work on the machine counts less). How the default budget of ``ismcts`` was chosen
(docs/openspiel.md):

    .venv/bin/python scripts/bench_ismcts.py                     # every variant, 100 simulations
    .venv/bin/python scripts/bench_ismcts.py forty-five --players 2 --simulations 50

Needs OpenSpiel (``pip install '.[openspiel]'``).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Sequence

import parlour
from parlour.bots import Bot, GreedyBot, make_bot
from parlour.bots.ismcts import SIMULATIONS, ISMCTSBot
from parlour.game import Action, Game, Observation
from parlour.play import play_out


def positions(game: Game, limit: int = 20) -> list[tuple[Observation, Sequence[Action]]]:
    """The first ``limit`` real choices of a deal (seed 0) played by ``greedy``."""
    found: list[tuple[Observation, Sequence[Action]]] = []

    class Recording(GreedyBot):
        def choose(self, observation: Observation, legal_actions: Sequence[Action],
                   rng: random.Random) -> Action:
            if len(legal_actions) > 1:
                found.append((observation, legal_actions))
            return super().choose(observation, legal_actions, rng)

    play_out(game.new_deal(seed=0), [Recording()] * game.players, random.Random(0))
    return found[:limit]


def milliseconds(bot: Bot, chosen: list[tuple[Observation, Sequence[Action]]]) -> list[float]:
    bot.choose(*chosen[0], random.Random(-1))  # untimed: loads networks and OpenSpiel
    times = []
    for i, (observation, legal) in enumerate(chosen):
        start = time.process_time()
        bot.choose(observation, legal, random.Random(i))
        times.append((time.process_time() - start) * 1e3)
    return times


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant", nargs="?", help="one variant (default: every one)")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--simulations", type=int, default=SIMULATIONS)
    args = parser.parse_args(argv)
    names = [args.variant] if args.variant else [v.name for v in parlour.variants()]
    for name in names:
        game = parlour.new_game(name, players=args.players if args.variant else None)
        chosen = positions(game)
        expert = milliseconds(make_bot("expert"), chosen)
        ismcts = milliseconds(ISMCTSBot(simulations=args.simulations), chosen)
        print(f"{name} ({game.players} players, {len(chosen)} positions): expert "
              f"{statistics.mean(expert):6.1f} ms a move (median {statistics.median(expert):.1f}),"
              f" ismcts {args.simulations} simulations {statistics.mean(ismcts):6.1f} ms "
              f"(median {statistics.median(ismcts):.1f})", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
