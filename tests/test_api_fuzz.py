"""Fuzzing the public API of every variant at every player count (and with its other options).

Random interleavings of legal calls (apply a legal action or its text, clone, observe, sample a
state, change what a method returned) and calls with arbitrary Python values (``apply``,
``parse_action``, ``observation``, ``hidden_from``; ``new_deal`` and ``new_game`` with bad
arguments). Every refusal raises the error the API documents for that call (``IllegalAction``
for actions, ``SeatError`` for seats, ``DealError`` for deals, ``VariantError`` for games), never
an error leaking from inside, and changes nothing; every legal call keeps the engine's
invariants.
"""

from __future__ import annotations

import copy
import functools
import json
import operator
import random
from collections.abc import Callable
from dataclasses import fields
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parlour
from helpers import CONFIGS, GAME_IDS, GAMES, IDS, check_conserved
from parlour.cards import CARDS, RANK_TEXT, SUIT_SYMBOLS, SUIT_TEXT
from parlour.errors import DealError, IllegalAction, ParlourError, SeatError, VariantError
from parlour.game import Action, State
from parlour.registry import game_from_description

VARIANTS = [v.name for v in parlour.variants()]
FUZZ = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])
QUICK = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])

# -- values to call the API with ----------------------------------------------------------------

#: One strategy per basic type (``one_of`` picks among them evenly), with the floats and bools
#: that equal small ints, which a careless ``int(x)`` or ``seq[x]`` would take for one.
_scalars = [
    st.none(), st.booleans(), st.integers(), st.floats(),
    st.sampled_from([0.0, 1.0, 2.0, -0.0, float("nan"), float("inf")]), st.complex_numbers(),
    st.binary(max_size=6), st.text(max_size=8), st.builds(object),
]
#: Arbitrary Python values: scalars, and containers of them nested a little.
junk = st.one_of(*_scalars, st.recursive(
    st.one_of(_scalars),
    lambda inner: st.one_of(
        st.lists(inner, max_size=4), st.tuples(inner, inner),
        st.dictionaries(st.text(max_size=3), inner, max_size=3),
        st.frozensets(st.integers(), max_size=3),
    ),
    max_leaves=6,
))
_card_tokens = st.builds(
    operator.add,
    st.sampled_from([*RANK_TEXT, "T", "t", "j", "q", "k", "a", "1", "11", "0", ""]),
    st.sampled_from([*SUIT_TEXT, "c", "d", "h", "s", *SUIT_SYMBOLS, "X", ""]),
)
_KEYWORDS = ["pass", "PASS", "keep", "silent", "jink", "stop", "rob", "draw", "stock", "discard",
             "meld", "layoff", "on", "0", "1", "2", "-1", "99", "...", ","]
#: Text made of the words of every family's notation: often parses, sometimes legal.
action_texts = st.lists(st.one_of(_card_tokens, st.sampled_from(_KEYWORDS)), max_size=6).map(
    " ".join)
#: Int values for hand-made actions: small, packed-looking, negative and huge.
action_values = st.one_of(
    st.integers(0, 255), st.integers(-(2**70), 2**70),
    st.sampled_from([12345, 2**52 - 1, 2**52, 2**61, 2**63, -1]),
)


@functools.cache
def actions_of_every_variant() -> tuple[Action, ...]:
    """Real actions of every variant (at its default player count), met along a random deal."""
    found: dict[tuple[str, int], Action] = {}
    for name in VARIANTS:
        state = parlour.new_game(name).new_deal(seed=1)
        rng = random.Random(1)
        for _ in range(12):
            if state.is_over:
                break
            legal = state.legal_actions()
            action = rng.choice(legal)
            found[name, int(action)] = action
            state.apply(action)
    return tuple(found.values())


def hand_made(kind: type[Action]) -> st.SearchStrategy[int]:
    """Actions of type ``kind`` made by hand from arbitrary ints; where the type refuses a value
    that is no action of its game (with IllegalAction, as it may), the plain int instead."""

    def make(value: int) -> int:
        try:
            return kind(value)
        except IllegalAction:
            return value

    return action_values.map(make)


def pick(*strategies: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    """A value from one of ``strategies``, each picked as often as the others (``one_of`` would
    pick among all the branches of nested ``one_of``s, so that ``junk`` would crowd out the rest)."""
    return st.sampled_from(strategies).flatmap(lambda strategy: strategy)


def non_seats(players: int) -> st.SearchStrategy[object]:
    """Values that are not a seat of a game of ``players``: other ints, and near misses."""
    return st.one_of(
        st.integers().filter(lambda i: not 0 <= i < players),
        st.sampled_from([*map(float, range(players)), *map(str, range(players)), "P0", b"\x00",
                         [0], (0,), True, False]),
        junk.filter(lambda v: not isinstance(v, int) or isinstance(v, bool)),
    )


def show(value: object) -> str:
    """A repr that cannot fail: a hand-made action may have no text at all."""
    if isinstance(value, Action):
        return f"{type(value).__name__}({int(value)})"
    try:
        return repr(value)[:200]
    except Exception:  # a failing __repr__ is not what these tests are about
        return f"<{type(value).__name__}>"


# -- comparing states ---------------------------------------------------------------------------


def snapshot(state: State) -> tuple[object, ...]:
    """Everything the public API tells about a state, to compare before and after a call."""
    seats = range(state.game.players)
    return (state.current_player, state.history, state.legal_actions(), state.returns(),
            state.zones(), state.setup(), [state.observation(s) for s in seats],
            [state.hidden_from(s) for s in seats])


def frozen_snapshot(state: State) -> tuple[object, ...]:
    """A snapshot sharing no mutable object with the state (the game itself is immutable)."""
    return copy.deepcopy(snapshot(state), {id(state.game): state.game})


def refused(state: State, error: type[ParlourError], call: Callable[[], object],
            what: str) -> None:
    """``call()`` raises ``error`` (and nothing else) and leaves ``state`` as it was."""
    before = snapshot(state)
    try:
        result = call()
    except error:
        pass
    except Exception as e:
        pytest.fail(f"{what} raised {type(e).__name__}({e}), not {error.__name__}")
    else:
        pytest.fail(f"{what} returned {show(result)} instead of raising {error.__name__}")
    assert snapshot(state) == before, f"the refused {what} changed the state"


def scribble(value: object) -> None:
    """Change, in place, every mutable container reachable from ``value``."""
    if isinstance(value, dict):
        children: list[object] = list(value.values())
    elif isinstance(value, (list, tuple, set, frozenset)):
        children = list(value)
    else:
        return
    for child in children:
        scribble(child)
    if isinstance(value, list):
        value[:] = ["scribbled"]
    elif isinstance(value, dict):
        value.clear()
        value["scribbled"] = None
    elif isinstance(value, set):
        value.clear()


def playable(state: State, value: object) -> tuple[Action | None, ...]:
    """What ``state.apply(value)`` may do: play one of these legal actions, or (``None``) refuse.

    Text plays the action it parses to when that is legal. An action of this game's own type
    plays the equal legal action. Another game's action is never taken for this game's action
    with the same value; an engine may accept it for the legal action with the same text.
    Anything else is refused.
    """
    legal = state.legal_actions()
    if isinstance(value, str):
        try:
            parsed = state.parse_action(value)
        except IllegalAction:
            return (None,)
        return tuple(a for a in legal if a == parsed) or (None,)
    if isinstance(value, Action):
        same = [a for a in legal if type(a) is type(value) and a == value]
        if same:
            return (same[0],)
        return (None, *(a for a in legal if type(a) is not type(value) and str(a) == str(value)))
    return (None,)


# -- the interleaving ---------------------------------------------------------------------------


class Fuzz:
    """One deal under fuzzing, and what the steps remember about it."""

    def __init__(self, state: State, data: st.DataObject, seed: int) -> None:
        self.state = state
        self.data = data
        self.rng = random.Random(seed)
        self.kind = type(state.legal_actions()[0])  # this game's action type
        self.earlier: list[Action] = []  # legal actions of positions already left

    def draw(self, strategy: st.SearchStrategy[Any], label: str) -> Any:
        return self.data.draw(strategy, label=label)

    def try_apply(self, value: object) -> None:
        """``apply(value)`` plays what :func:`playable` allows, or is refused changing nothing."""
        state = self.state
        allowed = playable(state, value)
        history, seat = state.history, state.current_player
        before = snapshot(state)
        try:
            state.apply(value)  # type: ignore[arg-type]
        except IllegalAction:
            assert None in allowed, f"apply({show(value)}) refused a legal action"
            assert snapshot(state) == before, f"the refused apply({show(value)}) changed the state"
            return
        except Exception as e:
            pytest.fail(f"apply({show(value)}) raised {type(e).__name__}({e}), not IllegalAction")
        assert allowed != (None,), f"apply({show(value)}) accepted an illegal action"
        after = state.history
        assert after[:-1] == history and len(after) == len(history) + 1, (
            f"apply({show(value)}) did not add exactly one entry to the history")
        played_seat, played = after[-1]
        assert played_seat == seat
        assert any(type(played) is type(a) and played == a for a in allowed if a is not None), (
            f"apply({show(value)}) played {show(played)}")
        check_conserved(state)

    def try_parse(self, value: object) -> None:
        """``parse_action(value)`` refuses what is not an action's text and changes nothing;
        what it parses is an action of this game that round-trips through its text."""
        state = self.state
        if not isinstance(value, str):
            refused(state, IllegalAction, functools.partial(state.parse_action, value),
                    f"parse_action({show(value)})")
            return
        before = snapshot(state)
        try:
            action = state.parse_action(value)
        except IllegalAction:
            action = None
        except Exception as e:
            pytest.fail(f"parse_action({value!r}) raised {type(e).__name__}({e}), "
                        "not IllegalAction")
        assert snapshot(state) == before, f"parse_action({value!r}) changed the state"
        if action is not None:
            assert type(action) is self.kind
            assert state.parse_action(str(action)) == action, f"{action} does not round-trip"

    def random_legal(self, state: State) -> Action:
        legal = state.legal_actions()
        assert legal, "a deal that is not over must have a legal action"
        return self.rng.choice(legal)


def step_play(fz: Fuzz) -> None:
    """Play a few legal actions (some as text), or the deal to its end."""
    count = fz.draw(st.sampled_from([1, 3, 10, 40, 10_000]), "moves")
    for _ in range(count):
        if fz.state.is_over:
            return
        action = fz.random_legal(fz.state)
        fz.earlier.append(action)
        fz.try_apply(str(action) if fz.rng.random() < 0.2 else action)


def step_apply(fz: Fuzz) -> None:
    """``apply`` arbitrary values, text, other games' actions, hand-made actions, old moves."""
    sources = [junk, action_texts, st.text(max_size=12),
               st.sampled_from(actions_of_every_variant()), hand_made(fz.kind)]
    if fz.earlier:
        sources.append(st.sampled_from(fz.earlier))
    for value in fz.draw(st.lists(pick(*sources), min_size=1, max_size=8), "apply"):
        fz.try_apply(value)


def step_parse(fz: Fuzz) -> None:
    """``parse_action`` of arbitrary values, notation-like text and old moves in lower case."""
    sources = [junk, action_texts, st.text(max_size=12), hand_made(fz.kind)]
    if fz.earlier:
        sources.append(st.sampled_from(fz.earlier).map(lambda a: str(a).lower()))
    for value in fz.draw(st.lists(pick(*sources), min_size=1, max_size=8), "parse_action"):
        fz.try_parse(value)


def step_seats(fz: Fuzz) -> None:
    """``observation`` and ``hidden_from`` refuse anything that is not a seat."""
    state = fz.state
    calls = st.tuples(st.sampled_from(["observation", "hidden_from"]),
                      non_seats(state.game.players))
    for method, value in fz.draw(st.lists(calls, min_size=1, max_size=6), "calls"):
        refused(state, SeatError, functools.partial(getattr(state, method), value),
                f"{method}({show(value)})")


def step_observe(fz: Fuzz) -> None:
    """A seat's observation agrees with the state, and states sampled from it agree with it."""
    state = fz.state
    seat = fz.draw(st.integers(0, state.game.players - 1), "observed seat")
    before = snapshot(state)
    obs = state.observation(seat)
    assert obs == state.observation(seat)
    assert (obs.seat, obs.current_player) == (seat, state.current_player)
    assert obs.hand == state.zones()[f"P{seat}"]
    assert not obs.hand & state.hidden_from(seat)
    sample = obs.sample_state(random.Random(fz.rng.random()))
    assert sample.observation(seat) == obs, "a sampled state shows the seat something else"
    check_conserved(sample)
    assert snapshot(state) == before, "observing or sampling changed the state"


def step_clone(fz: Fuzz) -> None:
    """A clone plays on alone: the original does not change."""
    state = fz.state
    before = snapshot(state)
    twin = state.clone()
    assert snapshot(twin) == before
    for _ in range(fz.draw(st.sampled_from([1, 10, 10_000]), "clone moves")):
        if twin.is_over:
            break
        twin.apply(fz.random_legal(twin))
    assert snapshot(state) == before, "playing a clone changed the original"


def step_scribble(fz: Fuzz) -> None:
    """Changing whatever a public method returned changes nothing in the state."""
    state = fz.state
    seat = fz.draw(st.integers(0, state.game.players - 1), "scribbled seat")
    before = frozen_snapshot(state)
    obs = state.observation(seat)
    returned: list[object] = [state.history, state.legal_actions(), state.returns(),
                              state.zones(), state.setup(), obs.to_dict(), obs.log_lines()]
    returned += [getattr(obs, f.name) for f in fields(obs) if f.name != "game"]  # type: ignore[arg-type]
    for value in returned:
        scribble(value)
    assert snapshot(state) == before, "changing a returned value changed the state"


STEPS = [step_play, step_apply, step_parse, step_seats, step_observe, step_clone, step_scribble]


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
@FUZZ
@given(seed=st.integers(0, 2**32), data=st.data())
def test_interleaved_legal_and_refused_calls(game: parlour.Game, seed: int,
                                             data: st.DataObject) -> None:
    """A random sequence of :data:`STEPS` on one deal, then the deal played out."""
    fz = Fuzz(game.new_deal(seed=seed), data, seed)
    for step in data.draw(st.lists(st.sampled_from(STEPS), min_size=3, max_size=30),
                          label="steps"):
        step(fz)
    # Whatever happened, a finished deal refuses every action, its own earlier ones included.
    while not fz.state.is_over:
        fz.state.apply(fz.random_legal(fz.state))
    assert fz.state.legal_actions() == []
    for action in fz.earlier[-5:]:
        refused(fz.state, IllegalAction, functools.partial(fz.state.apply, action),
                f"apply({action}) after the end")


# -- deals --------------------------------------------------------------------------------------


def position_setup(state: State, rng: random.Random) -> dict[str, Any]:
    """``new_deal`` keywords that name a whole position: hands and every other setting."""
    setup = state.setup()
    if "hands" not in setup:
        # A shuffled deal may record only its seed; a state sampled from an observation is dealt
        # from explicit hands, and so its setup names every setting of a position.
        setup = state.observation(0).sample_state(rng).setup()
    assert "hands" in setup
    return setup


def spoiled_cards(value: Any) -> st.SearchStrategy[Any]:
    """Cards (text or a list) with one card dropped, repeated, or replaced by a non-card."""
    words = value.split() if isinstance(value, str) else list(value)
    if not words:
        return st.sampled_from([["ZZ"], "1H", [None]])
    rebuild = (lambda w: " ".join(map(str, w))) if isinstance(value, str) else list
    index = st.integers(0, len(words) - 1)
    return st.one_of(
        index.map(lambda i: rebuild(words[:i] + words[i + 1:])),
        index.map(lambda i: rebuild([*words, words[i]])),
        st.tuples(index, st.sampled_from(["1H", "ZZ", "10X", "", None, 52, -1, True, 2.0])).map(
            lambda p: rebuild([*words[:p[0]], p[1], *words[p[0] + 1:]])),
    )


def spoiled(value: Any) -> st.SearchStrategy[Any]:
    """Ways to spoil one ``new_deal`` keyword value (some may still make a valid deal)."""
    options: list[st.SearchStrategy[Any]] = [junk]
    if isinstance(value, str) and value and value != "...":
        options.append(spoiled_cards(value))
    if isinstance(value, list) and value:
        index = st.integers(0, len(value) - 1)
        options += [
            index.map(lambda i: value[:i] + value[i + 1:]),
            index.map(lambda i: [*value, value[i]]),
            st.tuples(index, junk).map(lambda p: [*value[:p[0]], p[1], *value[p[0] + 1:]]),
        ]
        if all(isinstance(v, str) for v in value):  # per-seat cards: spoil one seat's
            options.append(index.flatmap(lambda i: spoiled_cards(value[i]).map(
                lambda v: [*value[:i], v, *value[i + 1:]])))
    if isinstance(value, int) and not isinstance(value, bool):
        options.append(st.sampled_from([value - 100, -1, 10**9, True, float(value), str(value)]))
    return st.one_of(options)


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
@QUICK
@given(seed=st.integers(0, 2**32), data=st.data())
def test_bad_deal_settings_are_refused(name: str, players: int, seed: int,
                                       data: st.DataObject) -> None:
    """A spoiled setting raises DealError; one that still makes a deal makes a sound one."""
    game = parlour.new_game(name, players=players)
    state, rng = game.new_deal(seed=seed), random.Random(seed)
    # Positions later in a deal have more settings (melds, scores, whose turn …).
    for _ in range(data.draw(st.sampled_from([0, 5, 30]), label="moves")):
        if not state.is_over:
            state.apply(rng.choice(state.legal_actions()))
    setup = position_setup(state, rng)
    key = data.draw(st.sampled_from([*sorted(setup), "colour", "seat"]), label="setting")
    setup[key] = data.draw(spoiled(setup.get(key)), label="value")
    try:
        state = game.new_deal(**setup)
    except DealError:
        return
    except Exception as e:
        pytest.fail(f"{key}={show(setup[key])} raised {type(e).__name__}({e}), not DealError")
    check_conserved(state)
    again = game.new_deal(**json.loads(json.dumps(state.setup())))
    assert snapshot(again) == snapshot(state), f"{key}={show(setup[key])} does not recreate"


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
@QUICK
@given(data=st.data())
def test_bad_decks_and_seeds_are_refused(name: str, players: int, data: st.DataObject) -> None:
    game = parlour.new_game(name, players=players)
    deck = [str(c) for c in CARDS]
    arguments = data.draw(st.one_of(
        st.fixed_dictionaries({"deck": junk.filter(lambda v: v is not None)}),  # None: no deck
        st.fixed_dictionaries({"deck": spoiled_cards(deck)}),
        st.fixed_dictionaries({"deck": spoiled_cards(" ".join(deck))}),
        st.fixed_dictionaries({"seed": junk.filter(
            lambda v: v is not None and not (isinstance(v, int) and not isinstance(v, bool)))}),
    ), label="arguments")
    with pytest.raises(DealError):
        game.new_deal(**arguments)


# -- games --------------------------------------------------------------------------------------


@pytest.mark.parametrize("name", VARIANTS)
@QUICK
@given(data=st.data())
def test_bad_games_are_refused(name: str, data: st.DataObject) -> None:
    """``new_game`` raises VariantError for a bad name, player count or option; what it
    accepts is a game with exactly those settings."""
    variant = parlour.get_variant(name)
    infos = {i.name: i for i in variant.option_info()}
    # Values on and just past the edges of what some option allows, besides arbitrary ones.
    edges = {v for i in infos.values() for v in (i.default, *(i.choices or ()), i.min, i.max)
             if v is not None}
    edges |= {v + step for v in edges if type(v) is int for step in (-1, 1)}
    edges |= {str(v) for v in edges}
    option_names = pick(st.sampled_from(sorted(infos)), st.text(max_size=8),
                        st.sampled_from(["name", "players ", "seed", "variant"]))
    option_values = pick(junk, st.sampled_from(sorted(edges, key=repr)))
    options = data.draw(st.dictionaries(option_names, option_values, max_size=2),
                        label="options")
    options.pop("players", None)
    players = data.draw(pick(st.none(), st.sampled_from(variant.players), junk), label="players")
    called = data.draw(pick(st.just(name), junk), label="variant")
    try:
        game = parlour.new_game(called, players=players, **options)
    except VariantError:
        return
    except Exception as e:
        pytest.fail(f"new_game raised {type(e).__name__}({e}), not VariantError")
    assert called == name and set(options) <= set(infos)
    assert game.players == (variant.default_players if players is None else players)
    assert all(getattr(game.options, k) == v for k, v in options.items())
    assert game_from_description(json.loads(json.dumps(game.describe()))) == game
