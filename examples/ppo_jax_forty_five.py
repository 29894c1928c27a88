"""Self-play PPO for Forty-Five in JAX and Optax, on the batched environment.

    pip install 'parlour[jax]'                         # JAX (CPU) and Optax
    python examples/ppo_jax_forty_five.py              # 2 players, then evaluated
    python examples/ppo_jax_forty_five.py --steps 12800 --seed 2 --eval 1000
    python examples/ppo_jax_forty_five.py --players 4 --opponents greedy

A starting point for training with a mainstream library: a textbook PPO (clipped objective,
GAE, value head, entropy bonus, Adam) written with JAX and Optax against
``parlour.envs.batched_env``, every seat played by the network being trained. The policy is a
softmax over the whole action index with the illegal actions' logits set to -1e9 (the batch's
``mask``); the network is a two-layer tanh perceptron over the observation encoding with a
policy head and a value head.

Why Forty-Five: its action index has 108 entries, so a masked softmax over all of them is the
plain shape every PPO implementation expects, and it learns within a minute. The climbing games
have some 20,000 actions, too many for an output layer to learn one by one in that time (the
numpy examples score their legal actions by features instead).

Rewards come once, when a deal ends: every seat's share of the points (5, or 10 for all five
tricks), divided by 10. Each seat's decisions in a deal form its own trajectory: a decision's
successor is the same seat's next decision in that deal, or the deal's end with that seat's
reward, and GAE (discount 1) runs along it. The last decision of a seat in a deal that is still
going when the rollout stops has no target yet and is left out of that update's loss.

The trained policy then plays greedily (its most probable legal action) against parlour bots:
every deal is played twice, once with the policy on the even seats and once on the odd ones
(the two sides), and the score is its seats' mean points per deal minus the
other seats', with a 95% confidence interval. The same ``--seed`` gives the same numbers.
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import partial

import jax
import jax.numpy as jnp
import numpy as np
import optax

import parlour
from parlour.arena.deals import play_deal
from parlour.arena.stats import mean_ci
from parlour.bots import make_bot
from parlour.envs import action_index, batched_env, encoder, reward_scale
from parlour.game import Action, Game, Observation

VARIANT = "forty-five"
Params = dict[str, jax.Array]


@dataclass(frozen=True)
class Config:
    seed: int = 1
    players: int = 2
    envs: int = 128  # deals stepped together
    steps: int = 3200  # batched steps in all, `rollout` of them per update
    rollout: int = 32
    hidden: int = 256
    lr: float = 1e-3
    epochs: int = 4
    minibatches: int = 4
    clip: float = 0.2
    gae_lambda: float = 0.95
    entropy: float = 0.001
    value: float = 0.5


def new_params(cfg: Config) -> Params:
    """The untrained network: its policy is close to uniform over the legal actions."""
    game = parlour.new_game(VARIANT, players=cfg.players)
    inputs, actions, hidden = encoder(game).size, action_index(game).size, cfg.hidden
    k = jax.random.split(jax.random.split(jax.random.PRNGKey(cfg.seed))[0], 4)
    orth = jax.nn.initializers.orthogonal
    return {"w1": orth(2**0.5)(k[0], (inputs, hidden)), "b1": jnp.zeros(hidden),
            "w2": orth(2**0.5)(k[1], (hidden, hidden)), "b2": jnp.zeros(hidden),
            "wp": orth(0.01)(k[2], (hidden, actions)), "bp": jnp.zeros(actions),
            "wv": orth(1.0)(k[3], (hidden, 1)), "bv": jnp.zeros(1)}


@jax.jit
def forward(params: Params, obs: jax.Array, mask: jax.Array) -> tuple[jax.Array, jax.Array]:
    """Log-probabilities over the action index (the illegal ones about -1e9) and the value."""
    h = jnp.tanh(obs @ params["w1"] + params["b1"])
    h = jnp.tanh(h @ params["w2"] + params["b2"])
    logits = jnp.where(mask, h @ params["wp"] + params["bp"], -1e9)
    return jax.nn.log_softmax(logits), (h @ params["wv"] + params["bv"])[:, 0]


@jax.jit
def act(params: Params, obs: jax.Array, mask: jax.Array,
        key: jax.Array) -> tuple[jax.Array, jax.Array, jax.Array]:
    logp, value = forward(params, obs, mask)
    action = jax.random.categorical(key, logp)
    return action, jnp.take_along_axis(logp, action[:, None], 1)[:, 0], value


def optimizer(cfg: Config) -> optax.GradientTransformation:
    return optax.chain(optax.clip_by_global_norm(0.5), optax.adam(cfg.lr))


def ppo_loss(params: Params, cfg: Config, obs: jax.Array, mask: jax.Array, action: jax.Array,
             old_logp: jax.Array, adv: jax.Array, ret: jax.Array, weight: jax.Array) -> jax.Array:
    """The clipped surrogate, the value error and the entropy bonus, over the decisions of
    ``weight`` 1 (those with a target)."""
    logp_all, value = forward(params, obs, mask)
    logp = jnp.take_along_axis(logp_all, action[:, None], 1)[:, 0]
    ratio = jnp.exp(logp - old_logp)
    policy = -jnp.minimum(ratio * adv, jnp.clip(ratio, 1 - cfg.clip, 1 + cfg.clip) * adv)
    entropy = -(jnp.exp(logp_all) * logp_all).sum(-1)  # the illegal actions add 0
    loss = policy + cfg.value * (value - ret) ** 2 - cfg.entropy * entropy
    mean: jax.Array = (loss * weight).sum() / jnp.maximum(weight.sum(), 1.0)
    return mean


@partial(jax.jit, static_argnums=0)
def update(cfg: Config, params: Params, opt_state: optax.OptState,
           *batch: jax.Array) -> tuple[Params, optax.OptState, jax.Array]:
    """One Adam step on a minibatch."""
    loss, grads = jax.value_and_grad(ppo_loss)(params, cfg, *batch)
    updates, opt_state = optimizer(cfg).update(grads, opt_state, params)
    return optax.apply_updates(params, updates), opt_state, loss


def advantages(values: np.ndarray, players: np.ndarray, dones: np.ndarray,
               rewards: np.ndarray, lam: float) -> tuple[np.ndarray, np.ndarray]:
    """GAE along each seat's own decisions, for a rollout of shape (steps, rows); and which
    decisions have a target (a later decision of their seat, or their deal's end)."""
    steps, rows = values.shape
    adv = np.zeros_like(values)
    known = np.zeros(values.shape, dtype=bool)
    next_value = np.zeros((rows, rewards.shape[-1]), dtype=np.float32)  # by row and seat
    next_adv = np.zeros_like(next_value)
    seen = np.zeros(next_value.shape, dtype=bool)
    r = np.arange(rows)
    for t in reversed(range(steps)):
        d = dones[t]  # the deal ended after this decision: every seat's last target is its reward
        next_value[d], next_adv[d], seen[d] = rewards[t][d], 0.0, True
        p = players[t]
        known[t] = seen[r, p]
        adv[t] = np.where(known[t], next_value[r, p] - values[t] + lam * next_adv[r, p], 0.0)
        next_value[r, p], next_adv[r, p], seen[r, p] = values[t], adv[t], True
    return adv, known


def train(cfg: Config, report: Callable[[str], None] = print) -> tuple[Params, list[float]]:
    """Self-play PPO; returns the parameters and each update's mean loss."""
    env = batched_env(VARIANT, num_envs=cfg.envs, players=cfg.players, seed=cfg.seed,
                      rewards="normalised")
    key = jax.random.split(jax.random.PRNGKey(cfg.seed))[1]  # the other half made the network
    params = new_params(cfg)
    opt_state = optimizer(cfg).init(params)
    shuffle = np.random.default_rng(cfg.seed)
    losses: list[float] = []
    deals, start = 0, time.perf_counter()
    step = env.reset()
    for n in range(cfg.steps // cfg.rollout):
        rollout = []
        for _ in range(cfg.rollout):
            key, sub = jax.random.split(key)
            mask = step.mask.view(np.bool_)
            action, logp, value = map(np.asarray, act(params, step.obs, mask, sub))
            before = step
            step = env.step(action)
            rollout.append((before.obs, mask, action, logp, value, before.player, step.rewards,
                            step.done))
            deals += int(step.done.sum())
        obs, mask, action, logp, value, player, reward, done = (
            np.stack(x) for x in zip(*rollout, strict=True))
        adv, known = advantages(value, player, done, reward, cfg.gae_lambda)
        ret = adv + value
        adv = (adv - adv[known].mean()) / (adv[known].std() + 1e-8)
        flat = [x.reshape(cfg.rollout * cfg.envs, *x.shape[2:])
                for x in (obs, mask, action, logp, adv, ret, known.astype(np.float32))]
        batch_losses = []
        for _ in range(cfg.epochs):
            for part in np.array_split(shuffle.permutation(len(flat[0])), cfg.minibatches):
                params, opt_state, loss = update(cfg, params, opt_state, *(x[part] for x in flat))
                batch_losses.append(float(loss))
        losses.append(float(np.mean(batch_losses)))
        report(f"update {n + 1:4d}  steps {(n + 1) * cfg.rollout:6d}  deals {deals:7d}  "
               f"loss {losses[-1]:+.4f}  {time.perf_counter() - start:5.1f} s")
    return params, losses


class PolicyPlayer:
    """The trained policy as a parlour player: its most probable legal action."""

    def __init__(self, params: Params, game: Game) -> None:
        self.params, self.encoder, self.index = params, encoder(game), action_index(game)

    def choose(self, observation: Observation, legal_actions: Sequence[Action],
               rng: random.Random) -> Action:
        indices = self.index.indices(legal_actions, observation)
        mask = np.zeros((1, self.index.size), dtype=bool)
        mask[0, indices] = True
        logp, _ = forward(self.params, self.encoder.encode(observation)[None], mask)
        return legal_actions[indices.index(int(jnp.argmax(logp[0])))]


def evaluate(params: Params, players: int, opponent: str, deals: int,
             seed: int) -> tuple[float, float]:
    """The policy against ``opponent``, each deal played with it on the even seats and on the
    odd ones: its seats' mean points per deal minus the others', and the 95% CI's half-width."""
    game = parlour.new_game(VARIANT, players=players)
    me = PolicyPlayer(params, game)
    diffs = []
    for deal in range(deals):
        diff = 0.0
        for side in (0, 1):
            seats = [me if s % 2 == side else make_bot(opponent) for s in range(players)]
            returns = play_deal(game, seats, seed, deal).returns()
            ours = [r for r, s in zip(returns, seats, strict=True) if s is me]
            theirs = [r for r, s in zip(returns, seats, strict=True) if s is not me]
            diff += (sum(ours) / len(ours) - sum(theirs) / len(theirs)) / 2
        diffs.append(diff)
    return mean_ci(diffs)


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--seed", type=int, default=Config.seed)
    parser.add_argument("--players", type=int, default=Config.players, choices=(2, 4, 6))
    parser.add_argument("--envs", type=int, default=Config.envs, help="deals stepped together")
    parser.add_argument("--steps", type=int, default=Config.steps,
                        help="steps of the batched environment in all (each moves every deal once)")
    parser.add_argument("--rollout", type=int, default=Config.rollout, help="steps per update")
    parser.add_argument("--eval", type=int, default=500, help="deals per opponent (0: none)")
    parser.add_argument("--opponents", nargs="*", default=["random", "greedy"])
    args = parser.parse_args(argv)
    cfg = Config(seed=args.seed, players=args.players, envs=args.envs, steps=args.steps,
                 rollout=args.rollout)
    untrained = new_params(cfg)
    params, _ = train(cfg)
    scale = reward_scale(parlour.new_game(VARIANT, players=cfg.players))
    for opponent in args.opponents if args.eval else []:
        for label, p in (("untrained", untrained), ("trained", params)):
            mean, half = evaluate(p, cfg.players, opponent, args.eval, seed=2027)
            print(f"{label} policy - {opponent}: {mean:+.3f} points per deal, 95% CI "
                  f"[{mean - half:+.3f}, {mean + half:+.3f}] ({args.eval} deals x 2 seatings; "
                  f"a deal is worth {scale:g} at most)")


if __name__ == "__main__":
    main()
