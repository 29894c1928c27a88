"""The two variants of RULES.md section 3: ``forty-five`` and ``spoil-five``.

Both deal the same way and play the same tricks (see :mod:`.engine`); they differ in sides,
when a deal stops, scoring and what a match carries from deal to deal.

>>> import parlour
>>> game = parlour.new_game("forty-five", scoring="alternative")
>>> game.players, game.options.target
(4, 45)
>>> state = game.new_deal(seed=1, dealer=2)
>>> state.observation(0).leader
3
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cached_property
from typing import Any, ClassVar

from parlour._core import TrumpEngine, trump_deal
from parlour.cards import Card, mask_of, parse_card, parse_cards
from parlour.errors import DealError, VariantError
from parlour.game import Action, Game, Observation, check_partition, parse_deck
from parlour.games.trump.engine import HAND_SIZE, DealRules, TrumpState, stake
from parlour.games.trump.observation import TrumpObservation, chips_text, observe
from parlour.play import seed_or_random
from parlour.registry import Variant, option

IMMEDIATE = "immediate"
AFTER_FIRST_TRICK = "after_first_trick"
PRIMARY = "primary"
ALTERNATIVE = "alternative"


def _silent_ace_option() -> Any:
    return option(
        False,
        "the holder of the ace of trumps may keep quiet instead of robbing or announcing it; "
        "that ace then ranks as the lowest trump (and every seat takes a turn to rob)",
        label="Ace of trumps may stay silent",
    )


def _ace_pickup_option() -> Any:
    return option(
        AFTER_FIRST_TRICK,
        "after the first trick (the usual rule), or at once, to play it in the first trick",
        label="A dealer robbing a turned-up ace takes it",
        choices={AFTER_FIRST_TRICK: "after the first trick", IMMEDIATE: "at once"},
    )


@dataclass(frozen=True)
class FortyFiveOptions:
    """Options of ``forty-five`` (RULES.md 3.2)."""

    scoring: str = option(
        PRIMARY,
        "usual: the side taking 3 or 4 tricks scores 5, all five 10; by tricks: 5 points a "
        "trick, less the other side's (3 tricks score 5, 4 score 15, all five 25)",
        label="Scoring",
        choices={PRIMARY: "usual: 5, or 10 for all five tricks",
                 ALTERNATIVE: "by tricks: 5, 15 or 25"},
    )
    target: int = option(45, "the points a side needs to win the match", label="Points to win",
                         min=5, max=1000)
    silent_ace: bool = _silent_ace_option()
    ace_pickup: str = _ace_pickup_option()


@dataclass(frozen=True)
class SpoilFiveOptions:
    """Options of ``spoil-five`` (RULES.md "Variants" and 3.2, secondary mode)."""

    jinking: bool = option(
        False,
        "a player who takes the first three tricks may stop and take the pool, or jink: play "
        "on for all five, for an extra ante from each other player, but a lost trick spoils "
        "the pool",
        label="Allow jinking",
    )
    ante: int = option(1, "the chips each player puts in the pool every deal", label="Ante",
                       min=1, max=100)
    starting_chips: int = option(20, "the chips each player starts the match with (at least "
                                 "the ante)", label="Starting chips", min=1, max=1000)
    deals: int = option(20, "the deals in a match (it ends sooner if someone cannot pay the "
                        "ante)", label="Number of deals", min=1, max=1000)
    silent_ace: bool = _silent_ace_option()
    ace_pickup: str = _ace_pickup_option()


class TrumpGame(Game):
    """What both variants share: dealing and the rule-based policy."""

    rules: DealRules
    #: Two sides playing for points (Forty-Five), or each player for the pool (Spoil Five).
    partnership: ClassVar[bool]

    @property
    def sides(self) -> tuple[int, ...] | None:
        return tuple(self.rules.sides) if self.partnership else None

    def max_deal_length(self) -> int:
        """Five tricks of one card a seat, a robbing turn a seat at most, and the jinker's
        choice."""
        return 6 * self.players + 4

    def observe(self, state: TrumpState, seat: int) -> TrumpObservation:
        """``seat``'s observation of ``state`` (the engine asks its game, importing no
        observation)."""
        return observe(state, seat)

    def _deal_args(self, setup: dict[str, Any]) -> tuple[tuple[int, ...], int]:
        """Checked ``(scores, pool)`` from the setup arguments."""
        raise NotImplementedError

    @cached_property
    def _default_deal_args(self) -> tuple[tuple[int, ...], int]:
        """``(scores, pool)`` of a deal given neither."""
        return self._deal_args({})

    def new_deal(
        self,
        *,
        seed: int | None = None,
        deck: Sequence[Card | str] | str | None = None,
        hands: Sequence[Sequence[Card | str] | str] | None = None,
        **setup: Any,
    ) -> TrumpState:
        n = self.players
        if seed.__class__ is int and not setup and deck is None and hands is None:
            # The common call, a seeded deal with the default settings: nothing to check, and
            # the engine comes with the deal.
            scores, pool = self._default_deal_args
            engine, masks, turn_up = TrumpEngine.deal(self.rules.core, seed, n, n - 1, stake(pool))
            return TrumpState(self, self.rules, masks, turn_up, n - 1, scores, pool, engine)
        dealer = setup.pop("dealer", n - 1)
        if not _is_int(dealer) or not 0 <= dealer < n:
            raise DealError(f"dealer must be a seat 0..{n - 1}, not {dealer!r}")
        turn_up_text = setup.pop("turn_up", None)
        scores, pool = self._deal_args(setup)
        if setup:
            raise DealError(f"{self.name} has no deal setting {', '.join(map(repr, setup))}; "
                            "its settings are dealer, turn_up (with hands), scores and pool")
        if seed is not None and not _is_int(seed):
            raise DealError(f"seed must be an integer, not {seed!r}")
        if sum(x is not None for x in (seed, deck, hands)) > 1:
            raise DealError("give either hands, a deck or a seed, not several")
        if hands is not None:
            if turn_up_text is None:
                raise DealError("a deal from explicit hands needs the turn_up card")
            cards, up = _checked_hands(hands, turn_up_text, n)
            masks, turn_up = tuple(mask_of(h) for h in cards), int(up)
        else:
            if turn_up_text is not None:
                raise DealError("the turn_up comes from the deck; give it only with hands")
            if deck is None:
                # The deck of ``shuffled_deck(seed)``, dealt as ``_deal`` does, compiled.
                masks, turn_up = trump_deal(seed_or_random(seed), n, dealer)
            else:
                _check_cards(deck, "deck must be the 52 cards, top first,")
                masks, turn_up = _deal([int(c) for c in parse_deck(deck)], n, dealer)
        return TrumpState(self, self.rules, masks, int(turn_up), dealer, scores, pool)

    def greedy_action(
        self, observation: Observation, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """The rule-based choice: rob with the weakest card, jink with two sure winners, draw
        trumps with one nobody can beat, win a trick as cheaply as possible (but hold off an
        opponent on two tricks), and leave a trick the partner has. Compiled
        (``rust/src/trump/policy.rs``); it reads the observation only and draws nothing from
        ``rng``.

        >>> import parlour, random
        >>> game = parlour.new_game("forty-five")
        >>> state = game.new_deal(hands=["5S 3S 7D 8C 9H", "KS 2D 3D 4D 5D", "6S 7S 8S 9S 10S",
        ...                              "AS 4C 6C 8H KC"], turn_up="2S", dealer=3)
        >>> str(game.greedy_action(state.observation(3), state.legal_actions(), random.Random(0)))
        'rob 6C'
        """
        return self.rules.core.greedy(observation, legal)


class FortyFiveGame(TrumpGame):
    """Forty-Five: two sides (partners alternate), 5 or 10 a deal, first side to 45 wins.

    >>> import parlour
    >>> game = parlour.new_game("forty-five", players=6)
    >>> game.rules.sides
    (0, 1, 0, 1, 0, 1)
    """

    options_type = FortyFiveOptions
    partnership = True

    def __init__(self, variant: Variant, players: int, options: FortyFiveOptions) -> None:
        super().__init__(variant, players, options)
        self.rules = DealRules(
            sides=tuple(s % 2 for s in range(players)),
            silent_ace=options.silent_ace,
            immediate_pickup=options.ace_pickup == IMMEDIATE,
            stop_at_three=False,
            jinking=False,
            points=_ALTERNATIVE if options.scoring == ALTERNATIVE else _PRIMARY,
        )

    def _deal_args(self, setup: dict[str, Any]) -> tuple[tuple[int, ...], int]:
        scores = setup.pop("scores", [0, 0])
        pool = setup.pop("pool", 0)
        if not _is_int(pool) or pool != 0:
            raise DealError(f"forty-five is played for points: it has no pool (0), not {pool!r}")
        if not (isinstance(scores, (list, tuple)) and len(scores) == 2
                and all(_is_int(v) for v in scores)):
            raise DealError("scores must be the two sides' points before this deal (side A, "
                            f"the even seats, first), e.g. [15, 10], not {scores!r}")
        return tuple(scores), 0

    # -- matches ----------------------------------------------------------------------------
    def match_start(self) -> dict[str, Any]:
        return {"dealer": None, "scores": [0, 0]}

    def match_deal_setup(self, carry: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        dealer = carry["dealer"]
        if dealer is None:
            dealer = rng.randrange(self.players)
        return {"dealer": dealer, "scores": list(carry["scores"])}

    def match_after_deal(self, carry: dict[str, Any], state: Any) -> dict[str, Any]:
        returns = state.returns()
        scores = list(carry["scores"])
        for side in (0, 1):
            scores[side] += int(returns[side])  # seat 0 plays for side 0, seat 1 for side 1
        return {"dealer": (state.dealer + 1) % self.players, "scores": scores}

    def match_over(self, totals: Sequence[float], deals: int, carry: dict[str, Any]) -> bool:
        return bool(max(totals) >= self.options.target)

    def match_end_text(self) -> str:
        """
        >>> import parlour
        >>> parlour.new_game("forty-five", target=25).match_end_text()
        'the first side to 25 points wins the match'
        """
        return f"the first side to {self.options.target} points wins the match"

    def match_winners(self, totals: Sequence[float], carry: dict[str, Any]) -> list[int]:
        target = self.options.target
        return [s for s, t in enumerate(totals) if t >= target]


class SpoilFiveGame(TrumpGame):
    """Spoil Five: individual play for a pool; three tricks take it, otherwise it is spoiled.

    >>> import parlour
    >>> game = parlour.new_game("spoil-five", players=3)
    >>> game.match_initial_totals()
    [20.0, 20.0, 20.0]
    """

    options_type = SpoilFiveOptions
    partnership = False
    # The match totals are each player's chips, and a deal wins or loses some.
    score_unit = "chips"

    def __init__(self, variant: Variant, players: int, options: SpoilFiveOptions) -> None:
        if options.ante > options.starting_chips:
            # Nobody could pay the first ante: the match would end before its first deal.
            raise VariantError(
                f"spoil-five option ante={options.ante} is more than starting_chips="
                f"{options.starting_chips}; every player must be able to pay the first ante",
                f"The ante ({options.ante}) is more than the starting chips "
                f"({options.starting_chips}): every player must be able to pay the first ante",
            )
        super().__init__(variant, players, options)
        self.rules = DealRules(
            sides=tuple(range(players)),
            silent_ace=options.silent_ace,
            immediate_pickup=options.ace_pickup == IMMEDIATE,
            stop_at_three=True,
            jinking=options.jinking,
            ante=options.ante,
        )

    def _deal_args(self, setup: dict[str, Any]) -> tuple[tuple[int, ...], int]:
        n = self.players
        ante = self.options.ante
        chips = setup.pop("scores", [self.options.starting_chips] * n)
        pool = setup.pop("pool", n * ante)
        if not (isinstance(chips, (list, tuple)) and len(chips) == n
                and all(_is_int(v) for v in chips)):
            raise DealError(f"scores must be the {n} players' chips before this deal's ante, "
                            f"not {chips!r}")
        if not _is_int(pool) or pool < n * ante:
            raise DealError(f"the pool holds at least this deal's antes ({n * ante}), not {pool!r}")
        return tuple(chips), pool

    # -- matches ----------------------------------------------------------------------------
    def match_start(self) -> dict[str, Any]:
        return {"dealer": None, "carried": 0, "scores": self.match_initial_totals()}

    def match_initial_totals(self) -> list[float]:
        return [float(self.options.starting_chips)] * self.players

    def match_deal_setup(self, carry: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        dealer = carry["dealer"]
        if dealer is None:
            dealer = rng.randrange(self.players)
        return {
            "dealer": dealer,
            "pool": carry["carried"] + self.players * self.options.ante,
            "scores": [int(v) for v in carry["scores"]],
        }

    def match_after_deal(self, carry: dict[str, Any], state: Any) -> dict[str, Any]:
        returns = state.returns()
        scores = [int(a + b) for a, b in zip(carry["scores"], returns, strict=True)]
        carried = 0 if state.taker >= 0 else state.pool
        return {"dealer": (state.dealer + 1) % self.players, "carried": carried, "scores": scores}

    def match_over(self, totals: Sequence[float], deals: int, carry: dict[str, Any]) -> bool:
        # A match deals at least once, whatever totals it was given.
        return deals > 0 and (deals >= self.options.deals or min(totals) < self.options.ante)

    def match_end_text(self) -> str:
        """
        >>> import parlour
        >>> parlour.new_game("spoil-five", deals=10, ante=2).match_end_text()
        'the match lasts 10 deals, or ends sooner when a player has fewer than 2 chips to ante; everyone starts with 20 chips'
        """
        o = self.options
        deals = f"{o.deals} deal{'s' * (o.deals != 1)}"
        return (f"the match lasts {deals}, or ends sooner when a player has fewer than "
                f"{chips_text(o.ante)} to ante; everyone starts with "
                f"{chips_text(o.starting_chips)}")


# -- dealing --------------------------------------------------------------------------------
_PRIMARY = (0, 0, 0, 5, 5, 10)
_ALTERNATIVE = (0, 0, 0, 5, 15, 25)


def _deal(deck: Sequence[int], n: int, dealer: int) -> tuple[tuple[int, ...], int]:
    """Packets of three then two from the dealer's left, ending with the dealer; then the
    next card is turned up. Returns the hands as masks and the turn-up."""
    hands = [0] * n
    pos = 0
    for packet in (3, 2):
        for i in range(1, n + 1):
            seat = (dealer + i) % n
            for c in deck[pos:pos + packet]:
                hands[seat] |= 1 << c
            pos += packet
    return tuple(hands), deck[pos]


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_cards(value: object, what: str) -> None:
    """Refuse ``value`` where cards belong unless it is text or a collection (its items are
    checked card by card when parsed, a bad one raising :class:`CardError`)."""
    if isinstance(value, (bytes, bytearray)) or not isinstance(value, (str, Iterable)):
        raise DealError(f"{what} a list of cards or text such as '3D 10H', not {value!r}")


def _checked_hands(
    hands: Sequence[Sequence[Card | str] | str], turn_up: Any, n: int
) -> tuple[list[list[Card]], Card]:
    if isinstance(hands, str) or not isinstance(hands, Sequence):
        raise DealError(f"hands must be a list of the {n} players' hands (each a list of cards "
                        f"or text such as '3D 10H'), not {hands!r}")
    if len(hands) != n:
        raise DealError(f"the deal has {len(hands)} hands for {n} players")
    for seat, hand in enumerate(hands):
        _check_cards(hand, f"P{seat}'s hand must be {HAND_SIZE} cards,")
    cards = [parse_cards(h) for h in hands]
    if isinstance(turn_up, str):
        up = parse_card(turn_up)
    elif _is_int(turn_up):
        up = Card(turn_up)
    else:
        raise DealError(f"turn_up must be one card, e.g. '9S', not {turn_up!r}")
    for seat, hand in enumerate(cards):
        if len(hand) != HAND_SIZE:
            raise DealError(f"P{seat} has {len(hand)} cards; each player is dealt {HAND_SIZE}")
    groups = [*cards, [up]]
    names = [f"P{s}'s hand" for s in range(n)] + ["the turn-up"]
    check_partition(groups, names, total=n * HAND_SIZE + 1)
    return cards, up
