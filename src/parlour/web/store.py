"""Persistence of the web tables with SQLAlchemy: tables, seats, every event in order, and
the chat.

A table is stored as the data that rebuilds it exactly: its game (variant, players, options),
its match seed, its seats, its events (each deal dealt, each action in notation), in order, and
what it called its seats since each change of their names (so that its log names each seat as
it was when the line was written), and the last lines of its chat.
Replaying the events through :class:`~parlour.match.Match` gives back the match where it was,
because every deal follows from the seed and every bot choice from the position. A finished
match is also kept as the JSON match record that ``parlour replay`` reads.

Tokens are never stored, only their SHA-256 hash; :func:`token_matches` compares in constant
time.

>>> store = Store("sqlite://")
>>> store.add_table(TableRow("t-1", "big-two", 4, {}, 7, "main", "waiting"),
...                 [SeatRow(0, "human", None, "", None), SeatRow(1, "bot", "greedy", "greedy", None)])
>>> store.add_event("t-1", 1, "deal", -1, "")
>>> [t.id for t in store.tables("main")], store.events("t-1")
(['t-1'], [('deal', -1, '')])
"""

from __future__ import annotations

import hashlib
import hmac
import json
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    Engine,
    Float,
    Integer,
    MetaData,
    String,
    Table,
    Text,
    create_engine,
    delete,
    event,
    insert,
    inspect,
    select,
    text,
    update,
)
from sqlalchemy.pool import StaticPool

metadata = MetaData()

tables_t = Table(
    "parlour_tables", metadata,
    Column("id", String(64), primary_key=True),
    Column("variant", String(64), nullable=False),
    Column("players", Integer, nullable=False),
    Column("options", Text, nullable=False),  # JSON object of option values
    Column("seed", BigInteger, nullable=False),
    Column("owner", String(64), nullable=False, index=True),  # the instance that serves it
    Column("status", String(16), nullable=False),
    Column("created", Float, nullable=False),
    Column("record", Text, nullable=True),  # the match record, once finished or archived
    # Added later: a database made before them gets them at start-up (see _add_columns).
    Column("seeded", Boolean, nullable=False, server_default="0"),  # the creator chose the seed
    Column("owner_hash", String(64), nullable=True),  # the hash of the creator's owner token
    Column("turn_timeout", Float, nullable=True),  # seconds a person has for a turn
    Column("stand_in", String(32), nullable=True),  # the bot that plays for an absent person
    # The table as the lobby lists it (JSON), kept by its process for the others to list.
    Column("lobby", Text, nullable=True),
    # A first-game tutorial: its person's seat is coached (parlour.tutorial).
    Column("tutorial", Boolean, nullable=False, server_default="0"),
)

seats_t = Table(
    "parlour_seats", metadata,
    Column("table_id", String(64), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("kind", String(8), nullable=False),
    Column("bot", String(32), nullable=True),
    Column("name", String(64), nullable=False),
    Column("token_hash", String(64), nullable=True),
    # Added later (see _add_columns): the deal from which the seat's holder plays it.
    Column("sits_from", Integer, nullable=False, server_default="0"),
    # Added later: the profile of the person who holds the seat (its public id), if any.
    Column("profile", String(16), nullable=True),
)

events_t = Table(
    "parlour_events", metadata,
    Column("table_id", String(64), primary_key=True),
    Column("n", Integer, primary_key=True),  # 1, 2, … in the order they happened
    Column("kind", String(8), nullable=False),  # "deal" or "action"
    Column("seat", Integer, nullable=False),
    Column("text", String(200), nullable=False),
)

names_t = Table(
    # What the table called its seats from event ``n`` on (a JSON list of names, by seat): a
    # row for each change, once the match has begun; a log line names the seats as they were
    # when its action was played, restarts and all.
    "parlour_names", metadata,
    Column("table_id", String(64), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("names", Text, nullable=False),
)

chat_t = Table(
    # The table's chat (parlour.web.chat): its last lines, each numbered from 1 in the order
    # written, with the seat, what the table called it then, the text (a reaction's words),
    # the reaction's name (null for a line typed) and the server's time (seconds since 1970).
    "parlour_chat", metadata,
    Column("table_id", String(64), primary_key=True),
    Column("n", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("name", String(64), nullable=False),
    Column("text", Text, nullable=False),
    Column("reaction", String(32), nullable=True),
    Column("t", Float, nullable=False),
)


profiles_t = Table(
    # A person's profile: a name and a private key, of which only the hash is kept.
    "parlour_profiles", metadata,
    Column("id", String(16), primary_key=True),  # public: the key's hash, cut short
    Column("key_hash", String(64), nullable=False, unique=True),
    Column("name", String(64), nullable=False),
    Column("created", Float, nullable=False),
)

ratings_t = Table(
    # A profile's rating in a variant (openskill's mu and sigma) and its rated matches.
    "parlour_ratings", metadata,
    Column("profile", String(16), primary_key=True),
    Column("variant", String(64), primary_key=True),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
    Column("matches", Integer, nullable=False),
)

results_t = Table(
    # Each finished match's result for each seat a profile held, with the rating after it.
    "parlour_results", metadata,
    Column("table_id", String(64), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("profile", String(16), nullable=False, index=True),
    Column("variant", String(64), nullable=False, index=True),
    Column("finished", Float, nullable=False),
    Column("place", Integer, nullable=False),  # 1: won (shared by a winning side)
    Column("players", Integer, nullable=False),
    Column("total", Float, nullable=False),
    Column("mu", Float, nullable=False),
    Column("sigma", Float, nullable=False),
)


@dataclass
class ProfileRow:
    id: str
    name: str


@dataclass
class RatingRow:
    profile: str
    variant: str
    mu: float
    sigma: float
    matches: int
    name: str = ""


@dataclass
class ResultRow:
    table_id: str
    seat: int
    profile: str
    variant: str
    finished: float
    place: int
    players: int
    total: float
    mu: float
    sigma: float


@dataclass
class TableRow:
    id: str
    variant: str
    players: int
    options: dict[str, Any]
    seed: int
    owner: str
    status: str
    record: dict[str, Any] | None = None
    seeded: bool = False
    owner_hash: str | None = None
    turn_timeout: float | None = None
    stand_in: str | None = None
    tutorial: bool = False


@dataclass
class SeatRow:
    seat: int
    kind: str
    bot: str | None
    name: str
    token_hash: str | None
    sits_from: int = 0
    profile: str | None = None


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def token_matches(token: str, token_hash: str | None) -> bool:
    """Whether ``token`` is the one whose hash is stored, compared in constant time.

    >>> token_matches("abc", hash_token("abc")), token_matches("abd", hash_token("abc"))
    (True, False)
    """
    if token_hash is None:
        return False
    return hmac.compare_digest(hash_token(token), token_hash)


def database_url(url: str) -> str:
    """``url`` as SQLAlchemy takes it: a plain ``postgresql://`` URL means the psycopg 3 driver
    (the extra ``parlour[postgres]``), which SQLAlchemy would otherwise take for psycopg2."""
    if url.startswith("postgresql://") or url.startswith("postgres://"):
        return "postgresql+psycopg://" + url.split("://", 1)[1]
    return url


class Store:
    """The database of the web tables. Every method is one transaction."""

    def __init__(self, url: str) -> None:
        url = database_url(url)
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            # One connection shared by the server's threads: the event loop writes, a worker
            # thread may read; an in-memory database must be the same one for both.
            kwargs = {"connect_args": {"check_same_thread": False}, "poolclass": StaticPool}
        self.engine: Engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            event.listen(self.engine, "connect", _sqlite_pragmas)
        metadata.create_all(self.engine)
        _add_columns(self.engine)
        # Built once: an event is written on every move, and building the statement anew costs
        # more than running it.
        self._add_event = insert(events_t)

    def close(self) -> None:
        self.engine.dispose()

    def add_table(self, row: TableRow, seats: list[SeatRow]) -> None:
        with self.engine.begin() as db:
            db.execute(insert(tables_t).values(
                id=row.id, variant=row.variant, players=row.players,
                options=json.dumps(row.options), seed=row.seed, owner=row.owner,
                status=row.status, created=time.time(), record=None, seeded=row.seeded,
                owner_hash=row.owner_hash, turn_timeout=row.turn_timeout, stand_in=row.stand_in,
                tutorial=row.tutorial,
            ))
            db.execute(insert(seats_t), [
                {"table_id": row.id, "seat": s.seat, "kind": s.kind, "bot": s.bot,
                 "name": s.name, "token_hash": s.token_hash, "sits_from": s.sits_from,
                 "profile": s.profile}
                for s in seats
            ])

    def take_seat(self, table_id: str, seat: int, name: str, token_hash: str,
                  sits_from: int = 0, profile: str | None = None) -> None:
        with self.engine.begin() as db:
            db.execute(update(seats_t)
                       .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat)
                       .values(name=name, token_hash=token_hash, sits_from=sits_from,
                               profile=profile))

    def set_seat(self, table_id: str, seat: SeatRow) -> None:
        """Store who holds ``seat`` now (a seat handed to a bot, or freed)."""
        with self.engine.begin() as db:
            db.execute(update(seats_t)
                       .where(seats_t.c.table_id == table_id, seats_t.c.seat == seat.seat)
                       .values(kind=seat.kind, bot=seat.bot, name=seat.name,
                               token_hash=seat.token_hash, profile=seat.profile))

    def add_event(self, table_id: str, n: int, kind: str, seat: int, text: str) -> None:
        with self.engine.begin() as db:
            db.execute(self._add_event,
                       {"table_id": table_id, "n": n, "kind": kind, "seat": seat, "text": text})

    def set_names(self, table_id: str, n: int, names: list[str]) -> None:
        """Store what the table calls its seats from event ``n`` on (replacing what was stored
        for ``n``)."""
        with self.engine.begin() as db:
            db.execute(delete(names_t).where(names_t.c.table_id == table_id, names_t.c.n == n))
            db.execute(insert(names_t).values(table_id=table_id, n=n, names=json.dumps(names)))

    def names(self, table_id: str) -> list[tuple[int, list[str]]]:
        """What the table called its seats, change by change: ``(from event n, names)``, in
        order; ``[]`` if they never changed once its match had begun."""
        with self.engine.connect() as db:
            rows = db.execute(select(names_t.c.n, names_t.c.names)
                              .where(names_t.c.table_id == table_id)
                              .order_by(names_t.c.n)).all()
        return [(r.n, json.loads(r.names)) for r in rows]

    def add_chat(self, table_id: str, line: Mapping[str, Any], keep: int) -> None:
        """Store a new chat line (``n``, ``seat``, ``name``, ``text``, ``reaction``, ``t``),
        keeping the table's last ``keep`` lines only."""
        with self.engine.begin() as db:
            db.execute(insert(chat_t).values(
                table_id=table_id, n=line["n"], seat=line["seat"], name=line["name"],
                text=line["text"], reaction=line["reaction"], t=line["t"]))
            db.execute(delete(chat_t).where(chat_t.c.table_id == table_id,
                                            chat_t.c.n <= line["n"] - keep))

    def chat(self, table_id: str) -> list[dict[str, Any]]:
        """The table's chat lines kept, oldest first."""
        with self.engine.connect() as db:
            rows = db.execute(select(chat_t).where(chat_t.c.table_id == table_id)
                              .order_by(chat_t.c.n)).all()
        # (by the mapping: a row's own ``t`` is its tuple, not the column)
        return [{key: r._mapping[key] for key in ("n", "seat", "name", "text", "reaction", "t")}
                for r in rows]

    def set_status(self, table_id: str, status: str, record: dict[str, Any] | None = None) -> None:
        values: dict[str, Any] = {"status": status}
        if record is not None:
            values["record"] = json.dumps(record)
        with self.engine.begin() as db:
            db.execute(update(tables_t).where(tables_t.c.id == table_id).values(**values))

    def delete_tables(self, owner: str) -> None:
        """Forget every table ``owner`` serves, with its seats, events and chat."""
        with self.engine.begin() as db:
            ids = select(tables_t.c.id).where(tables_t.c.owner == owner)
            db.execute(delete(events_t).where(events_t.c.table_id.in_(ids)))
            db.execute(delete(names_t).where(names_t.c.table_id.in_(ids)))
            db.execute(delete(chat_t).where(chat_t.c.table_id.in_(ids)))
            db.execute(delete(seats_t).where(seats_t.c.table_id.in_(ids)))
            db.execute(delete(tables_t).where(tables_t.c.owner == owner))

    # -- people ---------------------------------------------------------------------------------
    def add_profile(self, profile: ProfileRow, key_hash: str) -> None:
        with self.engine.begin() as db:
            db.execute(insert(profiles_t).values(id=profile.id, key_hash=key_hash,
                                                 name=profile.name, created=time.time()))

    def profile(self, profile_id: str) -> ProfileRow | None:
        with self.engine.connect() as db:
            row = db.execute(select(profiles_t.c.id, profiles_t.c.name)
                             .where(profiles_t.c.id == profile_id)).first()
        return None if row is None else ProfileRow(row.id, row.name)

    def profile_key_hash(self, profile_id: str) -> str | None:
        with self.engine.connect() as db:
            return db.execute(select(profiles_t.c.key_hash)
                              .where(profiles_t.c.id == profile_id)).scalar()

    def rename_profile(self, profile_id: str, name: str) -> None:
        """Call the profile ``name`` from now on (the names the tables showed stay)."""
        with self.engine.begin() as db:
            db.execute(update(profiles_t).where(profiles_t.c.id == profile_id)
                       .values(name=name))

    def delete_profile(self, profile_id: str, former: str) -> None:
        """Forget a profile: its key, name and ratings; its results stay, unnamed, and every
        seat it held is called ``former`` in the tables and their records."""
        with self.engine.begin() as db:
            held = db.execute(select(seats_t.c.table_id, seats_t.c.seat)
                              .where(seats_t.c.profile == profile_id)).all()
            db.execute(update(seats_t).where(seats_t.c.profile == profile_id)
                       .values(name=former, profile=None))
            for table_id in {h.table_id for h in held}:
                seats = {h.seat for h in held if h.table_id == table_id}
                names = db.execute(select(names_t.c.n, names_t.c.names)
                                   .where(names_t.c.table_id == table_id)).all()
                for n, raw in names:
                    renamed = [former if i in seats else v for i, v in enumerate(json.loads(raw))]
                    db.execute(update(names_t).where(names_t.c.table_id == table_id,
                                                     names_t.c.n == n)
                               .values(names=json.dumps(renamed)))
                raw = db.execute(select(tables_t.c.record)
                                 .where(tables_t.c.id == table_id)).scalar()
                if raw:
                    db.execute(update(tables_t).where(tables_t.c.id == table_id)
                               .values(record=json.dumps(forget_in_record(
                                   json.loads(raw), seats, former))))
            db.execute(update(results_t).where(results_t.c.profile == profile_id)
                       .values(profile=""))
            db.execute(delete(ratings_t).where(ratings_t.c.profile == profile_id))
            db.execute(delete(profiles_t).where(profiles_t.c.id == profile_id))

    def ratings(self, profile_id: str) -> list[RatingRow]:
        with self.engine.connect() as db:
            rows = db.execute(select(ratings_t).where(ratings_t.c.profile == profile_id)
                              .order_by(ratings_t.c.variant)).all()
        return [RatingRow(r.profile, r.variant, r.mu, r.sigma, r.matches) for r in rows]

    def rate(self, results: list[ResultRow]) -> None:
        """Keep a finished match's results and each profile's rating after it."""
        with self.engine.begin() as db:
            for r in results:
                db.execute(insert(results_t).values(
                    table_id=r.table_id, seat=r.seat, profile=r.profile, variant=r.variant,
                    finished=r.finished, place=r.place, players=r.players, total=r.total,
                    mu=r.mu, sigma=r.sigma))
                done = db.execute(update(ratings_t).where(ratings_t.c.profile == r.profile,
                                                          ratings_t.c.variant == r.variant)
                                  .values(mu=r.mu, sigma=r.sigma,
                                          matches=ratings_t.c.matches + 1))
                if not done.rowcount:
                    db.execute(insert(ratings_t).values(profile=r.profile, variant=r.variant,
                                                        mu=r.mu, sigma=r.sigma, matches=1))

    def leaderboard(self, variant: str, limit: int) -> list[RatingRow]:
        """The rated profiles of ``variant`` with their names, best ``mu − 3 sigma`` first."""
        ordinal = ratings_t.c.mu - 3 * ratings_t.c.sigma
        with self.engine.connect() as db:
            rows = db.execute(
                select(ratings_t, profiles_t.c.name)
                .join(profiles_t, profiles_t.c.id == ratings_t.c.profile)
                .where(ratings_t.c.variant == variant)
                .order_by(ordinal.desc(), ratings_t.c.profile).limit(limit)).all()
        return [RatingRow(r.profile, r.variant, r.mu, r.sigma, r.matches, r.name) for r in rows]

    def results(self, profile_id: str) -> list[ResultRow]:
        """Every finished match the profile played, oldest first."""
        with self.engine.connect() as db:
            rows = db.execute(select(results_t).where(results_t.c.profile == profile_id)
                              .order_by(results_t.c.finished, results_t.c.table_id)).all()
        return [ResultRow(r.table_id, r.seat, r.profile, r.variant, r.finished, r.place,
                          r.players, r.total, r.mu, r.sigma) for r in rows]

    def set_lobby(self, table_id: str, info: dict[str, Any]) -> None:
        """Keep what the lobby shows of the table, for every process to list."""
        with self.engine.begin() as db:
            db.execute(update(tables_t).where(tables_t.c.id == table_id)
                       .values(lobby=json.dumps(info)))

    def lobby(self, other_than: str, limit: int) -> list[dict[str, Any]]:
        """What the lobby shows of the tables of the processes other than ``other_than`` that
        are not archived, newest first (at most ``limit``), each with its status as stored."""
        with self.engine.connect() as db:
            rows = db.execute(
                select(tables_t.c.lobby, tables_t.c.status)
                .where(tables_t.c.owner != other_than, tables_t.c.lobby.is_not(None),
                       tables_t.c.status.in_(("waiting", "playing", "finished")))
                .order_by(tables_t.c.created.desc(), tables_t.c.id).limit(limit)).all()
        return [{**json.loads(r.lobby), "status": r.status} for r in rows]

    def tables(self, owner: str, statuses: tuple[str, ...] | None = None) -> list[TableRow]:
        """The tables ``owner`` serves (those with one of ``statuses``, if given), oldest
        first."""
        query = select(tables_t).where(tables_t.c.owner == owner)
        if statuses is not None:
            query = query.where(tables_t.c.status.in_(statuses))
        with self.engine.connect() as db:
            rows = db.execute(query.order_by(tables_t.c.created, tables_t.c.id)).all()
        return [_table_row(r) for r in rows]

    def table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as db:
            row = db.execute(select(tables_t).where(tables_t.c.id == table_id)).first()
        return None if row is None else _table_row(row)

    def seats(self, table_id: str) -> list[SeatRow]:
        with self.engine.connect() as db:
            rows = db.execute(select(seats_t).where(seats_t.c.table_id == table_id)
                              .order_by(seats_t.c.seat)).all()
        return [SeatRow(r.seat, r.kind, r.bot, r.name, r.token_hash, r.sits_from, r.profile)
                for r in rows]

    def events(self, table_id: str) -> list[tuple[str, int, str]]:
        """The table's events in order: ``(kind, seat, text)``."""
        with self.engine.connect() as db:
            rows = db.execute(select(events_t.c.kind, events_t.c.seat, events_t.c.text)
                              .where(events_t.c.table_id == table_id)
                              .order_by(events_t.c.n)).all()
        return [(r.kind, r.seat, r.text) for r in rows]


def forget_in_record(record: dict[str, Any], seats: set[int], former: str) -> dict[str, Any]:
    """A match record with the names of ``seats`` replaced by ``former`` (a deleted profile's)
    and their profile ids removed.

    >>> forget_in_record({"players": 2, "seats": [{"seat": 0, "name": "Ann", "profile": "ab12"},
    ...                   {"seat": 1, "name": "Bo", "profile": None}]}, {0}, "a former player")
    {'players': 2, 'seats': [{'seat': 0, 'name': 'a former player', 'profile': None}, {'seat': 1, 'name': 'Bo', 'profile': None}]}
    """
    out = dict(record)
    if isinstance(out.get("seats"), list):
        out["seats"] = [{**s, "name": former, "profile": None}
                        if isinstance(s, dict) and s.get("seat") in seats else s
                        for s in out["seats"]]
    return out


def _table_row(r: Any) -> TableRow:
    return TableRow(r.id, r.variant, r.players, json.loads(r.options), r.seed, r.owner, r.status,
                    json.loads(r.record) if r.record else None, bool(r.seeded), r.owner_hash,
                    r.turn_timeout, r.stand_in, bool(r.tutorial))


def _add_columns(engine: Engine) -> None:
    """Give a database made by an earlier version the columns added since (each nullable or
    with a default, so the rows already there stay valid)."""
    for table in (tables_t, seats_t):
        present = {c["name"] for c in inspect(engine).get_columns(table.name)}
        with engine.begin() as db:
            for column in table.columns:
                if column.name not in present:
                    kind = column.type.compile(engine.dialect)
                    default = "" if column.server_default is None else " DEFAULT '0'"
                    null = "" if column.nullable else " NOT NULL"
                    db.execute(text(f"ALTER TABLE {table.name} ADD COLUMN {column.name} "
                                    f"{kind}{null}{default}"))


def _sqlite_pragmas(connection: Any, _record: Any) -> None:
    # WAL with synchronous=NORMAL: a commit costs no fsync, yet the database stays consistent
    # after a crash (at worst the last few commits are lost).
    cursor = connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.close()
