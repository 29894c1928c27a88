"""Replays of finished matches, for the people who played them.

A replay is one deal of a finished match seen from a seat its viewer held (with their profile):
a frame as it was dealt and one after each move, each the view the seat had then (its own hand,
what was public, the log), nothing it could not see; at the end, the deal's result and the
hands the rules lay down to be counted. The viewer may ask for the review of their own
decisions in the deal beside it, judged as the table's hints judge.
"""

from __future__ import annotations

from typing import Any

from parlour.game import State
from parlour.web.messages import WebError
from parlour.web.views import public_deal, seat_view

#: What a seat's View holds of the whole deal so far, left out of a replay's frames.
FULL_HISTORY = frozenset({"observation", "log", "log_names"})


def frames(state: State, seat: int) -> list[dict[str, Any]]:
    """The views of ``seat`` through the finished deal ``state``: one as it was dealt, then one
    after each move (with that move as the seat saw it, and who made it); a frame says nothing
    of the moves to come.

    >>> import parlour, random
    >>> from parlour.bots import make_bot
    >>> from parlour.play import play_out
    >>> state = play_out(parlour.new_game("rummy").new_deal(seed=2), [make_bot("greedy")] * 2,
    ...                  random.Random(0))
    >>> shown = frames(state, 0)
    >>> len(shown) == len(state.history) + 1, shown[0]["move"], shown[1]["move"]["step"]
    (True, None, 1)
    >>> "log" in shown[-1] or "observation" in shown[-1]
    False
    """
    replay = state.game.new_deal(**state.setup())
    out = []
    for step, (mover, action) in enumerate([(None, None), *state.history]):
        if action is not None:
            replay.apply(action)
        obs = replay.observation(seat)
        # The deal's whole log and history in every frame would grow the replay with the
        # square of its moves: a frame has what the seat saw then, and the moves are told
        # one a frame (``move``).
        view = {k: v for k, v in seat_view(obs, [], []).items() if k not in FULL_HISTORY}
        # Another seat's move as the seat saw it (its log's lines: a card put face down
        # stays unnamed); the seat's own in full.
        mine = mover == seat
        view["move"] = None if action is None else {
            "step": step, "seat": mover, "mine": mine,
            "action": str(action) if mine else None,
            "words": action.words() if mine else "; ".join(obs.log_lines(step - 1))}
        out.append(view)
    return out


def replay(states: list[State], seat: int, number: int, players: int) -> dict[str, Any]:
    """Deal ``number`` of a finished match (``states``, its deals) as ``seat`` saw it: its
    frames, and at the end the deal as anyone may see it once over (its result, the hands laid
    down). :class:`WebError` for a deal the match does not have."""
    if not isinstance(number, int) or not 1 <= number <= len(states):
        raise WebError(f"a replay is of a deal of the match, from 1 to {len(states)}")
    state = states[number - 1]
    return {"deal": number, "deals": len(states), "seat": seat, "frames": frames(state, seat),
            "end": public_deal(number, state, players)}
