"""The ``parlour`` command: a whole game through stdin, simulate, replay, variants, bench."""

from __future__ import annotations

import io
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

from parlour.cli import main
from parlour.records import load


class ScriptedPlayer(io.StringIO):
    """Stands in for stdin: asks 'help' for the legal moves, first tries a bad move once,
    then plays the first legal move each time."""

    def __init__(self, out: io.StringIO) -> None:
        super().__init__()
        self.out = out
        self.seen = 0
        self.tried_bad = False
        self.moves = 0

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        new = self.out.getvalue()[self.seen:]
        self.seen = len(self.out.getvalue())
        legal = re.findall(r"^legal: (.*)$", new, re.M)
        if not legal:
            return "help\n"
        if not self.tried_bad:
            self.tried_bad = True
            return "2X\n"
        self.moves += 1
        return legal[-1].split(" | ")[0] + "\n"


@pytest.mark.parametrize("variant", ["big-two-4card", "big-two", "pusoy-dos"])
def test_play_a_whole_match_through_stdin(variant: str, tmp_path: Path) -> None:
    out = io.StringIO()
    player = ScriptedPlayer(out)
    record = tmp_path / "match.json"
    code = main(["play", variant, "--seed", "4", "--seat", "1", "--bots", "greedy,random,greedy",
                 "-o", "deals=1", *(["-o", "match_end=deals"] if variant == "big-two" else []),
                 "--save", str(record)], out=out, inp=player)
    text = out.getvalue()
    assert code == 0
    assert "not allowed: '2X' is not a card" in text  # re-prompted with the reason
    assert player.moves > 0
    assert "Your hand:" in text and "Match over. Winner(s):" in text
    assert load(record)["format"] == "parlour-match/1"
    replayed = io.StringIO()
    assert main(["replay", str(record)], out=replayed) == 0
    assert "Result:" in replayed.getvalue()


def test_play_stops_cleanly_when_input_ends(tmp_path: Path) -> None:
    out = io.StringIO()
    saved = tmp_path / "deal.json"
    assert main(["play", "big-two", "--seed", "1", "--save", str(saved)], out=out,
                inp=io.StringIO("")) == 0
    assert "Stopped." in out.getvalue()
    assert load(saved)["format"] == "parlour-deal/1"


def test_simulate_reports_means_intervals_and_win_rates() -> None:
    out = io.StringIO()
    assert main(["simulate", "big-two-4card", "--games", "40", "--bots", "greedy,random,random,random",
                 "--seed", "3"], out=out) == 0
    lines = out.getvalue().splitlines()
    assert lines[0] == "big-two-4card, 40 deals, seed 3"
    rows = [line.split() for line in lines[2:]]
    assert [r[1] for r in rows] == ["greedy", "random", "random", "random"]
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


def test_bad_arguments_give_a_clear_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["simulate", "big-two", "--games", "1", "--bots", "greedy,random"]) == 2
    assert "give 4 bots" in capsys.readouterr().err
    assert main(["simulate", "big-two", "--games", "1", "--bots", "wizard"]) == 2
    assert "unknown bot 'wizard'" in capsys.readouterr().err
    assert main(["play", "big-two", "-o", "allow_triples=maybe"], inp=io.StringIO("")) == 2
    assert "allow_triples='maybe' is not allowed" in capsys.readouterr().err


def test_replay_refuses_a_tampered_record(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = io.StringIO()
    path = tmp_path / "m.json"
    main(["play", "big-two-4card", "--seed", "2", "-o", "deals=1", "--bots", "random",
          "--save", str(path)], out=out, inp=ScriptedPlayer(out))
    data = json.loads(path.read_text())
    data["deals"][0]["result"][0] += 1
    path.write_text(json.dumps(data))
    assert main(["replay", str(path)]) == 2
    assert "the record says" in capsys.readouterr().err


def test_variants_lists_every_variant_with_options() -> None:
    out = io.StringIO()
    assert main(["variants"], out=out) == 0
    text = out.getvalue()
    for name in ["big-two-4card", "big-two", "pusoy-dos"]:
        assert re.search(rf"^{name}  \(", text, re.M)
    assert "allow_triples=False" in text


def test_bench_prints_figures_for_a_variant() -> None:
    out = io.StringIO()
    assert main(["bench", "big-two-4card", "--seconds", "0.05"], out=out) == 0
    text = out.getvalue()
    assert re.search(r"random play: +[\d,]+ deals/s", text)
    assert "all leads of a 13-card hand" in text


def test_console_script_runs() -> None:
    result = subprocess.run([sys.executable, "-m", "parlour.cli", "variants"],
                            capture_output=True, text=True, check=True)
    assert "pusoy-dos" in result.stdout
