"""The ``parlour`` command: play, simulate, replay, list variants, benchmark.

Everything here goes through the generic protocol; nothing is game-specific.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import sys
from collections.abc import Sequence
from typing import Any, TextIO

from parlour.bots import Bot, bot_names, make_bot
from parlour.errors import ParlourError
from parlour.game import Game, State
from parlour.records import (
    MATCH_FORMAT,
    deal_record,
    load,
    match_record,
    replay_deal,
    replay_match,
    save,
)
from parlour.registry import get_variant, new_game, player_counts_text, variants


def _option_value(text: str) -> Any:
    """``--option`` values: JSON literals (true, 12, "x") or a bare word."""
    lowered = {"true": True, "false": False}.get(text.lower())
    if lowered is not None:
        return lowered
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        return text


def _game_from_args(args: argparse.Namespace) -> Game:
    options: dict[str, Any] = {}
    for item in args.option or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise ParlourError(f"--option takes NAME=VALUE, not '{item}'")
        options[key.strip().replace("-", "_")] = _option_value(value.strip())
    return new_game(args.variant, players=args.players, **options)


def _bots(spec: str, count: int) -> list[Bot]:
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if len(names) == 1:
        names *= count
    if len(names) != count:
        raise ParlourError(f"give {count} bots (one per seat, comma-separated), not {len(names)}")
    return [make_bot(n) for n in names]


# -- parlour variants ----------------------------------------------------------------------------

def cmd_variants(args: argparse.Namespace, out: TextIO) -> int:
    for v in variants():
        counts = player_counts_text(v.players)
        out.write(f"{v.name}  ({counts} players, default {v.default_players})\n")
        out.write(f"    {v.description}\n")
        for o in v.option_info():
            setting = f"{o.name}={o.default!r}"
            out.write(f"    -o {setting:<34} {o.help} [{o.allowed()}]\n")
    return 0


# -- parlour play -------------------------------------------------------------------------------

def cmd_play(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    game = _game_from_args(args)
    seat = args.seat
    if not 0 <= seat < game.players:
        raise ParlourError(f"--seat must be 0..{game.players - 1}")
    others = _bots(args.bots, game.players - 1)
    bots: list[Bot | None] = list(others)
    bots.insert(seat, None)
    match = game.new_match(seed=args.seed)
    rng = random.Random(match.seed)
    out.write(f"{game.name}: you are {game.seat_name(seat)}. Type a play in the game's notation, "
              "'help' for your legal moves, 'quit' to stop.\n")
    while not match.is_over:
        state = match.next_deal()
        out.write(f"\n=== Deal {len(match.deals) + 1} ===\n")
        while not state.is_over:
            p = state.current_player
            bot = bots[p]
            if bot is None:
                if not _human_turn(state, seat, out, inp):
                    _finish_early(state, args, out)
                    return 0
            else:
                action = bot.choose(state.observation(p), state.legal_actions(), rng)
                state.apply(action)
                out.write(f"{game.seat_name(p)}: {action}\n")
        match.finish_deal(state)
        out.write("\n" + state.observation(seat).render() + "\n")
        out.write("Match totals: " + _totals(game, match.totals) + "\n")
    winners = ", ".join(game.seat_name(w) for w in match.winners())
    out.write(f"\nMatch over. Winner(s): {winners}\n")
    if args.save:
        save(match_record(match), args.save)
        out.write(f"Record saved to {args.save}\n")
    return 0


def _totals(game: Game, totals: Sequence[float]) -> str:
    return "  ".join(f"{game.seat_name(i)} {t:g}" for i, t in enumerate(totals))


def _human_turn(state: State, seat: int, out: TextIO, inp: TextIO) -> bool:
    """Prompt until a legal action is applied; False when the player quits or input ends."""
    out.write("\n" + state.observation(seat).render() + "\n")
    while True:
        out.write("your play> ")
        out.flush()
        line = inp.readline()
        if not line:
            return False
        text = line.strip()
        if text.lower() in ("quit", "exit", "q"):
            return False
        if text.lower() in ("help", "?", "moves"):
            out.write("legal: " + " | ".join(str(a) for a in state.legal_actions()) + "\n")
            continue
        if not text:
            continue
        try:
            state.apply(text)
            return True
        except ParlourError as e:
            out.write(f"not allowed: {e}\n")


def _finish_early(state: State, args: argparse.Namespace, out: TextIO) -> None:
    out.write("\nStopped.\n")
    if args.save:
        save(deal_record(state), args.save)
        out.write(f"Unfinished deal saved to {args.save}\n")


# -- parlour simulate ---------------------------------------------------------------------------

def mean_ci(values: Sequence[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    n = len(values)
    mean = sum(values) / n
    if n < 2:
        return mean, math.inf
    var = sum((v - mean) ** 2 for v in values) / (n - 1)
    return mean, 1.96 * math.sqrt(var / n)


def simulate(game: Game, bots: Sequence[Bot], games: int, seed: int,
             progress: bool = False) -> tuple[list[list[float]], list[float]]:
    """Play ``games`` deals; each seat's returns, and its share of wins (ties split)."""
    rng = random.Random(seed)
    returns: list[list[float]] = [[] for _ in range(game.players)]
    wins = [0.0] * game.players
    track = _progress(games, "simulating") if progress else None
    for _ in range(games):
        state = game.new_deal(seed=rng.randrange(2**63))
        while not state.is_over:
            p = state.current_player
            state.apply(bots[p].choose(state.observation(p), state.legal_actions(), rng))
        for i, r in enumerate(state.returns()):
            returns[i].append(r)
        winners = state.winners()
        for w in winners:
            wins[w] += 1 / len(winners)
        if track:
            track()
    if track:
        track(done=True)
    return returns, [w / games for w in wins]


def _progress(total: int, label: str) -> Any:
    from rich.progress import Progress

    bar = Progress(transient=True)
    bar.start()
    task = bar.add_task(label, total=total)

    def step(done: bool = False) -> None:
        if done:
            bar.stop()
        else:
            bar.advance(task)

    return step


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    game = _game_from_args(args)
    bots = _bots(args.bots, game.players)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    returns, wins = simulate(game, bots, args.games, seed, progress=out.isatty())
    out.write(f"{game.name}, {args.games} deals, seed {seed}\n")
    w = max(len(game.seat_name(i)) for i in range(game.players)) + 2
    out.write(f"{'seat':<{w}}{'bot':<10}{'mean score':>12}{'95% CI':>22}{'win rate':>10}\n")
    for i, bot in enumerate(bots):
        mean, half = mean_ci(returns[i])
        out.write(f"{game.seat_name(i):<{w}}{bot.name:<10}{mean:>12.3f}"
                  f"{f'[{mean - half:.3f}, {mean + half:.3f}]':>22}{wins[i]:>10.1%}\n")
    return 0


# -- parlour replay -----------------------------------------------------------------------------

def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    record = load(args.file)
    is_match = record.get("format") == MATCH_FORMAT
    states = replay_match(record) if is_match else [replay_deal(record)]
    for n, state in enumerate(states, 1):
        game = state.game
        out.write(f"=== {game.name}, deal {n} ===\n")
        for seat, action in state.history:
            out.write(f"{game.seat_name(seat)}: {action}\n")
        if state.is_over:
            out.write("Result: " + _totals(game, state.returns()) + "\n")
        else:
            out.write("(unfinished)\n")
    if is_match and states and "totals" in record:
        out.write("Match totals: " + _totals(states[0].game, record["totals"]) + "\n")
    return 0


# -- parlour bench ------------------------------------------------------------------------------

def cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    from parlour.bench import run_bench

    names = [args.variant] if args.variant else [v.name for v in variants()]
    for name in names:
        get_variant(name)
        game = new_game(name, players=args.players)
        for line in run_bench(game, seconds=args.seconds):
            out.write(line + "\n")
            out.flush()
    return 0


# -- entry point --------------------------------------------------------------------------------

def build_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="parlour", description="Card games against computer players.")
    sub = p.add_subparsers(dest="command", required=True)

    def game_args(sp: argparse.ArgumentParser) -> None:
        sp.add_argument("variant", help="variant name (see 'parlour variants')")
        sp.add_argument("--players", type=int, default=None, help="number of players")
        sp.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                        help="a variant option, e.g. -o allow_triples=true (repeatable)")
        sp.add_argument("--seed", type=int, default=None, help="seed for the deals and the bots")

    sp = sub.add_parser("play", help="play against computer players in the terminal")
    game_args(sp)
    sp.add_argument("--seat", type=int, default=0, help="your seat (0 = P0)")
    sp.add_argument("--bots", default="greedy", help="bots for the other seats, e.g. greedy,random,greedy")
    sp.add_argument("--save", metavar="FILE", help="save the record of the match as JSON")

    sp = sub.add_parser("simulate", help="bots against bots: mean scores and win rates")
    game_args(sp)
    sp.add_argument("--games", type=int, default=1000, help="number of deals")
    sp.add_argument("--bots", required=True, help=f"one bot per seat, from: {', '.join(bot_names())}")

    sp = sub.add_parser("replay", help="replay a saved deal or match record")
    sp.add_argument("file")

    sub.add_parser("variants", help="list the variants and their options")

    sp = sub.add_parser("bench", help="engine speed: random-play games per second and more")
    sp.add_argument("variant", nargs="?", help="one variant (default: all)")
    sp.add_argument("--players", type=int, default=None)
    sp.add_argument("--seconds", type=float, default=3.0, help="time per measurement")
    return p


def main(argv: Sequence[str] | None = None, out: TextIO | None = None,
         inp: TextIO | None = None) -> int:
    out = out or sys.stdout
    inp = inp or sys.stdin
    args = build_parser().parse_args(argv)
    try:
        if args.command == "play":
            return cmd_play(args, out, inp)
        if args.command == "simulate":
            return cmd_simulate(args, out)
        if args.command == "replay":
            return cmd_replay(args, out)
        if args.command == "variants":
            return cmd_variants(args, out)
        return cmd_bench(args, out)
    except ParlourError as e:
        sys.stderr.write(f"parlour: {e}\n")
        return 2
    except KeyboardInterrupt:
        return 130


if __name__ == "__main__":
    raise SystemExit(main())
