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
    if threads > 1:
        one, many = batched_rates(game, seconds, batch, (1, threads))
    else:
        (one,) = batched_rates(game, seconds, batch, (1,))
    yield (f"  batched env:    {one:10,.0f} agent steps/s "
           f"({batch} deals per call, random legal actions)")
    if threads > 1:
        yield (f"  batched env, {threads} threads: {many:10,.0f} agent steps/s "
               f"({many / one:.2f}× one thread)")


#: Rounds the batched figures are taken in, the thread counts taking turns.
ROUNDS = 8


def batched_rates(game: Game, seconds: float, batch: int = BATCH,
                  threads: tuple[int, ...] = (1,)) -> list[float]:
    """The batched environment's agent steps/s on each number of ``threads`` (``seconds`` for
    each): measured in :data:`ROUNDS` short rounds that take turns, each figure the median of
    its rounds, so that a burst of other work on the machine lands in a round or two of each
    rather than in one figure."""
    from parlour.envs.batched import BatchedEnv, sample_legal
    from parlour.timing import timed

    rng = np.random.default_rng(0)
    envs = [BatchedEnv(game, batch, seed=0, threads=t) for t in threads]
    current = [env.reset() for env in envs]
    rounds: list[list[float]] = [[] for _ in threads]
    for _ in range(ROUNDS):
        for k, env in enumerate(envs):
            def one(_: int, env: BatchedEnv = env, k: int = k) -> int:
                current[k] = env.step(sample_legal(current[k], rng))
                return batch

            _, steps, elapsed = timed(seconds / ROUNDS, one)
            rounds[k].append(steps / elapsed)
    return [float(np.median(r)) for r in rounds]
