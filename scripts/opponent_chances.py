"""How soon a search tells a `greedy` player from one that plays like the network
(:class:`parlour.bots.Opponents`), as "Speed and strength" measured it:

    python scripts/opponent_chances.py big-two-4card --deals 30
    python scripts/opponent_chances.py big-two-4card --deals 200 --certainty 0.9

Seat 0 plays `learned`; the other seats are `greedy` and `learned`, in turns from deal to deal.
At each of seat 0's choices, every other seat's chance of the rule-based kind is weighed from
its moves so far, as `expert` with ``opponents`` would weigh it. The report gives, for each
kind and by how many moves the seat has made, the mean chance and the share of positions where
it reaches the model's certainty (where the search plays that seat by `greedy`).
"""

from __future__ import annotations

import argparse
import random
from collections import defaultdict

import parlour
from parlour._core import ClimbingKnowledge, ClimbingNet, Race
from parlour.bots import GreedyBot, Opponents, make_bot
from parlour.bots.learned import load_policy

#: The seats' kinds, deal by deal in turn (seat 0 is the one that searches).
KINDS = (("learned", "greedy", "learned", "greedy"), ("learned", "learned", "greedy", "learned"))
#: Buckets of a seat's moves so far.
BUCKETS = ((0, 3), (4, 7), (8, 11), (12, 99))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant", choices=["big-two-4card", "big-two", "pusoy-dos"])
    parser.add_argument("--deals", type=int, default=30)
    parser.add_argument("--seed", type=int, default=900)
    parser.add_argument("--certainty", type=float, default=Opponents.certainty,
                        help="the model's certainty (default: parlour.bots.Opponents')")
    args = parser.parse_args()
    game = parlour.new_game(args.variant)
    policy = load_policy(game.name)
    assert policy is not None
    net = policy.compiled()
    assert isinstance(net, ClimbingNet)
    model = Opponents(certainty=args.certainty)
    race = Race(1, None, 1, 2.0, 0.0, 1, None, None, model.settings())
    bots = {"learned": make_bot("learned"), "greedy": GreedyBot()}
    chances: dict[tuple[str, int], list[float]] = defaultdict(list)
    for deal in range(args.deals):
        kinds = KINDS[deal % 2]
        state = game.new_deal(seed=args.seed + deal)
        rng = random.Random(deal)
        while not state.is_over:
            seat, legal = state.current_player, state.legal_actions()
            observation = state.observation(seat)
            if seat == 0 and len(legal) > 1:
                knowledge = observation._knowledge()
                assert isinstance(knowledge, ClimbingKnowledge)
                weighed = knowledge.rule_based_chances(race, deal, net)
                for other in range(1, game.players):
                    moves = sum(1 for who, _ in state.history if who == other)
                    bucket = next(i for i, (low, high) in enumerate(BUCKETS) if low <= moves <= high)
                    chances[kinds[other], bucket].append(weighed[other])
            state.apply(bots[kinds[seat]].choose(observation, legal, rng))
    print(f"{game.name}, {args.deals} deals: mean chance of the rule-based kind / share at "
          f"{model.certainty} or above (positions)")
    labels = [f"{low}-{high}" if high < 99 else f"{low} or more" for low, high in BUCKETS]
    print(f"{'moves so far':<13}" + "".join(f"{label:<19}" for label in labels))
    for kind in ("greedy", "learned"):
        cells = []
        for bucket in range(len(BUCKETS)):
            values = chances[kind, bucket]
            reached = sum(v >= model.certainty for v in values)
            cells.append(f"{sum(values) / len(values):.2f} / {reached / len(values):.2f} ({len(values)})"
                         if values else "-")
        print(f"{kind:<13}" + "".join(f"{c:<19}" for c in cells))


if __name__ == "__main__":
    main()
