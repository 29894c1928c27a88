"""Variants, options and their validation."""

from __future__ import annotations

import dataclasses
import json
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour import registry
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


@pytest.mark.parametrize(("options", "fragment", "words"), [
    ({"allow_triples": "yes"}, "Allow three of a kind (allow_triples) must be True or False",
     "Allow three of a kind must be on or off"),
    ({"straights": "wrap"}, "Straights (straights) must be 'standard' or 'hong-kong', not 'wrap'",
     "Straights must be standard or Hong Kong"),
    ({"match_end": "points"}, "'penalty-limit' or 'deals'",
     "Match ends must be at the penalty limit or after a number of deals"),
    ({"penalty_limit": 0}, "a whole number from 1 to 10000",
     "Penalty limit must be a whole number from 1 to 10000, not 0"),
    ({"deals": True}, "a whole number from 1 to 1000",
     "Number of deals must be a whole number from 1 to 1000"),
])
def test_bad_option_value_says_what_is_allowed(options: dict[str, object], fragment: str,
                                               words: str) -> None:
    with pytest.raises(VariantError) as e:
        parlour.new_game("big-two", **options)
    assert fragment in str(e.value)
    # What a player reads: the option by its label, its values in words, no keyword.
    assert e.value.words == words


@pytest.mark.parametrize("variant", parlour.variants(), ids=lambda v: v.name)
def test_every_option_has_a_label_and_help_in_a_players_words(variant: parlour.Variant) -> None:
    for info in variant.option_info():
        field = next(f for f in dataclasses.fields(variant.options_type) if f.name == info.name)
        assert field.metadata.get("label"), f"{variant.name} {info.name} has no label"
        words = [info.label, info.help, info.allowed_words()]
        if info.choices is not None:
            assert info.choice_labels is not None and len(info.choice_labels) == len(info.choices)
            words += [info.value_words(c) for c in info.choices]
        for text in words:
            assert text.strip() and not re.search(r"_|'[\w-]+'|\bnull\b|None|True|False", text), (
                variant.name, info.name, text)
        assert info.label[0].isupper() and not info.label.endswith("."), info.label
    labels = [info.label for info in variant.option_info()]
    assert len(labels) == len(set(labels)), labels


@pytest.mark.parametrize("variant", parlour.variants(), ids=lambda v: v.name)
def test_applies_when_names_other_options_and_their_values(variant: parlour.Variant) -> None:
    infos = {i.name: i for i in variant.option_info()}
    for info in infos.values():
        for name, values in info.applies_when:
            assert name in infos and name != info.name, (info.name, name)
            assert values and infos[name].choices is not None
            assert set(values) <= set(infos[name].choices), (info.name, values)
        # It applies with the defaults, or under another default of what it depends on.
        defaults = {i.name: i.default for i in infos.values()}
        assert info.applies(defaults) or any(
            defaults[name] not in values for name, values in info.applies_when)


def test_options_that_apply_only_under_another_option() -> None:
    big_two = parlour.get_variant("big-two")
    assert [i.name for i in big_two.not_applying({"deals": 5})] == ["deals"]
    assert big_two.not_applying({"deals": 5, "match_end": "deals"}) == []
    assert [i.name for i in big_two.not_applying({"match_end": "deals", "penalty_limit": 9})] == [
        "penalty_limit"]
    pusoy = parlour.get_variant("pusoy-dos")
    assert [i.name for i in pusoy.not_applying({"scoring": "penalty",
                                                "control_after_out": "standard"})] == [
        "control_after_out"]
    infos = {i.name: i for i in big_two.option_info()}
    assert infos["deals"].condition_words(infos) == "Match ends is after a number of deals"
    # The API still takes them (a record of such a game replays): they change nothing.
    game = parlour.new_game("big-two", deals=5)
    assert game.match_end_text() == parlour.new_game("big-two").match_end_text()


def test_a_variant_whose_option_applies_under_no_option_is_not_registered() -> None:
    @dataclasses.dataclass(frozen=True)
    class Options:
        rounds: int = registry.option(3, "rounds", label="Rounds", min=1, max=9,
                                      applies_when={"ending": ("rounds",)})

    variant = parlour.Variant("test-bad", "a test", (2,), 2, Options, lambda v, n, o: None)
    with pytest.raises(VariantError, match="applies when ending"):
        registry.register(variant)
    assert "test-bad" not in {v.name for v in parlour.variants()}


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
    ({**GOOD, "options": {"allow_triples": "yes"}}, r"\(allow_triples\) must be .*, not 'yes'"),
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


def test_a_family_record_is_refused_without_keys_of_its_own_and_changes_nothing() -> None:
    before = registry.families()
    play = registry.Verb("play", "Play", "p", "play")
    for family, why in [
        (registry.Family("climbing"), "family climbing is registered twice"),
        (registry.Family("new", (play, registry.Verb("peek", "Peek", "p", "peek"))),
         "each verb needs a key of its own"),
        (registry.Family("new", (registry.Verb("hop", "Hop", "h", "hop"),)),
         "not one of the tables' (? c h n q s u)"),
        (registry.Family("new", (registry.Verb("go", "Go", "", "go"),)), "a key of its own"),
    ]:
        with pytest.raises(VariantError, match=re.escape(why)):
            registry.register_family(family)
    assert registry.families() == before
    # Every registered family's record is complete: a label, a key and help for every verb.
    for record in before:
        assert all(v.label and v.help and len(v.key) == 1 for v in record.verbs), record.name
        assert registry.family_of(next(v for v in registry.variants()
                                       if v.family == record.name)) is record
