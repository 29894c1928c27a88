"""How a web server's tables behave: :class:`Settings` (``parlour serve``'s options).

Kept apart from the tables themselves so that the ``parlour`` command can build its parser
without importing the server.
"""

from __future__ import annotations

from dataclasses import dataclass

#: Where ``parlour serve`` keeps its tables unless told otherwise.
DEFAULT_DATABASE = "sqlite:///parlour-web.sqlite"

#: The default bot of a seat that is not given one, and of the stand-in.
DEFAULT_BOT = "greedy"
#: A turn timer is at least this many seconds (and at most an hour).
TURN_TIMEOUT_RANGE = (5.0, 3600.0)
#: What opening a WebSocket connection costs of its address's pace, in messages: a
#: connection is a handshake, a welcome and a whole view.
CONNECTION_COST = 10


@dataclass
class Settings:
    """How a server's tables behave."""

    #: Seconds a bot waits before its move (and a bots-only table before its next deal).
    bot_delay: float = 0.8
    #: The searching level that judges, for hints and for reviews alike (one judge: a hint
    #: and the review of the same position agree; :mod:`parlour.advice`).
    advice_level: str = "expert"
    #: A folder where each finished match is also saved as ``TABLE_ID.json`` (``None``: the
    #: records stay in the database only).
    records: str | None = None
    #: The name of this server process: it serves the tables it created, whose ids start
    #: with it; several processes on one database each have their own.
    instance: str = "t"
    #: At most this many unfinished tables at once; creating one more is refused.
    max_tables: int = 500
    #: At most this many of them created by one client address (its share of the cap).
    tables_per_address: int = 10
    #: Tables one client address may create a minute (after a first burst of ``table_burst``).
    tables_per_minute: float = 10.0
    table_burst: int = 5
    #: Seconds after which a table nobody is connected to is closed: an unfinished one is
    #: archived (its record kept, out of the lobby), a finished one leaves the lobby.
    idle_timeout: float = 3600.0
    #: Sooner for a table that is still waiting and where nobody has taken a seat.
    waiting_timeout: float = 600.0
    #: Seconds a person has for each turn before the stand-in bot plays for them (``None``:
    #: no timer; a table may choose its own when created).
    turn_timeout: float | None = None
    #: The bot that plays for a person whose time ran out (a table may choose another).
    stand_in: str = DEFAULT_BOT
    #: Processes that work out hints and reviews (apart from the server and its bots'
    #: threads). A seat gets one hint a decision and one review a deal (asking again gets the
    #: same answer), one at a time.
    hint_workers: int = 1
    #: Threads in which bots think.
    bot_workers: int = 4
    #: Messages read from one client address, at most, a second (after a first burst of
    #: ``message_burst``), all its connections together; each new connection counts as
    #: ``CONNECTION_COST`` messages. The next message waits its turn, so that a client
    #: sending as fast as it can gets no more of the server than that (a person sends a few
    #: a minute).
    messages_per_second: float = 100.0
    message_burst: int = 200
    #: Seconds a connection may be kept waiting by that pace in a row before it is closed
    #: (1008): a client that far over it is flooding, and what it queued is dropped with it.
    message_wait_limit: float = 10.0
    #: Seconds a new connection has to say hello (its first message) before it is closed.
    hello_timeout: float = 5.0
    #: WebSocket connections one client address may have open at once.
    connections_per_address: int = 64
    #: Origins besides the server's own whose pages may use the API and the tables
    #: (``https://cards.example.org``): a request from a page of any other site is refused.
    allowed_origins: tuple[str, ...] = ()
