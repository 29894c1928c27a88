"""What keeps one client from hurting the others: rate limits, paces, and short quotes of bad
input.

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

import asyncio
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

    :meth:`wait` takes one (or ``cost``) if it can (``0.0``) and otherwise says how many
    seconds until that many are free; nothing is taken then. Keys whose bucket is full again are forgotten now and then,
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

    def wait(self, key: Hashable, cost: float = 1.0) -> float:
        if not 0 < cost <= self.burst:
            raise ValueError(f"a cost is more than 0 and at most the burst, {self.burst:g}")
        now = self.clock()
        tokens, then = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens < cost:
            self._buckets[key] = (tokens, now)
            return (cost - tokens) / self.rate
        self._buckets[key] = (tokens - cost, now)
        if len(self._buckets) > 4096:
            self._forget_full(now)
        return 0.0

    def _forget_full(self, now: float) -> None:
        full = [k for k, (tokens, then) in self._buckets.items()
                if tokens + (now - then) * self.rate >= self.burst]
        for key in full:
            del self._buckets[key]


class Pace:
    """One connection's turns at a :class:`RateLimit` shared by every connection of its key
    (its client's address): :meth:`turn` waits until a message that has come may be handled,
    and says ``False`` instead once the connection has been kept waiting ``wait_limit``
    seconds in a row (a client that far over its pace is flooding). A turn taken without a
    wait starts the count again.

    >>> import asyncio
    >>> pace = Pace(RateLimit(per_minute=60, burst=2), "a", wait_limit=0.5)
    >>> asyncio.run(pace.turn()), asyncio.run(pace.turn()), asyncio.run(pace.turn())
    (True, True, False)
    """

    def __init__(self, limit: RateLimit, key: Hashable, wait_limit: float) -> None:
        self.limit = limit
        self.key = key
        self.wait_limit = wait_limit
        #: Seconds this connection has waited for its turns since it last had one at once.
        self.waited = 0.0

    async def turn(self, cost: float = 1.0) -> bool:
        wait = self.limit.wait(self.key, cost)
        if not wait:
            self.waited = 0.0
            return True
        while wait:
            if self.waited + wait > self.wait_limit:
                return False
            await asyncio.sleep(wait)
            self.waited += wait
            wait = self.limit.wait(self.key, cost)
        return True
