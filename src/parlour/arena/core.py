"""Running the arena: the contestants, the deals cut into tasks, and the parallel runner.

A run plays ``deals`` deals. Deal ``i`` is shuffled from a seed derived from the master seed and
``i`` alone, and the bot in seat ``s`` draws its random choices from a generator derived from the
master seed, ``i`` and ``s`` alone (:mod:`parlour.arena.deals`). So a run's results depend on
nothing else: not on how many processes play it, nor in which order they finish.

>>> import parlour
>>> result = run_arena(parlour.new_game("big-two-4card"), ["greedy", "random"], 3, seed=1)
>>> [(p.deal, [result.entries[e].label for e in p.seating]) for p in result.plays]
[(0, ['greedy', 'random', 'greedy', 'random']), (1, ['random', 'greedy', 'random', 'greedy']), (2, ['greedy', 'random', 'greedy', 'random'])]
>>> sum(result.plays[0].returns)                     # big two's scores are zero-sum
0.0
"""

from __future__ import annotations

import math
import multiprocessing
import os
import threading
import time
from collections.abc import Callable, Sequence
from concurrent.futures import Future, ProcessPoolExecutor, as_completed
from dataclasses import dataclass
from pathlib import Path

from parlour.arena.deals import (
    Entry,
    Play,
    Task,
    derive_seed,
    make_entries,
    play_task,
)
from parlour.arena.journal import Journal
from parlour.errors import ParlourError, RecordError
from parlour.game import Game

#: Where the deals are played: ``local`` processes, or tasks on a Ray cluster.
BACKENDS = ("local", "ray")

#: The most deals one task carries to a worker process: small enough for a smooth progress bar
#: and even load, large enough that sending the task costs little next to playing it.
MAX_CHUNK = 64
#: The same with a journal, which keeps whole tasks: what an interruption can lose is a task.
JOURNAL_CHUNK = 4


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


@dataclass(frozen=True)
class ArenaResult:
    """Every play of a run, sorted by deal index (then seating, in duplicate mode)."""

    game: Game
    entries: tuple[Entry, ...]
    seed: int
    deals: int
    duplicate: bool
    plays: tuple[Play, ...]
    #: How many of the deals were read from a journal rather than played by this run.
    resumed: int = 0

    def deal_seed(self, deal: int) -> int:
        """The seed ``game.new_deal(seed=…)`` shuffled deal ``deal`` from."""
        return derive_seed(self.seed, "deal", deal)


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
    journal: str | Path | None = None,
) -> ArenaResult:
    """Play ``deals`` deals of ``game`` between ``bots`` (registered names, two or more).

    Without ``duplicate`` the bot list is rotated one seat per deal (:func:`~parlour.arena.deals.rotated_seating`);
    with it every deal is replayed in every seating (:func:`~parlour.arena.deals.all_seatings`). ``workers`` > 1
    plays in that many ``spawn``-started processes (so a script that calls this must do so
    under ``if __name__ == "__main__":``); the result is the same for any number.
    ``record_dir`` saves every play as a deal record; ``progress(n)`` is called as ``n`` more
    deals are done. ``backend="ray"`` plays the same tasks as Ray tasks instead of local
    processes (:mod:`parlour.arena.ray_backend`), with the same result. ``journal`` keeps each
    finished deal in that file and plays only the deals it lacks (:mod:`parlour.arena.journal`):
    an interrupted run started again with it, or extended to more deals, gives the result of one
    uninterrupted run.
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
    kept = None if journal is None else Journal.open(journal, game, entries, seed, duplicate)
    plays: list[Play] = []
    todo = list(range(deals))
    if kept is not None:
        plays = [p for deal in range(deals) for p in kept.plays.get(deal, [])]
        todo = [deal for deal in todo if deal not in kept.plays]
        if kept.plays and todo:
            # Before adding to the file: the code now must play its first deal as it says.
            first = min(kept.plays)
            kept.check(play_task(Task(game.describe(), entries, seed, duplicate, (first,), None)),
                       [e.label for e in entries])
        if progress and len(todo) < deals:
            progress(deals - len(todo))
    most = MAX_CHUNK if kept is None else JOURNAL_CHUNK
    size = max(1, min(most, math.ceil(len(todo) / (workers * 8))))
    tasks = [
        Task(game.describe(), entries, seed, duplicate, tuple(todo[start:start + size]),
             None if record_dir is None else str(record_dir))
        for start in range(0, len(todo), size)
    ]

    def finished(task: Task, task_plays: list[Play]) -> None:
        if kept is not None:
            kept.add(task_plays)
        plays.extend(task_plays)
        if progress:
            progress(len(task.deals))

    if backend == "ray" and tasks:
        from parlour.arena.ray_backend import play_on_ray

        play_on_ray(tasks, workers, finished)
    elif workers == 1 or len(tasks) <= 1:
        for task in tasks:
            finished(task, play_task(task))
    else:
        _play_in_processes(tasks, min(workers, len(tasks)), finished)
    # Stable sort: the plays of one deal come from one task, already in seating order.
    plays.sort(key=lambda p: p.deal)
    return ArenaResult(game, entries, seed, deals, duplicate, tuple(plays), deals - len(todo))


#: Called with each task and its plays as the task ends.
Finished = Callable[[Task, list[Play]], None]


def _play_in_processes(tasks: list[Task], workers: int, finished: Finished) -> None:
    # ``spawn`` everywhere: the same behaviour on every platform, and no forked copy of a
    # parent's threads or open database connections.
    pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_exit_with_parent, initargs=(os.getpid(),))
    try:
        futures: dict[Future[list[Play]], Task] = {
            pool.submit(play_task, task): task for task in tasks
        }
        for future in as_completed(futures):
            finished(futures[future], future.result())
    finally:
        # On an error or Ctrl-C, drop the tasks not started rather than wait for all of them.
        pool.shutdown(wait=True, cancel_futures=True)


#: How often a worker looks whether the process that started it is still there, in seconds.
PARENT_WATCH = 0.5


def _exit_with_parent(parent: int) -> None:
    """A worker's start: a thread that ends the worker once ``parent``, the process that
    started it, is gone. A run killed outright (``kill``, a lost terminal) gets no chance to
    shut its pool down, and its workers would otherwise play their tasks to the end, orphaned;
    the thread runs while the compiled search holds no lock, so it is heard within a moment."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(PARENT_WATCH)
        os._exit(1)

    threading.Thread(target=watch, name="parlour-parent-watch", daemon=True).start()


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
