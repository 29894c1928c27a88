"""Observation encodings and action indexes: what the networks of the bots
(:mod:`parlour.bots.learned`) and the environments (:mod:`parlour.envs`) read a game through.

Below both, importable with numpy alone (no gymnasium, no pettingzoo). Two
factories, each generic over the game protocol; what differs per family is a table of data in
the family's own ``parlour/games/<family>/encoding.py``, which registers it with
:func:`register_encoding` and is named by its variants' ``Variant.encoding`` (imported when a
game of the family is first encoded or indexed).

``encoder(game)`` → :class:`Encoder`

- ``.size``: the length of every encoding;
- ``.feature_names()``: a name for every entry (``"hand:3D"``, ``"played:+1:2S"``,
  ``"to_move:self"``, ``"table_kind:5-card flush"`` …);
- ``.encode(observation, out=None) -> np.ndarray``: ``float32``, shape ``(size,)``, every entry
  in ``[-1, 1]``; written into ``out`` when given;
- ``.encode_batch(observations, out=None)``: shape ``(len(observations), size)``, one numpy
  pass for the whole batch;
- ``.raw(observation)`` and ``.encode_raw(raws, out=None)``: the two halves of ``encode_batch``
  (the family's Python pass over one observation; the numpy pass over many), for callers that
  gather a batch as they go.

``compiled(game)`` → :class:`Compiled` (``None`` for a family without compiled parts): the same
encoding and index computed in the compiled core from a Python state's own deal, with no
observation made (``encode_state(state, seat)``, ``legal(state)``); the environments run on
it. The tests replay every position of the differential traces through both and require the
same bytes.

An encoding is built from ``state.observation(seat)`` alone, so no card hidden from the seat
can influence it. It is a run of *card blocks* (52 entries each: entry ``k`` is 1 when the
``k``-th card of ``game.card_order()`` is in the set — lowest first in the climbing games, ace
low by suit in rummy, ``2C 2D 2H 2S 3C …`` in the trump games) followed by *scalars*. Seats
are relative to the observing seat: ``self``, ``+1`` (the next seat in turn order), ``+2`` …

``action_index(game)`` → :class:`ActionIndex`

- ``.size``: the number of actions in the game's fixed action space;
- ``.index(action, context=None) -> int`` and ``.action(i, context=None) -> Action``, inverse
  to each other for every action the engine can produce;
- ``.mask(legal_actions, context=None) -> np.ndarray``: ``int8``, shape ``(size,)``, 1 at the
  index of each legal action; ``.indices(legal_actions, context=None)`` lists those indexes;
- ``.names()``: a text for every index (``"pass"``, ``"3D 3S"``, ``"rob 4D"``,
  ``"layoff 7C below a run"`` …).

``context`` is the observation (or state) the action is taken in. Only Rummy lay-offs need
it: their index says which cards go on which side of which kind of meld, and the context says
which table meld that is. Everything else is indexed by the action alone.

>>> import parlour
>>> game = parlour.new_game("big-two-4card")
>>> state = game.new_deal(seed=1)
>>> enc, idx = encoder(game), action_index(game)
>>> x = enc.encode(state.observation(state.current_player))
>>> x.shape == (enc.size,), x.dtype.name, len(enc.feature_names()) == enc.size
(True, 'float32', True)
>>> legal = state.legal_actions()
>>> [idx.action(idx.index(a)) for a in legal] == legal, int(idx.mask(legal).sum()) == len(legal)
(True, True)
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Sequence
from typing import Any, Protocol

import numpy as np
import numpy.typing as npt

from parlour._core import EnvCore
from parlour.cards import CARDS
from parlour.errors import IllegalAction, ParlourError, VariantError
from parlour.game import Action, Game, Observation, State
from parlour.registry import Variant, variants

FloatArray = npt.NDArray[np.float32]
_U64 = np.dtype("<u8")  # card masks, little-endian so that their bytes unpack low bit first
MaskArray = npt.NDArray[np.int8]


def relative_names(players: int) -> list[str]:
    """Names of the seats relative to the observing one: ``self``, ``+1``, ``+2`` …

    >>> relative_names(3)
    ['self', '+1', '+2']
    """
    return ["self"] + [f"+{i}" for i in range(1, players)]


History = Sequence[tuple[int, Action]]


class HistoryFold:
    """Per-seat values folded over an observation's history, carried on from the last fold of
    the same deal.

    ``fold(values, actions)`` adds ``actions`` (``(seat, action)`` pairs) to ``values`` (a list
    of ``size`` ints, all 0 at the start of a deal); calling the ``HistoryFold`` with a history
    returns the values after all of it. An environment encodes one deal's observations step
    after step, each history the previous one plus an action or a few (a Rummy deal runs to
    hundreds): rather than read the whole history again, it starts from the fold of the longest
    earlier history it finds that is a prefix of this one. Engines keep a deal's
    ``(seat, action)`` pairs for the whole deal, so the pair objects find it (by identity), and a
    carried fold is used only if its history equals this one's start, so the result is exactly
    that of a fold over the whole history. The returned list is shared: do not change it.

    >>> def played(values, actions):
    ...     for seat, card in actions:
    ...         values[seat] |= 1 << card
    >>> fold = HistoryFold(played, 2)
    >>> history = ((0, 3), (1, 5))
    >>> fold(history), fold(history + ((0, 1),))
    ([8, 32], [10, 32])
    """

    #: How many actions back a carried fold is looked for, and how many folds are kept.
    REACH = 12  # a seat observing once a round of up to 11 other seats still carries on
    LIMIT = 1024
    #: Histories this short are read whole.
    SHORT = 24

    def __init__(self, fold: Callable[[list[int], History], None], size: int) -> None:
        self._fold = fold
        self._zeros = [0] * size
        # id of a history's last pair -> (that history, its fold); the history is held, so the
        # pair lives and its id cannot be reused while the entry stands.
        self._memo: dict[int, tuple[History, list[int]]] = {}

    def __call__(self, history: History) -> list[int]:
        memo = self._memo
        k = len(history)
        if k <= self.SHORT:  # cheaper to read again than to look up
            values = self._zeros[:]
            self._fold(values, history)
            return values
        for back in range(1, min(k, self.REACH) + 1):
            found = memo.get(id(history[k - back]))
            if found is None:
                continue
            past, values = found
            j = len(past)
            if j == k:
                if history == past:
                    return values
                continue
            if j != k - back + 1 or history[:j] != past:
                continue
            memo.pop(id(history[j - 1]), None)  # the deal has moved on
            values = values[:]
            self._fold(values, history[j:])
            break
        else:
            values = self._zeros[:]
            self._fold(values, history)
            if len(memo) >= self.LIMIT:
                memo.clear()
        memo[id(history[-1])] = (history, values)
        return values


class FamilyEncoding(Protocol):
    """What a family supplies for its observation encoding (see ``games/climbing/encoding.py``).

    ``raw(observation)`` returns the card masks, one per card block, and the scalars, in the
    order of ``card_blocks`` and ``scalars``. A block whose ``in_game_order`` flag is false is
    a plain card-index mask (a :class:`~parlour.cards.CardSet`'s value); one whose flag is true
    is already in the game's card order (bit ``k`` = ``game.card_order()[k]``), as the climbing
    and rummy engines pack their actions.
    """

    card_blocks: Sequence[tuple[str, bool]]
    scalars: Sequence[str]

    def raw(self, observation: Any) -> tuple[list[int], list[float]]: ...


class Encoder:
    """A fixed-length ``float32`` encoding of a family's observations (module docstring)."""

    def __init__(self, game: Game, family: FamilyEncoding) -> None:
        self.game = game
        self._family = family
        #: The family's ``raw(observation)``: the card masks and scalars that ``encode_raw``
        #: stacks (for callers that gather a batch themselves).
        self.raw = family.raw
        order = list(game.card_order())
        blocks = family.card_blocks
        self.card_entries = 52 * len(blocks)
        self.size = self.card_entries + len(family.scalars)
        # One gather from the unpacked 64-bit masks to the game's card order: entry k of block b
        # reads bit order[k] of a card-index mask, or bit k of a mask already in game order.
        self._gather = np.array(
            [64 * b + (k if in_order else order[k]) for b, (_, in_order) in enumerate(blocks)
             for k in range(52)], dtype=np.intp)
        self._names = [f"{name}:{CARDS[order[k]]}" for name, _ in blocks for k in range(52)]
        self._names.extend(family.scalars)

    def feature_names(self) -> list[str]:
        """A name for every entry: ``"<block>:<card>"`` for card blocks, then the scalars."""
        return list(self._names)

    def block(self, prefix: str, size: int) -> int:
        """Where the run of ``size`` entries named ``prefix…`` starts, or a
        :class:`~parlour.errors.ParlourError` if there is none (for readers of the encoding by
        name, such as the learned network's features).

        >>> import parlour
        >>> enc = encoder(parlour.new_game("rummy"))
        >>> enc.block("pile_top:", 52), enc.block("to_move:", 2)
        (468, 627)
        >>> enc.block("trick:", 52)
        Traceback (most recent call last):
        ...
        parlour.errors.ParlourError: the rummy encoding has no block 'trick:' of 52 entries
        """
        names = self._names
        at = next((i for i, n in enumerate(names) if n.startswith(prefix)), -1)
        if at < 0 or not all(n.startswith(prefix) for n in names[at:at + size]):
            raise ParlourError(f"the {self.game.name} encoding has no block {prefix!r} of "
                               f"{size} entries")
        return at

    def encode(self, observation: Observation, out: FloatArray | None = None) -> FloatArray:
        """The encoding of one observation (``float32``, shape ``(size,)``)."""
        masks, scalars = self.raw(observation)
        if out is None:
            out = np.empty(self.size, dtype=np.float32)
        bits = np.unpackbits(np.array(masks, _U64).view(np.uint8), bitorder="little")
        n = self.card_entries
        out[:n] = bits.take(self._gather)
        out[n:] = scalars
        return out

    def encode_batch(self, observations: Sequence[Observation],
                     out: FloatArray | None = None) -> FloatArray:
        """The encodings of several observations, stacked (shape ``(len, size)``)."""
        raws = [self.raw(o) for o in observations]
        return self.encode_raw(raws, out)

    def encode_raw(self, raws: Sequence[tuple[list[int], list[float]]],
                   out: FloatArray | None = None) -> FloatArray:
        """Stack family ``raw`` results into encodings: one numpy pass for the whole batch."""
        rows = len(raws)
        if out is None:
            out = np.empty((rows, self.size), dtype=np.float32)
        if not rows:
            return out
        masks = np.array([r[0] for r in raws], _U64)
        bits = np.unpackbits(masks.view(np.uint8), axis=1, bitorder="little")
        n = self.card_entries
        out[:, :n] = bits[:, self._gather]
        out[:, n:] = [r[1] for r in raws]
        return out


class ActionIndex:
    """A fixed, documented index for every action a game's engine can produce.

    The base class indexes actions by their value alone (climbing plays, trump moves and most
    Rummy moves); ``names`` says what each index is. Families with actions whose index depends
    on the table override :meth:`index` and :meth:`action` (Rummy lay-offs).
    """

    def __init__(self, game: Game, actions: Sequence[Action | None], names: Sequence[str],
                 action_type: type[Action], keys: Sequence[int] | None = None) -> None:
        self.game = game
        self.size = len(names)
        self._names = list(names)
        self._actions = list(actions)
        self._type = action_type
        if keys is None:
            keys = [int(a) for a in actions if a is not None]
        self._index: dict[int, int] = {k: i for i, k in enumerate(keys)}
        self._lookup: Callable[[int], int | None] = self._index.get
        # Engines hand out shared action objects (made once per ruleset), so most actions are
        # found by identity alone: an object in this table is of the right type and value.
        self._by_id: Callable[[int], int | None] = {
            id(a): i for i, a in enumerate(actions) if a is not None}.get

    def names(self) -> list[str]:
        """What each index stands for."""
        return list(self._names)

    def _refuse(self, action: object) -> IllegalAction:
        return IllegalAction(f"{action!r} is not an action of {self.game.name}: index actions "
                             "from state.legal_actions()")

    def index(self, action: Action, context: Observation | State | None = None) -> int:
        """The index of ``action`` (an action of this game)."""
        i = self._by_id(id(action))
        if i is None:
            i = self._lookup(action) if action.__class__ is self._type else None
            if i is None:
                raise self._refuse(action)
        return i

    def indices(self, legal: Sequence[Action],
                context: Observation | State | None = None) -> list[int]:
        """The index of each action of ``legal``, in order."""
        out = list(map(self._by_id, map(id, legal)))
        if None in out:
            return [self.index(a, context) for a in legal]  # names any action refused
        return out  # type: ignore[return-value]

    def action(self, i: int, context: Observation | State | None = None) -> Action:
        """The action at index ``i``."""
        a = (self._actions[i] if i.__class__ is int and 0 <= i < self.size
             else self._actions[self._check(i)])
        if a is None:
            raise IllegalAction(f"action {i} ({self._names[i]}) needs the observation it is "
                                "taken in: action_index.action(i, observation)")
        return a

    def _check(self, i: object) -> int:
        if isinstance(i, (int, np.integer)) and not isinstance(i, bool) and 0 <= i < self.size:
            return int(i)
        raise IllegalAction(f"{i!r} is not an action index of {self.game.name}: "
                            f"the indices are 0 to {self.size - 1}")

    def mask(self, legal: Sequence[Action],
             context: Observation | State | None = None) -> MaskArray:
        """``int8`` of shape ``(size,)``: 1 at the index of each action of ``legal``."""
        m = np.zeros(self.size, dtype=np.int8)
        m.put(self.indices(legal, context), 1)
        return m


class Compiled:
    """A game's compiled encoder, action index and deals (:class:`parlour._core.EnvCore`, the
    crate's ``env`` module and each family's ``encoding.rs``), and how to reach the deal a
    Python state keeps.

    The compiled encoder gives exactly the encoding of :class:`Encoder` (the tests replay the
    fixtures recorded from it) without making an observation: it reads the state's compiled
    deal, and only what ``seat`` may see there. The environments use it; :class:`Encoder`
    stays the reference, for observations made anywhere.

    ``engine(state)`` is the compiled deal of a Python state of the game (its engine object);
    ``extra(state)`` what the encoding needs that the Python state keeps beside it (``None``
    when nothing).
    """

    def __init__(self, core: EnvCore, engine: Callable[[Any], object],
                 extra: Callable[[Any], object] | None = None) -> None:
        self.core = core
        self.size: int = core.size
        self.engine = engine
        self.extra = extra

    def encode_state(self, state: State, seat: int, out: FloatArray | None = None) -> FloatArray:
        """``encoder(game).encode(state.observation(seat))``, from the compiled deal."""
        if out is None:
            out = np.empty(self.size, dtype=np.float32)
        extra = self.extra
        self.core.encode(self.engine(state), seat, out, None if extra is None else extra(state))
        return out

    def legal(self, state: State) -> list[int]:
        """``action_index(game).indices(state.legal_actions(), state)``, from the compiled
        deal."""
        return self.core.legal(self.engine(state))

    def legal_mask(self, state: State, mask: MaskArray) -> int:
        """Sets ``mask`` to 1 at the index of each legal action of ``state`` (a zeroed ``int8``
        array of the action space's size); the number of legal actions."""
        return self.core.legal_mask(self.engine(state), mask)


# -- the families' tables, registered by family name -------------------------------------------

_ENCODINGS: dict[str, Callable[[Any], FamilyEncoding]] = {}
_INDEXES: dict[str, Callable[[Any], ActionIndex]] = {}
_SCALES: dict[str, Callable[[Any], float]] = {}
_COMPILED: dict[str, Callable[[Any], Compiled]] = {}
_ENCODER_CACHE: dict[Game, Encoder] = {}
_INDEX_CACHE: dict[Game, ActionIndex] = {}
_COMPILED_CACHE: dict[Game, Compiled] = {}


def register_encoding(family: str, encoding: Callable[[Any], FamilyEncoding],
                    index: Callable[[Any], ActionIndex],
                    reward_scale: Callable[[Any], float],
                    compiled: Callable[[Any], Compiled] | None = None) -> None:
    """Make ``family`` (a ``Variant.family``) encodable and indexable; ``reward_scale(game)``
    is the largest absolute return of one deal (what normalised rewards divide by);
    ``compiled(game)``, the game's compiled parts (:class:`Compiled`), if the family has
    them."""
    _ENCODINGS[family] = encoding
    _INDEXES[family] = index
    _SCALES[family] = reward_scale
    if compiled is not None:
        _COMPILED[family] = compiled


def _load_encoding(variant: Variant) -> None:
    """Import the module that registers ``variant``'s family (``Variant.encoding``), if any."""
    if variant.encoding:
        importlib.import_module(variant.encoding)


def _family(game: Game) -> str:
    family = game.variant.family
    if family not in _ENCODINGS:
        _load_encoding(game.variant)
    if family not in _ENCODINGS:
        for variant in variants():  # every encoded family, for the message
            _load_encoding(variant)
        raise VariantError(f"{game.name} ({family or 'no'} family) has no encoding; the encoded "
                           f"families are {', '.join(sorted(_ENCODINGS))}")
    return family


def encoder(game: Game) -> Encoder:
    """The observation encoder of ``game`` (shared: one per ruleset)."""
    enc = _ENCODER_CACHE.get(game)
    if enc is None:
        enc = _ENCODER_CACHE[game] = Encoder(game, _ENCODINGS[_family(game)](game))
    return enc


def action_index(game: Game) -> ActionIndex:
    """The action index of ``game`` (shared: one per ruleset)."""
    idx = _INDEX_CACHE.get(game)
    if idx is None:
        idx = _INDEX_CACHE[game] = _INDEXES[_family(game)](game)
    return idx


def compiled(game: Game) -> Compiled | None:
    """The compiled encoder, index and deals of ``game`` (shared: one per ruleset), or
    ``None`` for a family without them."""
    found = _COMPILED_CACHE.get(game)
    if found is None:
        make = _COMPILED.get(_family(game))
        if make is None:
            return None
        found = _COMPILED_CACHE[game] = make(game)
    return found


def reward_scale(game: Game) -> float:
    """The largest absolute return of one deal of ``game``: normalised rewards divide by it, so
    they lie in ``[-1, 1]``.

    >>> import parlour
    >>> reward_scale(parlour.new_game("big-two-4card")), reward_scale(parlour.new_game("pusoy-dos"))
    (39.0, 3.0)
    """
    return _SCALES[_family(game)](game)
