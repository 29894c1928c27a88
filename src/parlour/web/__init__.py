"""The web table: ``parlour serve`` (:func:`create_app`), its lobby, tables and storage.

The protocol is documented in ``docs/web/protocol.md``; :mod:`parlour.client` plays a bot at a
remote seat over it. Importing this package is cheap (the ``parlour`` command builds its parser
from :mod:`parlour.web.serve`); the app and its dependencies load on first use.
"""

from __future__ import annotations

from typing import Any

from parlour.web.settings import DEFAULT_DATABASE

__all__ = ["DEFAULT_DATABASE", "create_app"]


def __getattr__(name: str) -> Any:
    if name == "create_app":
        from parlour.web.app import create_app

        return create_app
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
