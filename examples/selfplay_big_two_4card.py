"""Learn big-two-4card by self-play on the batched environment and beat ``greedy`` (plain numpy).

    python examples/selfplay_big_two_4card.py --minutes 30 --out selfplay.npz
    python examples/selfplay_big_two_4card.py --steps 2000 --seed 1 --eval 200
    python examples/selfplay_big_two_4card.py --eval-only selfplay.npz --eval 1000

Method: Deep Monte-Carlo (DMC, as DouZero plays Dou Dizhu), from
:mod:`parlour.training.dmc`: one Q-network scores (observation, action) pairs and plays
every seat of ``batched_env("big-two-4card")``, picking the best-scored legal action or, with
probability ε, a uniformly random one; every decision with a choice is regressed on the deal's
normalised return for the seat that made it (points / 39), with Adam. The network sees the
observation encoding and features of each action, among them what the action leaves in hand.
This script trains in one piece for a time or a number of steps; ``training/selfplay.py`` runs
the same training in resumable pieces with a log of strength, and made the shipped ``learned``
weights.

Then the trained network sits in the arena against ``greedy`` as the ``selfplay`` bot (``learned``
with these weights), in
duplicate mode (every deal replayed in all 14 seatings of two bots in four seats), and the
script prints the per-deal score difference with its 95% confidence interval, pooled and by
split of the seats. numpy runs on one core: the thread caps below are set before it is
imported.
"""

from __future__ import annotations

import os

# One core: cap the BLAS thread pools before numpy is imported (the "one core" figures hold).
for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from dataclasses import asdict  # noqa: E402
from typing import Any  # noqa: E402

import parlour  # noqa: E402
from parlour.arena.core import ArenaResult, run_arena  # noqa: E402
from parlour.arena.stats import head_to_head, split_differences  # noqa: E402
from parlour.bots.base import register_bot  # noqa: E402
from parlour.bots.learned import LearnedBot, Policy  # noqa: E402
from parlour.bots.learned.network import ActionFeatures, QNet, features_for  # noqa: E402
from parlour.training.dmc import Config, Trainer  # noqa: E402

VARIANT = "big-two-4card"


def train(cfg: Config, steps: int | None = None, minutes: float | None = None) -> Trainer:
    """Self-play DMC for ``steps`` environment steps (reproducible) or ``minutes`` of wall time
    (whichever comes first), in one piece (``training/selfplay.py`` runs it in resumable
    pieces, evaluated as it goes)."""
    trainer = Trainer(cfg)
    deadline = None if minutes is None else time.perf_counter() + 60.0 * minutes
    trainer.piece(steps, deadline)
    return trainer


def evaluate(net: QNet, features: ActionFeatures, deals: int, seed: int,
             opponent: str = "greedy") -> ArenaResult:
    """Duplicate arena of the network (as ``selfplay``: the ``learned`` bot with these weights)
    against ``opponent`` on ``deals`` fresh deals."""
    game = parlour.new_game(VARIANT)
    policy = Policy(net, features, {"variant": VARIANT})
    register_bot("selfplay", lambda: LearnedBot(policy))
    return run_arena(game, ["selfplay", opponent], deals, seed=seed, duplicate=True)


def report(result: ArenaResult, out: Any = sys.stdout) -> None:
    """The pooled difference and each split's, with 95% confidence intervals."""
    labels = [e.label for e in result.entries]
    for pair in head_to_head(result):
        print(f"{pair.first} − {pair.second}: {pair.mean:+.3f} points per deal, 95% CI "
              f"[{pair.mean - pair.half:+.3f}, {pair.mean + pair.half:+.3f}] "
              f"({pair.deals} duplicate deals × 14 seatings)", file=out)
    for s in split_differences(result):
        d = s.difference
        print(f"  {s.seats} {labels[0]} v {s.others} {labels[1]}: {d.mean:+.3f} "
              f"[{d.mean - d.half:+.3f}, {d.mean + d.half:+.3f}]", file=out)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--minutes", type=float, default=None,
                        help="train for this many minutes of wall time")
    parser.add_argument("--steps", type=int, default=None,
                        help="train for this many batched environment steps (reproducible)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--envs", type=int, default=256, help="deals stepped together")
    parser.add_argument("--hidden", type=int, nargs=2, default=(256, 128))
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--eps-start", type=float, default=0.1)
    parser.add_argument("--eps-end", type=float, default=0.01)
    parser.add_argument("--eps-steps", type=int, default=20_000)
    parser.add_argument("--out", help="save the weights to this .npz file")
    parser.add_argument("--eval-only", metavar="FILE", help="evaluate saved weights; no training")
    parser.add_argument("--eval", type=int, default=1000, help="duplicate deals against greedy")
    parser.add_argument("--eval-seed", type=int, default=2027)
    parser.add_argument("--opponent", default="greedy")
    args = parser.parse_args(argv)
    began = time.perf_counter()
    game = parlour.new_game(VARIANT)
    if args.eval_only:
        net, meta = QNet.load(args.eval_only)
        features = features_for(game)
        print(f"weights {args.eval_only}: {json.dumps(meta)}")
    else:
        if args.steps is None and args.minutes is None:
            args.minutes = 30.0
        cfg = Config(seed=args.seed, num_envs=args.envs, hidden=tuple(args.hidden), lr=args.lr,
                     batch=args.batch, eps_start=args.eps_start, eps_end=args.eps_end,
                     eps_steps=args.eps_steps)
        trained = train(cfg, steps=args.steps, minutes=args.minutes)
        net, features = trained.net, trained.features
        print(f"trained: {trained.steps} steps, {trained.deals} deals, {trained.decisions} "
              f"decisions with a choice, {net.updates} updates in {trained.seconds:.0f} s")
        if args.out:
            net.save(args.out, {"variant": VARIANT, "command": " ".join(sys.argv),
                                "config": asdict(cfg), "steps": trained.steps,
                                "deals": trained.deals, "seconds": round(trained.seconds, 1)})
            print(f"weights saved to {args.out}")
    if args.eval:
        start = time.perf_counter()
        result = evaluate(net, features, args.eval, args.eval_seed, args.opponent)
        report(result)
        print(f"evaluation: {time.perf_counter() - start:.0f} s")
    print(f"total: {time.perf_counter() - began:.0f} s")


if __name__ == "__main__":
    main()
