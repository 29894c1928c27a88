"""The environments' figures for ``parlour bench``: AEC steps/s with random masked actions
(next to the engine's raw random play) and the batched environment's agent steps/s with 1,024
deals per call, each row's random legal action drawn from ``legal``/``offsets``
(:func:`~parlour.envs.batched.sample_legal`; the mask is never made).

Measured like the engine's figures: one process, ``seconds`` per figure, through the public
API an agent uses (``env.last()`` observes every step, as a learner must).
"""

from __future__ import annotations

import random
from collections.abc import Iterator

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
    one = batched_steps(game, seconds, batch)
    yield (f"  batched env:    {one:10,.0f} agent steps/s "
           f"({batch} deals per call, random legal actions)")
    if threads > 1:
        many = batched_steps(game, seconds, batch, threads)
        yield (f"  batched env, {threads} threads: {many:10,.0f} agent steps/s "
               f"({many / one:.2f}× one thread)")


def batched_steps(game: Game, seconds: float, batch: int = BATCH, threads: int = 1) -> float:
    """Agent steps per second of the batched environment with ``batch`` deals stepped on
    ``threads`` threads and a uniformly random legal action in each."""
    from parlour.envs.batched import BatchedEnv, sample_legal
    from parlour.timing import timed

    env = BatchedEnv(game, batch, seed=0, threads=threads)
    rng = np.random.default_rng(0)
    current = [env.reset()]

    def one(_: int) -> int:
        current[0] = env.step(sample_legal(current[0], rng))
        return batch

    _, steps, elapsed = timed(seconds, one)
    return steps / elapsed
