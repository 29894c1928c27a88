"""Text helpers shared by the command line and the tables."""

from __future__ import annotations

import re


def clip(text: str, word: int = 40, line: int = 300) -> str:
    """``text`` if it is at most ``line`` characters; otherwise with every run of more than
    ``word`` non-blank characters cut to ``word`` + "…", and the whole to ``line``. Messages
    that echo what someone typed stay readable, and an ordinary message (naming a long path,
    say) is left whole.

    >>> clip("'" + "x" * 400 + "' is not a card") == "'" + "x" * 39 + "… is not a card"
    True
    """
    if len(text) <= line:
        return text
    text = re.sub(rf"\S{{{word + 1},}}", lambda m: m.group()[:word] + "…", text)
    return text if len(text) <= line else text[:line] + "…"


def sentence(text: str) -> str:
    """``text`` as a sentence: a capital first letter and a closing full stop."""
    text = text.strip()
    return text[:1].upper() + text[1:] + ("" if text.endswith((".", "!", "?")) else ".")


def plural(count: int, word: str) -> str:
    """``1 deal``, ``2 deals``.

    >>> plural(1, "deal"), plural(0, "card")
    ('1 deal', '0 cards')
    """
    return f"{count} {word}{'' if count == 1 else 's'}"


def signed(value: float) -> str:
    """A score with its sign, never ``-0``: ``+1.5``, ``-2``, ``0``.

    >>> signed(1.5), signed(-2.0), signed(-0.0001)
    ('+1.5', '-2', '0')
    """
    text = f"{value:+.2f}".rstrip("0").rstrip(".")
    return "0" if text in ("+0", "-0") else text
