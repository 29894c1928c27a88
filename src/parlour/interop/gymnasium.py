"""Every variant as a Gymnasium environment id, ``parlour/<Variant>-v0``: importing this module
registers them (:func:`parlour.envs.registration.register_envs`), whatever was imported before.

>>> import gymnasium
>>> import parlour.interop.gymnasium
>>> gymnasium.make("parlour/Rummy-v0", opponents=["greedy"]).unwrapped.game.name
'rummy'

``gymnasium.make("parlour.interop.gymnasium:parlour/Rummy-v0")`` imports it by itself.
"""

from __future__ import annotations

from parlour.envs.registration import register_envs

register_envs()
