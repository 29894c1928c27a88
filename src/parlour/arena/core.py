"""Playing the arena's deals: who sits where, where every seed comes from, and the parallel runner.

A run plays ``deals`` deals. Deal ``i`` is shuffled from a seed derived from the master seed and
``i`` alone, and the bot in seat ``s`` draws its random choices from a generator derived from the
master seed, ``i`` and ``s`` alone. So a run's results depend on nothing else: not on how many
processes play it, nor in which order they finish.

>>> import parlour
>>> result = run_arena(parlour.new_game("big-two-4card"), ["greedy", "random"], 3, seed=1)
>>> [(p.deal, [result.entries[e].label for e in p.seating]) for p in result.plays]
[(0, ['greedy', 'random', 'greedy', 'random']), (1, ['random', 'greedy', 'random', 'greedy']), (2, ['greedy', 'random', 'greedy', 'random'])]
>>> sum(result.plays[0].returns)                     # big two's scores are zero-sum
0.0
"""

from __future__ import annotations

import hashlib
import itertools
import math
import multiprocessing
import random
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from parlour.bots import make_bot
from parlour.errors import ParlourError, RecordError
from parlour.game import Game, State
from parlour.records import deal_record, save
from parlour.registry import game_from_description

#: Where the deals are played: ``local`` processes, or tasks on a Ray cluster.
BACKENDS = ("local", "ray")

#: The most deals one task carries to a worker process: small enough for a smooth progress bar
#: and even load, large enough that sending the task costs little next to playing it.
MAX_CHUNK = 64


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


def lineup(game: Game, bots: Sequence[str], duplicate: bool) -> tuple[Entry, ...]:
    """The contestants of a run of ``game`` between ``bots``, or a :class:`ParlourError` saying
    why there can be no such run (an unknown bot, fewer than two, too many for duplicate mode).
    """
    entries = make_entries(bots)
    if len(entries) < 2:
        raise ParlourError("the arena compares bots: name at least two (e.g. greedy,random)")
    if duplicate and len(entries) > game.players:
        raise ParlourError(
            f"duplicate mode seats every bot in each deal: {game.name} has {game.players} seats "
            f"for {len(entries)} bots"
        )
    return entries


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


@dataclass(frozen=True)
class ArenaResult:
    """Every play of a run, sorted by deal index (then seating, in duplicate mode)."""

    game: Game
    entries: tuple[Entry, ...]
    seed: int
    deals: int
    duplicate: bool
    plays: tuple[Play, ...]

    def deal_seed(self, deal: int) -> int:
        """The seed ``game.new_deal(seed=…)`` shuffled deal ``deal`` from."""
        return derive_seed(self.seed, "deal", deal)


def play_deal(game: Game, bots: Sequence[str], seed: int, deal: int) -> State:
    """Deal ``deal`` of a run with master ``seed``, played to its end by ``bots`` (a registered
    bot name per seat). Bots see only their observation and the legal actions.

    The generator of each seat depends on the seat, not on who sits there, so in duplicate mode
    identical bots make identical choices in every seating and the luck of the draw cancels.
    """
    state = game.new_deal(seed=derive_seed(seed, "deal", deal))
    players = [make_bot(name) for name in bots]
    rngs = [random.Random(derive_seed(seed, "bot", deal, seat)) for seat in range(len(bots))]
    while not state.is_over:
        seat = state.current_player
        state.apply(players[seat].choose(state.observation(seat), state.legal_actions(), rngs[seat]))
    return state


def record_name(deal: int, labels: Sequence[str]) -> str:
    """The file a deal's record is saved in: the deal index and the labels seat by seat.

    >>> record_name(7, ["greedy", "random"])
    'deal-000007-greedy_random.json'
    """
    return f"deal-{deal:06d}-{'_'.join(labels)}.json"


@dataclass(frozen=True)
class _Task:
    """The deals one worker plays: everything as plain data, so it pickles under ``spawn``."""

    game: dict[str, Any]
    entries: tuple[Entry, ...]
    seed: int
    duplicate: bool
    deals: tuple[int, ...]
    record_dir: str | None


def _played(task: _Task) -> Iterator[tuple[Play, State]]:
    """A task's plays in order (deal, then seating), each with its finished state."""
    game = game_from_description(task.game)
    k, n = len(task.entries), game.players
    every = all_seatings(k, n) if task.duplicate else []
    for deal in task.deals:
        for seating in every or [rotated_seating(k, n, deal)]:
            state = play_deal(game, [task.entries[e].bot for e in seating], task.seed, deal)
            yield Play(deal, seating, tuple(state.returns()), tuple(state.winners())), state


def _record_path(task: _Task, play: Play) -> Path:
    """Where a play of ``task`` is recorded (``task.record_dir`` is set)."""
    assert task.record_dir is not None
    return Path(task.record_dir) / record_name(play.deal, [task.entries[e].label for e in play.seating])


def _play_task(task: _Task) -> list[Play]:
    """Play a task's deals (in a worker process, or in this one when there is one worker)."""
    plays = []
    for play, state in _played(task):
        if task.record_dir is not None:
            save(deal_record(state), _record_path(task, play))
        plays.append(play)
    return plays


def run_arena(
    game: Game,
    bots: Sequence[str],
    deals: int,
    *,
    seed: int,
    duplicate: bool = False,
    workers: int = 1,
    record_dir: str | Path | None = None,
    progress: Callable[[int], None] | None = None,
    backend: str = "local",
) -> ArenaResult:
    """Play ``deals`` deals of ``game`` between ``bots`` (registered names, two or more).

    Without ``duplicate`` the bot list is rotated one seat per deal (:func:`rotated_seating`);
    with it every deal is replayed in every seating (:func:`all_seatings`). ``workers`` > 1
    plays in that many ``spawn``-started processes (so a script that calls this must do so
    under ``if __name__ == "__main__":``); the result is the same for any number.
    ``record_dir`` saves every play as a deal record; ``progress(n)`` is called as ``n`` more
    deals are done. ``backend="ray"`` plays the same tasks as Ray tasks instead of local
    processes (:mod:`parlour.arena.ray_backend`), with the same result.
    """
    if backend not in BACKENDS:
        raise ParlourError(f"unknown backend {backend!r}; the backends are: {', '.join(BACKENDS)}")
    if deals < 1:
        raise ParlourError(f"the number of deals must be at least 1, not {deals}")
    if workers < 1:
        raise ParlourError(f"the number of workers must be at least 1, not {workers}")
    entries = lineup(game, bots, duplicate)
    if record_dir is not None:
        record_dir = record_directory(record_dir)
    size = max(1, min(MAX_CHUNK, math.ceil(deals / (workers * 8))))
    tasks = [
        _Task(game.describe(), entries, seed, duplicate, tuple(range(start, min(deals, start + size))),
              None if record_dir is None else str(record_dir))
        for start in range(0, deals, size)
    ]
    plays: list[Play] = []
    if backend == "ray":
        from parlour.arena.ray_backend import play_on_ray

        plays = play_on_ray(tasks, workers, progress)
    elif workers == 1 or len(tasks) == 1:
        for task in tasks:
            plays.extend(_play_task(task))
            if progress:
                progress(len(task.deals))
    else:
        plays = _play_in_processes(tasks, min(workers, len(tasks)), progress)
    # Stable sort: the plays of one deal come from one task, already in seating order.
    plays.sort(key=lambda p: p.deal)
    return ArenaResult(game, entries, seed, deals, duplicate, tuple(plays))


def _play_in_processes(
    tasks: list[_Task], workers: int, progress: Callable[[int], None] | None
) -> list[Play]:
    # ``spawn`` everywhere: the same behaviour on every platform, and no forked copy of a
    # parent's threads or open database connections.
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"))
    plays: list[Play] = []
    try:
        futures: dict[Future[list[Play]], int] = {
            pool.submit(_play_task, task): len(task.deals) for task in tasks
        }
        for future in as_completed(futures):
            plays.extend(future.result())
            if progress:
                progress(futures[future])
    finally:
        # On an error or Ctrl-C, drop the tasks not started rather than wait for all of them.
        pool.shutdown(wait=True, cancel_futures=True)
    return plays


def record_directory(directory: str | Path) -> Path:
    """``directory``, created if need be, as a place for deal records; otherwise
    :class:`RecordError` saying why not."""
    path = Path(directory)
    try:
        path.mkdir(parents=True, exist_ok=True)
    except FileExistsError:
        raise RecordError(f"cannot save records in {path}: it is a file, not a directory") from None
    except OSError as e:
        raise RecordError(f"cannot save records in {path}: {e.strerror or e}") from None
    return path
