"""One deal of Spoil Five or Forty-Five: robbing the trump, five tricks, jinking.

The rules are played by the compiled engine (``parlour._core.TrumpEngine``, the crate's
``trump`` module in ``rust/``): hands are 52-bit masks and the trump suit selects a precomputed
power table, so legality and trick winners are a few integer operations. The variant (sides,
stopping at three tricks, jinking, scoring) comes from the :class:`DealRules` its game supplies,
as flags and a scoring table. :class:`TrumpState` is the deal's face in the protocol: move
objects in and out, notation, the reasons for refusals and observations.

>>> import parlour
>>> game = parlour.new_game("forty-five")
>>> state = game.new_deal(hands=["5S 3S 7D 8C 9H", "KS 2D 3D 4D 5D", "6S 7S 8S 9S 10S",
...                              "AS 4C 6C 8H KC"], turn_up="2S", dealer=3)
>>> state.current_player, [str(a) for a in state.legal_actions()][-2:]
(3, ['rob AS', 'keep'])
>>> state.apply("rob 4C")
>>> state.current_player, state.observation(0).hand_sizes, str(state.hand(3))
(0, (5, 5, 5, 5), 'AS 2S KC 6C 8H')
"""

from __future__ import annotations

import copy
import math
import sys
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from parlour._core import TrumpEngine, TrumpRules
from parlour.cards import CARDS, CardSet
from parlour.errors import IllegalAction
from parlour.game import TERMINAL, State
from parlour.games.trump.actions import (
    HIDDEN_ROB,
    HIDDEN_ROB_CODE,
    JINK,
    MOVES,
    SILENT,
    STOP,
    TrumpAction,
    parse_action,
)
from parlour.games.trump.ranking import ACE_OF_TRUMPS, HAND_SET

if TYPE_CHECKING:
    from parlour.games.trump.observation import TrumpObservation
    from parlour.games.trump.variants import TrumpGame

#: The phases of a deal, as the engine numbers them.
ROB_PHASE: int = 0
PLAY_PHASE: int = 1
JINK_PHASE: int = 2
OVER: int = 3
HAND_SIZE = 5
TRICKS = 5
_SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")
_FLOAT_LIMIT = int(sys.float_info.max)


@dataclass(frozen=True)
class DealRules:
    """What differs between the variants inside one deal."""

    #: ``sides[seat]``: the side a seat plays for (partners share one).
    sides: tuple[int, ...]
    #: The holder of the ace of trumps may stay silent; the ace then ranks lowest trump.
    silent_ace: bool
    #: A dealer who robs a turned ace takes it at once instead of after trick 1.
    immediate_pickup: bool
    #: The deal ends when a player takes a third trick (Spoil Five).
    stop_at_three: bool
    #: A player who takes the first three tricks may ``jink`` (play for all five) or ``stop``.
    jinking: bool
    #: Forty-Five: ``points[tricks]``, what a side scores for its tricks (0 to 5), its partners
    #: alike; ``None`` for Spoil Five, played for the pool.
    points: tuple[int, ...] | None = None
    #: Spoil Five: each player's ante; the taker of the pool wins it back with the others'.
    ante: int = 0
    #: The same rules for the compiled engine, with the move objects it hands out.
    core: TrumpRules = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        core = TrumpRules(
            moves=[MOVES.get(v) for v in range(HIDDEN_ROB_CODE + 1)],
            silent_ace=self.silent_ace, immediate_pickup=self.immediate_pickup,
            stop_at_three=self.stop_at_three, jinking=self.jinking,
            points=None if self.points is None else list(self.points), ante=self.ante,
        )
        object.__setattr__(self, "core", core)

    def __reduce__(self) -> tuple[Any, ...]:
        # Pickled (and deep-copied) as its fields; the compiled rules are made again.
        return (DealRules, (self.sides, self.silent_ace, self.immediate_pickup,
                            self.stop_at_three, self.jinking, self.points, self.ante))


# What TrumpEngine.apply returns for each refusal, in the order of its codes (-2, -3, …).
(_NOT_A_MOVE, _OVER, _NOT_HELD, _ACE_NOT_YET, _MUST_TRUMP, _MUST_FOLLOW, _ROB_FIRST,
 _ONLY_HOLDER, _DISCARD_NOT_HELD, _NAME_DISCARD, _MUST_ROB_OR_KEEP, _ROB_OR_KEEP,
 _JINK_OR_STOP, _ROBBING_OVER) = range(-2, -16, -1)


def stake(pool: int) -> float:
    """The pool as the engine scores it: a float, as the returns are; a pool past the floats
    (no real one) counts as infinite there rather than refusing the deal."""
    return float(pool) if pool < _FLOAT_LIMIT else math.inf


class TrumpState(State):
    """A deal in progress; see the module docstring for an example.

    The deal itself is kept by the compiled engine; this keeps what does not change (the deal's
    setup, the trump suit, the scores and pool before it) and the ``(seat, action)`` history.
    """

    game: TrumpGame
    #: A plain attribute here (the protocol's property of current_player), set by apply.
    is_over: bool = False

    def __init__(
        self,
        game: TrumpGame,
        rules: DealRules,
        hands: tuple[int, ...],
        turn_up: int,
        dealer: int,
        scores: tuple[int, ...],
        pool: int,
        engine: TrumpEngine | None = None,
    ) -> None:
        """``engine``: this very deal's, already made (``TrumpEngine.deal``), or None to make
        it from the hands."""
        self.game = game
        self.rules = rules
        self.n = len(hands)
        self.initial_hands = hands
        self.turn_up = turn_up
        self.trump = turn_up & 3
        self.dealer = dealer
        self.scores = scores
        self.pool = pool
        if engine is None:
            engine = TrumpEngine(rules.core, list(hands), turn_up, dealer, stake(pool))
        self._e = engine
        # (seat, action) pairs, kept by the engine (its apply adds each): observations of one
        # deal share them, which lets an encoder carry its history fold on from step to step.
        self._history: list[tuple[int, TrumpAction]] = engine.record
        self.current_player = engine.current_player
        # A plain attribute, as current_player is (both are read at every step of a simulation):
        # a deal starts with a player to move, and apply sets it when the deal ends.
        self.is_over = False

    # -- what the engine keeps --------------------------------------------------------------
    @property
    def phase(self) -> int:
        """``ROB_PHASE``, ``PLAY_PHASE``, ``JINK_PHASE`` or ``OVER``."""
        return self._e.phase

    @property
    def leader(self) -> int:
        """The seat that leads (or led) the trick in progress."""
        return self._e.leader

    @property
    def robber(self) -> int:
        """The seat that robbed the trump, or -1."""
        return self._e.robber

    @property
    def discard(self) -> int:
        """The robber's discard, or -1."""
        return self._e.discard

    @property
    def keeper(self) -> int:
        """The seat that kept the ace of trumps and announced it, or -1."""
        return self._e.keeper

    @property
    def pending_ace(self) -> bool:
        """A dealer's robbed turned ace waits to join the hand after trick 1."""
        return self._e.pending_ace

    @property
    def demoted(self) -> int:
        """The ace of trumps once it ranks lowest trump (nobody robbed or announced), or -1."""
        return ACE_OF_TRUMPS[self.trump] if self._e.demoted else -1

    @property
    def jinker(self) -> int:
        """The seat that jinked, or -1."""
        return self._e.jinker

    @property
    def taker(self) -> int:
        """The seat that takes the pool (Spoil Five); -1 for a spoil or while the deal goes."""
        return self._e.taker

    # -- protocol ---------------------------------------------------------------------------
    @property
    def history(self) -> list[tuple[int, TrumpAction]]:  # type: ignore[override]
        return list(self._history)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks taken so far by each seat."""
        return self._e.tricks_won()

    def card_set(self, mask: int) -> CardSet:
        """``mask`` as a card set listed as a player holds it in this deal: trumps first,
        highest first, then the plain suits (once the ace of trumps is demoted, it comes last
        of the trumps)."""
        return HAND_SET[self._e.demoted][self.trump](mask)

    def hand(self, seat: int) -> CardSet:
        """The cards ``seat`` holds now (a robbed turned ace waiting for trick 1 is not yet
        among them)."""
        return self.card_set(self._e.hands()[self.check_seat(seat)])

    def parse_action(self, text: str) -> TrumpAction:
        """``text`` as a move of this game: the family's notation, less the words of options
        this game does not have (``jink`` without jinking, ``silent`` without the silent ace).

        >>> import parlour
        >>> parlour.new_game("forty-five").new_deal(seed=1).parse_action("jink")
        Traceback (most recent call last):
        ...
        parlour.errors.IllegalAction: forty-five has no jink (jinking is off)
        """
        action = parse_action(text)
        if action in (JINK, STOP) and not self.rules.jinking:
            raise IllegalAction(f"{self.game.name} has no {action} (jinking is off)")
        if action is SILENT and not self.rules.silent_ace:
            raise IllegalAction(f"{self.game.name} has no {action} (the silent ace is off)")
        return action

    def play_mask(self) -> int:
        """The cards the player to move may play (phase: play)."""
        return self._e.play_mask()

    def legal_actions(self) -> list[TrumpAction]:  # type: ignore[override]
        return self._e.legal_actions()

    def apply(self, action: TrumpAction | str) -> None:  # type: ignore[override]
        # Anything but this game's own action type (text, a float, another game's action) is
        # parsed or refused off the fast path. The engine adds the (seat, shared move object)
        # pair to the history itself.
        if action.__class__ is not TrumpAction:
            action = self.coerce_action(action)  # type: ignore[assignment]
        moved = self._e.apply(action)  # type: ignore[arg-type]
        if moved < 0:
            if moved < TERMINAL:
                raise IllegalAction(self._refusal(moved, int(action)))
            self.is_over = True
        self.current_player = moved

    def returns(self) -> list[float]:
        return self._e.returns()

    def winners(self) -> list[int]:
        if self.current_player != TERMINAL:
            return []
        if self.rules.stop_at_three:
            taker = self._e.taker
            return [] if taker < 0 else [taker]
        return super().winners()

    def clone(self) -> TrumpState:
        other = object.__new__(TrumpState)
        other.__dict__.update(self.__dict__)
        other._e = self._e.clone()
        other._history = other._e.record
        return other

    def __deepcopy__(self, memo: dict[int, Any]) -> TrumpState:
        other = object.__new__(TrumpState)
        memo[id(self)] = other
        for key, value in self.__dict__.items():
            if key not in ("_e", "_history"):
                other.__dict__[key] = copy.deepcopy(value, memo)
        other._e = self._e.clone()
        other._history = other._e.record  # the copied engine's own
        return other

    def setup(self) -> dict[str, Any]:
        return {
            "hands": [str(self.card_set(h)) for h in self.initial_hands],
            "turn_up": str(CARDS[self.turn_up]),
            "dealer": self.dealer,
            "scores": list(self.scores),
            "pool": self.pool,
        }

    def zones(self) -> dict[str, CardSet]:
        card_set = self.card_set
        out = {f"P{s}": card_set(h) for s, h in enumerate(self._e.hands())}
        played, turn_up, discards, stock = self._e.zones()
        out["played"] = card_set(played)
        out["turn_up"] = card_set(turn_up)
        out["discards"] = card_set(discards)
        out["stock"] = card_set(stock)
        return out

    def hidden_from(self, seat: int) -> CardSet:
        """Other hands, the pack under the turn-up and other seats' discards; the turn-up is
        public wherever it goes."""
        return self.card_set(self._e.hidden_from(self.check_seat(seat)))

    def public_history(self, seat: int) -> tuple[tuple[int, TrumpAction], ...]:
        """The history as ``seat`` sees it: other seats' discards are hidden."""
        return self._public_history(self.check_seat(seat), self._e.observe(seat)[-1])

    def _public_history(self, seat: int, hidden: int) -> tuple[tuple[int, TrumpAction], ...]:
        """The history with the rob at position ``hidden`` (-1: none) shown without its
        discard."""
        history = self._history
        if hidden < 0:
            # The state's own pairs where nothing is hidden: observations of one deal then
            # share them, which lets an encoder carry its history fold on from step to step.
            return tuple(history)
        return (*history[:hidden], (history[hidden][0], HIDDEN_ROB), *history[hidden + 1:])

    def observation(self, seat: int) -> TrumpObservation:
        if seat.__class__ is not int or not 0 <= seat < self.n:  # the check off the bots' path
            seat = self.check_seat(seat)
        # The game knows the observation's module: the engine imports none.
        return self.game.observe(self, seat)

    # -- messages ---------------------------------------------------------------------------
    def _refusal(self, code: int, v: int) -> str:
        """The reason for a refusal code of ``TrumpEngine.apply`` of move value ``v``."""
        if code == _NOT_A_MOVE:
            # A TrumpAction made by hand from a value the game never uses: no text to show.
            return (f"TrumpAction value {v} is not an action of {self.game.name}: apply one "
                    "of state.legal_actions() or its text")
        text = str(MOVES[v])
        if code == _OVER:
            return "the deal is over"
        if code == _NOT_HELD:
            return f"{text} is not in your hand"
        if code == _ACE_NOT_YET:
            return f"{text} is not playable yet: the robbed ace joins your hand after trick 1"
        if code == _MUST_TRUMP:
            led = self._e.trick()[0]
            return (
                f"{text} is not allowed: a trump ({CARDS[led]}) was led and you hold a trump "
                "you must play (only the five, the jack of trumps and the ace of hearts may be "
                "held back, and only against a lower trump led)"
            )
        if code == _MUST_FOLLOW:
            suit = _SUIT_WORDS[self._e.trick()[0] & 3]
            return (
                f"{text} is not allowed: {suit} were led and you hold a card of {suit}; "
                "follow suit or trump"
            )
        if code == _ROB_FIRST:
            return (f"{text} is not allowed yet: the robbing of the trump comes before the "
                    "opening lead")
        if code == _ONLY_HOLDER:
            return (f"{text} is not allowed: only the holder of the ace of trumps may rob; "
                    "say 'silent'")
        if code == _DISCARD_NOT_HELD:
            return f"{text} is not allowed: you can only discard a card from your hand"
        if code == _NAME_DISCARD:
            return "say which card to discard face down, e.g. 'rob 4D'"
        if code == _MUST_ROB_OR_KEEP:
            return "you must rob ('rob' and a card to discard) or 'keep' and announce the ace"
        if code == _ROB_OR_KEEP:
            return f"{text} is not allowed now: rob the trump ('rob 4D') or 'keep'"
        if code == _JINK_OR_STOP:
            return f"{text} is not allowed: you have won the first three tricks; 'jink' or 'stop'"
        return f"{text} is not allowed: the robbing of the trump is over; play a card"

