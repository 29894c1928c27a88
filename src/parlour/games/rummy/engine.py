"""The rummy deal in progress: draw, meld and lay off, discard; stock rebuilds; scoring.

>>> import parlour
>>> state = parlour.new_game("rummy").new_deal(seed=5)
>>> [str(a) for a in state.legal_actions()]
['draw stock', 'draw discard']
>>> state.apply("draw stock")
>>> str(state.legal_actions()[-1]).startswith("discard")
True
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from parlour._core import RummyCore, shuffle
from parlour.cards import CardSet
from parlour.errors import IllegalAction
from parlour.game import TERMINAL, Action, State
from parlour.games.rummy.actions import (
    DISCARD,
    TARGET_SHIFT,
    RummyAction,
    parse_action,
)
from parlour.games.rummy.melds import TO_CARD, card_set, text_of, why_not_meld

if TYPE_CHECKING:
    from parlour.games.rummy.game import RummyGame
    from parlour.games.rummy.observation import RummyObservation

_SEED_STEP = 0x9E3779B97F4A7C15
_PHASES = ("draw", "play", "over")
# What RummyCore.apply returns for a move after which the stock must be rebuilt; a refusal is
# minus its code times 2**56 plus its cards.
_REBUILD = -2
_LOW = (1 << 56) - 1


def core_turn_limit(limit: int) -> int:
    """The turn limit as the core keeps it (a limit past 2**64 turns is never reached)."""
    return min(limit, (1 << 64) - 1)


class RummyState(State):
    """One rummy deal: the cards and the rules are kept by the compiled core
    (``parlour._core.RummyCore``, cards as rummy-layout masks, see :mod:`.melds`); this object
    keeps the public record (the actions, the discard draws, the stock rebuilds, and a
    position's past) and hands out card sets and action objects.

    >>> import parlour
    >>> s = parlour.new_game("rummy").new_deal(hands=["5H 6H 7H", "2C 3D 4S"], stock="9C KD ...",
    ...                                          discard="9D KC")
    >>> s.apply("draw stock"); s.apply("meld 5h 6h 7h"); s.apply("discard 9c")
    >>> s.is_over, s.returns()
    (True, [15.0, -15.0])
    """

    game: RummyGame
    _core: RummyCore
    #: A plain attribute here (the protocol's property of current_player), set by apply.
    is_over: bool = False

    def __init__(self, game: RummyGame, core: RummyCore, seed: int) -> None:
        self.game = game
        self._core = core
        self.current_player = core.current_player
        # Read at every step of a simulation, as current_player is: kept with it.
        self.is_over = self.current_player == TERMINAL
        self._seed = seed
        # The public record before this position (a position given with its past, such as a
        # sampled state): shown in observations, never replayed.
        self._past: tuple[tuple[int, Action], ...] = ()
        # The card each discard draw took (the core adds them, as it adds the (seat, action)
        # pairs to the history), and the number of actions played (the past included) at each
        # stock rebuild; the rebuild count also seeds the next shuffle.
        self._discard_draws: list[int] = core.discard_draws
        self._rebuilds: list[int] = []
        self._history: list[tuple[int, RummyAction]] = core.record
        # What every seat sees alike, as observation fields, made again only when an action was
        # played since (the history only grows, so its length tells).
        self._shared: tuple[int, Mapping[str, Any]] = (-1, MappingProxyType({}))
        # The past :meth:`discards` read, how many actions of the history after it, and each
        # seat's discards in them.
        self._discards: tuple[tuple[tuple[int, Action], ...], int, list[int]] = (
            (), 0, [0] * game.players)
        self._setup: dict[str, Any] = {}
        # A sampled state's setup is its position with the whole public record: written out
        # only when asked for, from this untouched copy of the state as it began.
        self._start: RummyState | None = None

    # -- the protocol --------------------------------------------------------------------------
    @property
    def history(self) -> list[tuple[int, Action]]:
        return list(self._history)

    def setup(self) -> dict[str, Any]:
        if self._start is not None:
            return self._start.position()
        return copy.deepcopy(self._setup)

    def parse_action(self, text: str) -> RummyAction:
        return parse_action(text)

    def public_record(self) -> tuple[tuple[int, Action], ...]:
        """Every ``(seat, action)`` of the deal as every seat saw it, those before a composed
        start first: one new tuple of the shared pairs, much cheaper than :meth:`shared_view`
        for a reader that needs the record alone."""
        return self._past + tuple(self._history)

    def shared_view(self) -> Mapping[str, Any]:
        """The observation fields every seat sees alike (all but ``seat``, ``hand`` and
        ``drawn``), made once per position: observations of it share these immutable values."""
        played, shared = self._shared
        if played != len(self._history):
            (current, sizes, phase, melds, placed, pile, taken, scores, stock_size, turn,
             went_out, shown) = self._core.public_view()
            shared = MappingProxyType({
                "game": self.game,
                "current_player": current,
                "hand_sizes": tuple(sizes),
                "phase": _PHASES[phase],
                # map() rather than generators: the pile and the discard draws grow long, and
                # an environment asks for an observation every step.
                "melds": tuple(map(card_set, melds)),
                "placed": tuple(map(card_set, placed)),
                "discard": tuple(map(TO_CARD.__getitem__, pile)),
                "taken": tuple(map(card_set, taken)),
                "scores": tuple(scores),
                "stock_size": stock_size,
                "turn": turn,
                "went_out": went_out,
                "history": self.public_record(),
                "discard_draws": tuple(map(TO_CARD.__getitem__, self._discard_draws)),
                "rebuilds": tuple(self._rebuilds),
                "shown": tuple(map(card_set, shown)),
            })
            self._shared = (len(self._history), shared)
        return shared

    def clone(self) -> RummyState:
        c = RummyState.__new__(RummyState)
        c.__dict__.update(self.__dict__)
        c._core = self._core.copy()
        c._discard_draws = c._core.discard_draws
        c._rebuilds = self._rebuilds[:]
        c._history = c._core.record
        return c

    def returns(self) -> list[float]:
        final = self._core.returns()
        if final is None:
            return [0.0] * self.game.players
        return [float(v) for v in final]

    def winners(self) -> list[int]:
        final = self._core.returns()
        if final is None:
            return []
        return self.game.best_scores([float(v) for v in final], self._core.went_out)

    def observation(self, seat: int) -> RummyObservation:
        # The game knows the observation's module: the engine imports none.
        return self.game.observe(self, self.check_seat(seat))

    def zones(self) -> dict[str, CardSet]:
        hands, stock, pile, table = self._core.zones()
        out = {f"P{i}": card_set(h) for i, h in enumerate(hands)}
        out["stock"] = card_set(stock)
        out["discards"] = card_set(pile)
        out["melds"] = card_set(table)
        return out

    def hidden_from(self, seat: int) -> CardSet:
        """The stock and the other hands, less what everyone has seen: cards taken from the
        discard pile, and every card a discard in the public record named (one shuffled back into
        the stock, and perhaps drawn again, is hidden in where it is, not in what it is: the
        history still names it). Once the deal is over every hand is laid face up."""
        hidden = self._core.hidden_from(self.check_seat(seat))
        return card_set(hidden & ~self._discarded())

    def discards(self) -> list[int]:
        """Each seat's discards of the public record so far (rummy-layout masks; a composed
        position's past included), brought up to date from where the last call left off: the
        history only grows, so a call reads only the actions since. Do not change the list.

        >>> import parlour
        >>> s = parlour.new_game("rummy").new_deal(hands=["5H 6H KS", "2C 3D 4S"],
        ...                                        stock="KD 8C ...", discard="7H")
        >>> for move in ("draw stock", "discard KS", "draw stock", "discard 2C"):
        ...     s.apply(move)
        >>> [str(card_set(m)) for m in s.discards()]
        ['KS', '2C']
        """
        past, done, masks = self._discards
        if past is not self._past:  # a position given with its past after it was made
            past, done, masks = self._past, 0, [0] * self.game.players
            for seat, a in past:
                if a.kind == DISCARD:  # type: ignore[attr-defined]
                    masks[seat] |= a.cards  # type: ignore[attr-defined]
        record = self._history
        if done < len(record):
            masks = masks[:]  # a clone may share the list read so far
            for seat, a in record[done:]:
                if a.kind == DISCARD:
                    masks[seat] |= a.cards
            done = len(record)
        self._discards = (past, done, masks)
        return masks

    def _discarded(self) -> int:
        """Every card the discards of the public record named."""
        mask = 0
        for seat in self.discards():
            mask |= seat
        return mask

    @property
    def blocked(self) -> bool:
        """Whether the deal ended at the turn limit with nobody out."""
        return self.current_player == TERMINAL and self._core.went_out < 0

    @property
    def went_out(self) -> int:
        """The seat that went out; -1 before, or when the deal ended blocked."""
        return self._core.went_out

    # -- legal actions and applying ------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        return self._core.legal_actions()  # type: ignore[return-value]

    def apply(self, action: Action | str) -> None:
        if action.__class__ is not RummyAction:
            action = self.coerce_action(action)
        # The core records the (seat, action) pair and a discard draw's card itself.
        done = self._core.apply(action)
        if done < 0:
            done = self._settle(action, done)
        self.current_player = done

    def _settle(self, action: Action, done: int) -> int:
        """The seat to move after the core's ``apply`` of ``action`` returned ``done`` below
        0: the end of the deal, a stock to rebuild, or a refusal (raised)."""
        if done == TERMINAL:
            self.is_over = True
            return TERMINAL
        if done == _REBUILD:
            self.rebuild_stock(len(self._past) + len(self._history))
            return self._core.current_player
        raise IllegalAction(self._refusal(action, -done >> 56, -done & _LOW))

    def _refusal(self, act: Action, code: int, data: int) -> str:
        """The message of the core's refusal ``code`` (with its cards ``data``) of ``act``."""
        if code == 1:
            return f"{act} is not allowed: the deal is over"
        if code == 2:
            return f"{act} is not allowed: you have already drawn this turn"
        if code == 3:
            return (f"{int(act)} is not the value of any rummy action: apply one of "
                    "state.legal_actions() or its text")
        if code == 4:
            return ("draw stock is not allowed: the stock is empty and cannot be rebuilt "
                    "(the discard pile holds only its top card); draw discard")
        if code == 5:
            return "draw discard is not allowed: the discard pile is empty"
        if code == 6:
            return f"{act} is not allowed: a turn starts with a draw (draw stock or draw discard)"
        if code == 7:
            return f"{act} is not allowed: you do not hold {text_of(data)}"
        if code == 8:
            return f"{act} is not allowed: {why_not_meld(data)}"
        if code == 9:
            count = len(self._core.public_view()[3])
            return (f"{act} is not allowed: there is no meld {(int(act) >> TARGET_SHIFT) + 1} "
                    "on the table "
                    + (f"(melds are numbered 1 to {count})" if count else "(no melds yet)"))
        if code == 10:
            return (f"{act} is not allowed: {text_of(data)} would not be a valid meld "
                    "(melds are not rearranged)")
        if code == 11:
            return (f"{act} is not allowed: the card taken from the discard pile "
                    f"({TO_CARD[data]}) may not be discarded this turn")
        return (f"{act} is not allowed: it would leave only {TO_CARD[data]}, the card taken "
                "from the discard pile, which may not be discarded this turn")

    def rebuild_stock(self, played: int) -> None:
        """At the start of a turn with an empty stock: the discards but the top one, shuffled.

        ``played`` is how many actions of the public record precede the rebuild.
        """
        cards = list(self._core.pile()[:-1])
        if len(cards) < 1:
            return
        # As random.Random(seed).shuffle(cards), compiled.
        shuffle(self._seed + len(self._rebuilds) * _SEED_STEP, cards)
        self._core.rebuild(cards)
        self._rebuilds.append(played)

    # -- description ---------------------------------------------------------------------------
    def position(self) -> dict[str, Any]:
        """The ``new_deal`` arguments that recreate this exact position (for sampled states)."""
        hands, stock, pile, melds, placed, scores, taken, flags = self._core.parts()
        current, drawing, drawn, drawn_from_discard, turn = flags
        out: dict[str, Any] = {
            "seed": self._seed,
            "hands": [text_of(h) for h in hands],
            "stock": [str(TO_CARD[c]) for c in reversed(stock)],
            "discard": [str(TO_CARD[c]) for c in pile],
        }
        if melds:
            out["melds"] = [text_of(m) for m in melds]
        if any(placed):
            out["placed"] = [text_of(m) for m in placed]
        if any(scores):
            out["scores"] = list(scores)
        if any(taken):
            out["taken"] = [text_of(m) for m in taken]
        if current:
            out["player"] = current
        if not drawing:
            out["phase"] = "play"
        if drawn >= 0:
            out["drawn"] = str(TO_CARD[drawn])
            if not drawn_from_discard:
                out["drawn_from"] = "stock"
        if turn:
            out["turn"] = turn
        actions = self._past + tuple(self._history)
        if actions or self._discard_draws or self._rebuilds:
            out["past"] = {
                "actions": [[seat, str(a)] for seat, a in actions],
                "discard_draws": [str(TO_CARD[c]) for c in self._discard_draws],
                "rebuilds": list(self._rebuilds),
            }
        return out

    def hand_value(self, seat: int) -> int:
        """The points of the cards ``seat`` holds."""
        return self._core.hand_value(self.check_seat(seat))
