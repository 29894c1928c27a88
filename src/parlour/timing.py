"""Time budgets and timing loops, shared by ``parlour bench`` and the environments' figures."""

from __future__ import annotations

import math
import time
from collections.abc import Callable

from parlour.errors import ParlourError


def check_seconds(seconds: float) -> float:
    """``seconds`` if it is a usable time budget: finite and above 0 (a NaN or infinite budget
    would never run out).

    >>> check_seconds(float("nan"))
    Traceback (most recent call last):
    ...
    parlour.errors.ParlourError: the time per measurement must be a finite number of seconds above 0, not nan
    """
    if not (math.isfinite(seconds) and seconds > 0):
        raise ParlourError(
            f"the time per measurement must be a finite number of seconds above 0, not {seconds}"
        )
    return seconds


def timed(seconds: float, one: Callable[[int], int]) -> tuple[int, int, float]:
    """Call ``one(i)`` for i = 0, 1, … until ``seconds`` pass; (calls, summed results, elapsed)."""
    check_seconds(seconds)
    calls = total = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        total += one(calls)
        calls += 1
        if calls % 16 == 0 and time.perf_counter() >= deadline:
            break
    return calls, total, time.perf_counter() - start
