"""Composed positions and checks shared by the rules tests of the climbing games.

Used by the tests of big-two-4card, big-two and pusoy-dos. Every helper that builds a deal takes
the game first, so one helper serves each variant and each set of options.

"Given table play X" positions are composed: seat 0 holds X (plus a spare card, so it is still in
the deal after playing X) and leads freely, seat 1 holds the answer Y (plus a spare), seats 2 and
3 hold a spare card each, and every other card is out of play.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import cast

import pytest

from parlour import Action, CardSet, Game, IllegalAction, parse_cards
from parlour.games.climbing.engine import ClimbingState
from parlour.games.climbing.observation import ClimbingObservation

DECK: list[str] = [str(c) for c in CardSet((1 << 52) - 1)]
PASS = "pass"

Snapshot = tuple[list[ClimbingObservation], list[tuple[int, Action]], int, list[Action]]


def names(text: str) -> list[str]:
    """The cards of ``text`` as their names, in the order ``parse_cards`` gives them."""
    return [str(c) for c in parse_cards(text)]


def position(game: Game, hands: list[str], leader: int = 0) -> ClimbingState:
    """A composed position: seat i holds ``hands[i]``; every other card is already out of play."""
    held = {c for h in hands for c in names(h)}
    state = game.new_deal(hands=hands, out=[c for c in DECK if c not in held], leader=leader)
    return cast(ClimbingState, state)


def lead_position(game: Game, cards: str) -> ClimbingState:
    """Seat 0 holds ``cards`` and leads freely; seats 1 to 3 hold a spare card each (no seat may
    be empty where the deal ends at the first player out); every other card is out of play."""
    spare = [c for c in DECK if c not in set(names(cards))]
    return position(game, [cards, *spare[:3]], leader=0)


def full_hands(fixed: dict[int, str]) -> list[str]:
    """Four 13-card hands: seat i holds ``fixed[i]``, topped up from the rest of the deck."""
    used = {c for h in fixed.values() for c in names(h)}
    rest = [c for c in DECK if c not in used]
    hands = []
    for seat in range(4):
        mine = names(fixed.get(seat, ""))
        need = 13 - len(mine)
        mine, rest = mine + rest[:need], rest[need:]
        hands.append(" ".join(mine))
    return hands


def after_lead(game: Game, table: str, answer: str) -> ClimbingState:
    """Seat 0 has led ``table``; seat 1, holding ``answer``, is to move."""
    used = set(names(table)) | set(names(answer))
    spare = [c for c in DECK if c not in used]
    state = position(game, [f"{table} {spare[0]}", f"{answer} {spare[1]}", spare[2], spare[3]])
    state.apply(table)
    assert state.current_player == 1
    assert state.observation(1).table == state.parse_action(table)
    return state


def beats(game: Game, table: str, answer: str) -> bool:
    """Whether ``answer`` may be played on ``table``; legal_actions and apply must agree."""
    state = after_lead(game, table, answer)
    play = state.parse_action(answer)
    listed = play in state.legal_actions()
    try:
        state.apply(play)
    except IllegalAction:
        assert not listed
        assert state.current_player == 1
        assert state.observation(1).table == state.parse_action(table)
        return False
    assert listed
    seen = state.observation(2)
    assert seen.table == play and seen.table_seat == 1 and state.current_player == 2
    return True


def refusal(game: Game, table: str, answer: str) -> str:
    """The IllegalAction message when seat 1 plays ``answer`` on ``table``."""
    state = after_lead(game, table, answer)
    with pytest.raises(IllegalAction) as err:
        state.apply(answer)
    return str(err.value)


def legal(state: ClimbingState) -> set[str]:
    """The legal actions of the player to move, as text."""
    return {str(a) for a in state.legal_actions()}


def snapshot(state: ClimbingState) -> Snapshot:
    """Everything a refused action must leave unchanged: what each seat sees, the history,
    the player to move and the legal actions."""
    return ([state.observation(seat) for seat in range(4)], state.history,
            state.current_player, state.legal_actions())


def assert_refusals_change_nothing(state: ClimbingState, plays: Iterable[str]) -> None:
    """Each of ``plays`` is refused with IllegalAction and leaves ``state`` exactly as it was."""
    before = snapshot(state)
    for play in plays:
        with pytest.raises(IllegalAction):
            state.apply(play)
        assert snapshot(state) == before
