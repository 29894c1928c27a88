"""A web table's seats: who holds each, the tokens that prove it, and what the table calls them.

A person holds a seat by a token given when they took it; only its hash is kept, and every seat
is compared in constant time. A seat taken during the match is played from the next deal: its
new holder never sees the hand someone else held. The table's creator holds the owner token,
which hands an absent person's seat to a bot or frees it.

What the table calls each seat (its player's name, numbered when two share one) is kept change
by change, from the event each change applied to: a log line names the seats as they were when
its action was played.

:class:`Seating` changes only itself: the table stores what changed and tells its clients.

>>> from parlour.registry import new_game
>>> seating = Seating(new_game("rummy"), [Seat(0, "human", None, "", None),
...                                        Seat(1, "bot", "greedy", "greedy", None)], None)
>>> token = seating.take(seating.choose(None, "full"), "Ann", sits_from=0)
>>> seating.seat_of(token), seating.labels(), seating.all_taken()
(0, ('Ann', 'greedy'), True)
"""

from __future__ import annotations

import bisect
import secrets
from dataclasses import dataclass
from typing import Any, Literal

from parlour.bots import bot_names, bot_spec, offered_bots, parse_bot, plays
from parlour.errors import VariantError
from parlour.game import Game
from parlour.web.limits import quote
from parlour.web.messages import WebError
from parlour.web.settings import DEFAULT_BOT
from parlour.web.store import SeatRow, hash_token, token_matches

#: The longest name a person may sit down under.
NAME_LIMIT = 40
#: The longest bot name with its settings a client may send.
BOT_SPEC_LIMIT = 100

#: What the table calls each seat, by seat (:meth:`Seating.label`).
Names = tuple[str, ...]
#: Who plays a seat: its bot, its person, or the table's stand-in bot for a person.
Player = Literal["bot", "person", "stand-in"]


def checked_bot(spec: object, game: Game, what: str = "") -> str:
    """``spec`` as a bot a seat of ``game`` may take (a name, with its settings where it takes
    any: ``ismcts:simulations=50``), or a :class:`WebError` that says why not, after ``what``:
    a searching level cannot play a family without compiled parts."""
    if not isinstance(spec, str) or len(spec) > BOT_SPEC_LIMIT:
        raise WebError(f"{what}unknown bot {quote(spec)}; the bots are: " + ", ".join(bot_names()))
    try:
        checked = bot_spec(spec)
    except VariantError as e:
        raise WebError(what + str(e)) from None
    if not plays(parse_bot(checked)[0], game.variant):
        raise WebError(f"{what}{checked} cannot play {game.name}: it searches deals that game "
                       "cannot deal it; choose one of " + ", ".join(offered_bots(game.name)))
    return checked


def requested_seats(spec: object, game: Game) -> list[Seat]:
    """The seats a lobby request asks for (``None``: a person and the default bots), or a
    :class:`WebError` that names the seat that is wrong."""
    players = game.players
    if spec is None:
        spec = [{"kind": "human"}] + [{"kind": "bot", "bot": DEFAULT_BOT}] * (players - 1)
    if not isinstance(spec, list) or len(spec) != players:
        raise WebError(f"'seats' must list the {players} seats, each "
                       '{"kind": "human"} or {"kind": "bot", "bot": NAME}')
    seats = []
    for n, s in enumerate(spec):
        kind = s.get("kind") if isinstance(s, dict) else None
        if kind == "human":
            seats.append(Seat(n, "human", None, "", None))
            continue
        if kind != "bot":
            raise WebError(f"seat {n}: the kind must be \"human\" or \"bot\", not {quote(kind)}")
        name = checked_bot(s.get("bot") or DEFAULT_BOT, game, f"seat {n}: ")
        seats.append(Seat(n, "bot", name, name, None))
    return seats


@dataclass
class Seat:
    seat: int
    kind: str  # "human" or "bot"
    bot_name: str | None
    name: str
    token_hash: str | None
    #: The deal from which the seat's holder plays it: a person who takes a seat freed during
    #: the match sees and plays it from the next deal, never the hand someone else held.
    sits_from: int = 0
    connections: int = 0
    #: A person who let the turn timer run out: the table's stand-in bot plays for them until
    #: they act again.
    away: bool = False
    #: The public id of the holder's profile, if they sat down with one.
    profile: str | None = None

    def seated(self, deal: int) -> bool:
        """Whether a person holds this seat and plays it in deal number ``deal``."""
        return self.kind == "human" and self.token_hash is not None and deal >= self.sits_from

    def info(self, deal: int) -> dict[str, Any]:
        """What everyone may know of the seat during deal number ``deal``; ``away``: the
        stand-in plays it (its person is away, or nobody plays it in this deal)."""
        human = self.kind == "human"
        return {"seat": self.seat, "kind": self.kind, "bot": self.bot_name, "name": self.name,
                "taken": not human or self.token_hash is not None, "profile": self.profile,
                "connected": not human or self.connections > 0,
                "away": human and (self.away or (deal > 0 and not self.seated(deal)))}

    def row(self) -> SeatRow:
        """Who holds the seat, as the database keeps it."""
        return SeatRow(self.seat, self.kind, self.bot_name, self.name, self.token_hash,
                       self.sits_from, self.profile)


class Seating:
    """The seats of one table of ``game``, and the hash of its owner token (``None``: no
    owner, a table resumed from before owners)."""

    def __init__(self, game: Game, seats: list[Seat], owner_hash: str | None) -> None:
        self.game = game
        self.seats = seats
        self.owner_hash = owner_hash
        #: What the table called its seats, change by change: the first event each names
        #: applied to, and the names.
        self._names: list[tuple[int, Names]] = [(1, self.labels())]
        #: Whether ``_names`` is in the database (it is, from its first change once the match
        #: has begun: until then the seats' names are all there is to it).
        self._names_stored = False

    # -- tokens --------------------------------------------------------------------------------
    def seat_of(self, token: str | None) -> int:
        """The seat ``token`` holds; :class:`WebError` otherwise. Every seat is compared, in
        constant time, so the answer's timing says nothing about the tokens."""
        if token is None:
            raise WebError("a token (the text given when the seat was taken) is required", 401)
        found = -1
        for s in self.seats:
            if token_matches(token, s.token_hash):
                found = s.seat
        if found < 0:
            raise WebError("that token holds no seat at this table", 401)
        return found

    def check_owner(self, token: str | None) -> None:
        """Refuse (403) anyone but the holder of the owner token."""
        if token is None or not token_matches(token, self.owner_hash):
            raise WebError("only the table's creator, with its owner token, may hand a seat on",
                           403)

    def check_seat(self, seat: object) -> int:
        """``seat`` as a seat number of this table; :class:`WebError` if it is none."""
        if not isinstance(seat, int) or isinstance(seat, bool) or not 0 <= seat < len(self.seats):
            raise WebError(f"{quote(seat)} is not a seat of this table: seats are 0 to "
                           f"{len(self.seats) - 1}")
        return seat

    # -- who plays -----------------------------------------------------------------------------
    def plays(self, seat: int, deal: int) -> bool:
        """Whether a person plays ``seat`` in deal number ``deal`` (a seat nobody holds, or whose
        holder sits down at a later deal, is played by the stand-in)."""
        return self.seats[seat].seated(deal)

    def player(self, seat: int, deal: int) -> Player:
        """Who plays ``seat`` in deal number ``deal``: its bot, its person, or the stand-in (the
        person is away, or nobody plays the seat in this deal)."""
        held = self.seats[seat]
        if held.kind == "bot":
            return "bot"
        return "stand-in" if held.away or not held.seated(deal) else "person"

    def all_taken(self) -> bool:
        """Whether a person holds every person's seat."""
        return all(s.token_hash is not None for s in self.seats if s.kind == "human")

    def any_taken(self) -> bool:
        """Whether a person holds any seat."""
        return any(s.token_hash for s in self.seats)

    def has_people(self) -> bool:
        """Whether any seat is a person's (taken or not)."""
        return any(s.kind == "human" for s in self.seats)

    def request(self) -> list[dict[str, Any]]:
        """The seats as a lobby request asks for them (:func:`requested_seats`): a rematch's."""
        return [{"kind": "bot", "bot": s.bot_name} if s.kind == "bot" else {"kind": "human"}
                for s in self.seats]

    # -- changes -------------------------------------------------------------------------------
    def choose(self, seat: object, full: str) -> int:
        """The seat a person asks to take (``None``: the first free one; refused with ``full``,
        409, when there is none), checked to be one of the table's."""
        if seat is None:
            free = self._free_seats()
            if not free:
                raise WebError(full, 409)
            seat = free[0]
        return self.check_seat(seat)

    def take(self, seat: int, name: object, sits_from: int, profile: str | None = None) -> str:
        """Seat a person under ``name`` (``None`` or empty: "Player N") at free person's seat
        ``seat``, playing it from deal ``sits_from``, with the public id of their ``profile``
        if they have one; returns their new token."""
        if self.seats[seat].kind != "human":
            raise WebError(f"seat {seat} is a bot's seat")
        if seat not in self._free_seats():
            raise WebError(f"seat {seat} is already taken", 409)
        if name is None or name == "":
            name = f"Player {seat}"
        if not isinstance(name, str) or len(name) > NAME_LIMIT or not name.isprintable():
            raise WebError(f"a name is printable text of at most {NAME_LIMIT} characters")
        token = secrets.token_urlsafe(24)
        chosen = self.seats[seat]
        chosen.name, chosen.token_hash, chosen.away = name, hash_token(token), False
        chosen.sits_from, chosen.profile = sits_from, profile
        return token

    def check_absent(self, seat: int) -> None:
        """Refuse (409) to hand on ``seat`` unless it is a person's, and they are not here."""
        chosen = self.seats[seat]
        if chosen.kind != "human":
            raise WebError(f"seat {seat} is a bot's seat", 409)
        if chosen.connections:
            raise WebError(f"{self.label(seat)} is connected: only an absent player's seat "
                           "can be handed on", 409)

    def free(self, seat: int) -> None:
        """Free person's seat ``seat`` for someone else to take; 409 if nobody holds it."""
        chosen = self.seats[seat]
        if chosen.token_hash is None:
            raise WebError(f"seat {seat} is free already", 409)
        chosen.name, chosen.token_hash, chosen.away, chosen.profile = "", None, False, None

    def seat_bot(self, seat: int, bot: str) -> None:
        """Seat the bot ``bot`` (checked: :func:`checked_bot`) at ``seat`` for good."""
        chosen = self.seats[seat]
        chosen.kind, chosen.bot_name, chosen.name, chosen.profile = "bot", bot, bot, None
        chosen.token_hash, chosen.away = None, False

    def mark_away(self, seat: int, away: bool) -> bool:
        """Mark ``seat``'s person away (the stand-in plays for them) or back; whether that
        changed anything."""
        held = self.seats[seat]
        changed = held.away != away
        held.away = away
        return changed

    def connected(self, seat: int, change: int) -> None:
        """Count a connection of ``seat``'s person opened (``change`` 1) or closed (-1)."""
        self.seats[seat].connections += change

    def _free_seats(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind == "human" and s.token_hash is None]

    # -- what the table calls its seats --------------------------------------------------------
    def label(self, seat: int) -> str:
        """What the table calls ``seat``: its player's name, numbered by seat when another
        seat has the same name (bots are named after their level: "greedy 1", "greedy 3")."""
        name = self.seats[seat].name or self.game.seat_name(seat)
        shared = any((s.name or self.game.seat_name(s.seat)) == name
                     for s in self.seats if s.seat != seat)
        return f"{name} {seat}" if shared else name

    def labels(self) -> Names:
        """What the table calls each seat now (:meth:`label`)."""
        return tuple(self.label(s.seat) for s in self.seats)

    def forget(self, profile: str, former: str) -> set[int]:
        """The seats held with ``profile`` (a deleted one) are called ``former`` from now on,
        and so are they in what the table called them before; returns those seats."""
        held = {s.seat for s in self.seats if s.profile == profile}
        for seat in held:
            self.seats[seat].name, self.seats[seat].profile = former, None
        self._names = [(n, tuple(former if i in held else v for i, v in enumerate(names)))
                       for n, names in self._names]
        return held

    def names_at(self, event: int) -> Names:
        """What the table called its seats when event number ``event`` happened."""
        at = bisect.bisect_right(self._names, event, key=lambda entry: entry[0]) - 1
        return self._names[max(at, 0)][1]

    def latest_names(self) -> Names:
        """The names kept last (those of the events to come)."""
        return self._names[-1][1]

    def rename(self, version: int) -> list[tuple[int, Names]]:
        """Keep what the table calls its seats from the event after ``version`` on, if that
        changed; returns what the database is to keep of it: nothing before the first event
        (no line names a seat yet, and the seats say the names), then everything once, and
        each change after that."""
        names = self.labels()
        first, last = self._names[-1]
        if names == last:
            return []
        start = version + 1
        if first == start:
            self._names[-1] = (start, names)
        else:
            self._names.append((start, names))
        if version == 0:
            return []
        kept = self._names if not self._names_stored else self._names[-1:]
        self._names_stored = True
        return list(kept)

    def restore_names(self, stored: list[tuple[int, list[str]]]) -> None:
        """Take up the names the database kept (:meth:`rename`); none kept (they never changed
        once the match had begun, or were stored by an earlier version): the seats' names
        now."""
        if stored:
            self._names = [(n, tuple(entry)) for n, entry in stored]
            self._names_stored = True

    # -- what everyone may know ----------------------------------------------------------------
    def info(self, deal: int) -> list[dict[str, Any]]:
        """Each seat as the table's info shows it during deal number ``deal``."""
        return [{**s.info(deal), "label": self.game.seat_name(s.seat),
                 "display": self.label(s.seat)} for s in self.seats]

    def records(self) -> list[dict[str, Any]]:
        """Who sat where, as a match record keeps it."""
        return [{k: v for k, v in s.info(0).items() if k not in ("connected", "away")}
                for s in self.seats]
