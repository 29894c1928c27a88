"""The ``parlour`` command: whole matches through stdin, saving and resuming, what the human is
shown, simulate, replay, variants, bench, and each refused argument with its own message."""

from __future__ import annotations

import io
import json
import os
import random
import re
import select
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import parlour
import parlour.advice
from helpers import hidden_now
from parlour import cli
from parlour.bots import make_bot
from parlour.cli import main
from parlour.records import load
from parlour.text import sentence

#: A short match of every variant, with the options that keep it short.
SHORT: dict[str, list[str]] = {
    "big-two-4card": ["-o", "deals=2"],
    "big-two": ["-o", "match_end=deals", "-o", "deals=2"],
    "pusoy-dos": ["-o", "deals=2"],
    "forty-five": ["-o", "target=10"],
    "spoil-five": ["-o", "deals=2", "--players", "3"],
    "rummy": ["-o", "series_target=60", "-o", "turn_limit=40", "--players", "3"],
}


class Stop(Exception):
    """How a scripted player stops: ``quit``, the end of input, or Ctrl-C."""


class ScriptedPlayer(io.StringIO):
    """Stands in for stdin, reading what the command has written so far: asks ``help`` for the
    legal moves, then plays one of the listed moves (the first, or one drawn from ``rng``).

    ``bad`` is sent once, the first time moves are listed. ``stop_after`` moves, the player
    stops as ``stop`` says: ``"quit"``, ``"eof"`` (an empty read) or ``"interrupt"`` (raises
    KeyboardInterrupt, as Ctrl-C does). ``marks`` holds the length of the output when each move
    was sent; ``on_read`` is called with the output before every read.
    """

    def __init__(self, out: io.StringIO, rng: random.Random | None = None, bad: str | None = None,
                 stop_after: int | None = None, stop: str = "quit",
                 on_read: Callable[[str], None] | None = None) -> None:
        super().__init__()
        self.out = out
        self.rng = rng
        self.bad = bad
        self.stop_after = stop_after
        self.stop = stop
        self.on_read = on_read
        self.seen = 0
        self.marks: list[int] = []

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        text = self.out.getvalue()
        if self.on_read:
            self.on_read(text)
        new, self.seen = text[self.seen:], len(text)
        if self.stop_after is not None and len(self.marks) == self.stop_after:
            if self.stop == "interrupt":
                raise KeyboardInterrupt
            return "" if self.stop == "eof" else "quit\n"
        legal: list[str] = re.findall(r"^legal: (.*)$", new, re.M)
        if not legal:
            return "help\n"
        if self.bad is not None:
            bad, self.bad = self.bad, None
            return bad + "\n"
        moves = legal[-1].split(" | ")
        self.marks.append(len(text))
        return (self.rng.choice(moves) if self.rng else moves[0]) + "\n"


def play(argv: list[str], player: Callable[[io.StringIO], ScriptedPlayer] = ScriptedPlayer,
         ) -> tuple[int, str, ScriptedPlayer]:
    """Run ``parlour play …`` in this process with a scripted player; (code, output, player)."""
    out = io.StringIO()
    inp = player(out)
    code = main(["play", "--plain", *argv], out=out, inp=inp)
    return code, out.getvalue(), inp


# -- playing --------------------------------------------------------------------------------------

@pytest.mark.parametrize("variant", ["big-two-4card", "big-two", "pusoy-dos"])
def test_play_a_whole_match_through_stdin(variant: str, tmp_path: Path) -> None:
    record = tmp_path / "match.json"
    code, text, player = play([variant, "--seed", "4", "--seat", "1", "--bots",
                               "greedy,random,greedy", *SHORT[variant], "--save", str(record)],
                              lambda out: ScriptedPlayer(out, bad="2X"))
    assert code == 0
    assert "not allowed: '2X' is not a card" in text  # re-prompted with the reason
    assert player.marks
    assert "Your hand:" in text and "Match over after 2 deal(s). Winner(s):" in text
    saved = load(record)
    assert saved["format"] == "parlour-match/1" and saved["over"] is True
    assert saved["seats"] == ["greedy", "human", "random", "greedy"]
    replayed = io.StringIO()
    assert main(["replay", str(record)], out=replayed) == 0
    assert re.search(r"^Result, (points|penalties): ", replayed.getvalue(), re.M)


def test_play_tells_what_ends_the_match_at_the_start_and_after_each_deal() -> None:
    code, text, _ = play(["forty-five", "--seed", "3", "-o", "target=15", "--bots", "random"])
    assert code == 0
    end = sentence(parlour.new_game("forty-five", target=15).match_end_text())
    deals = len(re.findall(r"^=== Deal \d+ ===$", text, re.M))
    assert deals >= 2
    intro, _, rest = text.partition("=== Deal 1 ===")
    assert end in intro
    # After every deal but the last, the standing and what ends the match.
    standings = re.findall(r"^Match standing after deal (\d+), .*\n(.*)$", rest, re.M)
    assert [int(n) for n, _ in standings] == list(range(1, deals + 1))
    assert [line == end for _, line in standings] == [True] * (deals - 1) + [False]


def test_a_refused_long_line_is_echoed_cut_short() -> None:
    out = io.StringIO()
    assert main(["play", "--plain", "big-two", "--seed", "1"], out=out,
                inp=io.StringIO("x" * 10_000 + "\n" + "3D " * 3000 + "\n")) == 0
    refusals = re.findall(r"not allowed: .*", out.getvalue())
    assert len(refusals) == 2
    assert all(len(line) < 400 for line in refusals)
    assert "x" * 39 + "…" in refusals[0] and "x" * 41 not in refusals[0]


def test_the_plain_player_gives_hints_and_their_figures() -> None:
    """``hint`` at the prompt: the judge's move and how sure it is, then (asked again) the
    figures behind it; typing the move it names plays it."""
    out = io.StringIO()
    state = parlour.new_game("rummy").new_match(seed=3).next_deal()
    expected = parlour.advice.hint(state.observation(0), state.legal_actions())
    assert main(["play", "--plain", "rummy", "--seed", "3", "--bots", "greedy"], out=out,
                inp=io.StringIO(f"hint\nh\n{expected.action}\nquit\n")) == 0
    text = out.getvalue()
    assert f"hint: {expected.text} Type: {expected.action}\n" in text
    assert f"hint: {expected.details}\n" in text
    assert "not allowed" not in text and "is not a card" not in text
    assert len(re.findall(r"^your play> ", text, re.M)) == 4  # the hint's move was played


# -- what the human is shown ----------------------------------------------------------------------

def _card_pattern(card: parlour.Card) -> re.Pattern[str]:
    return re.compile(rf"(?<![0-9A-Za-z]){re.escape(str(card))}(?![0-9A-Za-z])")


def _hidden_stretches(deal: dict[str, Any], seat: int) -> list[set[parlour.Card]]:
    """For each stretch of a deal between two moves of ``seat`` (and before the first, and after
    the last), the cards hidden from ``seat`` at every step of it."""
    game = parlour.new_game(deal["variant"], players=deal["players"], **deal["options"])
    state = game.new_deal(**deal["setup"])
    actions = deal["actions"]
    turns = [i for i, (s, _) in enumerate(actions) if s == seat]
    stretches = []
    at = 0
    for low, high in zip([0, *(t + 1 for t in turns)], [*turns, len(actions)], strict=True):
        while at < low:  # the seat's own move
            state.apply(actions[at][1])
            at += 1
        hidden = set(hidden_now(state, seat))
        while at < high:
            state.apply(actions[at][1])
            at += 1
            hidden &= set(hidden_now(state, seat))
        stretches.append(hidden)
    return stretches


@pytest.mark.parametrize("variant", list(SHORT))
def test_play_never_shows_a_card_hidden_from_the_human(variant: str, tmp_path: Path) -> None:
    """The output printed between two moves of the human names no card that was hidden from the
    human throughout that stretch (another seat's hand or robbed discard, the stock)."""
    record = tmp_path / "m.json"
    code, text, player = play([variant, "--seed", "21", "--seat", "1", "--bots", "greedy",
                               *SHORT[variant], "--save", str(record)],
                              lambda out: ScriptedPlayer(out, rng=random.Random(5)))
    assert code == 0
    deals = load(record)["deals"]
    starts = [m.start() for m in re.finditer(r"^=== Deal \d+", text, re.M)]
    assert len(starts) == len(deals)
    marks = iter(player.marks)
    checked = 0
    for n, deal in enumerate(deals):
        stretches = _hidden_stretches(deal, 1)
        end = starts[n + 1] if n + 1 < len(starts) else len(text)
        cuts = [starts[n], *(next(marks) for _ in stretches[1:]), end]
        for k, hidden in enumerate(stretches):
            piece = text[cuts[k]:cuts[k + 1]]
            shown = [str(c) for c in hidden if _card_pattern(c).search(piece)]
            assert not shown, f"deal {n + 1}: {shown} shown while hidden:\n{piece}"
            checked += len(hidden)
    assert checked > 0


# -- saving and resuming --------------------------------------------------------------------------

@pytest.mark.parametrize("where", ["/nonexistent/dir/x.json", "DIR"])
def test_save_path_is_checked_before_the_first_deal(where: str, tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    path = str(tmp_path) if where == "DIR" else where
    code, text, player = play(["big-two", "--seed", "1", "--save", path])
    assert code == 2
    assert "=== Deal" not in text and not player.marks
    err = capsys.readouterr().err
    assert err.startswith(f"parlour: cannot save to {path}: ") and err.count("\n") == 1
    assert ("is a directory" if where == "DIR" else "does not exist") in err


def test_the_record_is_saved_after_every_deal(tmp_path: Path) -> None:
    """A crash during a deal loses at most that deal: the finished ones are on disk already."""
    record = tmp_path / "m.json"
    on_disk: dict[int, int] = {}

    def look(text: str) -> None:
        deal = text.count("=== Deal ")
        if deal not in on_disk and record.exists():
            on_disk[deal] = len(load(record)["deals"])

    code, _, _ = play(["big-two-4card", "--seed", "2", "-o", "deals=3", "--bots", "random",
                       "--save", str(record)], lambda out: ScriptedPlayer(out, on_read=look))
    assert code == 0
    assert on_disk == {2: 1, 3: 2}  # while deal n is played, the n - 1 deals before it are saved


@pytest.mark.parametrize(("variant", "stop", "after"), [
    ("big-two-4card", "quit", 3),
    ("big-two-4card", "eof", 9),
    ("spoil-five", "interrupt", 6),
    ("rummy", "quit", 25),
    ("forty-five", "interrupt", 2),
])
def test_a_stopped_match_is_saved_whole_and_resumes_exactly(
        variant: str, stop: str, after: int, tmp_path: Path) -> None:
    args = [variant, "--seed", "6", "--bots", "greedy", *SHORT[variant]]
    whole = tmp_path / "whole.json"
    assert play([*args, "--save", str(whole)])[0] == 0

    part = tmp_path / "part.json"
    code, text, _ = play([*args, "--save", str(part)],
                         lambda out: ScriptedPlayer(out, stop_after=after, stop=stop))
    assert code == (130 if stop == "interrupt" else 0)
    assert f"continue it with 'parlour play --resume {part}'" in text
    stopped = load(part)
    last = stopped["deals"][-1]
    assert last["result"] is None and last["actions"]  # the deal in progress is in the record
    assert stopped["over"] is False

    code, text, _ = play(["--resume", str(part)])
    assert code == 0
    assert f"=== Deal {len(stopped['deals'])} (resumed after {len(last['actions'])} action(s)) ===" in text
    assert load(part) == load(whole)  # saved back to the resumed file, same as never stopped


def test_resume_takes_everything_from_the_record(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    part = tmp_path / "part.json"
    play(["big-two", "--seed", "1", "--save", str(part)],
         lambda out: ScriptedPlayer(out, stop_after=1))
    assert play(["--resume", str(part), "--seat", "2"])[0] == 2
    assert "--resume continues the match as recorded" in capsys.readouterr().err
    data = json.loads(part.read_text())
    del data["seats"]
    part.write_text(json.dumps(data))
    assert play(["--resume", str(part)])[0] == 2
    assert "does not say who sits where" in capsys.readouterr().err
    assert play([])[0] == 2
    assert "give the variant to play" in capsys.readouterr().err


def test_play_stops_cleanly_when_input_ends(tmp_path: Path) -> None:
    out = io.StringIO()
    saved = tmp_path / "m.json"
    assert main(["play", "--plain", "big-two", "--seed", "1", "--save", str(saved)], out=out,
                inp=io.StringIO("")) == 0
    assert "Stopped." in out.getvalue()
    assert load(saved)["deals"][0]["result"] is None


# -- on a terminal --------------------------------------------------------------------------------

class Terminal:
    """``python -m parlour …`` on a pseudo-terminal, read and typed into like a person would."""

    def __init__(self, argv: list[str]) -> None:
        import pty

        self.master, slave = pty.openpty()
        env = {**os.environ, "TERM": "xterm", "COLUMNS": "120"}
        # Ctrl-C as on a real terminal, even where the tests run with SIGINT ignored (started in
        # the background by a shell without job control), which the program would inherit.
        self.proc = subprocess.Popen([sys.executable, "-m", "parlour", *argv], stdin=slave,
                                     stdout=slave, stderr=slave, env=env, close_fds=True,
                                     preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        os.close(slave)
        self.text = ""

    def expect(self, pattern: str, seconds: float = 60) -> re.Match[str]:
        """Read until ``pattern`` appears in what is new since the last match."""
        found = self.wait_for(pattern, seconds)
        assert found, f"no {pattern!r} in:\n{self.text[-2000:]}"
        return found

    def wait_for(self, pattern: str, seconds: float) -> re.Match[str] | None:
        """Like :meth:`expect`, but None if ``pattern`` has not appeared after ``seconds``."""
        deadline = time.monotonic() + seconds
        while not (found := re.search(pattern, self.text)):
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.master], [], [], left)[0]:
                return None
            try:
                self.text += os.read(self.master, 65536).decode(errors="replace")
            except OSError:  # the program has ended and closed the terminal
                return re.search(pattern, self.text)
        self.text = self.text[found.end():]
        return found

    def type(self, keys: str) -> None:
        os.write(self.master, keys.encode())

    def close(self) -> int:
        code = self.proc.wait(timeout=60)
        os.close(self.master)
        return code


def test_on_a_terminal_lines_are_edited_deals_pause_and_ctrl_c_saves(tmp_path: Path) -> None:
    record = tmp_path / "m.json"
    term = Terminal(["play", "--plain", "big-two-4card", "--seed", "5", "-o", "deals=2", "--bots", "random",
                     "--save", str(record)])
    try:
        term.expect(r"your play> ")
        term.type("help\r")
        term.expect(r"legal: .*\n.*your play> ")
        term.type("\x1b[A\r")  # up-arrow recalls 'help' from the line history
        answer = term.expect(r"legal: ([^\r\n]*)\r\n|not allowed[^\r\n]*")
        assert answer.group().startswith("legal: ")
        moves = answer.group(1)
        while True:  # play the first deal out
            term.expect(r"your play> ")
            term.type(moves.split(" | ")[0] + "\r")
            seen = term.expect(r"your play> |press Enter for the next deal")
            if seen.group().startswith("press"):
                break
            term.type("help\r")
            moves = term.expect(r"legal: ([^\r\n]*)\r\n").group(1)
        assert len(load(record)["deals"]) == 1
        term.type("\r")
        term.expect(r"=== Deal 2 ===")
        term.expect(r"your play> ")
        # Ctrl-C. A signal that lands while readline is busy (not waiting for a key) is only
        # noticed at the next key or signal, as on a real terminal: press it again if need be.
        for _ in range(10):
            term.proc.send_signal(signal.SIGINT)
            if term.wait_for(r"saved to .*resume", 3):
                break
        else:
            raise AssertionError(f"Ctrl-C did not stop the match:\n{term.text[-2000:]}")
        assert term.close() == 130
    finally:
        if term.proc.poll() is None:
            term.proc.kill()
    saved = load(record)
    assert len(saved["deals"]) == 2 and saved["deals"][1]["result"] is None


def test_the_plain_player_gives_searching_bots_a_time_limit() -> None:
    # Against a person a searching level answers within its time per move, not after a fixed
    # number of rollouts (which the rare long Rummy position would stretch to seconds).
    out = io.StringIO()
    match = parlour.new_game("big-two").new_match(seed=1)
    table = cli.Table(match, [cli.HUMAN, "medium", "greedy", "expert"],
                      cli.Prompt(io.StringIO(), out), out, None)
    def budget(bot: object) -> tuple[object, object]:
        config = getattr(bot, "config", None)
        return getattr(config, "iterations", None), getattr(config, "time_limit", None)

    expected = [None, *(make_bot(n, interactive=True) for n in ("medium", "greedy", "expert"))]
    assert [budget(b) for b in table.session.bots] == [budget(b) for b in expected]
    assert budget(table.session.bots[1]) != budget(make_bot("medium"))  # no fixed rollout count
    assert [b.name if b else None for b in table.session.bots] == [None, "medium", "greedy", "expert"]


# -- simulate, replay, variants, bench -------------------------------------------------------------

def test_simulate_reports_means_intervals_and_win_rates() -> None:
    out = io.StringIO()
    assert main(["simulate", "big-two-4card", "--games", "40", "--bots", "greedy,random,random,random",
                 "--seed", "3"], out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "big-two-4card, 40 deals, seed 3"
    assert lines[1].split() == ["seat", "bot", "mean", "score", "95%", "CI", "win", "rate"]
    rows = [line.split() for line in lines[2:]]
    assert [r[1] for r in rows] == ["greedy", "random", "random", "random"]
    # Aligned: every column starts (or, for numbers, ends) where its heading does.
    assert {line.index(r[1]) for line, r in zip(lines[2:], rows, strict=True)} == {lines[1].index("bot")}
    assert {len(line) for line in lines[1:]} == {len(lines[1])}
    means = [float(r[2]) for r in rows]
    assert sum(means) == pytest.approx(0, abs=1e-9)  # zero-sum scoring
    assert sum(float(r[-1].rstrip("%")) for r in rows) == pytest.approx(100, abs=0.2)


def test_simulate_is_reproducible_with_a_seed() -> None:
    runs = []
    for _ in range(2):
        out = io.StringIO()
        main(["simulate", "pusoy-dos", "--games", "10", "--bots", "random", "--seed", "8"], out=out)
        runs.append(out.getvalue())
    assert runs[0] == runs[1]


def test_ctrl_c_in_simulate_stops_the_progress_bar(monkeypatch: pytest.MonkeyPatch) -> None:
    """The bar hides the cursor while it runs; an interrupted simulation must show it again."""
    import rich
    from rich.console import Console

    screen = io.StringIO()
    monkeypatch.setattr(rich, "_console", Console(file=screen, force_terminal=True))
    greedy = make_bot("greedy")
    calls = 0

    class Interrupted(type(greedy)):  # type: ignore[misc]
        def choose(self, *args: Any) -> Any:
            nonlocal calls
            calls += 1
            if calls == 200:
                raise KeyboardInterrupt
            return super().choose(*args)

    game = parlour.new_game("big-two")
    with pytest.raises(KeyboardInterrupt):
        cli.simulate(game, [Interrupted()] * 4, 1000, seed=1, progress=True)
    hide, show = "\x1b[?25l", "\x1b[?25h"
    assert hide in screen.getvalue()
    assert screen.getvalue().rindex(show) > screen.getvalue().rindex(hide)


def _scores_in(line: str) -> tuple[str, list[str]]:
    """What a line of scores counts and each seat's figure: ``"Result, penalties: P0 7, P1 0"``
    gives ``("penalties", ["7", "0"])``."""
    counts, figures = line.split(", ", 1)[1].split(": ", 1)
    return counts, [pair.rsplit(" ", 1)[1] for pair in figures.split(" — ")[0].split(", ")]


def _web_result(record: dict[str, Any], deal: int) -> dict[str, Any]:
    """The web table's result of the record's deal number ``deal``: the record's match played
    to that deal's end at a web table (its seed and seats, the record's moves)."""
    from parlour.web.settings import Settings
    from parlour.web.store import Store
    from parlour.web.tables import Seat, Table, Tables

    game = parlour.new_game(record["variant"], players=record["players"], **record["options"])
    tables = Tables(Store("sqlite://"), Settings())
    try:
        seats = [Seat(s, "human", None, "Ann", "hash") if name == "human"
                 else Seat(s, "bot", name, name, None) for s, name in enumerate(record["seats"])]
        table = Table(tables, "t", game, record["seed"], seats)
        for played in record["deals"][:deal]:
            table.match.next_deal()
            for seat, action in played["actions"]:
                table.session.play(seat, action)
            table.session.finish_deal()
        result = table.result()
        assert result is not None
        return {**result, "info": table.info()}
    finally:
        tables.close()


@pytest.mark.parametrize("variant", ["big-two", "spoil-five", "rummy"])
def test_a_deals_scores_read_the_same_in_replay_the_plain_table_and_the_web(
        variant: str, tmp_path: Path) -> None:
    """Big Two's penalties, Spoil Five's chips and Rummy's points: a deal's scores and the
    match totals are the same figures, counting the same thing, in ``parlour replay``, at the
    plain table and in the web table's result; penalties are counted up, as the game's own
    text counts them, never as negative numbers."""
    path = tmp_path / "match.json"
    code, text, _ = play([variant, "--seed", "4", "--bots", "greedy", *SHORT[variant],
                          "--save", str(path)])
    assert code == 0
    record = load(path)
    replayed = io.StringIO()
    assert main(["replay", str(path)], out=replayed) == 0
    results = re.findall(r"^Result, .*$", replayed.getvalue(), re.M)
    [totals] = re.findall(r"^Match totals, .*$", replayed.getvalue(), re.M)
    standings = re.findall(r"^Match standing after deal \d+, .*$", text, re.M)
    assert len(results) == len(standings) == len(record["deals"]) >= 1
    counts = {"big-two": "penalties", "spoil-five": "chips", "rummy": "points"}[variant]
    # The match totals: the plain table's after the last deal, replay's, the web's.
    assert _scores_in(standings[-1]) == _scores_in(totals)
    web = _web_result(record, len(record["deals"]))
    assert web["info"]["scores"]["totals"] == _scores_in(totals)[1]
    assert web["info"]["scores"]["counts"] == counts
    # The first deal's scores: replay's, and the web's, in its summary and its table.
    web = _web_result(record, 1)
    assert _scores_in(results[0]) == _scores_in(web["summary"]) == (counts, web["scores"]["deal"])
    assert _scores_in(standings[0])[1] == web["scores"]["totals"]
    if variant == "big-two":
        # The game's own words at the end of the deal say the same penalties.
        said = re.search(r"penalties: (.*)$", text, re.M)
        assert said is not None
        assert _scores_in("deal, penalties: " + said.group(1))[1] == _scores_in(results[0])[1]
        assert not any(figure.startswith("-") for line in (*results, totals, web["summary"])
                       for figure in _scores_in(line)[1])


def test_replay_refuses_a_tampered_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "m.json"
    play(["big-two-4card", "--seed", "2", "-o", "deals=1", "--bots", "random", "--save", str(path)])
    data = json.loads(path.read_text())
    data["deals"][0]["result"][0] += 1
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 2
    assert "the record says" in capsys.readouterr().err
    data["deals"][0]["actions"][3][1] = "2X"
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 2
    assert capsys.readouterr().err.startswith("parlour: deal 1: action 4 (2X)")


def test_variants_lists_every_variant_with_options() -> None:
    out = io.StringIO()
    assert main(["variants"], out=out) == 0
    text = out.getvalue()
    for v in parlour.variants():
        assert re.search(rf"^{v.name}  \(", text, re.M)
    # Each option as it is typed after -o, and what it may be.
    assert re.search(r"-o allow_triples=false +Allow three of a kind: .*\[true or false\]$",
                     text, re.M)
    assert re.search(r"-o straights=standard +Straights: .*\[standard or hong-kong\]$", text, re.M)
    # A choice that is a code says it in words too.
    assert "[penalty-limit (at the penalty limit) or deals (after a number of deals)]" in text
    # An option that counts only under another's value says so.
    assert re.search(r"-o deals=10 +Number of deals: .*\(only with -o match_end=deals\)$",
                     text, re.M)


def test_bench_prints_figures_for_a_variant() -> None:
    out = io.StringIO()
    assert main(["bench", "big-two-4card", "--seconds", "0.05"], out=out) == 0
    text = out.getvalue()
    assert re.match(r"machine: .+, \d+ cores for this process\n", text)
    assert re.search(r"random play: +[\d,]+ deals/s", text)
    assert "all leads of a 13-card hand" in text
    assert re.search(r"batched env: +[\d,]+ agent steps/s", text)


# -- refused arguments: each with its own message, never a traceback ------------------------------

@pytest.mark.parametrize(("argv", "message"), [
    (["simulate", "big-two", "--games", "1", "--bots", "greedy,random"], "give 4 bots"),
    (["simulate", "big-two", "--games", "1", "--bots", "wizard"], "unknown bot 'wizard'"),
    (["play", "big-two", "-o", "allow_triples=maybe"],
     "Allow three of a kind (allow_triples) must be true or false, not maybe"),
    (["play", "big-two", "-o", "deals=5"],
     "Number of deals (-o deals) counts only when Match ends is after a number of deals "
     "(-o match_end=deals)"),
    (["play", "pusoy-dos", "-o", "scoring=penalty", "-o", "control_after_out=standard"],
     "When a player goes out (-o control_after_out) counts only when Scoring is by place"),
    (["play", "big-two", "-o", "players=99"], "give it as --players N"),
    (["play", "big-two", "--seat", "4"], "--seat must be 0 to 3, not 4"),
    (["play", "big-two", "-o", "match_end=deals", "-o", "deals=" + "9" * 5000],
     "Number of deals (deals) must be a whole number from 1 to 1000, not 99999"),
    (["play", "spoil-five", "-o", "starting_chips=1", "-o", "ante=100"], "ante"),
    (["simulate", "big-two", "--games", "0", "--bots", "random"], "at least 1, not 0"),
    (["simulate", "big-two", "--games", "-5", "--bots", "random"], "at least 1, not -5"),
    (["simulate", "big-two", "--games", "many", "--bots", "random"], "expected a whole number"),
    (["bench", "--seconds", "nan"], "finite number of seconds above 0, not nan"),
    (["bench", "--seconds", "inf"], "finite number of seconds above 0, not inf"),
    (["bench", "--seconds", "0"], "finite number of seconds above 0, not 0.0"),
    (["bench", "--seconds", "-1"], "finite number of seconds above 0, not -1.0"),
    (["replay", "/nonexistent.json"], "cannot read /nonexistent.json"),
    (["frobnicate"], "invalid choice: 'frobnicate'"),
])
def test_bad_arguments_give_their_own_message(argv: list[str], message: str,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    assert main(argv, out=io.StringIO(), inp=io.StringIO("")) == 2
    err = capsys.readouterr().err
    assert message in err
    assert "Traceback" not in err and "internal error" not in err
    assert all(len(line) < 400 for line in err.splitlines())


def test_replay_of_a_binary_file_or_a_null_action(tmp_path: Path,
                                                   capsys: pytest.CaptureFixture[str]) -> None:
    binary = tmp_path / "b.json"
    binary.write_bytes(bytes(range(256)) * 4)
    assert main(["replay", str(binary)]) == 2
    assert "not text" in capsys.readouterr().err
    path = tmp_path / "m.json"
    play(["big-two", "--seed", "3", "--save", str(path)], lambda out: ScriptedPlayer(out, stop_after=2))
    data = json.loads(path.read_text())
    data["deals"][0]["actions"][0] = None
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 2
    assert "deal 1: action 1 is None" in capsys.readouterr().err


def test_an_unexpected_error_is_one_line_and_exit_code_70(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    def broken(*args: object) -> int:
        raise RuntimeError("something nobody expected")

    monkeypatch.setattr(cli, "cmd_variants", broken)
    assert main(["variants"]) == 70
    assert capsys.readouterr().err == (
        "parlour: internal error: RuntimeError: something nobody expected\n")


def test_help_and_python_dash_m() -> None:
    out = io.StringIO()
    assert main(["play", "--help"], out=out) == 0
    assert "--resume FILE" in out.getvalue() and "saved back to FILE" in out.getvalue()
    result = subprocess.run([sys.executable, "-m", "parlour", "variants"],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "pusoy-dos" in result.stdout


# -- review ---------------------------------------------------------------------------------------

def test_review_judges_each_decision_of_the_person_in_a_saved_match(tmp_path: Path) -> None:
    from parlour.records import replay_match
    from parlour.review import review_lines, review_record, reviewer_bot

    record = tmp_path / "match.json"
    code, _, _ = play(["forty-five", "--seed", "6", "--seat", "2", "-o", "target=15",
                       "--save", str(record)])
    assert code == 0
    out = io.StringIO()
    assert main(["review", str(record), "--level", "medium", "--seed", "3"], out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0].startswith(f"Review of {record} by medium: the decisions of P2")
    saved = load(record)
    decisions = review_record(saved, None, reviewer_bot("medium"), seed=3)
    assert decisions and {d.seat for d in decisions} == {2}
    assert lines[1:] == review_lines(decisions, replay_match(saved)[0])
    marks = [line.startswith("?") for line in lines[1:-1]]  # the last line is the total
    assert marks == [d.mistake for d in decisions]
    # Another seat on request; a seat the game lacks is refused.
    other = io.StringIO()
    assert main(["review", str(record), "--level", "medium", "--seat", "1"], out=other) == 0
    assert "the decisions of P1" in other.getvalue()
    assert main(["review", str(record), "--seat", "7"], out=io.StringIO()) == 2


# -- statistics -----------------------------------------------------------------------------------

def test_finished_deals_count_in_the_players_statistics(own_statistics: Path) -> None:
    code, _, _ = play(["big-two-4card", "--seed", "4", "--bots", "greedy,random,greedy",
                       "-o", "deals=2"])
    assert code == 0
    out = io.StringIO()
    assert main(["stats"], out=out) == 0
    text = out.getvalue()
    assert str(own_statistics) in text
    assert "big-two-4card against greedy, random: 2 deals, won " in text
    assert "matches " in text and " won of 1" in text
    again, _, _ = play(["big-two-4card", "--seed", "5", "--bots", "greedy,random,greedy",
                        "-o", "deals=1"])
    assert again == 0
    out = io.StringIO()
    main(["stats"], out=out)
    assert "3 deals" in out.getvalue() and " won of 2" in out.getvalue()


def test_a_statistics_file_that_cannot_be_read_is_left_alone(own_statistics: Path) -> None:
    own_statistics.write_text("not json")
    code, _, _ = play(["big-two-4card", "--seed", "4", "--bots", "greedy", "-o", "deals=1"])
    assert code == 0 and own_statistics.read_text() == "not json"
    out = io.StringIO()
    assert main(["stats"], out=out) == 0
    assert "cannot be shown" in out.getvalue() and "not a statistics file" in out.getvalue()


# -- the tutorial ---------------------------------------------------------------------------------


class HintFollower(io.StringIO):
    """Stands in for stdin at a tutorial: plays the move of the last hint printed, which the
    tutorial prints at every turn without being asked."""

    def __init__(self, out: io.StringIO) -> None:
        super().__init__()
        self.out = out
        self.seen = 0
        self.moves: list[str] = []

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        text = self.out.getvalue()
        new, self.seen = text[self.seen:], len(text)
        hinted = re.findall(r"^hint: .* Type: (.*)$", new, re.M)
        assert len(hinted) == 1, f"one hint a turn, unasked: {new[-400:]}"
        self.moves.append(hinted[0])
        return hinted[0] + "\n"


@pytest.mark.parametrize("name", ["rummy", "trump"])
def test_play_tutorial_plain_prints_the_notes_and_a_hint_every_turn(name: str,
                                                                     own_statistics) -> None:
    from parlour.tutorial import tutorial

    code, out, player = play(["--tutorial", name], HintFollower)
    assert code == 0, out
    lesson = tutorial(name)
    assert out.startswith(f"{lesson.variant} tutorial: you are ")
    notes = re.findall(r"^-- ([^:]+): ", out, re.M)
    assert notes[0] == lesson.lesson.title and notes[-1] == "The end of the tutorial"
    assert len(notes) == len(set(notes)) >= 6  # each note once
    assert "The hint" in notes
    assert "Match over after 1 deal(s)" in out
    assert len(player.moves) >= 5
    assert not own_statistics.exists()  # not counted in the person's statistics


@pytest.mark.parametrize(("argv", "said"), [
    (["--tutorial", "whist"], "there is no tutorial of 'whist': tutorials are of big-two-4card"),
    (["--tutorial", "rummy", "--seed", "3"], "drop --seed"),
    (["--tutorial", "--players", "3", "--bots", "random"], "drop --players, --bots"),
    (["--tutorial", "-o", "deals=3"], "drop --option"),
    (["--tutorial", "--seat", "1"], "drop --seat"),
    (["--tutorial", "--save", "x.json"], "and is not saved; drop --save"),
    (["--tutorial", "--resume", "x.json"], "drop --resume"),
])
def test_play_tutorial_refuses_what_it_does_not_take(argv: list[str], said: str,
                                                      capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    assert main(["play", "--plain", *argv], out=out, inp=io.StringIO()) == 2
    assert said in capsys.readouterr().err
    assert out.getvalue() == ""
