"""The environments' figures for ``parlour bench``: AEC steps/s with random masked actions
(next to the engine's raw random play) and the batched environment's agent steps/s with 1,024
deals per call, each row's random legal action drawn from ``legal``/``offsets``
(:func:`~parlour.envs.batched.sample_legal`; the mask is never made).

Measured like the engine's figures: one process, ``seconds`` per figure, through the public
API an agent uses (``env.last()`` observes every step, as a learner must).
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from typing import NamedTuple

import numpy as np

from parlour.game import Game


class AECRunner:
    """Steps an AEC environment with uniformly random legal actions, deal after deal."""

    def __init__(self, env: object, seed: int = 0) -> None:
        from parlour.envs.aec import ParlourAECEnv

        assert isinstance(env, ParlourAECEnv)
        self.env = env
        self.rng = random.Random(seed)
        self.deals = 0
        env.reset(seed=seed)

    def run(self, steps: int) -> int:
        """Take ``steps`` agent actions (observing each step, as a learner must); how many."""
        env, rng = self.env, self.rng
        taken = 0
        while taken < steps:
            obs, _, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                if not env.agents:
                    self.deals += 1
                    env.reset()
                continue
            # A bool view: nonzero() scans bools about ten times faster than int8.
            legal = np.flatnonzero(obs["action_mask"].view(np.bool_))
            env.step(int(legal[int(rng.random() * len(legal))]))
            taken += 1
        return taken


#: Deals per call of the batched environment's figure.
BATCH = 1024


def env_bench_lines(game: Game, seconds: float, raw_steps: float,
                    batch: int = BATCH, threads: int = 1) -> Iterator[str]:
    """Lines for ``parlour bench``; ``raw_steps`` is the engine's random-play steps/s; the
    batched environment also on ``threads`` threads when more than one."""
    from parlour.timing import timed

    try:
        from parlour.envs.aec import ParlourAECEnv
    except ImportError:
        yield "  AEC env:        needs gymnasium and pettingzoo (pip install 'parlour[rl]')"
    else:
        runner = AECRunner(ParlourAECEnv(game))
        # Steps in small slices: a budget check between whole Rummy deals would overshoot.
        _, steps, elapsed = timed(seconds, lambda i: runner.run(32))
        yield (f"  AEC env:        {runner.deals / elapsed:10,.0f} deals/s  {steps / elapsed:12,.0f} "
               f"steps/s  {steps / elapsed / raw_steps:6.0%} of random play")
    rates = batched_rates(game, seconds, batch, (1, threads) if threads > 1 else (1,))
    one = rates[0]
    yield (f"  batched env:    {one.loop:10,.0f} agent steps/s "
           f"({batch} deals per call, random legal actions)")
    if threads > 1:
        many = rates[1]
        yield (f"  batched env, {threads} threads: {many.loop:10,.0f} agent steps/s "
               f"({many.loop / one.loop:.2f}× one thread; the steps alone "
               f"{many.step / one.step:.2f}×)")


#: Rounds the batched figures are taken in, the thread counts taking turns.
ROUNDS = 8


class Rates(NamedTuple):
    """Agent steps per second of the batched environment: of the whole loop (the step and the
    choice of a random legal action in each row, as a learner's loop), and of the steps alone
    (the time in ``env.step``: the environment's own throughput)."""

    loop: float
    step: float


def batched_rates(game: Game, seconds: float, batch: int = BATCH,
                  threads: tuple[int, ...] = (1,)) -> list[Rates]:
    """The batched environment's :class:`Rates` on each number of ``threads`` (``seconds`` for
    each): measured in :data:`ROUNDS` short rounds that take turns, each figure the median of
    its rounds, so that a burst of other work on the machine lands in a round or two of each
    rather than in one figure."""
    from parlour.envs.batched import BatchedEnv, sample_legal
    from parlour.timing import timed

    rng = np.random.default_rng(0)
    envs = [BatchedEnv(game, batch, seed=0, threads=t) for t in threads]
    current = [env.reset() for env in envs]
    loops: list[list[float]] = [[] for _ in threads]
    alone: list[list[float]] = [[] for _ in threads]
    for _ in range(ROUNDS):
        for k, env in enumerate(envs):
            stepping = [0.0]

            def one(_: int, env: BatchedEnv = env, k: int = k,
                    stepping: list[float] = stepping) -> int:
                actions = sample_legal(current[k], rng)
                start = time.perf_counter()
                current[k] = env.step(actions)
                stepping[0] += time.perf_counter() - start
                return batch

            _, steps, elapsed = timed(seconds / ROUNDS, one)
            loops[k].append(steps / elapsed)
            alone[k].append(steps / stepping[0])
    return [Rates(float(np.median(a)), float(np.median(b))) for a, b in zip(loops, alone, strict=True)]
