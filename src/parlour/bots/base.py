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

    @property
    def reusable(self) -> bool:
        """Whether the choice depends on nothing but the arguments and the generator's state
        (no clock, nothing kept between calls), so that the arena may reuse it where another
        seating of a duplicate deal reaches the same position; worth it only for a dear choice.
        """
        return False

    @abstractmethod
    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        """Pick an action for ``observation.seat``; all randomness comes from ``rng``."""

    def choose_explained(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> tuple[Action, str]:
        """The same choice as :meth:`choose` (from the same ``rng`` state), with a one-line
        reason for showing a player that begins with the move in words (:meth:`Action.words`);
        here a generic one, which bots that can say more refine."""
        action = self.choose(observation, legal_actions, rng)
        if len(legal_actions) == 1:
            return action, f"{action.words()}: the only legal move"
        return action, f"{action.words()}: the choice of {self.name}"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


_BOTS: dict[str, tuple[Callable[[], Bot], Callable[[], Bot]]] = {}


def register_bot(
    name: str, factory: Callable[[], Bot], *, interactive: Callable[[], Bot] | None = None
) -> None:
    """Make ``name`` a bot name. ``interactive``, when given, builds the bot for play against
    a person instead (e.g. a search with a time limit rather than a reproducible budget)."""
    _BOTS[name] = (factory, interactive or factory)


def bot_names() -> list[str]:
    """The bot names :func:`make_bot` knows, in the order they were registered."""
    return list(_BOTS)


def make_bot(name: str, *, interactive: bool = False) -> Bot:
    """A bot by name (``random``, ``greedy``, ``easy`` … ``expert``).

    ``interactive=True`` builds it for play against a person: searching bots then stop at a
    time limit instead of after a fixed budget (see :mod:`parlour.bots.levels`).

    >>> make_bot("greedy").name
    'greedy'
    >>> make_bot("grumpy")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    parlour.errors.VariantError: unknown bot 'grumpy'; the bots are: random, greedy, easy, medium, hard, expert, learned...
    """
    try:
        factories = _BOTS[name]
    except KeyError:
        raise VariantError(f"unknown bot '{name}'; the bots are: {', '.join(_BOTS)}") from None
    return factories[1 if interactive else 0]()
