"""The ``learned`` bot's network: a Q-network that scores (observation, action) pairs, in plain
numpy (trained by :mod:`parlour.training.dmc`).

The network is a two-layer perceptron over

- the batch's observation encoding (:func:`parlour.encoding.encoder`): the state part, whose
  first-layer product is computed once per row and shared by all of the row's legal actions;
- features of each action, each family its own (:func:`features_for`): in the climbing games
  (:class:`~parlour.games.climbing.features.ClimbingFeatures`), features computed once over the whole action index (its cards,
  size, kind, top card, 2s spent) and, per decision, what it leaves in hand: the
  hand-after-move card block, how many cards, singles, pairs, triples and quads remain, how
  many rank groups it breaks, whether it goes out; in the trump games
  (:class:`~parlour.games.trump.features.TrumpFeatures`), the action's index entry and what its
  card means in the deal (trump or plain, its place in the order, whether it takes the trick);
  in Rummy (:class:`~parlour.games.rummy.features.RummyFeatures`), the kind of move, the cards it
  moves and their points, and the hand it leaves (its melds, deadwood and unpaired cards).
"""

from __future__ import annotations

import importlib
import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol

import numpy as np
import numpy.typing as npt

from parlour.encoding import encoder
from parlour.errors import ParlourError
from parlour.game import Game
from parlour.registry import families, family_of

if TYPE_CHECKING:
    pass

F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]

#: The weights format of :meth:`QNet.save`; a file of another format is refused.
FORMAT = 2
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


def features_for(game: Game) -> ActionFeatures:
    """The action features of ``game``'s family (its record's ``features``, imported on first
    use), or a :class:`ParlourError` for a family without them.

    >>> import parlour
    >>> features_for(parlour.new_game("pusoy-dos")).width, features_for(parlour.new_game("forty-five")).width
    (140, 144)
    """
    path = family_of(game.variant).features
    if not path:
        *others, last = sorted(f.name for f in families() if f.features) or ["no"]
        plays = f"{', '.join(others)} and {last}" if others else last
        raise ParlourError(f"the self-play network has no features for {game.name}: it plays "
                           f"the {plays} games")
    module, _, name = path.partition(":")
    make: Callable[[Game], ActionFeatures] = getattr(importlib.import_module(module), name)
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


