"""The one bot interface: a bot sees an observation and the legal actions, never the state."""

from __future__ import annotations

import math
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from dataclasses import dataclass

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


@dataclass(frozen=True)
class BotOption:
    """A setting a bot takes after its name, ``ismcts:simulations=400``: a whole number
    (``kind`` ``int``) or a number (``float``) from ``low`` to ``high``."""

    name: str
    kind: type[int] | type[float]
    low: float
    high: float
    help: str

    def read(self, bot: str, text: str) -> int | float:
        """``text`` as this option's value, or a :class:`VariantError` saying what it takes."""
        whole = self.kind is int
        try:
            value: int | float = int(text) if whole else float(text)
        except ValueError:
            value = math.nan
        if not self.low <= value <= self.high:  # a NaN fails both comparisons
            number = "a whole number" if whole else "a number"
            low, high = (f"{x:,}" if whole else f"{x:g}" for x in (self.low, self.high))
            raise VariantError(f"{bot}: {self.name} must be {number} from {low} to {high}, "
                               f"not {text!r}")
        return value


_BOTS: dict[str, tuple[Callable[..., Bot], Callable[..., Bot], tuple[BotOption, ...]]] = {}


def register_bot(
    name: str, factory: Callable[..., Bot], *, interactive: Callable[..., Bot] | None = None,
    options: Sequence[BotOption] = (),
) -> None:
    """Make ``name`` a bot name. ``interactive``, when given, builds the bot for play against
    a person instead (e.g. a search with a time limit rather than a reproducible budget).
    ``options`` are the settings it takes after its name, passed to either as keywords."""
    _BOTS[name] = (factory, interactive or factory, tuple(options))


def bot_names() -> list[str]:
    """The bot names :func:`make_bot` knows, in the order they were registered."""
    return list(_BOTS)


def bot_options(name: str) -> tuple[BotOption, ...]:
    """The settings the bot ``name`` takes after its name (none for most)."""
    return _BOTS[name][2] if name in _BOTS else ()


def parse_bot(spec: str) -> tuple[str, dict[str, int | float]]:
    """A bot's name and settings from ``name`` or ``name:option=value[:option=value…]``;
    a :class:`VariantError` in words for an unknown bot, option or a value out of range.

    >>> parse_bot("greedy")
    ('greedy', {})
    >>> parse_bot("greedy:depth=2")
    Traceback (most recent call last):
    ...
    parlour.errors.VariantError: greedy takes no settings, so not 'depth=2'
    """
    name, *settings = spec.split(":")
    if name not in _BOTS:
        raise VariantError(f"unknown bot {name!r}; the bots are: {', '.join(_BOTS)}")
    known = {o.name: o for o in _BOTS[name][2]}
    chosen: dict[str, int | float] = {}
    for setting in settings:
        key, equals, text = setting.partition("=")
        if not known:
            raise VariantError(f"{name} takes no settings, so not {setting!r}")
        if not equals or key not in known:
            raise VariantError(f"{name} has no setting {setting!r}; write {name}:setting=value "
                               f"with one of: {', '.join(known)}")
        if key in chosen:
            raise VariantError(f"{name}: {key} is given twice")
        chosen[key] = known[key].read(name, text)
    return name, chosen


def bot_spec(spec: str) -> str:
    """``spec`` checked (:func:`parse_bot`) and written one way: the settings in the order the
    bot lists them.

    >>> bot_spec("expert")
    'expert'
    """
    name, chosen = parse_bot(spec)
    order = [o.name for o in _BOTS[name][2]]
    return ":".join([name, *(f"{k}={chosen[k]}" for k in order if k in chosen)])


def make_bot(spec: str, *, interactive: bool = False) -> Bot:
    """A bot by name (``random``, ``greedy``, ``easy`` … ``expert``), with its settings after
    the name where it takes any (``ismcts:simulations=400``: :func:`parse_bot`).

    ``interactive=True`` builds it for play against a person: searching bots then stop at a
    time limit instead of after a fixed budget (see :mod:`parlour.bots.levels`).

    >>> make_bot("greedy").name
    'greedy'
    >>> make_bot("grumpy")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    parlour.errors.VariantError: unknown bot 'grumpy'; the bots are: random, greedy, easy, medium, hard, expert, learned...
    """
    name, chosen = parse_bot(spec)
    factory, for_a_person, _ = _BOTS[name]
    return (for_a_person if interactive else factory)(**chosen)
