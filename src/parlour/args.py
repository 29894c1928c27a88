"""Command-line argument types and helpers, shared by ``parlour`` and ``parlour arena``: a bad
value is refused by :mod:`argparse` with the reason."""

from __future__ import annotations

import argparse
import json
import math
from typing import Any, TextIO

from parlour.errors import ParlourError, VariantError
from parlour.game import Game
from parlour.registry import Variant, get_variant, new_game
from parlour.text import clip
from parlour.timing import check_seconds


def positive_int(text: str) -> int:
    """A whole number of at least 1 (``--games``)."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a whole number, not {clip(text)!r}") from None
    if value < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number of at least 1, not {value}")
    return value


def positive_seconds(text: str) -> float:
    """A finite number of seconds above 0 (``--seconds``)."""
    try:
        return check_seconds(float(text))
    except ValueError as e:  # float()'s own error, or check_seconds' ParlourError
        reason = str(e) if isinstance(e, ParlourError) else f"not a number: {clip(text)!r}"
        raise argparse.ArgumentTypeError(reason) from None


def option_value(text: str) -> Any:
    """``--option`` values: JSON literals (true, 12, "x") or a bare word."""
    lowered = {"true": True, "false": False}.get(text.lower())
    if lowered is not None:
        return lowered
    try:
        return json.loads(text)
    except ValueError:  # not JSON, or an integer too long for Python to convert
        return text


def option_text(value: Any) -> str:
    """A value as one types it after ``-o NAME=``: :func:`option_value` reads it back as ``value``.

    >>> [option_text(v) for v in (False, "hong-kong", 50, "3C", "12")]
    ['false', 'hong-kong', '50', '3C', '"12"']
    >>> all(option_value(option_text(v)) == v for v in (True, "standard", 7, "true", "12"))
    True
    """
    text = value if isinstance(value, str) else json.dumps(value)
    return text if option_value(text) == value else json.dumps(value)


def game_from_args(args: argparse.Namespace) -> Game:
    options: dict[str, Any] = {}
    for item in args.option or []:
        key, sep, value = item.partition("=")
        if not sep:
            raise ParlourError(f"--option takes NAME=VALUE, not {clip(item)!r}")
        key = key.strip().replace("-", "_")
        if key == "players":
            raise VariantError("the number of players is not an option: give it as --players N")
        options[key] = option_value(value.strip())
    variant = get_variant(args.variant)
    # Values as they are typed after -o (true, hong-kong) in what is refused.
    options = {key: variant.check(key, value, option_text) for key, value in options.items()}
    refuse_not_applying(variant, options)
    return new_game(args.variant, players=args.players, **options)


def refuse_not_applying(variant: Variant, options: dict[str, Any]) -> None:
    """:class:`VariantError` if one of ``options`` (given with ``-o``) does not apply under the
    others: it would change nothing, so it is refused rather than ignored without a word.

    >>> refuse_not_applying(get_variant("big-two"), {"deals": 5})
    Traceback (most recent call last):
    ...
    parlour.errors.VariantError: big-two: Number of deals (-o deals) counts only when Match ends is after a number of deals (-o match_end=deals); give that too, or leave out -o deals
    """
    infos = {i.name: i for i in variant.option_info()}
    for info in variant.not_applying(options):
        needed = " ".join(f"-o {name}={option_text(values[0])}" if len(values) == 1
                          else f"-o {name}=" + "|".join(map(option_text, values))
                          for name, values in info.applies_when)
        raise VariantError(
            f"{variant.name}: {info.label} (-o {info.name}) counts only when "
            f"{info.condition_words(infos)} ({needed}); give that too, or leave out "
            f"-o {info.name}")


def pace_seconds(text: str) -> float:
    """Seconds between bots' moves at the table: a finite number of at least 0 (``--pace``)."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, not {clip(text)!r}") from None
    if not 0 <= value < math.inf:
        raise argparse.ArgumentTypeError(f"expected a finite number of seconds of at least 0, "
                                         f"not {clip(text)}")
    return value


def isatty(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (ValueError, OSError):  # a closed or detached stream
        return False
