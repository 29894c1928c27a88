"""Each variant's rules in a few lines, for the tables' start and help screens (terminal and web).

The complete rules are in the documentation (``docs/rules/``, one page per variant); these
summaries say what a player needs at the table. Each family gives its variants' summaries when
it registers them (``Variant.summary``, in ``parlour/games/<family>/__init__.py``).

>>> summary("rummy").startswith("Each turn: draw")
True
>>> summary("no-such-game")
'No summary of the rules of this variant.'
"""

from __future__ import annotations

from parlour.errors import VariantError
from parlour.registry import get_variant

GENERIC = "No summary of the rules of this variant."


def summary(variant: str) -> str:
    """The variant's rules in a paragraph or two (a generic line for a variant without one)."""
    try:
        text = get_variant(variant).summary
    except VariantError:
        return GENERIC
    return text or GENERIC
