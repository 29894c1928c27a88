"""Difficulty levels: ``easy``, ``medium``, ``hard`` and ``expert``, usable wherever a bot name is
(``parlour play big-two --bots hard,greedy,easy``, ``parlour arena … --bots expert,greedy``).

- ``easy``: ``greedy`` that errs: half of its real choices (more than one legal move) are a
  random legal move instead. No search.
- ``medium``, ``hard``, ``expert``: :class:`~parlour.bots.search.SearchBot` with one
  :class:`~parlour.bots.search.SearchConfig` per variant (:func:`level_config`): the level's
  own settings (:data:`LEVELS`), then those its family sets for every level
  (:attr:`Family.level_settings <parlour.registry.Family.level_settings>`), then those tuned
  for the variant (:attr:`Variant.levels <parlour.registry.Variant.levels>`).
  :func:`settings_table` prints them all.

A level searches a fixed number of rollouts (fewer when racing leaves one candidate early), so
the arena and tests are reproducible: the same seed gives the same moves on any machine and at
any load. ``make_bot("hard", interactive=True)``, for play against a person, has the same budget
and also stops when its time is up (0.2, 0.5 and 1 s a move), which bounds every move on a
slow or busy machine. How the levels measure today is on the documentation's "Speed and
strength"; how each setting was found, on its Experiments pages.

>>> from parlour.bots import make_bot
>>> make_bot("hard").config_for_variant("big-two").iterations
360
>>> make_bot("hard", interactive=True).config_for_variant("big-two").time_limit
0.5
>>> level_config("expert", "big-two-4card").opponents.draws
16
"""

from __future__ import annotations

import copy
import random
import statistics
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache, partial
from typing import Any

from parlour.bots.base import Bot, register_bot
from parlour.bots.greedy import GreedyBot
from parlour.bots.search import SearchBot, SearchConfig
from parlour.errors import ParlourError
from parlour.game import Action, Game, Observation
from parlour.play import play_out
from parlour.registry import family_of, get_variant, variants


class EasyBot(Bot):
    """``greedy`` that errs: with probability ``blunder`` a real choice (more than one legal
    move) is a uniformly random legal move instead."""

    name = "easy"

    def __init__(self, blunder: float = 0.5) -> None:
        self.blunder = blunder
        self._greedy = GreedyBot()

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        return self.choose_explained(observation, legal_actions, rng)[0]

    def choose_explained(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> tuple[Action, str]:
        if len(legal_actions) > 1 and rng.random() < self.blunder:
            action = rng.choice(legal_actions)
            return action, f"{action.words()}: a move on a whim"
        return self._greedy.choose_explained(observation, legal_actions, rng)


#: How many of the learned network's best moves lead a guided level's candidates.
GUIDED_CANDIDATES = 4


@dataclass(frozen=True)
class Level:
    """A searching level: its name, its most time a move in interactive play, and its
    settings in every variant before its family's and the variant's own (:func:`level_config`)."""

    name: str
    time_limit: float
    search: SearchConfig


#: The searching levels, weakest first. The guided levels take the variant's learned network
#: as their guide (none where there is no network: they search as unguided); which variants
#: also play their worlds out with it, and with what budget, each variant says.
LEVELS = (
    Level("medium", 0.2, SearchConfig(iterations=48, max_candidates=4, prior_weight=0.0,
                                      guided_candidates=GUIDED_CANDIDATES)),
    Level("hard", 0.5, SearchConfig(iterations=360, guided=True, prior_weight=0.0,
                                    guided_candidates=GUIDED_CANDIDATES)),
    Level("expert", 1.0, SearchConfig(iterations=18_000, guided=True, prior_weight=0.0,
                                      guided_candidates=GUIDED_CANDIDATES)),
)
_BY_NAME = {level.name: level for level in LEVELS}


@cache
def level_config(level: str, variant: str) -> SearchConfig:
    """The settings of searching level ``level`` in ``variant`` (without the time limit of
    interactive play): the level's, its family's, then the variant's own.

    >>> [level_config("medium", v).keep_policy for v in ("rummy", "forty-five")]
    [2.0, 0.0]
    """
    if level not in _BY_NAME:
        raise ParlourError(f"{level!r} is not a searching level; they are: {', '.join(_BY_NAME)}")
    record = get_variant(variant)
    return (_BY_NAME[level].search.replace(**family_of(record).level_settings)
            .replace(**record.levels.get(level, {})))


class LevelBot(SearchBot):
    """A searching level: a :class:`SearchBot` whose settings are its level's in the variant
    of each observation (:func:`level_config`), with the level's time limit when
    ``interactive``."""

    def __init__(self, level: Level, interactive: bool = False) -> None:
        self._changes: dict[str, Any] = {"time_limit": level.time_limit} if interactive else {}
        super().__init__(level.search.replace(**self._changes))
        self.name = level.name
        self.level = level
        self._configs: dict[str, SearchConfig] = {}

    def config_for(self, observation: Observation) -> SearchConfig:
        return self.config_for_variant(observation.game.name)

    def config_for_variant(self, variant: str) -> SearchConfig:
        """This bot's settings in ``variant``."""
        config = self._configs.get(variant)
        if config is None:
            config = level_config(self.level.name, variant).replace(**self._changes)
            self._configs[variant] = config
        return config

    def replace(self, **changes: Any) -> LevelBot:
        bot = copy.copy(self)
        bot.config = self.config.replace(**changes)
        bot._changes = {**self._changes, **changes}
        bot._configs = {}
        return bot


def settings_table() -> str:
    """Every searching level's settings in every variant, as a Markdown table (the
    documentation's "Bots" page shows it)."""
    rows = ["| level | variant | rollouts a move by `greedy` | moves searched | policy's choice "
            "kept unless beaten by | guided by the network | worlds played out by | other seats |",
            "|---|---|---|---|---|---|---|---|"]
    for level in LEVELS:
        for variant in variants():
            c = level_config(level.name, variant.name)
            played = (f"the network, {c.network_iterations or c.iterations:,} rollouts"
                      if c.network_playouts else "`greedy`")
            guided = f"yes, its best {c.guided_candidates} first" if c.guided else "no"
            keep = f"{c.keep_policy:g} standard errors" if c.keep_policy else "never kept"
            seats = (f"modelled by kind, worlds from {c.opponents.draws} draws" if c.opponents
                     else "by the network" if c.network_playouts else "by `greedy`")
            rows.append(f"| `{level.name}` | {variant.name} | {c.iterations:,} | "
                        f"{c.max_candidates} | {keep} | {guided} | {played} | {seats} |")
    return "\n".join(rows)


def register_levels() -> None:
    """Register ``easy`` … ``expert`` as bot names."""
    register_bot("easy", EasyBot)
    for level in LEVELS:
        register_bot(level.name, partial(LevelBot, level),
                     interactive=partial(LevelBot, level, interactive=True))


def bench_lines(game: Game, seconds: float) -> Iterator[str]:
    """``parlour bench`` figures for the searching levels: milliseconds per decision (median and
    99th percentile) and rollouts per second, each level for about ``seconds`` after one search
    that is not timed (the first loads the level's network).

    The decisions are those of a deal played by ``greedy`` (every position where the player to
    move has more than one legal action), taken in random order until the time is up (at least
    one), so that a short run still samples the whole deal.
    """
    positions: list[tuple[Observation, Sequence[Action]]] = []

    class Recording(GreedyBot):
        def choose(self, observation: Observation, legal_actions: Sequence[Action],
                   rng: random.Random) -> Action:
            if len(legal_actions) > 1:
                positions.append((observation, legal_actions))
            return super().choose(observation, legal_actions, rng)

    rng = random.Random(0)
    play_out(game.new_deal(seed=0), [Recording()] * game.players, rng)
    rng.shuffle(positions)
    for level in LEVELS:
        bot = LevelBot(level)
        # One search before the clock starts: a level's first search loads its network
        # (hundreds of milliseconds in the climbing games), once per process, not per move.
        bot.search(*positions[0], random.Random(-1))
        times: list[float] = []
        rollouts = 0
        for observation, legal in positions:
            result = bot.search(observation, legal, random.Random(len(times)))
            times.append(result.seconds)
            rollouts += result.iterations
            if sum(times) >= seconds:
                break
        times.sort()
        p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
        yield (f"{level.name + ' search:':16}{statistics.median(times) * 1e3:8.1f} ms median"
               f"  {p99 * 1e3:8.1f} ms p99 per decision  {rollouts / sum(times):8,.0f} rollouts/s"
               f"  ({len(times)} of the {len(positions)} decisions of a deal)")
