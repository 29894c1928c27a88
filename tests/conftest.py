"""Every test keeps its statistics (parlour.stats) in a file of its own, never the person's."""

from __future__ import annotations

from pathlib import Path

import pytest


@pytest.fixture(autouse=True)
def own_statistics(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "stats.json"
    monkeypatch.setenv("PARLOUR_STATS", str(path))
    return path
