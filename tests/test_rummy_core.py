"""The compiled rummy deal (``parlour._core.RummyCore``) refuses bad parts with ``ValueError``,
never a panic, and a refused action leaves it unchanged; its moves are the package's own
shared objects."""

from __future__ import annotations

import random

import pytest

from parlour._core import RummyActions, RummyCore
from parlour.games.rummy.actions import INTERNED, RummyAction, parse_action


def _position(**changes: object) -> RummyCore:
    parts: dict[str, object] = {
        "players": 2, "forbid": False, "score_melds": True, "turn_limit": 10,
        "hands": [0b111, 0b111000], "stock": [10, 11], "pile": [12], "melds": [],
        "placed": [0, 0], "scores": [0, 0], "taken": [0, 0], "current": 0, "drawing": True,
        "drawn": -1, "drawn_from_discard": False, "turn": 0,
    }
    parts.update(changes)
    return RummyCore.position(INTERNED, **parts)  # type: ignore[arg-type]


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
        RummyCore.deal(INTERNED, 2, False, True, 10, [0] * 52, 10)
    with pytest.raises(ValueError):
        RummyCore.deal(INTERNED, 4, False, True, 10, list(range(52)), 13)
    core = _position()
    with pytest.raises(ValueError):
        core.rebuild([12])  # the stock is not empty
    for seat in (2, 99):
        with pytest.raises(ValueError):
            core.seat_view(seat)
        with pytest.raises(ValueError):
            core.hidden_from(seat)
    for value in (-1, -(2**70), 2**64, 2**70 | 3 | 1 << 40, 2.0, "draw stock", None):
        before = (core.parts(), core.public_view(), core.record)
        assert core.apply(value) < -2  # type: ignore[arg-type]
        assert (core.parts(), core.public_view(), core.record) == before


def test_any_value_is_applied_or_refused_unchanged() -> None:
    rng = random.Random(3)
    core = RummyCore.deal(INTERNED, 3, True, True, 40, rng.sample(range(52), 52), 7)
    for _ in range(300):
        if core.current_player < 0:
            break
        value = rng.choice([rng.getrandbits(64), rng.getrandbits(8), 4 | 1 << rng.randrange(3, 55)])
        before = (core.parts(), core.public_view(), core.record, core.discard_draws)
        done = core.apply(value)
        if done < -2:
            assert (core.parts(), core.public_view(), core.record, core.discard_draws) == before
        else:
            assert core.record == [*before[2], (before[1][0], RummyAction(value))]
            if done == -2:
                pile = list(core.pile()[:-1])
                rng.shuffle(pile)
                core.rebuild(pile)
        legal = core.legal_actions()
        if legal and core.current_player >= 0:
            done = core.apply(rng.choice(legal))
            assert done >= -2
            if done == -2:
                pile = list(core.pile()[:-1])
                rng.shuffle(pile)
                core.rebuild(pile)


def test_the_core_hands_out_and_records_the_shared_move_objects() -> None:
    """A move is the same object whether the core or the package made it first."""
    rng = random.Random(8)
    core = RummyCore.deal(INTERNED, 2, False, True, 200, rng.sample(range(52), 52), 10)
    seen = 0
    while core.current_player >= 0 and seen < 400:
        legal = core.legal_actions()
        for a in legal:
            assert a.__class__ is RummyAction
            assert RummyAction(int(a)) is a and parse_action(str(a)) is a
            assert INTERNED.get(int(a)) is a
        a = rng.choice(legal)
        seat, drawn_before = core.current_player, len(core.discard_draws)
        if core.apply(int.__new__(RummyAction, int(a))) == -2:  # a copy made by hand
            core.rebuild(list(core.pile()[:-1]))
        assert core.record[-1] == (seat, a) and core.record[-1][1] is a
        assert len(core.discard_draws) == drawn_before + (str(a) == "draw discard")
        seen += 1
    # The other way round: a move the package makes first is the one the core hands out.
    fresh = RummyActions(RummyAction)
    meld = fresh.get(int(parse_action("meld ac 2c 3c")))
    assert meld.__class__ is RummyAction and fresh.get(int(meld)) is meld
    core = RummyCore.position(fresh, 2, False, True, 10, [0b111 | 1 << 20, 1 << 30], [40], [41],
                              [], [0, 0], [0, 0], [0, 0], 0, False, -1, False, 1)
    assert meld in core.legal_actions()
    assert next(a for a in core.legal_actions() if a == meld) is meld
    for bad in (5, 2, 1 << 60 | 4):
        with pytest.raises(ValueError):
            fresh.get(bad)
    with pytest.raises(TypeError):
        RummyActions(str)  # type: ignore[arg-type]
