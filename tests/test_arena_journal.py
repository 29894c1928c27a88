"""The arena's journal: an interrupted or extended run plays only the deals it lacks, and gives
the result of one uninterrupted run; a journal of another run, or a damaged one, is refused."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

import parlour
from parlour.arena import core, run_arena
from parlour.arena.deals import Play, Task, play_task
from parlour.bots.random_bot import RandomBot
from parlour.cli import main
from parlour.errors import ParlourError

GAME = parlour.new_game("forty-five")
BOTS = ["greedy", "random"]


class Stop(Exception):
    """Stands for an interruption (Ctrl-C, a killed process) after some tasks."""


def played_deals(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The deals the arena plays from now on, in order."""
    deals: list[int] = []

    def counted(task: Task) -> list[Play]:
        deals.extend(task.deals)
        return play_task(task)

    monkeypatch.setattr(core, "play_task", counted)
    return deals


def interrupted(path: Path, deals: int, after: int, **kwargs: object) -> None:
    """A run of ``deals`` deals with a journal at ``path``, stopped once ``after`` are done."""
    done = 0

    def progress(n: int) -> None:
        nonlocal done
        done += n
        if done >= after:
            raise Stop

    with pytest.raises(Stop):
        run_arena(GAME, BOTS, deals, seed=5, journal=path, progress=progress, **kwargs)  # type: ignore[arg-type]


def test_an_interrupted_run_goes_on_where_it_stopped(tmp_path: Path,
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    whole = run_arena(GAME, BOTS, 8, seed=5, duplicate=True)
    path = tmp_path / "run.jsonl"
    interrupted(path, 8, after=3, duplicate=True)
    deals = played_deals(monkeypatch)
    resumed = run_arena(GAME, BOTS, 8, seed=5, duplicate=True, journal=path)
    # One deal a task here: of the three finished only the first is played again, as the check
    # that this code plays it as the journal says.
    assert deals == [0, 3, 4, 5, 6, 7]
    assert resumed.plays == whole.plays and (resumed.resumed, whole.resumed) == (3, 0)
    # Everything is in the journal now: a third time plays nothing and changes nothing.
    deals.clear()
    assert run_arena(GAME, BOTS, 8, seed=5, duplicate=True, journal=path).plays == whole.plays
    assert deals == []


def test_a_journal_keeps_small_tasks_so_an_interruption_loses_little(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "run.jsonl"
    interrupted(path, 200, after=1)
    tasks = path.read_text().splitlines()[1:]
    assert len(tasks) == 1 and len(json.loads(tasks[0])["plays"]) == core.JOURNAL_CHUNK < 200 // 8
    deals = played_deals(monkeypatch)
    run_arena(GAME, BOTS, 12, seed=5, journal=path)
    assert deals == [0, *range(core.JOURNAL_CHUNK, 12)]  # deal 0: the check


def test_a_run_is_extended_and_shortened_through_its_journal(tmp_path: Path) -> None:
    path = tmp_path / "run.jsonl"
    run_arena(GAME, BOTS, 4, seed=5, journal=path)
    longer = run_arena(GAME, BOTS, 10, seed=5, journal=path, workers=2)
    assert longer.plays == run_arena(GAME, BOTS, 10, seed=5).plays
    shorter = run_arena(GAME, BOTS, 3, seed=5, journal=path)
    assert shorter.deals == 3 and shorter.plays == longer.plays[:3]


def test_a_line_cut_short_is_dropped_and_its_deals_played_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "run.jsonl"
    whole = run_arena(GAME, BOTS, 5, seed=5, journal=path)
    lines = path.read_text().splitlines(keepends=True)
    assert len(lines) == 1 + 5  # the header, then a line per task (one deal each here)
    path.write_text("".join(lines[:4]) + lines[4][:20])  # deal 3's line cut off mid-write
    deals = played_deals(monkeypatch)
    assert run_arena(GAME, BOTS, 5, seed=5, journal=path).plays == whole.plays
    assert deals == [0, 3, 4]
    assert path.read_text().count("\n") == 6 and path.read_text().endswith("\n")
    # Even the header cut short: the run starts afresh.
    path.write_text(lines[0][:10])
    deals.clear()
    assert run_arena(GAME, BOTS, 5, seed=5, journal=path).plays == whole.plays
    assert deals == [0, 1, 2, 3, 4]


def test_a_journal_written_by_a_code_that_plays_otherwise_is_refused_untouched(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "run.jsonl"
    run_arena(GAME, BOTS, 2, seed=5, duplicate=True, journal=path)
    before = path.read_bytes()
    # A change to a bot since: ``random`` now always takes the first legal action.
    monkeypatch.setattr(RandomBot, "choose", lambda self, obs, legal, rng: legal[0])
    with pytest.raises(ParlourError, match="plays otherwise: deal 0 seated greedy, greedy, greedy, random ended "):
        run_arena(GAME, BOTS, 3, seed=5, duplicate=True, journal=path)
    assert path.read_bytes() == before
    # Reading what the journal holds plays nothing, so it is not checked.
    assert len(run_arena(GAME, BOTS, 2, seed=5, duplicate=True, journal=path).plays) == 2 * 14


@pytest.mark.parametrize(("kwargs", "differ"), [
    ({"seed": 6}, "seed"),
    ({"bots": ["greedy", "easy"]}, "bots"),
    ({"game": parlour.new_game("forty-five", players=6)}, "game"),
    ({"duplicate": True}, "duplicate"),
])
def test_the_journal_of_another_run_is_refused_untouched(tmp_path: Path, kwargs: dict[str, object],
                                                         differ: str) -> None:
    path = tmp_path / "run.jsonl"
    run_arena(GAME, BOTS, 2, seed=5, journal=path)
    before = path.read_bytes()
    args: dict[str, object] = {"game": GAME, "bots": BOTS, "seed": 5, **kwargs}
    game, bots = args.pop("game"), args.pop("bots")
    with pytest.raises(ParlourError, match=f"journal of another run \\(its {differ} differ"):
        run_arena(game, bots, 2, journal=path, **args)  # type: ignore[arg-type]
    assert path.read_bytes() == before


@pytest.mark.parametrize(("damage", "message"), [
    (lambda lines: ["not json\n", *lines[1:]], "line 1 .* is not a journal line"),
    (lambda lines: [json.dumps({"journal": "something else"}) + "\n", *lines[1:]],
     "is not an arena journal"),
    (lambda lines: [lines[0], "[1, 2]\n", *lines[2:]], "line 2 .* is not a journal line"),
    (lambda lines: [lines[0], json.dumps({"plays": [[0, [0, 9, 0, 1], [1, 1, 1, 1], [0]]]}) + "\n"],
     "line 2 .* holds a play that is not one of this run"),
    (lambda lines: [lines[0], json.dumps({"plays": []}) + "\n"],
     "line 2 .* holds a play that is not one of this run"),
    (lambda lines: [*lines, lines[1]], "holds 2 plays of deal 0, not 1"),
    (lambda lines: [lines[0], lines[1].replace("[0, [0, 1, 0, 1]", "[0, [1, 0, 1, 0]"),
                    *lines[2:]], "holds deal 0 in seatings other than this run's"),
])
def test_a_damaged_journal_is_refused(tmp_path: Path, damage: object, message: str) -> None:
    path = tmp_path / "run.jsonl"
    run_arena(GAME, BOTS, 2, seed=5, journal=path)
    path.write_text("".join(damage(path.read_text().splitlines(keepends=True))))  # type: ignore[operator]
    with pytest.raises(ParlourError, match=message):
        run_arena(GAME, BOTS, 2, seed=5, journal=path)


def test_the_command_resumes_with_the_journals_seed(tmp_path: Path) -> None:
    journal = tmp_path / "run.jsonl"

    def arena(*args: str) -> str:
        out = io.StringIO()
        code = main(["arena", "forty-five", "--bots", "greedy,random", "--duplicate",
                     "--journal", str(journal), "--results", str(tmp_path / "r.sqlite"), *args],
                    out=out)
        assert code == 0, out.getvalue()
        return out.getvalue()

    first = arena("--games", "3")  # a seed drawn at random, kept in the journal
    seed = json.loads(journal.read_text().splitlines()[0])["seed"]
    assert f"seed {seed}" in first and "0 of the 3 deals were read from the journal" in first
    text = arena("--games", "5")
    assert f"seed {seed}" in text and "3 of the 5 deals were read from the journal" in text
    assert "2 were played now" in text
    # The same report as a run of 5 deals with that seed played in one go.
    out = io.StringIO()
    main(["arena", "forty-five", "--bots", "greedy,random", "--duplicate", "--games", "5",
          "--seed", str(seed), "--results", str(tmp_path / "other.sqlite")], out=out)
    assert text.split("\n\nRun ")[0].startswith(out.getvalue().split("\n\nRun ")[0])
    code = main(["arena", "forty-five", "--bots", "greedy,easy", "--journal", str(journal),
                 "--results", str(tmp_path / "r.sqlite")], out=io.StringIO())
    assert code != 0
