"""Learn big-two-4card by self-play on the batched environment and beat ``greedy`` (plain numpy).

    python examples/selfplay_big_two_4card.py --minutes 30 --out selfplay.npz
    python examples/selfplay_big_two_4card.py --steps 2000 --seed 1 --eval 200
    python examples/selfplay_big_two_4card.py --eval-only selfplay.npz --eval 1000

Method: Deep Monte-Carlo (DMC, as DouZero plays Dou Dizhu). One Q-network scores
(observation, action) pairs and plays every seat of ``batched_env("big-two-4card")``: it picks
the best-scored legal action, or with probability ε a uniformly random one. Every decision with
a choice (more than one legal action) is kept, and when its deal ends its target is the deal's
normalised return (``rewards="normalised"``: points / 39) for the seat that made it; the
network regresses the targets by mean squared error with Adam, on minibatches of finished
decisions as they come.

The network is a two-layer perceptron over

- the batch's observation encoding ``obs`` (``parlour.envs.encoder``: the hand, the cards each
  seat played, the play to beat, cards left per seat, ...): the state part, whose first-layer
  product is computed once per row and shared by all of the row's legal actions;
- features of each action computed once over the whole action index (its cards, size, kind,
  top card, 2s spent) and, per decision, what it leaves in hand: the hand-after-move card block,
  how many cards, singles, pairs, triples and quads remain, how many rank groups it breaks,
  whether it goes out.

Then the trained network sits in the arena against ``greedy`` as the ``selfplay`` bot, in
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
import random  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
from collections.abc import Sequence  # noqa: E402
from dataclasses import dataclass, field  # noqa: E402
from pathlib import Path  # noqa: E402
from typing import Any  # noqa: E402

import numpy as np  # noqa: E402
import numpy.typing as npt  # noqa: E402

import parlour  # noqa: E402
from parlour.arena.core import ArenaResult, run_arena  # noqa: E402
from parlour.arena.stats import head_to_head, split_differences  # noqa: E402
from parlour.bots.base import Bot, register_bot  # noqa: E402
from parlour.envs import action_index, batched_env, encoder  # noqa: E402
from parlour.game import Action, Game, Observation  # noqa: E402
from parlour.games.climbing import Category, ClimbingAction, ClimbingGame  # noqa: E402

VARIANT = "big-two-4card"
F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]

#: The dynamic (hand-after-move) features after the 52-card block: cards left / 13, goes out,
#: singles, pairs, triples, quads left / 6, rank groups broken / 4.
AFTER_EXTRA = 7


class ActionFeatures:
    """Per-action features: a static table over the whole action index, and what each legal
    action leaves in the hand of the seat to move (read from the ``hand`` block, the first 52
    entries of the observation encoding, in the game's card order as the tables here are)."""

    def __init__(self, game: Game) -> None:
        assert isinstance(game, ClimbingGame)
        index = action_index(game)
        names = encoder(game).feature_names()
        assert names[0].startswith("hand:") and names[51].startswith("hand:"), names[:2]
        place = {card: k for k, card in enumerate(game.card_order())}
        kinds = [cat for cats in game.table.categories.values() for cat in cats]
        self.size = index.size
        self.cards = np.zeros((index.size, 52), dtype=np.float32)
        # pass, size 1-5, kind, top card's place, top card's rank, 2s spent
        static = np.zeros((index.size, 1 + 5 + len(kinds) + 1 + 13 + 1), dtype=np.float32)
        for i in range(index.size):
            a = index.action(i)
            assert isinstance(a, ClimbingAction)
            if a.category is Category.PASS:
                static[i, 0] = 1.0
                continue
            places = sorted(place[int(c)] for c in a.cards)
            self.cards[i, places] = 1.0
            static[i, len(places)] = 1.0
            static[i, 6 + kinds.index(a.category)] = 1.0
            top = places[-1]
            static[i, 6 + len(kinds)] = top / 51
            static[i, 7 + len(kinds) + top // 4] = 1.0
            static[i, -1] = sum(p >= 48 for p in places) / 4  # the 2s: the top rank
        self.static = np.concatenate([self.cards, static], axis=1)
        # card place -> rank (4 suits a rank, lowest first): hand @ ranks counts cards a rank.
        self.ranks = np.zeros((52, 13), dtype=np.float32)
        self.ranks[np.arange(52), np.arange(52) // 4] = 1.0
        self.width = self.static.shape[1] + 52 + AFTER_EXTRA

    def rows(self, legal: I64, hand: F32) -> F32:
        """One feature row per (legal action, hand of its row) pair."""
        played = self.cards[legal]
        after = hand - played
        counts = after @ self.ranks
        held = hand @ self.ranks
        taken = played @ self.ranks
        out = np.empty((legal.shape[0], self.width), dtype=np.float32)
        s = self.static.shape[1]
        out[:, :s] = self.static[legal]
        out[:, s:s + 52] = after
        left = after.sum(axis=1)
        out[:, s + 52] = left / 13
        out[:, s + 53] = (left == 0) & (legal != 0)
        for k in range(1, 5):
            out[:, s + 53 + k] = (counts == k).sum(axis=1) / 6
        out[:, s + 58] = ((taken > 0) & (taken < held)).sum(axis=1) / 4
        return out


@dataclass
class QNet:
    """Q(observation, action) = w3 · relu(W2 relu(W1o x + W1a f + b1) + b2) + b3, with Adam."""

    params: dict[str, F32]
    lr: float = 1e-3
    moments: dict[str, tuple[F32, F32]] = field(default_factory=dict)
    updates: int = 0

    @classmethod
    def new(cls, obs_size: int, act_size: int, hidden: Sequence[int], rng: np.random.Generator,
            lr: float) -> QNet:
        h1, h2 = hidden

        def he(fan_in: int, shape: tuple[int, ...]) -> F32:
            return (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)

        fan = obs_size + act_size
        params = {
            "w1o": he(fan, (obs_size, h1)), "w1a": he(fan, (act_size, h1)),
            "b1": np.zeros(h1, np.float32), "w2": he(h1, (h1, h2)),
            "b2": np.zeros(h2, np.float32), "w3": np.zeros(h2, np.float32),
            "b3": np.zeros(1, np.float32),
        }
        return cls(params, lr)

    def q(self, obs: F32, seg: I64, acts: F32) -> F32:
        """Scores of ``acts`` rows; row ``j`` belongs to observation ``seg[j]``."""
        p = self.params
        h = (obs @ p["w1o"])[seg]
        h += acts @ p["w1a"]
        h += p["b1"]
        np.maximum(h, 0.0, out=h)
        h2 = h @ p["w2"]
        h2 += p["b2"]
        np.maximum(h2, 0.0, out=h2)
        out: F32 = h2 @ p["w3"] + p["b3"][0]
        return out

    def train_step(self, obs: F32, acts: F32, target: F32) -> float:
        """One Adam step on the mean squared error of ``Q(obs[i], acts[i])`` to ``target[i]``."""
        p = self.params
        n = obs.shape[0]
        z1 = obs @ p["w1o"] + acts @ p["w1a"] + p["b1"]
        h1 = np.maximum(z1, 0.0)
        z2 = h1 @ p["w2"] + p["b2"]
        h2 = np.maximum(z2, 0.0)
        err = h2 @ p["w3"] + p["b3"][0] - target
        g_out = (2.0 / n) * err
        g2 = np.outer(g_out, p["w3"]) * (z2 > 0)
        g1 = (g2 @ p["w2"].T) * (z1 > 0)
        grads = {
            "w3": h2.T @ g_out, "b3": np.array([g_out.sum()], np.float32),
            "w2": h1.T @ g2, "b2": g2.sum(axis=0),
            "w1o": obs.T @ g1, "w1a": acts.T @ g1, "b1": g1.sum(axis=0),
        }
        self.updates += 1
        b1, b2, eps = 0.9, 0.999, 1e-8
        c1 = 1.0 - b1 ** self.updates
        c2 = 1.0 - b2 ** self.updates
        for k, g in grads.items():
            m, v = self.moments.get(k) or (np.zeros_like(p[k]), np.zeros_like(p[k]))
            m = b1 * m + (1.0 - b1) * g
            v = b2 * v + (1.0 - b2) * g * g
            self.moments[k] = (m.astype(np.float32), v.astype(np.float32))
            p[k] -= (self.lr / c1 * m / (np.sqrt(v / c2) + eps)).astype(np.float32)
        return float(np.mean(err * err))

    def save(self, path: str | Path, metadata: dict[str, Any]) -> None:
        np.savez(path, metadata=np.array(json.dumps(metadata)), **self.params)

    @classmethod
    def load(cls, path: str | Path) -> tuple[QNet, dict[str, Any]]:
        with np.load(path) as data:
            params = {k: data[k].astype(np.float32) for k in data.files if k != "metadata"}
            metadata = json.loads(str(data["metadata"]))
        return cls(params), metadata


def segment_argmax(q: F32, seg_start: I64, counts: I64) -> I64:
    """The offset (into ``q``) of the first maximum of each segment."""
    best = np.maximum.reduceat(q, seg_start)
    hit = np.flatnonzero(q >= np.repeat(best, counts))
    seg = np.repeat(np.arange(counts.shape[0]), counts)[hit]
    first: I64 = hit[np.r_[True, seg[1:] != seg[:-1]]]
    return first


@dataclass
class Config:
    """Training settings (the command-line options)."""

    seed: int = 1
    num_envs: int = 256
    hidden: tuple[int, int] = (256, 128)
    lr: float = 1e-3
    lr_end: float | None = None  # decayed linearly to this over the run (None: constant)
    batch: int = 1024
    eps_start: float = 0.1
    eps_end: float = 0.01
    eps_steps: int = 20_000
    chunk: int = 8


@dataclass
class Trained:
    """The network and what training measured."""

    net: QNet
    features: ActionFeatures
    steps: int
    decisions: int
    deals: int
    seconds: float
    log: list[dict[str, float]]


def train(cfg: Config, steps: int | None = None, minutes: float | None = None,
          log_every: float = 0.0, out: Any = sys.stdout) -> Trained:
    """Self-play DMC for ``steps`` environment steps (reproducible) or ``minutes`` of wall time
    (whichever comes first). ``log_every`` > 0 prints progress that often (seconds)."""
    start = time.perf_counter()
    env = batched_env(VARIANT, num_envs=cfg.num_envs, seed=cfg.seed, rewards="normalised")
    feats = ActionFeatures(env.game)
    rng = np.random.default_rng(cfg.seed)
    net = QNet.new(env.encoder.size, feats.width, cfg.hidden, rng, cfg.lr)
    n = cfg.num_envs
    slots = 16  # finished deals' returns kept per row; a decision resolves within `chunk` steps
    deal_id = np.zeros(n, dtype=np.int64)
    returns = np.zeros((n, slots, env.game.players), dtype=np.float32)
    # decisions waiting for their deal to end: obs, action features, row, deal, seat
    pending: list[tuple[F32, F32, I64, I64, I64]] = []
    queue_x: list[F32] = []
    queue_a: list[F32] = []
    queue_y: list[F32] = []
    queued = 0
    step = env.reset()
    t = decisions = deals = 0
    losses: list[float] = []
    log: list[dict[str, float]] = []
    last_log = start
    deadline = None if minutes is None else start + 60.0 * minutes
    while (steps is None or t < steps) and (deadline is None or time.perf_counter() < deadline):
        eps = cfg.eps_end + (cfg.eps_start - cfg.eps_end) * max(0.0, 1.0 - t / cfg.eps_steps)
        if cfg.lr_end is not None:
            # The run's fraction done: by steps when counted (reproducible), else by the clock.
            done_part = t / steps if steps is not None else 0.0
            if deadline is not None:
                done_part = max(done_part, (time.perf_counter() - start) / (deadline - start))
            net.lr = cfg.lr + (cfg.lr_end - cfg.lr) * min(1.0, done_part)
        offsets = step.offsets
        counts = np.diff(offsets)
        actions = step.legal[offsets[:-1]].copy()  # a forced row's only action
        rows = np.flatnonzero(counts > 1)
        if rows.size:
            c = counts[rows]
            seg_start = np.r_[0, np.cumsum(c)[:-1]]
            seg = np.repeat(np.arange(rows.size), c)
            flat = np.arange(seg.size) - seg_start[seg] + offsets[rows][seg]
            legal = step.legal[flat]
            obs = step.obs[rows]
            a_rows = feats.rows(legal, obs[seg, :52])
            pick = segment_argmax(net.q(obs, seg, a_rows), seg_start, c)
            explore = rng.random(rows.size) < eps
            if explore.any():
                k = (rng.random(rows.size) * c).astype(np.int64)
                pick = np.where(explore, seg_start + k, pick)
            actions[rows] = legal[pick]
            pending.append((obs, a_rows[pick], rows, deal_id[rows], step.player[rows]))
            decisions += rows.size
        step = env.step(actions)
        t += 1
        done = np.flatnonzero(step.done)
        if done.size:
            returns[done, deal_id[done] % slots] = step.rewards[done]
            deal_id[done] += 1
            deals += done.size
        if t % cfg.chunk == 0:
            keep = []
            for o, a, r, d, s in pending:
                over = deal_id[r] > d
                if over.all():
                    keep_part = None
                else:
                    keep_part = (o[~over], a[~over], r[~over], d[~over], s[~over])
                if over.any():
                    queue_x.append(o[over])
                    queue_a.append(a[over])
                    queue_y.append(returns[r[over], d[over] % slots, s[over]])
                    queued += int(over.sum())
                if keep_part is not None:
                    keep.append(keep_part)
            pending = keep
            if queued >= cfg.batch:
                x = np.concatenate(queue_x)
                a = np.concatenate(queue_a)
                y = np.concatenate(queue_y)
                order = rng.permutation(x.shape[0])
                used = (x.shape[0] // cfg.batch) * cfg.batch
                for b in range(0, used, cfg.batch):
                    i = order[b:b + cfg.batch]
                    losses.append(net.train_step(x[i], a[i], y[i]))
                rest = order[used:]
                queue_x, queue_a, queue_y = [x[rest]], [a[rest]], [y[rest]]
                queued = rest.size
        now = time.perf_counter()
        if log_every and now - last_log >= log_every and losses:
            entry = {"seconds": now - start, "steps": t, "deals": deals, "decisions": decisions,
                     "updates": net.updates, "loss": float(np.mean(losses)), "eps": eps}
            log.append(entry)
            print(f"{entry['seconds']:7.0f} s  steps {t:7d}  deals {deals:8d}  updates "
                  f"{net.updates:6d}  loss {entry['loss']:.4f}  eps {eps:.3f}", file=out,
                  flush=True)
            losses = []
            last_log = now
    if losses:
        log.append({"seconds": time.perf_counter() - start, "steps": t, "deals": deals,
                    "decisions": decisions, "updates": net.updates,
                    "loss": float(np.mean(losses)), "eps": eps})
    return Trained(net, feats, t, decisions, deals, time.perf_counter() - start, log)


class SelfPlayBot(Bot):
    """The trained Q-network as a bot: the best-scored legal action, from the seat's
    observation alone (its encoding, the legal actions' indexes, what each leaves in hand)."""

    name = "selfplay"

    def __init__(self, net: QNet, features: ActionFeatures, game: Game) -> None:
        self.net = net
        self.features = features
        self.encoder = encoder(game)
        self.index = action_index(game)
        self._seg0: I64 = np.zeros(0, dtype=np.int64)

    def choose(self, observation: Observation, legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        obs = self.encoder.encode(observation)[None, :]
        legal = np.asarray(self.index.indices(legal_actions, observation), dtype=np.int64)
        rows = self.features.rows(legal, np.repeat(obs[:, :52], legal.size, axis=0))
        q = self.net.q(obs, np.zeros(legal.size, dtype=np.int64), rows)
        return legal_actions[int(np.argmax(q))]


def evaluate(net: QNet, features: ActionFeatures, deals: int, seed: int,
             opponent: str = "greedy") -> ArenaResult:
    """Duplicate arena of ``selfplay`` against ``opponent`` on ``deals`` fresh deals."""
    game = parlour.new_game(VARIANT)
    register_bot("selfplay", lambda: SelfPlayBot(net, features, game))
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
    parser.add_argument("--lr-end", type=float, default=None,
                        help="decay the learning rate linearly to this over the run")
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
        features = ActionFeatures(game)
        print(f"weights {args.eval_only}: {json.dumps(meta)}")
    else:
        if args.steps is None and args.minutes is None:
            args.minutes = 30.0
        cfg = Config(seed=args.seed, num_envs=args.envs, hidden=tuple(args.hidden), lr=args.lr,
                     lr_end=args.lr_end,
                     batch=args.batch, eps_start=args.eps_start, eps_end=args.eps_end,
                     eps_steps=args.eps_steps)
        trained = train(cfg, steps=args.steps, minutes=args.minutes, log_every=30.0)
        net, features = trained.net, trained.features
        print(f"trained: {trained.steps} steps, {trained.deals} deals, {trained.decisions} "
              f"decisions with a choice, {net.updates} updates in {trained.seconds:.0f} s")
        if args.out:
            net.save(args.out, {"variant": VARIANT, "command": " ".join(sys.argv),
                                "config": cfg.__dict__, "steps": trained.steps,
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
