"""A web table's chat: the lines its players write and their quick reactions, for everyone at
the table to read.

A seated player writes a line of text or sends one of the fixed :data:`REACTIONS`; either
becomes a :class:`~parlour.web.messages.ChatLine`, numbered from 1, with the seat, what the
table called the seat when it was written and the server's time. Spectators read; they never
write. A line is stripped, then must hold some text, at most :data:`TEXT_LIMIT` characters
(Unicode code points) on one line, without control characters: no newline or tab, no lone
surrogate, no line or paragraph separator, and none of the bidirectional controls that would
make a line read in another order than it was typed. Each seat writes at most
:data:`RATE_LINES` lines (reactions included) in :data:`RATE_SECONDS` seconds: that is on top
of its connection's pace of messages, which every message counts against.

The table keeps its last :data:`KEPT` lines, in its record too; a client that connects is sent
the last :data:`RECENT`. A line is what a player typed and nothing else: the chat tells nobody
anything the table hides. Muting a seat is each reader's own choice, kept by their browser: the
server sends every line to everyone, and is never told who muted whom.

:class:`Chat` changes only itself: the table stores each new line and sends it to everyone.

>>> chat = Chat(clock=lambda: 0.0, now=lambda: 1.5)
>>> chat.write(0, "Ann", "  good luck, all  ")
{'n': 1, 'seat': 0, 'name': 'Ann', 'text': 'good luck, all', 'reaction': None, 't': 1.5}
>>> chat.react(1, "Bob", "thanks")["text"]
'Thanks!'
>>> chat.write(0, "Ann", "a\\nb")
Traceback (most recent call last):
...
parlour.web.messages.WebError: a chat line is one line of text, without control characters (U+000A)
"""

from __future__ import annotations

import math
import time
import unicodedata
from collections import deque
from collections.abc import Callable, Iterable, Mapping
from typing import Any

from parlour.web.limits import quote
from parlour.web.messages import ChatLine, WebError

#: The longest chat line, in characters (Unicode code points), once stripped.
TEXT_LIMIT = 200
#: Each seat writes at most this many lines (reactions included) in this many seconds.
RATE_LINES = 5
RATE_SECONDS = 10.0
#: The lines a table keeps, in memory, in the database and in its record: the last ones.
KEPT = 500
#: The lines sent to a client when it connects.
RECENT = 50
#: The quick reactions, by name (what a client sends), and their words (what everyone reads).
REACTIONS: dict[str, str] = {
    "good-luck": "Good luck!",
    "well-played": "Well played!",
    "thanks": "Thanks!",
    "oops": "Oops!",
    "good-game": "Good game!",
}
#: The bidirectional controls (embeddings, overrides, isolates, marks): a line holding one
#: could read in another order than it was typed.
BIDI_CONTROLS = frozenset("\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e"
                          "\u2066\u2067\u2068\u2069")
#: The Unicode categories refused in a line: controls, lone surrogates, line and paragraph
#: separators.
REFUSED_CATEGORIES = frozenset({"Cc", "Cs", "Zl", "Zp"})


def checked_text(text: str | None) -> str:
    """``text`` stripped, as a chat line; :class:`WebError` that says why if it cannot be one."""
    if text is None:
        raise WebError("a chat message's 'text' is the text of the line")
    text = text.strip()
    if not text:
        raise WebError("a chat line needs some text")
    if len(text) > TEXT_LIMIT:
        raise WebError(f"a chat line is at most {TEXT_LIMIT} characters: this one has "
                       f"{len(text)}")
    for c in text:
        if c in BIDI_CONTROLS or unicodedata.category(c) in REFUSED_CATEGORIES:
            raise WebError("a chat line is one line of text, without control characters "
                           f"(U+{ord(c):04X})")
    return text


def chat_line(value: Mapping[str, Any]) -> ChatLine:
    """A stored line (:meth:`Chat.record`, read back from the database) as a chat line."""
    reaction = value.get("reaction")
    return {"n": int(value["n"]), "seat": int(value["seat"]), "name": str(value["name"]),
            "text": str(value["text"]), "reaction": None if reaction is None else str(reaction),
            "t": float(value["t"])}


class Chat:
    """One table's chat: its last :data:`KEPT` lines and each seat's recent lines (for the
    rate). ``clock`` paces the seats (``time.monotonic``); ``now`` stamps the lines
    (``time.time``)."""

    def __init__(self, clock: Callable[[], float] = time.monotonic,
                 now: Callable[[], float] = time.time) -> None:
        self.clock = clock
        self.now = now
        self._lines: deque[ChatLine] = deque(maxlen=KEPT)
        #: The number of the last line written (lines before the last KEPT included).
        self.count = 0
        #: When each seat wrote its recent lines (``clock``), oldest first.
        self._written: dict[int, deque[float]] = {}

    def write(self, seat: int, name: str, text: str | None) -> ChatLine:
        """A line typed at ``seat``, called ``name``: checked (:func:`checked_text`), paced, and
        kept; :class:`WebError` if refused, and nothing changes."""
        return self._add(seat, name, checked_text(text), None)

    def react(self, seat: int, name: str, reaction: str | None) -> ChatLine:
        """The quick reaction ``reaction`` (one of :data:`REACTIONS`) from ``seat``, as a line of
        its words; :class:`WebError` if refused."""
        words = REACTIONS.get(reaction) if reaction is not None else None
        if words is None:
            raise WebError(f"unknown reaction {quote(reaction)}; the reactions are: "
                           + ", ".join(REACTIONS))
        return self._add(seat, name, words, reaction)

    def _add(self, seat: int, name: str, text: str, reaction: str | None) -> ChatLine:
        self._pace(seat)
        self.count += 1
        line: ChatLine = {"n": self.count, "seat": seat, "name": name, "text": text,
                          "reaction": reaction, "t": round(self.now(), 3)}
        self._lines.append(line)
        return line

    def _pace(self, seat: int) -> None:
        """Count a line from ``seat``; :class:`WebError` (429) if it has written its most
        lines of the last :data:`RATE_SECONDS` seconds, saying when it may write again."""
        now = self.clock()
        written = self._written.setdefault(seat, deque())
        while written and written[0] <= now - RATE_SECONDS:
            written.popleft()
        if len(written) >= RATE_LINES:
            wait = written[0] + RATE_SECONDS - now
            raise WebError(f"you are writing too fast: at most {RATE_LINES} lines in "
                           f"{RATE_SECONDS:g} s; try again in {math.ceil(wait)} s", 429,
                           retry_after=wait)
        written.append(now)

    def recent(self, count: int = RECENT) -> list[ChatLine]:
        """The last ``count`` lines, oldest first."""
        lines = list(self._lines)
        return lines[-count:] if count else []

    def record(self) -> list[ChatLine]:
        """Every line kept (the last :data:`KEPT`), oldest first: the record's ``chat``."""
        return list(self._lines)

    def restore(self, lines: Iterable[Mapping[str, Any]]) -> None:
        """Take up the lines the database kept (oldest first), numbering on from the last."""
        self._lines.clear()
        self._lines.extend(chat_line(line) for line in lines)
        self.count = self._lines[-1]["n"] if self._lines else 0
