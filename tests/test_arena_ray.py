"""The arena's Ray backend: the local backend's results, play for play, on a local Ray instance."""

from __future__ import annotations

import io
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import ray

import parlour
from parlour.arena import run_arena
from parlour.cli import main
from parlour.errors import ParlourError


def _files(folder: Path) -> dict[str, str]:
    return {p.name: p.read_text() for p in sorted(folder.iterdir())}


def test_a_run_starts_its_own_ray_instance_and_shuts_it_down(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # First in the module: the shared instance below is not started yet.
    assert not ray.is_initialized()
    monkeypatch.delenv("RAY_ADDRESS", raising=False)
    game = parlour.new_game("rummy")
    local = run_arena(game, ["greedy", "random"], 4, seed=8, duplicate=True,
                      record_dir=tmp_path / "local")
    on_ray = run_arena(game, ["greedy", "random"], 4, seed=8, duplicate=True, workers=2,
                       record_dir=tmp_path / "ray", backend="ray")
    assert not ray.is_initialized()
    assert on_ray.plays == local.plays
    # The records come back to this machine, byte for byte those of a local run.
    assert _files(tmp_path / "ray") == _files(tmp_path / "local")
    assert len(_files(tmp_path / "ray")) == 4 * 2


@pytest.fixture(scope="module")
def local_ray() -> Iterator[None]:
    """One local Ray instance for the tests that need one, shut down after them."""
    ray.init(num_cpus=2, include_dashboard=False, logging_level="ERROR", log_to_driver=False)
    yield
    ray.shutdown()


@pytest.mark.parametrize(("variant", "bots", "duplicate", "workers"), [
    ("forty-five", ["greedy", "random"], True, 2),
    ("big-two-4card", ["greedy", "random", "random"], False, 3),
    ("spoil-five", ["random", "greedy"], True, 1),
])
def test_the_ray_backend_gives_the_local_backends_result(
        local_ray: None, variant: str, bots: list[str], duplicate: bool, workers: int) -> None:
    game = parlour.new_game(variant)
    local = run_arena(game, bots, 20, seed=5, duplicate=duplicate)
    advanced: list[int] = []
    on_ray = run_arena(game, bots, 20, seed=5, duplicate=duplicate, workers=workers,
                       backend="ray", progress=advanced.append)
    assert on_ray.plays == local.plays
    assert len({p.returns for p in on_ray.plays}) > 1  # real play, not a constant
    assert sum(advanced) == 20 and len(advanced) > 1  # in several tasks, each reported
    assert ray.is_initialized()  # an instance started before the run is left running


def test_the_command_reports_the_same_with_either_backend(local_ray: None, tmp_path: Path) -> None:
    reports = []
    for backend in ("local", "ray"):
        out = io.StringIO()
        code = main(["arena", "forty-five", "--bots", "greedy,random", "--games", "6", "--duplicate",
                     "--seed", "3", "--workers", "2", "--backend", backend,
                     "--results", str(tmp_path / f"{backend}.sqlite")], out=out)
        assert code == 0, out.getvalue()
        reports.append(out.getvalue().split("\nRun ")[0])  # the run's id and file differ
    assert reports[0] == reports[1]
    assert "greedy − random" in reports[1]


def test_an_unknown_backend_is_refused() -> None:
    with pytest.raises(ParlourError, match="unknown backend 'spark'; the backends are: local, ray"):
        run_arena(parlour.new_game("rummy"), ["greedy", "random"], 1, seed=1, backend="spark")


def test_without_ray_installed_the_ray_backend_is_refused_before_play(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # ``import ray`` now fails as if not installed
    code = main(["arena", "rummy", "--bots", "greedy,random", "--backend", "ray",
                 "--results", str(tmp_path / "results.sqlite")], out=io.StringIO())
    err = capsys.readouterr().err
    assert code == 2
    assert "the ray backend needs Ray: pip install 'parlour[ray]'" in err.splitlines()[-1]
    assert not (tmp_path / "results.sqlite").exists()
    with pytest.raises(ParlourError, match=r"needs Ray"):
        run_arena(parlour.new_game("rummy"), ["greedy", "random"], 1, seed=1, backend="ray")
