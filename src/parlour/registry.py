"""The variant registry: :func:`variants` lists them, :func:`new_game` makes a :class:`Game`.

>>> import parlour
>>> [v.name for v in parlour.variants()][:3]
['big-two-4card', 'big-two', 'pusoy-dos']
>>> parlour.new_game("big-two", allow_triples=True).options.allow_triples
True
>>> parlour.new_game("big-two", triples=True)
Traceback (most recent call last):
...
parlour.errors.VariantError: big-two has no option 'triples'; its options are: allow_triples, straights, flush_order, pass_only_if_no_legal_play, match_end, penalty_limit, deals

Options are declared as frozen dataclasses whose fields carry (with :func:`option`) a
``label`` and ``help`` in a player's words and, where the values are limited, ``choices`` (with
their words) or ``min``/``max``, and the other options' values under which they apply; the
checks below are generic.

The registry imports no family: each family registers its variants (:func:`register`) when
:mod:`parlour.games` imports it, and importing :mod:`parlour` (which any module of the package
does first) imports :mod:`parlour.games`.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import MISSING, Field, dataclass, field, fields
from pathlib import Path
from typing import Any

from parlour.errors import VariantError
from parlour.game import Action, Game, Observation
from parlour.text import clip, sentence


def option(default: Any, help: str, *, label: str,
           choices: tuple[Any, ...] | Mapping[Any, str] | None = None,
           min: int | None = None, max: int | None = None,
           applies_when: Mapping[str, tuple[Any, ...]] | None = None) -> Any:
    """Declare one variant option (a dataclass field with its words and allowed values).

    ``label`` names it as a player would ("Match ends", never ``match_end``) and ``help`` says
    what it does, in the same words: both are what the tables and the web page show.
    ``choices`` are its values, each with its words where the value is a code
    (``{"deals": "after a number of deals"}``), or as a tuple where the values read as they
    are. ``applies_when`` says under which values of other options it matters at all
    (``{"match_end": ("deals",)}``): the tables hide it otherwise, and ``parlour play``
    refuses it.
    """
    meta: dict[str, Any] = {"help": help, "label": label}
    if isinstance(choices, Mapping):
        meta["choices"] = tuple(choices)
        meta["choice_labels"] = tuple(choices.values())
    elif choices is not None:
        meta["choices"] = tuple(choices)
    if min is not None:
        meta["min"] = min
    if max is not None:
        meta["max"] = max
    if applies_when:
        meta["applies_when"] = tuple((name, tuple(values)) for name, values in applies_when.items())
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class OptionInfo:
    """One option of a variant: its keyword ``name`` (``-o NAME=``, the API's keyword) and
    ``label`` (the words a player reads), its default, help and allowed values, and the values
    of other options under which it applies (``applies_when``; every option if empty)."""

    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    min: int | None = None
    max: int | None = None
    label: str = ""
    #: The words of each choice, in the order of ``choices`` (the choices themselves if None).
    choice_labels: tuple[str, ...] | None = None
    applies_when: tuple[tuple[str, tuple[Any, ...]], ...] = ()

    def __post_init__(self) -> None:
        if not self.label:  # an option declared without one reads as its keyword in words
            object.__setattr__(self, "label", sentence(self.name.replace("_", " "))[:-1])

    def allowed(self, show: Callable[[Any], str] = repr) -> str:
        """The values this option takes, each written by ``show`` (Python's ``repr`` for the
        API's messages; the command line writes them as they are typed after ``-o``)."""
        if self.choices is not None:
            return _either([show(c) for c in self.choices])
        if isinstance(self.default, bool):
            return f"{show(True)} or {show(False)}"
        return self._number_text()

    def allowed_words(self) -> str:
        """The values this option takes as a player reads them ("on points or after a number
        of deals", "on or off", "a whole number from 1 to 1000")."""
        if self.choices is not None:
            return _either([self.value_words(c) for c in self.choices])
        if isinstance(self.default, bool):
            return "on or off"
        return self._number_text()

    def _number_text(self) -> str:
        if isinstance(self.default, int):
            if self.min is not None and self.max is not None:
                return f"a whole number from {self.min} to {self.max}"
            if self.min is not None:
                return f"a whole number of at least {self.min}"
            return "a whole number" if self.max is None else f"a whole number up to {self.max}"
        return type(self.default).__name__

    def value_words(self, value: Any) -> str:
        """``value`` as a player reads it: a choice by its words, a switch as on or off."""
        if self.choices is not None and self.choice_labels is not None and value in self.choices:
            return self.choice_labels[self.choices.index(value)]
        if isinstance(value, bool):
            return "on" if value else "off"
        return str(value)

    def applies(self, values: Mapping[str, Any]) -> bool:
        """Whether this option matters when the variant's options are ``values`` (every one
        by name, as :meth:`Game.option_values` gives them)."""
        return all(values.get(name) in allowed for name, allowed in self.applies_when)

    def condition_words(self, infos: Mapping[str, OptionInfo]) -> str:
        """When this option applies, in words ("Match ends is after a number of deals");
        ``infos`` are its variant's options by name."""
        return " and ".join(
            f"{infos[name].label} is " + _either([infos[name].value_words(v) for v in allowed])
            for name, allowed in self.applies_when)


def _either(items: list[str]) -> str:
    """``a``, ``a or b``, ``a, b or c`` (``a; b; or c`` where one has a comma of its own)."""
    if len(items) == 1:
        return items[0]
    if any("," in item for item in items):
        return "; ".join(items[:-1]) + f"; or {items[-1]}"
    return ", ".join(items[:-1]) + f" or {items[-1]}"


@dataclass(frozen=True)
class Verb:
    """A kind of move, as the family's notation writes it (``name``: ``play``, ``draw stock``),
    with what the tables show and take for it: the ``label`` of its button ("Draw from
    stock"), the ``key`` that makes it, and what it does in words (``help``)."""

    name: str
    label: str
    key: str
    help: str


@dataclass(frozen=True)
class Note:
    """One thing a first-game tutorial explains as it arises, in a player's words: its
    ``key`` (the same note is shown once a tutorial), a short ``title`` and the ``text``.
    Seats are named by their labels (``P1``), as a log line names them, so that each table
    calls them its own way; cards by their faces (``3♦``), as a hint does."""

    key: str
    title: str
    text: str

    def to_dict(self) -> dict[str, str]:
        return {"key": self.key, "title": self.title, "text": self.text}


#: A family's coach: the notes that apply to a position, from one seat's observation and its
#: legal moves (none when it is not that seat's turn), most important first.
Coach = Callable[[Observation, Sequence[Action]], Sequence[Note]]


@dataclass(frozen=True)
class Lesson:
    """A family's first-game tutorial, as data: one deal, dealt from ``seed``, the person at
    seat 0 against ``bots`` at every other seat, with the hint shown at every decision and the
    ``coach``'s notes (:data:`Coach`) as the rules arise.

    ``title`` names it as the lobby offers it and ``intro`` says what the deal is about, in a
    sentence or two. ``variants`` are the family's variants it may be played in, each with the
    options that make its match one deal; the first is the one a tutorial of the family
    plays (:attr:`variant`): the simplest.
    """

    title: str
    intro: str
    variants: Mapping[str, Mapping[str, Any]] = field(hash=False)
    seed: int
    coach: Coach
    bots: str = "easy"

    @property
    def variant(self) -> str:
        """The variant a tutorial of the family plays unless another is chosen."""
        return next(iter(self.variants))


@dataclass(frozen=True)
class Family:
    """What the front ends know of a family, as data: each family registers one
    (:func:`register_family`) beside its variants, and the tables read it rather than naming a
    family or a variant.

    ``verbs``: its kinds of move, in the order the tables list them. ``felt``: the web page's
    JavaScript module that draws its table, a file in the family's folder (served as
    ``/static/felts/<family>.js``, and the ``felt.css`` beside it, if any, as
    ``/static/felts/<family>.css``; none: the page shows the table's text).
    ``one_card_moves``: every move with a card takes that one card, so a click on a card
    makes the move where only one can. ``seat_totals``: whether each seat's line shows its
    match total (not where the felt shows the scores). ``features``: where the learned
    networks find the family's action features (``module:Class``, imported on first use, since
    they need numpy; none: the family has no network). ``level_settings``: the search settings
    every searching level takes in the family's variants, by the names of
    :class:`~parlour.bots.search.SearchConfig`'s fields (``{"keep_policy": 2.0}``); a
    variant's own (:attr:`Variant.levels`) come on top. ``tutorial``: where its first-game
    tutorial is (``module:name`` of a :class:`Lesson`, imported on first use by
    :mod:`parlour.tutorial`; none: the family has no tutorial).
    """

    name: str
    verbs: tuple[Verb, ...] = ()
    felt: Path | None = None
    one_card_moves: bool = False
    seat_totals: bool = True
    features: str = ""
    level_settings: Mapping[str, Any] = field(default_factory=dict, hash=False)
    tutorial: str = ""

    def to_dict(self) -> dict[str, Any]:
        """The record as JSON data, for the web page."""
        return {"name": self.name, "felt": self.name if self.felt is not None else "",
                "one_card_moves": self.one_card_moves,
                "seat_totals": self.seat_totals,
                "verbs": [{"name": v.name, "label": v.label, "key": v.key, "help": v.help}
                          for v in self.verbs]}


@dataclass(frozen=True)
class Variant:
    """A named variant: its description, allowed player counts, options and factory.

    Each family registers its variants in ``parlour/games/<family>/__init__.py``, with the
    data that the generic layers look up by variant, so that none of them names a family:
    ``summary`` is the rules in a paragraph or two (:func:`parlour.summaries.summary`), and
    ``encoding`` the module (``parlour.games.<family>.encoding``) that registers the family's
    observation encoding, action index and reward scale with
    :func:`parlour.encoding.register_encoding`, imported on first use (it needs numpy).
    ``weights`` are its shipped networks' files (in its family's folder) by number of players,
    and ``levels`` the search settings tuned for it, by level (``{"expert": {"network_playouts":
    True}}``: each level's own, on top of the family's :attr:`Family.level_settings`; the
    names are :class:`~parlour.bots.search.SearchConfig`'s fields, and a setting that is itself
    a record, ``opponents``, is given by its fields). ``featured``: the variant a table starts
    with where none is chosen (:func:`default_variant`). What the front ends know of its
    family is the family's record (:func:`family_of`).
    """

    name: str
    description: str
    players: tuple[int, ...]
    default_players: int
    options_type: type
    factory: Callable[[Variant, int, Any], Game]
    family: str = ""
    summary: str = ""
    encoding: str = ""
    weights: Mapping[int, Path] = field(default_factory=dict, hash=False)
    levels: Mapping[str, Mapping[str, Any]] = field(default_factory=dict, hash=False)
    featured: bool = False

    def option_info(self) -> list[OptionInfo]:
        return [_info(f) for f in fields(self.options_type)]

    def make(self, players: int | None = None, **values: Any) -> Game:
        n = self.default_players if players is None else players
        if not isinstance(n, int) or isinstance(n, bool) or n not in self.players:
            raise VariantError(
                f"{self.name} is played by {player_counts_text(self.players)} players, not {players!r}"
            )
        infos = {i.name: i for i in self.option_info()}
        for key in values:
            if key not in infos:
                raise VariantError(
                    f"{self.name} has no option '{key}'; its options are: "
                    + (", ".join(infos) or "none")
                )
        checked = {key: _checked(self.name, infos[key], value) for key, value in values.items()}
        return self.factory(self, n, self.options_type(**checked))

    def check(self, name: str, value: Any, show: Callable[[Any], str] = repr) -> Any:
        """``value`` as option ``name`` takes it (a choice in any case); :class:`VariantError`
        saying what is allowed, each value written by ``show``, if it is not allowed."""
        infos = {i.name: i for i in self.option_info()}
        if name not in infos:
            raise VariantError(f"{self.name} has no option {name!r}; its options are: "
                               + (", ".join(infos) or "none"))
        return _checked(self.name, infos[name], value, show)

    def not_applying(self, given: dict[str, Any]) -> list[OptionInfo]:
        """The options in ``given`` (values by name, the rest at their defaults) that do not
        apply under the others (a number of deals when the match ends on points).

        >>> [o.name for o in get_variant("big-two").not_applying({"deals": 5})]
        ['deals']
        >>> get_variant("big-two").not_applying({"deals": 5, "match_end": "deals"})
        []
        """
        infos = self.option_info()
        values = {i.name: given.get(i.name, i.default) for i in infos}
        return [i for i in infos if i.name in given and not i.applies(values)]


def _info(f: Field[Any]) -> OptionInfo:
    default = f.default if f.default is not MISSING else None
    m = f.metadata
    return OptionInfo(f.name, default, m.get("help", ""), m.get("choices"), m.get("min"),
                      m.get("max"), m.get("label", ""), m.get("choice_labels"),
                      m.get("applies_when", ()))


def player_counts_text(counts: tuple[int, ...]) -> str:
    if len(counts) == 1:
        return str(counts[0])
    if list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"


def _checked(variant: str, info: OptionInfo, value: Any,
             show: Callable[[Any], str] = repr) -> Any:
    """``value`` if ``info`` allows it (a choice in any case given as the choice itself, as
    cards are: ``3c`` is ``3C``), else :class:`VariantError` saying what is allowed: by the
    option's label and keyword, the values written by ``show``, and in words alone for a
    player (:attr:`VariantError.words`)."""
    bad = False
    if info.choices is not None:
        if isinstance(value, str) and value not in info.choices:
            value = next((c for c in info.choices if isinstance(c, str)
                          and c.lower() == value.lower()), value)
        bad = value not in info.choices
    elif isinstance(info.default, bool):
        bad = not isinstance(value, bool)
    elif isinstance(info.default, int):
        bad = (
            not isinstance(value, int) or isinstance(value, bool)
            or (info.min is not None and value < info.min)
            or (info.max is not None and value > info.max)
        )
    elif info.default is not None:
        bad = not isinstance(value, type(info.default))
    if bad:
        number = isinstance(value, int) and not isinstance(value, bool)
        raise VariantError(
            f"{variant}: {info.label} ({info.name}) must be {info.allowed(show)}, "
            f"not {clip(_shown(show, value))}",
            f"{info.label} must be {info.allowed_words()}"
            + (f", not {clip(_shown(str, value))}" if number else ""),
        )
    return value


def _shown(show: Callable[[Any], str], value: Any) -> str:
    try:
        return show(value)
    except ValueError:  # an int too long for Python to write out
        return "a number too long to write"


_REGISTRY: dict[str, Variant] = {}
_FAMILIES: dict[str, Family] = {}

#: Keys the tables keep for themselves, never a verb's: c clears the selection, h hints, n
#: deals on, q quits, s sorts, u and ? (help) at the terminal table.
TABLE_KEYS = frozenset("chnqsu?")


def register_family(family: Family) -> Family:
    """Register a family's record (:class:`Family`) under its name."""
    if family.name in _FAMILIES:
        raise VariantError(f"family {family.name} is registered twice")
    keys = [v.key for v in family.verbs]
    if len(set(keys)) != len(keys) or not all(len(k) == 1 and k not in TABLE_KEYS for k in keys):
        raise VariantError(f"family {family.name}: each verb needs a key of its own, not one of "
                           f"the tables' ({' '.join(sorted(TABLE_KEYS))}), not {keys}")
    _FAMILIES[family.name] = family
    return family


def family_of(variant: str | Variant) -> Family:
    """The record of ``variant``'s family (by the variant or its name); a family that
    registered none has an empty one (no verbs, the table's text for a felt).

    >>> [v.name for v in family_of("rummy").verbs]
    ['draw stock', 'draw discard', 'meld', 'layoff', 'discard']
    """
    name = (variant if isinstance(variant, Variant) else get_variant(variant)).family
    return _FAMILIES.get(name) or Family(name)


def families() -> list[Family]:
    """Every registered family's record, in the order they registered."""
    return list(_FAMILIES.values())


def verbs() -> dict[str, Verb]:
    """Every registered family's verbs by name (the first family's, where two share one).

    >>> verbs()["layoff"].label, verbs()["pass"].key
    ('Lay off', 'a')
    """
    out: dict[str, Verb] = {}
    for family in _FAMILIES.values():
        for verb in family.verbs:
            out.setdefault(verb.name, verb)
    return out


def register(variant: Variant) -> Variant:
    if variant.name in _REGISTRY:
        raise VariantError(f"variant {variant.name} is registered twice")
    infos = {i.name: i for i in variant.option_info()}
    for info in infos.values():
        for name, values in info.applies_when:
            other = infos.get(name)
            if other is None or other is info or not values or (
                    other.choices is not None and not set(values) <= set(other.choices)):
                raise VariantError(f"{variant.name} option {info.name} applies when {name} is "
                                   f"{values!r}: not an option of {variant.name} and its values")
    _REGISTRY[variant.name] = variant
    return variant


def variants() -> list[Variant]:
    """Every variant, in the order of the rules pages of the documentation."""
    return list(_REGISTRY.values())


def default_variant() -> Variant:
    """The variant a table starts with where none is chosen: the one registered as
    ``featured``, or else the first.

    >>> default_variant().name
    'big-two'
    """
    return next((v for v in _REGISTRY.values() if v.featured), next(iter(_REGISTRY.values())))


def get_variant(name: str) -> Variant:
    """The variant called ``name``; :class:`VariantError` listing the variants otherwise."""
    # Checked first: a non-string (possibly unhashable) name must not reach the dict look-up.
    variant = _REGISTRY.get(name) if isinstance(name, str) else None
    if variant is None:
        raise VariantError(f"unknown variant {name!r}; the variants are: " + ", ".join(_REGISTRY))
    return variant


def new_game(name: str, /, *, players: int | None = None, **options: Any) -> Game:
    """The :class:`Game` of variant ``name`` with ``players`` seats and option values.

    ``name`` is positional-only, so that every keyword is an option or ``players`` (an option
    called ``name`` is refused as unknown, like any other).

    >>> new_game("pusoy-dos").players
    4
    """
    return get_variant(name).make(players, **options)


_DESCRIPTION_KEYS = ("variant", "players", "options")


def game_from_description(desc: object) -> Game:
    """Rebuild a game from :meth:`Game.describe`: a dict with ``variant``, and optionally
    ``players`` (else the variant's default) and ``options`` (a dict of option values).

    Anything else is refused with :class:`VariantError` naming the part that is wrong:

    >>> game_from_description({"variant": "big-two", "players": 4, "options": {}}).players
    4
    >>> game_from_description({"variant": "big-two", "options": ["allow_triples"]})
    Traceback (most recent call last):
    ...
    parlour.errors.VariantError: the options of a game description must be a dict of option values by name, not ['allow_triples']
    """
    if not isinstance(desc, dict):
        raise VariantError(
            f"a game description must be a dict with keys {', '.join(_DESCRIPTION_KEYS)}, "
            f"not {desc!r}"
        )
    unknown = [key for key in desc if key not in _DESCRIPTION_KEYS]
    if unknown:
        raise VariantError(
            f"a game description has no key {', '.join(map(repr, unknown))}; "
            f"its keys are {', '.join(_DESCRIPTION_KEYS)}"
        )
    if "variant" not in desc:
        raise VariantError(f"a game description must name its variant: {desc!r}")
    options = desc.get("options", {})
    if not isinstance(options, dict) or not all(isinstance(key, str) for key in options):
        raise VariantError(
            "the options of a game description must be a dict of option values by name, "
            f"not {options!r}"
        )
    return new_game(desc["variant"], players=desc.get("players"), **options)
