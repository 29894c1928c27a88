"""A batched environment: N deals stepped by one call, for PPO- and DMC-style self-play.

``parlour.envs.batched_env("big-two-4card", num_envs=64, seed=0)``. Needs numpy only. Every
call acts for the seat to move in each of the N deals and returns stacked arrays for the next
seat to move; a deal that ends is replaced by a fresh one at once (auto-reset), so every row
always holds a decision.

- ``reset(seed=None) -> BatchStep``; ``step(actions) -> BatchStep`` with ``actions`` one
  action index per deal (a sequence or array of N ints, each legal in its row's mask);
- :class:`BatchStep` fields: ``obs`` (``float32``, ``(N, encoder size)``), ``mask`` (``int8``,
  ``(N, action space)``), ``legal`` and ``offsets`` (the same legal actions as one flat array of
  indexes, row ``i``'s at ``legal[offsets[i]:offsets[i + 1]]``, cheaper to sample from than a
  wide mask), ``player`` (``(N,)``, the seat whose observation and mask each row
  is), ``rewards`` (``float32``, ``(N, players)``: each seat's return in the rows whose deal
  ended on this call, by seat, else 0) and ``done`` (``(N,)``, the deals that ended; their row
  now shows the first decision of the next deal);
- the deal seeds come from one generator seeded by ``seed``: the same seed and actions give
  the same arrays.

The arrays are new on every call, so a rollout may keep them.

>>> from parlour.envs import batched_env
>>> env = batched_env("big-two-4card", num_envs=4, seed=1)
>>> step = env.reset()
>>> step.obs.shape, step.mask.shape, step.player.shape
((4, 396), (4, 21076), (4,))
>>> step = env.step(step.mask.argmax(axis=1))  # the lowest legal index in each deal
>>> step.rewards.shape, bool(step.done.any())
((4, 4), False)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from itertools import chain
from typing import Any, NamedTuple

import numpy as np
import numpy.typing as npt

from parlour.envs.encoding import action_index, encoder, make_game, reward_divisor
from parlour.errors import IllegalAction, VariantError
from parlour.game import Game, Observation, State


class BatchStep(NamedTuple):
    """What :meth:`BatchedEnv.reset` and :meth:`BatchedEnv.step` return (module docstring)."""

    obs: npt.NDArray[np.float32]
    mask: npt.NDArray[np.int8]
    legal: npt.NDArray[np.int64]
    offsets: npt.NDArray[np.int64]
    player: npt.NDArray[np.int64]
    rewards: npt.NDArray[np.float32]
    done: npt.NDArray[np.bool_]


class BatchedEnv:
    """``num_envs`` deals of one game stepped together (module docstring)."""

    def __init__(self, variant: str | Game, num_envs: int = 64, players: int | None = None, *,
                 seed: int = 0, rewards: str = "score", **options: Any) -> None:
        game = make_game(variant, players, options)
        if not (isinstance(num_envs, int) and not isinstance(num_envs, bool) and num_envs > 0):
            raise VariantError(f"num_envs must be a number of deals above 0, not {num_envs!r}")
        self.game = game
        self.num_envs = num_envs
        self.encoder = encoder(game)
        self.action_index = action_index(game)
        self._scale = reward_divisor(rewards, game)
        self._seed = seed
        self._deals = random.Random(seed)
        self.states: list[State] = []
        self._views: list[Observation] = []
        # Each row's legal indexes, as Python lists: kept apart from the arrays handed out, so
        # that a caller writing into a returned mask cannot change what step() accepts.
        self._legal: list[list[int]] = []

    def reset(self, seed: int | None = None) -> BatchStep:
        """Fresh deals in every row (from ``seed``, or continuing the generator)."""
        if seed is not None:
            self._deals = random.Random(seed)
        self.states = [self._new_deal() for _ in range(self.num_envs)]
        n = self.num_envs
        return self._observe(np.zeros((n, self.game.players), dtype=np.float32),
                             np.zeros(n, dtype=np.bool_))

    def _new_deal(self) -> State:
        return self.game.new_deal(seed=self._deals.getrandbits(63))

    def step(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]) -> BatchStep:
        """Apply one action index per deal; the next decisions (module docstring)."""
        n = self.num_envs
        if not self.states:
            raise IllegalAction("call reset() before step()")
        chosen = np.asarray(actions)
        if chosen.shape != (n,) or chosen.dtype.kind not in "iu":
            raise IllegalAction(f"expected {n} action indexes (one per deal), not {actions!r}")
        picks = chosen.tolist()
        for row, (a, legal) in enumerate(zip(picks, self._legal, strict=True)):
            if a not in legal:
                raise IllegalAction(f"action {a!r} of deal {row} is not legal there: see that "
                                    "row of the mask; no deal was changed")
        rewards = np.zeros((n, self.game.players), dtype=np.float32)
        done = np.zeros(n, dtype=np.bool_)
        to_action = self.action_index.action
        states, views = self.states, self._views
        scale = self._scale
        for i, a in enumerate(picks):
            state = states[i]
            state.apply(to_action(a, views[i]))
            if state.is_over:
                rewards[i] = state.returns()
                done[i] = True
                states[i] = self._new_deal()
        if scale != 1.0:
            rewards /= scale
        return self._observe(rewards, done)

    def _observe(self, rewards: npt.NDArray[np.float32],
                 done: npt.NDArray[np.bool_]) -> BatchStep:
        n = self.num_envs
        size = self.action_index.size
        raw = self.encoder.raw
        indices = self.action_index.indices
        views: list[Observation] = []
        raws = []
        legal: list[list[int]] = []
        players = []
        for state in self.states:
            p = state.current_player
            view = state.observation(p)
            views.append(view)
            raws.append(raw(view))
            players.append(p)
            legal.append(indices(state.legal_actions(), view))
        self._views = views
        self._legal = legal
        counts = list(map(len, legal))
        flat = np.fromiter(chain.from_iterable(legal), dtype=np.int64, count=sum(counts))
        offsets = np.zeros(n + 1, dtype=np.int64)
        np.cumsum(counts, out=offsets[1:])
        mask = np.zeros((n, size), dtype=np.int8)
        mask.reshape(-1)[np.repeat(np.arange(0, n * size, size), counts) + flat] = 1
        return BatchStep(self.encoder.encode_raw(raws), mask, flat, offsets,
                         np.array(players, dtype=np.int64), rewards, done)


def sample_legal(step: BatchStep, rng: np.random.Generator) -> npt.NDArray[np.int64]:
    """A uniformly random legal action index per row of ``step``: the random policy.

    >>> import numpy as np
    >>> from parlour.envs import batched_env
    >>> step = batched_env("forty-five", num_envs=3, seed=2).reset()
    >>> chosen = sample_legal(step, np.random.default_rng(0))
    >>> bool(step.mask[np.arange(3), chosen].all())
    True
    """
    counts = np.diff(step.offsets)
    pick = (rng.random(counts.shape[0]) * counts).astype(np.int64)
    chosen: npt.NDArray[np.int64] = step.legal[step.offsets[:-1] + pick]
    return chosen
