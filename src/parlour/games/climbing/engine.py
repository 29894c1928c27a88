"""One deal of a climbing game: :class:`ClimbingState`.

The rules are played by the compiled engine (``parlour._core``, the crate in ``rust/``): each
seat's valid plays are generated once per deal (sorted by packed strength) and filtered as its
cards leave; the answers to a table play are a bisected slice of that list.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, NamedTuple

from parlour._core import ClimbingEngine
from parlour.cards import CardSet, parse_cards
from parlour.errors import CardError, IllegalAction
from parlour.game import TERMINAL, Action, State, action_text
from parlour.games.climbing.combos import MASK, SIZE_SHIFT, ClimbingAction

if TYPE_CHECKING:
    from parlour.games.climbing.game import ClimbingGame
    from parlour.games.climbing.observation import ClimbingObservation


class Start(NamedTuple):
    """The position a deal starts from, cards as key-order masks (checked by ``new_deal``).

    Either the opening (``leader`` ``None``, no ``table``: the holder of the lowest card opens
    under the opening rule), a free lead by ``leader``, or a trick in progress: ``table`` (a
    packed play) made by ``table_seat``, followed by ``passes`` passes.
    """

    hands: tuple[int, ...]
    leader: int | None = None
    out: int = 0  # cards out of play from the start
    table: int = 0
    table_seat: int = -1
    passes: int = 0
    finished: tuple[int, ...] = ()  # seats already out, first place first (pusoy-dos)


class ClimbingState(State):
    """A deal of ``big-two-4card``, ``big-two`` or ``pusoy-dos``.

    The deal itself is kept by the compiled engine (:class:`parlour._core.ClimbingEngine`);
    this is its face in the protocol: action objects in and out, notation, reasons for refusals
    and observations.
    """

    game: ClimbingGame

    def __init__(self, game: ClimbingGame, start: Start) -> None:
        self.game = game
        table = game.table
        self._t = table
        self._A = table.action_type
        self._setup = start
        self._n = len(start.hands)
        self._e = ClimbingEngine(table.core, list(start.hands), start.leader, start.out,
                                 start.table, start.table_seat, start.passes,
                                 list(start.finished))
        # (seat, action) pairs, so an observation's history is one tuple() copy.
        self._history: list[tuple[int, ClimbingAction]] = []
        self._out = table.card_set(start.out)  # as observations show it
        self._start_table = table.action(start.table) if start.table else None
        self.current_player = self._e.current_player

    # -- the protocol ----------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        return self._e.legal_actions()

    def apply(self, action: Action | str) -> None:
        if action.__class__ is not self._A:
            action = self._coerce(action)
        p = self.current_player
        moved = self._e.apply(action)
        if moved < TERMINAL:
            raise IllegalAction(self._refusal(moved, p, action))
        self._history.append((p, action))  # type: ignore[arg-type]
        self.current_player = moved

    def _refusal(self, code: int, p: int, action: int) -> str:
        """The reason for a refusal code of ``ClimbingEngine.apply``."""
        t = self._e.table_play
        lowest = self._t.rules.lowest_card_text
        if code == _OVER:
            return "the deal is over"
        if code == _MUST_PLAY:
            if self._e.opening:
                return f"the holder of {lowest} must open; passing is not allowed"
            return "you have control and must lead a combination; passing is not allowed"
        if code == _CANNOT_PASS:
            return ("you may pass only when you cannot beat the table "
                    f"({self._t.cards_text(t & MASK)})")
        if code == _NOT_HELD:
            return f"you do not hold {self._t.cards_text(action & MASK & ~self._e.hands()[p])}"
        if code == _WRONG_SIZE:
            return self._size_reason(action, t)
        if code == _NOT_BEATING:
            return self._t.why_not_beating(action, t)
        if code == _OPENING_SINGLE:
            return f"the first play must be {lowest} as a single card"
        if code == _OPENING_MUST_INCLUDE:
            return f"the first play must include {lowest}"
        return (f"{action!r} is not a play of {self.game.name}: take actions from "
                "state.legal_actions() or state.parse_action(text)")

    def _size_reason(self, action: int, t: int) -> str:
        cat_new = self._t.category(action)
        cat_old = self._t.category(t)
        table_text = self._t.cards_text(t & MASK)
        size = t >> SIZE_SHIFT
        answer = "1 card that beats" if size == 1 else f"{size} cards that beat"
        return (f"a {action >> SIZE_SHIFT}-card {cat_new} cannot answer a "
                f"{size}-card {cat_old} ({table_text}): play {answer} it, or pass")

    def _coerce(self, action: object) -> ClimbingAction:
        if isinstance(action, ClimbingAction):  # another variant's play: judge it by its cards
            return self.parse_action(str(action))
        return self.coerce_action(action)  # type: ignore[return-value]

    def parse_action(self, text: str) -> ClimbingAction:
        words = action_text(text).split()
        if len(words) == 1 and words[0].lower() == "pass":
            return self._t.PASS
        if not words:
            raise IllegalAction("expected cards to play (e.g. '3D' or '10D 10S') or 'pass'")
        try:
            cards = parse_cards(words)
        except CardError as e:
            raise IllegalAction(f"{e}; expected cards to play or 'pass'") from None
        if len(set(cards)) != len(cards):
            raise IllegalAction(f"a card is named twice in '{text.strip()}'")
        packed = self._t.classify(self._t.key_mask(cards))
        if packed is None:
            raise IllegalAction(f"{' '.join(map(str, cards))} is not a valid combination in "
                                f"{self.game.name}; the plays are {self._t.plays_text()}")
        return self._t.action(packed)

    def clone(self) -> ClimbingState:
        c = object.__new__(ClimbingState)
        c.__dict__.update(self.__dict__)
        c._e = self._e.clone()
        c._history = self._history[:]
        return c

    def returns(self) -> list[float]:
        return self._e.returns()

    @property
    def history(self) -> list[tuple[int, Action]]:
        return list(self._history)

    def setup(self) -> dict[str, Any]:
        start = self._setup
        text = self._t.cards_text
        spec: dict[str, Any] = {"hands": [text(h) for h in start.hands]}
        if start.leader is not None:
            spec["leader"] = start.leader
        if start.out:
            spec["out"] = text(start.out)
        if start.table:
            spec["table"] = text(start.table & MASK)
            spec["table_seat"] = start.table_seat
            spec["passes"] = start.passes
        if start.finished:
            spec["finished"] = list(start.finished)
        return spec

    def zones(self) -> dict[str, CardSet]:
        cs = self._t.card_set
        zones = {f"P{i}": cs(h) for i, h in enumerate(self._e.hands())}
        zones["played"] = cs(self._e.played)
        zones["out"] = cs(self._setup.out)
        return zones

    def hidden_from(self, seat: int) -> CardSet:
        """The other hands, less the lowest card while the opening is due (everyone knows the
        seat to open holds it): what play hides. The hands left are laid down to be counted
        once the deal is over (:attr:`~parlour.game.Game.reveals_hands_at_end`), which the
        tables show with the result; the recorded traces fix this method's answer at the end
        too, so it stays what play hid."""
        return self._t.card_set(self._e.hidden_from(self.check_seat(seat)))

    def hand(self, seat: int) -> CardSet:
        """``seat``'s cards in the variant's order (the full state sees every hand)."""
        return self._t.card_set(self._e.hands()[self.check_seat(seat)])

    @property
    def placements(self) -> list[int]:
        """Seats in the order they went out."""
        return self._e.finished()

    def observation(self, seat: int) -> ClimbingObservation:
        if seat.__class__ is not int or not 0 <= seat < self._n:
            seat = self.check_seat(seat)
        card_set = self._t.card_set_of
        start = self._setup
        hand, sizes, table, table_seat, passes, opening, played, finished, scores = (
            self._e.observe(seat))
        # The game knows the observation's class: the engine imports no observation module.
        return self.game.observation_class.assemble(
            game=self.game,
            seat=seat,
            current_player=self.current_player,
            hand=card_set(hand),
            hand_sizes=sizes,
            table=table,
            table_seat=table_seat,
            passes=passes,
            opening=opening,
            history=tuple(self._history),
            played=card_set(played),
            out=self._out,
            first_leader=start.leader,
            start_table=self._start_table,
            start_table_seat=start.table_seat,
            start_passes=start.passes,
            start_finished=start.finished,
            finished=finished,
            scores=scores,
        )


# What ClimbingEngine.apply returns for each refusal (rust/src/python.rs, refusal_code).
_OVER, _MUST_PLAY, _CANNOT_PASS, _NOT_HELD, _NOT_A_PLAY, _WRONG_SIZE, _NOT_BEATING = range(-2, -9, -1)
_OPENING_SINGLE, _OPENING_MUST_INCLUDE = -9, -10

