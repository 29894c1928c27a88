"""Self-play training of the ``learned`` network (Deep Monte-Carlo, :mod:`parlour.training.dmc`),
in resumable pieces with checkpoints and a log of strength over training time.

    python training/selfplay.py --run runs/b24 --pieces 60            # start, or resume, a run
    python training/selfplay.py --run runs/b24 --pieces 60 --minutes 30   # stop after 30 minutes
    python training/selfplay.py --run runs/b24 --export weights.npz --plot  # ship, draw the log
    python training/selfplay.py --run runs/ft --init weights.npz --lr 1e-4 --pieces 30  # fine-tune
    python training/selfplay.py --run runs/small --teacher weights.npz --hidden 64 32 --pieces 20

A run lives in its folder: ``checkpoint.npz`` (weights, optimiser, generator, counters: written
after every piece, so a stopped run loses at most one piece), ``log.jsonl`` (one line per
evaluation: the piece, steps, deals, training seconds, and the network's duplicate-arena margin
over ``greedy`` with its 95% confidence interval) and, with ``--plot``, ``log.png``. Giving the
same ``--run`` again resumes where the checkpoint stands; the settings then come from the
checkpoint. The weights depend on the seed, the settings and the number of pieces only, never
on where the run was stopped and resumed, or on the machine's speed.

numpy runs on one core: the thread caps below are set before it is imported.
"""

from __future__ import annotations

import os

for _var in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_var, "1")

import argparse  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from dataclasses import asdict  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

from parlour.arena.core import run_arena  # noqa: E402
from parlour.arena.stats import head_to_head  # noqa: E402
from parlour.bots.base import bot_names, register_bot  # noqa: E402
from parlour.bots.learned import LearnedBot, Policy  # noqa: E402
from parlour.bots.learned.network import QNet  # noqa: E402
from parlour.errors import ParlourError  # noqa: E402
from parlour.training.dmc import Config, Trainer  # noqa: E402


def margin(trainer: Trainer, deals: int, seed: int, opponent: str = "greedy") -> dict[str, Any]:
    """The network's duplicate-arena margin over ``opponent`` (points a seat-deal, 95% CI)."""
    policy = Policy(trainer.net, trainer.features, {"variant": trainer.cfg.variant})
    register_bot("training", lambda: LearnedBot(policy))
    game = trainer.game
    result = run_arena(game, ["training", opponent], deals, seed=seed, duplicate=True)
    (pair,) = head_to_head(result)
    return {"opponent": opponent, "margin": round(pair.mean, 4), "half": round(pair.half, 4),
            "eval_deals": deals}


def reproduce(trainer: Trainer, piece_steps: int, init: bool = False) -> str:
    """The command that trains these weights from scratch (from ``BASE``, the starting
    network's weights file, for a run started from one; ``TEACHER``, the weights file of the
    network distilled, for a distillation)."""
    c = trainer.cfg
    players = "" if c.players is None else f"--players {c.players} "
    relative = "--relative " if c.relative else ""
    start = "--init BASE " if init else ""
    eps = "" if c.eps_start == Config.eps_start else f"--eps-start {c.eps_start} "
    teacher = "" if c.teacher is None else "--teacher TEACHER "
    return (f"python training/selfplay.py --run RUN --variant {c.variant} {players}{relative}"
            f"{start}{teacher}--seed {c.seed} "
            f"--envs {c.num_envs} --hidden {c.hidden[0]} {c.hidden[1]} --lr {c.lr} {eps}"
            f"--batch {c.batch} --piece-steps {piece_steps} --pieces {trainer.pieces}")


def probability(text: str) -> float:
    """A chance from 0 to 1, for the parser."""
    value = float(text)
    if not 0.0 <= value <= 1.0:
        raise argparse.ArgumentTypeError(f"a chance from 0 to 1, not {text}")
    return value


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--run", type=Path, required=True, help="the run's folder")
    parser.add_argument("--variant", default="big-two-4card")
    parser.add_argument("--players", type=int, default=None,
                        help="seats at the table (the variant's default if not given)")
    parser.add_argument("--relative", action="store_true",
                        help="train on each seat's return less the other seats' mean (for "
                             "games whose scores do not sum to zero: rummy)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--envs", type=int, default=256, help="deals stepped together")
    parser.add_argument("--hidden", type=int, nargs=2, default=(256, 128))
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--init", type=Path,
                        help="start a new run from this weights file's network instead of "
                             "random weights (a fine-tuning; its optimiser starts afresh)")
    parser.add_argument("--teacher", type=Path,
                        help="distil this weights file's network: train on its scores of every "
                             "legal action instead of the deals' returns (a smaller network "
                             "that plays like it)")
    parser.add_argument("--eps-start", type=probability, default=0.1,
                        help="the chance of a random move at the start, falling to 0.01 over "
                             "the first 20,000 steps")
    parser.add_argument("--batch", type=int, default=1024)
    parser.add_argument("--piece-steps", type=int, default=20_000,
                        help="batched steps a piece (a checkpoint after each)")
    parser.add_argument("--pieces", type=int, default=0, help="train until the run has this many")
    parser.add_argument("--minutes", type=float, default=None,
                        help="stop after the piece during which this much time has passed")
    parser.add_argument("--eval-every", type=int, default=3, help="pieces between evaluations")
    parser.add_argument("--eval-deals", type=int, default=200)
    parser.add_argument("--eval-seed", type=int, default=2027)
    parser.add_argument("--evaluate", metavar="BOT",
                        help="then play the network against BOT (such as greedy or learned) on "
                             "--eval-deals duplicate deals seeded --eval-seed, and print the "
                             "margin")
    parser.add_argument("--export", type=Path, help="write the weights file the bot loads")
    parser.add_argument("--plot", action="store_true", help="draw log.png from log.jsonl")
    args = parser.parse_args(argv)
    if args.evaluate is not None and args.evaluate not in bot_names():
        parser.error(f"no bot {args.evaluate!r} to evaluate against; the bots are: "
                     f"{', '.join(bot_names())}")
    began = time.perf_counter()
    checkpoint, log_path = args.run / "checkpoint.npz", args.run / "log.jsonl"
    run: dict[str, Any]  # the run's settings that its checkpoint does not hold
    if checkpoint.exists():
        try:
            trainer = Trainer.load_checkpoint(checkpoint)
        except ParlourError as e:
            parser.error(str(e))  # a distillation whose teacher's file is gone
        run = json.loads((args.run / "run.json").read_text())
        piece_steps = run["piece_steps"]
        print(f"resuming {args.run} at piece {trainer.pieces} ({trainer.steps} steps)")
    else:
        try:
            trainer = Trainer(Config(
                variant=args.variant, players=args.players, seed=args.seed, num_envs=args.envs,
                hidden=tuple(args.hidden), lr=args.lr, batch=args.batch,
                eps_start=args.eps_start, relative=args.relative,
                teacher=None if args.teacher is None else str(args.teacher)))
        except ParlourError as e:
            parser.error(str(e))  # a teacher that cannot be read or does not fit
        piece_steps = args.piece_steps
        run = {"piece_steps": piece_steps}
        if args.init is not None:
            try:
                start, run["init"] = QNet.load(args.init)
                trainer.start_from(start, run["init"])
            except ParlourError as e:
                parser.error(str(e))  # before the run's folder is made
        args.run.mkdir(parents=True, exist_ok=True)
        (args.run / "run.json").write_text(json.dumps(run))
    deadline = None if args.minutes is None else began + 60 * args.minutes
    while trainer.pieces < args.pieces and (deadline is None or time.perf_counter() < deadline):
        trainer.piece(piece_steps)
        partial = checkpoint.with_suffix(".part.npz")
        trainer.save_checkpoint(partial)
        partial.replace(checkpoint)  # a run stopped while saving keeps the previous checkpoint
        entry = dict(trainer.log[-1])
        if trainer.pieces % args.eval_every == 0:
            entry.update(margin(trainer, args.eval_deals, args.eval_seed))
            with log_path.open("a") as f:
                f.write(json.dumps(entry) + "\n")
        print(json.dumps(entry), flush=True)
    if args.evaluate:
        print(json.dumps({"piece": trainer.pieces,
                          **margin(trainer, args.eval_deals, args.eval_seed, args.evaluate)}))
    if args.export:
        meta = {"variant": trainer.cfg.variant,
                "command": reproduce(trainer, piece_steps, "init" in run),
                "config": asdict(trainer.cfg),
                "steps": trainer.steps, "deals": trainer.deals, "decisions": trainer.decisions,
                "pieces": trainer.pieces, "seconds": round(trainer.seconds)}
        if "init" in run:
            # How the starting network was made: its command writes the BASE of this one's.
            meta["init"] = run["init"]
        if trainer.cfg.teacher is not None:  # how the network it distils was made
            meta["teacher"] = QNet.load(trainer.cfg.teacher)[1]
        trainer.net.save(args.export, meta)
        print(f"weights of piece {trainer.pieces} written to {args.export}")
    if args.plot:
        plot(log_path, args.run / "log.png")
    return 0


def plot(log_path: Path, out: Path) -> None:
    """The margin over ``greedy`` (with its 95% CI) against hours of training."""
    from matplotlib.figure import Figure  # the plot extra: pip install 'parlour[plot]'

    rows = [json.loads(line) for line in log_path.read_text().splitlines() if line.strip()]
    hours = [r["seconds"] / 3600 for r in rows]
    mean = [r["margin"] for r in rows]
    fig = Figure(figsize=(7, 4))
    ax = fig.add_subplot()
    ax.errorbar(hours, mean, yerr=[r["half"] for r in rows], marker="o", capsize=3)
    ax.axhline(0, color="grey", lw=0.8)
    ax.set_xlabel("hours of training (one core)")
    ax.set_ylabel(f"points a seat-deal over {rows[0]['opponent']}" if rows else "points")
    ax.set_title(f"self-play, {rows[0]['eval_deals'] if rows else 0} duplicate deals an evaluation")
    fig.tight_layout()
    fig.savefig(out, dpi=100)
    print(f"plot written to {out}")


if __name__ == "__main__":
    sys.exit(main())
