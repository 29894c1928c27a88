"""``parlour arena``: bots against bots, in parallel, with statistics and ratings that hold up.

``parlour arena VARIANT --bots a,b --games N`` plays, reports, and adds the run to the results
file; ``parlour arena --ratings`` lists the leaderboard kept there.
"""

from __future__ import annotations

import argparse
import contextlib
import random
from collections.abc import Callable, Iterator, Sequence
from typing import TYPE_CHECKING, Any, TextIO

from parlour.arena.core import (
    BACKENDS,
    ArenaResult,
    lineup,
    record_directory,
    run_arena,
)
from parlour.arena.deals import all_seatings
from parlour.arena.journal import journal_seed
from parlour.arena.stats import bot_stats, head_to_head, split_differences
from parlour.args import game_from_args, isatty, positive_int
from parlour.bots import bot_names
from parlour.errors import ParlourError
from parlour.records import check_save_path

if TYPE_CHECKING:
    from parlour.arena.results import Standing

# ``parlour.cli`` registers this subcommand, so its shared helpers (argument types, building a
# game from -o options) are imported when they are used, never while it is being imported.
# The results file's modules (SQLAlchemy, openskill) are imported only when it is used too,
# keeping them out of the start-up of every other ``parlour`` command.

#: The results file used when none is named: in the current directory.
DEFAULT_RESULTS = "parlour-results.sqlite"


def add_parser(subparsers: Any) -> argparse.ArgumentParser:
    """Add ``arena`` to the ``parlour`` command's subparsers."""
    sp: argparse.ArgumentParser = subparsers.add_parser(
        "arena", help="bots against bots: means with CIs, head to head, ratings across runs",
        description="Play bots against each other on the same deals and compare them. Without "
                    "--duplicate the bot list is rotated one seat per deal; with it every deal "
                    "is replayed in every seating of the bots (each bot at least once), so the "
                    "luck of the deal cancels. Means and win rates are per seat-deal; 95% CIs "
                    "are over deals. Every run is added to the results file, whose openskill "
                    "ratings --ratings lists.")
    sp.add_argument("variant", nargs="?", help="variant name (see 'parlour variants')")
    sp.add_argument("--bots", help=f"two or more bots, comma-separated, from: {', '.join(bot_names())}"
                                   " (a repeated name is a second, separately counted copy)")
    sp.add_argument("--games", type=positive_int, default=100,
                    help="number of deals (default 100; in duplicate mode each is played in "
                         "every seating)")
    sp.add_argument("--duplicate", action="store_true",
                    help="replay every deal in every seating of the bots")
    sp.add_argument("--workers", type=positive_int, default=1,
                    help="processes to play in, or Ray tasks at once with --backend ray "
                         "(the results do not depend on it)")
    sp.add_argument("--backend", choices=BACKENDS, default="local",
                    help="local: processes on this machine (default); ray: Ray tasks on the "
                         "cluster at RAY_ADDRESS, or on a local Ray instance of --workers CPUs "
                         "when it is unset (needs parlour[ray]); the results are the same")
    sp.add_argument("--seed", type=int, default=None,
                    help="master seed: every deal and every bot's choices derive from it "
                         "(default: one drawn at random, printed in the report)")
    sp.add_argument("--players", type=int, default=None, help="number of players")
    sp.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                    help="a variant option, e.g. -o allow_triples=true (repeatable)")
    sp.add_argument("--record", metavar="DIR",
                    help="save every deal played as a JSON deal record in DIR "
                         "(deal-INDEX-SEATING.json; 'parlour replay' replays it)")
    sp.add_argument("--journal", metavar="FILE",
                    help="keep every finished deal in FILE; the same command with the same FILE "
                         "plays only the deals it lacks, so an interrupted run goes on where it "
                         "stopped and a larger --games extends a run (the seed is FILE's when "
                         "--seed is not given)")
    sp.add_argument("--results", metavar="FILE", default=DEFAULT_RESULTS,
                    help=f"the SQLite results file runs are added to (default {DEFAULT_RESULTS})")
    sp.add_argument("--ratings", action="store_true",
                    help="print the leaderboard of the results file instead of playing")
    sp.add_argument("--variant", dest="only_variant", metavar="V",
                    help="with --ratings: only this variant")
    sp.add_argument("--plot", metavar="FILE.png",
                    help="draw rating over games as a PNG (needs parlour[plot])")
    return sp


def run(args: argparse.Namespace, out: TextIO) -> int:
    """Carry out ``parlour arena`` with parsed ``args``; refusals raise :class:`ParlourError`."""
    if args.ratings:
        return _ratings(args, out)
    if args.only_variant is not None:
        raise ParlourError("--variant filters --ratings; to play, name the variant first: "
                           "parlour arena VARIANT --bots a,b")
    if args.variant is None or args.bots is None:
        raise ParlourError("name a variant and the bots: parlour arena VARIANT --bots a,b "
                           "(or --ratings for the leaderboard)")
    from parlour.arena.results import leaderboard, prepare, record_run

    game = game_from_args(args)
    names = [n.strip() for n in args.bots.split(",") if n.strip()]
    seed = args.seed
    if seed is None and args.journal is not None:
        seed = journal_seed(args.journal)
    if seed is None:
        seed = random.SystemRandom().randrange(2**31)
    # Everything that can be refused is refused before the first deal is played.
    lineup(game, names, args.duplicate)
    if args.record:
        record_directory(args.record)
    if args.backend == "ray":
        from parlour.arena.ray_backend import require_ray

        require_ray()
    prepare(check_save_path(args.results))
    if args.plot:
        check_save_path(args.plot)
    with _progress(args.games, f"{game.name} arena", isatty(out)) as advance:
        result = run_arena(game, names, args.games, seed=seed, duplicate=args.duplicate,
                           workers=args.workers, record_dir=args.record, progress=advance,
                           backend=args.backend, journal=args.journal)
    _report(result, out)
    if args.journal is not None:
        out.write(f"\n{result.resumed} of the {result.deals} deals were read from the journal "
                  f"{args.journal}; {result.deals - result.resumed} were played now.\n")
    run_id = record_run(args.results, result)
    standings = leaderboard(args.results, game.name)
    if standings:
        out.write(f"\nRun {run_id} added to {args.results}. Ratings in {game.name}:\n")
        _leaderboard(standings, out)
    else:  # only copies of one bot have played: nothing to rate
        out.write(f"\nRun {run_id} added to {args.results}; it has no rated deal "
                  "(copies of one bot are one player for the ratings).\n")
    if args.plot:
        _plot(args.results, game.name, args.plot, out)
    return 0


def _ratings(args: argparse.Namespace, out: TextIO) -> int:
    from parlour.arena.results import leaderboard

    if args.variant is not None or args.bots is not None:
        raise ParlourError("--ratings lists the results file and plays nothing: drop the variant "
                           "and --bots (filter with --variant V)")
    standings = leaderboard(args.results, args.only_variant)
    if not standings:
        which = f" of {args.only_variant}" if args.only_variant else ""
        raise ParlourError(f"{args.results} holds no rated deal{which}")
    _leaderboard(standings, out)
    if args.plot:
        _plot(args.results, args.only_variant, args.plot, out)
    return 0


def _plot(results: str, variant: str | None, path: str, out: TextIO) -> None:
    from parlour.arena.plot import plot_ratings
    from parlour.arena.results import rating_history

    plot_ratings(rating_history(results, variant), path)
    out.write(f"Rating plot written to {path}\n")


def _report(result: ArenaResult, out: TextIO) -> None:
    game = result.game
    plays = len(all_seatings(len(result.entries), game.players)) if result.duplicate else 1
    how = f" × {plays} seatings (duplicate)" if result.duplicate else " (bots rotated a seat per deal)"
    labels = ", ".join(e.label for e in result.entries)
    out.write(f"{game.name}, {game.players} players, {labels}: {result.deals} deals{how}, "
              f"seed {result.seed}\n\n")
    stats = bot_stats(result)
    # The scores read as at every table: a bot's mean in penalty points where those count
    # (fewer is better); a difference, the penalties the first bot saves (more is better).
    scores = game.scores
    _table(out, ["bot", "seat-deals", "deals", scores.mean_heading, "95% CI", "win rate"], [
        [s.label, str(s.seat_deals), str(s.deals), scores.mean(s.mean, 3),
         scores.interval(s.mean, s.half), f"{s.win_rate:.1%}"] for s in stats])
    what = "penalty points paid (fewer is better)" if scores.penalty else "score"
    out.write(f"Mean {what} and win rate per seat-deal; CIs over deals, each bot's "
              f"seat-returns averaged within a deal first. Win-rate parity "
              f"{1 / game.players:.1%}.\n\n")
    pairs = head_to_head(result)
    if pairs:
        _table(out, ["head to head", "deals", scores.difference_heading, "95% CI"], [
            [f"{p.first} {'v' if scores.penalty else '−'} {p.second}", str(p.deals),
             scores.difference(p.mean),
             scores.interval(p.mean, p.half, difference=True)] for p in pairs])
        out.write("Mean per-deal penalties the first saves against the second" if scores.penalty
                  else "Mean per-deal score difference")
        out.write(" over the deals where both sat.\n")
    splits = split_differences(result)
    if splits:
        first, second = (e.label for e in result.entries)
        out.write("\n")
        _table(out, ["by split of the seats", "deals", scores.difference_heading, "95% CI"], [
            [f"{s.seats} {first} v {s.others} {second}", str(s.difference.deals),
             scores.difference(s.difference.mean),
             scores.interval(s.difference.mean, s.difference.half, difference=True)]
            for s in splits])
        out.write(f"The same difference within each split of the {result.game.players} seats "
                  f"between the two bots.\n")


def _leaderboard(standings: Sequence[Standing], out: TextIO) -> None:
    _table(out, ["variant", "bot", "mu", "sigma", "ordinal", "games"], [
        [s.variant, s.bot, f"{s.mu:.2f}", f"{s.sigma:.2f}", f"{s.ordinal:.2f}", str(s.games)]
        for s in standings])


def _table(out: TextIO, header: Sequence[str], rows: Sequence[Sequence[str]]) -> None:
    """Columns two spaces apart: the first left-aligned, the numbers right-aligned."""
    widths = [max(len(r[i]) for r in [header, *rows]) for i in range(len(header))]
    for row in [header, *rows]:
        cells = [row[0].ljust(widths[0]), *(c.rjust(w) for c, w in zip(row[1:], widths[1:], strict=True))]
        out.write("  ".join(cells).rstrip() + "\n")


@contextlib.contextmanager
def _progress(total: int, label: str, show: bool) -> Iterator[Callable[[int], None]]:
    """A progress bar advanced by a number of deals; stopped (the cursor shown again) however
    the block ends, Ctrl-C included."""
    if not show:
        yield lambda done: None
        return
    from rich.progress import Progress

    bar = Progress(transient=True)
    bar.start()
    try:
        task = bar.add_task(label, total=total)
        yield lambda done: bar.advance(task, done)
    finally:
        bar.stop()
