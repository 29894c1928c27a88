"""The environments' speed in every variant, as one table: the AEC environment's steps/s, and
the batched environment's agent steps/s with 1,024 and 8,192 deals per call, on one thread and
on two (``threads=2``), in one process (the two taking turns in short rounds, each figure
their median: :func:`parlour.envs.speed.batched_rates`). The figures of docs/rl.md's Speed section:

    .venv/bin/python scripts/bench_envs.py                # 3 s a figure
    .venv/bin/python scripts/bench_envs.py --seconds 10

The first line names the machine (as ``parlour bench`` does); quote it with the figures.
"""

from __future__ import annotations

import argparse

import parlour
from parlour.bench import machine
from parlour.envs.aec import ParlourAECEnv
from parlour.envs.speed import AECRunner, batched_rates
from parlour.timing import timed

BATCHES = (1024, 8192)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="seconds a figure")
    args = parser.parse_args()
    print(machine())
    head = " | ".join(f"batched, {b:,} deals: 1 thread | 2 threads" for b in BATCHES)
    print(f"| variant | AEC steps/s | {head} |")
    print("|---" * (2 + 2 * len(BATCHES)) + "|")
    for variant in parlour.variants():
        game = parlour.new_game(variant.name)
        runner = AECRunner(ParlourAECEnv(game))

        def aec(_: int, runner: AECRunner = runner) -> int:
            return runner.run(32)  # in small slices: a whole Rummy deal would overshoot

        _, steps, elapsed = timed(args.seconds, aec)
        cells = [f"{steps / elapsed:,.0f}"]
        for batch in BATCHES:
            one, two = batched_rates(game, args.seconds, batch, (1, 2))
            cells += [f"{one.loop:,.0f}", f"{two.loop:,.0f} ({two.loop / one.loop:.2f}×; "
                      f"steps {two.step / one.step:.2f}×)"]
        print(f"| {variant.name} ({game.players} players) | {' | '.join(cells)} |", flush=True)


if __name__ == "__main__":
    main()
