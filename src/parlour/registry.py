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

Options are declared as frozen dataclasses whose fields carry ``help`` text and, where the
values are limited, ``choices`` or ``min``/``max`` in their metadata; the checks below are generic.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import MISSING, Field, dataclass, fields
from typing import Any

from parlour.errors import VariantError
from parlour.game import Game


def option(default: Any, help: str, *, choices: tuple[Any, ...] | None = None,
           min: int | None = None, max: int | None = None) -> Any:
    """Declare one variant option (a dataclass field with its help text and allowed values)."""
    from dataclasses import field

    meta: dict[str, Any] = {"help": help}
    if choices is not None:
        meta["choices"] = choices
    if min is not None:
        meta["min"] = min
    if max is not None:
        meta["max"] = max
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class OptionInfo:
    name: str
    default: Any
    help: str
    choices: tuple[Any, ...] | None = None
    min: int | None = None
    max: int | None = None

    def allowed(self, show: Callable[[Any], str] = repr) -> str:
        """The values this option takes, each written by ``show`` (Python's ``repr`` for the
        API's messages; the command line writes them as they are typed after ``-o``)."""
        if self.choices is not None:
            return ", ".join(show(c) for c in self.choices)
        if isinstance(self.default, bool):
            return f"{show(True)}, {show(False)}"
        if isinstance(self.default, int):
            if self.min is not None and self.max is not None:
                return f"a whole number from {self.min} to {self.max}"
            if self.min is not None:
                return f"a whole number of at least {self.min}"
            return "a whole number" if self.max is None else f"a whole number up to {self.max}"
        return type(self.default).__name__


@dataclass(frozen=True)
class Variant:
    """A named variant: its description, allowed player counts, options and factory.

    Each family registers its variants in ``parlour/games/<family>/__init__.py``, with the
    data that the generic layers look up by variant, so that none of them names a family:
    ``summary`` is the rules in a paragraph or two (:func:`parlour.summaries.summary`), and
    ``encoding`` the module (``parlour.games.<family>.encoding``) that registers the family's
    observation encoding, action index and reward scale with
    :func:`parlour.envs.encoding.register_family`, imported on first use (it needs numpy).
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


def _info(f: Field[Any]) -> OptionInfo:
    default = f.default if f.default is not MISSING else None
    m = f.metadata
    return OptionInfo(f.name, default, m.get("help", ""), m.get("choices"), m.get("min"), m.get("max"))


def player_counts_text(counts: tuple[int, ...]) -> str:
    if len(counts) == 1:
        return str(counts[0])
    if list(counts) == list(range(counts[0], counts[-1] + 1)):
        return f"{counts[0]} to {counts[-1]}"
    return ", ".join(map(str, counts[:-1])) + f" or {counts[-1]}"


def _checked(variant: str, info: OptionInfo, value: Any) -> Any:
    """``value`` if ``info`` allows it (a choice in any case given as the choice itself, as
    cards are: ``3c`` is ``3C``), else :class:`VariantError` saying what is allowed."""
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
        raise VariantError(
            f"{variant} option {info.name}={value!r} is not allowed; expected {info.allowed()}"
        )
    return value


_REGISTRY: dict[str, Variant] = {}


def register(variant: Variant) -> Variant:
    if variant.name in _REGISTRY:
        raise VariantError(f"variant {variant.name} is registered twice")
    _REGISTRY[variant.name] = variant
    return variant


def _load() -> None:
    import parlour.games  # noqa: F401  (registers every family)


def variants() -> list[Variant]:
    """Every variant, in the order of the rules pages of the documentation."""
    _load()
    return list(_REGISTRY.values())


def get_variant(name: str) -> Variant:
    """The variant called ``name``; :class:`VariantError` listing the variants otherwise."""
    _load()
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
