"""The one bot interface: a bot sees an observation and the legal actions, never the state."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence

from parlour.errors import VariantError
from parlour.game import Action, Observation


class Bot(ABC):
    """A computer player. ``choose`` must return one of ``legal_actions``."""

    name: str = "bot"

    @abstractmethod
    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Pick an action for ``observation.seat``; all randomness comes from ``rng``."""

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


_BOTS: dict[str, Callable[[], Bot]] = {}


def register_bot(name: str, factory: Callable[[], Bot]) -> None:
    _BOTS[name] = factory


def bot_names() -> list[str]:
    return list(_BOTS)


def make_bot(name: str) -> Bot:
    """A bot by name (``random``, ``greedy`` …)."""
    try:
        return _BOTS[name]()
    except KeyError:
        raise VariantError(f"unknown bot '{name}'; the bots are: {', '.join(_BOTS)}") from None
