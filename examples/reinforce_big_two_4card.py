"""Learn to play big-two-4card against three random players, in plain numpy (REINFORCE).

    python examples/reinforce_big_two_4card.py [--deals 4000] [--eval 2000] [--seed 1]

The agent sits in seat 0 of ``parlour.envs.single_agent_env`` with ``random`` in the other
seats and normalised rewards (the deal's return / 39, once, when the deal ends). Its policy is
a softmax over the legal actions only (``info["action_mask"]``) with bilinear logits

    logit(a) = F[a] · (W x)

where ``x`` is the observation encoding (``parlour.envs.encoder``) and ``F[a]`` a few features
of action ``a`` computed once for the whole action index: pass or not, size, category, its
lowest and highest card's place in the game's order, how many 2s it spends. ``W`` starts at 0,
so the untrained agent plays uniformly at random like its opponents; REINFORCE with a running
baseline moves it. Then it is evaluated greedily on fresh deals: its mean score with a 95%
confidence interval. A random player in its seat scores 0 on average (three identical random
opponents, zero-sum scoring), so a confidence interval above 0 means it beats random.
"""

from __future__ import annotations

import argparse
import math
import time

import numpy as np

from parlour.envs import single_agent_env
from parlour.envs.single import ParlourSingleAgentEnv
from parlour.games.climbing import Category, ClimbingAction, ClimbingGame

VARIANT = "big-two-4card"


def action_features(env: ParlourSingleAgentEnv) -> np.ndarray:
    """One row of features per action index (pass, size, category, card places, 2s)."""
    index = env.action_index
    game = env.game
    assert isinstance(game, ClimbingGame)
    place = {card: k / 51 for k, card in enumerate(game.card_order())}
    kinds = [cat for cats in game.table.categories.values() for cat in cats]
    rows = []
    for i in range(index.size):
        a = index.action(i)
        assert isinstance(a, ClimbingAction)
        row = np.zeros(3 + 5 + len(kinds) + 3, dtype=np.float32)
        row[0] = 1.0
        if a.category is Category.PASS:
            row[1] = 1.0
        else:
            cards = a.cards
            row[2] = len(cards) / 5
            row[3 + len(cards) - 1] = 1.0
            row[8 + kinds.index(a.category)] = 1.0
            row[-3] = place[int(cards[0])]
            row[-2] = place[int(cards[-1])]
            row[-1] = sum(1 for c in cards if str(c).startswith("2")) / 4
        rows.append(row)
    return np.stack(rows)


class Policy:
    """Softmax over the legal actions with logits ``F[a] · (W x)``."""

    def __init__(self, features: np.ndarray, obs_size: int) -> None:
        self.F = features
        self.W = np.zeros((features.shape[1], obs_size + 1), dtype=np.float64)

    def probs(self, x: np.ndarray, legal: np.ndarray) -> np.ndarray:
        logits = self.F[legal] @ (self.W @ np.append(x, 1.0))
        logits -= logits.max()
        p: np.ndarray = np.exp(logits)
        p /= p.sum()
        return p

    def grad_log(self, x: np.ndarray, legal: np.ndarray, p: np.ndarray, k: int) -> np.ndarray:
        """d log p[k] / dW."""
        f = self.F[legal]
        grad: np.ndarray = np.outer(f[k] - p @ f, np.append(x, 1.0))
        return grad


def play(env: ParlourSingleAgentEnv, policy: Policy, rng: np.random.Generator, seed: int,
         greedy: bool = False) -> tuple[float, list[np.ndarray]]:
    """One deal; the agent's reward and its steps' log-probability gradients."""
    x, info = env.reset(seed=seed)
    grads = []
    while True:
        legal = np.flatnonzero(info["action_mask"].view(np.bool_))
        p = policy.probs(x, legal)
        k = int(p.argmax()) if greedy else int(rng.choice(len(legal), p=p))
        if not greedy and len(legal) > 1:
            grads.append(policy.grad_log(x, legal, p, k))
        x, reward, done, _, info = env.step(int(legal[k]))
        if done:
            return float(reward), grads


def train(deals: int, seed: int = 1, lr: float = 0.05, log_every: int = 0) -> Policy:
    """REINFORCE for ``deals`` deals against three random players."""
    env = single_agent_env(VARIANT, opponents="random", seat=0, rewards="normalised")
    policy = Policy(action_features(env), env.encoder.size)
    rng = np.random.default_rng(seed)
    baseline = 0.0
    recent: list[float] = []
    for deal in range(deals):
        reward, grads = play(env, policy, rng, seed=seed * 1_000_003 + deal)
        advantage = reward - baseline
        baseline += 0.02 * (reward - baseline)
        for g in grads:
            policy.W += lr * advantage * g
        recent.append(reward)
        if log_every and (deal + 1) % log_every == 0:
            print(f"deal {deal + 1:6d}: mean reward of the last {log_every} {np.mean(recent):+.3f}")
            recent = []
    return policy


def evaluate(policy: Policy | None, deals: int, seed: int = 12345) -> tuple[float, float, float]:
    """Mean score (the variant's own points) of the agent in seat 0 over ``deals`` fresh deals
    against three random players, with its 95% confidence interval. ``policy=None`` plays
    uniformly at random (the baseline)."""
    env = single_agent_env(VARIANT, opponents="random", seat=0)
    rng = np.random.default_rng(seed)
    scores = []
    for deal in range(deals):
        if policy is None:
            _, info = env.reset(seed=seed + deal)
            done = False
            while not done:
                legal = np.flatnonzero(info["action_mask"].view(np.bool_))
                _, reward, done, _, info = env.step(int(rng.choice(legal)))
        else:
            reward, _ = play(env, policy, rng, seed=seed + deal, greedy=True)
        scores.append(reward)
    mean = float(np.mean(scores))
    half = 1.96 * float(np.std(scores, ddof=1)) / math.sqrt(deals)
    return mean, mean - half, mean + half


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--deals", type=int, default=4000, help="training deals")
    parser.add_argument("--eval", type=int, default=2000, help="evaluation deals")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    start = time.perf_counter()
    policy = train(args.deals, args.seed, log_every=max(1, args.deals // 10))
    trained = time.perf_counter()
    mean, lo, hi = evaluate(policy, args.eval)
    base, blo, bhi = evaluate(None, args.eval)
    print(f"trained on {args.deals} deals in {trained - start:.0f} s")
    print(f"learned agent vs 3 random: {mean:+.2f} [{lo:+.2f}, {hi:+.2f}] points per deal "
          f"({args.eval} deals)")
    print(f"random agent  vs 3 random: {base:+.2f} [{blo:+.2f}, {bhi:+.2f}]")
    print(f"total {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
