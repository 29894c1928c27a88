"""Encoding and action index of the trump games (``forty-five``, ``spoil-five``).

The family's tables for :mod:`parlour.encoding` (the generic encoder and action index),
registered with ``register_encoding("trump", …)`` when this module is first imported: its
variants name it as their ``Variant.encoding``, so the first ``encoder(game)``,
``action_index(game)`` or ``reward_scale(game)`` of the family imports it (it needs numpy).

**Action index** (108 actions, the same for every player count and option):

=========== ==================================================================
index       action
=========== ==================================================================
0 … 51      play the card of that index (``2C 2D 2H 2S 3C …``: rank × 4 + suit)
52 … 103    ``rob`` discarding card ``index − 52`` (take the turn-up)
104 … 107   ``keep``, ``silent``, ``jink``, ``stop``
=========== ==================================================================

(Another seat's rob is seen as ``rob`` without its discard; that form is never a legal action,
so it has no index.)

**Observation encoding** (seats relative to the observer; card blocks in card-index order
``2C 2D 2H 2S 3C …``):

========================== ================================================================
entries                    meaning
========================== ================================================================
``hand:*``                 this seat's cards
``played:<seat>:*``        the cards each seat has played to tricks this deal
``trick:<seat>:*``         the card each seat has played to the trick in progress
``turn_up:*``              the turned-up card
``discarded:*``            the card this seat discarded when it robbed (only it knows)
``trump:<suit>``           the trump suit
``phase:<phase>``          ``rob``, ``play``, ``jink`` or ``over``
``dealer:<seat>``          the dealer
``leader:<seat>``          the leader of the trick in progress
``to_move:<seat>``         the seat to act (all zero once the deal is over)
``tricks_won:<seat>``      tricks each seat has taken / 5
``cards_left:<seat>``      cards each seat holds / 5
``announced:<seat>``       who kept and announced the ace of trumps
``robber:<seat>``          who robbed the trump
``jinker:<seat>``          who jinked (Spoil Five)
``ace_pending``            a robbed turned ace joins the dealer's hand after trick 1
``ace_demoted``            the ace of trumps ranks lowest this deal
``score:<side or seat>``   Forty-Five: each side's points (own side first) / (target + 25);
                           Spoil Five: each seat's chips / chips in play
``pool``                   Spoil Five: the chips at stake / chips in play
``return:<seat>``          each seat's return once the deal is over / the largest possible
========================== ================================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter

from parlour._core import EnvCore
from parlour.cards import CARDS, SUIT_NAMES
from parlour.encoding import (
    ActionIndex,
    Compiled,
    History,
    HistoryFold,
    register_encoding,
    relative_names,
)
from parlour.games.trump.actions import JINK, KEEP, PLAY, ROB, ROB_BASE, SILENT, STOP, TrumpAction
from parlour.games.trump.observation import TrumpObservation
from parlour.games.trump.variants import TrumpGame

PHASES = ("rob", "play", "jink", "over")
#: Forty-Five's largest deal score per scoring option (all five tricks).
FORTY_FIVE_SCALE = {"primary": 10.0, "alternative": 25.0}


def trump_scale(game: TrumpGame) -> float:
    """The largest absolute return of a deal: all five tricks in Forty-Five; in Spoil Five at
    most the pool (every ante, doubled by a jink) is won, and no seat loses more."""
    if game.name == "forty-five":
        return FORTY_FIVE_SCALE[str(game.options.scoring)]
    return 2.0 * game.players * int(game.options.ante)


def score_scale(game: TrumpGame) -> float:
    """What scores (and Spoil Five's pool) are divided by: Forty-Five's target + 25, Spoil
    Five's chips in play."""
    if game.name == "forty-five":
        return float(game.options.target + 25.0)
    return float(game.players * game.options.starting_chips)


class TrumpEncoding:
    """The trump family's table for :class:`~parlour.encoding.Encoder`."""

    def __init__(self, game: TrumpGame) -> None:
        n = self.players = game.players
        rel = relative_names(n)
        self.sides = game.name == "forty-five"
        self.card_blocks: Sequence[tuple[str, bool]] = [("hand", False), *((f"played:{r}", False) for r in rel),
                            *((f"trick:{r}", False) for r in rel), ("turn_up", False),
                            ("discarded", False)]
        groups: list[tuple[str, Sequence[str]]] = [("trump", SUIT_NAMES), ("phase", PHASES)]
        groups += [(name, rel) for name in ("dealer", "leader", "to_move", "tricks_won",
                                            "cards_left", "announced", "robber", "jinker")]
        scalars: list[str] = []
        self.base: dict[str, int] = {}
        for name, labels in groups:
            self.base[name] = len(scalars)
            scalars += [f"{name}:{label}" for label in labels]
        self.base["flags"] = len(scalars)
        scalars += ["ace_pending", "ace_demoted"]
        self.base["score"] = len(scalars)
        scalars += [f"score:{s}" for s in (("own side", "other side") if self.sides else rel)]
        self.base["pool"] = len(scalars)
        scalars.append("pool")
        self.base["return"] = len(scalars)
        scalars += [f"return:{r}" for r in rel]
        self.scalars: Sequence[str] = scalars
        self.score_scale = score_scale(game)
        self.return_scale = trump_scale(game)
        self._orders = [[(me + i) % n for i in range(n)] for me in range(n)]
        self._zeros = [0.0] * len(scalars)
        # The cards each seat played, then the card each seat discarded when robbing (the
        # others' discards are hidden from the observer: only its own is read).
        self._played = HistoryFold(_played_by_seat, 2 * n)

    def raw(self, obs: TrumpObservation) -> tuple[list[int], list[float]]:
        n = self.players
        me = obs.seat
        played = self._played(obs.history)
        discarded = played[n + me]
        trick = [0] * n
        leader = obs.leader
        for j, card in enumerate(obs.trick):
            trick[(leader + j) % n] = 1 << card
        order = self._orders[me]
        # Seats relative to the observer: the absolute lists rotated to start at it.
        masks = [int(obs.hand), *played[me:n], *played[:me], *trick[me:], *trick[:me],
                 1 << obs.turn_up, discarded]
        s = self._zeros[:]
        b = self.base
        s[b["trump"] + obs.trump] = 1.0
        s[b["phase"] + PHASES.index(obs.phase)] = 1.0
        s[b["dealer"] + (obs.dealer - me) % n] = 1.0
        s[b["leader"] + (leader - me) % n] = 1.0
        for base, seat in ((b["to_move"], obs.current_player), (b["announced"], obs.announced),
                           (b["robber"], obs.robber), (b["jinker"], obs.jinker)):
            if seat >= 0:
                s[base + (seat - me) % n] = 1.0
        won, sizes = obs.tricks_won, obs.hand_sizes
        tw, cl = b["tricks_won"], b["cards_left"]
        s[tw:tw + n] = [k / 5 for k in won[me:] + won[:me]]
        s[cl:cl + n] = [k / 5 for k in sizes[me:] + sizes[:me]]
        s[b["flags"]] = float(obs.ace_pending)
        s[b["flags"] + 1] = float(obs.ace_demoted)
        # Scores, the pool and returns are scaled to [-1, 1] but clipped all the same: a long
        # match can carry a score past the scale.
        scores, scale = obs.scores, self.score_scale
        sc = b["score"]
        if self.sides:
            own = me % 2
            s[sc] = _clip(scores[own] / scale)
            s[sc + 1] = _clip(scores[1 - own] / scale)
        else:
            for i, p in enumerate(order):
                s[sc + i] = _clip(scores[p] / scale)
            s[b["pool"]] = _clip(obs.pool / scale)
        if obs.current_player < 0:
            returns, rscale = obs.returns, self.return_scale
            for i, p in enumerate(order):
                s[b["return"] + i] = _clip(returns[p] / rscale)
        return masks, s


def _played_by_seat(played: list[int], history: History) -> None:
    n = len(played) // 2
    for seat, action in history:
        if action < 52:
            played[seat] |= 1 << action
        elif ROB_BASE <= action < ROB_BASE + 52:
            played[n + seat] = 1 << (action - ROB_BASE)


def _clip(v: float) -> float:
    return -1.0 if v < -1.0 else 1.0 if v > 1.0 else v


def trump_index(game: TrumpGame) -> ActionIndex:
    """Plays, robs, then keep, silent, jink and stop (module docstring)."""
    actions = [*PLAY, *ROB, KEEP, SILENT, JINK, STOP]
    names = [str(a) for a in actions]
    assert names[:52] == [str(c) for c in CARDS]
    return ActionIndex(game, actions, names, TrumpAction)


def trump_compiled(game: TrumpGame) -> Compiled:
    """The compiled encoding, index and deals (``rust/src/trump/encoding.rs``), reading a
    state's engine and its scores; the batched environment deals as ``game.new_deal(seed=…)``
    does (the last seat deals, the scores and pool a match starts with)."""
    scores, pool = game._deal_args({})
    core = EnvCore.trump(game.rules.core, game.players, score_scale(game),
                         [float(v) for v in scores], float(pool))
    return Compiled(core, attrgetter("_e"), attrgetter("scores"))


register_encoding("trump", TrumpEncoding, trump_index, trump_scale, trump_compiled)
