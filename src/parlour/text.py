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
