"""Game review: each of a player's decisions judged by the judge the hints use.

For every decision a reviewed seat made with more than one legal move, the position is judged
as a hint judges it (:mod:`parlour.advice`): a searching level, from that seat's observation
alone (what the player knew, never the hidden cards), in worlds the position itself draws. A
move the judge calls best, the move a hint recommended there, is a good move. Another move is
compared with the judge's in the same trial deals, with the level's whole budget for each: it
is a *mistake* when the judge's move clearly scored more (by more than twice the standard error
of their paired difference) and by more than :data:`MISTAKE_SHARE` of the variant's largest
deal score; otherwise it was as good as the judge's, within what the trial deals can tell. Only
a mistake says that another move was better, and the points it lost are what the review adds
up.

>>> import parlour, random
>>> from parlour.bots import make_bot
>>> state = parlour.new_game("big-two-4card").new_deal(seed=3)
>>> _ = parlour.play_out(state, [make_bot("random")] * 4, random.Random(3))
>>> review = review_deal(state, seats=[0], bot=reviewer_bot("medium"))
>>> all(d.seat == 0 and d.loss >= 0 and d.mistake == (d.loss > 0) for d in review)
True
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.advice import ADVISER, CLEAR, MISTAKE_SHARE, adviser, judge, position_rng
from parlour.bots import Bot
from parlour.bots.search import SearchBot, paired_difference
from parlour.encoding import reward_scale
from parlour.errors import ParlourError, VariantError
from parlour.game import Action, Game, Observation, State
from parlour.records import replay
from parlour.session import HUMAN
from parlour.text import plural

#: A racing confidence no lead reaches (in standard errors): the race drops no candidate.
NO_RACING = 1e9

#: The level that reviews unless told otherwise: the one that gives the hints.
REVIEWER = ADVISER


@dataclass(frozen=True)
class Decision:
    """One decision judged: where it was, the move made and the judge's move, the expected
    points lost (0 unless it was a mistake) with its standard error, over how many trial
    deals, whether it was a mistake, and why."""

    deal: int
    step: int
    seat: int
    played: Action
    best: Action
    loss: float
    error: float
    worlds: int
    mistake: bool
    reason: str


def reviewer_bot(level: str = REVIEWER) -> SearchBot:
    """The searching level ``level``, as the judge (:func:`parlour.advice.adviser`)."""
    return adviser(level)


def review_deal(state: State, seats: Iterable[int], bot: Bot | None = None, seed: int = 0,
                deal: int = 1) -> list[Decision]:
    """Every decision of ``seats`` in ``state`` (a deal played to any point), judged by ``bot``
    (a searching bot; default the strongest level) as a hint judges: in the worlds each
    position draws (with ``seed``; 0, the hints')."""
    reviewer = bot or reviewer_bot()
    if not isinstance(reviewer, SearchBot):
        raise ParlourError(f"{reviewer.name} does not search: a review needs a searching bot "
                           "(medium, hard or expert)")
    game = state.game
    reviewed = set(seats)
    threshold = MISTAKE_SHARE * _scale(state)
    # Another move is compared with the judge's in all the trial deals of the level's budget.
    comparing = reviewer.replace(confidence=NO_RACING, keep_policy=0.0)
    position = game.new_deal(**state.setup())
    out = []
    for step, (seat, action) in enumerate(state.history):
        legal = position.legal_actions()
        if seat in reviewed and len(legal) > 1:
            out.append(_judged(reviewer, comparing, position.observation(seat), legal, action,
                               deal, step, threshold, seed))
        position.apply(action)
    return out


def review_record(record: dict[str, Any], seats: Sequence[int] | None = None,
                  bot: Bot | None = None, seed: int = 0) -> list[Decision]:
    """Review a saved deal or match (:mod:`parlour.records`): the decisions of ``seats``, by
    default :func:`reviewed_seats`."""
    states = replay(record)
    if not states:
        return []
    chosen = reviewed_seats(record, states[0].game) if seats is None else seats
    return review_deals(states, chosen, bot, seed)


def reviewed_seats(record: dict[str, Any], game: Game) -> list[int]:
    """The seats a record marks as a person's (its ``"seats"``), or every seat if it marks
    none."""
    marked = record.get("seats")
    if isinstance(marked, list) and HUMAN in marked:
        return [s for s, who in enumerate(marked) if who == HUMAN]
    return list(range(game.players))


def review_deals(states: Sequence[State], seats: Sequence[int], bot: Bot | None = None,
                 seed: int = 0) -> list[Decision]:
    """The decisions of ``seats`` in the deals ``states`` of one match (numbered from 1)."""
    players = states[0].game.players if states else 0
    for s in seats:
        if not 0 <= s < players:
            raise ParlourError(f"seat {s} is not a seat of this game: seats are 0 to {players - 1}")
    reviewer = bot or reviewer_bot()
    return [d for n, state in enumerate(states, 1)
            for d in review_deal(state, seats, reviewer, seed, deal=n)]


def review_lines(decisions: Sequence[Decision], state: State) -> list[str]:
    """The review as text: a line per decision (mistakes marked ``?``), then the total, which
    counts the mistakes the lines show and the points they lost."""
    name = state.game.seat_name
    lines = []
    for d in decisions:
        mark = "?" if d.mistake else " "
        lines.append(f"{mark} deal {d.deal}, move {d.step + 1}, {name(d.seat)}: {d.reason}")
    lost = math.fsum(d.loss for d in decisions)
    mistakes = sum(d.mistake for d in decisions)
    lines.append(f"{plural(len(decisions), 'decision')} reviewed, "
                 f"{plural(mistakes, 'mistake')}, {lost:.2f} points lost in all")
    return lines


def _judged(reviewer: SearchBot, comparing: SearchBot, observation: Observation,
            legal: Sequence[Action], played: Action, deal: int, step: int, threshold: float,
            seed: int) -> Decision:
    """The decision to play ``played`` at the position, judged by ``reviewer`` and, when it
    differs from the judge's move, compared with it by ``comparing``."""
    seat = observation.seat
    best = judge(observation, legal, reviewer, seed).action
    said = played.words()
    if played == best:
        return Decision(deal, step, seat, played, best, 0.0, 0.0, 0, False,
                        f"{said}: the best move")
    result = comparing.search(observation, [best, played],
                              position_rng(observation, "compare", seed), include=played)
    by_action = {c.action: c for c in result.candidates}
    mine, top = by_action[played], by_action[best]
    n = min(mine.samples, top.samples)
    lead, error = paired_difference(top.values[:n], mine.values[:n])
    better = best.words()
    if lead > threshold and lead > CLEAR * error:
        return Decision(deal, step, seat, played, best, lead, error, n, True,
                        f"{said}: {better} was better, by {lead:.2f} points a deal on average")
    return Decision(deal, step, seat, played, best, 0.0, error, n, False,
                    f"{said}: as good as {better}, the judge's move, as far as the trial deals "
                    "tell")


def _scale(state: State) -> float:
    try:
        return reward_scale(state.game)
    except VariantError:  # a family without an encoding: judge by the deal's own spread
        return max((abs(r) for r in state.returns()), default=1.0) or 1.0
