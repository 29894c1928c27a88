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
import random
from collections.abc import Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, NoReturn

from parlour.cards import CardSet
from parlour.errors import IllegalAction
from parlour.game import TERMINAL, Action, State
from parlour.games.rummy.actions import (
    DISCARD,
    DISCARD_ACTIONS,
    DRAW_DISCARD,
    DRAW_DISCARD_ACTION,
    DRAW_STOCK,
    DRAW_STOCK_ACTION,
    KIND_BITS,
    LAYOFF,
    MELD,
    TARGET_SHIFT,
    RummyAction,
    action,
    action_by_key,
    is_move,
    parse_action,
)
from parlour.games.rummy.melds import (
    FULL,
    GROUP_SUBSETS,
    ROW,
    RUN_SEGMENTS,
    TO_CARD,
    card_set,
    extensions,
    group_mask,
    is_group,
    is_meld,
    mask_value,
    suits_of_rank,
    text_of,
    triple_ranks,
    why_not_meld,
)

if TYPE_CHECKING:
    from parlour.games.rummy.game import RummyGame
    from parlour.games.rummy.observation import RummyObservation

_DRAW_BOTH = (DRAW_STOCK_ACTION, DRAW_DISCARD_ACTION)
_SEED_STEP = 0x9E3779B97F4A7C15
# The rummy-layout card of each discard action's value: one lookup both finds the card and
# refuses a value no discard has.
_DISCARD_CARD: dict[int, int] = {int(a): i for i, a in enumerate(DISCARD_ACTIONS)}


# The run melds of each suit row, built on first use (most of the 4 * 8192 rows never occur).
_RUN_ACTIONS: list[tuple[RummyAction, ...] | None] = [None] * (4 << 13)
# The group melds of each rank and set of suits.
_GROUP_ACTIONS: tuple[tuple[RummyAction, ...], ...] = tuple(
    tuple(action(MELD, group_mask(rank, sub)) for sub in GROUP_SUBSETS[suits])
    for rank in range(13)
    for suits in range(16)
)


def _run_actions(suit: int, row: int) -> tuple[RummyAction, ...]:
    index = suit << 13 | row
    found = _RUN_ACTIONS[index]
    if found is None:
        found = tuple(action(MELD, seg << (13 * suit)) for seg in RUN_SEGMENTS[row])
        _RUN_ACTIONS[index] = found
    return found


class RummyState(State):
    """One rummy deal. Cards are rummy-layout masks (see :mod:`.melds`); the stock's top is its
    last element and the discard pile's top its last element. The attributes are the engine's
    own; the protocol methods hand out copies and card sets.

    >>> import parlour
    >>> s = parlour.new_game("rummy").new_deal(hands=["5H 6H 7H", "2C 3D 4S"], stock="9C KD ...",
    ...                                          discard="9D KC")
    >>> s.apply("draw stock"); s.apply("meld 5h 6h 7h"); s.apply("discard 9c")
    >>> s.is_over, s.returns()
    (True, [15.0, -15.0])
    """

    game: RummyGame

    def __init__(self, game: RummyGame) -> None:
        self.game = game
        n = game.players
        self.current_player = 0
        self._hands: list[int] = [0] * n
        self._stock: list[int] = []
        self._pile: list[int] = []
        self._melds: list[int] = []
        self._placed: list[int] = [0] * n
        self._scores: list[int] = [0] * n
        self._taken: list[int] = [0] * n
        self._drawing = True
        # The card drawn this turn while the drawer still holds it (-1: none), and whether it
        # came from the discard pile (then everyone saw it, and the forbid option applies).
        self._drawn = -1
        self._drawn_from_discard = False
        self._turn = 0
        self._went_out = -1
        self._seed = 0
        # The public record before this position (a position given with its past, such as a
        # sampled state): shown in observations, never replayed.
        self._past: tuple[tuple[int, Action], ...] = ()
        # The card each discard draw took, and the number of actions played (the past included)
        # at each stock rebuild; the rebuild count also seeds the next shuffle.
        self._discard_draws: list[int] = []
        self._rebuilds: list[int] = []
        self._history: list[tuple[int, Action]] = []
        # What every seat sees alike, as observation fields, made again only when an action was
        # played since (the history only grows, so its length tells).
        self._shared: tuple[int, Mapping[str, Any]] = (-1, MappingProxyType({}))
        # How many actions of the public record :meth:`_discarded` has read, and the cards.
        self._named: tuple[int, int] = (0, 0)
        self._setup: dict[str, Any] = {}
        # A sampled state's setup is its position with the whole public record: written out
        # only when asked for, from this untouched copy of the state as it began.
        self._start: RummyState | None = None
        self._final: list[float] | None = None

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

    def shared_view(self) -> Mapping[str, Any]:
        """The observation fields every seat sees alike (all but ``seat``, ``hand`` and
        ``drawn``), made once per position: observations of it share these immutable values."""
        played, shared = self._shared
        if played != len(self._history):
            over = self.current_player == TERMINAL
            shared = MappingProxyType({
                "game": self.game,
                "current_player": self.current_player,
                "hand_sizes": tuple([h.bit_count() for h in self._hands]),
                "phase": "over" if over else "draw" if self._drawing else "play",
                # map() rather than generators: the pile and the discard draws grow long, and
                # an environment asks for an observation every step.
                "melds": tuple(map(card_set, self._melds)),
                "placed": tuple(map(card_set, self._placed)),
                "discard": tuple(map(TO_CARD.__getitem__, self._pile)),
                "taken": tuple(map(card_set, self._taken)),
                "scores": tuple(self._scores),
                "stock_size": len(self._stock),
                "turn": self._turn,
                "went_out": self._went_out,
                "history": self._past + tuple(self._history),
                "discard_draws": tuple(map(TO_CARD.__getitem__, self._discard_draws)),
                "rebuilds": tuple(self._rebuilds),
                "shown": tuple(card_set(h) for h in self._hands) if over else (),
            })
            self._shared = (len(self._history), shared)
        return shared

    def clone(self) -> RummyState:
        c = RummyState.__new__(RummyState)
        c.__dict__.update(self.__dict__)
        c._hands = self._hands[:]
        c._stock = self._stock[:]
        c._pile = self._pile[:]
        c._melds = self._melds[:]
        c._placed = self._placed[:]
        c._scores = self._scores[:]
        c._taken = self._taken[:]
        c._discard_draws = self._discard_draws[:]
        c._rebuilds = self._rebuilds[:]
        c._history = self._history[:]
        return c

    def returns(self) -> list[float]:
        if self._final is None:
            return [0.0] * len(self._hands)
        return list(self._final)

    def winners(self) -> list[int]:
        if self._final is None:
            return []
        return self.game.best_scores(self._final, self._went_out)

    def observation(self, seat: int) -> RummyObservation:
        from parlour.games.rummy.observation import observe

        return observe(self, self.check_seat(seat))

    def zones(self) -> dict[str, CardSet]:
        out = {f"P{i}": card_set(h) for i, h in enumerate(self._hands)}
        table = 0
        for m in self._melds:
            table |= m
        out["stock"] = card_set(sum(1 << c for c in self._stock))
        out["discards"] = card_set(sum(1 << c for c in self._pile))
        out["melds"] = card_set(table)
        return out

    def hidden_from(self, seat: int) -> CardSet:
        """The stock and the other hands, less what everyone has seen: cards taken from the
        discard pile, and every card a discard in the public record named (one shuffled back into
        the stock, and perhaps drawn again, is hidden in where it is, not in what it is: the
        history still names it). Once the deal is over every hand is laid face up."""
        seat = self.check_seat(seat)
        hidden = sum(1 << c for c in self._stock)
        if self.current_player != TERMINAL:
            for i, h in enumerate(self._hands):
                if i != seat:
                    hidden |= h & ~self._taken[i]
        return card_set(hidden & ~self._discarded())

    def _discarded(self) -> int:
        """Every card the discards of the public record named, brought up to date from where
        the last call left off."""
        done, mask = self._named
        record = self.shared_view()["history"]
        for _, a in record[done:]:
            if a.kind == DISCARD:
                mask |= a.cards
        self._named = (len(record), mask)
        return mask

    @property
    def blocked(self) -> bool:
        """Whether the deal ended at the turn limit with nobody out."""
        return self.current_player == TERMINAL and self._went_out < 0

    # -- legal actions -------------------------------------------------------------------------
    def legal_actions(self) -> list[Action]:
        p = self.current_player
        if p < 0:
            return []
        if self._drawing:
            if self._stock:
                return list(_DRAW_BOTH) if self._pile else [DRAW_STOCK_ACTION]
            return [DRAW_DISCARD_ACTION]
        hand = self._hands[p]
        out: list[Action] = []
        for suit in range(4):
            row = hand >> (13 * suit) & ROW
            if row & row >> 1 & row >> 2:
                out.extend(_run_actions(suit, row))
        triples = triple_ranks(hand)
        while triples:
            low = triples & -triples
            rank = low.bit_length() - 1
            out.extend(_GROUP_ACTIONS[rank << 4 | suits_of_rank(hand, rank)])
            triples ^= low
        for target, meld in enumerate(self._melds):
            for ext in extensions(meld, hand):
                out.append(action_by_key(LAYOFF | ext << KIND_BITS | target << TARGET_SHIFT))
        if (self._drawn_from_discard and self._drawn >= 0
                and self.game.options.forbid_discard_of_drawn_discard):
            return self._forbid_filter(out, hand)
        rest = hand
        while rest:
            low = rest & -rest
            out.append(DISCARD_ACTIONS[low.bit_length() - 1])
            rest ^= low
        return out

    def _forbid_filter(self, melds: list[Action], hand: int) -> list[Action]:
        only = 1 << self._drawn
        out = [a for a in melds if not self._strands_drawn(hand, int(a))]
        out.extend(DISCARD_ACTIONS[i] for i in range(52) if (hand & ~only) >> i & 1)
        return out

    # -- applying ------------------------------------------------------------------------------
    def apply(self, action: Action | str) -> None:
        if action.__class__ is not RummyAction:
            action = self.coerce_action(action)
        p = self.current_player
        if p < 0:
            raise IllegalAction(f"{action} is not allowed: the deal is over")
        a = int(action)
        if self._drawing:
            self._draw(p, a, action)
        else:
            kind = a & 7
            if kind in (MELD, LAYOFF):
                self._put_down(p, kind, a, action)
            else:
                card = _DISCARD_CARD.get(a)
                if card is None:
                    if a in (DRAW_STOCK, DRAW_DISCARD):
                        raise IllegalAction(
                            f"{action} is not allowed: you have already drawn this turn")
                    _refuse_unmade(action)
                self._discard(p, card, action)
        self._history.append((p, action))

    def _draw(self, p: int, a: int, act: Action) -> None:
        if a == DRAW_STOCK:
            if not self._stock:
                raise IllegalAction(
                    "draw stock is not allowed: the stock is empty and cannot be rebuilt "
                    "(the discard pile holds only its top card); draw discard"
                )
            card = self._stock.pop()
            self._hands[p] |= 1 << card
            self._drawn = card
            self._drawn_from_discard = False
        elif a == DRAW_DISCARD:
            if not self._pile:
                raise IllegalAction("draw discard is not allowed: the discard pile is empty")
            card = self._pile.pop()
            self._hands[p] |= 1 << card
            self._taken[p] |= 1 << card
            self._drawn = card
            self._drawn_from_discard = True
            self._discard_draws.append(card)
        else:
            if not is_move(a):
                _refuse_unmade(act)
            raise IllegalAction(
                f"{act} is not allowed: a turn starts with a draw (draw stock or draw discard)"
            )
        self._drawing = False

    def _check_held(self, p: int, cards: int, act: Action) -> None:
        missing = cards & ~self._hands[p]
        if missing:
            raise IllegalAction(f"{act} is not allowed: you do not hold {text_of(missing)}")

    def _strands_drawn(self, hand: int, a: int) -> bool:
        """Whether the meld or lay-off ``a`` would leave ``hand`` holding only the card taken
        from the discard pile, with no meld to lay it off on: the turn could then end only by
        discarding it, which the forbid option refuses."""
        cards = a >> KIND_BITS & FULL
        only = 1 << self._drawn
        if hand & ~cards != only:
            return False
        melds = self._melds[:]
        if a & 7 == MELD:
            melds.append(cards)
        else:
            melds[a >> TARGET_SHIFT] |= cards
        return not any(extensions(meld, only) for meld in melds)

    def _check_drawn_kept(self, p: int, cards: int, act: Action, discard: bool) -> None:
        # With the option on, the card taken from the discard pile may not be discarded this
        # turn (E5); melding it or laying it off is allowed.
        if (self._drawn_from_discard and self._drawn >= 0
                and self.game.options.forbid_discard_of_drawn_discard):
            if discard and cards >> self._drawn & 1:
                raise IllegalAction(
                    f"{act} is not allowed: the card taken from the discard pile "
                    f"({TO_CARD[self._drawn]}) may not be discarded this turn"
                )
            if not discard and self._strands_drawn(self._hands[p], int(act)):
                raise IllegalAction(
                    f"{act} is not allowed: it would leave only {TO_CARD[self._drawn]}, the card "
                    "taken from the discard pile, which may not be discarded this turn"
                )

    def _put_down(self, p: int, kind: int, a: int, act: Action) -> None:
        if not is_move(a):
            _refuse_unmade(act)
        cards = a >> KIND_BITS & FULL
        target = a >> TARGET_SHIFT
        self._check_held(p, cards, act)
        if kind == MELD:
            if not is_meld(cards):
                raise IllegalAction(f"{act} is not allowed: {why_not_meld(cards)}")
        else:
            if target >= len(self._melds):
                count = len(self._melds)
                raise IllegalAction(
                    f"{act} is not allowed: there is no meld {target + 1} on the table "
                    + (f"(melds are numbered 1 to {count})" if count else "(no melds yet)")
                )
            meld = self._melds[target]
            if not is_meld(meld | cards) or is_group(meld) != is_group(meld | cards):
                raise IllegalAction(
                    f"{act} is not allowed: {text_of(meld | cards)} would not be a valid meld "
                    "(melds are not rearranged)"
                )
        self._check_drawn_kept(p, cards, act, discard=False)
        hand = self._hands[p] ^ cards
        self._hands[p] = hand
        self._taken[p] &= hand
        self._placed[p] |= cards
        if self._drawn >= 0 and cards >> self._drawn & 1:
            self._drawn = -1
        if kind == MELD:
            self._melds.append(cards)
            if self.game.options.score_melds:
                self._scores[p] += mask_value(cards)
        else:
            self._melds[target] |= cards
            self._scores[p] += mask_value(cards)
        if not hand:
            self._end(p)

    def _discard(self, p: int, card: int, act: Action) -> None:
        card_mask = 1 << card
        self._check_held(p, card_mask, act)
        self._check_drawn_kept(p, card_mask, act, discard=True)
        hand = self._hands[p] ^ card_mask
        self._hands[p] = hand
        self._taken[p] &= hand
        self._pile.append(card)
        if not hand:
            self._end(p)
            return
        self._turn += 1
        if self._turn >= self.game.options.turn_limit:
            self._end(-1)
            return
        self.current_player = (p + 1) % len(self._hands)
        self._drawing = True
        self._drawn = -1
        if not self._stock:
            # This discard, still to be added to the history, is the action the rebuild follows.
            self.rebuild_stock(len(self._past) + len(self._history) + 1)

    def rebuild_stock(self, played: int) -> None:
        """At the start of a turn with an empty stock: the discards but the top one, shuffled.

        ``played`` is how many actions of the public record precede the rebuild.
        """
        if len(self._pile) < 2:
            return
        cards = self._pile[:-1]
        del self._pile[:-1]
        random.Random(self._seed + len(self._rebuilds) * _SEED_STEP).shuffle(cards)
        self._rebuilds.append(played)
        self._stock = cards

    def _end(self, went_out: int) -> None:
        self._went_out = went_out
        self.current_player = TERMINAL
        self._drawn = -1
        self._final = [
            float(s - mask_value(h)) for s, h in zip(self._scores, self._hands, strict=True)
        ]

    # -- description ---------------------------------------------------------------------------
    def position(self) -> dict[str, Any]:
        """The ``new_deal`` arguments that recreate this exact position (for sampled states)."""
        out: dict[str, Any] = {
            "seed": self._seed,
            "hands": [text_of(h) for h in self._hands],
            "stock": [str(TO_CARD[c]) for c in reversed(self._stock)],
            "discard": [str(TO_CARD[c]) for c in self._pile],
        }
        if self._melds:
            out["melds"] = [text_of(m) for m in self._melds]
        if any(self._placed):
            out["placed"] = [text_of(m) for m in self._placed]
        if any(self._scores):
            out["scores"] = list(self._scores)
        if any(self._taken):
            out["taken"] = [text_of(m) for m in self._taken]
        if self.current_player:
            out["player"] = self.current_player
        if not self._drawing:
            out["phase"] = "play"
        if self._drawn >= 0:
            out["drawn"] = str(TO_CARD[self._drawn])
            if not self._drawn_from_discard:
                out["drawn_from"] = "stock"
        if self._turn:
            out["turn"] = self._turn
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
        return mask_value(self._hands[self.check_seat(seat)])


def _refuse_unmade(act: Action) -> NoReturn:
    """Refuse an action value that the game never makes (one built by hand)."""
    raise IllegalAction(
        f"{int(act)} is not the value of any rummy action: apply one of state.legal_actions() "
        "or its text"
    )
