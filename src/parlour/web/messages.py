"""The web table's WebSocket messages, as types: what a client sends, read once, and what the
server sends back.

A client's message is read by :func:`parse` (its first one by :func:`parse_hello`) into one of
the frozen dataclasses below. The envelope is checked there: the message's size, that it is a
JSON object, its ``ref``, its ``type``; a message refused for any of these is a
:class:`BadMessage`, which carries the ``ref`` to answer it with.

The fields of a known message are typed, and one that cannot be what it should is kept as what
refuses it: a token that is no text is ``None`` (no token given, refused for that by the
seat's check), a malformed move a :class:`BadMove` (refused when it would be played). A table
checks a message in a fixed order (whose seat, whether the deal goes on, whose turn, then the
move), and that order says which refusal a message with several faults gets: reading the
message first changes none of them.

What the server sends is typed too (:class:`typing.TypedDict` shapes, each made by the
function of its name, its fields in the order they are sent).

>>> parse('{"type": "action", "token": "t", "verb": "play", "cards": ["3D"], "ref": 1}')
Play(token='t', move=CardPick(verb='play', cards=('3D',)), ref=1)
>>> parse('{"type": "review", "token": 7, "deal": "last"}')
AskReview(token=None, deal=0, ref=None)
>>> parse('{"type": "shout", "ref": "r"}')
Traceback (most recent call last):
...
parlour.web.messages.BadMessage: unknown message type 'shout'; the types are: hello, action, hint, review, next_deal, back, ping, chat, react
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Literal, TypedDict

from parlour.errors import ParlourError
from parlour.web.limits import quote, shorten

#: The largest WebSocket message read (characters): the largest real one is well under 1 KiB.
MESSAGE_LIMIT = 16_384
#: The longest ``ref`` (as JSON) echoed back to a client.
REF_LIMIT = 100
#: The longest action text a client may send: the longest real one (a Rummy meld of 13
#: cards) is about 45 characters.
ACTION_LIMIT = 200
#: The most cards a move may name: a whole pack.
CARDS_LIMIT = 52

SAY_HELLO = 'say hello first: {"type": "hello", "token": TOKEN or null}'
TYPES = "hello, action, hint, review, next_deal, back, ping, chat, react"


class WebError(ParlourError):
    """A request refused: its message goes to that client alone; ``status`` for HTTP, and
    ``retry_after`` (seconds) when waiting will help. The message is cut short if long: what a
    refusal says never grows with what was sent."""

    def __init__(self, message: str, status: int = 400, retry_after: float | None = None) -> None:
        super().__init__(shorten(message))
        self.status = status
        self.retry_after = retry_after


class BadMessage(WebError):
    """A WebSocket message refused as it was read, and the ``ref`` to answer it with (``None``
    until the message's own ``ref`` could be read, and found short enough to echo)."""

    def __init__(self, message: str, ref: object = None) -> None:
        super().__init__(message)
        self.ref = ref


def read_json(raw: str | bytes, what: str) -> Any:
    """``raw`` read as JSON; :class:`WebError` naming ``what`` if it is not, or is nested too
    deeply (``json`` recurses once per level)."""
    try:
        return json.loads(raw)
    except (ValueError, UnicodeDecodeError):
        raise WebError(f"{what} is not valid JSON") from None
    except RecursionError:
        raise WebError(f"{what} is not valid JSON: it is nested too deeply") from None


# -- what a client sends ---------------------------------------------------------------------


@dataclass(frozen=True)
class ActionText:
    """A move as the text of an action (``"3D 3S"``), read by the rules."""

    text: str


@dataclass(frozen=True)
class CardPick:
    """A move as a verb and the texts of the cards chosen, resolved by ``parlour.moves.pick``."""

    verb: str
    cards: tuple[str, ...]


@dataclass(frozen=True)
class BadMove:
    """What was sent in place of a move, and why it is none: refused when it would be played."""

    reason: str


Move = ActionText | CardPick | BadMove


@dataclass(frozen=True)
class Hello:
    """The first message: the seat's token, or none for a spectator (``spectator`` is false for
    a token that is no text: it is refused as missing)."""

    token: str | None
    spectator: bool
    ref: object = None


@dataclass(frozen=True)
class Play:
    """``action``: play a move for the seat of ``token``."""

    token: str | None
    move: Move
    ref: object = None


@dataclass(frozen=True)
class NextDeal:
    """``next_deal``: deal the next deal once one is over."""

    token: str | None
    ref: object = None


@dataclass(frozen=True)
class AskHint:
    """``hint``: the judge's best move for the seat, at its turn."""

    token: str | None
    ref: object = None


@dataclass(frozen=True)
class AskReview:
    """``review``: the seat's decisions in finished deal ``deal`` judged (``None``: the last
    one). A value that is not a whole number is deal 0, which no deal has: it is refused with
    the same words as a deal out of range."""

    token: str | None
    deal: int | None
    ref: object = None


@dataclass(frozen=True)
class Back:
    """``back``: the person takes their seat back from the stand-in."""

    token: str | None
    ref: object = None


@dataclass(frozen=True)
class Ping:
    """``ping``: answered by a ``pong``."""

    ref: object = None


@dataclass(frozen=True)
class Say:
    """``chat``: a line for everyone at the table, from the seat of ``token``. ``text`` is
    ``None`` when what was sent is no text; the table's chat checks it (:mod:`parlour.web.chat`)
    once the seat is known."""

    token: str | None
    text: str | None
    ref: object = None


@dataclass(frozen=True)
class React:
    """``react``: one of the chat's quick reactions, by its name (``None``: not a text)."""

    token: str | None
    reaction: str | None
    ref: object = None


#: What a client may send once it has said hello.
ClientMessage = Play | NextDeal | AskHint | AskReview | Back | Ping | Say | React


def parse_hello(raw: str) -> Hello:
    """A connection's first message, which must be a ``hello``; :class:`BadMessage` if not."""
    data, ref = _envelope(raw)
    if data.get("type") != "hello":
        raise BadMessage(SAY_HELLO, ref)
    token = data.get("token")
    return Hello(_token(data), token is None, ref)


def parse(raw: str) -> ClientMessage:
    """A message after the ``hello``; :class:`BadMessage` for one too large, not a JSON object,
    with a ``ref`` too long to echo, of no known type, or a second ``hello``."""
    data, ref = _envelope(raw)
    kind = data.get("type")
    match kind:  # (a match compares: a "type" may be any JSON, a list that hashes not)
        case "action":
            return Play(_token(data), _move(data), ref)
        case "next_deal":
            return NextDeal(_token(data), ref)
        case "hint":
            return AskHint(_token(data), ref)
        case "review":
            return AskReview(_token(data), _deal(data), ref)
        case "back":
            return Back(_token(data), ref)
        case "ping":
            return Ping(ref)
        case "chat":
            return Say(_token(data), _text(data, "text"), ref)
        case "react":
            return React(_token(data), _text(data, "reaction"), ref)
        case "hello":
            raise BadMessage("this connection has already said hello", ref)
    raise BadMessage(f"unknown message type {quote(kind)}; the types are: {TYPES}", ref)


def _envelope(raw: str) -> tuple[dict[str, Any], object]:
    """The message as a JSON object, and its ``ref``."""
    if len(raw) > MESSAGE_LIMIT:
        raise BadMessage(f"a message is at most {MESSAGE_LIMIT} characters")
    try:
        data = read_json(raw, "the message")
    except WebError as e:
        raise BadMessage(str(e)) from None
    if not isinstance(data, dict):
        raise BadMessage('a message is a JSON object with a "type"')
    ref = data.get("ref")
    if len(json.dumps(ref)) > REF_LIMIT:
        raise BadMessage(f"a 'ref' is at most {REF_LIMIT} characters of JSON")
    return data, ref


def _token(data: dict[str, Any]) -> str | None:
    token = data.get("token")
    return token if isinstance(token, str) else None


def _text(data: dict[str, Any], field: str) -> str | None:
    value = data.get(field)
    return value if isinstance(value, str) else None


def _deal(data: dict[str, Any]) -> int | None:
    if "deal" not in data:
        return None
    number = data["deal"]
    return number if isinstance(number, int) and not isinstance(number, bool) else 0


def _move(data: dict[str, Any]) -> Move:
    if "action" in data:
        text = data["action"]
        if not isinstance(text, str):
            return BadMove("'action' must be the text of an action, such as \"3D 3S\"")
        if len(text) > ACTION_LIMIT:
            return BadMove(f"an action is at most {ACTION_LIMIT} characters, not {quote(text)}")
        return ActionText(text)
    verb, cards = data.get("verb"), data.get("cards", [])
    if not isinstance(verb, str) or not isinstance(cards, list) or not all(
            isinstance(c, str) for c in cards):
        return BadMove("an action message needs 'action' (text), or 'verb' (text) and 'cards' "
                       "(a list of card texts)")
    if len(verb) > ACTION_LIMIT or len(cards) > CARDS_LIMIT:
        return BadMove(f"a verb is a word and 'cards' lists at most {CARDS_LIMIT} cards")
    return CardPick(verb, tuple(cards))


# -- what the server sends -------------------------------------------------------------------


class Timer(TypedDict):
    """The turn timer running: the seat it runs for and the seconds it has left."""

    seat: int
    seconds: float


class Welcome(TypedDict):
    type: Literal["welcome"]
    seat: int | None
    table: dict[str, Any]


class Update(TypedDict):
    type: Literal["update"]
    version: int
    table: dict[str, Any]
    view: dict[str, Any]
    timer: Timer | None


class Notice(TypedDict):
    type: Literal["notice"]
    message: str


class ErrorMessage(TypedDict):
    type: Literal["error"]
    message: str
    ref: object


class Pong(TypedDict):
    type: Literal["pong"]
    ref: object


class Rematch(TypedDict):
    type: Literal["rematch"]
    table: str
    by: int


class HintReply(TypedDict):
    type: Literal["hint"]
    action: str
    reason: str
    confidence: str
    details: str
    ref: object


class ReviewReply(TypedDict):
    type: Literal["review"]
    deal: int
    level: str
    lines: list[str]
    decisions: list[dict[str, Any]]
    ref: object


class ChatLine(TypedDict):
    """A line of a table's chat: its number (from 1), the seat that wrote it, what the table
    called that seat then, its text (a reaction's words), the reaction's name (``None``: a
    line typed) and the server's time (seconds since 1970, to the millisecond)."""

    n: int
    seat: int
    name: str
    text: str
    reaction: str | None
    t: float


class ChatMessage(TypedDict):
    type: Literal["chat"]
    lines: list[ChatLine]


ServerMessage = (Welcome | Update | Notice | ErrorMessage | Pong | Rematch | HintReply
                 | ReviewReply | ChatMessage)


def welcome(seat: int | None, table: dict[str, Any]) -> Welcome:
    return {"type": "welcome", "seat": seat, "table": table}


def update(version: int, table: dict[str, Any], view: dict[str, Any],
           timer: Timer | None) -> Update:
    return {"type": "update", "version": version, "table": table, "view": view, "timer": timer}


def notice(message: str) -> Notice:
    return {"type": "notice", "message": message}


def error(message: str, ref: object) -> ErrorMessage:
    return {"type": "error", "message": message, "ref": ref}


def pong(ref: object) -> Pong:
    return {"type": "pong", "ref": ref}


def rematch_message(table: str, by: int) -> Rematch:
    return {"type": "rematch", "table": table, "by": by}


def hint_reply(answer: dict[str, str], ref: object) -> HintReply:
    """A hint worked out (:func:`parlour.web.hints.work_out_hint`), as sent to who asked."""
    return {"type": "hint", "action": answer["action"], "reason": answer["reason"],
            "confidence": answer["confidence"], "details": answer["details"], "ref": ref}


def review_reply(answer: dict[str, Any], ref: object) -> ReviewReply:
    """A review worked out (:func:`parlour.web.hints.work_out_review`), as sent to who asked."""
    return {"type": "review", "deal": answer["deal"], "level": answer["level"],
            "lines": answer["lines"], "decisions": answer["decisions"], "ref": ref}


def chat_message(lines: list[ChatLine]) -> ChatMessage:
    """Chat lines for every client: a new one, or the latest ones for a client connecting."""
    return {"type": "chat", "lines": lines}
