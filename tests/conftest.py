"""Every test keeps its statistics (parlour.stats) in a file of its own, never the person's; the
web tests share their fixtures (``web_fixtures``)."""

from __future__ import annotations

from pathlib import Path

import pytest

#: The web tests' fixtures (``db``, ``http``), shared by their files.
pytest_plugins = ["web_fixtures"]


@pytest.fixture(autouse=True)
def own_statistics(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "stats.json"
    monkeypatch.setenv("PARLOUR_STATS", str(path))
    return path
