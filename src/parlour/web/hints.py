"""Hints worked out in processes of their own.

A hint is a search ("hard", "expert"): seconds of CPU. In a thread of the server it would hold
the interpreter's lock against the event loop and the bots' threads, and every table would
slow down while it runs; in another process it takes only a core's share. The worker gets
what a remote player would (the observation as JSON, the legal actions as text) and rebuilds
them as :mod:`parlour.client` does, so nothing has to be pickled but plain data.

>>> import parlour
>>> state = parlour.new_game("rummy").new_deal(seed=1)
>>> obs = state.observation(0).to_dict()
>>> work_out_hint("rummy", 2, {}, "greedy", obs, ["draw stock", "draw discard"], "seed")[0]
'draw stock'
"""

from __future__ import annotations

import multiprocessing
import os
import random
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

from parlour.bots import make_bot
from parlour.client import observation_from_dict
from parlour.registry import new_game


def hint_executor(workers: int) -> Executor:
    """The pool that works hints out: ``workers`` processes, started when first needed, at a
    lower priority than the server's (a hint may wait; a table's play should not)."""
    return ProcessPoolExecutor(workers, mp_context=multiprocessing.get_context("spawn"),
                               initializer=_lower_priority)


def _lower_priority() -> None:
    if hasattr(os, "nice"):  # not on Windows
        os.nice(10)


def work_out_hint(variant: str, players: int, options: dict[str, Any], bot_name: str,
                  observation: dict[str, Any], legal: list[str],
                  seed: str) -> tuple[str, str]:
    """The action ``bot_name`` would take (as text) and its reason."""
    game = new_game(variant, players=players, **options)
    state = game.new_deal(seed=0)  # parses action texts; the deal itself is not used
    actions = [state.parse_action(text) for text in legal]
    bot = make_bot(bot_name, interactive=True)
    action, reason = bot.choose_explained(observation_from_dict(game, observation), actions,
                                          random.Random(seed))
    return str(action), reason
