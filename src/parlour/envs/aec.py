"""A PettingZoo AEC environment for every variant: ``parlour.envs.aec_env("big-two")``.

One episode is one deal. It follows PettingZoo's classic card environments:

- agents ``player_0`` … ``player_{n-1}`` (seat ``i`` is ``player_i``);
- each agent observes a dict: ``"observation"``, the seat's :func:`~parlour.envs.encoder`
  encoding (``float32``, in ``[-1, 1]``, built from ``state.observation(seat)`` alone), and
  ``"action_mask"`` (``int8``, 1 for each legal action of the agent to act; all zero for the
  others);
- actions are indexes of :func:`~parlour.envs.action_index` (``Discrete(size)``); an index that
  is not legal raises :class:`~parlour.errors.IllegalAction` and changes nothing;
- rewards come once, when the deal ends: each seat's return in the variant's own scoring
  (``rewards="score"``, the default), or divided by the largest absolute return of a deal so
  that they lie in ``[-1, 1]`` (``rewards="normalised"``);
- ``reset(seed=…)`` makes the deal sequence reproducible; ``render_mode="ansi"`` renders the
  table from the seat to act with the observation's own ``render()``.

Observations are made from the state's compiled deal (:func:`~parlour.encoding.compiled`:
the same encoding, no observation object per step); a family without compiled parts encodes
``state.observation(seat)`` in Python.

>>> from parlour.envs import aec_env
>>> env = aec_env("big-two-4card")
>>> env.reset(seed=3)
>>> for agent in env.agent_iter():
...     obs, reward, terminated, truncated, info = env.last()
...     if terminated:
...         env.step(None)
...     else:
...         env.step(int(obs["action_mask"].nonzero()[0][0]))  # the first legal action
>>> sorted(env.final_returns.values())[-1] > 0
True
"""

from __future__ import annotations

import random
from typing import Any

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]

from parlour.encoding import action_index, compiled, encoder
from parlour.envs.registration import make_game, reward_divisor
from parlour.errors import IllegalAction, VariantError
from parlour.game import Game, State
from parlour.play import seed_or_random


def observation_space(game: Game) -> spaces.Box:
    return spaces.Box(-1.0, 1.0, (encoder(game).size,), np.float32)


def mask_space(game: Game) -> spaces.Box:
    return spaces.Box(0, 1, (action_index(game).size,), np.int8)


class ParlourAECEnv(AECEnv):  # type: ignore[misc]
    """One deal of a parlour variant as a PettingZoo AEC environment (module docstring)."""

    # gymnasium and pettingzoo declare metadata an instance attribute, so no ClassVar
    metadata = {"render_modes": ["ansi"], "name": "parlour_v0", "is_parallelizable": False}  # noqa: RUF012

    def __init__(self, variant: str | Game, players: int | None = None, *,
                 render_mode: str | None = None, rewards: str = "score",
                 **options: Any) -> None:
        super().__init__()
        game = self.game = make_game(variant, players, options)
        if render_mode not in (None, "ansi"):
            raise VariantError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        self.render_mode = render_mode
        self.metadata = {**type(self).metadata,
                         "name": f"parlour_{game.name.replace('-', '_')}_v0"}
        self._scale = reward_divisor(rewards, game)
        self.encoder = encoder(game)
        self.action_index = action_index(game)
        self.possible_agents = [f"player_{i}" for i in range(game.players)]
        self._seats = {a: i for i, a in enumerate(self.possible_agents)}
        # Fresh spaces per environment: seeding one environment's spaces must not seed another's.
        self.observation_spaces = {
            a: spaces.Dict({"observation": observation_space(game),
                            "action_mask": mask_space(game)}) for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(self.action_index.size)
                              for a in self.possible_agents}
        self._deals = random.Random(seed_or_random(None))
        # The compiled encoder and index, which read the state's own deal (no observation is
        # made); None for a family without them, which encodes its observations in Python.
        self._fast = compiled(game)
        # The mask of a seat not to move: all zero, shared, and read-only so no agent can
        # change what another is shown.
        self._no_actions = np.zeros(self.action_index.size, dtype=np.int8)
        self._no_actions.setflags(write=False)
        self._observed: dict[int, dict[str, np.ndarray]] = {}
        self.final_returns: dict[str, float] = {}
        self.state: State | None = None

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._deals = random.Random(seed)
        self.state = self.game.new_deal(seed=self._deals.getrandbits(63))
        self.agents = self.possible_agents[:]
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self.final_returns = {}
        self._observed = {}
        self.agent_selection = self.possible_agents[self.state.current_player]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seats[agent]
        seen = self._observed.get(seat)
        if seen is None:  # once per seat and step: last() and observe() may both ask
            seen = self._observed[seat] = self._observe(seat)
        return seen

    def _observe(self, seat: int) -> dict[str, np.ndarray]:
        """The seat's encoding and action mask, new arrays (an agent may keep them)."""
        state = self._state()
        fast = self._fast
        if fast is not None:
            extra = fast.extra
            return fast.core.observation(fast.engine(state), seat, self._no_actions,
                                         None if extra is None else extra(state))
        view = state.observation(seat)
        obs = self.encoder.encode(view)
        if seat != state.current_player:
            return {"observation": obs, "action_mask": self._no_actions}
        return {"observation": obs,
                "action_mask": self.action_index.mask(state.legal_actions(), view)}

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        state = self._state()
        move = self._move(action)
        state.apply(move)
        self._observed = {}
        self._cumulative_rewards[agent] = 0.0
        if state.is_over:
            returns = state.returns()
            scale = self._scale
            self.rewards = {a: returns[i] / scale for i, a in enumerate(self.possible_agents)}
            self.final_returns = dict(self.rewards)
            self.terminations = dict.fromkeys(self.agents, True)
            seat = self._seats[agent]
            self.agent_selection = self.possible_agents[(seat + 1) % self.game.players]
            self._accumulate_rewards()
        else:
            # Rewards come only at the end of the deal: until then self.rewards stays all zero
            # (as reset made it), and there is nothing to accumulate.
            self.agent_selection = self.possible_agents[state.current_player]

    def _move(self, action: object) -> Any:
        """The legal action at index ``action``, or :class:`IllegalAction`."""
        state = self._state()
        seat = state.current_player
        mask = self.observe(self.possible_agents[seat])["action_mask"]
        i = action if action.__class__ is int else (  # numpy ints too; not bools or others
            int(action) if isinstance(action, np.integer) else -1)  # type: ignore[call-overload]
        if not (0 <= i < mask.shape[0] and mask[i]):  # type: ignore[operator]
            raise IllegalAction(f"{action!r} is not the index of a legal action of "
                                f"player_{seat}: see the action_mask of its observation")
        return self.action_index.action(i, state)  # type: ignore[arg-type]

    def _state(self) -> State:
        if self.state is None:
            raise IllegalAction("call reset() before using the environment")
        return self.state

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        state = self._state()
        return state.observation(max(state.current_player, 0)).render()

    def close(self) -> None:
        pass
