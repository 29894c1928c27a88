"""What each client of a web table is sent: a seat's view, or the public view for spectators.

A seat's view is built from ``state.observation(seat)`` alone. The public view is built from
every seat's observation, keeping only what all of them show alike, so it can hold no card of
any hand (a card in a hand is in exactly one seat's observation) and needs nothing
game-specific.

>>> import parlour
>>> state = parlour.new_game("big-two").new_deal(seed=1)
>>> public = public_observation([state.observation(s) for s in range(4)])
>>> "hand" in public, public["hand_sizes"], public["variant"]
(False, [13, 13, 13, 13], 'big-two')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.game import Action, Observation
from parlour.moves import offered_verbs, parse_move
from parlour.tui.views import drawn_card

#: Observation fields that are the seat's own, never shown to a spectator even when they agree.
PRIVATE_FIELDS = ("hand", "seat")


def common(values: Sequence[Any]) -> Any:
    """What all ``values`` (decoded JSON) have alike: equal values as they are; objects key by
    key and lists of one length item by item; anything else that differs is ``None``.

    >>> common([{"a": [1, 2], "b": 3}, {"a": [1, 5], "b": 4}])
    {'a': [1, None], 'b': None}
    >>> common([[1, 2], [1]])
    """
    first = values[0]
    if all(v == first for v in values[1:]):
        return first
    if all(isinstance(v, dict) for v in values) and all(v.keys() == first.keys() for v in values):
        return {k: common([v[k] for v in values]) for k in first}
    if all(isinstance(v, list) and len(v) == len(first) for v in values):
        return [common(items) for items in zip(*values, strict=True)]
    return None


def common_lines(texts: Sequence[Sequence[str]]) -> list[str]:
    """The lines of the first text that every other text has too, in order.

    >>> common_lines([["a", "you: 3D", "b"], ["a", "you: 4C", "b"]])
    ['a', 'b']
    """
    others = [set(t) for t in texts[1:]]
    return [line for line in texts[0] if all(line in o for o in others)]


def public_observation(observations: Sequence[Observation]) -> dict[str, Any]:
    """What every seat's observation shows alike (``to_dict()`` form), without a hand."""
    data = common([o.to_dict() for o in observations])
    for name in PRIVATE_FIELDS:
        data.pop(name, None)
    return dict(data)


def legal_entries(obs: Observation, legal: Sequence[Action]) -> list[dict[str, Any]]:
    """The legal actions, each taken apart into verb, cards (in hand order) and target."""
    order = {card: i for i, card in enumerate(obs.hand)}
    entries = []
    for action in legal:
        move = parse_move(action)
        cards = sorted(move.cards, key=lambda c: (order.get(c, 52), int(c)))
        entries.append({"action": str(action), "verb": move.verb, "cards": [str(c) for c in cards],
                        "target": move.target})
    return entries


def seat_view(obs: Observation, legal: Sequence[Action], log: list[str]) -> dict[str, Any]:
    """The part of a View that comes from the seat's observation (``legal`` only if to move;
    ``log`` is ``obs.log_lines(0)``, which the table keeps up to date line by line)."""
    mine = obs.current_player == obs.seat
    entries = legal_entries(obs, legal) if mine else []
    new_card = drawn_card(obs)
    return {
        "seat": obs.seat,
        "current_player": obs.current_player,
        "your_turn": mine,
        "observation": obs.to_dict(),
        "text": obs.render(),
        "hand": [str(c) for c in obs.hand],
        "hand_sizes": list(obs.hand_sizes),
        "log": log,
        "legal": entries,
        "verbs": offered_verbs(legal) if mine else [],
        "new_card": None if new_card is None else str(new_card),
    }


def spectator_view(observations: Sequence[Observation],
                   logs: Sequence[list[str]]) -> dict[str, Any]:
    """The part of a View a spectator gets: the public view of every seat's observation
    (``logs``: each seat's ``log_lines(0)``)."""
    first = observations[0]
    return {
        "seat": None,
        "current_player": first.current_player,
        "your_turn": False,
        "observation": public_observation(observations),
        "text": "\n".join(common_lines([o.render().splitlines() for o in observations])),
        "hand": [],
        "hand_sizes": list(first.hand_sizes),
        "log": common_lines(logs),
        "legal": [],
        "verbs": [],
        "new_card": None,
    }


def empty_view(seat: int | None) -> dict[str, Any]:
    """The view before the first deal."""
    return {
        "seat": seat, "current_player": -1, "your_turn": False, "observation": None, "text": "",
        "hand": [], "hand_sizes": [], "log": [], "legal": [], "verbs": [], "new_card": None,
    }
