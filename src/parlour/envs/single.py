"""A Gymnasium environment: the agent plays one seat, parlour bots play the others.

``parlour.envs.single_agent_env("rummy", opponents=["greedy"], seat=0)``. One episode is one
deal. The observation is the seat's :func:`~parlour.envs.encoder` encoding (``float32`` in
``[-1, 1]``); the action an index of :func:`~parlour.envs.action_index`. The legal actions are
``info["action_mask"]`` (``int8``) after ``reset`` and every ``step``, and
``env.action_masks()`` (the name MaskablePPO of sb3-contrib calls). The reward is 0 until the
deal ends, then the seat's return (``rewards="score"``) or that return divided by the largest
of a deal (``rewards="normalised"``).

``opponents`` is one bot name (or :class:`~parlour.bots.Bot`) for every other seat, or one per
other seat in seat order. The bots see only their observations and draw from a generator
seeded by ``reset(seed=…)``, so an episode replays exactly from its seed.

An action that is not legal ends the episode with ``illegal_reward`` (default: minus the
largest return of a deal, in the reward's units) and ``info["illegal_action"] = True``
(``illegal_action="end"``, the default, which lets generic checkers sample any action), or
raises :class:`~parlour.errors.IllegalAction` (``illegal_action="raise"``).

>>> from parlour.envs import single_agent_env
>>> env = single_agent_env("big-two-4card", opponents=["greedy"], rewards="normalised")
>>> obs, info = env.reset(seed=1)
>>> done = False
>>> while not done:
...     action = int(info["action_mask"].nonzero()[0][0])
...     obs, reward, done, truncated, info = env.step(action)
>>> -1.0 <= reward <= 1.0
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from parlour.bots import Bot, make_bot
from parlour.encoding import action_index, encoder, reward_scale
from parlour.envs.aec import observation_space
from parlour.envs.registration import make_game, reward_divisor
from parlour.errors import IllegalAction, SeatError, VariantError
from parlour.game import Game, Observation, State

ILLEGAL = ("end", "raise")


def make_opponents(opponents: str | Bot | Sequence[str | Bot], count: int) -> list[Bot]:
    """One bot per other seat, from one name or bot for all, or one per seat."""
    if isinstance(opponents, (str, Bot)):
        opponents = [opponents]
    chosen = list(opponents)
    if len(chosen) == 1:
        chosen *= count
    if len(chosen) != count:
        raise VariantError(f"give one opponent for all {count} other seats, or one per seat; "
                           f"got {len(chosen)}")
    return [make_bot(b) if isinstance(b, str) else b for b in chosen]


class ParlourSingleAgentEnv(gym.Env):  # type: ignore[type-arg]
    """One seat of a parlour deal against parlour bots (module docstring)."""

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012  (an instance attribute in gymnasium)

    def __init__(self, variant: str | Game, opponents: str | Bot | Sequence[str | Bot] = "random",
                 seat: int = 0, players: int | None = None, *, render_mode: str | None = None,
                 rewards: str = "score", illegal_action: str = "end",
                 illegal_reward: float | None = None, **options: Any) -> None:
        game = self.game = make_game(variant, players, options)
        if not (isinstance(seat, int) and not isinstance(seat, bool)
                and 0 <= seat < game.players):
            raise SeatError(f"{seat!r} is not a seat of {game.name}: seats are 0 to "
                            f"{game.players - 1}")
        if render_mode not in (None, "ansi"):
            raise VariantError(f"render_mode must be 'ansi' or None, not {render_mode!r}")
        if illegal_action not in ILLEGAL:
            raise VariantError(f"illegal_action must be one of {', '.join(ILLEGAL)}, "
                               f"not {illegal_action!r}")
        self.seat = seat
        self.render_mode = render_mode
        self._scale = reward_divisor(rewards, game)
        self._illegal = illegal_action
        self._illegal_reward = (-reward_scale(game) / self._scale if illegal_reward is None
                                else float(illegal_reward))
        self.opponents = make_opponents(opponents, game.players - 1)
        self._bots: dict[int, Bot] = {s: self.opponents[i] for i, s in
                                      enumerate(s for s in range(game.players) if s != seat)}
        self.encoder = encoder(game)
        self.action_index = action_index(game)
        self.observation_space = observation_space(game)
        self.action_space = spaces.Discrete(self.action_index.size)
        self.state: State | None = None
        self._view: Observation | None = None
        self._mask = np.zeros(self.action_index.size, dtype=np.int8)
        self._rng = random.Random(0)

    def reset(self, *, seed: int | None = None,
              options: dict[str, Any] | None = None) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        while True:
            deal_seed = int(self.np_random.integers(2**63))
            self._rng = random.Random(deal_seed)
            self.state = self.game.new_deal(seed=deal_seed)
            self._play_bots()
            if not self.state.is_over:  # a deal over before the agent's turn is dealt again
                return self._observe(), {"action_mask": self._mask}

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        state = self.state
        if state is None or self._view is None or state.is_over:
            raise IllegalAction("the deal is over or not started: call reset()")
        legal = (isinstance(action, (int, np.integer)) and not isinstance(action, bool)
                 and 0 <= action < self._mask.shape[0] and self._mask[action])
        if not legal:
            if self._illegal == "raise":
                raise IllegalAction(f"{action!r} is not the index of a legal action: see "
                                    "info['action_mask']")
            self._mask = np.zeros_like(self._mask)
            view, self._view = self._view, None  # the episode is over: step() now refuses
            return (self.encoder.encode(view), self._illegal_reward, True, False,
                    {"action_mask": self._mask, "illegal_action": True})
        state.apply(self.action_index.action(int(action), self._view))
        self._play_bots()
        obs = self._observe()
        reward = state.returns()[self.seat] / self._scale if state.is_over else 0.0
        return obs, reward, state.is_over, False, {"action_mask": self._mask}

    def action_masks(self) -> np.ndarray:
        """The legal actions now (``int8``): the MaskablePPO convention."""
        return self._mask

    def _play_bots(self) -> None:
        state = self.state
        assert state is not None
        while not state.is_over and state.current_player != self.seat:
            p = state.current_player
            state.apply(self._bots[p].choose(state.observation(p), state.legal_actions(),
                                             self._rng))

    def _observe(self) -> np.ndarray:
        state = self.state
        assert state is not None
        view = self._view = state.observation(self.seat)
        if state.is_over:
            self._mask = np.zeros(self.action_index.size, dtype=np.int8)
        else:
            self._mask = self.action_index.mask(state.legal_actions(), view)
        return self.encoder.encode(view)

    def render(self) -> str | None:
        if self.render_mode is None or self.state is None:
            return None
        return self.state.observation(self.seat).render()
