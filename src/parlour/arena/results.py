"""The results file: every arena run, deal and seat in SQLite, and openskill ratings across runs.

Tables (SQLAlchemy ORM, created on first use):

- ``runs``: when, the variant, player count and options, the bots as named, the number of
  deals, duplicate mode, the master seed;
- ``plays``: each deal played in each seating (deal index, the deal's seed);
- ``seats``: per play and seat, the contestant's label and bot name, its return and its share
  of the play's win;
- ``ratings``: per deal and bot, the bot's score in the deal and its rating after it.

Ratings are per variant and per bot name (the two sides of a ``greedy,greedy`` comparison are one
bot). Each deal is one openskill (Plackett-Luce) match between the bots that sat in it, ranked by
each bot's mean seat-return over the deal and its duplicate replays; a deal played by one bot
alone says nothing and is not rated. A run continues from the ratings the file already holds, in
one write transaction, so runs writing the same file at once take turns.

>>> import os, tempfile, parlour
>>> from parlour.arena.core import run_arena
>>> folder = tempfile.TemporaryDirectory()
>>> path = os.path.join(folder.name, "results.sqlite")
>>> result = run_arena(parlour.new_game("rummy"), ["greedy", "random"], 4, seed=3)
>>> record_run(path, result)
1
>>> [(s.bot, s.games) for s in leaderboard(path)]
[('greedy', 4), ('random', 4)]
>>> folder.cleanup()
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import (
    JSON,
    BigInteger,
    Engine,
    ForeignKey,
    String,
    create_engine,
    event,
    func,
    insert,
    select,
)
from sqlalchemy.exc import SQLAlchemyError
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column

from parlour.arena.core import ArenaResult
from parlour.arena.stats import deal_scores
from parlour.errors import RecordError


class Base(DeclarativeBase):
    pass


class RunRow(Base):
    __tablename__ = "runs"

    id: Mapped[int] = mapped_column(primary_key=True)
    created: Mapped[str] = mapped_column(String(32))  # ISO 8601, UTC
    variant: Mapped[str] = mapped_column(String(64), index=True)
    players: Mapped[int]
    options: Mapped[dict[str, Any]] = mapped_column(JSON)
    bots: Mapped[list[str]] = mapped_column(JSON)  # as named, in order
    deals: Mapped[int]
    duplicate: Mapped[bool]
    seed: Mapped[str] = mapped_column(String(64))  # text: any Python int


class PlayRow(Base):
    __tablename__ = "plays"

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id"), index=True)
    deal: Mapped[int]
    deal_seed: Mapped[int] = mapped_column(BigInteger)


class SeatRow(Base):
    __tablename__ = "seats"

    play_id: Mapped[int] = mapped_column(ForeignKey("plays.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(primary_key=True)
    entry: Mapped[str] = mapped_column(String(64))  # the run's label: greedy, greedy#2 …
    bot: Mapped[str] = mapped_column(String(64), index=True)
    score: Mapped[float]
    win: Mapped[float]


class RatingRow(Base):
    __tablename__ = "ratings"

    id: Mapped[int] = mapped_column(primary_key=True)
    run_id: Mapped[int] = mapped_column(ForeignKey("runs.id"), index=True)
    deal: Mapped[int]
    variant: Mapped[str] = mapped_column(String(64), index=True)
    bot: Mapped[str] = mapped_column(String(64))
    score: Mapped[float]
    mu: Mapped[float]
    sigma: Mapped[float]


@contextmanager
def _session(path: str | Path, *, create: bool) -> Iterator[Session]:
    """A session on the results file, committed on success; SQLite errors become
    :class:`RecordError` naming the file."""
    if not create and not Path(path).is_file():
        raise RecordError(f"no results file {path}: an arena run creates it")
    engine = _engine(path)
    try:
        if create:
            Base.metadata.create_all(engine)
        with Session(engine) as session, session.begin():
            yield session
    except SQLAlchemyError as e:
        reason = getattr(e, "orig", None) or e
        raise RecordError(f"cannot use {path} as a results file: {reason}") from None
    finally:
        engine.dispose()


def _engine(path: str | Path) -> Engine:
    # Wait for another run's write rather than fail at once.
    engine = create_engine(f"sqlite:///{path}", connect_args={"timeout": 60})

    # Take the write lock when the transaction starts, not at its first write: a run reads the
    # current ratings, then writes the updated ones, and no other run may write in between.
    # (The documented recipe: let SQLAlchemy, not the driver, begin transactions.)
    @event.listens_for(engine, "connect")
    def _no_driver_transactions(dbapi_connection: Any, _record: Any) -> None:
        dbapi_connection.isolation_level = None

    @event.listens_for(engine, "begin")
    def _begin_immediate(connection: Any) -> None:
        connection.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def prepare(path: str | Path) -> None:
    """Create the results file and its tables if need be; refuse a file that is not one."""
    with _session(path, create=True):
        pass


def record_run(path: str | Path, result: ArenaResult) -> int:
    """Add a run to the results file (creating it), rate its deals, and return the run's id."""
    with _session(path, create=True) as session:
        game = result.game
        run = RunRow(
            created=datetime.now(UTC).isoformat(timespec="seconds"),
            variant=game.name, players=game.players, options=game.option_values(),
            bots=[e.bot for e in result.entries], deals=result.deals,
            duplicate=result.duplicate, seed=str(result.seed),
        )
        session.add(run)
        session.flush()
        play_ids = session.scalars(
            insert(PlayRow).returning(PlayRow.id, sort_by_parameter_order=True),
            [{"run_id": run.id, "deal": p.deal, "deal_seed": result.deal_seed(p.deal)}
             for p in result.plays],
        ).all()
        seats = [
            {"play_id": play_id, "seat": seat, "entry": result.entries[e].label,
             "bot": result.entries[e].bot, "score": play.returns[seat],
             "win": 1 / len(play.winners) if seat in play.winners else 0.0}
            for play_id, play in zip(play_ids, result.plays, strict=True)
            for seat, e in enumerate(play.seating)
        ]
        session.execute(insert(SeatRow), seats)
        _rate(session, run.id, result)
        return run.id


def _rate(session: Session, run_id: int, result: ArenaResult) -> None:
    """Rate the run's deals in order, continuing from the variant's current ratings."""
    variant = result.game.name
    model = PlackettLuce()
    current = {s.bot: (s.mu, s.sigma) for s in _standings(session, variant)}
    names = sorted({e.bot for e in result.entries})
    group = [names.index(e.bot) for e in result.entries]
    rows = []
    for deal in deal_scores(result.plays, group):
        present = [(names[i], s) for i, s in enumerate(deal.score) if s is not None]
        if len(present) < 2:
            continue
        teams = [[model.rating(*current.get(bot, (None, None)))] for bot, _ in present]
        rated = model.rate(teams, scores=[s for _, s in present])
        for (bot, score), [rating] in zip(present, rated, strict=True):
            current[bot] = (rating.mu, rating.sigma)
            rows.append({"run_id": run_id, "deal": deal.deal, "variant": variant, "bot": bot,
                         "score": score, "mu": rating.mu, "sigma": rating.sigma})
    if rows:
        session.execute(insert(RatingRow), rows)


@dataclass(frozen=True)
class Standing:
    """A bot's current rating in a variant: ``ordinal`` (mu − 3 sigma, openskill's
    conservative estimate) orders the leaderboard; ``games`` counts its rated deals."""

    variant: str
    bot: str
    mu: float
    sigma: float
    ordinal: float
    games: int


def _standings(session: Session, variant: str | None) -> list[Standing]:
    latest = select(func.max(RatingRow.id).label("id"), func.count().label("games")).group_by(
        RatingRow.variant, RatingRow.bot)
    if variant is not None:
        latest = latest.where(RatingRow.variant == variant)
    sub = latest.subquery()
    rows = session.execute(select(RatingRow, sub.c.games).join(sub, RatingRow.id == sub.c.id))
    out = [Standing(r.variant, r.bot, r.mu, r.sigma, r.mu - 3 * r.sigma, games)
           for r, games in rows]
    out.sort(key=lambda s: (s.variant, -s.ordinal, s.bot))
    return out


def leaderboard(path: str | Path, variant: str | None = None) -> list[Standing]:
    """Every rated bot's :class:`Standing`, by variant and then best ordinal first."""
    with _session(path, create=False) as session:
        return _standings(session, variant)


def rating_history(
    path: str | Path, variant: str | None = None
) -> dict[str, dict[str, list[tuple[float, float]]]]:
    """``{variant: {bot: [(mu, sigma) after each of its rated deals, in order]}}``."""
    query = select(RatingRow.variant, RatingRow.bot, RatingRow.mu, RatingRow.sigma).order_by(
        RatingRow.id)
    if variant is not None:
        query = query.where(RatingRow.variant == variant)
    out: dict[str, dict[str, list[tuple[float, float]]]] = {}
    with _session(path, create=False) as session:
        for v, bot, mu, sigma in session.execute(query):
            out.setdefault(v, {}).setdefault(bot, []).append((mu, sigma))
    return out
