"""Difficulty levels: ``easy``, ``medium``, ``hard`` and ``expert``, usable wherever a bot name is
(``parlour play big-two --bots hard,greedy,easy``, ``parlour arena … --bots expert,greedy``).

- ``easy``: ``greedy`` that errs: half of its real choices (more than one legal move) are a
  random legal move instead. No search.
- ``medium``: :class:`~parlour.bots.search.SearchBot` over the rule-based policy's 4 preferred
  moves, at most 48 rollouts a move.
- ``hard``: the policy's 8 preferred moves, at most 360 rollouts a move, played out by
  ``greedy`` (in big-two-4card by the learned network, 60 rollouts a move:
  :data:`parlour.bots.learned.HARD_PLAYED_OUT`).
- ``expert``: the policy's 8 preferred moves, at most 18,000 rollouts a move played out by
  ``greedy``, or where :data:`parlour.bots.learned.PLAYED_OUT` says so (the climbing and trump
  games) 1,500 played out by the network (800 in big-two).

Each keeps the policy's own choice unless another move beats it by the family's margin in
standard errors of their paired difference (``game.search_keep_policy``: 2 in the climbing
games and Rummy, none in the trump games, where the best mean wins). Where the variant's
network guides its search (:data:`parlour.bots.learned.GUIDED`), ``hard`` and ``expert`` take
its 4 best moves first among the candidates and its choice is the one kept. In big-two-4card
``expert`` also models each other seat as a player of one of two kinds, ``greedy`` or the
network, as its moves so far show, and plays a seat taken for ``greedy`` by ``greedy`` in its
worlds, which it chooses by that seat's moves (:data:`EXPERT_OPPONENTS`).

A level searches a fixed number of rollouts (fewer when racing leaves one candidate early), so
the arena and tests are reproducible: the same seed gives the same moves on any machine and at
any load. ``make_bot("hard", interactive=True)``, for play against a person, has the same budget
and also stops when its time is up (0.2, 0.5 and 1 s a move), which bounds every move on a
slow or busy machine. How the levels measure today is on the documentation's "Speed and
strength"; how each setting was found, on its Experiments pages.

>>> from parlour.bots import make_bot
>>> make_bot("hard").iterations, make_bot("hard", interactive=True).time_limit
(360, 0.5)
"""

from __future__ import annotations

import random
import statistics
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass, field
from functools import partial
from types import MappingProxyType

from parlour.bots.base import Bot, register_bot
from parlour.bots.greedy import GreedyBot
from parlour.bots.learned import HARD_PLAYED_OUT, PLAYED_OUT, playouts, prior
from parlour.bots.search import Opponents, SearchBot
from parlour.game import Action, Game, Observation
from parlour.play import play_out


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
    """A searching level: its rollouts per move, its most time per move in interactive play,
    and how many of the playout policy's preferred moves it considers."""

    name: str
    iterations: int
    time_limit: float
    candidates: int
    #: Standard errors by which another move must beat the policy's own choice (0: the best
    #: mean wins, however narrowly; ``None``: the family's own, ``game.search_keep_policy``).
    keep_policy: float | None = None
    #: Where the variant has a learned network (:mod:`parlour.bots.learned`), its best moves
    #: lead the candidates and its choice is the one ``keep_policy`` keeps.
    guided: bool = False
    #: The variants where the network also plays every seat of every world, each with its
    #: rollouts a move; elsewhere ``greedy`` plays them out, at ``iterations``.
    played_out: Mapping[str, int] = field(default_factory=dict)
    #: The variants where the other seats are modelled by their kind (:class:`Opponents`),
    #: each with its model; only where the network plays the worlds out.
    opponents: Mapping[str, Opponents] = field(default_factory=dict)

    def bot(self, interactive: bool = False) -> SearchBot:
        bot = SearchBot(iterations=self.iterations,
                        time_limit=self.time_limit if interactive else None,
                        max_candidates=self.candidates, keep_policy=self.keep_policy,
                        guide=prior if self.guided else None,
                        playouts=partial(playouts, variants=self.played_out)
                        if self.played_out else None,
                        guided_iterations=self.played_out or None, prior_weight=0.0,
                        guided_candidates=GUIDED_CANDIDATES, opponents=self.opponents or None)
        bot.name = self.name
        return bot


#: The variants where ``expert`` models the other seats by their kind, the rule-based player or
#: the network, and chooses its worlds by the moves of those it takes for rule-based (16 draws a
#: world); where that measured stronger (the documentation's "Tuning the levels").
EXPERT_OPPONENTS: Mapping[str, Opponents] = MappingProxyType(
    {"big-two-4card": Opponents(draws=16)})

LEVELS = (
    Level("medium", iterations=48, time_limit=0.2, candidates=4),
    Level("hard", iterations=360, time_limit=0.5, candidates=8, guided=True,
          played_out=HARD_PLAYED_OUT),
    Level("expert", iterations=18_000, time_limit=1.0, candidates=8, guided=True,
          played_out=PLAYED_OUT, opponents=EXPERT_OPPONENTS),
)


def register_levels() -> None:
    """Register ``easy`` … ``expert`` as bot names."""
    register_bot("easy", EasyBot)
    for level in LEVELS:
        register_bot(level.name, level.bot, interactive=partial(level.bot, interactive=True))


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
        bot = level.bot()
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
