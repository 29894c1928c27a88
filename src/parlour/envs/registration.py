"""Environment ids: ``parlour/<Variant>-v0`` for every variant, registered with Gymnasium.

``gymnasium.make("parlour/BigTwo-v0", opponents=["greedy"])`` makes the single-agent
environment (:class:`~parlour.envs.single.ParlourSingleAgentEnv`) of that variant, with the
keywords it takes (``opponents``, ``seat``, ``players``, ``rewards``, the variant's options),
once the ids are registered: importing :mod:`parlour.interop.gymnasium` registers them (and
``gymnasium.make("parlour.interop.gymnasium:parlour/BigTwo-v0")`` imports it by itself), as
does :func:`register_envs` at any time, and importing :mod:`parlour.envs` when Gymnasium is
imported already. (Importing :mod:`parlour.envs` never imports Gymnasium by itself: bots use
its encoders with numpy alone.)
The PettingZoo AEC and the batched environments take the same ids in place of a variant's
name: ``aec_env("parlour/BigTwo-v0")``, ``batched_env("parlour/Rummy-v0", num_envs=256)``.

Every environment's constructor reads its game and rewards here: :func:`make_game` (a name,
an id or a game) and :func:`reward_divisor`.

>>> env_id("big-two-4card"), variant_of("parlour/BigTwo4Card-v0"), variant_of("rummy")
('parlour/BigTwo4Card-v0', 'big-two-4card', 'rummy')
"""

from __future__ import annotations

import importlib.util
import re
from typing import Any

from parlour.encoding import reward_scale
from parlour.errors import VariantError
from parlour.game import Game
from parlour.registry import new_game, variants

#: The namespace and version of every id.
NAMESPACE, VERSION = "parlour", 0
#: Where Gymnasium finds the environment an id makes.
ENTRY_POINT = "parlour.envs.single:ParlourSingleAgentEnv"


def env_id(variant: str) -> str:
    """The id of ``variant``: its name in CamelCase, "big-two-4card" → "parlour/BigTwo4Card-v0"."""
    words = [re.sub(r"(^|\d)([a-z])", lambda m: m.group(1) + m.group(2).upper(), part)
             for part in variant.split("-")]
    return f"{NAMESPACE}/{''.join(words)}-v{VERSION}"


def env_ids() -> dict[str, str]:
    """Every id, with the variant it names, in the order of the variants."""
    return {env_id(v.name): v.name for v in variants()}


def variant_of(name: str) -> str:
    """The variant an id names; a variant's own name is returned as it is. :class:`VariantError`
    for an id of no variant."""
    if not isinstance(name, str) or not name.startswith(f"{NAMESPACE}/"):
        return name
    ids = env_ids()
    if name not in ids:
        raise VariantError(f"unknown environment id {name!r}; the ids are: {', '.join(ids)}")
    return ids[name]


def register_envs() -> bool:
    """Register every id with Gymnasium (again: nothing); ``False`` when it is not installed."""
    if importlib.util.find_spec("gymnasium") is None:
        return False
    import gymnasium

    for name, variant in env_ids().items():
        if name not in gymnasium.registry:
            gymnasium.register(id=name, entry_point=ENTRY_POINT, kwargs={"variant": variant},
                               disable_env_checker=False)
    return True


#: What the environments' ``rewards`` may be.
REWARDS = ("score", "normalised")


def make_game(variant: str | Game, players: int | None, options: dict[str, Any]) -> Game:
    """``variant`` as a :class:`Game`: a name (or an environment id, ``parlour/BigTwo-v0``)
    with its players and options, or a game."""
    if isinstance(variant, Game):
        if players is not None or options:
            raise VariantError("give a variant name with players and options, or a game alone")
        return variant
    return new_game(variant_of(variant), players=players, **options)


def reward_divisor(rewards: str, game: Game) -> float:
    """What the environments divide returns by: 1 for ``rewards="score"`` (the variant's own
    scoring), :func:`reward_scale` for ``rewards="normalised"``."""
    if rewards not in REWARDS:
        raise VariantError(f"rewards must be one of {', '.join(REWARDS)}, not {rewards!r}")
    return reward_scale(game) if rewards == "normalised" else 1.0
