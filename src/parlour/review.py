"""Game review: each of a player's decisions judged by the strongest bot.

For every decision a reviewed seat made with more than one legal move, the searching bot looks at
the position from that seat's observation alone (what the player knew, never the hidden cards),
with the move the player made raced among its candidates, so both are played out in the same
sampled worlds. The review reports the move made, the move the search prefers, and the expected
points lost: the paired difference of their mean returns over those worlds. A loss that is clear
(more than twice its standard error) and larger than :data:`MISTAKE_SHARE` of the variant's
largest deal score is marked a mistake.

>>> import parlour
>>> from parlour.bots import make_bot
>>> state = parlour.new_game("big-two-4card").new_deal(seed=3)
>>> _ = parlour.play_out(state, [make_bot("random")] * 4, random.Random(3))
>>> review = review_deal(state, seats=[0], bot=make_bot("medium"), seed=1)
>>> all(d.seat == 0 and d.loss >= 0 for d in review)
True
"""

from __future__ import annotations

import math
import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from parlour.bots import Bot, make_bot
from parlour.bots.search import Candidate, SearchBot, paired_difference
from parlour.envs.encoding import reward_scale
from parlour.errors import ParlourError, VariantError
from parlour.game import Action, Game, State
from parlour.records import replay
from parlour.session import HUMAN
from parlour.text import plural

#: A clear loss larger than this share of the variant's largest deal score is a mistake
#: (about 2 points a deal in big-two-4card, 0.15 in Pusoy Dos).
MISTAKE_SHARE = 0.05

#: A racing confidence no lead reaches (in standard errors): the race drops no candidate.
NO_RACING = 1e9

#: The level that reviews unless told otherwise: the strongest.
REVIEWER = "expert"


@dataclass(frozen=True)
class Decision:
    """One decision judged: where it was, the move made and the move preferred, the expected
    points lost (never below 0) with its standard error, over how many worlds, and why."""

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
    """The searching level ``level`` with racing turned off: every candidate, the move made
    among them, is played out in all the worlds of its budget. Racing stops a candidate as soon
    as it is clearly behind, which is right for choosing a move but leaves a handful of worlds to
    tell by how much."""
    bot = make_bot(level)
    if not isinstance(bot, SearchBot):
        raise ParlourError(f"{level} does not search: a review needs a searching level "
                           "(medium, hard or expert)")
    bot.confidence = NO_RACING
    return bot


def review_deal(state: State, seats: Iterable[int], bot: Bot | None = None, seed: int = 0,
                deal: int = 1) -> list[Decision]:
    """Every decision of ``seats`` in ``state`` (a deal played to any point), judged by ``bot``
    (a searching bot; default the strongest level). Reproducible from ``seed``."""
    reviewer = bot or reviewer_bot()
    if not isinstance(reviewer, SearchBot):
        raise ParlourError(f"{reviewer.name} does not search: a review needs a searching bot "
                           "(medium, hard or expert)")
    game = state.game
    reviewed = set(seats)
    threshold = MISTAKE_SHARE * _scale(state)
    position = game.new_deal(**state.setup())
    out = []
    for step, (seat, action) in enumerate(state.history):
        legal = position.legal_actions()
        if seat in reviewed and len(legal) > 1:
            rng = random.Random(f"review/{seed}/{deal}/{step}")
            result = reviewer.search(position.observation(seat), legal, rng, include=action)
            out.append(_judged(deal, step, seat, action, result.action, result.candidates,
                               threshold))
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
    """The review as text: a line per decision (mistakes marked ``?``), then the total."""
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


def _judged(deal: int, step: int, seat: int, played: Action, best: Action,
            candidates: Sequence[Candidate], threshold: float) -> Decision:
    by_action = {c.action: c for c in candidates}
    mine, top = by_action[played], by_action[best]
    # Paired over the worlds both were played in (a candidate dropped by the race has fewer).
    n = min(mine.samples, top.samples)
    mean, error = paired_difference(top.values[:n], mine.values[:n])
    # The search's own choice loses nothing; otherwise its lead (at least 0: keep_policy may
    # keep a move whose mean is a little lower).
    loss = 0.0 if played == best else max(mean, 0.0)
    mistake = played != best and loss > threshold and loss > 2 * error
    # The moves in a player's words ("the pair of 9s (9♣ 9♠)"), as the hints say them.
    said, better = played.words(), best.words()
    if played == best:
        reason = (f"{said}: the best move found (wins {mine.win_rate:.0%} of "
                  f"{mine.samples} simulated deals)")
    elif loss < 0.005:  # the search kept another move its policy prefers, no better in points
        reason = (f"{said}: as good as {better}, the search's choice (each wins "
                  f"{mine.win_rate:.0%} and {top.win_rate:.0%} of {n} simulated deals)")
    else:
        reason = f"{said}: {better} was better by {loss:.2f} points a deal on average"
        if top.win_rate >= mine.win_rate:
            reason += (f" (wins {top.win_rate:.0%} of {n} simulated deals, against "
                       f"{mine.win_rate:.0%})")
        else:  # a better mean from fewer wins: say so, or the figures seem to contradict it
            reason += (f": it wins less often ({top.win_rate:.0%} of {n} simulated deals, "
                       f"against {mine.win_rate:.0%}) but loses fewer points")
    return Decision(deal, step, seat, played, best, loss, error, n, mistake, reason)


def _scale(state: State) -> float:
    try:
        return reward_scale(state.game)
    except VariantError:  # a family without an encoding: judge by the deal's own spread
        return max((abs(r) for r in state.returns()), default=1.0) or 1.0
