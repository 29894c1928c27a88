"""What each client of a web table is sent: a seat's view, or the public view for spectators.

A seat's view is built from ``state.observation(seat)`` alone: its fields, and its
:class:`~parlour.view.SeatView` (``obs.view()``: the text, its panels, the tricks, the caption, the
result and the marked cards). The public view is built from every seat's observation, keeping only
what all of them show alike, so it can hold no card of any hand (a card in a hand is in exactly
one seat's observation) and needs nothing game-specific.

>>> import parlour
>>> state = parlour.new_game("big-two").new_deal(seed=1)
>>> public = public_observation([state.observation(s) for s in range(4)])
>>> "hand" in public, public["hand_sizes"], public["variant"]
(False, [13, 13, 13, 13], 'big-two')
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from parlour.game import Action, Observation, State
from parlour.moves import offered_verbs, parse_move
from parlour.session import laid_down
from parlour.view import Panel, SeatView, TrickView

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
    return [texts[0][i] for i in common_indices(texts)]


def common_indices(texts: Sequence[Sequence[str]]) -> list[int]:
    """The places in the first text of its lines that every other text has too.

    >>> common_indices([["a", "you: 3D", "b"], ["a", "you: 4C", "b"]])
    [0, 2]
    """
    others = [set(t) for t in texts[1:]]
    return [i for i, line in enumerate(texts[0]) if all(line in o for o in others)]


#: Per log line, what the table called its seats (by seat) when the line was written.
LineNames = Sequence[Sequence[str]]


def log_names(names: LineNames) -> list[list[Any]]:
    """The seats' names of a log's lines as runs: ``[first line, names]`` where they change.

    >>> ann, bot = ("Ann", "greedy"), ("greedy 0", "greedy 1")
    >>> log_names([ann, ann, bot, bot])
    [[0, ['Ann', 'greedy']], [2, ['greedy 0', 'greedy 1']]]
    """
    runs: list[list[Any]] = []
    last: Sequence[str] | None = None
    for i, seats in enumerate(names):
        if last is None or (seats is not last and seats != last):
            runs.append([i, list(seats)])
            last = seats
    return runs


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


def panel_entries(panels: Sequence[Panel]) -> list[dict[str, Any]]:
    """The panels as ``{"name", "lines"}``.

    >>> panel_entries([Panel("turn", ("P1 to play",))])
    [{'name': 'turn', 'lines': ['P1 to play']}]
    """
    return [{"name": p.name, "lines": list(p.lines)} for p in panels]


def trick_entries(tricks: Sequence[TrickView]) -> list[dict[str, Any]]:
    """The tricks as ``{"number", "plays": [[seat, card] …], "best", "winner"}``.

    >>> import parlour
    >>> state = parlour.new_game("spoil-five", players=2).new_deal(seed=1)
    >>> while state.observation(0).trick == ():
    ...     state.apply(state.legal_actions()[0])
    >>> trick_entries(state.observation(0).view().tricks)
    [{'number': 1, 'plays': [[0, '4S']], 'best': '4S', 'winner': None}]
    """
    return [{"number": t.number, "plays": [[seat, str(card)] for seat, card in t.plays],
             "best": None if t.best is None else str(t.best), "winner": t.winner}
            for t in tricks]


def common_panels(views: Sequence[SeatView]) -> list[dict[str, Any]]:
    """The panels but the hand, each with the lines that every view's panel of that name has
    too (``common_lines``); those left without a line are left out.

    >>> import parlour
    >>> state = parlour.new_game("big-two").new_deal(seed=1)
    >>> [p["name"] for p in common_panels([state.observation(s).view() for s in range(4)])]
    ['seats', 'table']
    """
    named = [{p.name: p.lines for p in v.panels} for v in views[1:]]
    panels = []
    for panel in views[0].table_panels():
        lines = common_lines([panel.lines, *(n.get(panel.name, ()) for n in named)])
        if lines:
            panels.append(Panel(panel.name, tuple(lines)))
    return panel_entries(panels)


def _agreed(values: Sequence[Any]) -> Any:
    """The value when all ``values`` are equal, else ``None``."""
    return values[0] if all(v == values[0] for v in values[1:]) else None


def seat_view(obs: Observation, legal: Sequence[Action], log: list[str],
              names: LineNames = ()) -> dict[str, Any]:
    """The part of a View that comes from the seat's observation (``legal`` only if to move;
    ``log`` is ``obs.log_lines(0)``, which the table keeps up to date line by line, and
    ``names`` what the table called its seats when each line was written)."""
    mine = obs.current_player == obs.seat
    entries = legal_entries(obs, legal) if mine else []
    seat = obs.view()
    new_card = seat.just_drawn()
    return {
        "seat": obs.seat,
        "current_player": obs.current_player,
        "your_turn": mine,
        "prompt": obs.prompt() if mine else None,
        "observation": obs.to_dict(),
        "text": seat.text(),
        "panels": panel_entries(seat.panels),
        "tricks": trick_entries(seat.tricks),
        "caption": seat.caption,
        "deal_result": seat.result,
        "seat_figures": {label: list(v) for label, v in seat.seat_figures.items()},
        "hand": [str(c) for c in obs.hand],
        "hand_sizes": list(obs.hand_sizes),
        "log": log,
        "log_names": log_names(names),
        "legal": entries,
        "verbs": offered_verbs(legal) if mine else [],
        "marked": {str(card): why for card, why in seat.marked.items()},
        "new_card": None if new_card is None else str(new_card),
    }


def spectator_view(observations: Sequence[Observation], logs: Sequence[list[str]],
                   names: LineNames = ()) -> dict[str, Any]:
    """The part of a View a spectator gets: the public view of every seat's observation
    (``logs``: each seat's ``log_lines(0)``; ``names``: the seats' names of the first one's
    lines). The tricks, the caption, the result and the seats' figures are public, so every
    seat's view has them alike; they are taken only when it does."""
    first = observations[0]
    public = common_indices(logs)
    views = [o.view() for o in observations]
    tricks = _agreed([v.tricks for v in views])
    return {
        "seat": None,
        "current_player": first.current_player,
        "your_turn": False,
        "prompt": None,
        "observation": public_observation(observations),
        "text": "\n".join(common_lines([v.text().splitlines() for v in views])),
        "panels": common_panels(views),
        "tricks": trick_entries(tricks or ()),
        "caption": _agreed([v.caption for v in views]),
        "deal_result": _agreed([v.result for v in views]),
        "seat_figures": {label: list(v)
                         for label, v in (_agreed([v.seat_figures for v in views]) or {}).items()},
        "hand": [],
        "hand_sizes": list(first.hand_sizes),
        "log": [logs[0][i] for i in public],
        "log_names": log_names([names[i] for i in public] if names else ()),
        "legal": [],
        "verbs": [],
        "marked": {},
        "new_card": None,
    }


def empty_view(seat: int | None) -> dict[str, Any]:
    """The view before the first deal."""
    return {
        "seat": seat, "current_player": -1, "your_turn": False, "prompt": None,
        "observation": None, "text": "",
        "panels": [], "tricks": [], "caption": None, "deal_result": None, "seat_figures": {},
        "hand": [],
        "hand_sizes": [], "log": [], "log_names": [], "legal": [], "verbs": [], "marked": {}, "new_card": None,
    }


def public_deal(number: int, state: State, players: int) -> dict[str, Any]:
    """Finished deal number ``number`` as anyone may see it while the match goes on: its public
    play (as a spectator saw it), its result, and the hands left when the family lays them down
    to be counted (``Game.reveals_hands_at_end``)."""
    observations = [state.observation(s) for s in range(players)]
    public = public_observation(observations)
    deal = {"deal": number, "actions": public.get("history", []),
            "log": common_lines([o.log_lines(0) for o in observations]),
            "result": state.returns()}
    hands = laid_down(state)
    if hands is not None:
        deal["hands_left"] = [[str(c) for c in hand] for hand in hands]
    return deal
