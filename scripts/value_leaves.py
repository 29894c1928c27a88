"""Whether a value network could stand in for the end of a search's rollouts, as "Speed and
strength" measured it for the hour:

    python scripts/value_leaves.py big-two-4card --deals 200000 --epochs 2 --eval-deals 100 \
        --leaf-after 1 2

A search's rollout plays a sampled world out with the network in every seat. That play is
deterministic, so the world's value to the searching seat is a function of the world: one a
network could learn and return after a few turns instead of the rest of the rollout. Here the
shipped network plays ``--deals`` deals in every seat; at each choice the seat's observation
encoding and the other seats' hands (the whole world, as a rollout has it) are kept with the
seat's return at the deal's end, which is that function's value. A network of the learned
networks' shape (256 and 128 units, :class:`parlour.bots.learned.network.QNet` with one move feature
held at 0) learns it, the deals whose number ends in 0 held out for its error.

Then, in ``--eval-deals`` new deals played by the network, each of the network's 8 best moves at
each choice is valued three ways in the one world: played out, and by a rollout that stops at
the seat's ``k``-th next choice and counts either the value network's estimate there or the
learned network's best score (``SearchBot(leaf_after=k)``). The report gives, for each
estimate, how often the best move played out is still best by it, the points a choice loses
where it is not, and the error of each move's value less the mean of its choice's moves (what a
search compares), beside the spread of those values played out. The choices of 100,000 deals
take about 3 GB of memory, and twice that while the network learns.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator

import numpy as np
import numpy.typing as npt

import parlour
from parlour._core import ClimbingNet
from parlour.bots.learned import load_policy
from parlour.bots.learned.network import QNet
from parlour.envs import encoder
from parlour.game import Action, State

F32 = npt.NDArray[np.float32]
#: A choice's moves valued (the network's best first), as `expert` searches its 8 best.
CANDIDATES = 8


class Setting:
    """The variant's game, its shipped network compiled, and what the value network reads."""

    def __init__(self, variant: str) -> None:
        self.game = parlour.new_game(variant)
        policy = load_policy(variant)
        assert policy is not None, f"{variant} has no network"
        net = policy.compiled()
        assert isinstance(net, ClimbingNet), "the climbing games only"
        self.net, self.scale = net, policy.scale
        self.encoder = encoder(self.game)
        self.place = {card: k for k, card in enumerate(self.game.card_order())}
        self.size = self.encoder.size + (self.game.players - 1) * 52

    def world(self, state: State, seat: int) -> F32:
        """``seat``'s observation encoding, then the hands of the seats after it in turn."""
        n = self.game.players
        hands = np.zeros((n - 1) * 52, np.float32)
        for k in range(1, n):
            for card in state.hand(  # type: ignore[attr-defined]
                    (seat + k) % n):
                hands[(k - 1) * 52 + self.place[int(card)]] = 1.0
        return np.concatenate([self.encoder.encode(state.observation(seat)), hands])

    def scores(self, state: State) -> dict[int, float]:
        """The network's score of each legal move of the seat to move."""
        return dict(self.net.scores(state._e))  # type: ignore[attr-defined]

    def step(self, state: State, legal: list[Action] | None = None) -> None:
        """The network's move (the first of the best-scored), or the only one; ``legal``: the
        legal moves, where the caller has them already."""
        if legal is None:
            legal = state.legal_actions()
        if len(legal) == 1:
            state.apply(legal[0])
            return
        scores = self.scores(state)
        state.apply(max(legal, key=lambda a: scores[int(a)]))

    def played_out(self, state: State, seat: int) -> float:
        while not state.is_over:
            self.step(state)
        return state.returns()[seat]

    def choices(self, state: State) -> Iterator[tuple[int, list[Action]]]:
        """Each choice of a deal played out by the network: the seat and its legal moves,
        before the move."""
        while not state.is_over:
            legal = state.legal_actions()
            if len(legal) > 1:
                yield state.current_player, legal
            self.step(state, legal)


def samples(setting: Setting, first: int, deals: int) -> tuple[F32, F32, npt.NDArray[np.int64]]:
    """Every choice of deals ``first`` … as ``(worlds, returns, deal numbers)``; the worlds in
    16-bit floats (their entries are counts over 13 or 0 and 1)."""
    worlds, returns, numbers = [], [], []
    for deal in range(first, first + deals):
        state = setting.game.new_deal(seed=deal)
        seats, rows = [], []
        for seat, _ in setting.choices(state):
            seats.append(seat)
            rows.append(setting.world(state, seat))
        if rows:
            worlds.append(np.array(rows, np.float16))
            final = state.returns()
            returns += [final[s] for s in seats]
            numbers += [deal] * len(rows)
    return (np.concatenate(worlds), np.array(returns, np.float32),  # type: ignore[return-value]
            np.array(numbers, np.int64))


def train(worlds: F32, returns: F32, numbers: npt.NDArray[np.int64], epochs: int,
          seed: int) -> tuple[QNet, float]:
    """The value network (and the points its output is worth), reporting its error by epoch."""
    scale = float(np.abs(returns).max()) or 1.0
    held = numbers % 10 == 0
    x, y = worlds[~held], returns[~held] / scale
    x_held, y_held = worlds[held].astype(np.float32), returns[held] / scale
    rng = np.random.default_rng(seed)
    net = QNet.new(worlds.shape[1], 1, (256, 128), rng, 1e-3)
    batch = 1024
    none = np.zeros((batch, 1), np.float32)

    def error(xs: F32, ys: F32) -> float:
        q = value(net, xs.astype(np.float32))
        return float(np.sqrt(np.mean((q - ys) ** 2)) * scale)

    began = time.perf_counter()
    for epoch in range(1, epochs + 1):
        order = rng.permutation(len(y))
        for start in range(0, len(order) - batch + 1, batch):
            b = order[start:start + batch]
            net.train_step(x[b].astype(np.float32), none, y[b])
        print(f"epoch {epoch}: error {error(x[:50_000], y[:50_000]):.3f} points in training, "
              f"{error(x_held, y_held):.3f} held out ({time.perf_counter() - began:.0f} s)",
              flush=True)
    return net, scale


def value(net: QNet, worlds: F32) -> F32:
    """The value network's outputs for rows of worlds."""
    n = len(worlds)
    return net.q(worlds, np.arange(n), np.zeros((n, 1), np.float32))


def leaf(setting: Setting, state: State, seat: int, after: int, net: QNet,
         scale: float) -> tuple[float, float]:
    """``state`` played on by the network to ``seat``'s ``after``-th choice, valued there by the
    value network and by the network's best score; the return itself if the deal ends first."""
    seen = 0
    while not state.is_over:
        legal = state.legal_actions()
        if state.current_player == seat and len(legal) > 1:
            seen += 1
            if seen == after:
                estimate = float(value(net, setting.world(state, seat)[None, :])[0]) * scale
                return estimate, max(setting.scores(state).values()) * setting.scale
        setting.step(state, legal)
    final = state.returns()[seat]
    return final, final


def compare(setting: Setting, first: int, deals: int, after: int, net: QNet,
            scale: float) -> list[npt.NDArray[np.float64]]:
    """For each choice of the deals: its moves' values played out, by the value network and by
    the network's best score (three rows)."""
    found = []
    for deal in range(first, first + deals):
        state = setting.game.new_deal(seed=deal)
        for seat, legal in setting.choices(state):
            scores = setting.scores(state)
            moves = sorted(legal, key=lambda a: -scores[int(a)])[:CANDIDATES]
            values = []
            for move in moves:
                after_move = state.clone()
                after_move.apply(move)
                values.append((setting.played_out(after_move.clone(), seat),
                               *leaf(setting, after_move, seat, after, net, scale)))
            found.append(np.array(values, np.float64).T)
    return found


def report(name: str, choices: list[npt.NDArray[np.float64]], row: int) -> str:
    """How well row ``row`` of each choice's values picks and ranks its moves."""
    kept = np.mean([c[0][np.argmax(c[row])] == c[0].max() for c in choices])
    lost = np.mean([c[0].max() - c[0][np.argmax(c[row])] for c in choices])
    centred = np.concatenate([(c[row] - c[row].mean()) - (c[0] - c[0].mean()) for c in choices])
    return (f"{name}: best move kept {kept:.1%}, {lost:.2f} points lost a choice, error "
            f"{np.sqrt(np.mean(centred ** 2)):.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant", choices=["big-two-4card", "big-two", "pusoy-dos"])
    parser.add_argument("--deals", type=int, default=200_000, help="deals to learn from")
    parser.add_argument("--epochs", type=int, default=2)
    parser.add_argument("--eval-deals", type=int, default=100)
    parser.add_argument("--leaf-after", type=int, nargs="+", default=[1])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    setting = Setting(args.variant)
    began = time.perf_counter()
    worlds, returns, numbers = samples(setting, 0, args.deals)
    print(f"{args.variant}: {len(returns):,} choices of {args.deals:,} deals "
          f"({time.perf_counter() - began:.0f} s), their returns' spread "
          f"{float(np.std(returns)):.2f} points", flush=True)
    net, scale = train(worlds, returns, numbers, args.epochs, args.seed)
    # New deals, past those learned from.
    for after in args.leaf_after:
        choices = compare(setting, 10 * args.deals + 1_000_000, args.eval_deals, after, net,
                          scale)
        spread = np.sqrt(np.mean(np.concatenate([c[0] - c[0].mean() for c in choices]) ** 2))
        print(f"stopped at the seat's choice {after}, {len(choices)} choices: the moves' values "
              f"played out spread {spread:.2f} points about their choice's mean")
        print("  " + report("value network", choices, 1))
        print("  " + report("network's best score", choices, 2))


if __name__ == "__main__":
    main()
