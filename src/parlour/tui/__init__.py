"""The terminal table (``parlour play``): a Textual app for every variant.

:func:`run` opens it; :class:`ParlourApp` is the app itself, for tests and embedding.
"""

from parlour.tui.app import ParlourApp, run
from parlour.tui.screens import Settings

__all__ = ["ParlourApp", "Settings", "run"]
