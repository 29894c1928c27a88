"""``random``: a uniformly random legal action."""

from __future__ import annotations

import random
from collections.abc import Sequence

from parlour.bots.base import Bot
from parlour.game import Action, Observation


class RandomBot(Bot):
    """``random``: a uniformly random legal action."""

    name = "random"

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        return rng.choice(legal_actions)
