"""A batched environment: N deals stepped by one call, for PPO- and DMC-style self-play.

``parlour.envs.batched_env("big-two-4card", num_envs=64, seed=0)``, with ``num_envs`` up to
1,048,576 (``parlour._core.MAX_ENVS``). Needs numpy only. Every
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
  the same arrays;
- ``threads=N`` steps the rows on N threads (the rows are independent; the seeds of new deals
  are drawn in row order between the parallel parts), giving the same arrays as one thread.
  A family without compiled parts steps on the calling thread whatever N is.

The arrays are new on every call, so a rollout may keep them.

The N deals are stepped in the compiled core (``parlour._core.BatchedCore``: the family's Rust
engine, encoder and action index, writing straight into the arrays), which deals each row as
``game.new_deal(seed=…)`` would and encodes exactly as :func:`~parlour.envs.encoder` does. The
mask is the one array it does not write: at a million steps a second, zeroing and filling
``N × actions`` bytes on every call would cost more than the steps themselves (21 MB with 1,024
big-two-4card deals). ``step.mask`` is made from ``legal`` and ``offsets`` the first time it is
read, so it means what it always meant, and a caller that samples from ``legal``
(:func:`sample_legal`) never pays for it. ``env.states`` gives each row's deal as a Python
:class:`~parlour.game.State` when asked (then kept in step with the rows, each step applied
through the Python API as well).

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
from collections.abc import Iterator, Sequence
from itertools import chain
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from parlour._core import MAX_ENVS, MAX_THREADS, BatchedCore
from parlour.encoding import Encoder, action_index, compiled, encoder
from parlour.envs.registration import make_game, reward_divisor
from parlour.errors import IllegalAction, VariantError
from parlour.game import Game, State

FloatArray = npt.NDArray[np.float32]
IntArray = npt.NDArray[np.int64]
BoolArray = npt.NDArray[np.bool_]
MaskArray = npt.NDArray[np.int8]


class BatchStep:
    """What :meth:`BatchedEnv.reset` and :meth:`BatchedEnv.step` return (module docstring).

    It reads as a named tuple: its fields by name, or in the order of ``_fields`` by
    unpacking and index. ``mask`` may be given, or (``None``) made from ``legal`` and
    ``offsets`` when first read, ``actions`` wide.

    >>> import numpy as np
    >>> step = BatchStep(np.zeros((2, 1), np.float32), None, np.array([0, 2, 1]),
    ...                  np.array([0, 2, 3]), np.zeros(2, np.int64), np.zeros((2, 2), np.float32),
    ...                  np.zeros(2, np.bool_), actions=3)
    >>> step.mask.tolist()
    [[1, 0, 1], [0, 1, 0]]
    >>> obs, mask, legal, offsets, player, rewards, done = step
    >>> mask is step.mask, step._fields[1]
    (True, 'mask')
    """

    __slots__ = ("_actions", "_mask", "done", "legal", "obs", "offsets", "player", "rewards")
    _fields = ("obs", "mask", "legal", "offsets", "player", "rewards", "done")

    def __init__(self, obs: FloatArray, mask: MaskArray | None, legal: IntArray,
                 offsets: IntArray, player: IntArray, rewards: FloatArray, done: BoolArray,
                 *, actions: int | None = None) -> None:
        if mask is None and actions is None:
            raise ValueError("give the mask, or the number of actions to make it from")
        self.obs = obs
        self._mask = mask
        self.legal = legal
        self.offsets = offsets
        self.player = player
        self.rewards = rewards
        self.done = done
        self._actions = actions

    @property
    def mask(self) -> MaskArray:
        """``int8``, ``(N, actions)``: 1 at each row's legal indexes (made when first read)."""
        m = self._mask
        if m is None:
            rows, width = self.player.shape[0], self._actions
            assert width is not None
            m = np.zeros((rows, width), dtype=np.int8)
            starts = np.repeat(np.arange(0, rows * width, width), np.diff(self.offsets))
            m.reshape(-1)[starts + self.legal] = 1
            self._mask = m
        return m

    def _asdict(self) -> dict[str, Any]:
        return dict(zip(self._fields, self, strict=True))

    def __iter__(self) -> Iterator[Any]:
        return iter((self.obs, self.mask, self.legal, self.offsets, self.player, self.rewards,
                     self.done))

    def __len__(self) -> int:
        return len(self._fields)

    def __getitem__(self, i: int) -> Any:
        return tuple(self)[i]

    def __repr__(self) -> str:
        return (f"BatchStep(rows={self.player.shape[0]}, obs={self.obs.shape}, "
                f"legal={self.legal.shape[0]}, done={int(self.done.sum())})")


class _Rows(Protocol):
    """What steps the rows: the compiled core, or :class:`_PythonRows` (``BatchedCore``'s
    methods; ``deals`` the new deal-seed generator, or ``None`` to go on)."""

    def reset(self, deals: random.Random | None, obs: FloatArray, player: IntArray,
              rewards: FloatArray, done: BoolArray, offsets: IntArray) -> None: ...

    def step(self, actions: IntArray, obs: FloatArray, player: IntArray, rewards: FloatArray,
             done: BoolArray, offsets: IntArray) -> int: ...

    def legal(self) -> IntArray: ...

    def seeds(self) -> list[int]: ...

    def played(self, row: int) -> list[int]: ...


class _CompiledRows:
    """The compiled core, given its deal-seed generators as their state."""

    def __init__(self, core: BatchedCore) -> None:
        self._core = core
        self.step = core.step
        self.legal = core.legal
        self.seeds = core.seeds
        self.played = core.played

    def reset(self, deals: random.Random | None, obs: FloatArray, player: IntArray,
              rewards: FloatArray, done: BoolArray, offsets: IntArray) -> None:
        state = None if deals is None else deals.getstate()[1]
        self._core.reset(state, obs, player, rewards, done, offsets)


class _PythonRows:
    """The rows of a family without compiled parts: the Python states, observations and
    encoder."""

    def __init__(self, game: Game, num_envs: int, deals: random.Random, scale: float) -> None:
        self.game = game
        self.num_envs = num_envs
        self.encoder: Encoder = encoder(game)
        self.action_index = action_index(game)
        self._deals = deals
        self._scale = scale
        self.states: list[State] = []
        self._seeds: list[int] = []
        self._played: list[list[int]] = []
        self._legal: list[list[int]] = []

    def _deal(self) -> tuple[int, State]:
        seed = self._deals.getrandbits(63)
        return seed, self.game.new_deal(seed=seed)

    def reset(self, deals: random.Random | None, obs: FloatArray, player: IntArray,
              rewards: FloatArray, done: BoolArray, offsets: IntArray) -> None:
        if deals is not None:
            self._deals = deals
        dealt = [self._deal() for _ in range(self.num_envs)]
        self._seeds = [seed for seed, _ in dealt]
        self.states = [state for _, state in dealt]
        self._played = [[] for _ in dealt]
        rewards[:] = 0
        done[:] = False
        self._observe(obs, player, offsets)

    def step(self, actions: IntArray, obs: FloatArray, player: IntArray, rewards: FloatArray,
             done: BoolArray, offsets: IntArray) -> int:
        picks = actions.tolist()
        for row, (a, legal) in enumerate(zip(picks, self._legal, strict=True)):
            if a not in legal:
                return row
        to_action = self.action_index.action
        rewards[:] = 0
        done[:] = False
        for row, a in enumerate(picks):
            state = self.states[row]
            state.apply(to_action(a, state))
            self._played[row].append(a)
            if state.is_over:
                rewards[row] = state.returns()
                done[row] = True
                self._seeds[row], self.states[row] = self._deal()
                self._played[row] = []
        if self._scale != 1.0:
            rewards /= self._scale
        self._observe(obs, player, offsets)
        return -1

    def _observe(self, obs: FloatArray, player: IntArray, offsets: IntArray) -> None:
        raws, legal = [], []
        indices = self.action_index.indices
        for row, state in enumerate(self.states):
            p = player[row] = state.current_player
            view = state.observation(p)
            raws.append(self.encoder.raw(view))
            legal.append(indices(state.legal_actions(), view))
        self.encoder.encode_raw(raws, obs)
        self._legal = legal
        offsets[0] = 0
        np.cumsum(list(map(len, legal)), out=offsets[1:])

    def legal(self) -> IntArray:
        return np.fromiter(chain.from_iterable(self._legal), dtype=np.int64,
                           count=sum(map(len, self._legal)))

    def seeds(self) -> list[int]:
        return list(self._seeds)

    def played(self, row: int) -> list[int]:
        return list(self._played[row])


class BatchedEnv:
    """``num_envs`` deals of one game stepped together (module docstring)."""

    def __init__(self, variant: str | Game, num_envs: int = 64, players: int | None = None, *,
                 seed: int = 0, rewards: str = "score", threads: int = 1,
                 **options: Any) -> None:
        game = make_game(variant, players, options)
        if not (isinstance(num_envs, int) and not isinstance(num_envs, bool)
                and 0 < num_envs <= MAX_ENVS):
            raise VariantError(f"num_envs must be a number of deals from 1 to {MAX_ENVS:,}, "
                               f"not {num_envs!r}")
        if not (isinstance(threads, int) and not isinstance(threads, bool)
                and 0 < threads <= MAX_THREADS):
            raise VariantError(f"threads must be a number from 1 to {MAX_THREADS}, "
                               f"not {threads!r}")
        self.game = game
        self.num_envs = num_envs
        self.encoder = encoder(game)
        self.action_index = action_index(game)
        scale = reward_divisor(rewards, game)
        deals = random.Random(seed)
        fast = compiled(game)
        self._rows: _Rows
        if fast is None:
            self._rows = _PythonRows(game, num_envs, deals, scale)
        else:
            self._rows = _CompiledRows(BatchedCore(fast.core, num_envs, deals.getstate()[1],
                                                   scale, threads))
        self._dealt = False
        # Each row's deal as a Python state, made when first asked for (see ``states``).
        self._states: list[State] | None = None

    def _arrays(self) -> tuple[FloatArray, IntArray, FloatArray, BoolArray, IntArray]:
        n = self.num_envs
        # Every entry is written by the call, so nothing needs zeroing first.
        return (np.empty((n, self.encoder.size), dtype=np.float32),
                np.empty(n, dtype=np.int64),
                np.empty((n, self.game.players), dtype=np.float32),
                np.empty(n, dtype=np.bool_),
                np.empty(n + 1, dtype=np.int64))

    def reset(self, seed: int | None = None) -> BatchStep:
        """Fresh deals in every row (from ``seed``, or continuing the generator)."""
        obs, player, rewards, done, offsets = arrays = self._arrays()
        self._rows.reset(None if seed is None else random.Random(seed), *arrays)
        self._dealt = True
        self._states = None
        return BatchStep(obs, None, self._rows.legal(), offsets, player, rewards, done,
                         actions=self.action_index.size)

    def step(self, actions: Sequence[int] | npt.NDArray[np.integer[Any]]) -> BatchStep:
        """Apply one action index per deal; the next decisions (module docstring)."""
        n = self.num_envs
        if not self._dealt:
            raise IllegalAction("call reset() before step()")
        chosen = np.asarray(actions)
        if chosen.shape != (n,) or chosen.dtype.kind not in "iu":
            raise IllegalAction(f"expected {n} action indexes (one per deal), not {actions!r}")
        # An unsigned index past int64 wraps to a negative one: no row's action either way.
        picks = np.ascontiguousarray(chosen, dtype=np.int64)
        obs, player, rewards, done, offsets = arrays = self._arrays()
        row = self._rows.step(picks, *arrays)
        if row >= 0:
            raise IllegalAction(f"action {chosen[row].item()!r} of deal {row} is not legal "
                                "there: see that row of the mask; no deal was changed")
        if self._states is not None:
            self._mirror(picks, done)
        return BatchStep(obs, None, self._rows.legal(), offsets, player, rewards, done,
                         actions=self.action_index.size)

    @property
    def states(self) -> list[State]:
        """Each row's deal as a Python :class:`~parlour.game.State` (empty before
        :meth:`reset`).

        Made when first asked for, by dealing each row's deal from its seed and replaying the
        actions taken in it; from then on every :meth:`step` is applied to them as well,
        through the Python API, and a deal that ends is replaced by a new state, as the rows
        are.
        """
        if self._states is None:
            if not self._dealt:
                return []
            rows = self._rows
            self._states = [self._replay(seed, rows.played(row))
                            for row, seed in enumerate(rows.seeds())]
        return self._states

    def _replay(self, seed: int, played: list[int]) -> State:
        state = self.game.new_deal(seed=seed)
        to_action = self.action_index.action
        for i in played:
            state.apply(to_action(i, state))
        return state

    def _mirror(self, picks: IntArray, done: BoolArray) -> None:
        """Apply a step's actions to the Python states too."""
        states = self._states
        assert states is not None
        to_action = self.action_index.action
        seeds: list[int] | None = None
        for row, a in enumerate(picks.tolist()):
            states[row].apply(to_action(a, states[row]))
            if done[row]:
                if seeds is None:
                    seeds = self._rows.seeds()
                states[row] = self.game.new_deal(seed=seeds[row])


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
