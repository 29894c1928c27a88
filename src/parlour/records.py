"""Game records: a deal or a whole match as JSON, and their exact replay.

A deal record holds the game (variant, players, options), the deal's setup (enough for
``game.new_deal(**setup)`` to recreate it), the actions in notation, and the result. Replaying
applies the actions one by one through the public protocol and checks the result.

>>> import parlour, random
>>> state = parlour.new_game("big-two").new_deal(seed=3)
>>> rng = random.Random(0)
>>> while not state.is_over:
...     state.apply(rng.choice(state.legal_actions()))
>>> again = replay_deal(deal_record(state))
>>> again.returns() == state.returns() and again.history == state.history
True
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from parlour.errors import ParlourError, RecordError
from parlour.game import State
from parlour.match import Match
from parlour.registry import game_from_description

DEAL_FORMAT = "parlour-deal/1"
MATCH_FORMAT = "parlour-match/1"


def deal_record(state: State) -> dict[str, Any]:
    """The JSON-able record of a deal (finished or not)."""
    return {
        "format": DEAL_FORMAT,
        **state.game.describe(),
        "setup": state.setup(),
        "actions": [[seat, str(action)] for seat, action in state.history],
        "result": state.returns() if state.is_over else None,
    }


def match_record(match: Match) -> dict[str, Any]:
    return {
        "format": MATCH_FORMAT,
        **match.game.describe(),
        "seed": match.seed,
        "deals": [deal_record(s) for s in match.deals],
        "totals": match.totals,
        "winners": match.winners(),
    }


def replay_deal(record: dict[str, Any]) -> State:
    """Recreate a deal from its record, action by action; raises :class:`RecordError` if the
    record is malformed or does not reproduce what it claims."""
    if record.get("format") != DEAL_FORMAT:
        raise RecordError(f"not a deal record (format {record.get('format')!r})")
    try:
        game = game_from_description(record)
        state = game.new_deal(**record["setup"])
        for n, (seat, text) in enumerate(record["actions"], 1):
            if state.current_player != seat:
                raise RecordError(f"action {n} ({text}) is by P{seat}, but P{state.current_player} is to move")
            state.apply(state.parse_action(text))
    except RecordError:
        raise
    except (ParlourError, KeyError, TypeError, ValueError) as e:
        raise RecordError(f"the record does not replay: {e}") from None
    if record.get("result") is not None and state.returns() != record["result"]:
        raise RecordError(f"replay gives {state.returns()}, the record says {record['result']}")
    return state


def replay_match(record: dict[str, Any]) -> list[State]:
    if record.get("format") != MATCH_FORMAT:
        raise RecordError(f"not a match record (format {record.get('format')!r})")
    return [replay_deal(d) for d in record.get("deals", [])]


def save(record: dict[str, Any], path: str | Path) -> None:
    Path(path).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")


def load(path: str | Path) -> dict[str, Any]:
    try:
        data = json.loads(Path(path).read_text(encoding="utf-8"))
    except (OSError, json.JSONDecodeError) as e:
        raise RecordError(f"cannot read {path}: {e}") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path} does not hold a parlour record")
    return data
