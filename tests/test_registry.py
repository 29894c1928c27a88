"""Variants, options and their validation."""

from __future__ import annotations

import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour.errors import VariantError
from parlour.registry import game_from_description

EXPECTED = ["big-two-4card", "big-two", "pusoy-dos", "forty-five", "spoil-five", "rummy"]


def test_every_variant_of_the_rules_is_registered_in_order() -> None:
    assert [v.name for v in parlour.variants()] == EXPECTED


@pytest.mark.parametrize("variant", parlour.variants(), ids=lambda v: v.name)
def test_variant_describes_itself_and_defaults_build(variant: parlour.Variant) -> None:
    assert variant.description and "\n" not in variant.description
    assert variant.default_players in variant.players
    game = parlour.new_game(variant.name)
    assert game.players == variant.default_players
    for info in variant.option_info():
        # Help is for players (parlour variants, both tables): no specification's codes.
        assert info.help and not re.search(r"\([A-Z]\d+\)|\(seed\)", info.help), info.help
        assert getattr(game.options, info.name) == info.default
    assert parlour.new_game(variant.name) == game


def test_unknown_variant_lists_the_variants() -> None:
    with pytest.raises(VariantError, match=r"big-two-4card.*pusoy-dos"):
        parlour.new_game("big-three")


def test_unknown_option_lists_the_options() -> None:
    with pytest.raises(VariantError, match=r"no option 'triples'.*allow_triples"):
        parlour.new_game("big-two", triples=True)


@pytest.mark.parametrize(("options", "fragment"), [
    ({"allow_triples": "yes"}, "True, False"),
    ({"straights": "wrap"}, "'standard', 'hong-kong'"),
    ({"penalty_limit": 0}, "a whole number from 1 to 10000"),
    ({"deals": True}, "a whole number from 1 to 1000"),
])
def test_bad_option_value_says_what_is_allowed(options: dict[str, object], fragment: str) -> None:
    with pytest.raises(VariantError) as e:
        parlour.new_game("big-two", **options)
    assert fragment in str(e.value)


@pytest.mark.parametrize("variant", [v.name for v in parlour.variants()])
def test_every_number_option_is_bounded_by_what_a_person_would_use(variant: str) -> None:
    """A server takes a table's options from anyone: each number has a range, and a value
    past it is refused saying the range in words."""
    numbers = [i for i in parlour.registry.get_variant(variant).option_info()
               if isinstance(i.default, int) and not isinstance(i.default, bool)]
    for info in numbers:
        assert info.min is not None and info.max is not None, info
        assert info.max <= 10_000, info
        for value in (info.max + 1, 10**18):
            with pytest.raises(VariantError) as e:
                parlour.new_game(variant, **{info.name: value})
            assert f"a whole number from {info.min} to {info.max}" in str(e.value)
    if variant == "rummy":
        assert {i.name for i in numbers} >= {"series_target", "turn_limit"}


def test_bad_player_count_says_what_is_allowed() -> None:
    with pytest.raises(VariantError, match="played by 4 players, not 5"):
        parlour.new_game("pusoy-dos", players=5)


def test_options_take_effect_and_games_compare_by_ruleset() -> None:
    a = parlour.new_game("big-two", allow_triples=True)
    assert a.options.allow_triples is True
    assert a != parlour.new_game("big-two")
    assert a == parlour.new_game("big-two", allow_triples=True)
    assert a.describe() == {"variant": "big-two", "players": 4,
                            "options": {**parlour.new_game("big-two").option_values(),
                                        "allow_triples": True}}
    # A choice is matched in any case, as cards are, and kept as the rules name it.
    upper = parlour.new_game("pusoy-dos", next_leader="3C", straights="seed")
    assert parlour.new_game("pusoy-dos", next_leader="3c", straights="SEED") == upper
    assert upper.options.next_leader == "3C"


@pytest.mark.parametrize(("name", "fragment"), [
    (None, "unknown variant None"),
    (42, "unknown variant 42"),
    (["big-two"], r"unknown variant \['big-two'\]"),
    ({"variant": "big-two"}, "unknown variant"),
    (b"big-two", "unknown variant b'big-two'"),
])
def test_a_variant_name_that_is_not_text_is_refused(name: object, fragment: str) -> None:
    with pytest.raises(VariantError, match=fragment):
        parlour.new_game(name)  # type: ignore[arg-type]
    with pytest.raises(VariantError, match=fragment):
        parlour.get_variant(name)  # type: ignore[arg-type]


@pytest.mark.parametrize("players", ["4", 4.0, True, {}, [4], -4, 0])
def test_a_player_count_of_the_wrong_type_or_value_is_refused(players: object) -> None:
    with pytest.raises(VariantError, match=f"played by 4 players, not {re.escape(repr(players))}"):
        parlour.new_game("big-two", players=players)  # type: ignore[arg-type]


def test_an_option_called_name_is_an_unknown_option() -> None:
    with pytest.raises(VariantError, match="no option 'name'"):
        parlour.new_game("big-two", **{"name": "x"})


@pytest.mark.parametrize("variant", parlour.variants(), ids=lambda v: v.name)
def test_every_game_rebuilds_from_its_description(variant: parlour.Variant) -> None:
    for players in variant.players:
        game = parlour.new_game(variant.name, players=players)
        assert game_from_description(json.loads(json.dumps(game.describe()))) == game
    assert game_from_description({"variant": variant.name}) == parlour.new_game(variant.name)


GOOD = {"variant": "big-two", "players": 4, "options": {"allow_triples": True}}


@pytest.mark.parametrize(("desc", "fragment"), [
    (None, "must be a dict"),
    (["big-two", 4, {}], "must be a dict"),
    ("big-two", "must be a dict"),
    ({}, "must name its variant"),
    ({"players": 4}, "must name its variant"),
    ({**GOOD, "seed": 3}, "no key 'seed'"),
    ({**GOOD, "allow_triples": True}, "no key 'allow_triples'"),
    ({**GOOD, "variant": 7}, "unknown variant 7"),
    ({**GOOD, "variant": None}, "unknown variant None"),
    ({**GOOD, "variant": "big-three"}, "unknown variant 'big-three'"),
    ({**GOOD, "players": "4"}, "not '4'"),
    ({**GOOD, "players": 4.0}, "not 4.0"),
    ({**GOOD, "players": [4]}, r"not \[4\]"),
    ({**GOOD, "players": 5}, "not 5"),
    ({**GOOD, "options": None}, "options .* must be a dict"),
    ({**GOOD, "options": ["allow_triples"]}, "options .* must be a dict"),
    ({**GOOD, "options": "allow_triples=true"}, "options .* must be a dict"),
    ({**GOOD, "options": {1: True}}, "options .* must be a dict"),
    ({**GOOD, "options": {"triples": True}}, "no option 'triples'"),
    ({**GOOD, "options": {"allow_triples": "yes"}}, "allow_triples='yes' is not allowed"),
])
def test_a_malformed_description_is_refused_naming_what_is_wrong(desc: object,
                                                                 fragment: str) -> None:
    with pytest.raises(VariantError, match=fragment):
        game_from_description(desc)


@settings(max_examples=200, deadline=None)
@given(st.dictionaries(
    st.sampled_from(["variant", "players", "options", "seed"]),
    st.one_of(st.sampled_from(["big-two", "rummy", 4, 2, {}, {"allow_triples": True}]),
              st.none(), st.integers(), st.text(max_size=4), st.lists(st.integers(), max_size=2),
              st.dictionaries(st.text(max_size=4), st.booleans(), max_size=2)),
    max_size=4,
))
def test_any_description_gives_its_game_or_a_variant_error(desc: dict[str, object]) -> None:
    try:
        game = game_from_description(desc)
    except VariantError:
        return
    players = desc.get("players")
    assert game.name == desc["variant"]
    assert game.players == (game.variant.default_players if players is None else players)
    assert game_from_description(game.describe()) == game
