"""The ``parlour`` command under random and hostile arguments, input and files.

Whatever it is given, it ends with one of the documented exit codes (0 done, 2 refused, 130
interrupted; 70 would be an internal error, that is a bug) and never prints a traceback. Each
run is kept small (few deals, tiny time budgets, a few lines of input), so a run that does not
end is a hang of the command, not a long job; the runs through a real process have a timeout.
"""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

import parlour
from parlour.cli import main

#: The documented exit codes that hostile input may produce.
EXIT_CODES = {0, 2, 130}

VARIANTS = [v.name for v in parlour.variants()]
OPTION_NAMES = sorted({o.name for v in parlour.variants() for o in v.option_info()})

#: Words nobody should type, and some they might.
HOSTILE = [
    "", " ", "0", "-1", "1", "2", "3", "4", "7", "99", "-99", "1.5", "1e999", "-1e999", "nan",
    "NaN", "inf", "-inf", "Infinity", "0x10", "1_000", "10" * 30, "9" * 5000, "٣", "é", "🂡",
    "3D", "10h", "pass", "help", "quit", "rob 4D", "draw stock", "meld 4C 5C 6C", "on", "x" * 10_000,
    "\x00", "\t", "true", "false", "null", "[]", "{}", '"x"', "[1, 2]", "=", "a=b", "=1",
    "--", "-", "-o", "--frobnicate", "--seed", "--games", "--players", "greedy", "random",
    "greedy,random", ",,,", "wizard", "/", "/nonexistent/x.json", "../..", "%s%n", "${HOME}",
]
#: Invalid values for arguments that set how much work is done (a valid huge budget would be a
#: long job by request, not a hang, so valid ones are kept small).
BAD_AMOUNTS = ["", "0", "-1", "-5", "nan", "inf", "-inf", "1e999", "x", "1.5", "٠", "9" * 5000]
BAD_SECONDS = ["", "0", "-0", "-1", "nan", "inf", "-inf", "1e999", "1e-400", "x", "٠", "9" * 5000]
#: Options that would make a match long: only small values.
LONG_MATCH = {"deals", "target", "series_target", "turn_limit", "penalty_limit", "starting_chips"}


def word(rng: random.Random) -> str:
    """A hostile word, or now and then a name that means something to the command."""
    return rng.choice(HOSTILE) if rng.random() < 0.85 else rng.choice(VARIANTS + OPTION_NAMES)


def pick(rng: random.Random, good: list[str], bad: list[str] = HOSTILE, odds: float = 0.25) -> str:
    """A good value, or with probability ``odds`` a bad one."""
    return rng.choice(bad) if rng.random() < odds else rng.choice(good)


def option(rng: random.Random) -> list[str]:
    name = pick(rng, OPTION_NAMES, odds=0.15)
    if name in LONG_MATCH:
        value = pick(rng, ["1", "2"], BAD_AMOUNTS)
    else:
        value = pick(rng, ["true", "false", "1", "5", "standard", "deals", "immediate"])
    return ["-o", f"{name}={value}" if rng.random() < 0.95 else name]


def game_args(rng: random.Random) -> list[str]:
    args = [pick(rng, VARIANTS, odds=0.1)]
    for _ in range(rng.randrange(3)):
        kind = rng.randrange(4)
        if kind == 0:
            args += option(rng)
        elif kind == 1:
            args += ["--players", pick(rng, ["2", "3", "4"], ["0", "1", "11", "-2", *BAD_AMOUNTS])]
        elif kind == 2:
            args += ["--seed", pick(rng, ["1", "7", "-3", "9" * 40])]
        else:  # a stray word or an unknown option, anywhere
            args.insert(rng.randrange(len(args) + 1), rng.choice(HOSTILE))
    return args


def argv_for(command: str, rng: random.Random, files: Files) -> list[str]:
    if command == "play":
        argv = ["play", *game_args(rng)]
        if rng.random() < 0.3:
            argv += ["--seat", pick(rng, ["0", "1", "2"], ["-1", "4", "99", "x", ""])]
        if rng.random() < 0.3:
            argv += ["--bots", pick(rng, ["greedy", "random", "random,greedy,random"])]
        if rng.random() < 0.4:
            argv += ["--save", rng.choice(files.targets)]
        if rng.random() < 0.25:
            argv = ["play", "--resume", rng.choice(files.records)] + argv[2:3] * (rng.random() < 0.3)
        return argv
    if command == "simulate":
        argv = ["simulate", *game_args(rng), "--games", pick(rng, ["1", "2", "3"], BAD_AMOUNTS)]
        if rng.random() < 0.95:
            argv += ["--bots", pick(rng, ["random", "greedy"])]
        return argv
    if command == "replay":
        return ["replay", rng.choice(files.records)] + ([word(rng)] if rng.random() < 0.1 else [])
    if command == "bench":
        # One variant: measuring them all takes a second even with the smallest budget.
        argv = ["bench", pick(rng, VARIANTS, odds=0.15), "--seconds",
                pick(rng, ["1e-9", "0.001"], BAD_SECONDS, odds=0.5)]
        if rng.random() < 0.3:
            argv += ["--players", pick(rng, ["2", "4"], ["0", "x", "-1"])]
        return argv
    if command == "variants":
        return ["variants"] + ([word(rng)] if rng.random() < 0.5 else [])
    return [word(rng) for _ in range(rng.randrange(4))]


class HostileInput(io.StringIO):
    """A few lines of hostile input, then the end of input or a Ctrl-C."""

    def __init__(self, rng: random.Random) -> None:
        super().__init__()
        self.lines = [word(rng) + rng.choice(["\n", "\r\n", ""]) for _ in range(rng.randrange(12))]
        self.interrupt = rng.random() < 0.2

    def readline(self, size: int | None = -1) -> str:  # type: ignore[override]
        if self.lines:
            line = self.lines.pop(0)
            return line if line.endswith("\n") else line + "\n"
        if self.interrupt:
            raise KeyboardInterrupt
        return ""


# -- bad files --------------------------------------------------------------------------------

def _record(tmp: Path) -> dict[str, Any]:
    """A real match record, stopped in its second deal."""
    path = tmp / "good.json"
    moves = "\n".join(["help"] * 2 + ["pass"] * 60) + "\n"
    main(["play", "big-two-4card", "--seed", "3", "-o", "deals=3", "--bots", "random",
          "--save", str(path)], out=io.StringIO(), inp=io.StringIO(moves))
    data: dict[str, Any] = json.loads(path.read_text())
    return data


def _tamper(data: Any, rng: random.Random) -> Any:
    """``data`` with one value somewhere inside replaced, removed or given a hostile type."""
    if isinstance(data, dict) and data and rng.random() < 0.8:
        key = rng.choice(list(data))
        if rng.random() < 0.2:
            return {k: v for k, v in data.items() if k != key}
        return {**data, key: _tamper(data[key], rng)}
    if isinstance(data, list) and data and rng.random() < 0.8:
        i = rng.randrange(len(data))
        if rng.random() < 0.2:
            return data[:i] + data[i + 1:]
        return [*data[:i], _tamper(data[i], rng), *data[i + 1:]]
    return rng.choice([None, -1, 0, 10**30, 1e308, 1.5, True, "", "x" * 1000, "2X", [], {},
                       [None], {"format": None}, "pass", [0, "3D"]])


@dataclass
class Files:
    #: Records to read: missing, a directory, binary, truncated, tampered …
    records: list[str]
    #: Places to save to, most of them impossible. Separate from ``records``, so that a run
    #: saving a match never turns a bad record into a good one for a later run.
    targets: list[str]


@pytest.fixture(scope="module")
def files(tmp_path_factory: pytest.TempPathFactory) -> Files:
    tmp = tmp_path_factory.mktemp("records")
    record = _record(tmp)
    rng = random.Random(0)
    made = {
        "missing.json": None,
        "empty.json": b"",
        "binary.json": bytes(rng.randrange(256) for _ in range(2000)),
        "array.json": b"[1, 2, 3]",
        "deep.json": b"[" * 100_000 + b"]" * 100_000,
        "text.json": "♠ not json ♠".encode(),
        "truncated.json": json.dumps(record).encode()[:-40],
        "bom.json": b"\xef\xbb\xbf" + json.dumps(record).encode(),
    }
    for n in range(40):
        made[f"tampered{n}.json"] = json.dumps(_tamper(record, rng)).encode()
    (tmp / "deal.json").write_text(json.dumps(record["deals"][0]))
    records = [str(tmp), "/", "", str(tmp / "good.json"), str(tmp / "deal.json")]
    for name, content in made.items():
        if content is not None:
            (tmp / name).write_bytes(content)
        records.append(str(tmp / name))
    saves = tmp_path_factory.mktemp("saves")
    targets = [str(saves), "/", "", "/nonexistent/dir/x.json", "/proc/version",
               str(saves / "x" / "y.json"), str(saves / "new.json"), str(saves / ("n" * 300))]
    return Files(records, targets)


# -- the runs ---------------------------------------------------------------------------------

def check(argv: list[str], code: int, out: str, err: str) -> None:
    assert code in EXIT_CODES, (argv, code, err[-2000:])
    for text in (out, err):
        assert "Traceback" not in text and "internal error" not in text, (argv, text[-2000:])
    if code == 2:  # refused: with a reason, in a line that stays readable
        assert err.strip(), argv
        assert max(len(line) for line in err.splitlines()) < 2_000, argv


COMMANDS = ["play", "simulate", "replay", "bench", "variants", "junk"]


@pytest.mark.parametrize("command", COMMANDS)
def test_hostile_arguments_and_input_in_process(command: str, files: Files,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    rng = random.Random(command)
    codes = set()
    for _ in range(50):
        argv = argv_for(command, rng, files)
        out = io.StringIO()
        code = main(argv, out=out, inp=HostileInput(rng))
        captured = capsys.readouterr()
        check(argv, code, out.getvalue() + captured.out, captured.err)
        codes.add(code)
    if command != "junk":  # the runs reach the command's work, not only argparse's refusals
        assert 0 in codes and 2 in codes


def test_every_bad_file_is_refused_by_replay_and_resume(files: Files,
                                                        capsys: pytest.CaptureFixture[str]) -> None:
    for path in files.records:
        for argv in (["replay", path], ["play", "--resume", path]):
            code = main(argv, out=io.StringIO(), inp=io.StringIO(""))
            captured = capsys.readouterr()
            check(argv, code, captured.out, captured.err)
            if not Path(path).name.startswith(("tampered", "bom", "good", "deal")):
                assert code == 2, (argv, captured.err)


@pytest.mark.parametrize(("argv", "stdin"), [
    (["bench", "big-two", "--seconds", "nan"], b""),
    (["simulate", "big-two", "--games", "0", "--bots", "random"], b""),
    (["play", "big-two", "-o", "players=99"], b""),
    (["play", "spoil-five", "--seed", "1"], bytes(range(256)) * 8 + b"\nquit\n"),
    (["play", "rummy", "--seed", "2"], ("x" * 10_000 + "\n").encode() * 3),
    (["replay", "/"], b""),
])
def test_hostile_runs_through_a_real_process(argv: list[str], stdin: bytes) -> None:
    result = subprocess.run([sys.executable, "-m", "parlour", *argv], input=stdin,
                            capture_output=True, timeout=60)
    out, err = result.stdout.decode(errors="replace"), result.stderr.decode(errors="replace")
    check(argv, result.returncode, out, err)


def test_output_closed_early_ends_quietly() -> None:
    """``parlour bench | head -1``: the reader goes away; the command stops without a word."""
    proc = subprocess.Popen([sys.executable, "-m", "parlour", "bench", "--seconds", "0.05"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    assert proc.stdout is not None and proc.stderr is not None
    assert proc.stdout.readline().startswith(b"machine: ")
    assert proc.stdout.readline().startswith(b"big-two-4card")
    proc.stdout.close()
    err = proc.stderr.read().decode(errors="replace")
    assert proc.wait(timeout=60) == 141
    assert err == ""
