"""Advice: one judge for the hints and the reviews.

A position is judged by a searching level (by default the strongest, ``expert``) from the
seat's observation alone, with the level's whole budget of trial deals (never cut short by a
clock), in worlds drawn from a generator seeded by what the seat has seen. The same position
therefore always gets the same judgement, wherever it is asked for: the move a hint recommends
is the move the review of that position calls best, and a player who follows the hint is never
told that another move was better.

A hint says the move and how sure the judge is, in a player's words; the figures behind it
(how often the move won in the trial deals, by how many points) are its ``details``.

>>> import parlour
>>> state = parlour.new_game("big-two-4card").new_deal(seed=3)
>>> obs = state.observation(state.current_player)
>>> advice = hint(obs, state.legal_actions(), level="medium")
>>> advice.action == hint(obs, state.legal_actions(), level="medium").action
True
>>> advice.text
'Play the 3♦: the only move.'
"""

from __future__ import annotations

import hashlib
import json
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass

from parlour.bots import make_bot
from parlour.bots.search import Candidate, SearchBot, SearchResult, paired_difference
from parlour.errors import ParlourError
from parlour.game import Action, Observation

#: The level that judges unless told otherwise: the strongest.
ADVISER = "expert"
#: The levels that can judge: those that search.
LEVELS = ("medium", "hard", "expert")
#: How many standard errors of their paired difference the best move must lead the next best
#: by to be called clearly best (below it, a close call); and another move must trail the
#: judge's by to be called a mistake in a review.
CLEAR = 2.0
#: A review's mistake also loses more than this share of the variant's largest deal score
#: (about 2 points a deal in big-two-4card, 0.15 in Pusoy Dos).
MISTAKE_SHARE = 0.05
#: The rule, as the reviews' help and heading say it.
RULE = ("a mistake is a move the judge's own move clearly beat, by more than "
        f"{MISTAKE_SHARE:.0%} of the game's largest deal score")


def adviser(level: str = ADVISER) -> SearchBot:
    """The searching level ``level`` as a judge: its whole budget of trial deals, no clock."""
    bot = make_bot(level)
    if not isinstance(bot, SearchBot):
        raise ParlourError(f"{level} does not search: advice comes from a searching level "
                           f"({', '.join(LEVELS)})")
    return bot


def position_rng(observation: Observation, purpose: str = "judge", seed: int = 0) -> random.Random:
    """A generator seeded by what ``observation``'s seat has seen (and ``purpose`` and
    ``seed``): the same position gives the same draws, whoever asks and whenever."""
    seen = json.dumps(observation.to_dict(), sort_keys=True, separators=(",", ":"), default=str)
    digest = hashlib.sha256(seen.encode()).hexdigest()
    return random.Random(f"{purpose}/{seed}/{digest}")


def judge(observation: Observation, legal: Sequence[Action], level: str | SearchBot = ADVISER,
          seed: int = 0) -> SearchResult:
    """The judgement of the position: ``level``'s search from ``observation`` over ``legal``,
    in the worlds the position (and ``seed``) draws."""
    bot = adviser(level) if isinstance(level, str) else level
    return bot.search(observation, legal, position_rng(observation, "judge", seed))


@dataclass(frozen=True)
class Hint:
    """A hint: the move, how sure the judge is (``confidence``: "the only move", "clearly
    best", "a close call" or "any move will do"), what a player reads (``text``: the move,
    why, and how sure), the same said shortly where room is short (``brief``: the move without
    its list of cards, the next best not named), and the figures behind it (``details``)."""

    action: Action
    confidence: str
    text: str
    details: str
    brief: str = ""


def hint(observation: Observation, legal: Sequence[Action], level: str | SearchBot = ADVISER,
         seed: int = 0) -> Hint:
    """The judge's move for the position, with what a player reads about it: the move, why
    in the game's terms (:meth:`Observation.reason`), and how sure the judge is."""
    result = judge(observation, legal, level, seed)
    move = result.action
    verb = move.words()
    said = verb[:1].upper() + verb[1:]

    def told(confidence: str, why: str, sure: str, short: str, details: str) -> Hint:
        return Hint(move, confidence, _sentence(_imperative(verb), why, sure), details,
                    _sentence(_imperative(_uncounted(verb)), why, short))

    if len(legal) == 1:
        return told("the only move", "the only move", "", "", f"{said}: the only legal move")
    runner_up = _runner_up(result)
    why = observation.reason(move, legal, None if runner_up is None else runner_up.action)
    if result.unsearched:  # the deal is decided whatever is played
        return told("any move will do", why, f"Any move will do: {result.unsearched}.",
                    "Any move will do.", f"{said}: {result.unsearched}")
    if runner_up is None:  # the judge's first choice was clear without trial deals
        return told("clearly best", why, "Clearly the best move here.", "Clearly the best.",
                    f"{said}: clearly ahead of every other move before any trial deal.")
    best = _candidate(result, move)
    lead, error = _lead(best, runner_up)
    other = runner_up.action.words()
    scores = observation.game.scores  # penalty points counted up, as every table shows them
    details = (f"{said}: wins {best.win_rate:.0%} of {best.samples} trial deals, "
               f"{scores.per_deal(best.mean)}; next best, {other}: wins "
               f"{runner_up.win_rate:.0%}, {scores.amount(runner_up.mean)}")
    if lead > CLEAR * error:
        return told("clearly best", why, "Clearly the best move here.", "Clearly the best.",
                    details)
    return told("a close call", why, f"A close call with {other}.", "A close call.", details)


def _sentence(imperative: str, why: str, sure: str) -> str:
    """"Play the 9♠: it keeps your 2♠ for later. Clearly the best move here." """
    opening = f"{imperative}: {why}." if why else f"{imperative}."
    return f"{opening} {sure}" if sure else opening


def _imperative(words: str) -> str:
    """The move as a player is told to make it: "Play the pair of 9s (9♠ 9♥)", "Pass"."""
    if words.split(" ", 1)[0] in ("pass", "draw", "take", "discard", "meld", "lay", "rob",
                                  "keep", "jink", "stop"):
        return words[:1].upper() + words[1:]
    return f"Play {words}"


def _uncounted(words: str) -> str:
    """A move's words without the list of its cards: "the pair of 9s (9♠ 9♥)" → "the pair
    of 9s" (the cards show in the hand, selected)."""
    return re.sub(r" \([^()]*\)$", "", words)


def _candidate(result: SearchResult, action: Action) -> Candidate:
    return next(c for c in result.candidates if c.action == action)


def _runner_up(result: SearchResult) -> Candidate | None:
    """The best move after the judge's own, among those played in the trial deals."""
    others = [c for c in result.candidates if c.action != result.action and c.samples]
    if not others or not _candidate(result, result.action).samples:
        return None
    return max(others, key=lambda c: (c.score(result.prior_weight), -c.rank))


def _lead(best: Candidate, other: Candidate) -> tuple[float, float]:
    """How many points a deal ``best`` leads ``other`` by, in the worlds both were played in,
    and the standard error of that."""
    n = min(best.samples, other.samples)
    return paired_difference(best.values[:n], other.values[:n])
