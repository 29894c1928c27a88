"""One deal of an arena run: who sits where, where every seed comes from, and a worker's task.

Deal ``i`` of a run is shuffled from a seed derived from the master seed and ``i`` alone, and the
bot in seat ``s`` draws from a generator derived from the master seed, ``i`` and ``s`` alone, so
a play depends on nothing else. A :class:`Task` carries a worker's deals as plain data; the
local processes (:mod:`parlour.arena.core`) and Ray (:mod:`parlour.arena.ray_backend`) both play
it with :func:`played`.
"""

from __future__ import annotations

import hashlib
import itertools
import random
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parlour.bots import Bot, make_bot
from parlour.game import Action, Game, Observation, State
from parlour.play import Player, play_out
from parlour.records import deal_record, save
from parlour.registry import game_from_description


@dataclass(frozen=True)
class Entry:
    """One contestant: a registered bot under a label that is unique within the run
    (``greedy``, or ``greedy#2`` for the second ``greedy`` of an A/A comparison)."""

    label: str
    bot: str


def make_entries(names: Sequence[str]) -> tuple[Entry, ...]:
    """The contestants for a list of bot names; a repeated name gets a numbered label.

    >>> [e.label for e in make_entries(["greedy", "random", "greedy"])]
    ['greedy', 'random', 'greedy#2']
    """
    seen: dict[str, int] = {}
    out = []
    for name in names:
        make_bot(name)  # refuses an unknown name now, listing the known ones
        seen[name] = seen.get(name, 0) + 1
        out.append(Entry(name if seen[name] == 1 else f"{name}#{seen[name]}", name))
    return tuple(out)


def all_seatings(entries: int, players: int) -> list[tuple[int, ...]]:
    """Duplicate mode's seatings: every assignment of entries to seats in which each entry sits
    at least once, in lexicographic order (entry index per seat).

    For two bots in four seats that is the 1-vs-3 and 3-vs-1 seatings in every rotation and
    every 2-vs-2 seating: 14 in all.

    >>> all_seatings(2, 2)
    [(0, 1), (1, 0)]
    >>> len(all_seatings(2, 4)), len(all_seatings(3, 4)), len(all_seatings(4, 4))
    (14, 36, 24)
    """
    return [s for s in itertools.product(range(entries), repeat=players) if len(set(s)) == entries]


def rotated_seating(entries: int, players: int, deal: int) -> tuple[int, ...]:
    """The seating of deal ``deal`` without duplicate mode: seat ``s`` gets entry
    ``(deal + s) % entries``, so the list is rotated one seat per deal.

    >>> [rotated_seating(3, 4, d) for d in range(3)]
    [(0, 1, 2, 0), (1, 2, 0, 1), (2, 0, 1, 2)]
    """
    return tuple((deal + s) % entries for s in range(players))


def deal_seatings(entries: int, players: int, duplicate: bool, deal: int) -> list[tuple[int, ...]]:
    """The seatings deal ``deal`` of a run is played in, in order: every one in duplicate mode,
    else the deal's rotation.

    >>> deal_seatings(2, 2, True, 5), deal_seatings(2, 2, False, 5)
    ([(0, 1), (1, 0)], [(1, 0)])
    """
    return all_seatings(entries, players) if duplicate else [rotated_seating(entries, players, deal)]


def derive_seed(master: int, *path: int | str) -> int:
    """A 63-bit seed that depends on ``master`` and ``path`` only (the same in every process
    and on every machine, unlike ``hash``).

    >>> derive_seed(1, "deal", 0) == derive_seed(1, "deal", 0) != derive_seed(1, "deal", 1)
    True
    """
    digest = hashlib.blake2b(repr((master, *path)).encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1


@dataclass(frozen=True)
class Play:
    """One deal played in one seating: entry index per seat, each seat's return, the winners."""

    deal: int
    seating: tuple[int, ...]
    returns: tuple[float, ...]
    winners: tuple[int, ...]


#: Choices made in one deal: the bot's name, its observation, the legal actions and its
#: generator's state before the choice, to the action and the generator's state after it.
Choices = dict[tuple[str, Observation, tuple[Action, ...], tuple[Any, ...]],
               tuple[Action, tuple[Any, ...]]]


class Reusing(Bot):
    """``bot`` (registered as ``name``), reusing its own choices from ``choices``.

    The seatings of a duplicate deal often bring a seat to the same position: every seating
    that puts ``expert`` in the seat to move first starts it from the same observation, and so
    do those in which the seats before it have played alike so far. A reusable bot
    (:attr:`Bot.reusable`) given the same observation, legal actions and generator state makes
    the same choice and leaves its generator in the same state, so both are taken from the
    first time instead of searching again. Nothing about the play changes, and the arena's
    searching levels run faster (how much: the documentation's Experiments, "Making it
    faster").
    """

    def __init__(self, bot: Bot, name: str, choices: Choices) -> None:
        self.bot, self.name, self.choices = bot, name, choices

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        key = (self.name, observation, tuple(legal_actions), rng.getstate())
        known = self.choices.get(key)
        if known is None:
            action = self.bot.choose(observation, legal_actions, rng)
            self.choices[key] = (action, rng.getstate())
            return action
        action, after = known
        rng.setstate(after)
        return action


def play_deal(game: Game, bots: Sequence[str | Player], seed: int, deal: int,
              choices: Choices | None = None) -> State:
    """Deal ``deal`` of a run with master ``seed``, played to its end by ``bots`` (a registered
    bot name, or a bot, per seat). Bots see only their observation and the legal actions.

    The generator of each seat depends on the seat, not on who sits there, so in duplicate mode
    identical bots make identical choices in every seating and the luck of the draw cancels.
    ``choices``, shared by the seatings of one deal, lets the bots named here that are
    :attr:`~parlour.bots.Bot.reusable` reuse a choice instead of making it again
    (:class:`Reusing`); the play is the same with it or without.
    """
    state = game.new_deal(seed=derive_seed(seed, "deal", deal))

    def player(b: str | Player) -> Player:
        if not isinstance(b, str):
            return b
        bot = make_bot(b)
        return Reusing(bot, b, choices) if choices is not None and bot.reusable else bot

    players = [player(b) for b in bots]
    rngs = [random.Random(derive_seed(seed, "bot", deal, seat)) for seat in range(len(bots))]
    return play_out(state, players, rngs)


def record_name(deal: int, labels: Sequence[str]) -> str:
    """The file a deal's record is saved in: the deal index and the labels seat by seat.

    >>> record_name(7, ["greedy", "random"])
    'deal-000007-greedy_random.json'
    """
    return f"deal-{deal:06d}-{'_'.join(labels)}.json"


@dataclass(frozen=True)
class Task:
    """The deals one worker plays: everything as plain data, so it pickles under ``spawn``."""

    game: dict[str, Any]
    entries: tuple[Entry, ...]
    seed: int
    duplicate: bool
    deals: tuple[int, ...]
    record_dir: str | None


def played(task: Task) -> Iterator[tuple[Play, State]]:
    """A task's plays in order (deal, then seating), each with its finished state."""
    game = game_from_description(task.game)
    k, n = len(task.entries), game.players
    for deal in task.deals:
        choices: Choices | None = {} if task.duplicate else None  # shared by the deal's seatings
        for seating in deal_seatings(k, n, task.duplicate, deal):
            state = play_deal(game, [task.entries[e].bot for e in seating], task.seed, deal,
                              choices)
            yield Play(deal, seating, tuple(state.returns()), tuple(state.winners())), state


def record_path(task: Task, play: Play) -> Path:
    """Where a play of ``task`` is recorded (``task.record_dir`` is set)."""
    assert task.record_dir is not None
    return Path(task.record_dir) / record_name(play.deal, [task.entries[e].label for e in play.seating])


def play_task(task: Task) -> list[Play]:
    """Play a task's deals (in a worker process, or in this one when there is one worker)."""
    plays = []
    for play, state in played(task):
        if task.record_dir is not None:
            save(deal_record(state), record_path(task, play))
        plays.append(play)
    return plays


