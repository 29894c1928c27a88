"""People at the web tables: profiles without passwords, and their ratings.

A profile is a name and a private key. The browser keeps the key (and a person can carry it to
another device as a link); the server keeps only its hash, and the profile's public id is the
start of that hash, so the id shown on a person's page gives nothing away. Whoever holds the
key is that person: they sit down with it, rename the profile or delete it.

When a match between seats ends, every seat held with a profile is rated: one openskill
(Plackett-Luce) match per finished match in its variant, ranked by the match's totals (a
winning side shares first place). The bots take part with fixed ratings by level
(:data:`ANCHORS`, never changed by a match), so a person who only ever plays bots still gets a
rating on the same scale as everyone else; a person without a profile counts as a newcomer and
is not kept.

>>> from parlour.web.store import Store
>>> people = People(Store("sqlite://"))
>>> profile, key = people.create("Ann")
>>> people.of_key(key) == profile, people.of_key("not-a-key")
(True, None)
>>> people.rename(key, "Ann B.").name
'Ann B.'
"""

from __future__ import annotations

import hashlib
import secrets
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parlour.game import Game
from parlour.web.messages import WebError
from parlour.web.seating import NAME_LIMIT
from parlour.web.store import ProfileRow, RatingRow, ResultRow, Store, hash_token, token_matches

#: A new profile's rating (openskill's defaults).
MU, SIGMA = 25.0, 25.0 / 3
#: Each bot's fixed rating at the people's tables, by name: the levels in the order the arena
#: measures them (docs: "Speed and strength"), a few points apart, with a small sigma. A bot's
#: rating is never changed by a match.
ANCHORS: dict[str, float] = {"random": 5.0, "easy": 14.0, "greedy": 20.0, "medium": 24.0,
                             "ismcts": 26.0, "learned": 27.0, "hard": 29.0, "expert": 32.0}
ANCHOR_SIGMA = 1.0
#: What a deleted profile's seats are called in the records kept.
FORMER = "a former player"
#: The most rows a leaderboard shows.
LEADERBOARD_SIZE = 100


def profile_id(key: str) -> str:
    """The public id of the profile whose key is ``key``: its hash, cut to 16 hex digits."""
    return hashlib.sha256(key.encode()).hexdigest()[:16]


def ordinal(mu: float, sigma: float) -> float:
    """A rating as one number, openskill's ``mu − 3 sigma``: what the leaderboard ranks by."""
    return mu - 3 * sigma


def checked_name(name: object) -> str:
    """``name`` if it is one a profile may have: printable text, 1 to 40 characters."""
    if not isinstance(name, str) or not name.strip() or len(name) > NAME_LIMIT \
            or not name.isprintable():
        raise WebError(f"a name is printable text of 1 to {NAME_LIMIT} characters")
    return name.strip()


@dataclass(frozen=True)
class Seated:
    """One seat of a finished match, as the ratings see it: the profile that held it (if any),
    the bot that played it (if any), and its match total."""

    seat: int
    profile: str | None
    bot: str | None
    total: float


class People:
    """Profiles and ratings, kept in the tables' store (one site over several processes reads
    the same rows)."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- profiles ------------------------------------------------------------------------------
    def create(self, name: object) -> tuple[ProfileRow, str]:
        """A new profile called ``name``, and its key (given once: only its hash is kept)."""
        key = secrets.token_urlsafe(24)
        profile = ProfileRow(profile_id(key), checked_name(name))
        self.store.add_profile(profile, hash_token(key))
        return profile, key

    def of_key(self, key: object) -> ProfileRow | None:
        """The profile whose key is ``key``, or ``None`` (no such profile, or not a key)."""
        if not isinstance(key, str) or not 20 <= len(key) <= 64 or not key.isascii():
            return None
        found = profile_id(key)
        if not token_matches(key, self.store.profile_key_hash(found)):
            return None
        return self.store.profile(found)

    def holder(self, key: object) -> ProfileRow:
        """The profile of ``key``; 401 when it is none."""
        profile = self.of_key(key)
        if profile is None:
            raise WebError("that key is no profile's: create a profile, or bring its link from "
                           "the device that has it", 401)
        return profile

    def rename(self, key: object, name: object) -> ProfileRow:
        profile = self.holder(key)
        profile.name = checked_name(name)
        self.store.rename_profile(profile.id, profile.name)
        return profile

    def delete(self, key: object) -> str:
        """Delete the profile: its name leaves every record kept (the games stay). Returns its
        id, for the tables in memory to forget it too."""
        found = self.holder(key).id
        self.store.delete_profile(found, FORMER)
        return found

    def page(self, profile_id: object) -> dict[str, Any]:
        """A person's page: their name, each variant's rating, and every rated match with the
        rating after it; 404 for an unknown id."""
        found = self.store.profile(profile_id) if isinstance(profile_id, str) else None
        if found is None:
            raise WebError("no such profile", 404)
        return {"profile": {"id": found.id, "name": found.name},
                "ratings": [_rating(r) for r in self.store.ratings(found.id)],
                "matches": [{"table": r.table_id, "seat": r.seat, "variant": r.variant,
                             "finished": r.finished, "place": r.place, "players": r.players,
                             "total": r.total, "rating": round(ordinal(r.mu, r.sigma), 2)}
                            for r in self.store.results(found.id)]}

    def leaderboard(self, variant: str) -> dict[str, Any]:
        """The variant's rated people, best first, and the bots' fixed ratings beside them."""
        return {"variant": variant,
                "people": [{**_rating(r), "id": r.profile, "name": r.name}
                           for r in self.store.leaderboard(variant, LEADERBOARD_SIZE)],
                "bots": [{"bot": name, "rating": round(ordinal(mu, ANCHOR_SIGMA), 2)}
                         for name, mu in sorted(ANCHORS.items(), key=lambda a: -a[1])]}

    # -- ratings -------------------------------------------------------------------------------
    def rate(self, table_id: str, game: Game, seats: Sequence[Seated]) -> list[ResultRow]:
        """Rate a finished match of ``game`` (its seats with their totals); kept for every
        seat with a profile. Returns what was kept (nothing without a profile at the table).
        """
        if not any(s.profile for s in seats):
            return []
        from openskill.models import PlackettLuce

        model = PlackettLuce()
        variant = game.name
        stored = {r.profile: r for p in {s.profile for s in seats if s.profile}
                  for r in self.store.ratings(p) if r.variant == variant}
        teams = []
        for s in seats:
            if s.profile:
                had = stored.get(s.profile)
                rating = model.rating(mu=had.mu if had else MU, sigma=had.sigma if had else SIGMA)
            elif s.bot in ANCHORS:
                rating = model.rating(mu=ANCHORS[s.bot], sigma=ANCHOR_SIGMA)
            else:  # a person without a profile, or a bot of no level: a newcomer
                rating = model.rating(mu=MU, sigma=SIGMA)
            teams.append([rating])
        places = _places([s.total for s in seats])
        after = model.rate(teams, ranks=[float(p) for p in places])
        now = time.time()
        results = [ResultRow(table_id, s.seat, s.profile, variant, now, place, len(seats),
                             s.total, new[0].mu, new[0].sigma)
                   for s, place, new in zip(seats, places, after, strict=True) if s.profile]
        self.store.rate(results)
        return results


def _places(totals: Sequence[float]) -> list[int]:
    """Each seat's place by its match total, a return (higher is better also where the table
    shows penalties counted up); equal totals share a place.

    >>> _places([10, 30, 30, 5]), _places([-7.0, -2.0, -21.0, -1.0])
    ([3, 1, 1, 4], [3, 2, 4, 1])
    """
    return [1 + sum(1 for other in totals if other > t) for t in totals]


def _rating(r: RatingRow) -> dict[str, Any]:
    return {"variant": r.variant, "rating": round(ordinal(r.mu, r.sigma), 2),
            "mu": round(r.mu, 3), "sigma": round(r.sigma, 3), "matches": r.matches}
