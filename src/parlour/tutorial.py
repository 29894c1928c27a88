"""First-game tutorials: a guided deal of each family that explains the rules as they arise.

A family's record names its lesson (:class:`~parlour.registry.Lesson`, ``Family.tutorial``):
the variants it may be played in, the deal, the computer players, and its coach, which says
which notes apply to a position from one seat's observation and legal moves alone (never the
state: a note tells nothing the seat cannot see). :func:`tutorial` finds the lesson for a
variant or a family, and :class:`Tutorial` deals its match. A :class:`Coach` follows the
person's seat through it and gives each note once, the first time it applies: the lesson's
introduction first, then the family's notes and, at the person's first turn, a word on
the hint. The tables show the notes as they come, and the hint at each of the person's
turns.

Nothing here names a family or a variant: everything a tutorial says of a game comes from the
game's family.

>>> t = tutorial("rummy")
>>> t.variant, t.seats()
('rummy', ['human', 'easy'])
>>> state = t.match().next_deal()
>>> coach = t.coach()
>>> [note.key for note in coach.follow(state.observation(0), state.legal_actions())]
['intro', 'draw', 'hint']
>>> coach.follow(state.observation(0), state.legal_actions())  # each note once
[]
"""

from __future__ import annotations

import importlib
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parlour.errors import ParlourError, VariantError
from parlour.game import Action, Game, Observation
from parlour.match import Match
from parlour.registry import (
    Family,
    Lesson,
    Note,
    default_variant,
    families,
    family_of,
    get_variant,
    new_game,
    variants,
)
from parlour.session import HUMAN

#: The seat the person takes in a tutorial.
SEAT = 0

#: What every tutorial says of the hint, at the person's first turn.
HINT = Note(
    "hint", "The hint",
    "At each of your turns the hint shows the best move the computer finds, with why, and "
    "selects its cards in your hand. Make that move, or choose your own: either way the "
    "notes here explain the rules as they come up.")

#: What every tutorial says when its deal is over.
END = Note(
    "end", "The end of the tutorial",
    "That is a whole deal. Play again to practise, or start a game of your own: the hint is "
    "there whenever you ask for it.")


def lesson_of(variant: str) -> Lesson | None:
    """The lesson of ``variant``'s family, if the family has one (whichever variants it is
    played in)."""
    return _lesson(family_of(variant))


def _lesson(family: Family) -> Lesson | None:
    if not family.tutorial:
        return None
    module, _, name = family.tutorial.partition(":")
    lesson = getattr(importlib.import_module(module), name)
    if not isinstance(lesson, Lesson):
        raise ParlourError(f"the tutorial of {family.name} ({family.tutorial}) is no Lesson")
    return lesson


def lessons() -> list[tuple[Family, Lesson]]:
    """Every family that has a tutorial, with its lesson, in the order they registered."""
    found = [(family, _lesson(family)) for family in families()]
    return [(family, lesson) for family, lesson in found if lesson is not None]


def playable() -> list[str]:
    """The variants a tutorial may be played in, in the registry's order."""
    return [v.name for v in variants()
            if (lesson := lesson_of(v.name)) is not None and v.name in lesson.variants]


def tutorial(name: str | None = None) -> Tutorial:
    """The tutorial of ``name``: a variant (played in it), a family (its lesson's first
    variant) or, with none, the family of the variant a table starts with. A name with no
    tutorial is refused with :class:`VariantError` naming those that have one.

    >>> tutorial().variant, tutorial("climbing").variant, tutorial("pusoy-dos").variant
    ('big-two', 'big-two', 'pusoy-dos')
    >>> tutorial("whist")
    Traceback (most recent call last):
    ...
    parlour.errors.VariantError: there is no tutorial of 'whist': tutorials are of big-two-4card, big-two, pusoy-dos, forty-five, spoil-five and rummy
    """
    if name is None:
        name = default_variant().name
    if isinstance(name, str):
        known = {v.name for v in variants()}
        if name in known:
            lesson = lesson_of(name)
            if lesson is not None and name in lesson.variants:
                return Tutorial(lesson, name)
        else:
            family = next((f for f in families() if f.name == name), None)
            lesson = None if family is None else _lesson(family)
            if lesson is not None:
                return Tutorial(lesson, lesson.variant)
    *others, last = playable() or ["no game"]
    said = f"{', '.join(others)} and {last}" if others else last
    shown = repr(name) if isinstance(name, str) and len(name) <= 40 else "that"
    raise VariantError(f"there is no tutorial of {shown}: tutorials are of {said}")


@dataclass(frozen=True)
class Tutorial:
    """A lesson played in one of its variants: one deal, the person at seat :data:`SEAT`."""

    lesson: Lesson
    variant: str

    @property
    def options(self) -> dict[str, Any]:
        """The variant's options in a tutorial: those that make its match one deal."""
        return dict(self.lesson.variants[self.variant])

    def game(self) -> Game:
        return new_game(self.variant, **self.options)

    def match(self) -> Match:
        """The tutorial's match, dealt from the lesson's seed: the same deal every time."""
        return self.game().new_match(seed=self.lesson.seed)

    def seats(self) -> list[str]:
        """:data:`~parlour.session.HUMAN` at seat :data:`SEAT`, the lesson's bots elsewhere."""
        players = get_variant(self.variant).make(**self.options).players
        seats = [self.lesson.bots] * players
        seats[SEAT] = HUMAN
        return seats

    def coach(self) -> Coach:
        return Coach(self.lesson, SEAT)


class Coach:
    """Follows one seat through a tutorial: the notes that apply to each position it is shown
    (:meth:`follow`), each given once, and every note given so far (:attr:`notes`)."""

    def __init__(self, lesson: Lesson, seat: int = SEAT) -> None:
        self.lesson = lesson
        self.seat = seat
        #: Every note given so far, in the order they came.
        self.notes: list[Note] = []

    def follow(self, observation: Observation, legal: Sequence[Action]) -> list[Note]:
        """The notes new at this position: ``observation`` is the seat's, and ``legal`` its
        legal moves (ignored when it is not the seat's turn). Each note comes once a
        tutorial, the first time it applies."""
        if observation.seat != self.seat:
            raise ParlourError(f"this tutorial follows seat {self.seat}, not {observation.seat}")
        mine = observation.current_player == self.seat and not observation.is_over
        moves = list(legal) if mine else []
        found = [Note("intro", self.lesson.title, self.lesson.intro),
                 *self.lesson.coach(observation, moves)]
        if mine:
            found.append(HINT)
        if observation.is_over:
            found.append(END)
        given = {note.key for note in self.notes}
        new = []
        for note in found:
            if note.key not in given:
                given.add(note.key)
                new.append(note)
        self.notes += new
        return new

    def to_dict(self) -> dict[str, Any]:
        """The tutorial as JSON data for a table: its title and every note so far."""
        return {"title": self.lesson.title, "notes": [note.to_dict() for note in self.notes]}
