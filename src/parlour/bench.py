"""``parlour bench``: engine speed measured through the public protocol.

Random play calls ``legal_actions()`` at every step (as an RL environment must) and applies a
uniformly random choice; greedy play adds an observation per step. Both run in this process, so
on one core. The RL environments' figures (:mod:`parlour.envs.speed`) follow, the batched
environment's also on every core this process may use. The first line names the machine.
"""

from __future__ import annotations

import os
import platform
import random
from collections.abc import Iterator

from parlour.bots import make_bot
from parlour.bots.levels import bench_lines as search_bench_lines
from parlour.game import Game
from parlour.play import play_out
from parlour.timing import timed


def random_play(game: Game, seed: int) -> int:
    """One deal of uniformly random play; the number of actions taken."""
    rng = random.Random(seed)
    state = game.new_deal(seed=seed)
    steps = 0
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
        steps += 1
    return steps


def bot_play(game: Game, bot_name: str, seed: int) -> int:
    bots = [make_bot(bot_name) for _ in range(game.players)]
    return len(play_out(game.new_deal(seed=seed), bots, random.Random(seed)).history)


def machine() -> str:
    """The machine the figures are taken on: its processor and the cores this process may use.

    >>> machine().startswith("machine: ")
    True
    """
    model = platform.processor() or platform.machine()
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            model = next((line.split(":", 1)[1].strip() for line in info
                          if line.startswith("model name")), model)
    except OSError:  # not Linux: what the platform module says
        pass
    return f"machine: {model}, {cores()} cores for this process"


def cores() -> int:
    """The cores this process may run on."""
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not Linux
        return os.cpu_count() or 1


def run_bench(game: Game, seconds: float = 3.0) -> Iterator[str]:
    """Lines of figures for one game."""
    yield f"{game.name} ({game.players} players)"
    deals, steps, elapsed = timed(seconds, lambda i: random_play(game, i))
    yield f"  random play:    {deals / elapsed:10,.0f} deals/s  {steps / elapsed:12,.0f} steps/s" \
          f"  {steps / deals:6.1f} actions/deal"
    raw_steps = steps / elapsed
    deals, steps, elapsed = timed(seconds, lambda i: bot_play(game, "greedy", i))
    yield f"  greedy play:    {deals / elapsed:10,.0f} deals/s  {steps / elapsed:12,.0f} steps/s"
    for label, value in game.bench_extra(seconds).items():
        yield f"  {label}: {value}"
    yield from (f"  {line}" for line in search_bench_lines(game, seconds))
    from parlour.envs.speed import env_bench_lines  # numpy, only for a benchmark

    yield from env_bench_lines(game, seconds, raw_steps, threads=cores())
