"""The compiled rummy deal (``parlour._core.RummyCore``) refuses bad parts with ``ValueError``,
never a panic, and a refused action leaves it unchanged."""

from __future__ import annotations

import random

import pytest

from parlour._core import RummyCore


def _position(**changes: object) -> RummyCore:
    parts: dict[str, object] = {
        "players": 2, "forbid": False, "score_melds": True, "turn_limit": 10,
        "hands": [0b111, 0b111000], "stock": [10, 11], "pile": [12], "melds": [],
        "placed": [0, 0], "scores": [0, 0], "taken": [0, 0], "current": 0, "drawing": True,
        "drawn": -1, "drawn_from_discard": False, "turn": 0,
    }
    parts.update(changes)
    return RummyCore.position(**parts)  # type: ignore[arg-type]


@pytest.mark.parametrize("changes", [
    {"players": 1}, {"players": 5}, {"turn_limit": 0}, {"hands": [1]}, {"scores": [0]},
    {"hands": [1 << 52, 1]}, {"stock": [52]}, {"pile": list(range(53))}, {"current": 2},
    {"current": -2}, {"drawn": 52}, {"melds": [7] * 18}, {"ended": 3},
])
def test_bad_parts_are_a_value_error(changes: dict[str, object]) -> None:
    with pytest.raises(ValueError):
        _position(**changes)


def test_bad_deals_and_rebuilds_are_a_value_error() -> None:
    with pytest.raises(ValueError):
        RummyCore.deal(2, False, True, 10, [0] * 52, 10)
    with pytest.raises(ValueError):
        RummyCore.deal(4, False, True, 10, list(range(52)), 13)
    core = _position()
    with pytest.raises(ValueError):
        core.rebuild([12])  # the stock is not empty
    for seat in (2, 99):
        with pytest.raises(ValueError):
            core.seat_view(seat)
        with pytest.raises(ValueError):
            core.hidden_from(seat)
    with pytest.raises(OverflowError):
        core.apply(-1)


def test_any_value_is_applied_or_refused_unchanged() -> None:
    rng = random.Random(3)
    core = RummyCore.deal(3, True, True, 40, rng.sample(range(52), 52), 7)
    for _ in range(300):
        if core.current_player < 0:
            break
        value = rng.choice([rng.getrandbits(64), rng.getrandbits(8), 4 | 1 << rng.randrange(3, 55)])
        before = (core.parts(), core.public_view())
        done = core.apply(value)
        if done >= 1 << 56:
            assert (core.parts(), core.public_view()) == before
        elif done & 8:
            pile = list(core.pile()[:-1])
            rng.shuffle(pile)
            core.rebuild(pile)
        legal = core.legal_actions()
        if legal and core.current_player >= 0:
            done = core.apply(rng.choice(legal))
            assert done < 1 << 56
            if done & 8:
                pile = list(core.pile()[:-1])
                rng.shuffle(pile)
                core.rebuild(pile)
