"""``greedy``: the variant's own rule-based policy (each family supplies it in ``games/``)."""

from __future__ import annotations

import random
from collections.abc import Sequence

from parlour.bots.base import Bot
from parlour.game import Action, Observation


class GreedyBot(Bot):
    """``greedy``: the variant's own rule-based policy."""

    name = "greedy"

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        return observation.game.greedy_action(observation, legal_actions, rng)

    def choose_explained(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> tuple[Action, str]:
        action, reason = super().choose_explained(observation, legal_actions, rng)
        return action, reason if len(legal_actions) == 1 else f"{action.words()}: the rule-based choice"
