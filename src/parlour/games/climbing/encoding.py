"""Encoding and action index of the climbing games (``big-two-4card``, ``big-two``,
``pusoy-dos``).

The family's tables for :mod:`parlour.encoding` (the generic encoder and action index),
registered with ``register_encoding("climbing", …)`` when this module is first imported: its
variants name it as their ``Variant.encoding``, so the first ``encoder(game)``,
``action_index(game)`` or ``reward_scale(game)`` of the family imports it (it needs numpy).

**Action index.** Index 0 is ``pass``; then every play the ruleset knows (every valid
combination of the 52 cards: 21,076 in big-two-4card), ordered by size, then category (the
variant's order, low to high), then strength, then cards — the order in which the engine's
plays compare. The index depends on the ruleset (``allow_triples``, ``straights`` and
``flush_order`` change which plays exist and how flushes rank) and on nothing else.

**Observation encoding** (seats relative to the observer: ``self``, ``+1`` next to play …;
card blocks list the cards lowest first in the variant's order):

========================== ================================================================
entries                    meaning
========================== ================================================================
``hand:*``                 this seat's cards
``played:<seat>:*``        the cards each seat has played this deal
``table:*``                the cards of the play to beat (none when the mover leads freely)
``out:*``                  cards out of play from the start (a composed position)
``cards_left:<seat>``      cards each seat holds / 13
``to_move:<seat>``         the seat to move (all zero once the deal is over)
``table_by:<seat>``        who made the play to beat
``table_kind:<kind>``      the play to beat's size and category (``5-card flush`` …)
``passes``                 passes since the table play / (players − 1)
``leading``                the seat to move leads freely
``opening``                the deal's first play is due (it must include the lowest card)
``place:<seat>``           seats that went out: 1 for first place, then 3/4, 2/4 …
``score:<seat>``           each seat's return once the deal is over / the largest possible
========================== ================================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter

from parlour._core import EnvCore
from parlour.encoding import (
    ActionIndex,
    Compiled,
    History,
    HistoryFold,
    register_encoding,
    relative_names,
)
from parlour.games.climbing.combos import MASK, SIZE_SHIFT
from parlour.games.climbing.game import ClimbingGame
from parlour.games.climbing.observation import ClimbingObservation

#: The largest absolute return of a deal, by the ruleset's scoring: a winner collects up to
#: 3 × 13 cards, a 13-card penalty is 39, first place scores 3.
SCORE_SCALE = {"count": 39.0, "penalty": 39.0, "placement": 3.0}

_KIND_SHIFT = SIZE_SHIFT - 3  # size and category of a packed play: size << 3 | category


class ClimbingEncoding:
    """The climbing family's table for :class:`~parlour.encoding.Encoder`."""

    def __init__(self, game: ClimbingGame) -> None:
        n = self.players = game.players
        rel = relative_names(n)
        kinds = [(size, i, cat) for size, cats in game.table.categories.items()
                 for i, cat in enumerate(cats)]
        self.card_blocks: Sequence[tuple[str, bool]] = [("hand", False), *((f"played:{r}", True) for r in rel),
                            ("table", True), ("out", False)]
        scalars = [f"cards_left:{r}" for r in rel] + [f"to_move:{r}" for r in rel]
        scalars += [f"table_by:{r}" for r in rel]
        scalars += [f"table_kind:{size}-card {cat}" for size, _, cat in kinds]
        scalars += ["passes", "leading", "opening"]
        scalars += [f"place:{r}" for r in rel] + [f"score:{r}" for r in rel]
        self.scalars: Sequence[str] = scalars
        self._to_move = n
        self._table_by = 2 * n
        self._kind = {size << 3 | i: 3 * n + k for k, (size, i, _) in enumerate(kinds)}
        self._passes = 3 * n + len(kinds)
        self._place = self._passes + 3
        self._score = self._place + n
        self._scale = SCORE_SCALE[game.rules.scoring]
        self._orders = [[(me + i) % n for i in range(n)] for me in range(n)]
        self._zeros = [0.0] * (len(scalars) - n)
        self._played = HistoryFold(_played_by_seat, n)

    def raw(self, obs: ClimbingObservation) -> tuple[list[int], list[float]]:
        n = self.players
        me = obs.seat
        played = self._played(obs.history)
        table = obs.table
        # Seats relative to the observer: the absolute lists rotated to start at it.
        # Plain ints: numpy converts int subclasses (card sets) at half the speed.
        masks = [int(obs.hand), *played[me:], *played[:me],
                 table & MASK if table is not None else 0, int(obs.out)]
        sizes = obs.hand_sizes
        s = [k / 13 for k in sizes[me:] + sizes[:me]]
        s += self._zeros
        mover = obs.current_player
        if mover >= 0:
            s[self._to_move + (mover - me) % n] = 1.0
            if table is None:
                s[self._passes + 1] = 1.0
        if table is not None:
            s[self._table_by + (obs.table_seat - me) % n] = 1.0
            s[self._kind[table >> _KIND_SHIFT]] = 1.0
            s[self._passes] = obs.passes / (n - 1)
        if obs.opening:
            s[self._passes + 2] = 1.0
        for place, seat in enumerate(obs.finished):
            s[self._place + (seat - me) % n] = (n - place) / n
        if mover < 0:
            scale = self._scale
            scores = obs.scores
            for i, p in enumerate(self._orders[me]):
                s[self._score + i] = scores[p] / scale
        return masks, s


def _played_by_seat(played: list[int], history: History) -> None:
    for seat, action in history:
        played[seat] |= action & MASK


def climbing_index(game: ClimbingGame) -> ActionIndex:
    """Pass, then every play of the ruleset in the engine's order (module docstring)."""
    table = game.table
    actions = [table.PASS, *table.hand_combos(MASK)]
    return ActionIndex(game, actions, [str(a) for a in actions], table.action_type)


def climbing_scale(game: ClimbingGame) -> float:
    return SCORE_SCALE[game.rules.scoring]


def climbing_compiled(game: ClimbingGame) -> Compiled:
    """The compiled encoding, index and deals (``rust/src/climbing/encoding.rs``), reading a
    state's engine."""
    return Compiled(EnvCore.climbing(game.table.core, game.players), attrgetter("_e"))


register_encoding("climbing", ClimbingEncoding, climbing_index, climbing_scale, climbing_compiled)
