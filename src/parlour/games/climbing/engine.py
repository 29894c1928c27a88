"""One deal of a climbing game: :class:`ClimbingState`.

Each seat's valid plays are generated once per deal (sorted by packed strength) and filtered as
its cards leave; the answers to a table play are a bisected slice of that list.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from typing import TYPE_CHECKING, Any, NamedTuple

from parlour.cards import CardSet, parse_cards
from parlour.errors import CardError, IllegalAction
from parlour.game import TERMINAL, Action, State, action_text
from parlour.games.climbing.combos import (
    MASK,
    PASS_VALUE,
    SIZE_SHIFT,
    STRENGTH_SHIFT,
    ClimbingAction,
    can_beat,
)
from parlour.games.climbing.rules import penalty

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
    """A deal of ``big-two-4card``, ``big-two`` or ``pusoy-dos``."""

    game: ClimbingGame

    def __init__(self, game: ClimbingGame, start: Start) -> None:
        self.game = game
        table = game.table
        self._t = table
        self._A = table.action_type
        self._PASS = table.PASS
        self._pass_only = table.rules.pass_only_if_no_legal_play
        hands = start.hands
        self._n = n = len(hands)
        self._setup = start
        self._hands = list(hands)
        # Each seat's plays, built when first needed, then only filtered as its cards leave.
        self._combos: list[list[ClimbingAction] | None] = [None] * n
        self._table_play: int = start.table  # packed play to beat; 0 = the player to move leads
        self._table_seat = start.table_seat
        self._passes = start.passes
        self._active = sum(1 for h in hands if h)
        self._finished: list[int] = list(start.finished)
        # (seat, action) pairs, so an observation's history is one tuple() copy.
        self._history: list[tuple[int, ClimbingAction]] = []
        # Every card played since the start (key order), kept as plays are made, not rescanned.
        self._played = start.table & MASK
        self._out = table.card_set(start.out)  # as observations show it
        self._returns: list[float] = [0.0] * n
        self._opening = False
        if start.table:
            # The seat after the table play's maker, then one seat on per pass (out seats skipped).
            p = start.table_seat
            for _ in range(start.passes + 1):
                p = self._next_active(p)
            self.current_player = p
        elif start.leader is None:
            self.current_player = next(i for i, h in enumerate(hands) if h & 1)
            self._opening = True
        else:
            self.current_player = start.leader

    # -- the protocol ----------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        p = self.current_player
        if p < 0:
            return []
        combos = self._combos[p]
        if combos is None:
            combos = self._combos[p] = self._t.hand_combos(self._hands[p])
        t = self._table_play
        if not t:
            if self._opening:
                if self._t.rules.opening_single:
                    return [self._t.action(1 << SIZE_SHIFT | 1)]
                return [a for a in combos if a & 1]
            return list(combos)
        lo = bisect_right(combos, t | MASK)
        hi = bisect_left(combos, ((t >> SIZE_SHIFT) + 1) << SIZE_SHIFT, lo)
        if lo == hi or not self._pass_only:
            return [self._PASS, *combos[lo:hi]]
        return combos[lo:hi]  # type: ignore[return-value]

    def apply(self, action: Action | str) -> None:
        if action.__class__ is not self._A:
            action = self._coerce(action)
        p = self.current_player
        if p < 0:
            raise IllegalAction("the deal is over")
        t = self._table_play
        if action == PASS_VALUE:
            if not t:
                raise IllegalAction(self._must_play_reason())
            if self._pass_only and self._can_beat(p, t):
                raise IllegalAction("you may pass only when you cannot beat the table "
                                    f"({self._t.cards_text(t & MASK)})")
            self._history.append((p, action))  # type: ignore[arg-type]
            self._passes += 1
            ts = self._table_seat
            still_in = self._hands[ts] != 0
            if self._passes >= (self._active - 1 if still_in else self._active):
                self._table_play = 0
                self._passes = 0
                self.current_player = ts if still_in else self._next_active(ts)
            else:
                self.current_player = self._next_active(p)
            return
        m = action & MASK
        hand = self._hands[p]
        if m & ~hand:
            raise IllegalAction(f"you do not hold {self._t.cards_text(m & ~hand)}")
        if t:
            if action >> SIZE_SHIFT != t >> SIZE_SHIFT:
                raise IllegalAction(self._size_reason(action, t))
            if action >> STRENGTH_SHIFT <= t >> STRENGTH_SHIFT:
                raise IllegalAction(self._t.why_not_beating(action, t))
        elif self._opening:
            if self._t.rules.opening_single and m != 1:
                raise IllegalAction(f"the first play must be {self._t.rules.lowest_card_text} "
                                    "as a single card")
            if not m & 1:
                raise IllegalAction(f"the first play must include {self._t.rules.lowest_card_text}")
        self._opening = False
        self._history.append((p, action))  # type: ignore[arg-type]
        self._played |= m
        hand ^= m
        self._hands[p] = hand
        combos = self._combos[p]
        if combos is not None:
            self._combos[p] = [a for a in combos if not a & m]
        self._table_play = action
        self._table_seat = p
        self._passes = 0
        if hand:
            self.current_player = self._next_active(p)
        else:
            self._went_out(p)

    def _went_out(self, p: int) -> None:
        self._finished.append(p)
        self._active -= 1
        rules = self._t.rules
        if rules.ends_at_first_out or self._active <= 1:
            if not rules.ends_at_first_out:
                self._finished.extend(i for i in range(self._n) if self._hands[i])
            self._score()
            self.current_player = TERMINAL
            return
        self.current_player = self._next_active(p)
        if rules.control_after_out == "next-player":
            self._table_play = 0

    def _next_active(self, p: int) -> int:
        n, hands = self._n, self._hands
        q = p + 1 if p + 1 < n else 0
        while not hands[q]:
            q = q + 1 if q + 1 < n else 0
        return q

    def _score(self) -> None:
        rules = self._t.rules
        left = [h.bit_count() for h in self._hands]
        if rules.scoring == "count":
            winner = self._finished[0]
            self._returns = [float(sum(left)) if i == winner else -float(c)
                             for i, c in enumerate(left)]
        elif rules.scoring == "penalty":
            self._returns = [-float(penalty(c)) for c in left]
        else:
            points = rules.placement_points
            self._returns = [0.0] * self._n
            for place, seat in enumerate(self._finished):
                self._returns[seat] = float(points[place]) if place < len(points) else 0.0

    def _can_beat(self, p: int, t: int) -> bool:
        combos = self._combos[p]
        if combos is None:
            combos = self._combos[p] = self._t.hand_combos(self._hands[p])
        return can_beat(combos, t)

    def _must_play_reason(self) -> str:
        if self._opening:
            return (f"the holder of {self._t.rules.lowest_card_text} must open; "
                    "passing is not allowed")
        return "you have control and must lead a combination; passing is not allowed"

    def _size_reason(self, action: int, t: int) -> str:
        cat_new = self._t.category(action)
        cat_old = self._t.category(t)
        table_text = self._t.cards_text(t & MASK)
        return (f"a {action >> SIZE_SHIFT}-card {cat_new} cannot answer a "
                f"{t >> SIZE_SHIFT}-card {cat_old} ({table_text}): play "
                f"{t >> SIZE_SHIFT} cards that beat it, or pass")

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
        # The combination lists are replaced, never mutated, so they may be shared.
        c._hands = self._hands[:]
        c._combos = self._combos[:]
        c._finished = self._finished[:]
        c._history = self._history[:]
        c._returns = self._returns[:]
        return c

    def returns(self) -> list[float]:
        return self._returns[:]

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
        zones = {f"P{i}": cs(h) for i, h in enumerate(self._hands)}
        zones["played"] = cs(self._played)
        zones["out"] = cs(self._setup.out)
        return zones

    def hidden_from(self, seat: int) -> CardSet:
        seat = self.check_seat(seat)
        others = 0
        for i, h in enumerate(self._hands):
            if i != seat:
                others |= h
        if self._opening:
            others &= ~1  # everyone knows the seat to open holds the lowest card (key bit 0)
        return self._t.card_set(others)

    def hand(self, seat: int) -> CardSet:
        """``seat``'s cards in the variant's order (the full state sees every hand)."""
        return self._t.card_set(self._hands[self.check_seat(seat)])

    @property
    def placements(self) -> list[int]:
        """Seats in the order they went out."""
        return self._finished[:]

    def observation(self, seat: int) -> ClimbingObservation:
        global _Observation
        if seat.__class__ is not int or not 0 <= seat < self._n:
            seat = self.check_seat(seat)
        if _Observation is None:
            from parlour.games.climbing.observation import ClimbingObservation

            _Observation = ClimbingObservation
        t = self._t
        start = self._setup
        table = self._table_play
        return _Observation.assemble(
            game=self.game,
            seat=seat,
            current_player=self.current_player,
            hand=t.card_set(self._hands[seat]),
            hand_sizes=tuple([h.bit_count() for h in self._hands]),
            table=t.action(table) if table else None,
            table_seat=self._table_seat if table else -1,
            passes=self._passes,
            opening=self._opening,
            history=tuple(self._history),
            played=t.card_set(start.out | self._played),
            out=self._out,
            first_leader=start.leader,
            start_table=t.action(start.table) if start.table else None,
            start_table_seat=start.table_seat,
            start_passes=start.passes,
            start_finished=start.finished,
            finished=tuple(self._finished),
            scores=tuple(self._returns),
        )


_Observation: type[ClimbingObservation] | None = None
