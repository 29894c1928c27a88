"""A searching level with other settings against the level as shipped, in the duplicate arena.

How the documentation's "Speed and strength" measured what the levels keep of the policy's
choice (``keep_policy``, family by family), worlds weighted by the other seats' moves
(``inference``), the other seats modelled by their kind (``opponents``), rollouts that stop
at the network's value (``leaf_after``), what the learned
network adds to a search (``--against-no-network``), a network budget on either side
(``--network-iterations``, ``--against-network-iterations``), what its playouts add to its guide
(``--network-playouts``, ``--greedy-playouts``, ``--against-greedy-playouts``), playouts by
another network than the guide (``--playout-weights``, such as a smaller and quicker one),
another network in the shipped one's place everywhere (``--network``: ``learned``, every guide
and every playout on both sides), a race that drops moves too near to matter
(``--indifference``) and a level against another bot (``--against``):

    python scripts/search_settings.py forty-five hard --keep-policy 0 --against-keep-policy 2 \
        --games 2000 --seed 1
    python scripts/search_settings.py big-two-4card hard --inference 8,1.0,0.1 --games 60 --seed 1
    python scripts/search_settings.py big-two-4card hard --leaf-after 1 --network-iterations 1500 \
        --games 100 --seed 1
    python scripts/search_settings.py forty-five hard --against-no-network --games 300 --seed 1
    python scripts/search_settings.py rummy hard --players 2 --network-playouts --games 300 --seed 1
    python scripts/search_settings.py rummy expert --players 2 --network-playouts \
        --against learned --games 256 --seed 1
    python scripts/search_settings.py big-two-4card expert --playout-weights small.npz \
        --against learned --games 100 --seed 1
    python scripts/search_settings.py big-two-4card expert --network small.npz \
        --against learned --games 100 --seed 1
    python scripts/search_settings.py big-two-4card learned --network small.npz \
        --against greedy --games 2000 --seed 1

Each side is the level's own search (its budget, candidates and, where the variant has a
network, its guide and playouts) with only the settings named changed; the report is the arena's
head-to-head difference (first − second) with its 95% interval, overall and by split of the
seats, and the wall time.
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
import time
from pathlib import Path

import parlour
from parlour.arena.core import run_arena
from parlour.arena.stats import head_to_head, paired_runs, split_differences
from parlour.bots import Inference, LevelBot, Opponents
from parlour.bots.base import register_bot
from parlour.bots.learned import Policy, replace_weights
from parlour.bots.learned.network import QNet, features_for
from parlour.bots.levels import LEVELS, level_config
from parlour.bots.search import Playouts
from parlour.game import Game


def inference(text: str) -> Inference:
    draws, temperature, uniform = text.split(",")
    return Inference(int(draws), float(temperature), float(uniform))


def opponents(text: str) -> Opponents:
    worlds, prior, noise, temperature, certainty, *draws = text.split(",")
    return Opponents(int(worlds), float(prior), float(noise), float(temperature),
                     float(certainty), *(int(d) for d in draws))


def playouts_from(path: Path, game: Game) -> Playouts:
    """The network in ``path`` (a weights file of ``training/selfplay.py --export``) as a
    search's playout policy for ``game``."""
    net, metadata = QNet.load(path)
    compiled = Policy(net, features_for(game), metadata).compiled()
    if compiled is None:
        raise SystemExit(f"{game.name} has no compiled network")
    return lambda observation: compiled


def ship(game: Game, path: Path) -> None:
    """The network in ``path`` as ``game``'s shipped one, in this process: ``learned``, and every
    level's guide and playouts, read it from here on (each worker of ``--workers`` sets it
    again, as it registers the sides)."""
    replace_weights(game.name, game.players, path)


#: The options that are not search settings (those ``learned`` takes).
UNSEARCHED = frozenset({"variant", "level", "players", "games", "seed", "network", "workers",
                        "journal", "paired", "against"})


def setup() -> tuple[argparse.Namespace, Game, str, str]:
    """The command line read, and the two sides registered as bots: ``(args, game, first,
    second)``."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("variant")
    parser.add_argument("level", choices=[level.name for level in LEVELS] + ["learned"],
                        help="a level, or learned: the network alone, with --network the one "
                             "given (no search settings; --against names the other side)")
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--keep-policy", type=float, default=None,
                        help="the first side's keep_policy (default: the level's)")
    parser.add_argument("--against-keep-policy", type=float, default=None,
                        help="the second side's keep_policy (default: the level's)")
    parser.add_argument("--inference", type=inference, default=None,
                        help="the first side's inference, as DRAWS,TEMPERATURE,UNIFORM")
    parser.add_argument("--opponents", type=opponents, default=None,
                        metavar="WORLDS,PRIOR,NOISE,TEMPERATURE,CERTAINTY[,DRAWS]",
                        help="the first side models the other seats as rule-based players or "
                             "the network, by their moves (parlour.bots.Opponents)")
    parser.add_argument("--no-opponents", action="store_true",
                        help="the first side does not model the other seats (expert as it was "
                             "before it did, in big-two-4card)")
    parser.add_argument("--indifference", type=float, default=None, metavar="SD",
                        help="the first side's indifference: racing drops a candidate that "
                             "cannot beat the leader by more than SD standard deviations of a "
                             "world's difference (default: none, as every level)")
    parser.add_argument("--leaf-after", type=int, default=None,
                        help="the first side's leaf_after (its rollouts stop at a value)")
    parser.add_argument("--network-iterations", type=int, default=None,
                        help="the first side takes the network as its guide and plays its "
                             "worlds out with it, at this many rollouts a move")
    parser.add_argument("--against-network-iterations", type=int, default=None, metavar="N",
                        help="the second side plays its worlds out with the network at N "
                             "rollouts a move (such as expert at 1,500 where its budget is now "
                             "smaller)")
    parser.add_argument("--level-network-iterations", type=int, default=None, metavar="N",
                        help="both sides take the network as their guide and play their worlds "
                             "out with it at N rollouts a move, where the variant's levels play "
                             "out with it (hard did, at 300, until it was made a step below "
                             "expert; in big-two-4card it does, at 60)")
    parser.add_argument("--against-no-network", action="store_true",
                        help="the second side searches without the learned network (greedy's "
                             "rollouts and candidates)")
    parser.add_argument("--against-greedy-playouts", action="store_true",
                        help="the second side takes the network as its guide but plays its "
                             "worlds out with greedy, at the level's plain budget")
    parser.add_argument("--greedy-playouts", action="store_true",
                        help="the first side plays its worlds out with greedy even where the "
                             "level does not (hard in big-two-4card), at its plain budget")
    parser.add_argument("--network-playouts", action="store_true",
                        help="the first side plays its worlds out with the network even where "
                             "the level does not (Rummy's), at the largest network budget of "
                             "any level")
    parser.add_argument("--playout-weights", type=Path, default=None, metavar="FILE",
                        help="the first side plays its worlds out with the network in FILE, "
                             "at its network budget (its guide stays the shipped network)")
    parser.add_argument("--network", type=Path, default=None, metavar="FILE",
                        help="the network in FILE in the shipped one's place everywhere: as "
                             "learned, and as every guide and playout of both sides (such as a "
                             "smaller network to ship instead)")
    parser.add_argument("--workers", type=int, default=1,
                        help="processes playing the deals (the results do not change)")
    parser.add_argument("--journal", type=Path, default=None,
                        help="the arena's journal of the run, to stop and resume it")
    parser.add_argument("--paired", type=Path, default=None, metavar="JOURNAL",
                        help="also the deal-by-deal difference from another run of the same "
                             "deals, the level against the same opponent, read back from its "
                             "journal (such as journals/big-two-4card-expert-greedy.jsonl)")
    parser.add_argument("--against", default=None, metavar="BOT",
                        help="the second side is this bot (such as learned) instead of the "
                             "level as shipped")
    args = parser.parse_args()
    if args.paired is not None and args.against is None:
        parser.error("--paired compares with the level's run against the same --against BOT")
    if args.opponents is not None and args.no_opponents:
        parser.error("--opponents and --no-opponents: one or the other")
    game = parlour.new_game(args.variant, **({"players": args.players} if args.players else {}))
    if args.network is not None:
        ship(game, args.network)
    if args.level == "learned":
        searched = [flag for flag, value in vars(args).items()
                    if flag not in UNSEARCHED and value not in (None, False)]
        if args.against is None or searched:
            parser.error("learned plays against --against BOT, with no search settings"
                         + (f" (given: {', '.join(searched)})" if searched else ""))
        return args, game, "learned", args.against
    level = next(lv for lv in LEVELS if lv.name == args.level)
    # Where the variant's levels play their worlds out with the network (expert does, where
    # any does), and the largest budget any level plays out at.
    network_variant = level_config("expert", game.name).network_playouts
    largest = max(level_config(lv.name, v.name).network_iterations or 0
                  for lv in LEVELS for v in parlour.variants())

    def networked(n: int) -> dict[str, object]:
        return {"guided": True, "network_playouts": network_variant, "network_iterations": n}

    both: dict[str, object] = {}
    if args.level_network_iterations is not None:
        both = networked(args.level_network_iterations)

    def side(name: str, keep: float | None, weighting: Inference | None = None,
             leaf_after: int | None = None, network_iterations: int | None = None,
             modelled: Opponents | None = None, unmodelled: bool = False,
             network: bool = True, greedy_playouts: bool = False,
             network_played: bool = False,
             played_by: Playouts | None = None, indifference: float | None = None) -> str:
        changes: dict[str, object] = dict(both)
        if keep is not None:
            changes["keep_policy"] = keep
        if network_iterations is not None:
            changes.update(networked(network_iterations))
        if not network:
            changes.update(guided=False, network_playouts=False)
        if weighting is not None:
            changes["inference"] = weighting
        if leaf_after is not None:
            changes["leaf_after"] = leaf_after
        if modelled is not None or unmodelled:  # else the level's own model, if any
            changes["opponents"] = modelled
        if greedy_playouts:
            changes["network_playouts"] = False
        if network_played:  # where the level plays out with greedy
            changes["network_playouts"] = True
            changes.setdefault("network_iterations", largest)
        if indifference is not None:
            changes["indifference"] = indifference

        def make() -> LevelBot:
            bot = LevelBot(level).replace(**changes)
            bot.name = name
            if played_by is not None:
                bot.playouts = played_by
            return bot
        register_bot(name, make)
        return name

    played_by = None if args.playout_weights is None else playouts_from(args.playout_weights, game)
    first = side(f"{level.name}-changed", args.keep_policy, args.inference, args.leaf_after,
                 args.network_iterations, modelled=args.opponents,
                 unmodelled=args.no_opponents,
                 greedy_playouts=args.greedy_playouts,
                 network_played=args.network_playouts, played_by=played_by,
                 indifference=args.indifference)
    second = args.against or side(f"{level.name}-shipped", args.against_keep_policy,
                                  network_iterations=args.against_network_iterations,
                                  network=not args.against_no_network,
                                  greedy_playouts=args.against_greedy_playouts)
    return args, game, first, second


def main() -> None:
    args, game, first, second = setup()
    began = time.perf_counter()
    result = run_arena(game, [first, second], args.games, seed=args.seed, duplicate=True,
                       workers=args.workers,
                       journal=None if args.journal is None else str(args.journal))
    for pair in head_to_head(result):
        print(f"{pair.first} − {pair.second}: {pair.mean:+.3f} "
              f"[{pair.mean - pair.half:+.3f}, {pair.mean + pair.half:+.3f}] over {pair.deals} deals")
    for split in split_differences(result):
        d = split.difference
        print(f"  {split.seats} v {split.others}: {d.mean:+.3f} "
              f"[{d.mean - d.half:+.3f}, {d.mean + d.half:+.3f}]")
    print(f"wall time {time.perf_counter() - began:.0f} s")
    if args.paired is not None:
        # Read back only: a copy, so that the recorded journal is never written to.
        with tempfile.TemporaryDirectory() as folder:
            copy = Path(folder) / args.paired.name
            shutil.copyfile(args.paired, copy)
            shipped = run_arena(game, [args.level, second], args.games, seed=args.seed,
                                duplicate=True, journal=str(copy))
        pair = paired_runs(result, shipped)
        print(f"paired with {args.paired}: {pair.mean:+.3f} "
              f"[{pair.mean - pair.half:+.3f}, {pair.mean + pair.half:+.3f}] over {pair.deals} deals")


if __name__ == "__mp_main__":
    # A worker of --workers: processes are spawned, and import this script under this name with
    # the same arguments; the sides are registered in it again, so that it can make the bots.
    setup()
elif __name__ == "__main__":
    main()
