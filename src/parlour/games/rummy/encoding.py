"""Encoding and action index of ``rummy``.

The family's tables for :mod:`parlour.encoding` (the generic encoder and action index),
registered with ``register_encoding("rummy", …)`` when this module is first imported: its
variants name it as their ``Variant.encoding``, so the first ``encoder(game)``,
``action_index(game)`` or ``reward_scale(game)`` of the family imports it (it needs numpy).

**Action index** (2,855 actions, the same for every player count and option). Cards are named
in rummy's order (clubs, diamonds, hearts, spades; ace low within a suit):

================ ==================================================================
index            action
================ ==================================================================
0, 1             ``draw stock``, ``draw discard``
2 … 53           ``discard`` the card ``index − 2`` (``AC 2C … KC AD … KS``)
54 … 317         ``meld`` a run: by suit, lowest card, then length (3 to 13 cards)
318 … 382        ``meld`` a group: by rank (ace low), then suits (three, then all four)
383 … 434        lay off one card on the group of its rank (``layoff 7C on a group``)
435 … 654        lay off a block of cards just below a run (``layoff 5C 6C below a run``)
655 … 874        lay off a block of cards just above a run (``layoff 9C above a run``)
875 … 2854       lay off blocks at both ends of a run at once
================ ==================================================================

Every legal move has an index. A lay-off names its cards and the side of the meld they go on;
which meld that is follows from the table (melds hold each card once, so exactly one meld
fits): ``index(action, observation)``, ``action(i, observation)`` and ``mask(legal,
observation)`` take the observation (or state) the move is made in. Other moves need none.

**Observation encoding** (seats relative to the observer; card blocks in rummy's order):

========================== ================================================================
entries                    meaning
========================== ================================================================
``hand:*``                 this seat's cards
``table:*``                every card in a meld on the table
``placed:<seat>:*``        the table cards each seat put down (melded or laid off)
``taken:<seat>:*``         the cards each seat took from the discard pile and still holds
``discarded:<seat>:*``     the cards each seat has discarded this deal
``pile:*``                 the cards in the discard pile
``pile_top:*``             the top of the discard pile (the card ``draw discard`` takes)
``drawn:*``                the card the player to move drew this turn, when this seat knows it
``extends:*``              the cards that would lay off on a table meld (next to a run's
                           ends, or the missing card of a group of three)
``phase:<phase>``          ``draw``, ``play`` or ``over``
``to_move:<seat>``         the seat to move (all zero once the deal is over)
``cards_left:<seat>``      cards each seat holds / 26
``score:<seat>``           the points each seat has put down / 400 (every card's points)
``stock``, ``pile``        cards in the stock and in the discard pile / 52
``turn``                   turns played / the turn limit
``went_out:<seat>``        the seat that went out
========================== ================================================================
"""

from __future__ import annotations

from collections.abc import Sequence
from operator import attrgetter, methodcaller

from parlour._core import EnvCore
from parlour.encoding import (
    ActionIndex,
    Compiled,
    History,
    HistoryFold,
    register_encoding,
    relative_names,
)
from parlour.errors import IllegalAction
from parlour.game import Action, Observation, State
from parlour.games.rummy.actions import (
    DISCARD,
    DISCARD_ACTIONS,
    DRAW_DISCARD_ACTION,
    DRAW_STOCK_ACTION,
    KIND_BITS,
    LAYOFF,
    MELD,
    TARGET_SHIFT,
    RummyAction,
    action,
)
from parlour.games.rummy.engine import core_turn_limit
from parlour.games.rummy.game import RummyGame
from parlour.games.rummy.melds import (
    COLUMN,
    FULL,
    ROW,
    group_mask,
    is_group,
    rummy_mask,
    text_of,
)
from parlour.games.rummy.observation import RummyObservation

PHASES = ("draw", "play", "over")
#: Every card's points together: no deal scores more.
TOTAL_POINTS = 400.0
GROUP, BELOW, ABOVE, BOTH = range(4)
_MODE_TEXT = ("on a group", "below a run", "above a run", "at both ends of a run")
_MODE_SHIFT = 56


def _block(suit: int, lo: int, hi: int) -> int:
    """The cards of ranks ``lo`` … ``hi`` (ace low, 0-based) of one suit, as a layout mask."""
    return ((1 << (hi - lo + 1)) - 1) << (13 * suit + lo)


def _melds() -> list[int]:
    runs = [_block(s, lo, hi) for s in range(4) for lo in range(11) for hi in range(lo + 2, 13)]
    groups = [group_mask(r, sub) for r in range(13) for sub in (7, 11, 13, 14, 15)]
    return runs + groups


def _layoffs() -> list[tuple[int, int]]:
    """(mode, cards) of every lay-off: a card on a group; a block below a run (room above it
    for three cards), above one (room below), or one block at each end (three or more ranks
    between them)."""
    out = [(GROUP, 1 << i) for i in range(52)]
    for mode in (BELOW, ABOVE):
        for s in range(4):
            for lo in range(13):
                for hi in range(lo, 13):
                    if (mode == BELOW and hi <= 9) or (mode == ABOVE and lo >= 3):
                        out.append((mode, _block(s, lo, hi)))
    for s in range(4):
        for a in range(13):
            for b in range(a, 13):
                for c in range(b + 4, 13):
                    for d in range(c, 13):
                        out.append((BOTH, _block(s, a, b) | _block(s, c, d)))
    return out


class RummyIndex(ActionIndex):
    """Draws, discards, melds, then lay-offs by cards and side (module docstring)."""

    def __init__(self, game: RummyGame) -> None:
        fixed = [DRAW_STOCK_ACTION, DRAW_DISCARD_ACTION, *DISCARD_ACTIONS,
                 *(action(MELD, m) for m in _melds())]
        self._layoff_keys = _layoffs()
        names = [str(a) for a in fixed]
        names += [f"layoff {text_of(cards)} {_MODE_TEXT[mode]}" for mode, cards in self._layoff_keys]
        super().__init__(game, [*fixed, *([None] * len(self._layoff_keys))], names, RummyAction)
        self.first_layoff = len(fixed)
        self._layoffs = {mode << _MODE_SHIFT | cards: self.first_layoff + i
                         for i, (mode, cards) in enumerate(self._layoff_keys)}

    def layoff(self, i: int) -> tuple[int, int]:
        """The side (``GROUP``, ``BELOW``, ``ABOVE`` or ``BOTH``) and cards (a layout mask) of
        the lay-off at index ``i``, whatever meld it goes on.

        >>> import parlour
        >>> from parlour.envs import action_index
        >>> index = action_index(parlour.new_game("rummy"))
        >>> mode, cards = index.layoff(index.first_layoff)
        >>> mode == GROUP, text_of(cards)
        (True, 'AC')
        """
        return self._layoff_keys[i - self.first_layoff]

    @staticmethod
    def _table(context: Observation | State | None) -> list[int]:
        """The melds on the table (layout masks) in the context of a move."""
        if isinstance(context, State):
            context = context.observation(max(context.current_player, 0))
        if not isinstance(context, RummyObservation):
            raise IllegalAction("a rummy lay-off's index depends on the melds on the table: "
                                "give the observation it is made in")
        return [rummy_mask(m) for m in context.melds]

    def _layoff_index(self, move: Action, table: list[int]) -> int:
        cards = move >> KIND_BITS & FULL
        target = move >> TARGET_SHIFT
        if target >= len(table):
            raise IllegalAction(f"{move} names meld {target + 1}; the table has {len(table)}")
        meld = table[target]
        if is_group(meld):
            mode = GROUP
        else:
            below = cards & ((meld & -meld) - 1)
            mode = BOTH if below and cards & ~below else BELOW if below else ABOVE
        i = self._layoffs.get(mode << _MODE_SHIFT | cards)
        if i is None:
            raise IllegalAction(f"{move} does not lay off on meld {target + 1}")
        return i

    def index(self, action: Action, context: Observation | State | None = None) -> int:
        if action.__class__ is RummyAction and action & 7 == LAYOFF:
            return self._layoff_index(action, self._table(context))
        return super().index(action)

    def indices(self, legal: list[Action],  # type: ignore[override]
                context: Observation | State | None = None) -> list[int]:
        lookup = self._lookup
        table: list[int] | None = None
        out = []
        for a in legal:
            if a.__class__ is not RummyAction:
                raise self._refuse(a)
            i = lookup(a)
            if i is None:
                if a & 7 != LAYOFF:
                    raise self._refuse(a)
                if table is None:
                    table = self._table(context)
                i = self._layoff_index(a, table)
            out.append(i)
        return out

    def action(self, i: int, context: Observation | State | None = None) -> Action:
        i = self._check(i)
        if i < self.first_layoff:
            return super().action(i)
        mode, cards = self._layoff_keys[i - self.first_layoff]
        table = self._table(context)
        low = cards & -cards
        if mode == GROUP:
            column = COLUMN[(low.bit_length() - 1) % 13]
            fits = [is_group(m) and m & column != 0 for m in table]
        elif mode == ABOVE:
            fits = [not is_group(m) and m.bit_length() == low.bit_length() - 1 for m in table]
        else:  # below, or both ends: the run starts just above the (lower) block
            lower = (cards ^ (cards + low)) & cards
            fits = [not is_group(m) and (m & -m) == 1 << lower.bit_length() for m in table]
        if True not in fits:
            raise IllegalAction(f"no meld on the table takes {self._names[i][7:]}")
        return action(LAYOFF, cards, fits.index(True))


class RummyEncoding:
    """Rummy's table for :class:`~parlour.encoding.Encoder`."""

    def __init__(self, game: RummyGame) -> None:
        n = self.players = game.players
        rel = relative_names(n)
        self.card_blocks: Sequence[tuple[str, bool]] = [("hand", False), ("table", False),
                            *((f"placed:{r}", False) for r in rel),
                            *((f"taken:{r}", False) for r in rel),
                            *((f"discarded:{r}", True) for r in rel),
                            ("pile", False), ("pile_top", False), ("drawn", False),
                            ("extends", True)]
        scalars = [f"phase:{p}" for p in PHASES]
        scalars += [f"{name}:{r}" for name in ("to_move", "cards_left", "score")
                         for r in rel]
        scalars += ["stock", "pile", "turn"] + [f"went_out:{r}" for r in rel]
        self.scalars: Sequence[str] = scalars
        self._turn_limit = float(game.options.turn_limit)
        self._discarded = HistoryFold(_discards_by_seat, n)
        self._orders = [[(me + i) % n for i in range(n)] for me in range(n)]
        # What lays off on each meld met so far (melds of a deal recur at every step).
        self._extends_of: dict[int, int] = {}

    def raw(self, obs: RummyObservation) -> tuple[list[int], list[float]]:
        n = self.players
        me = obs.seat
        discarded = self._discarded(obs.history)
        order = self._orders[me]
        table = extends = 0
        known = self._extends_of
        for m in obs.melds:
            table |= m
            e = known.get(m)
            if e is None:
                e = known[m] = _extends(rummy_mask(m))
            extends |= e
        pile = sum(map((1).__lshift__, obs.discard))  # distinct cards: the sum is their union
        placed, taken = obs.placed, obs.taken
        # Plain ints: numpy converts int subclasses (card sets) at half the speed.
        masks = [int(obs.hand), table, *(int(placed[p]) for p in order),
                 *(int(taken[p]) for p in order),
                 *(discarded[p] >> KIND_BITS & FULL for p in order), pile,
                 1 << obs.discard[-1] if obs.discard else 0,
                 1 << obs.drawn if obs.drawn is not None else 0, extends]
        s = [0.0] * len(self.scalars)
        s[PHASES.index(obs.phase)] = 1.0
        if obs.current_player >= 0:
            s[3 + (obs.current_player - me) % n] = 1.0
        sizes, scores = obs.hand_sizes, obs.scores
        for i, p in enumerate(order):
            s[3 + n + i] = sizes[p] / 26
            s[3 + 2 * n + i] = scores[p] / TOTAL_POINTS
        k = 3 + 3 * n
        s[k] = obs.stock_size / 52
        s[k + 1] = len(obs.discard) / 52
        s[k + 2] = min(1.0, obs.turn / self._turn_limit)
        if obs.went_out >= 0:
            s[k + 3 + (obs.went_out - me) % n] = 1.0
        return masks, s


def _discards_by_seat(discarded: list[int], history: History) -> None:
    for seat, move in history:
        if move & 7 == DISCARD:
            discarded[seat] |= move


def _extends(meld: int) -> int:
    """The cards that lay off on ``meld`` (layout masks): a group of three's missing card, or
    the card just below and just above a run (within its suit)."""
    if is_group(meld):
        return COLUMN[((meld & -meld).bit_length() - 1) % 13] & ~meld
    low = meld & -meld
    row = ROW << ((low.bit_length() - 1) // 13 * 13)
    return ((low >> 1) | (1 << meld.bit_length())) & row


def rummy_scale(game: RummyGame) -> float:
    return TOTAL_POINTS


def rummy_compiled(game: RummyGame) -> Compiled:
    """The compiled encoding, index and deals (``rust/src/rummy/encoding.rs``), reading a
    state's engine and each seat's discards (:meth:`RummyState.discards`, kept up to date as
    the deal goes on)."""
    o = game.options
    core = EnvCore.rummy(game.players, o.forbid_discard_of_drawn_discard, o.score_melds,
                         core_turn_limit(o.turn_limit), float(o.turn_limit), game.hand_size)
    return Compiled(core, attrgetter("_core"), methodcaller("discards"))


register_encoding("rummy", RummyEncoding, RummyIndex, rummy_scale, rummy_compiled)
