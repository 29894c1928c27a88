"""The release workflow (``.github/workflows/release.yml``), checked here since it runs only on
GitHub: against GitHub's schema of workflows (check-jsonschema's copy of SchemaStore's), its
shell steps with shellcheck (``scripts/install-shellcheck.sh``; ``make test`` runs it), and
what it must do: build a wheel for each platform, check each with the same script the local
wheel test runs, and publish with trusted publishing only from a version tag.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import yaml

ROOT = Path(__file__).resolve().parent.parent
WORKFLOW = ROOT / ".github" / "workflows" / "release.yml"
PLATFORMS = {"manylinux-x86_64", "manylinux-aarch64", "musllinux-x86_64", "musllinux-aarch64",
             "macos-x86_64", "macos-arm64", "windows-x86_64"}


def workflow() -> dict[Any, Any]:
    loaded: dict[Any, Any] = yaml.safe_load(WORKFLOW.read_text())
    return loaded


def steps(job: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = workflow()["jobs"][job]["steps"]
    return found


def test_the_workflow_is_valid_for_github() -> None:
    checked = subprocess.run([sys.executable, "-m", "check_jsonschema", "--builtin-schema",
                              "vendor.github-workflows", str(WORKFLOW)],
                             capture_output=True, text=True, check=False)
    assert checked.returncode == 0, checked.stdout + checked.stderr


def test_its_shell_steps_pass_shellcheck(tmp_path: Path) -> None:
    shellcheck = shutil.which("shellcheck")
    assert shellcheck is not None, "shellcheck is missing: run scripts/install-shellcheck.sh"
    scripts = [(job, step["run"]) for job, spec in workflow()["jobs"].items()
               for step in spec["steps"] if "run" in step]
    assert len(scripts) >= 5
    for n, (job, script) in enumerate(scripts):
        # An expression is filled in by GitHub before the shell sees it: a plain word here.
        path = tmp_path / f"{job}-{n}.sh"
        path.write_text("#!/usr/bin/env bash\nset -e\n" + re.sub(r"\$\{\{[^}]*\}\}", "X",
                                                                 script))
        checked = subprocess.run([shellcheck, "--severity=style", str(path)],
                                 capture_output=True, text=True, check=False)
        assert checked.returncode == 0, (job, script, checked.stdout)


def test_it_builds_checks_and_publishes_every_platform() -> None:
    spec = workflow()
    assert spec[True] == {"push": {"tags": ["v*"]}, "workflow_dispatch": None}  # "on"
    assert spec["permissions"] == {"contents": "read"}
    jobs = spec["jobs"]
    built = {entry["name"] for entry in jobs["wheels"]["strategy"]["matrix"]["include"]}
    assert built == PLATFORMS
    build = next(s for s in steps("wheels") if s.get("uses", "").startswith("PyO3/maturin-action"))
    assert build["with"]["args"] == "--release --out dist"  # abi3: pyproject.toml's features
    # Every wheel is checked, on the oldest and the newest Python, by the smoke script.
    matrix = jobs["check"]["strategy"]["matrix"]
    assert set(matrix["name"]) == PLATFORMS and matrix["python"] == ["3.11", "3.13"]
    runs = " ".join(s.get("run", "") for s in steps("check"))
    assert runs.count("scripts/smoke_wheel.py") == 2  # natively, and in Alpine for musl
    assert "--rl --serve" in runs
    # Published only from a version tag, once everything is checked, with no token.
    publish = jobs["publish"]
    assert publish["if"] == "${{ startsWith(github.ref, 'refs/tags/v') }}"
    assert set(publish["needs"]) == {"check", "sdist"}
    assert publish["permissions"] == {"id-token": "write"}
    [upload] = [s for s in publish["steps"] if s.get("uses", "").startswith("pypa/")]
    assert upload["uses"] == "pypa/gh-action-pypi-publish@release/v1"
    assert "password" not in upload.get("with", {})
    # Every action named at a release, never a branch.
    for job in jobs.values():
        for step in job["steps"]:
            if "uses" in step:
                assert re.fullmatch(r"[\w.-]+/[\w.-]+@(v\d+|release/v\d+)", step["uses"]), step
