"""``SearchBot``: determinised Monte Carlo search over states sampled from the observation.

For each move the bot deals the cards it cannot see at random, consistently with everything
its observation shows (each family's compiled sampler, the one behind
``observation.sample_state``, keeps the hard constraints it knows of), tries each candidate move
in that *world*, plays the deal out with the playout policy (the variant's rule-based ``greedy``
for every seat, each seeing only its own view of the world), and keeps the move with the best
mean return for its seat.

Why perfect-information Monte Carlo rather than information-set MCTS: the rollouts are cheap
(compiled: a few microseconds) but a move still gets only some tens of thousands of them, too
few to grow a useful tree below the root, where ISMCTS would also need a key for every
information set it visits; at the root both reduce to the same thing, the mean return of each
move over sampled worlds. What PIMC adds is what matters at this budget: every candidate is
scored on the same worlds with the same rollout seeds, so two moves are compared by paired
differences and most of the luck of the deal cancels. Its known weakness (strategy fusion: each
world is played as if its hidden cards were known) is bounded here because the playouts are
played by the observation-only ``greedy`` policy, not by a perfect-information solver.

The search, step by step:

1. A single legal action is returned at once. So is the policy's choice (the guide's, with a
   guide) where the observation says the deal is ``stalled``: a rummy deal that can only end
   at its turn limit, where every rollout would run on to the limit (seconds a move).
2. Candidates: the playout policy's own preference order, found by asking it again with its
   previous picks removed, cut to ``max_candidates``. Its own choice always comes first, and an
   exact tie in the search is settled in the policy's favour.
3. Worlds are sampled one at a time; every candidate still in the race is played in the world
   (from a clone of the sampled state) with a rollout generator seeded identically for all of
   them (common random numbers). A world is only counted once every candidate has been played
   in it, so the comparisons stay paired. A rollout stops as soon as the searching seat's
   result is settled: at the deal's end, or, where a seat's place fixes its points (pusoy-dos),
   when the seat goes out, whatever the others play after.
4. Racing: after ``min_worlds`` worlds, and then each time the count grows by a quarter, a
   candidate is dropped when its paired difference from the leader is below zero by more than
   ``confidence`` standard errors. The budget goes to the close decisions; the search stops when
   one candidate is left. With ``indifference`` a candidate is also dropped when it cannot be
   much better than the leader, or than the policy's choice (the first candidate; neither of
   the two is dropped so). No level uses it (the documentation's Experiments say why).
5. A guide (optional): a function that gives each legal action a prior advantage in points,
   such as the learned network of :mod:`parlour.bots.learned` (``None`` for a variant it does
   not know, which is then searched exactly as without a guide). The guide's best
   ``guided_candidates`` moves lead the candidates (its choice first: with ``keep_policy`` it
   is the guide's choice that stands unless clearly beaten), followed by the playout policy's
   ``max_candidates`` not among them, and each candidate is judged by its mean return shrunk
   towards its prior:
   ``(n * mean + w * prior) / (n + w)`` over its ``n`` worlds, ``w`` being ``prior_weight``.
   Where the guide's best move leads its second by ``prior_margin`` points or more, it is
   played without rollouts.
6. Inference (optional, with a network playing the worlds out, in the climbing games, whose
   worlds replay from the deal's start; the others' are dealt uniformly with or without it):
   each world kept is one of several dealt, chosen with probability proportional to how likely
   the other seats' moves so far were in it under the network (:class:`Inference`), so that
   worlds where their play made sense count more. No level uses it (the documentation's
   Experiments say why).
7. Opponents (optional, likewise): each other seat is modelled as a player of one of two kinds,
   the rule-based policy or the network, with a chance weighed from its moves so far in worlds
   dealt from the observation (:class:`Opponents`); a seat that almost surely plays by the
   rule-based policy is played by it in every world, any other by the network. Against
   rule-based players the search then plays against them as they play, and against others it
   keeps the network's model of them. With ``draws``, the worlds are also chosen by how likely
   those rule-based seats' moves were in them (with ``inference``, every seat's moves weigh a
   world, each under the model of its kind).
8. Budgets: ``iterations`` counts rollouts (one candidate played out in one world) and is
   reproducible: the same observation, legal actions and generator state give the same move.
   ``time_limit`` (seconds) stops sampling when the time is up, for interactive play; with both,
   whichever comes first. Every candidate is played in at least one world. The time counts
   from when the guide has scored the moves and the playout network is at hand: loading a
   network, which a process's first search does, is not taken from the search.

Steps 3, 4, 6 and 7 run compiled, without Python (the observation's ``_knowledge()`` and
``parlour._core.Race``), on ``threads`` threads: world ``w`` is dealt and played out from its
own stream of the search's seed, and racing looks at the results only at fixed world counts, so
an iteration budget gives the same move on any number of threads and under any load.

>>> import random, parlour
>>> state = parlour.new_game("forty-five").new_deal(seed=3)
>>> bot = SearchBot(SearchConfig(iterations=60))
>>> seat = state.current_player
>>> action, why = bot.choose_explained(state.observation(seat), state.legal_actions(),
...                                    random.Random(1))
>>> action in state.legal_actions() and why.startswith(action.words())
True
"""

from __future__ import annotations

import copy
import dataclasses
import math
import random
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from typing import Any

from parlour._core import MAX_ITERATIONS, Race
from parlour.bots.base import Bot
from parlour.errors import ParlourError
from parlour.game import Action, Observation
from parlour.text import Scores

#: A search's playout policy for an observation's variant: a compiled policy its knowledge
#: plays worlds out with (such as :func:`parlour.bots.learned.playouts`), or ``None`` for the
#: variant's greedy policy.
Playouts = Callable[[Observation], Any]
#: A search guide: each legal action's prior advantage in points for the seat to move, or
#: ``None`` where it has no opinion (a variant it was not trained for).
Guide = Callable[[Observation, Sequence[Action], random.Random], "list[float] | None"]


def _deals(n: object) -> bool:
    """Whether ``n`` is a count of deals the core takes (draws, worlds): a whole number (not a
    bool) from 1 to 4096."""
    return isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= 4096


@dataclass(frozen=True)
class Inference:
    """How a search weights its worlds by the other seats' past moves (step 6 of the module).

    Each world kept is chosen among ``draws`` deals consistent with the observation, with
    probability proportional to the product, over every choice another seat made among two or
    more moves, of the chance the playout network gives that move from that seat's view of the
    deal: the softmax of its scores over ``temperature`` (points), mixed with a uniform choice
    for a share ``uniform``, so that no move rules a deal out however badly it scores.

    >>> Inference(draws=8, temperature=0.5).uniform
    0.1
    >>> Inference(draws=0)
    Traceback (most recent call last):
    ...
    parlour.errors.ParlourError: inference needs 1 to 4096 draws, a finite temperature above 0 and a uniform share above 0 and at most 1, not 0, 1.0 and 0.1
    """

    draws: int = 8
    temperature: float = 1.0
    uniform: float = 0.1

    def __post_init__(self) -> None:
        if not _deals(self.draws) \
                or not (math.isfinite(self.temperature) and self.temperature > 0) \
                or not 0 < self.uniform <= 1:
            raise ParlourError(f"inference needs 1 to 4096 draws, a finite temperature above 0 "
                               f"and a uniform share above 0 and at most 1, not {self.draws!r}, "
                               f"{self.temperature!r} and {self.uniform!r}")


@dataclass(frozen=True)
class Opponents:
    """How a search models the other seats: each as a player of one of two kinds, the
    variant's rule-based policy (``greedy``) or the playout network (step 7 of the module).

    Before a search, each other seat's chance of the rule-based kind is weighed by Bayes' rule
    from ``prior`` and its moves so far: over ``worlds`` deals consistent with the observation,
    how likely its recorded moves were under each kind. The rule-based kind plays its own choice
    and the network's kind the softmax of the network's scores over ``temperature`` (points),
    each mixed with a uniform choice for a share ``noise``, so that no move rules a kind out.
    A seat whose chance reaches ``certainty`` is played by the rule-based policy in every world,
    any other seat by the network. Taking a player for rule-based when it is not costs more than
    the converse gains, so the evidence must be strong.

    With ``draws`` above 1, the search's worlds are also weighted by the moves of the seats it
    plays by the rule-based policy: each world kept is one of ``draws`` dealt, chosen with a
    chance in proportion to how likely those seats' moves so far were in it under that policy
    (with the same ``noise``). A rule-based player's moves say much about its cards (it answers
    with its cheapest play, so its answer tells which cheaper plays it lacks), and the
    rule-based policy is cheap to ask. The
    other seats' moves weigh nothing here (:class:`Inference` weighs every seat's).

    >>> Opponents().worlds, Opponents().certainty, Opponents().draws
    (128, 0.8, 1)
    >>> Opponents(prior=1.0)
    Traceback (most recent call last):
    ...
    parlour.errors.ParlourError: opponents needs 1 to 4096 worlds, a prior chance between 0 and 1, a noise above 0 and at most 1, a finite temperature above 0, a certainty above 0 and at most 1 and 1 to 4096 draws, not 128, 1.0, 0.05, 0.3, 0.8 and 1
    """

    worlds: int = 128
    prior: float = 0.5
    noise: float = 0.05
    temperature: float = 0.3
    certainty: float = 0.8
    draws: int = 1

    def __post_init__(self) -> None:
        if not _deals(self.worlds) or not 0 < self.prior < 1 or not 0 < self.noise <= 1 \
                or not (math.isfinite(self.temperature) and self.temperature > 0) \
                or not 0 < self.certainty <= 1 or not _deals(self.draws):
            raise ParlourError(f"opponents needs 1 to 4096 worlds, a prior chance between 0 and "
                               f"1, a noise above 0 and at most 1, a finite temperature above "
                               f"0, a certainty above 0 and at most 1 and 1 to 4096 draws, not "
                               f"{self.worlds!r}, {self.prior!r}, {self.noise!r}, "
                               f"{self.temperature!r}, {self.certainty!r} and {self.draws!r}")

    def settings(self) -> tuple[int, float, float, float, float, int]:
        """The model as the compiled search takes it (``parlour._core.Race``)."""
        return (self.worlds, self.prior, self.noise, self.temperature, self.certainty,
                self.draws)


def policy_order(
    observation: Observation, legal: Sequence[Action], rng: random.Random, limit: int
) -> list[Action]:
    """Up to ``limit`` legal actions in the rule-based policy's order of preference: its choice,
    then its choice once that is removed, and so on.

    A policy that answers with an action no longer offered (it may fall back on a fixed move)
    has no further preference; the rest follow in the order of ``legal``.

    >>> import random, parlour
    >>> state = parlour.new_game("big-two-4card").new_deal(seed=1)
    >>> state.apply("3D")                                   # the forced opening
    >>> obs = state.observation(state.current_player)
    >>> order = policy_order(obs, state.legal_actions(), random.Random(0), 3)
    >>> order[0] == state.game.greedy_action(obs, state.legal_actions(), random.Random(0))
    True
    >>> len(order), len(set(order))
    (3, 3)
    """
    greedy = observation.game.greedy_action
    rest = list(legal)
    order: list[Action] = []
    while rest and len(order) < limit:
        pick = greedy(observation, rest, rng) if len(rest) > 1 else rest[0]
        if pick not in rest:
            break
        order.append(pick)
        rest.remove(pick)
    return order + rest[: limit - len(order)]


@dataclass
class Candidate:
    """One candidate move and its results, one entry per world it was played in."""

    action: Action
    #: Its place among the candidates: the playout policy's order (0: its own choice), then the
    #: guide's additions.
    rank: int
    values: list[float] = field(default_factory=list)
    wins: int = 0
    #: The guide's prior advantage in points (0 without a guide).
    prior: float = 0.0

    @property
    def samples(self) -> int:
        return len(self.values)

    @property
    def mean(self) -> float:
        return math.fsum(self.values) / len(self.values) if self.values else -math.inf

    @property
    def win_rate(self) -> float:
        return self.wins / len(self.values) if self.values else 0.0

    def score(self, weight: float) -> float:
        """The mean return shrunk towards the prior by ``weight`` worlds' worth (the mean
        itself when ``weight`` is 0)."""
        if not weight:
            return self.mean
        n = len(self.values)
        return (math.fsum(self.values) + weight * self.prior) / (n + weight)


@dataclass(frozen=True)
class SearchResult:
    """What one search found: the move, every candidate's results, and what it cost."""

    action: Action
    #: The candidates in the playout policy's order; the chosen one has the most samples.
    candidates: tuple[Candidate, ...]
    worlds: int
    iterations: int
    seconds: float
    #: How many worlds' worth the guide's prior counted for (0: no guide).
    prior_weight: float = 0.0
    #: Why the policy's move was played without searching (:attr:`Observation.stalled`); empty
    #: when the move was searched or the guide's choice was clear.
    unsearched: str = ""
    #: Whether a learned network's guide led the candidates (the first is its pick, not the
    #: rule-based player's).
    guided: bool = False
    #: The seats played by the rule-based policy in every world, as their moves so far showed
    #: (:class:`Opponents`); empty without such a model.
    rule_based: tuple[int, ...] = ()

    def explanation(self, seat_name: Callable[[int], str] = "P{}".format,
                    scores: Scores | None = None) -> str:
        """One line in plain words: the move, how it fared in the simulated deals, and the next
        best; where the next best shows a higher figure (it wins more often, or it scored
        more but the policy's choice was kept), the line says why it was not chosen; and the
        seats the search took for rule-based players (named by ``seat_name``, as
        :meth:`Game.seat_name <parlour.game.Game.seat_name>` does). The figures read as
        ``scores`` says (``Game.scores``: penalty points counted up where those count; points
        when not given).

        ``"the pair of 9s (9♠ 9♥): wins 62% of 400 simulated deals, +1.25 points a deal; next
        best pass: wins 48%, +0.10 points; took P2 for a rule-based player"``
        """
        text = self._figures(scores or Scores())
        if self.rule_based and self.worlds:
            *others, last = map(seat_name, self.rule_based)
            if others:
                text += f"; took {', '.join(others)} and {last} for rule-based players"
            else:
                text += f"; took {last} for a rule-based player"
        return text

    def _figures(self, scores: Scores) -> str:
        best = next(c for c in self.candidates if c.action == self.action)
        pick = "the learned network's pick" if self.guided else "the rule-based pick"
        if self.unsearched:
            return f"{best.action.words()}: {pick}, not searched ({self.unsearched})"
        if not self.worlds and len(self.candidates) > 1:  # the guide's choice was clear
            second = self.candidates[1]
            lead = best.prior - second.prior
            rated = (f"{lead:.2f} penalty points a deal fewer than" if scores.penalty
                     else f"{lead:+.2f} {scores.unit} a deal above")
            return (f"{best.action.words()}: the learned network rates it {rated} the next "
                    f"best, {second.action.words()}")
        text = (f"{best.action.words()}: wins {best.win_rate:.0%} of {best.samples} simulated deals, "
                f"{scores.per_deal(best.mean)}")
        if self.prior_weight:
            text += f" (learned network {scores.mean(best.prior)})"
        others = [c for c in self.candidates if c is not best and c.samples]
        if not others:
            return text
        w = self.prior_weight
        second = max(others, key=lambda c: (c.score(w), -c.rank))
        figures = f"wins {second.win_rate:.0%}, {scores.amount(second.mean)}"
        if second.score(w) > best.score(w):  # keep_policy kept the policy's choice
            return (f"{text}; {second.action.words()} scored more ({figures}), but not by "
                    f"enough to set aside {pick}")
        if second.win_rate > best.win_rate:
            fewer = ("pays more penalty points" if scores.penalty
                     else f"scores fewer {scores.unit}")
            return f"{text}; {second.action.words()} wins more often ({figures}) but {fewer} a deal"
        return f"{text}; next best {second.action.words()}: {figures}"


def paired_difference(a: Sequence[float], b: Sequence[float]) -> tuple[float, float]:
    """The mean of ``a − b`` over worlds both were played in, world by world, and its standard
    error (infinite below two worlds; the mean 0 with none).

    >>> paired_difference([3.0, 1.0, 2.0], [1.0, 1.0, 1.0])
    (1.0, 0.5773502691896258)
    """
    diffs = [x - y for x, y in zip(a, b, strict=True)]
    n = len(diffs)
    mean = math.fsum(diffs) / n if n else 0.0
    if n < 2:
        return mean, math.inf
    return mean, math.sqrt(math.fsum((d - mean) ** 2 for d in diffs) / (n - 1)) / math.sqrt(n)


def _clearly_better(a: Candidate, b: Candidate, margin: float) -> bool:
    """Whether ``a``'s paired lead over ``b`` (played in the same worlds) is more than
    ``margin`` standard errors."""
    mean, error = paired_difference(a.values, b.values)
    return error < math.inf and mean > margin * error


@dataclass(frozen=True)
class SearchConfig:
    """Every setting of a :class:`SearchBot`, checked when made: a searching level is one of
    these per variant (:mod:`parlour.bots.levels`).

    Budget: ``iterations`` is the most rollouts a move (reproducible; at most
    :data:`~parlour._core.MAX_ITERATIONS`, 100,000,000, as each one's return is kept) and
    ``time_limit`` the most seconds a move; at least one of them (whichever comes first).
    Candidates: ``max_candidates`` of the rule-based policy's preferred moves. Racing:
    ``min_worlds`` and ``confidence`` say when a candidate may be dropped (step 4 of the
    module); ``indifference`` also drops one other than the first that cannot beat the leader,
    or the first, by more than this many standard deviations of a world's paired difference
    (0: never). ``keep_policy``: when above 0, the policy's own choice (the guide's, with a
    guide) is kept unless the search's best beats it, in the worlds both were played in, by
    more than that many standard errors of their paired difference, and racing drops a
    candidate only when it trails by more than that many too.

    Guide (step 5): with ``guided``, the variant's learned network (:func:`parlour.bots.learned.
    prior`) gives each move a prior; its best ``guided_candidates`` moves lead the candidates,
    each counted ``prior_weight`` worlds' worth, and its first is played without searching
    where it leads its second by ``prior_margin`` points or more. Playouts: with
    ``network_playouts``, the network (:func:`parlour.bots.learned.network_playouts`) plays
    every seat of every world out where the variant has one, at ``network_iterations`` rollouts
    a move (``None``: ``iterations``); ``inference`` and ``opponents`` then weigh the worlds and
    model the other seats (steps 6 and 7), and ``leaf_after`` stops each rollout where the
    searching seat is to choose for the ``leaf_after``-th time, counting the network's estimate
    of its best move there. ``threads``: how many threads the worlds are played on (the move
    does not depend on it).

    >>> SearchConfig(iterations=400).max_candidates
    8
    >>> SearchConfig()
    Traceback (most recent call last):
    ...
    parlour.errors.ParlourError: a search needs a budget: iterations, a time limit, or both
    >>> SearchConfig(iterations=10, keep_policy=-1)
    Traceback (most recent call last):
    ...
    parlour.errors.ParlourError: keep_policy must be a finite number of standard errors of at least 0, not -1
    """

    iterations: int | None = None
    time_limit: float | None = None
    max_candidates: int = 8
    min_worlds: int = 8
    confidence: float = 2.5
    indifference: float = 0.0
    keep_policy: float = 0.0
    guided: bool = False
    guided_candidates: int = 2
    prior_weight: float = 8.0
    prior_margin: float = math.inf
    network_playouts: bool = False
    network_iterations: int | None = None
    inference: Inference | None = None
    leaf_after: int | None = None
    opponents: Opponents | None = None
    threads: int = 1

    def __post_init__(self) -> None:
        if self.iterations is None and self.time_limit is None:
            raise ParlourError("a search needs a budget: iterations, a time limit, or both")
        for budget in (self.iterations, self.network_iterations):
            if budget is not None and not _count(budget, MAX_ITERATIONS):
                raise ParlourError(f"iterations must be a whole number of rollouts from 1 to "
                                   f"{MAX_ITERATIONS:,}, not {budget!r}")
        limit = self.time_limit
        if limit is not None and not (_number(limit) and 0 < limit < 1e9):
            raise ParlourError(f"the time limit must be a finite number of seconds above 0, "
                               f"not {limit!r}")
        if not _count(self.max_candidates, 1 << 16) \
                or not _count(self.min_worlds, MAX_ITERATIONS) \
                or not (_number(self.confidence) and self.confidence > 0):
            raise ParlourError(
                f"max_candidates must be at least 1, min_worlds 1 to {MAX_ITERATIONS:,} and "
                f"confidence above 0, not {self.max_candidates!r}, {self.min_worlds!r} and "
                f"{self.confidence!r}")
        if not (_number(self.indifference) and self.indifference >= 0):
            raise ParlourError(f"indifference must be a finite number of standard deviations of "
                               f"at least 0, not {self.indifference!r}")
        if not (_number(self.keep_policy) and self.keep_policy >= 0):
            raise ParlourError(f"keep_policy must be a finite number of standard errors of at "
                               f"least 0, not {self.keep_policy!r}")
        g = self.guided_candidates
        if not (isinstance(g, int) and not isinstance(g, bool) and g >= 0) \
                or not (_number(self.prior_weight) and self.prior_weight >= 0):
            raise ParlourError(f"guided_candidates must be at least 0 and prior_weight a finite "
                               f"number of at least 0, not {self.guided_candidates!r} and "
                               f"{self.prior_weight!r}")
        if not (isinstance(self.prior_margin, int | float) and self.prior_margin > 0):
            raise ParlourError(f"prior_margin must be above 0 points, not {self.prior_margin!r}")
        if not isinstance(self.guided, bool) or not isinstance(self.network_playouts, bool):
            raise ParlourError(f"guided and network_playouts are true or false, not "
                               f"{self.guided!r} and {self.network_playouts!r}")
        if self.inference is not None and not isinstance(self.inference, Inference):
            raise ParlourError(f"inference must be an Inference or None, not {self.inference!r}")
        if self.leaf_after is not None and not _count(self.leaf_after, MAX_ITERATIONS):
            raise ParlourError(f"leaf_after must be a whole number of turns of at least 1 or "
                               f"None, not {self.leaf_after!r}")
        if self.opponents is not None and not isinstance(self.opponents, Opponents):
            raise ParlourError(f"opponents must be an Opponents or None, not {self.opponents!r}")
        if not _count(self.threads, 256):
            raise ParlourError(f"threads must be a whole number from 1 to 256, not "
                               f"{self.threads!r}")

    def replace(self, **changes: Any) -> SearchConfig:
        """These settings with ``changes`` (by field name), checked as any are; a setting that
        is itself a record (``opponents``, ``inference``) may be given by its fields.

        >>> SearchConfig(iterations=400).replace(opponents={"draws": 16}).opponents.draws
        16
        >>> SearchConfig(iterations=400).replace(rollouts=9)
        Traceback (most recent call last):
        ...
        parlour.errors.ParlourError: a search has no setting 'rollouts'; its settings are: iterations, time_limit, max_candidates, min_worlds, confidence, indifference, keep_policy, guided, guided_candidates, prior_weight, prior_margin, network_playouts, network_iterations, inference, leaf_after, opponents, threads
        """
        known = [f.name for f in fields(self)]
        for name, value in changes.items():
            if name not in known:
                raise ParlourError(f"a search has no setting {name!r}; its settings are: "
                                   + ", ".join(known))
            record = _RECORDS.get(name)
            if record is not None and isinstance(value, Mapping):
                changes[name] = record(**value)
        return dataclasses.replace(self, **changes)


#: The settings that are records of their own, by name, as :meth:`SearchConfig.replace` makes
#: them from their fields.
_RECORDS: Mapping[str, Callable[..., Any]] = {"inference": Inference, "opponents": Opponents}


def _count(n: object, most: int) -> bool:
    """Whether ``n`` is a whole number (not a bool) from 1 to ``most``."""
    return isinstance(n, int) and not isinstance(n, bool) and 1 <= n <= most


def _number(x: object) -> bool:
    """Whether ``x`` is a finite number (not a bool)."""
    return isinstance(x, int | float) and not isinstance(x, bool) and math.isfinite(x)


class SearchBot(Bot):
    """Determinised Monte Carlo search with paired, raced candidates (see the module), set by
    a :class:`SearchConfig`.

    ``guide`` and ``playouts`` stand in for the learned network as the search's prior and as
    its playout policy (other networks, in experiments): given, they are used whatever the
    configuration's ``guided`` and ``network_playouts`` say.

    >>> SearchBot(SearchConfig(iterations=60)).config.iterations
    60
    """

    name = "search"

    def __init__(self, config: SearchConfig, *, guide: Guide | None = None,
                 playouts: Playouts | None = None) -> None:
        if not isinstance(config, SearchConfig):
            raise ParlourError(f"a search is set by a SearchConfig, not {config!r}")
        self.config = config
        self.guide = guide
        self.playouts = playouts

    def config_for(self, observation: Observation) -> SearchConfig:
        """The settings this bot searches ``observation`` with: its own (a level's depend on
        the variant)."""
        return self.config

    def replace(self, **changes: Any) -> SearchBot:
        """A copy of this bot whose settings have ``changes`` (:meth:`SearchConfig.replace`)."""
        bot = copy.copy(self)
        bot.config = self.config.replace(**changes)
        return bot

    @property
    def reusable(self) -> bool:
        """Without a time limit: with one, the choice depends on the clock."""
        return self.config.time_limit is None

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        return self.search(observation, legal_actions, rng).action

    def choose_explained(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> tuple[Action, str]:
        result = self.search(observation, legal_actions, rng)
        if len(result.candidates) == 1:
            return result.action, f"{result.action.words()}: the only legal move"
        return result.action, result.explanation(observation.game.seat_name,
                                                 observation.game.scores)

    def search(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random,
        include: Action | None = None,
    ) -> SearchResult:
        """Search the move for ``observation.seat``; all randomness comes from ``rng``.

        ``include``: a legal move raced among the candidates even if the policy would not
        propose it (last, so it is chosen only if it does best): a game review judges the move
        a person made against the search's choice in the same worlds."""
        start = time.perf_counter()
        if not legal_actions:
            raise ParlourError("there is no move to search: the list of legal actions is empty")
        if len(legal_actions) == 1:
            only = Candidate(legal_actions[0], 0)
            return SearchResult(only.action, (only,), 0, 0, time.perf_counter() - start)
        config = self.config_for(observation)
        guide, playouts = self.guide, self.playouts
        if guide is None and config.guided:
            from parlour.bots.learned import prior as guide
        if playouts is None and config.network_playouts:
            from parlour.bots.learned import network_playouts as playouts
        priors = guide(observation, legal_actions, rng) if guide else None
        policy = playouts(observation) if playouts else None
        # The time limit bounds the search from here: a level's first search in a process also
        # loads its network (a quarter of a second or more), paid once and not taken from the
        # move's rollouts (it would leave a first move at a table about one world a candidate).
        clock = time.perf_counter()
        budget = config.iterations
        if budget is not None and policy is not None and config.network_iterations is not None:
            budget = config.network_iterations
        if priors is None:
            weight = 0.0
            order = policy_order(observation, legal_actions, rng, config.max_candidates)
            candidates = tuple(Candidate(a, i) for i, a in enumerate(order))
        else:
            weight = config.prior_weight
            ranked = sorted(zip(priors, legal_actions, strict=True), key=lambda p: -p[0])
            if include is None and ranked[0][0] - ranked[1][0] >= config.prior_margin:
                top = tuple(Candidate(a, i, prior=p) for i, (p, a) in enumerate(ranked[:2]))
                return SearchResult(top[0].action, top, 0, 0, time.perf_counter() - start, weight,
                                    guided=True)
            of = dict(zip(legal_actions, priors, strict=True))
            # The guide's choices first: its first is the one keep_policy keeps.
            order = [a for _, a in ranked[: config.guided_candidates]]
            order += [a for a in policy_order(observation, legal_actions, rng,
                                              config.max_candidates) if a not in order]
            candidates = tuple(Candidate(a, i, prior=of[a]) for i, a in enumerate(order))
        stalled = observation.stalled if include is None else None
        if stalled is not None:  # every rollout would run on to the turn limit, to no purpose
            return SearchResult(candidates[0].action, candidates, 0, 0,
                                time.perf_counter() - start, weight, stalled,
                                guided=priors is not None)
        if include is not None and include not in [c.action for c in candidates]:
            if include not in legal_actions:
                raise ParlourError(f"{include} is not one of the legal moves")
            prior = 0.0 if priors is None else of[include]
            candidates += (Candidate(include, len(candidates), prior=prior),)
        keep = config.keep_policy
        iterations, rule_based = self._race(observation, config, candidates, rng, clock, weight,
                                            budget, policy)
        alive = max(c.samples for c in candidates)
        # The best score among the candidates still in the race; ties go to the order.
        best = max((c for c in candidates if c.samples == alive),
                   key=lambda c: (c.score(weight), -c.rank))
        if keep and best is not candidates[0] and candidates[0].samples == alive \
                and not _clearly_better(best, candidates[0], keep):
            best = candidates[0]
        return SearchResult(best.action, candidates, alive, iterations,
                            time.perf_counter() - start, weight, guided=priors is not None,
                            rule_based=rule_based)

    def _race(self, observation: Observation, config: SearchConfig,
              candidates: tuple[Candidate, ...], rng: random.Random, clock: float,
              weight: float, iterations: int | None, policy: Any) -> tuple[int, tuple[int, ...]]:
        """Steps 3 and 4 in Rust (the module): fills in the candidates' results and returns the
        rollouts made and the seats played by the rule-based policy (step 7); the worlds and
        rollouts are seeded from ``rng`` and played out by ``policy`` (a compiled network;
        ``None``: greedy), within ``config``'s time limit from ``clock``."""
        knowledge = observation._knowledge()
        if knowledge is None:
            raise ParlourError(f"{observation.game.name} observations have no compiled "
                               "knowledge to search from")
        left = None
        if config.time_limit is not None:
            left = max(config.time_limit - (time.perf_counter() - clock), 1e-6)
        # Racing must not drop the policy's choice on less evidence than keep_policy asks for.
        confidence = max(config.confidence, config.keep_policy)
        inference = None
        if config.inference is not None and policy is not None:
            inference = (config.inference.draws, config.inference.temperature,
                         config.inference.uniform)
        model = config.opponents
        opponents = model.settings() if model is not None and policy is not None else None
        # Greedy playouts have no values to stop at: without a network they are played out.
        race = Race(iterations, left, config.min_worlds, confidence, weight, config.threads,
                    inference, config.leaf_after, opponents, config.indifference)
        moves = [int(c.action) for c in candidates]
        priors = [c.prior for c in candidates]
        seed = rng.getrandbits(64)
        if policy is None:
            _, used, tallies, rule_based = knowledge.race(race, moves, priors, seed)
        else:
            # Each family's knowledge takes its compiled network; one of another variant (or
            # other rules) is refused by the core with a ValueError.
            _, used, tallies, rule_based = knowledge.race(  # type: ignore[call-arg]
                race, moves, priors, seed, policy)
        for cand, (values, wins) in zip(candidates, tallies, strict=True):
            cand.values, cand.wins = values, wins
        return used, tuple(rule_based)
