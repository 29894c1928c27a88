"""Deep Monte-Carlo self-play, in plain numpy: the network, its features, and the training loop on
the batched environment.

One Q-network scores (observation, action) pairs and plays every seat of
``batched_env(variant)``: each row plays its best-scored legal action, or with probability ε a
uniformly random one. Every decision with a choice (more than one legal action) is kept, and
when its deal ends its target is the deal's normalised return (``rewards="normalised"``) for
the seat that made it (with ``Config.relative``, less the other seats' mean); the network regresses the targets by mean squared error with Adam, on
minibatches of finished decisions as they come. (DMC is how DouZero learned Dou Dizhu.)

The network is a two-layer perceptron over

- the batch's observation encoding (:func:`parlour.envs.encoder`): the state part, whose
  first-layer product is computed once per row and shared by all of the row's legal actions;
- features of each action, each family its own (:func:`features_for`): in the climbing games
  (:class:`ClimbingFeatures`), features computed once over the whole action index (its cards,
  size, kind, top card, 2s spent) and, per decision, what it leaves in hand: the
  hand-after-move card block, how many cards, singles, pairs, triples and quads remain, how
  many rank groups it breaks, whether it goes out; in the trump games
  (:class:`~parlour.bots.learned.trump.TrumpFeatures`), the action's index entry and what its
  card means in the deal (trump or plain, its place in the order, whether it takes the trick);
  in Rummy (:class:`~parlour.bots.learned.rummy.RummyFeatures`), the kind of move, the cards it
  moves and their points, and the hand it leaves (its melds, deadwood and unpaired cards).

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
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import numpy.typing as npt

from parlour.envs import action_index, batched_env, encoder
from parlour.errors import ParlourError
from parlour.game import Game
from parlour.games.climbing import Category, ClimbingAction, ClimbingGame

if TYPE_CHECKING:
    from parlour._core import ClimbingNet

F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]

#: The weights format of :meth:`QNet.save`; a file of another format is refused.
FORMAT = 2
#: The dynamic (hand-after-move) features after the 52-card block: cards left / 13, goes out,
#: singles, pairs, triples, quads left / 6, rank groups broken / 4.
AFTER_EXTRA = 7
#: The network's arrays: the first layer split into its observation and action parts.
ARRAYS = ("w1o", "w1a", "b1", "w2", "b2", "w3", "b3")


class ActionFeatures(Protocol):
    """A family's per-action features: the network's second input, beside the observation."""

    @property
    def game(self) -> Game:
        """The game they were made for."""

    @property
    def static(self) -> F32:
        """The features of each action of the index that do not depend on the deal (a row
        each)."""

    @property
    def width(self) -> int:
        """Columns of a row of :meth:`rows`."""

    def compiled(self, params: dict[str, F32], scale: float) -> Any:
        """The network of ``params`` (:attr:`QNet.params`) as its family's compiled playout
        policy, each unit of output worth ``scale`` points, or ``None`` for a family without
        one (its searches play out with ``greedy``)."""

    @property
    def match_entries(self) -> tuple[str, ...]:
        """The observation entries (name prefixes) that a match sets before a deal: constant in
        self-play, which plays single deals (:meth:`QNet.deal_only`)."""

    def rows(self, legal: I64, obs: F32, seg: I64) -> F32:
        """One row per legal action: ``legal[j]`` (an action index) was legal in the decision
        whose observation encoding is ``obs[seg[j]]``."""
        ...


class ClimbingFeatures:
    """Per-action features of the climbing games: a static table over the whole action index,
    and what each legal action leaves in the hand of the seat to move (read from the ``hand``
    block, the first 52 entries of the observation encoding, in the game's card order as the
    tables here are)."""

    #: A climbing deal's observation holds nothing of the match.
    match_entries: tuple[str, ...] = ()

    def __init__(self, game: Game) -> None:
        if not isinstance(game, ClimbingGame):
            raise ParlourError(f"the self-play network plays the climbing games, not {game.name}")
        self.game = game
        index = action_index(game)
        names = encoder(game).feature_names()
        # The hand block leads the encoding: rows() reads it as the first 52 entries.
        if not (names[0].startswith("hand:") and names[51].startswith("hand:")):
            raise ParlourError(f"{game.name}'s encoding does not start with the hand block")
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

    def compiled(self, params: dict[str, F32], scale: float) -> ClimbingNet:
        """The network as the climbing games' compiled playout policy
        (:meth:`ActionFeatures.compiled`): the static features as sparse rows."""
        from parlour._core import ClimbingNet

        p, static, game = params, self.static, self.game
        rows, cols = np.nonzero(static)
        ptr = np.searchsorted(rows, np.arange(static.shape[0] + 1)).astype(np.int64)
        return ClimbingNet(
            game.table.core, game.players, p["w1o"], p["w1a"], p["b1"], p["w2"], p["b2"],
            p["w3"], float(p["b3"][0]), ptr, cols.astype(np.int64),
            static[rows, cols].astype(np.float32), scale=scale)

    def rows(self, legal: I64, obs: F32, seg: I64) -> F32:
        """One feature row per legal action (:meth:`ActionFeatures.rows`)."""
        hand = obs[seg, :52]
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


def features_for(game: Game) -> ActionFeatures:
    """The action features of ``game``'s family, or a :class:`ParlourError` for a family
    without them.

    >>> import parlour
    >>> features_for(parlour.new_game("pusoy-dos")).width, features_for(parlour.new_game("forty-five")).width
    (140, 144)
    """
    from parlour.bots.learned.rummy import RummyFeatures
    from parlour.bots.learned.trump import TrumpFeatures

    families: dict[str, Callable[[Game], ActionFeatures]] = {
        "climbing": ClimbingFeatures, "trump": TrumpFeatures, "rummy": RummyFeatures}
    make = families.get(game.variant.family)
    if make is None:
        *others, last = sorted(families)
        raise ParlourError(f"the self-play network has no features for {game.name}: it plays "
                           f"the {', '.join(others)} and {last} games")
    return make(game)


@dataclass
class QNet:
    """Q(observation, action) = w3 · relu(W2 relu(W1o x + W1a f + b1) + b2) + b3, with Adam.

    Q estimates the deal's normalised return for the seat to move after that action."""

    params: dict[str, F32]
    lr: float = 1e-3
    moments: dict[str, tuple[F32, F32]] = field(default_factory=dict)
    updates: int = 0

    @classmethod
    def new(cls, obs_size: int, act_size: int, hidden: Sequence[int], rng: np.random.Generator,
            lr: float) -> QNet:
        h1, h2 = hidden

        def he(fan_in: int, shape: tuple[int, ...]) -> F32:
            weights: F32 = (rng.standard_normal(shape) * np.sqrt(2.0 / fan_in)).astype(np.float32)
            return weights

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
        out: F32 = np.asarray(h2 @ p["w3"] + p["b3"][0], dtype=np.float32)
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

    def deal_only(self, features: ActionFeatures) -> QNet:
        """This network without the inputs that only a match changes (in the trump games the
        scores before the deal and Spoil Five's pool: ``features.match_entries``).

        Self-play plays single deals from the match's start, so those entries always held the
        same values in training: their weights never learned anything (they kept their random
        start where the entries are 0). Here each row's constant share is moved into the bias
        and the row is zeroed, so the scores are the same on every deal like those of training
        and do not change with the match's scores later on."""
        from parlour.envs import encoder

        game = features.game
        enc = encoder(game)
        rows = [i for i, name in enumerate(enc.feature_names())
                if name.startswith(features.match_entries)]
        start = enc.encode(game.new_deal(seed=0).observation(0))[rows]
        params = {k: v.copy() for k, v in self.params.items()}
        params["b1"] += start @ params["w1o"][rows]
        params["w1o"][rows] = 0.0
        return QNet(params, self.lr)

    def save(self, path: str | Path, metadata: dict[str, Any]) -> None:
        """The weights (not the optimiser's moments) and ``metadata`` as an ``.npz`` file."""
        meta = {"format": FORMAT, **metadata}
        arrays: dict[str, Any] = {"metadata": np.array(json.dumps(meta)), **self.params}
        np.savez_compressed(path, **arrays)

    @classmethod
    def load(cls, path: str | Path) -> tuple[QNet, dict[str, Any]]:
        """The network in a weights file and its metadata, or a :class:`ParlourError` saying
        why it cannot be read."""
        try:
            with np.load(path, allow_pickle=False) as data:
                params = {k: data[k].astype(np.float32) for k in ARRAYS}
                metadata = json.loads(str(data["metadata"]))
        except (OSError, ValueError, KeyError) as e:
            raise ParlourError(f"cannot read the weights in {path}: {e}") from None
        if metadata.get("format") != FORMAT:
            raise ParlourError(f"{path} holds weights of format {metadata.get('format')!r}; this "
                               f"version of parlour reads format {FORMAT}")
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
    """Training settings."""

    variant: str = "big-two-4card"
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
