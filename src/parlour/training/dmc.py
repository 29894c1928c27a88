"""Deep Monte-Carlo self-play, in plain numpy: the loop that trains the ``learned`` bot's
network (:class:`~parlour.bots.learned.network.QNet`) on the batched environment.

One Q-network scores (observation, action) pairs and plays every seat of
``batched_env(variant)``: each row plays its best-scored legal action, or with probability ε a
uniformly random one. Every decision with a choice (more than one legal action) is kept, and
when its deal ends its target is the deal's normalised return (``rewards="normalised"``) for
the seat that made it (with ``Config.relative``, less the other seats' mean); the network
regresses the targets by mean squared error with Adam, on minibatches of finished decisions as
they come. (DMC is how DouZero learned Dou Dizhu.)

Training runs in *pieces* of a fixed number of steps (:class:`Trainer`), each on a fresh
batched environment seeded by the run's seed and the piece's number; the decisions still
waiting for their deal's end when a piece stops are dropped. A run is therefore the same
whether it went in one go or was stopped and resumed from a checkpoint between pieces.

>>> trainer = Trainer(Config(seed=3, num_envs=16, batch=64))
>>> trainer.piece(200)  # a deal lasts about 80 steps: its decisions train once it ends
>>> trainer.steps, trainer.pieces, trainer.net.updates > 0
(200, 1, True)
"""

from __future__ import annotations

import json
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
import numpy.typing as npt

from parlour.bots.learned.network import ARRAYS, QNet, features_for
from parlour.encoding import encoder
from parlour.envs import batched_env
from parlour.errors import ParlourError
from parlour.registry import variants

F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]


def segment_argmax(q: F32, seg_start: I64, counts: I64) -> I64:
    """The offset (into ``q``) of the first maximum of each segment."""
    best = np.maximum.reduceat(q, seg_start)
    hit = np.flatnonzero(q >= np.repeat(best, counts))
    seg = np.repeat(np.arange(counts.shape[0]), counts)[hit]
    first: I64 = hit[np.r_[True, seg[1:] != seg[:-1]]]
    return first


@dataclass
class Config:
    """Training settings."""

    #: The variant trained; by default the first registered.
    variant: str = field(default_factory=lambda: variants()[0].name)
    #: Seats at the table; ``None``: the variant's default.
    players: int | None = None
    seed: int = 1
    num_envs: int = 256
    hidden: tuple[int, int] = (256, 128)
    lr: float = 1e-3
    batch: int = 1024
    eps_start: float = 0.1
    eps_end: float = 0.01
    eps_steps: int = 20_000
    #: Finished decisions are collected every this many steps.
    chunk: int = 8
    #: Targets are the seat's return less the other seats' mean (:func:`relative_returns`):
    #: for a game whose scores do not sum to zero (Rummy), where a seat's own points are not
    #: what wins.
    relative: bool = False
    #: A trained network's weights file: the run then *distils* it (:class:`Trainer`) instead
    #: of learning from the deals' returns.
    teacher: str | None = None


def relative_returns(returns: F32) -> F32:
    """Each seat's return less the mean of the other seats' (rows of one deal each): what a
    seat gained over the table, which its own points do not say where the scores do not sum to
    zero (in Rummy two players can both score well).

    >>> relative_returns(np.array([[30.0, -10.0], [50.0, 40.0]], dtype=np.float32)).tolist()
    [[40.0, -40.0], [10.0, -10.0]]
    >>> relative_returns(np.array([[9.0, 0.0, 0.0, -3.0]], dtype=np.float32)).tolist()
    [[10.0, -2.0, -2.0, -6.0]]
    """
    n = returns.shape[1]
    out: F32 = returns - (returns.sum(axis=1, keepdims=True) - returns) / (n - 1)
    return out


def piece_seed(seed: int, piece: int) -> int:
    """The batched environment's seed for piece ``piece`` of a run seeded ``seed`` (the run's
    own seed for the first piece)."""
    if piece == 0:
        return seed
    return int(np.random.SeedSequence([seed, piece]).generate_state(1, np.uint64)[0] >> 1)


class Trainer:
    """A self-play run: the network, its optimiser, the run's generator and counters.

    :meth:`piece` trains on; :meth:`save_checkpoint` and :meth:`load_checkpoint` keep all of it
    between pieces, so a resumed run continues exactly.

    With ``Config.teacher`` the run distils that network into this one (smaller, say, to play
    a search's worlds out faster): the deals are played as in self-play, by this network with
    its ε, and every legal action of every decision with a choice is trained at once towards
    the teacher's score of it, instead of the one action played towards the deal's return.
    The targets then need no deal to end, carry none of its luck, and rank every action the
    teacher would have weighed in the positions this network reaches.
    """

    def __init__(self, cfg: Config) -> None:
        self.cfg = cfg
        self.game = batched_env(cfg.variant, num_envs=1, players=cfg.players).game
        self.features = features_for(self.game)
        self.rng = np.random.default_rng(cfg.seed)
        self.net = QNet.new(encoder(self.game).size, self.features.width, cfg.hidden, self.rng,
                            cfg.lr)
        #: The network distilled (``Config.teacher``), or ``None`` in self-play.
        self.teacher: QNet | None = None
        if cfg.teacher is not None:
            self.teacher, metadata = QNet.load(cfg.teacher)
            self._check_shapes(self.teacher, metadata, "teacher", hidden=False)
        self.steps = self.deals = self.decisions = self.pieces = 0
        self.seconds = 0.0
        #: One entry per piece: its steps, deals, updates, mean loss, seconds.
        self.log: list[dict[str, float]] = []

    def start_from(self, net: QNet, metadata: dict[str, Any]) -> None:
        """Start this run from a trained network (a weights file's, with its ``metadata``)
        instead of its random one, before its first piece; the optimiser starts afresh. A
        network of another variant or of other shapes is refused with a :class:`ParlourError`.
        """
        if self.pieces:
            raise ParlourError("a run takes its starting network before its first piece")
        self._check_shapes(net, metadata, "starting")
        self.net.params = {k: net.params[k].copy() for k in ARRAYS}

    def _check_shapes(self, net: QNet, metadata: dict[str, Any], role: str,
                      hidden: bool = True) -> None:
        """A :class:`ParlourError` unless ``net`` plays this run's variant with its inputs (and,
        with ``hidden``, its hidden layers)."""
        variant = metadata.get("variant")
        if variant != self.cfg.variant:
            raise ParlourError(f"the {role} network plays {variant}, not {self.cfg.variant}")
        if hidden:
            ours, theirs = ({k: n.params[k].shape for k in ARRAYS} for n in (self.net, net))
        else:  # a network of any size that reads the same inputs
            ours, theirs = ({k: n.params[k].shape[:1] for k in ("w1o", "w1a")}
                            for n in (self.net, net))
        if theirs != ours:
            raise ParlourError(f"the {role} network's shapes {theirs} are not this run's {ours} "
                               "(its --hidden, or another number of players)")

    def piece(self, steps: int | None, deadline: float | None = None) -> None:
        """Train on a fresh batched environment for ``steps`` steps, or until ``deadline``
        (``time.perf_counter()``) if it comes first."""
        cfg, net, rng, feats = self.cfg, self.net, self.rng, self.features
        start = time.perf_counter()
        env = batched_env(cfg.variant, num_envs=cfg.num_envs, players=cfg.players,
                          rewards="normalised", seed=piece_seed(cfg.seed, self.pieces))
        n, players = cfg.num_envs, self.game.players
        slots = 16  # finished deals' returns kept per row; a decision resolves within `chunk` steps
        deal_id = np.zeros(n, dtype=np.int64)
        returns = np.zeros((n, slots, players), dtype=np.float32)
        # decisions waiting for their deal to end: obs, action features, row, deal, seat
        pending: list[tuple[F32, F32, I64, I64, I64]] = []
        queue: list[tuple[F32, F32, F32]] = []
        queued = t = deals = 0
        losses: list[float] = []
        step = env.reset()
        while (steps is None or t < steps) and (deadline is None or time.perf_counter() < deadline):
            done_steps = self.steps + t
            eps = cfg.eps_end + (cfg.eps_start - cfg.eps_end) * max(0.0, 1 - done_steps / cfg.eps_steps)
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
                a_rows = feats.rows(legal, obs, seg)
                pick = segment_argmax(net.q(obs, seg, a_rows), seg_start, c)
                explore = rng.random(rows.size) < eps
                if explore.any():
                    k = (rng.random(rows.size) * c).astype(np.int64)
                    pick = np.where(explore, seg_start + k, pick)
                actions[rows] = legal[pick]
                if self.teacher is None:
                    pending.append((obs, a_rows[pick], rows, deal_id[rows], step.player[rows]))
                else:  # every legal action's target is at hand: the teacher's score
                    queue.append((obs[seg], a_rows, self.teacher.q(obs, seg, a_rows)))
                    queued += seg.size
                self.decisions += rows.size
            step = env.step(actions)
            t += 1
            done = np.flatnonzero(step.done)
            if done.size:
                ended = step.rewards[done]
                returns[done, deal_id[done] % slots] = relative_returns(ended) if cfg.relative else ended
                deal_id[done] += 1
                deals += done.size
            if t % cfg.chunk == 0:
                keep = []
                for o, a, r, d, s in pending:
                    over = deal_id[r] > d
                    if over.any():
                        queue.append((o[over], a[over], returns[r[over], d[over] % slots, s[over]]))
                        queued += int(over.sum())
                    if not over.all():
                        keep.append((o[~over], a[~over], r[~over], d[~over], s[~over]))
                pending = keep
                if queued >= cfg.batch:
                    x, a, y = (np.concatenate(part) for part in zip(*queue, strict=True))
                    order = rng.permutation(x.shape[0])
                    used = (x.shape[0] // cfg.batch) * cfg.batch
                    for b in range(0, used, cfg.batch):
                        i = order[b:b + cfg.batch]
                        losses.append(net.train_step(x[i], a[i], y[i]))
                    rest = order[used:]
                    queue = [(x[rest], a[rest], y[rest])]
                    queued = rest.size
        seconds = time.perf_counter() - start
        self.steps += t
        self.deals += deals
        self.pieces += 1
        self.seconds += seconds
        self.log.append({"piece": self.pieces, "steps": self.steps, "deals": self.deals,
                         "updates": net.updates, "seconds": round(self.seconds, 1),
                         "loss": float(np.mean(losses)) if losses else float("nan")})

    def save_checkpoint(self, path: str | Path) -> None:
        """Everything a resumed run needs: weights, Adam's moments, generator, counters, log."""
        meta = {"config": asdict(self.cfg), "steps": self.steps, "deals": self.deals,
                "decisions": self.decisions, "pieces": self.pieces, "seconds": self.seconds,
                "updates": self.net.updates, "rng": self.rng.bit_generator.state, "log": self.log}
        arrays: dict[str, Any] = {"checkpoint": np.array(json.dumps(meta)), **self.net.params}
        for k, (m, v) in self.net.moments.items():
            arrays[f"m_{k}"], arrays[f"v_{k}"] = m, v
        np.savez(path, **arrays)

    @classmethod
    def load_checkpoint(cls, path: str | Path) -> Trainer:
        """The run saved by :meth:`save_checkpoint`, ready for its next piece."""
        with np.load(path, allow_pickle=False) as data:
            meta = json.loads(str(data["checkpoint"]))
            arrays = {k: data[k] for k in data.files if k != "checkpoint"}
        raw = meta["config"]
        trainer = cls(Config(**{**raw, "hidden": tuple(raw["hidden"])}))
        net = trainer.net
        net.params = {k: arrays[k] for k in ARRAYS}
        net.moments = {k: (arrays[f"m_{k}"], arrays[f"v_{k}"]) for k in ARRAYS if f"m_{k}" in arrays}
        net.updates = meta["updates"]
        trainer.rng.bit_generator.state = meta["rng"]
        for key in ("steps", "deals", "decisions", "pieces", "seconds", "log"):
            setattr(trainer, key, meta[key])
        return trainer
