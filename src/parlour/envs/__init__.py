"""Reinforcement-learning environments for every variant (``pip install 'parlour[rl]'``).

- :func:`encoder` and :func:`action_index` (numpy only, :mod:`parlour.encoding`): a fixed
  observation encoding and a fixed action space per variant;
- :func:`aec_env`: a PettingZoo AEC environment (:mod:`parlour.envs.aec`);
- :func:`single_agent_env`: a Gymnasium environment, one seat against parlour bots
  (:mod:`parlour.envs.single`);
- :func:`batched_env`: N deals stepped by one call, stacked arrays, auto-reset
  (:mod:`parlour.envs.batched`, numpy only).

Each takes a variant's name or its environment id, ``parlour/<Variant>-v0``
(:mod:`parlour.envs.registration`), which Gymnasium's ``make`` takes too once registered.

Importing this package imports numpy and nothing else beyond parlour: gymnasium and pettingzoo
are imported when an environment that needs them is made (or the ids registered, see
:func:`register_envs`).
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Any

from parlour.encoding import ActionIndex, Encoder, action_index, encoder, reward_scale
from parlour.envs.registration import env_id, env_ids, register_envs

if "gymnasium" in sys.modules:  # gymnasium.make("parlour/…") then works after this import
    register_envs()

if TYPE_CHECKING:
    from parlour.envs.aec import ParlourAECEnv
    from parlour.envs.batched import BatchedEnv
    from parlour.envs.single import ParlourSingleAgentEnv


def aec_env(variant: str, players: int | None = None, *, render_mode: str | None = None,
            rewards: str = "score", **options: Any) -> ParlourAECEnv:
    """A PettingZoo AEC environment of one deal of ``variant`` (see :mod:`parlour.envs.aec`)."""
    from parlour.envs.aec import ParlourAECEnv

    return ParlourAECEnv(variant, players, render_mode=render_mode, rewards=rewards, **options)


def single_agent_env(variant: str, opponents: Any = ("random",), seat: int = 0,
                     players: int | None = None, **kwargs: Any) -> ParlourSingleAgentEnv:
    """A Gymnasium environment: the agent plays ``seat``, parlour bots the other seats (see
    :mod:`parlour.envs.single`)."""
    from parlour.envs.single import ParlourSingleAgentEnv

    return ParlourSingleAgentEnv(variant, opponents, seat, players, **kwargs)


def batched_env(variant: str, num_envs: int = 64, players: int | None = None, *,
                seed: int = 0, rewards: str = "score", threads: int = 1,
                **options: Any) -> BatchedEnv:
    """``num_envs`` deals stepped together on ``threads`` threads (see
    :mod:`parlour.envs.batched`)."""
    from parlour.envs.batched import BatchedEnv

    return BatchedEnv(variant, num_envs, players, seed=seed, rewards=rewards, threads=threads,
                      **options)


__all__ = ["ActionIndex", "Encoder", "action_index", "aec_env", "batched_env", "encoder",
           "env_id", "env_ids", "register_envs", "reward_scale", "single_agent_env"]
