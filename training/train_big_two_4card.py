"""Train the learned policy and value of big-two-4card (``parlour.bots.learned``).

Expert iteration, one round, with Monte Carlo labels:

1. Positions: deals played by the rule-based policy (``greedy``), a random legal move instead
   with probability ``--explore``, so the positions also cover play that greedy would not make.
2. Labels: at a position (with probability ``--label``), the seat to move deals the cards it
   cannot see at random (its compiled knowledge, as ``observation.sample_state``), plays each of up to ``--candidates`` of
   its legal actions (always greedy's choice among them) in that same world and plays the deal
   out with greedy, all with the same random seed. A candidate's return minus the mean over the
   candidates is its sampled *advantage*; the world's luck, common to all, cancels.
3. Fit: the policy network is fitted to the advantages (its outputs centred within each
   position, squared error); the value network to the return after greedy's choice. Adam,
   minibatches of positions, ``--epochs`` passes. A tenth of the positions is held out.

The policy that plays ``argmax advantage`` is then one step of policy improvement over greedy,
learned from many positions instead of searched anew at each.

    python training/train_big_two_4card.py --seed 1 --minutes 35 \
        --out src/parlour/bots/learned/big_two_4card.npz

Run it under ``nice`` on one core (``OMP_NUM_THREADS=1``): it is a single process.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shlex
import sys
import time
from dataclasses import dataclass, field
from typing import Any

os.environ.setdefault("OMP_NUM_THREADS", "1")
os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")

import numpy as np
from numpy.typing import NDArray

import parlour
from parlour._core import Race
from parlour.bots.learned.features import OBS_WIDTH, WIDTH, action_rows, observation_row
from parlour.bots.learned.model import FORMAT, SCALE, PolicyValue

Array = NDArray[Any]  # float32 arrays; float64 where numpy promotes
ACT_WIDTH = WIDTH - OBS_WIDTH


@dataclass
class Data:
    """Labelled positions: one observation row per position, one action row per candidate."""

    obs: list[Array] = field(default_factory=list)
    acts: list[Array] = field(default_factory=list)
    returns: list[NDArray[np.float64]] = field(default_factory=list)
    greedy: list[int] = field(default_factory=list)  # index of greedy's choice among candidates

    def __len__(self) -> int:
        return len(self.obs)


def label_deal(game: parlour.Game, rng: random.Random, data: Data, *, explore: float,
               label: float, candidates: int) -> None:
    """Play one deal by greedy with exploration, labelling some of its positions."""
    state = game.new_deal(seed=rng.getrandbits(63))
    while not state.is_over:
        legal = state.legal_actions()
        if len(legal) == 1:
            state.apply(legal[0])
            continue
        seat = state.current_player
        obs = state.observation(seat)
        choice = game.greedy_action(obs, legal, rng)
        if rng.random() < label:
            others = [a for a in legal if a != choice]
            rng.shuffle(others)
            cands = [choice, *others[: candidates - 1]]
            # One sampled world, every candidate played out in it by greedy (compiled: a race
            # whose budget is that one world).
            knowledge = obs._knowledge()
            assert knowledge is not None
            race = Race(len(cands), None, 1, 1.0, 0.0, 1)
            _, _, tallies = knowledge.race(race, [int(a) for a in cands], [0.0] * len(cands),
                                           rng.getrandbits(64))
            returns = [values[0] for values, _ in tallies]
            data.obs.append(observation_row(obs))
            data.acts.append(action_rows(obs, cands, choice))
            data.returns.append(np.array(returns))
            data.greedy.append(0)
        state.apply(rng.choice(legal) if rng.random() < explore else choice)


def init_arrays(rng: np.random.Generator, hidden: int, hidden2: int,
                value_hidden: int) -> dict[str, Array]:
    def he(n_in: int, n_out: int) -> Array:
        w: Array = (rng.standard_normal((n_in, n_out)) * np.sqrt(2.0 / n_in)).astype(np.float32)
        return w

    w1 = he(WIDTH, hidden)
    return {
        "w1_obs": w1[:OBS_WIDTH].copy(), "w1_act": w1[OBS_WIDTH:].copy(),
        "b1": np.zeros(hidden, np.float32), "w2": he(hidden, hidden2),
        "b2": np.zeros(hidden2, np.float32), "w3": he(hidden2, 1)[:, 0] * 0.1,
        "b3": np.zeros(1, np.float32)[0:1].reshape(()),
        "v1": he(OBS_WIDTH, value_hidden), "vb1": np.zeros(value_hidden, np.float32),
        "v2": he(value_hidden, 1)[:, 0] * 0.1, "vb2": np.zeros((), np.float32),
    }


class Batch:
    """Positions gathered for one step: rows, each row's position, targets."""

    def __init__(self, data: Data, idx: NDArray[np.int64]) -> None:
        self.obs = np.stack([data.obs[i] for i in idx])
        self.acts = np.concatenate([data.acts[i] for i in idx])
        sizes = np.array([len(data.returns[i]) for i in idx])
        self.group = np.repeat(np.arange(len(idx)), sizes)
        self.counts = sizes.astype(np.float32)
        r = np.concatenate([data.returns[i] for i in idx]).astype(np.float32) / SCALE
        self.adv = r - (np.bincount(self.group, r) / self.counts)[self.group]
        starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
        self.starts = starts
        self.greedy_row = starts + np.array([data.greedy[i] for i in idx])
        self.value = r[self.greedy_row]
        self.returns = r * SCALE

    def centre(self, x: Array) -> Array:
        return x - (np.bincount(self.group, x, minlength=len(self.counts)) / self.counts)[self.group]


def forward(a: dict[str, Array], b: Batch) -> tuple[Array, tuple[Array, ...]]:
    z1 = (b.obs @ a["w1_obs"])[b.group] + b.acts @ a["w1_act"] + a["b1"]
    h1 = np.maximum(z1, 0.0)
    z2 = h1 @ a["w2"] + a["b2"]
    h2 = np.maximum(z2, 0.0)
    return b.centre(h2 @ a["w3"] + a["b3"]), (z1, h1, z2, h2)


def value_forward(a: dict[str, Array], b: Batch) -> tuple[Array, Array]:
    hv = np.maximum(b.obs @ a["v1"] + a["vb1"], 0.0)
    return hv @ a["v2"] + a["vb2"], hv


def losses(a: dict[str, Array], b: Batch) -> tuple[float, float]:
    pred, _ = forward(a, b)
    vpred, _ = value_forward(a, b)
    return float(np.mean((pred - b.adv) ** 2)), float(np.mean((vpred - b.value) ** 2))


def gradients(a: dict[str, Array], b: Batch) -> dict[str, Array]:
    pred, (z1, h1, z2, h2) = forward(a, b)
    n = len(pred)
    # The centred residual sums to zero in each position, so it is the gradient of the centred
    # output itself (centring is a projection).
    d = (2.0 / n) * (pred - b.adv)
    g: dict[str, Any] = {"w3": h2.T @ d, "b3": np.zeros((), np.float32)}
    dz2 = np.outer(d, a["w3"]) * (z2 > 0)
    g["w2"], g["b2"] = h1.T @ dz2, dz2.sum(0)
    dz1 = (dz2 @ a["w2"].T) * (z1 > 0)
    g["w1_act"], g["b1"] = b.acts.T @ dz1, dz1.sum(0)
    g["w1_obs"] = b.obs.T @ np.add.reduceat(dz1, b.starts)  # rows of a position are contiguous
    vpred, hv = value_forward(a, b)
    dv = (2.0 / len(vpred)) * (vpred - b.value)
    g["v2"], g["vb2"] = hv.T @ dv, dv.sum()
    dzv = np.outer(dv, a["v2"]) * (hv > 0)
    g["v1"], g["vb1"] = b.obs.T @ dzv, dzv.sum(0)
    return {k: np.asarray(v, np.float32) for k, v in g.items()}


def pick_gain(a: dict[str, Array], b: Batch) -> float:
    """Mean points the model's pick scored over greedy's pick, in the held-out sampled worlds."""
    pred, _ = forward(a, b)
    gain = []
    for gi in range(len(b.counts)):
        rows = np.flatnonzero(b.group == gi)
        gain.append(b.returns[rows[np.argmax(pred[rows])]] - b.returns[b.greedy_row[gi]])
    return float(np.mean(gain))


def fit(data: Data, *, seed: int, epochs: int, hidden: int, hidden2: int, value_hidden: int,
        batch: int, lr: float, log: bool = True) -> tuple[dict[str, Array], dict[str, float]]:
    """Fit the networks to ``data``; the arrays and the held-out figures before and after."""
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(data))
    held = max(1, len(data) // 10)
    test, train = Batch(data, order[:held]), order[held:]
    probe = Batch(data, train[:512])  # a fixed part of the training set: is it being fitted?
    a = init_arrays(rng, hidden, hidden2, value_hidden)
    m = {k: np.zeros_like(v) for k, v in a.items()}
    s = {k: np.zeros_like(v) for k, v in a.items()}
    before = losses(a, test)
    figures = {"held_out_positions": float(held), "train_positions": float(len(train)),
               "policy_loss_before": before[0], "value_loss_before": before[1],
               "pick_gain_before": pick_gain(a, test),
               "train_policy_loss_before": losses(a, probe)[0]}
    step = 0
    for epoch in range(epochs):
        rng.shuffle(train)
        rate = lr * (0.5 * (1 + np.cos(np.pi * epoch / epochs)))  # cosine decay per epoch
        for at in range(0, len(train), batch):
            grads = gradients(a, Batch(data, train[at:at + batch]))
            step += 1
            for k, gk in grads.items():
                m[k] = 0.9 * m[k] + 0.1 * gk
                s[k] = 0.999 * s[k] + 0.001 * gk * gk
                mh = m[k] / (1 - 0.9 ** step)
                sh = s[k] / (1 - 0.999 ** step)
                a[k] = (a[k] - rate * mh / (np.sqrt(sh) + 1e-8)).astype(np.float32)
        if log:
            pl, vl = losses(a, test)
            print(f"epoch {epoch + 1}: held-out policy loss {pl:.4f}, value loss {vl:.4f}, "
                  f"pick gain {pick_gain(a, test):+.3f}", flush=True)
    after = losses(a, test)
    figures.update({"policy_loss_after": after[0], "value_loss_after": after[1],
                    "pick_gain_after": pick_gain(a, test),
                    "train_policy_loss_after": losses(a, probe)[0]})
    return a, figures


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--out", required=True, help="the .npz weights file to write")
    p.add_argument("--minutes", type=float, default=35.0, help="time for labelling positions")
    p.add_argument("--positions", type=int, default=10**9, help="most positions to label")
    p.add_argument("--candidates", type=int, default=10)
    p.add_argument("--explore", type=float, default=0.15)
    p.add_argument("--label", type=float, default=0.5)
    p.add_argument("--epochs", type=int, default=12)
    p.add_argument("--hidden", type=int, default=128)
    p.add_argument("--hidden2", type=int, default=64)
    p.add_argument("--value-hidden", type=int, default=64)
    p.add_argument("--batch", type=int, default=128, help="positions per step")
    p.add_argument("--lr", type=float, default=2e-3)
    args = p.parse_args(argv)
    start = time.time()
    game = parlour.new_game("big-two-4card")
    rng = random.Random(args.seed)
    data = Data()
    deadline = start + 60 * args.minutes
    deals = 0
    while len(data) < args.positions and time.time() < deadline:
        label_deal(game, rng, data, explore=args.explore, label=args.label,
                   candidates=args.candidates)
        deals += 1
        if deals % 200 == 0:
            print(f"{deals} deals, {len(data)} positions, {time.time() - start:.0f} s", flush=True)
    labelled = time.time() - start
    print(f"labelled {len(data)} positions from {deals} deals in {labelled:.0f} s", flush=True)
    arrays, figures = fit(data, seed=args.seed, epochs=args.epochs, hidden=args.hidden,
                          hidden2=args.hidden2, value_hidden=args.value_hidden,
                          batch=args.batch, lr=args.lr)
    words = argv if argv is not None else sys.argv[1:]
    command = " ".join(["python", "training/train_big_two_4card.py", *map(shlex.quote, words)])
    # The labelling stops at a deal's end, so the positions made are a prefix of the seed's
    # sequence: a run by count instead of by time makes the same data on any machine.
    fixed = [f"--seed {args.seed}", f"--positions {len(data)}", "--minutes 1e9"] + [
        f"--{k.replace('_', '-')} {v}" for k, v in vars(args).items()
        if k not in ("seed", "positions", "minutes", "out")] + [f"--out {shlex.quote(args.out)}"]
    metadata = {
        "format": FORMAT, "variant": "big-two-4card", "command": command,
        "reproduce": "python training/train_big_two_4card.py " + " ".join(fixed),
        "seed": args.seed,
        "deals": deals, "positions": len(data), "rows": int(sum(len(r) for r in data.returns)),
        "label_seconds": round(labelled), "seconds": round(time.time() - start),
        "numpy": np.__version__, **{k: round(v, 5) for k, v in figures.items()},
    }
    PolicyValue(arrays, metadata).save(args.out)
    print(json.dumps(metadata, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
