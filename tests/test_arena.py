"""The arena: determinism, duplicate seatings, per-deal statistics, records, ratings, the command."""

from __future__ import annotations

import dataclasses
import io
import math
import os
import signal
import subprocess
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import create_engine, func, select
from sqlalchemy.orm import Session

import parlour
from parlour.arena import (
    ArenaResult,
    Play,
    all_seatings,
    bot_stats,
    head_to_head,
    paired_runs,
    run_arena,
    split_differences,
)
from parlour.arena.deals import Choices, make_entries, play_deal, record_name
from parlour.arena.results import PlayRow, RunRow, SeatRow, leaderboard
from parlour.arena.stats import Z95
from parlour.bots import make_bot
from parlour.bots.search import SearchBot
from parlour.cli import main
from parlour.errors import ParlourError
from parlour.game import Action, State
from parlour.records import load, replay_deal


def test_results_do_not_depend_on_the_number_of_workers() -> None:
    game = parlour.new_game("forty-five")
    one = run_arena(game, ["greedy", "random"], 10, seed=11, duplicate=True, workers=1)
    two = run_arena(game, ["greedy", "random"], 10, seed=11, duplicate=True, workers=2)
    assert one.plays == two.plays
    assert [p.deal for p in two.plays] == sorted(p.deal for p in two.plays)
    other = run_arena(game, ["greedy", "random"], 10, seed=12, duplicate=True)
    assert other.plays != one.plays


def spawned_workers(pid: int) -> set[int]:
    """The worker processes (``multiprocessing``'s ``spawn``) whose parent is ``pid``."""
    found = set()
    for entry in Path("/proc").iterdir():
        try:
            status, command = (entry / "status").read_text(), (entry / "cmdline").read_bytes()
        except OSError:  # not a process, or gone meanwhile
            continue
        if f"\nPPid:\t{pid}\n" in status and b"spawn_main" in command:
            found.add(int(entry.name))
    return found


def running(pid: int) -> bool:
    """Whether process ``pid`` exists and has not ended (a zombie has)."""
    try:
        return "State:\tZ" not in Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads processes from /proc")
def test_the_workers_end_with_a_run_killed_outright() -> None:
    # Each worker's task is ten duplicate deals of expert, minutes of play; killed without a
    # chance to shut its pool down, the run must not leave its workers playing on.
    script = ("import parlour\n"
              "from parlour.arena import run_arena\n"
              "if __name__ == '__main__':\n"
              "    run_arena(parlour.new_game('big-two-4card'), ['expert', 'greedy'], 160,\n"
              "              seed=1, duplicate=True, workers=2)\n")
    run = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.monotonic() + 60
        while len(workers := spawned_workers(run.pid)) < 2:
            assert time.monotonic() < deadline, "the workers never started"
            time.sleep(0.1)
        time.sleep(1.0)  # into their first deals
        assert all(running(w) for w in workers)
    finally:
        run.send_signal(signal.SIGKILL)
        run.wait()
    deadline = time.monotonic() + 10
    while alive := {w for w in workers if running(w)}:
        if time.monotonic() > deadline:
            for w in alive:
                os.kill(w, signal.SIGKILL)
            pytest.fail(f"workers {sorted(alive)} played on after their run was killed")
        time.sleep(0.1)


def test_without_duplicate_the_bot_list_is_rotated_a_seat_per_deal() -> None:
    result = run_arena(parlour.new_game("big-two-4card"), ["greedy", "random", "random"], 4, seed=1)
    labels = [[result.entries[e].label for e in p.seating] for p in result.plays]
    assert labels == [
        ["greedy", "random", "random#2", "greedy"],
        ["random", "random#2", "greedy", "random"],
        ["random#2", "greedy", "random", "random#2"],
        ["greedy", "random", "random#2", "greedy"],
    ]


def test_duplicate_plays_each_deal_in_every_seating_on_the_same_cards(tmp_path: Path) -> None:
    result = run_arena(parlour.new_game("forty-five"), ["greedy", "random"], 3, seed=5,
                       duplicate=True, record_dir=tmp_path)
    seatings = all_seatings(2, 4)
    assert len(seatings) == len(set(seatings)) == 14
    assert all(set(s) == {0, 1} for s in seatings)
    by_deal = defaultdict(list)
    for play in result.plays:
        by_deal[play.deal].append(play)
    assert sorted(by_deal) == [0, 1, 2]
    setups = {}
    for deal, plays in by_deal.items():
        assert [p.seating for p in plays] == seatings
        deal_setups = set()
        for play in plays:
            labels = [result.entries[e].label for e in play.seating]
            deal_setups.add(repr(load(tmp_path / record_name(deal, labels))["setup"]))
        assert len(deal_setups) == 1  # one deal of cards, replayed in every seating
        setups[deal] = deal_setups.pop()
    assert len(set(setups.values())) == 3  # and the deals differ from each other


def test_identical_bots_in_duplicate_mode_differ_by_exactly_zero() -> None:
    game = parlour.new_game("big-two-4card")
    result = run_arena(game, ["random", "random"], 6, seed=2, duplicate=True)
    [pair] = head_to_head(result)
    assert (pair.first, pair.second, pair.deals) == ("random", "random#2", 6)
    assert pair.mean == 0.0 and pair.half == 0.0
    first, second = bot_stats(result)
    assert first.mean == second.mean and first.win_rate == second.win_rate
    assert len({p.returns for p in result.plays}) > 1  # the zero is not for want of play
    # Rotated seating does not cancel the luck of the deal: the same bots then differ.
    rotated = run_arena(game, ["random", "random"], 6, seed=2)
    assert head_to_head(rotated)[0].half > 0


def test_duplicate_seatings_reuse_a_search_and_play_exactly_as_without_it(
        monkeypatch: pytest.MonkeyPatch) -> None:
    searches = 0
    choose = SearchBot.choose

    def counted(bot: SearchBot, *args: Any) -> Action:
        nonlocal searches
        searches += 1
        return choose(bot, *args)

    monkeypatch.setattr(SearchBot, "choose", counted)
    game, bots = parlour.new_game("big-two-4card"), ["medium", "greedy"]

    def played(choices: Callable[[], Choices | None]) -> tuple[list[State], int]:
        nonlocal searches
        searches = 0
        states = [play_deal(game, [bots[e] for e in seating], 3, deal, shared)
                  for deal in range(2) for shared in [choices()] for seating in all_seatings(2, 4)]
        return states, searches

    alone, searched_alone = played(lambda: None)
    reusing, searched_reusing = played(dict)
    assert [s.history for s in reusing] == [s.history for s in alone]  # move for move
    assert 0 < searched_reusing < searched_alone
    searches = 0
    result = run_arena(game, bots, 2, seed=3, duplicate=True)
    assert searches == searched_reusing  # the arena's seatings of a deal share its choices
    assert result.plays == tuple(Play(p.deal, p.seating, tuple(s.returns()), tuple(s.winners()))
                                 for p, s in zip(result.plays, alone, strict=True))
    # A search that stops at a time limit depends on the clock: never reused.
    assert make_bot("medium").reusable and not make_bot("medium", interactive=True).reusable
    assert not make_bot("greedy").reusable


def test_greedy_beats_random_with_an_interval_excluding_zero() -> None:
    result = run_arena(parlour.new_game("big-two-4card"), ["greedy", "random"], 16, seed=9,
                       duplicate=True)
    [pair] = head_to_head(result)
    assert pair.deals == 16
    assert pair.mean - pair.half > 0
    greedy, random_ = bot_stats(result)
    assert greedy.seat_deals == random_.seat_deals == 16 * 14 * 4 // 2
    assert greedy.win_rate > 1 / 4 > random_.win_rate


def test_statistics_average_each_bot_within_a_deal_before_taking_the_interval() -> None:
    # Deal 0: bot 0 holds three seats, bot 1 one; deal 1 the other way round. Seats 0, 1, 2 tie
    # for the win of deal 0.
    plays = (
        Play(0, (0, 0, 0, 1), (1.0, 1.0, 1.0, -3.0), (0, 1, 2)),
        Play(1, (0, 1, 1, 1), (3.0, -1.0, -1.0, -1.0), (0,)),
    )
    result = ArenaResult(parlour.new_game("big-two-4card"), make_entries(["greedy", "random"]),
                         0, 2, False, plays)
    first, second = bot_stats(result)
    # Per-deal means 1 and 3 (pooling the four seat-returns would give 1.5).
    assert (first.mean, first.deals, first.seat_deals) == (2.0, 2, 4)
    assert first.half == pytest.approx(Z95 * math.sqrt(2) / math.sqrt(2))
    assert first.win_rate == pytest.approx((1 / 3 + 1) / 2)
    assert (second.mean, second.win_rate) == (-2.0, 0.0)
    [pair] = head_to_head(result)
    assert (pair.mean, pair.half, pair.deals) == (4.0, 0.0, 2)


def test_split_differences_take_each_split_of_the_seats_on_its_own() -> None:
    plays = (
        Play(0, (0, 1, 1, 1), (6.0, -2.0, -2.0, -2.0), (0,)),      # 1 v 3: 6 − (−2) = 8
        Play(0, (0, 0, 1, 1), (1.0, 1.0, -1.0, -1.0), (0, 1)),      # 2 v 2: 1 − (−1) = 2
        Play(0, (0, 0, 0, 1), (1.0, 1.0, 1.0, -3.0), (0, 1, 2)),    # 3 v 1: 1 − (−3) = 4
        Play(1, (1, 0, 1, 1), (-1.0, 3.0, -1.0, -1.0), (1,)),       # 1 v 3: 3 − (−1) = 4
        Play(1, (0, 1, 0, 1), (2.0, -2.0, 0.0, 0.0), (0,)),         # 2 v 2: 1 − (−1) = 2
        Play(1, (0, 0, 0, 1), (0.0, 0.0, 0.0, 0.0), (0, 1, 2, 3)),  # 3 v 1: 0
    )
    game = parlour.new_game("big-two-4card")
    entries = make_entries(["expert", "greedy"])
    result = ArenaResult(game, entries, 0, 2, True, plays)
    splits = split_differences(result)
    assert [(s.seats, s.others, s.difference.first, s.difference.second, s.difference.deals)
            for s in splits] == [(1, 3, "expert", "greedy", 2), (2, 2, "expert", "greedy", 2),
                                 (3, 1, "expert", "greedy", 2)]
    assert [s.difference.mean for s in splits] == [6.0, 2.0, 2.0]
    assert [s.difference.half for s in splits] == pytest.approx([2 * Z95, 0.0, 2 * Z95])
    # Only a duplicate run of two bots at three seats or more has splits.
    assert split_differences(ArenaResult(game, entries, 0, 2, False, plays)) == []
    three = make_entries(["expert", "greedy", "random"])
    assert split_differences(ArenaResult(game, three, 0, 2, True, plays)) == []
    two_seats = run_arena(parlour.new_game("rummy"), ["greedy", "random"], 1, seed=1,
                          duplicate=True)
    assert split_differences(two_seats) == []


def test_two_runs_on_the_same_deals_are_compared_deal_by_deal() -> None:
    game = parlour.new_game("big-two-4card")
    entries = make_entries(["expert", "greedy"])
    # deal 0: a lead of 8 in the first run, 2 in the second; deal 1: 4 and 4; deal 2 only in one
    first = ArenaResult(game, entries, 5, 3, True, (
        Play(0, (0, 1, 1, 1), (6.0, -2.0, -2.0, -2.0), (0,)),
        Play(1, (1, 0, 1, 1), (-1.0, 3.0, -1.0, -1.0), (1,)),
        Play(2, (0, 1, 1, 1), (9.0, -3.0, -3.0, -3.0), (0,))))
    second = ArenaResult(game, make_entries(["hard", "greedy"]), 5, 2, True, (
        Play(0, (0, 0, 1, 1), (1.0, 1.0, -1.0, -1.0), (0, 1)),
        Play(1, (0, 1, 1, 1), (3.0, -1.0, -1.0, -1.0), (0,))))
    pair = paired_runs(first, second)
    assert (pair.first, pair.second, pair.deals, pair.mean) == (
        "expert − greedy", "hard − greedy", 2, 3.0)
    assert pair.half == pytest.approx(3 * Z95)
    for other, message in (
            (dataclasses.replace(second, game=parlour.new_game("big-two")), "game"),
            (dataclasses.replace(second, duplicate=False), "duplicate True and False"),
            (dataclasses.replace(second, entries=make_entries(["easy", "random", "greedy"])), "two bots"),
            (dataclasses.replace(second, plays=second.plays[:0]), "share no deal")):
        with pytest.raises(ParlourError, match=message):
            paired_runs(first, other)


def test_every_play_is_recorded_and_replays_to_its_result(tmp_path: Path) -> None:
    result = run_arena(parlour.new_game("rummy"), ["greedy", "random"], 3, seed=4,
                       duplicate=True, record_dir=tmp_path / "records")
    files = sorted((tmp_path / "records").iterdir())
    assert len(files) == len(result.plays) == 3 * 2
    for play in result.plays:
        labels = [result.entries[e].label for e in play.seating]
        state = replay_deal(load(tmp_path / "records" / record_name(play.deal, labels)))
        assert tuple(state.returns()) == play.returns
    out = io.StringIO()
    assert main(["replay", str(files[0])], out=out) == 0
    assert "Result, points: " in out.getvalue()


def _arena(tmp_path: Path, *args: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(["arena", *args, "--results", str(tmp_path / "results.sqlite")], out=out)
    return code, out.getvalue()


def test_ratings_file_grows_across_runs_and_ranks_greedy_above_random(tmp_path: Path) -> None:
    path = tmp_path / "results.sqlite"
    for seed in ("1", "2"):
        code, text = _arena(tmp_path, "big-two-4card", "--bots", "greedy,random", "--games", "8",
                            "--duplicate", "--seed", seed)
        assert code == 0, text
        assert "greedy − random" in text
        assert "1 greedy v 3 random" in text and "3 greedy v 1 random" in text
    engine = create_engine(f"sqlite:///{path}")
    with Session(engine) as session:
        runs = session.scalars(select(RunRow).order_by(RunRow.id)).all()
        assert [(r.variant, r.bots, r.deals, r.duplicate, r.seed) for r in runs] == [
            ("big-two-4card", ["greedy", "random"], 8, True, "1"),
            ("big-two-4card", ["greedy", "random"], 8, True, "2"),
        ]
        assert session.scalar(select(func.count()).select_from(PlayRow)) == 2 * 8 * 14
        seats = session.execute(select(SeatRow.play_id, SeatRow.bot, SeatRow.score)).all()
    engine.dispose()
    assert len(seats) == 2 * 8 * 14 * 4
    per_play: defaultdict[int, float] = defaultdict(float)
    for play_id, _bot, score in seats:
        per_play[play_id] += score
    assert set(per_play.values()) == {0.0}  # big two's scores are zero-sum in every play
    standings = leaderboard(path)
    assert [(s.bot, s.games) for s in standings] == [("greedy", 16), ("random", 16)]
    assert standings[0].ordinal > standings[1].ordinal
    code, text = _arena(tmp_path, "--ratings", "--variant", "big-two-4card")
    assert code == 0
    rows = [line.split() for line in text.splitlines()[1:]]
    assert [r[1] for r in rows] == ["greedy", "random"]
    assert [r[-1] for r in rows] == ["16", "16"]


def test_plot_writes_a_png(tmp_path: Path) -> None:
    code, _ = _arena(tmp_path, "forty-five", "--bots", "greedy,random", "--games", "6", "--seed", "3")
    assert code == 0
    code, text = _arena(tmp_path, "--ratings", "--plot", str(tmp_path / "ratings.png"))
    assert code == 0 and "Rating plot written" in text
    assert (tmp_path / "ratings.png").read_bytes().startswith(b"\x89PNG\r\n\x1a\n")


@pytest.mark.parametrize(("args", "message"), [
    (["big-two", "--bots", "greedy,random", "--games", "0"], "--games: expected a whole number of at least 1"),
    (["big-two", "--bots", "greedy,random", "--games", "-5"], "--games: expected a whole number of at least 1"),
    (["big-two", "--bots", "greedy,random", "--workers", "0"], "--workers: expected a whole number of at least 1"),
    (["big-two", "--bots", "greedy,nosuch"], "unknown bot 'nosuch'; the bots are: random, greedy"),
    (["big-two", "--bots", "greedy"], "name at least two"),
    (["big-two"], "name a variant and the bots"),
    (["no-such-game", "--bots", "greedy,random"], "unknown variant 'no-such-game'"),
    (["rummy", "--bots", "greedy,random,random", "--duplicate"], "rummy has 2 seats for 3 bots"),
    (["--ratings"], "no results file"),
    (["--ratings", "big-two"], "--ratings lists the results file and plays nothing"),
    (["big-two", "--bots", "greedy,random", "--variant", "big-two"], "--variant filters --ratings"),
])
def test_argument_errors_are_one_clear_line(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                            args: list[str], message: str) -> None:
    code, _ = _arena(tmp_path, *args)
    err = capsys.readouterr().err
    assert code == 2
    assert message in err.splitlines()[-1]
    assert "Traceback" not in err
    assert not (tmp_path / "results.sqlite").exists()  # refused before anything was played


def test_a_record_directory_that_is_a_file_is_refused_before_play(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "taken").write_text("")
    code, _ = _arena(tmp_path, "big-two", "--bots", "greedy,random", "--record", str(tmp_path / "taken"))
    assert code == 2
    assert "cannot save records in" in capsys.readouterr().err


def test_a_results_file_that_is_not_one_is_refused_before_play(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "results.sqlite").write_text("not a database\n" * 100)
    code, out = _arena(tmp_path, "big-two", "--bots", "greedy,random")
    assert code == 2 and out == ""
    assert "as a results file: file is not a database" in capsys.readouterr().err
    assert (tmp_path / "results.sqlite").read_text() == "not a database\n" * 100
