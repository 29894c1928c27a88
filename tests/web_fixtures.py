"""The web tests' shared fixtures (a pytest plugin of ``conftest.py``): a SQLite database of the
test's own, and a Starlette test client of an app on it (bots without delay, hints judged by
``medium``), whose WebSocket sessions are closed at the end."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient

from parlour.web import create_app
from web_helpers import close_all


@pytest.fixture
def db(tmp_path: Path) -> str:
    return f"sqlite:///{tmp_path / 'web.sqlite'}"


@pytest.fixture
def http(db: str) -> Iterator[TestClient]:
    with TestClient(create_app(db, bot_delay=0, advice_level="medium")) as client:
        try:
            yield client
        finally:
            close_all()
