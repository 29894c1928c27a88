"""Variants, options and their validation."""

from __future__ import annotations

import pytest

import parlour
from parlour.errors import VariantError

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
        assert info.help
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
    ({"penalty_limit": 0}, "1..10000"),
    ({"deals": True}, "integer"),
])
def test_bad_option_value_says_what_is_allowed(options: dict[str, object], fragment: str) -> None:
    with pytest.raises(VariantError) as e:
        parlour.new_game("big-two", **options)
    assert fragment in str(e.value)


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
