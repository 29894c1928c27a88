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

from parlour._core import RummyCore, shuffle
from parlour.cards import CARDS, Card, parse_cards
from parlour.errors import CardError, DealError, IllegalAction, VariantError
from parlour.game import Action, Game, Observation, check_partition, parse_deck
from parlour.games.rummy.actions import DRAW_DISCARD_ACTION, INTERNED, parse_action
from parlour.games.rummy.engine import RummyState, core_turn_limit
from parlour.games.rummy.melds import CARD_ORDER, TO_CARD, TO_RUMMY, is_meld, rummy_mask, text_of
from parlour.games.rummy.observation import RummyObservation, observe
from parlour.play import seed_or_random
from parlour.registry import Variant, option

#: A series stops after this many deals even if nobody reached the target (a safety valve, like
#: the turn limit, for bots that never score).
MAX_SERIES_DEALS = 200
#: The largest score (and turn count) a position may give (the engine counts in 64 bits).
_SCORE_LIMIT = 2**62
#: The 52 cards in the core's numbers, in card-index order (the deck a seed shuffles).
_RUMMY_DECK = tuple(TO_RUMMY[c] for c in CARDS)


@dataclass(frozen=True)
class RummyOptions:
    """The [OPTION]s of RULES.md section 5, with their defaults."""

    hand_size: int = option(
        0, "the cards dealt to each player; 0 deals the usual number: 10 each to two players, "
        "7 to three or four", label="Cards dealt", min=0, max=25,
    )
    forbid_discard_of_drawn_discard: bool = option(
        False, "a card taken from the discard pile may not be discarded again in the same turn",
        label="No discarding the card just picked up",
    )
    score_melds: bool = option(
        True, "the cards a player melds score for that player; when off, only lay-offs score "
        "(always for the player laying off)", label="Melds score",
    )
    tie_break: str = option(
        "shared", "players tied for the highest score share the win, or the player who went "
        "out wins if among them", label="Equal top scores",
        choices={"shared": "share the win", "went-out": "the player who went out wins"},
    )
    series_target: int = option(
        0, "play deals until a player's total reaches this many points (500, say); 0 plays "
        "a single deal", label="Series target", min=0, max=10_000,
    )
    turn_limit: int = option(
        1000, "a deal in which nobody has gone out after this many turns ends there, blocked, "
        "and is scored", label="Turn limit", min=1, max=10_000,
    )


def _cards(value: Any, name: str) -> list[Card]:
    """The cards of ``value``; a bad card or a value that is not cards is a :class:`CardError`
    (which is a :class:`DealError`) saying where it was."""
    try:
        return parse_cards(value)
    except CardError as e:
        raise CardError(f"{name}: {e}") from None


def _list(value: object, name: str, expected: str) -> list[Any]:
    """``value`` as a list, refusing a string, a mapping or a scalar where a list belongs."""
    if not isinstance(value, (list, tuple)):
        raise DealError(f"{name}: expected {expected}, not {value!r}")
    return list(value)


def _seat_list(value: object, n: int, name: str, what: str) -> list[Any]:
    """One entry per seat: ``what`` is what an entry is (for the message)."""
    items = _list(value, name, f"a list of {n} {what}, one per seat")
    if len(items) != n:
        raise DealError(f"{name}: expected {n} {what}, one per seat, not {len(items)}")
    return items


def _whole(value: object, name: str, low: int | None = None, high: int | None = None) -> int:
    """An int (not a bool), within ``low..high`` when they are given."""
    if not isinstance(value, int) or isinstance(value, bool):
        raise DealError(f"{name}: expected a whole number, not {value!r}")
    if low is not None and high is not None and not low <= value <= high:
        raise DealError(f"{name}: expected a whole number from {low} to {high}, not {value!r}")
    return value


class RummyGame(Game):
    """Rummy with meld-point scoring: 2-4 players, the human (seat 0) first.

    >>> import parlour
    >>> parlour.new_game("rummy").options.turn_limit
    1000
    >>> parlour.new_game("rummy", series_target=500).match_end_text()
    "the match ends when a player's total reaches 500 points (or after 200 deals)"
    """

    options_type = RummyOptions
    _options: RummyOptions

    def max_deal_length(self) -> int:
        """A turn is a draw and a discard, the turn limit ends the deal, and each meld or
        lay-off puts down at least one card."""
        return 2 * int(self.options.turn_limit) + 54

    def observe(self, state: RummyState, seat: int) -> RummyObservation:
        """``seat``'s observation of ``state`` (the engine asks its game, importing no
        observation)."""
        return observe(state, seat)
    # The winner scores the cards left in the other hands: they are laid down to be counted.
    reveals_hands_at_end = True

    def __init__(self, variant: Variant, players: int, options: RummyOptions) -> None:
        super().__init__(variant, players, options)
        if players * self.hand_size + 1 > 52:
            need = (f"{players} hands of {self.hand_size} cards and the up-card need "
                    f"{players * self.hand_size + 1} cards; the deck has 52")
            raise VariantError(f"{variant.name}: {need}", f"Too many cards dealt: {need}")

    @property
    def options(self) -> RummyOptions:
        return self._options

    @property
    def hand_size(self) -> int:
        return self._options.hand_size or (10 if self.players == 2 else 7)

    @property
    def rules(self) -> tuple[int, bool, bool, int]:
        """What the options change of a deal's play (cards dealt, the discard rule, whether
        melds score, the turn limit), and not of a series: equal for two games whose deals
        play alike.

        >>> import parlour
        >>> game = parlour.new_game("rummy")
        >>> game.rules == parlour.new_game("rummy", series_target=500, tie_break="went-out").rules
        True
        >>> game.rules == parlour.new_game("rummy", score_melds=False).rules
        False
        """
        o = self._options
        return self.hand_size, o.forbid_discard_of_drawn_discard, o.score_melds, o.turn_limit

    def seat_name(self, seat: int) -> str:
        return "Human" if seat == 0 else f"Computer {seat}"

    def card_order(self) -> Sequence[int]:
        """By suit (clubs, diamonds, hearts, spades), ace low within a suit: a rummy player
        sorts a hand so that the runs show (``AC 2C 3C 9D 10D``)."""
        return CARD_ORDER

    def best_scores(self, scores: Sequence[float], went_out: int) -> list[int]:
        """The seats with the highest score; under the ``went-out`` tie-break, the seat that
        went out alone when it is among them."""
        best = max(scores)
        tied = [i for i, v in enumerate(scores) if v == best]
        if len(tied) > 1 and self._options.tie_break == "went-out" and went_out in tied:
            return [went_out]
        return tied

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
        ``player`` (to move), ``phase`` ("draw" or "play"), ``drawn`` (the card the player to
        move drew this turn and holds) with ``drawn_from`` ("discard", the default, or
        "stock"), ``turn`` (turns played) and ``past`` (the public record before this
        position: ``{"actions": [[seat, text], …], "discard_draws": [cards],
        "rebuilds": [actions played at each stock rebuild]}``, shown in observations and never
        replayed). ``seed`` also seeds the stock rebuilds.

        >>> import parlour
        >>> parlour.new_game("rummy").new_deal(hands="3D 4D", stock="...")
        Traceback (most recent call last):
        ...
        parlour.errors.DealError: hands: expected a list of 2 hands, one per seat, not '3D 4D'
        """
        seed = seed_or_random(None if seed is None else _whole(seed, "seed"))
        if hands is not None:
            if deck is not None:
                raise DealError("give either a deck to deal from or the hands, not both")
            return self._position(seed, hands, setup)
        if setup:
            raise DealError(f"unknown deal setting(s) {', '.join(setup)}: give them with hands")
        if deck is not None:
            cards = parse_deck(_cards(deck, "the deck"))
            order = [TO_RUMMY[c] for c in cards]
        else:
            # The deck of ``shuffled_deck(seed)`` in the core's card numbers, shuffled compiled.
            order = list(_RUMMY_DECK)
            shuffle(seed, order)
        o = self._options
        core = RummyCore.deal(INTERNED, self.players, o.forbid_discard_of_drawn_discard,
                              o.score_melds, core_turn_limit(o.turn_limit), order, self.hand_size)
        state = RummyState(self, core, seed)
        state._setup = {"seed": seed}
        if deck is not None:
            state._setup["deck"] = [str(c) for c in cards]
        return state

    def _position(self, seed: int, hands: object, setup: dict[str, Any]) -> RummyState:
        known = {"stock", "discard", "melds", "placed", "scores", "taken", "player", "phase",
                 "drawn", "drawn_from", "turn", "past"}
        unknown = set(setup) - known
        if unknown:
            raise DealError(f"unknown deal setting(s): {', '.join(sorted(unknown))}")
        n = self.players
        if "stock" not in setup:
            raise DealError("a deal from explicit hands also needs the stock (top card first)")
        seats = _seat_list(hands, n, "hands", "hands")
        hand_cards = [_cards(h, f"P{i}'s hand") for i, h in enumerate(seats)]
        stock_value = setup["stock"]
        words = (stock_value.split() if isinstance(stock_value, str)
                 else _list(stock_value, "stock", "cards (a list, or text such as '3D 10H ...')"))
        fill = bool(words) and words[-1] == "..."
        stock = _cards(words[:-1] if fill else words, "the stock")
        discard = _cards(setup.get("discard", []), "the discard pile")
        melds = [_cards(m, f"meld {i}") for i, m in
                 enumerate(_list(setup.get("melds", []), "melds", "a list of melds"), 1)]
        groups = [*hand_cards, stock, discard, *melds]
        names = ([f"P{i}'s hand" for i in range(n)] + ["the stock", "the discard pile"]
                 + [f"meld {i}" for i in range(1, len(melds) + 1)])
        if fill:
            check_partition(groups, names, total=sum(len(g) for g in groups))
            used = {int(c) for g in groups for c in g}
            stock += [TO_CARD[i] for i in range(52) if int(TO_CARD[i]) not in used]
        check_partition(groups, names)
        hand_masks = [rummy_mask(h) for h in hand_cards]
        meld_masks = [rummy_mask(m) for m in melds]
        for i, m in enumerate(meld_masks, 1):
            if not is_meld(m):
                raise DealError(f"meld {i} ({text_of(m)}) is not a valid run or group")
        table = 0
        for m in meld_masks:
            table |= m
        placed = [0] * n
        if "placed" in setup:
            placed = [rummy_mask(_cards(p, f"P{i}'s placed cards")) for i, p in
                      enumerate(_seat_list(setup["placed"], n, "placed", "lists of cards"))]
            for i, p in enumerate(placed):
                if p & ~table:
                    raise DealError(f"P{i} placed {text_of(p & ~table)}, which is not on the table")
                if any(p & q for q in placed[:i]):
                    raise DealError("a table card is placed by two seats")
        scores = [0] * n
        if "scores" in setup:
            scores = [_whole(s, f"P{i}'s score", -_SCORE_LIMIT, _SCORE_LIMIT) for i, s in
                      enumerate(_seat_list(setup["scores"], n, "scores", "scores"))]
        taken = [0] * n
        if "taken" in setup:
            taken = [rummy_mask(_cards(t, f"P{i}'s taken cards")) for i, t in
                     enumerate(_seat_list(setup["taken"], n, "taken", "lists of cards"))]
            for i, t in enumerate(taken):
                if t & ~hand_masks[i]:
                    raise DealError(f"P{i} does not hold the taken card(s) {text_of(t)}")
        player = _whole(setup.get("player", 0), "player", 0, n - 1)
        phase = setup.get("phase", "draw")
        if phase not in ("draw", "play"):
            raise DealError(f"phase: expected 'draw' or 'play', not {phase!r}")
        drawing = phase == "draw"
        drawn, from_discard = -1, False
        if "drawn" in setup:
            drawn, from_discard = self._drawn(drawing, hand_masks[player], setup["drawn"],
                                              setup.get("drawn_from", "discard"))
            if from_discard:  # everyone saw it taken
                taken[player] |= 1 << drawn
        elif "drawn_from" in setup:
            raise DealError("drawn_from goes with drawn, the card drawn")
        turn = _whole(setup.get("turn", 0), "turn", 0,
                      min(self._options.turn_limit - 1, _SCORE_LIMIT))
        for i, h in enumerate(hand_masks):
            if not h:
                raise DealError(f"P{i}'s hand is empty: a deal needs cards in every hand")
        if drawing and not stock and not discard:
            raise DealError("the stock and the discard pile are both empty: nothing to draw")
        o = self._options
        core = RummyCore.position(
            INTERNED, n, o.forbid_discard_of_drawn_discard, o.score_melds,
            core_turn_limit(o.turn_limit), hand_masks, [TO_RUMMY[c] for c in reversed(stock)],
            [TO_RUMMY[c] for c in discard], meld_masks, placed, scores, taken, player, drawing,
            drawn, from_discard, turn)
        state = RummyState(self, core, seed)
        if "past" in setup:
            self._past(state, setup["past"])
        state._setup = state.position()
        if drawing and not stock:
            state.rebuild_stock(len(state._past))
        return state

    @staticmethod
    def _drawn(drawing: bool, hand: int, card: object, source: object) -> tuple[int, bool]:
        """The card the player to move drew this turn (a rummy-layout bit), and whether from
        the discard pile."""
        if source not in ("discard", "stock"):
            raise DealError(f"drawn_from: expected 'discard' or 'stock', not {source!r}")
        (drawn,) = _cards([card], "drawn")
        bit = TO_RUMMY[drawn]
        if drawing or not hand >> bit & 1:
            raise DealError("drawn must be a card the player to move drew in this turn and holds")
        return bit, source == "discard"

    def _past(self, state: RummyState, past: object) -> None:
        """The public record before a position (see :meth:`new_deal`)."""
        if not isinstance(past, dict) or set(past) != {"actions", "discard_draws", "rebuilds"}:
            raise DealError(
                "past: expected {'actions': [[seat, text], …], 'discard_draws': [cards], "
                f"'rebuilds': [numbers]}}, not {past!r}"
            )
        actions = []
        for entry in _list(past["actions"], "past actions", "a list of [seat, text] pairs"):
            if not isinstance(entry, (list, tuple)) or len(entry) != 2:
                raise DealError(f"past actions: expected [seat, text] pairs, not {entry!r}")
            seat = _whole(entry[0], "a seat in past actions", 0, self.players - 1)
            try:
                actions.append((seat, parse_action(entry[1])))
            except IllegalAction as e:
                raise DealError(f"past actions: {e}") from None
        draws = _cards(_list(past["discard_draws"], "past discard_draws", "a list of cards"),
                       "past discard_draws")
        if len(draws) != sum(1 for _, a in actions if a == DRAW_DISCARD_ACTION):
            raise DealError("past: expected one card in discard_draws per 'draw discard' action")
        rebuilds = [_whole(r, "past rebuilds", 0, len(actions))
                    for r in _list(past["rebuilds"], "past rebuilds", "a list of numbers")]
        if rebuilds != sorted(rebuilds):
            raise DealError("past rebuilds: expected numbers in the order they happened")
        state._past = tuple(actions)
        state._discard_draws[:] = [TO_RUMMY[c] for c in draws]  # the core's list
        state._rebuilds = rebuilds

    # -- matches -------------------------------------------------------------------------------
    def match_after_deal(self, carry: dict[str, Any], state: Any) -> dict[str, Any]:
        return {"went_out": state.went_out}

    def match_over(self, totals: Sequence[float], deals: int, carry: dict[str, Any]) -> bool:
        if deals == 0:
            return False
        target = self._options.series_target
        return target == 0 or max(totals) >= target or deals >= MAX_SERIES_DEALS

    def match_winners(self, totals: Sequence[float], carry: dict[str, Any]) -> list[int]:
        return self.best_scores(totals, carry.get("went_out", -1))

    def match_end_text(self) -> str:
        target = self._options.series_target
        if not target:
            return "the match is one deal"
        return (f"the match ends when a player's total reaches {target} points "
                f"(or after {MAX_SERIES_DEALS} deals)")

    def greedy_action(
        self, observation: Observation, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        from parlour.games.rummy.policy import greedy_action

        return greedy_action(observation, legal, rng)
