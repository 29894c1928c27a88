"""The rummy ruleset: its options, the deal, and the match (one deal, or a series to a target).

>>> import parlour
>>> game = parlour.new_game("rummy", players=4)
>>> state = game.new_deal(seed=3)
>>> [len(state.observation(0).hand)] * 1 + [state.observation(0).stock_size]
[7, 23]
>>> parlour.new_game("rummy", players=4, hand_size=13)  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
parlour.errors.VariantError: rummy: 4 hands of 13 cards and the up-card need 53 cards; ...
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from parlour.cards import Card, parse_cards
from parlour.errors import CardError, DealError, VariantError
from parlour.game import (
    Action,
    Game,
    Observation,
    check_partition,
    parse_deck,
    seed_or_random,
    shuffled_deck,
)
from parlour.games.rummy.engine import RummyState
from parlour.games.rummy.melds import TO_CARD, TO_RUMMY, is_meld, rummy_mask, text_of
from parlour.registry import Variant, option

#: A series stops after this many deals even if nobody reached the target (a safety valve, like
#: the turn limit, for bots that never score).
MAX_SERIES_DEALS = 200


@dataclass(frozen=True)
class RummyOptions:
    """The [OPTION]s of RULES.md section 5, with their defaults."""

    hand_size: int = option(
        0, "cards dealt to each player; 0 = the standard 10 with two players, 7 with three or four",
        min=0, max=25,
    )
    forbid_discard_of_drawn_discard: bool = option(
        False, "the card taken from the discard pile may not be discarded in the same turn"
    )
    score_melds: bool = option(
        True, "melded cards score for the melder (lay-offs always score for the player laying off)"
    )
    tie_break: str = option(
        "shared", "equal highest scores share the win, or the one who went out wins",
        choices=("shared", "went-out"),
    )
    series_target: int = option(
        0, "play a series of deals until a cumulative score reaches this (e.g. 500); 0 = one deal",
        min=0,
    )
    turn_limit: int = option(
        1000, "a deal with nobody out after this many turns ends as blocked and is scored", min=1
    )


def _cards(value: Sequence[Card | str] | str, name: str) -> list[Card]:
    try:
        return parse_cards(value)
    except CardError as e:
        raise DealError(f"{name}: {e}") from None


def _seat_list(value: Sequence[Any], n: int, name: str) -> list[Any]:
    if isinstance(value, str) or len(value) != n:
        raise DealError(f"{name} needs one entry per seat ({n})")
    return list(value)


class RummyGame(Game):
    """Rummy with meld-point scoring: 2-4 players, the human (seat 0) first.

    >>> import parlour
    >>> parlour.new_game("rummy").options.turn_limit
    1000
    """

    options_type = RummyOptions
    _options: RummyOptions

    def __init__(self, variant: Variant, players: int, options: RummyOptions) -> None:
        super().__init__(variant, players, options)
        if players * self.hand_size + 1 > 52:
            raise VariantError(
                f"{variant.name}: {players} hands of {self.hand_size} cards and the up-card need "
                f"{players * self.hand_size + 1} cards; the deck has 52"
            )

    @property
    def options(self) -> RummyOptions:
        return self._options

    @property
    def hand_size(self) -> int:
        return self._options.hand_size or (10 if self.players == 2 else 7)

    def seat_name(self, seat: int) -> str:
        return "Human" if seat == 0 else f"Computer {seat}"

    # -- deals ---------------------------------------------------------------------------------
    def new_deal(
        self,
        *,
        seed: int | None = None,
        deck: Sequence[Card | str] | str | None = None,
        hands: Sequence[Sequence[Card | str] | str] | None = None,
        **setup: Any,
    ) -> RummyState:
        """Shuffled from ``seed``, dealt from ``deck`` (top first), or a position from ``hands``
        with ``stock`` (top first, required; a final ``...`` puts the cards not named anywhere
        beneath, in ace-low suit order), ``discard`` (bottom first), and optionally
        ``melds`` (table order), ``placed`` (per seat, the table cards each put down),
        ``scores``, ``taken`` (per seat, cards held that came from the discard pile),
        ``player`` (to move), ``phase`` ("draw" or "play"), ``drawn`` (the discard taken this
        turn) and ``turn`` (turns played). ``seed`` also seeds the stock rebuilds."""
        seed = seed_or_random(seed)
        if hands is not None:
            return self._position(seed, hands, setup)
        if setup:
            raise DealError(f"unknown deal setting(s) {', '.join(setup)}: give them with hands")
        cards = list(parse_deck(deck)) if deck is not None else shuffled_deck(seed)
        n, k = self.players, self.hand_size
        state = RummyState(self)
        state.seed = seed
        for i in range(n * k):
            state.hands[i % n] |= 1 << TO_RUMMY[cards[i]]
        state.discard = [TO_RUMMY[cards[n * k]]]
        state.stock = [TO_RUMMY[c] for c in reversed(cards[n * k + 1:])]
        state._setup = {"seed": seed}
        if deck is not None:
            state._setup["deck"] = [str(c) for c in cards]
        return state

    def _position(
        self, seed: int, hands: Sequence[Sequence[Card | str] | str], setup: dict[str, Any]
    ) -> RummyState:
        known = {"stock", "discard", "melds", "placed", "scores", "taken", "player", "phase",
                 "drawn", "turn"}
        unknown = set(setup) - known
        if unknown:
            raise DealError(f"unknown deal setting(s): {', '.join(sorted(unknown))}")
        n = self.players
        if "stock" not in setup:
            raise DealError("a deal from explicit hands also needs the stock (top card first)")
        seats = _seat_list(hands, n, "hands")
        hand_cards = [_cards(h, f"P{i}'s hand") for i, h in enumerate(seats)]
        stock_text = setup["stock"]
        words = stock_text.split() if isinstance(stock_text, str) else list(stock_text)
        fill = bool(words) and words[-1] == "..."
        stock = _cards(words[:-1] if fill else words, "the stock")
        discard = _cards(setup.get("discard", []), "the discard pile")
        melds = [_cards(m, f"meld {i}") for i, m in enumerate(setup.get("melds", []), 1)]
        groups = [*hand_cards, stock, discard, *melds]
        names = ([f"P{i}'s hand" for i in range(n)] + ["the stock", "the discard pile"]
                 + [f"meld {i}" for i in range(1, len(melds) + 1)])
        if fill:
            check_partition(groups, names, total=sum(len(g) for g in groups))
            used = {int(c) for g in groups for c in g}
            stock += [TO_CARD[i] for i in range(52) if int(TO_CARD[i]) not in used]
        check_partition(groups, names)
        state = RummyState(self)
        state.seed = seed
        state.hands = [rummy_mask(h) for h in hand_cards]
        state.stock = [TO_RUMMY[c] for c in reversed(stock)]
        state.discard = [TO_RUMMY[c] for c in discard]
        state.melds = [rummy_mask(m) for m in melds]
        for i, m in enumerate(state.melds, 1):
            if not is_meld(m):
                raise DealError(f"meld {i} ({text_of(m)}) is not a valid run or group")
        table = 0
        for m in state.melds:
            table |= m
        if "placed" in setup:
            state.placed = [rummy_mask(_cards(p, f"P{i}'s placed cards"))
                            for i, p in enumerate(_seat_list(setup["placed"], n, "placed"))]
            for i, p in enumerate(state.placed):
                if p & ~table:
                    raise DealError(f"P{i} placed {text_of(p & ~table)}, which is not on the table")
                if any(p & q for q in state.placed[:i]):
                    raise DealError("a table card is placed by two seats")
        if "scores" in setup:
            state.scores = [int(s) for s in _seat_list(setup["scores"], n, "scores")]
        if "taken" in setup:
            state.taken = [rummy_mask(_cards(t, f"P{i}'s taken cards"))
                           for i, t in enumerate(_seat_list(setup["taken"], n, "taken"))]
            for i, t in enumerate(state.taken):
                if t & ~state.hands[i]:
                    raise DealError(f"P{i} does not hold the taken card(s) {text_of(t)}")
        player = setup.get("player", 0)
        if not isinstance(player, int) or not 0 <= player < n:
            raise DealError(f"player {player!r} is not a seat (0 to {n - 1})")
        state.current_player = player
        phase = setup.get("phase", "draw")
        if phase not in ("draw", "play"):
            raise DealError(f"phase {phase!r} is not 'draw' or 'play'")
        state.drawing = phase == "draw"
        if "drawn" in setup:
            drawn = TO_RUMMY[_cards([setup["drawn"]], "drawn")[0]]
            if state.drawing or not state.hands[player] >> drawn & 1:
                raise DealError("drawn must be a card the player to move took in this turn")
            state.drawn = drawn
        turn = setup.get("turn", 0)
        if not isinstance(turn, int) or not 0 <= turn < self._options.turn_limit:
            raise DealError(f"turn {turn!r} is outside 0..{self._options.turn_limit - 1}")
        state.turn = turn
        for i, h in enumerate(state.hands):
            if not h:
                raise DealError(f"P{i}'s hand is empty: a deal needs cards in every hand")
        if state.drawing and not state.stock and not state.discard:
            raise DealError("the stock and the discard pile are both empty: nothing to draw")
        state._setup = state.position()
        if state.drawing and not state.stock:
            state.rebuild_stock()
        return state

    # -- matches -------------------------------------------------------------------------------
    def match_after_deal(self, carry: dict[str, Any], state: Any) -> dict[str, Any]:
        return {"went_out": state.went_out}

    def match_over(self, totals: Sequence[float], deals: int, carry: dict[str, Any]) -> bool:
        if deals == 0:
            return False
        target = self._options.series_target
        return target == 0 or max(totals) >= target or deals >= MAX_SERIES_DEALS

    def match_winners(self, totals: Sequence[float], carry: dict[str, Any]) -> list[int]:
        best = max(totals)
        tied = [i for i, t in enumerate(totals) if t == best]
        went_out = carry.get("went_out", -1)
        if len(tied) > 1 and self._options.tie_break == "went-out" and went_out in tied:
            return [went_out]
        return tied

    def greedy_action(
        self, observation: Observation, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        from parlour.games.rummy.policy import greedy_action

        return greedy_action(observation, legal, rng)
