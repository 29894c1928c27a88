"""The ``parlour`` command: play, simulate, replay, review, list variants, benchmark.

Everything here goes through the generic protocol; nothing is game-specific. The command never
shows a traceback: what the user got wrong is refused with one line saying so, and anything
unexpected becomes one "internal error" line. Exit codes:

====  ======================================================================================
0     done (also after ``quit`` or the end of input at the ``your play>`` prompt)
2     refused: bad arguments, a bad option value, a record that does not verify, a --save
      path that cannot be written
70    internal error (a bug in parlour)
130   interrupted by Ctrl-C (a match being played with --save is saved first)
141   the output was closed early (``parlour bench | head``)
====  ======================================================================================
"""

from __future__ import annotations

import argparse
import contextlib
import functools
import io
import os
import random
import re
import sys
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

import parlour
from parlour.advice import RULE as REVIEW_RULE
from parlour.args import (
    game_from_args,
    isatty,
    option_text,
    pace_seconds,
    positive_int,
    positive_seconds,
)
from parlour.bots import Bot, bot_names, make_bot
from parlour.errors import ParlourError, RecordError, SeatError
from parlour.game import Game, State
from parlour.match import Match
from parlour.records import (
    DEAL_FORMAT,
    check_save_path,
    load,
    replay,
    resume_match,
)
from parlour.registry import OptionInfo, get_variant, new_game, player_counts_text, variants
from parlour.session import HUMAN, TableSession
from parlour.stats import PlayerStats
from parlour.text import clip, sentence
from parlour.tutorial import Coach, Tutorial, tutorial

#: The documented exit codes (see the module docstring).
EXIT_OK, EXIT_REFUSED, EXIT_INTERNAL, EXIT_INTERRUPTED, EXIT_PIPE = 0, 2, 70, 130, 141



# -- argument types: bad values are refused by argparse with the reason -----------------------

def _bot_names(spec: str, count: int) -> list[str]:
    names = [n.strip() for n in spec.split(",") if n.strip()]
    if len(names) == 1:
        names *= count
    if len(names) != count:
        raise ParlourError(f"give {count} bots (one per seat, comma-separated), not {len(names)}")
    return names


def _bots(spec: str, count: int) -> list[Bot]:
    return [make_bot(n) for n in _bot_names(spec, count)]


def _scores(game: Game, head: str, values: Sequence[float], *, total: bool = False) -> str:
    """``head`` and each seat's score (or match ``total``) as every table shows them."""
    names = [game.seat_name(i) for i in range(game.players)]
    return game.scores.line(head, names, values, total=total)


# -- parlour variants ----------------------------------------------------------------------------

def _choice_text(option: OptionInfo, value: Any) -> str:
    """A value as it is typed after ``-o``, with its words where a choice has its own
    (``deals (after a number of deals)``)."""
    text = option_text(value)
    words = option.value_words(value) if option.choices is not None else text
    same = words.lower() == re.sub(r"[-_]", " ", text.lower())  # hong-kong: Hong Kong
    return text if same else f"{text} ({words})"


def cmd_variants(args: argparse.Namespace, out: TextIO) -> int:
    for v in variants():
        counts = player_counts_text(v.players)
        out.write(f"{v.name}  ({counts} players, default {v.default_players})\n")
        out.write(f"    {v.description}\n")
        for o in v.option_info():
            # Values as they are typed after -o (true, hong-kong), not as Python writes them;
            # the option in words as the tables name it, and when it counts at all.
            setting = f"{o.name}={option_text(o.default)}"
            when = "".join(f" (only with -o {name}=" + "|".join(map(option_text, values)) + ")"
                           for name, values in o.applies_when)
            out.write(f"    -o {setting:<34} {o.label}: {o.help} "
                      f"[{o.allowed(functools.partial(_choice_text, o))}]{when}\n")
    return EXIT_OK


# -- parlour play -------------------------------------------------------------------------------

class Prompt:
    """Reads the human's lines. On a terminal it uses ``input()`` with :mod:`readline` (line
    editing and history); otherwise (a pipe, a file, a test) it writes the prompt to ``out`` and
    reads ``inp.readline()``, so that a script sees every prompt in the output it reads."""

    def __init__(self, inp: TextIO, out: TextIO) -> None:
        self.inp = inp
        self.out = out
        self.terminal = inp is sys.stdin and out is sys.stdout and isatty(inp)
        if self.terminal:
            with contextlib.suppress(ImportError):  # absent on some platforms; input() still works
                import readline  # noqa: F401  (importing it is what gives input() editing)

    def ask(self, prompt: str) -> str | None:
        """The next line without its newline, or None at the end of input."""
        if self.terminal:
            try:
                return input(prompt)
            except EOFError:
                return None
        self.out.write(prompt)
        self.out.flush()
        line = self.inp.readline()
        return line.rstrip("\r\n") if line else None


QUIT_WORDS = ("quit", "exit", "q")
HELP_WORDS = ("help", "?", "moves")
HINT_WORDS = ("hint", "h")


class Table:
    """One human seat against bots for a whole match, printed from the human's observation only
    (a plain-text adapter over :class:`~parlour.session.TableSession`).

    Saves the whole match (finished deals and the deal in progress) to ``save_path`` after every
    deal and when the player stops (``quit``, end of input, Ctrl-C), so that
    ``parlour play --resume FILE`` can continue it exactly.

    With a ``coach`` (:mod:`parlour.tutorial`) the match is a tutorial: its notes are printed
    as they arise and the hint at each of the person's turns, and the deal is not counted in
    the person's statistics.
    """

    def __init__(self, match: Match, seats: Sequence[str], prompt: Prompt, out: TextIO,
                 save_path: Path | None, coach: Coach | None = None) -> None:
        # Against a person, searching bots answer within a time limit, not a fixed budget.
        self.session = TableSession(match, seats, save_path=save_path,
                                    stats=None if coach is not None else PlayerStats())
        self.match = match
        self.game = match.game
        self.seat = self.session.humans()[0]
        self.prompt = prompt
        self.out = out
        self.coach = coach

    def run(self) -> int:
        game, out = self.game, self.out
        lesson = " tutorial" if self.coach is not None else ""
        out.write(f"{game.name}{lesson}: you are {game.seat_name(self.seat)}. Type a play in "
                  "the game's notation, 'help' for your legal moves, 'hint' for a hint (again: "
                  "the figures), 'quit' to stop.\n")
        out.write(sentence(game.match_end_text()) + "\n")
        try:
            while not self.match.is_over:
                if not self.play_deal(self.session.start_deal()):
                    self.stop("Stopped.")
                    return EXIT_OK
                if not self.match.is_over and not self.pause():
                    self.stop("Stopped.")
                    return EXIT_OK
        except KeyboardInterrupt:
            self.stop("Interrupted.")
            return EXIT_INTERRUPTED
        except Exception:
            # A bug must not cost the player the match: keep what was played, then report it.
            with contextlib.suppress(Exception):
                self.session.save()
            raise
        winners = ", ".join(game.seat_name(w) for w in self.match.winners())
        out.write(f"\nMatch over after {len(self.match.deals)} deal(s). Winner(s): {winners}\n")
        if self.session.save_path is not None:
            out.write(f"Record saved to {self.session.save_path}\n")
        return EXIT_OK

    def play_deal(self, state: State) -> bool:
        """Play ``state`` to its end and score it; False if the player stops first."""
        game, out, session = self.game, self.out, self.session
        number = session.deal_number
        done = len(state.history)
        resumed = f" (resumed after {done} action(s))" if done else ""
        out.write(f"\n=== Deal {number}{resumed} ===\n")
        self.log(state, 0)
        self.notes(state)
        while not state.is_over:
            if session.bot_to_move():
                turn = session.bot_turn()
                session.apply_turn(turn, turn.think())
            elif not self.human_turn(state):
                return False
            self.log(state, done)
            self.notes(state)
            done += 1
        result = session.finish_deal()
        out.write("\n" + state.observation(self.seat).render() + "\n")
        if result.hands is not None:
            for seat, hand in enumerate(result.hands):
                if hand and seat != self.seat:
                    out.write(f"{game.seat_name(seat)} held {' '.join(map(str, hand))}\n")
        out.write(_scores(game, f"Match standing after deal {number}", result.totals,
                          total=True) + "\n")
        if not result.match_over:
            out.write(sentence(game.match_end_text()) + "\n")
        return True

    def log(self, state: State, start: int) -> None:
        """Print the deal's log from action ``start`` on, as the human's seat sees it."""
        for line in state.observation(self.seat).log_lines(start):
            self.out.write(line + "\n")

    def notes(self, state: State) -> None:
        """Print a tutorial's notes new at this position (none without a coach)."""
        if self.coach is None:
            return
        mine = state.current_player == self.seat and not state.is_over
        for note in self.coach.follow(state.observation(self.seat),
                                      state.legal_actions() if mine else []):
            self.out.write(f"-- {note.title}: {note.text}\n")

    def human_turn(self, state: State) -> bool:
        """Prompt until a legal action is applied; False when the player quits or input ends."""
        self.out.write("\n" + state.observation(self.seat).render() + "\n")
        if self.coach is not None:  # a tutorial shows the hint at every turn
            self.hint()
        while True:
            line = self.prompt.ask("your play> ")
            if line is None:
                return False
            text = line.strip()
            if text.lower() in QUIT_WORDS:
                return False
            if text.lower() in HELP_WORDS:
                self.out.write("legal: " + " | ".join(str(a) for a in state.legal_actions()) + "\n")
                continue
            if text.lower() in HINT_WORDS:
                self.hint()
                continue
            if not text:
                continue
            try:
                self.session.play(self.seat, text)
                return True
            except ParlourError as e:
                self.out.write(f"not allowed: {clip(str(e))}\n")

    def hint(self) -> None:
        """The judge's hint for this decision (:mod:`parlour.advice`); asked again, the figures
        behind it."""
        given = self.session.given_hint()
        if given is not None:
            self.out.write(f"hint: {given.details}\n")
            return
        turn = self.session.hint_turn(self.seat)
        advice = turn.advise()
        self.session.note_hint(turn, advice)
        self.out.write(f"hint: {advice.text} Type: {advice.action}\n")

    def pause(self) -> bool:
        """Wait for Enter before the next deal (on a terminal only); False if the player stops."""
        if not self.prompt.terminal:
            return True
        line = self.prompt.ask("\npress Enter for the next deal ('quit' to stop) ")
        return line is not None and line.strip().lower() not in QUIT_WORDS

    def stop(self, why: str) -> None:
        self.out.write(f"\n{why}\n")
        path = self.session.save()
        if path is not None:
            self.out.write(f"The match so far is saved to {path}; continue it with "
                           f"'parlour play --resume {path}'.\n")
        self.out.flush()


def _seats_from_record(record: dict[str, Any], players: int) -> list[str]:
    """Who sits where, as the record says: :data:`HUMAN` once, a bot name at every other seat."""
    seats = record.get("seats")
    if (not isinstance(seats, list) or len(seats) != players
            or not all(isinstance(s, str) for s in seats) or seats.count(HUMAN) != 1):
        raise RecordError("the record does not say who sits where (a 'seats' list with one "
                          f"{HUMAN!r} and a bot name for each other seat), so it cannot be "
                          "resumed; records saved by 'parlour play --save' can")
    return seats


def cmd_play(args: argparse.Namespace, out: TextIO, inp: TextIO) -> int:
    # The terminal table needs a terminal; a script or a pipe gets the line-based player.
    plain = args.plain or not (inp is sys.stdin and out is sys.stdout and isatty(inp)
                               and isatty(out))
    if args.tutorial:
        return _tutorial(args, plain, out, inp)
    if args.resume is not None:
        given = [flag for flag, value in [
            ("VARIANT", args.variant), ("--players", args.players), ("--option", args.option),
            ("--seed", args.seed), ("--seat", args.seat), ("--bots", args.bots)]
            if value is not None]
        if given:
            raise ParlourError(f"--resume continues the match as recorded (variant, options, seed, "
                               f"seats and bots); drop {', '.join(given)}")
        record = load(args.resume)
        match = resume_match(record)
        seats = _seats_from_record(record, match.game.players)
        save_to = args.save if args.save is not None else args.resume
    else:
        if not args.variant:
            if not plain:  # the table's start screen chooses the game
                save_path = check_save_path(args.save) if args.save is not None else None
                return _table(None, [], save_path, args.pace)
            raise ParlourError("give the variant to play (see 'parlour variants'), or --resume FILE")
        game = game_from_args(args)
        seat = 0 if args.seat is None else args.seat
        if not 0 <= seat < game.players:
            raise SeatError(f"--seat must be 0 to {game.players - 1}, not {seat}")
        seats = _bot_names(args.bots or "greedy", game.players - 1)
        seats.insert(seat, HUMAN)
        match = game.new_match(seed=args.seed)
        save_to = args.save
    # Checked before the first card is dealt, so that no match is played only to be lost.
    save_path = check_save_path(save_to) if save_to is not None else None
    if not plain:
        return _table(match, seats, save_path, args.pace)
    return Table(match, seats, Prompt(inp, out), out, save_path).run()


def _table(match: Match | None, seats: list[str], save_path: Path | None, pace: float,
           lesson: Tutorial | None = None) -> int:
    """Open the terminal table (:mod:`parlour.tui`): at ``match``, at ``lesson`` (a tutorial),
    or at its start screen."""
    from parlour.tui import run  # Textual loads only for the table

    return run(match=match, seats=seats, save_path=save_path, pace=pace, tutorial=lesson)


def _tutorial(args: argparse.Namespace, plain: bool, out: TextIO, inp: TextIO) -> int:
    """``parlour play --tutorial [VARIANT or FAMILY]``: the first-game tutorial's deal, at the
    terminal table or the line-based player."""
    given = [flag for flag, value in [
        ("--players", args.players), ("--option", args.option), ("--seed", args.seed),
        ("--seat", args.seat), ("--bots", args.bots), ("--save", args.save),
        ("--resume", args.resume)] if value is not None]
    if given:
        raise ParlourError(f"--tutorial plays a set deal, seats and bots, and is not saved; "
                           f"drop {', '.join(given)}")
    lesson = tutorial(args.variant)
    if not plain:
        return _table(None, [], None, args.pace, lesson)
    return Table(lesson.match(), lesson.seats(), Prompt(inp, out), out, None,
                 lesson.coach()).run()


# -- parlour simulate ---------------------------------------------------------------------------

def simulate(game: Game, bots: Sequence[Bot], games: int, seed: int,
             progress: bool = False) -> tuple[list[list[float]], list[float]]:
    """Play ``games`` deals in one seating, each dealt and played as the arena's deal of that
    number (:func:`parlour.arena.deals.play_deal`); each seat's returns, and its share of wins
    (ties split)."""
    from parlour.arena.deals import play_deal  # the arena's deals, loaded only when used

    if games < 1:
        raise ParlourError(f"simulate at least 1 deal, not {games}")
    returns: list[list[float]] = [[] for _ in range(game.players)]
    wins = [0.0] * game.players
    with _progress(games, "simulating", progress) as advance:
        for deal in range(games):
            state = play_deal(game, bots, seed, deal)
            for i, r in enumerate(state.returns()):
                returns[i].append(r)
            winners = state.winners()
            for w in winners:
                wins[w] += 1 / len(winners)
            advance()
    return returns, [w / games for w in wins]


@contextlib.contextmanager
def _progress(total: int, label: str, show: bool) -> Iterator[Callable[[], None]]:
    """A progress bar's step function; the bar is stopped (and the cursor shown again) however
    the block ends, Ctrl-C included."""
    if not show:
        yield lambda: None
        return
    from rich.progress import Progress

    with Progress(transient=True) as bar:
        task = bar.add_task(label, total=total)
        yield lambda: bar.advance(task)


def cmd_simulate(args: argparse.Namespace, out: TextIO) -> int:
    from parlour.arena.stats import mean_ci  # the arena's statistics, loaded only when used

    game = game_from_args(args)
    bots = _bots(args.bots, game.players)
    seed = args.seed if args.seed is not None else random.SystemRandom().randrange(2**31)
    returns, wins = simulate(game, bots, args.games, seed, progress=isatty(out))
    out.write(f"{game.name}, {args.games} deals, seed {seed}\n")
    names = [game.seat_name(i) for i in range(game.players)]
    seat_w = max(len("seat"), *map(len, names)) + 2
    bot_w = max(len("bot"), *(len(b.name) for b in bots)) + 2
    scores = game.scores
    rows = []
    for i in range(game.players):
        mean, half = mean_ci(returns[i])
        rows.append((scores.mean(mean, 3), scores.interval(mean, half, 3), f"{wins[i]:.1%}"))
    ci_w = max(len("95% CI"), *(len(r[1]) for r in rows)) + 2
    out.write(f"{'seat':<{seat_w}}{'bot':<{bot_w}}{scores.mean_heading:>12}{'95% CI':>{ci_w}}"
              f"{'win rate':>10}\n")
    for name, bot, (mean_text, ci, win) in zip(names, bots, rows, strict=True):
        out.write(f"{name:<{seat_w}}{bot.name:<{bot_w}}{mean_text:>12}{ci:>{ci_w}}{win:>10}\n")
    return EXIT_OK


# -- parlour replay -----------------------------------------------------------------------------

def cmd_replay(args: argparse.Namespace, out: TextIO) -> int:
    record = load(args.file)
    is_deal = record.get("format") == DEAL_FORMAT
    states = replay(record)
    for n, state in enumerate(states, 1):
        game = state.game
        out.write(f"=== {game.name}, deal {n} ===\n")
        for seat, action in state.history:
            out.write(f"{game.seat_name(seat)}: {action}\n")
        if state.is_over:
            out.write(_scores(game, "Result", state.returns()) + "\n")
        else:
            out.write("(unfinished)\n")
    if not is_deal and states and "totals" in record:
        out.write(_scores(states[0].game, "Match totals", record["totals"], total=True) + "\n")
    return EXIT_OK


# -- parlour review -----------------------------------------------------------------------------

def cmd_review(args: argparse.Namespace, out: TextIO) -> int:
    from parlour.review import review_deals, review_lines, reviewed_seats, reviewer_bot

    record = load(args.file)
    states = replay(record)
    if not states:
        out.write("The record holds no deal to review.\n")
        return EXIT_OK
    seats = reviewed_seats(record, states[0].game) if args.seat is None else args.seat
    decisions = review_deals(states, seats, reviewer_bot(args.level), seed=args.seed)
    judged = sorted({d.seat for d in decisions})
    who = ", ".join(states[0].game.seat_name(s) for s in judged) or "nobody"
    out.write(f"Review of {args.file} by {args.level}: the decisions of {who}; '?' marks a "
              f"mistake: {REVIEW_RULE}\n")
    for line in review_lines(decisions, states[0]):
        out.write(line + "\n")
    return EXIT_OK


# -- parlour stats ------------------------------------------------------------------------------

def cmd_stats(args: argparse.Namespace, out: TextIO) -> int:
    stats = PlayerStats()
    out.write(f"Your statistics ({stats.path}):\n")
    for line in stats.lines():
        out.write(f"  {line}\n")
    return EXIT_OK


# -- parlour bench ------------------------------------------------------------------------------

def cmd_bench(args: argparse.Namespace, out: TextIO) -> int:
    from parlour.bench import machine, run_bench

    out.write(machine() + "\n")
    names = [args.variant] if args.variant else [v.name for v in variants()]
    for name in names:
        get_variant(name)
        game = new_game(name, players=args.players)
        for line in run_bench(game, seconds=args.seconds):
            out.write(line + "\n")
            out.flush()
    return EXIT_OK


# -- entry point --------------------------------------------------------------------------------

class _Parser(argparse.ArgumentParser):
    """argparse's parser, with its error messages cut to a readable length: they quote the
    offending argument, which may be 10,000 characters long. Subcommands' parsers are of the
    same class."""

    def error(self, message: str) -> NoReturn:
        super().error(clip(message))


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="parlour", description="Card games against computer players.",
        epilog="exit codes: 0 done, 2 refused (bad arguments or record), 70 internal error, "
               "130 interrupted, 141 output closed")
    p.add_argument("--version", action="version", version=f"parlour {parlour.__version__}")
    sub = p.add_subparsers(dest="command", required=True)

    def game_args(sp: argparse.ArgumentParser, variant_nargs: str | None = None) -> None:
        sp.add_argument("variant", nargs=variant_nargs, help="variant name (see 'parlour variants')")
        sp.add_argument("--players", type=int, default=None, help="number of players")
        sp.add_argument("--option", "-o", action="append", metavar="NAME=VALUE",
                        help="a variant option, e.g. -o allow_triples=true (repeatable)")
        sp.add_argument("--seed", type=int, default=None, help="seed for the deals and the bots")

    sp = sub.add_parser("play", help="play against computer players at the terminal table")
    game_args(sp, variant_nargs="?")
    sp.add_argument("--seat", type=int, default=None, help="your seat (default 0 = P0)")
    sp.add_argument("--bots", default=None,
                    help="bots for the other seats, e.g. greedy,random,greedy (default greedy)")
    sp.add_argument("--save", metavar="FILE",
                    help="save the match record as JSON: after every deal, and with the deal in "
                         "progress when you stop (quit, end of input, Ctrl-C); checked before the "
                         "first deal")
    sp.add_argument("--resume", metavar="FILE",
                    help="continue the match saved in FILE where it stopped (variant, options, "
                         "seats and bots come from FILE); it is saved back to FILE unless --save "
                         "names another")
    sp.add_argument("--plain", action="store_true",
                    help="the line-based player (for scripts and screen readers) instead of the "
                         "terminal table; used anyway when input or output is not a terminal")
    sp.add_argument("--pace", type=pace_seconds, default=0.8, metavar="SECONDS",
                    help="the table's pause between bots' moves (default 0.8; 0 = instant)")
    sp.add_argument("--tutorial", action="store_true",
                    help="a first game with the rules explained as they arise and the hint "
                         "shown at every turn: one set deal of VARIANT, or of the simplest "
                         "game of a family named instead (default: the family of the game a "
                         "table starts with)")

    sp = sub.add_parser("simulate", help="bots against bots: mean scores and win rates")
    game_args(sp)
    sp.add_argument("--games", type=positive_int, default=1000, help="number of deals (at least 1)")
    sp.add_argument("--bots", required=True, help=f"one bot per seat, from: {', '.join(bot_names())}")

    from parlour.arena import cli as arena_cli  # its own module: bots against bots at scale

    arena_cli.add_parser(sub)

    sp = sub.add_parser("replay", help="replay a saved deal or match record, verifying it")
    sp.add_argument("file")

    sp = sub.add_parser("review", help="each decision of a saved deal or match judged as the "
                                       "hints judge: the move made, the judge's move, and the "
                                       "points lost by each mistake",
                        description="Each decision of a saved deal or match judged as the hints "
                                    "judge it (the same position always gets the same "
                                    "judgement); " + REVIEW_RULE + ".")
    sp.add_argument("file")
    sp.add_argument("--seat", type=int, action="append", default=None,
                    help="a seat to review (repeatable; default: the person's seat the record "
                         "names, or every seat)")
    sp.add_argument("--level", default="expert", choices=("medium", "hard", "expert"),
                    help="the searching level that judges (default expert)")
    sp.add_argument("--seed", type=int, default=0,
                    help="seed for the trial deals, with each position (default 0: the hints')")

    sub.add_parser("stats", help="your statistics: deals, wins and points per variant and "
                                 "opponents, kept on this computer")

    sub.add_parser("variants", help="list the variants and their options")

    sp = sub.add_parser("bench", help="engine speed: random-play games per second and more")
    sp.add_argument("variant", nargs="?", help="one variant (default: all)")
    sp.add_argument("--players", type=int, default=None)
    sp.add_argument("--seconds", type=positive_seconds, default=3.0,
                    help="time per measurement (a finite number above 0)")

    from parlour.web import serve as web_serve  # its own module: the web table and its clients

    web_serve.add_parsers(sub)
    return p


def main(argv: Sequence[str] | None = None, out: TextIO | None = None,
         inp: TextIO | None = None) -> int:
    """Run the command with ``argv``; everything it prints goes to ``out`` (errors to stderr)
    and the human's lines come from ``inp``. Returns the exit code."""
    out = sys.stdout if out is None else out
    # sys.stdin is None when the process was started with its standard input closed.
    inp = (sys.stdin or io.StringIO()) if inp is None else inp
    for stream in (inp, out):
        if stream in (sys.stdin, sys.stdout) and isinstance(stream, io.TextIOWrapper):
            # Bytes piped in that are not text become U+FFFD (refused like any bad move), and
            # a character the terminal's encoding lacks is printed as "?", instead of failing.
            stream.reconfigure(errors="replace")
    try:
        with contextlib.redirect_stdout(out):  # --help and usage go where the rest goes
            args = build_parser().parse_args(argv)
    except SystemExit as e:  # argparse has printed the usage and the reason (or the help)
        return e.code if isinstance(e.code, int) else EXIT_REFUSED
    try:
        if args.command == "play":
            return cmd_play(args, out, inp)
        if args.command == "simulate":
            return cmd_simulate(args, out)
        if args.command == "arena":
            from parlour.arena import cli as arena_cli

            return arena_cli.run(args, out)
        if args.command == "replay":
            return cmd_replay(args, out)
        if args.command == "review":
            return cmd_review(args, out)
        if args.command == "stats":
            return cmd_stats(args, out)
        if args.command == "variants":
            return cmd_variants(args, out)
        if args.command in ("serve", "client"):
            from parlour.web import serve as web_serve

            return web_serve.run(args, out)
        return cmd_bench(args, out)
    except ParlourError as e:
        sys.stderr.write(f"parlour: {clip(str(e))}\n")
        return EXIT_REFUSED
    except KeyboardInterrupt:
        sys.stderr.write("\nparlour: interrupted\n")
        return EXIT_INTERRUPTED
    except BrokenPipeError:
        # Whoever read the output has gone (``parlour bench | head``). Point stdout at nothing
        # so that Python's final flush does not report the broken pipe again.
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return EXIT_PIPE
    except Exception as e:  # the last line of defence: a bug, reported in one line
        sys.stderr.write(f"parlour: internal error: {type(e).__name__}: {clip(str(e))}\n")
        return EXIT_INTERNAL


if __name__ == "__main__":
    raise SystemExit(main())
