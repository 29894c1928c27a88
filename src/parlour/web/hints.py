"""Hints and game reviews worked out in processes of their own.

A hint is a search (:mod:`parlour.advice`): a fraction of a second to seconds of CPU; a review
is one such search per decision. In a thread of the server it would hold the interpreter's lock
against the event loop and the bots' threads, and every table would slow down while it runs; in
another process it takes only a core's share. The worker gets what a remote player would (the
observation as JSON, the legal actions as text) and rebuilds them as :mod:`parlour.client` does,
so nothing has to be pickled but plain data.

>>> import parlour
>>> state = parlour.new_game("rummy").new_deal(seed=1)
>>> obs = state.observation(0).to_dict()
>>> work_out_hint("rummy", 2, {}, "medium", obs, ["draw stock", "draw discard"])["action"]
'draw stock'
"""

from __future__ import annotations

import multiprocessing
import os
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any

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


def work_out_hint(variant: str, players: int, options: dict[str, Any], level: str,
                  observation: dict[str, Any], legal: list[str]) -> dict[str, str]:
    """The judge's hint (:func:`parlour.advice.hint`) at ``level``: the action (as text), the
    sentence a player reads, the judge's confidence and the figures behind it."""
    from parlour.advice import hint  # loads the searching bots: only here

    game = new_game(variant, players=players, **options)
    state = game.new_deal(seed=0)  # parses action texts; the deal itself is not used
    actions = [state.parse_action(text) for text in legal]
    advice = hint(observation_from_dict(game, observation), actions, level)
    return {"action": str(advice.action), "reason": advice.text,
            "confidence": advice.confidence, "details": advice.details}


def work_out_review(variant: str, players: int, options: dict[str, Any], record: dict[str, Any],
                    seat: int, level: str, deal: int) -> dict[str, Any]:
    """The review (:mod:`parlour.review`) of ``seat``'s decisions in the finished deal
    ``record`` (a deal record): a line per decision and the total, and each decision as data.
    Every judgement looks from ``seat``'s observation only, so nothing in it tells what the
    seat could not see, and is the one a hint at that position gave."""
    from parlour.records import replay_deal  # the review loads the searching bots: only here
    from parlour.review import review_deal, review_lines, reviewer_bot

    new_game(variant, players=players, **options)  # the same checks as the table's own game
    state = replay_deal(record)
    decisions = review_deal(state, [seat], reviewer_bot(level), deal=deal)
    return {
        "deal": deal, "level": level, "lines": review_lines(decisions, state),
        "decisions": [{"move": d.step + 1, "played": str(d.played), "best": str(d.best),
                       "loss": round(d.loss, 3), "mistake": d.mistake, "reason": d.reason}
                      for d in decisions],
    }
