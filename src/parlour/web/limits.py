"""What keeps one client from hurting the others: rate limits, and short quotes of bad input.

>>> clock = [0.0]
>>> limit = RateLimit(per_minute=6, burst=2, clock=lambda: clock[0])
>>> limit.wait("a"), limit.wait("a"), limit.wait("a") > 0, limit.wait("b")
(0.0, 0.0, True, 0.0)
>>> clock[0] = 10.0  # one more allowed every 10 s
>>> limit.wait("a")
0.0
>>> quote("x" * 1000)
"'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx…"
"""

from __future__ import annotations

import time
from collections.abc import Callable, Hashable

#: The longest piece of a client's input quoted back in an error message.
QUOTE_LIMIT = 40
#: The longest error message sent: what a refusal says never grows with what was sent.
MESSAGE_LIMIT = 300


def quote(value: object, limit: int = QUOTE_LIMIT) -> str:
    """``repr(value)``, cut to ``limit`` characters: how an error message names input."""
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "…"


def shorten(message: str, limit: int = MESSAGE_LIMIT) -> str:
    """``message``, cut to ``limit`` characters."""
    return message if len(message) <= limit else message[: limit - 1] + "…"


class RateLimit:
    """A token bucket per key: up to ``burst`` at once, then ``per_minute`` a minute.

    :meth:`wait` takes one if it can (``0.0``) and otherwise says how many seconds until one
    is free; nothing is taken then. Keys whose bucket is full again are forgotten now and then,
    so the table of keys stays as small as the set of recent clients.
    """

    def __init__(self, per_minute: float, burst: int,
                 clock: Callable[[], float] = time.monotonic) -> None:
        if per_minute <= 0 or burst < 1:
            raise ValueError("a rate limit needs a positive rate and a burst of at least 1")
        self.rate = per_minute / 60.0
        self.burst = float(burst)
        self.clock = clock
        self._buckets: dict[Hashable, tuple[float, float]] = {}

    def wait(self, key: Hashable) -> float:
        now = self.clock()
        tokens, then = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            return (1.0 - tokens) / self.rate
        self._buckets[key] = (tokens - 1.0, now)
        if len(self._buckets) > 4096:
            self._forget_full(now)
        return 0.0

    def _forget_full(self, now: float) -> None:
        full = [k for k, (tokens, then) in self._buckets.items()
                if tokens + (now - then) * self.rate >= self.burst]
        for key in full:
            del self._buckets[key]
