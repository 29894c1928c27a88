"""The climbing games' :class:`ClimbingGame`: deals, matches, and the greedy policy's entry."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from parlour.cards import Card, parse_cards
from parlour.errors import CardError, DealError
from parlour.game import Action, Game, Observation, check_partition, parse_deck
from parlour.games.climbing.combos import ComboTable
from parlour.games.climbing.engine import ClimbingState, Start
from parlour.games.climbing.observation import ClimbingObservation
from parlour.games.climbing.rules import ClimbingRules
from parlour.play import seed_or_random
from parlour.registry import Variant

_TABLES: dict[ClimbingRules, ComboTable] = {}


def combo_table(rules: ClimbingRules) -> ComboTable:
    """The shared table of a ruleset (its interned actions are reused by every deal)."""
    table = _TABLES.get(rules)
    if table is None:
        table = _TABLES[rules] = ComboTable(rules)
    return table


class ClimbingGame(Game):
    """``big-two-4card``, ``big-two`` or ``pusoy-dos`` with their options.

    ``new_deal`` takes ``seed``, ``deck`` or ``hands``. With ``hands`` (one per seat, cards or
    text) it also takes, to set up any position:

    - ``out``: cards already out of play (played in earlier tricks), so hands may hold fewer
      than 13 cards;
    - ``leader``: a seat that leads freely (as in later deals of a match). Without it, and
      without ``table``, the holder of the lowest card opens under the opening rule;
    - ``table``, ``table_seat``, ``passes``: a trick in progress: the play to beat, the seat that
      made it, and how many players have passed since (default 0). The table's cards are in no
      hand and not in ``out``: the deal's 52 cards are the hands, ``out`` and ``table``. The player
      to move is the one after ``table_seat`` and the passers (seats out of cards are skipped);
      ``to_move=`` may say it instead of ``passes``, or as a check;
    - ``finished`` (pusoy-dos, which plays on for places): the seats already out, first place
      first. In pusoy-dos a seat with no cards has gone out, and ``finished`` lists exactly those
      seats. In big-two-4card and big-two (and pusoy-dos with penalty scoring) the deal ends at
      the first player out, so every seat must hold cards.

    A setup that no deal could reach is refused with :class:`~parlour.errors.DealError` saying
    why; ``state.setup()`` gives back these keywords, so records replay any position.

    >>> import parlour
    >>> s = parlour.new_game("big-two").new_deal(
    ...     hands=["3D 4D 5D 6D 7D 8D 9D 10D JD QD KD AD 2D", "3C 4C 5C 6C 7C 8C 9C 10C JC QC KC AC 2C",
    ...            "3H 4H 5H 6H 7H 8H 9H 10H JH QH KH AH 2H", "3S 4S 5S 6S 7S 8S 9S 10S JS QS KS AS 2S"])
    >>> s.apply("3d 4d 5d 6d 7d")
    >>> s.apply("10c 9c 8c 7c 6c")
    >>> s.apply("2h")
    Traceback (most recent call last):
    ...
    parlour.errors.IllegalAction: a 1-card single cannot answer a 5-card straight flush (6C 7C 8C 9C 10C): play 5 cards that beat it, or pass

    A trick in progress: P2 played a pair of 10s and P3 passed, so P0 is to answer it.

    >>> s = parlour.new_game("big-two").new_deal(
    ...     hands=["3D JC", "4C 5H", "QS KS", "AD"], table="10D 10S", table_seat=2, passes=1,
    ...     out=[c for c in parlour.CardSet((1 << 52) - 1).cards()
    ...          if str(c) not in "3D JC 4C 5H QS KS AD 10D 10S".split()])
    >>> s.current_player, str(s.observation(0).table), s.setup()["passes"]
    (0, '10D 10S', 1)
    """

    #: What a seat observes: the engine makes it through the game, importing no observation.
    observation_class = ClimbingObservation

    def max_deal_length(self) -> int:
        """A play lays down at least one of the 52 cards, and between two plays each other
        seat passes at most once (a trick ends when all the others have passed)."""
        return 52 * self.players

    # The deal is scored by the cards each player still holds: they are laid down to be counted.
    reveals_hands_at_end = True

    @property
    def penalty_scoring(self) -> bool:
        return self.rules.scoring == "penalty"

    def __init__(self, variant: Variant, players: int, options: Any, rules: ClimbingRules) -> None:
        super().__init__(variant, players, options)
        self.rules = rules
        self.table = combo_table(rules)

    def card_order(self) -> Sequence[int]:
        return self.table.card_order

    def new_deal(
        self,
        *,
        seed: int | None = None,
        deck: Sequence[Card | str] | str | None = None,
        hands: Sequence[Sequence[Card | str] | str] | None = None,
        leader: int | None = None,
        out: Sequence[Card | str] | str | None = None,
        table: Sequence[Card | str] | str | None = None,
        table_seat: int | None = None,
        passes: int | None = None,
        to_move: int | None = None,
        finished: Sequence[int] | None = None,
        **setup: Any,
    ) -> ClimbingState:
        if setup:
            raise DealError(f"{self.name} deals take no {', '.join(sorted(setup))}; they take "
                            "seed, deck, hands, leader, out, table, table_seat, passes, to_move "
                            "and finished")
        if hands is None:
            composed = {"out": out, "table": table, "table_seat": table_seat, "passes": passes,
                        "to_move": to_move, "finished": finished}
            given = [k for k, v in composed.items() if v is not None]
            if given:
                raise DealError(f"{', '.join(given)} set(s) up a composed position: give "
                                "explicit hands too (hands=…)")
            if deck is not None:
                if seed is not None:
                    raise DealError("give a deck or a seed, not both")
                cards = parse_deck(deck)
                dealt = [cards[i::self.players] for i in range(self.players)]  # one at a time
                key = self.table.key_mask
                dealt_hands = tuple(key(h) for h in dealt)
            else:
                # The deck of ``shuffled_deck(seed)``, dealt the same way, compiled.
                dealt_hands = tuple(self.table.core.deal(seed_or_random(seed), self.players))
            start = Start(dealt_hands, self._seat_arg("leader", leader))
        else:
            if deck is not None or seed is not None:
                raise DealError("give hands, a deck or a seed, not several")
            start = self._position(hands, leader, out, table, table_seat, passes, to_move,
                                   finished)
        if start.leader is None and not start.table and not any(h & 1 for h in start.hands):
            raise DealError(f"no hand holds {self.rules.lowest_card_text}: "
                            "say which seat leads (leader=…)")
        if start.leader is not None and not start.hands[start.leader]:
            raise DealError(f"leader P{start.leader} holds no cards: the leader must hold cards")
        return ClimbingState(self, start)

    def _position(self, hands: object, leader: object,
                  out: Sequence[Card | str] | str | None,
                  table: Sequence[Card | str] | str | None, table_seat: object, passes: object,
                  to_move: object, finished: object) -> Start:
        """The checked start of a composed position (``new_deal(hands=…)``)."""
        n = self.players
        if isinstance(hands, (str, bytes)) or not isinstance(hands, Sequence):
            raise DealError(f"hands must be a list of {n} hands, one per seat (each a list of "
                            f"cards or text such as '3D 10H'), not {_show(hands)}")
        if len(hands) != n:
            raise DealError(f"{self.name} needs {n} hands, not {len(hands)}")
        dealt = []
        for i, h in enumerate(hands):
            try:
                dealt.append(parse_cards(h))
            except CardError as e:
                raise CardError(f"P{i}'s hand: {e}") from None
        out_cards = parse_cards(out) if out is not None else []
        table_cards = parse_cards(table) if table is not None else []
        check_partition([*dealt, out_cards, table_cards],
                        [f"P{i}'s hand" for i in range(n)] + ["out", "the table"])
        if out is None and table is None:
            for i, h in enumerate(dealt):
                if len(h) != 52 // n:
                    raise DealError(f"each hand has {52 // n} cards; P{i} has {len(h)} "
                                    "(give out=… or table=… to compose a position)")
        key = self.table.key_mask
        key_hands = tuple(key(h) for h in dealt)
        start = Start(key_hands, self._seat_arg("leader", leader), key(out_cards),
                      finished=self._finished_arg(key_hands, finished))
        if table is None:
            extra = [k for k, v in (("table_seat", table_seat), ("passes", passes),
                                    ("to_move", to_move)) if v is not None]
            if extra:
                raise DealError(f"{', '.join(extra)} describe(s) a trick in progress: give "
                                "the table play too (table=…)")
            if start.finished and start.leader is None:
                raise DealError(f"P{start.finished[0]} has already gone out, so the opening "
                                "play is past: say who leads (leader=…) or give the table play "
                                "(table=…)")
            return start
        return self._trick(start, table_cards, table_seat, passes, to_move)

    def _trick(self, start: Start, table_cards: list[Card], table_seat: object, passes: object,
               to_move: object) -> Start:
        """``start`` with the trick in progress that ``table`` … describe, checked."""
        if start.leader is not None:
            raise DealError("give a leader (a free lead) or a table play to beat, not both")
        packed = self.table.classify(self.table.key_mask(table_cards))
        if packed is None:
            raise DealError(f"the table play {' '.join(map(str, table_cards)) or '(no cards)'} is "
                            f"not a valid combination in {self.name}; the plays are "
                            f"{self.table.plays_text()}")
        if table_seat is None:
            raise DealError("say who made the table play (table_seat=…)")
        ts = self._seat_arg("table_seat", table_seat)
        assert ts is not None
        hands = start.hands
        if not hands[ts] and not (self.rules.control_after_out == "standard"
                                  and start.finished[-1:] == (ts,)):
            # Empty seats are refused earlier where the deal ends at the first player out.
            went_out = f"P{ts} holds no cards, so P{ts} went out with the table play"
            if self.rules.control_after_out == "standard":
                raise DealError(f"{went_out}: P{ts} must be the last seat in finished")
            raise DealError(f"{went_out}, and in {self.name} the next player then leads: no "
                            "table play is left to beat (it is with control_after_out="
                            "'standard')")
        # The seats that may pass before control is won, in turn order: everyone still in but
        # the table seat. The engine gives control once all of them have passed.
        order = [(ts + k) % self.players for k in range(1, self.players)]
        order = [s for s in order if hands[s]]
        if passes is not None and not (_is_int(passes) and passes >= 0):  # type: ignore[operator]
            raise DealError(f"passes must be a number of passes (an int ≥ 0), not {_show(passes)}")
        mover = self._seat_arg("to_move", to_move)
        if mover is not None and mover not in order:
            raise DealError(f"P{mover} cannot be to move after P{ts}'s table play: "
                            + (f"P{mover} holds no cards" if mover != ts else
                               f"P{ts} would have won control (give leader={ts})"))
        if passes is None:
            count = 0 if mover is None else order.index(mover)
        else:
            count = int(passes)  # type: ignore[call-overload]
        if count >= len(order):
            taker = ts if hands[ts] else order[0]
            raise DealError(f"{count} pass(es) after P{ts}'s table play: with {len(order)} "
                            f"other seat(s) still in, P{taker} would already have control; "
                            f"give leader={taker} instead")
        if mover is not None and order[count] != mover:
            raise DealError(f"after P{ts}'s table play and {count} pass(es), P{order[count]} is "
                            f"to move, not P{mover}")
        return start._replace(table=packed, table_seat=ts, passes=count)

    def _seat_arg(self, name: str, value: object) -> int | None:
        """``value`` (``None`` or a seat) for the keyword ``name``, or :class:`DealError`."""
        if value is None or (_is_int(value) and 0 <= value < self.players):  # type: ignore[operator]
            return value  # type: ignore[return-value]
        raise DealError(f"{name} must be a seat 0..{self.players - 1}, not {_show(value)}")

    def _finished_arg(self, hands: tuple[int, ...], finished: object) -> tuple[int, ...]:
        """The seats already out, checked against the seats with no cards (see ``new_deal``)."""
        empty = [i for i, h in enumerate(hands) if not h]
        names = ", ".join(f"P{i}" for i in empty)
        if self.rules.ends_at_first_out:
            if empty:
                raise DealError(f"{names} hold(s) no cards: in {self.name} the deal ends when the "
                                "first player goes out, so every seat must hold cards")
            if finished:
                raise DealError(f"in {self.name} the deal ends when the first player goes out, "
                                f"so no seat can have gone out before (finished={finished!r})")
            return ()
        if len(empty) > self.players - 2:
            raise DealError(f"{names} hold no cards: the deal would be over; at least two seats "
                            "must hold cards")
        if finished is None:
            if empty:
                raise DealError(f"{names} hold(s) no cards: in {self.name} a seat with no cards has "
                                "already gone out; say in which order with finished=[…] "
                                "(first place first)")
            return ()
        if isinstance(finished, (str, bytes)) or not isinstance(finished, Sequence) or not all(
                _is_int(s) for s in finished):
            raise DealError(f"finished must be a list of seats, first place first, not "
                            f"{_show(finished)}")
        seats = tuple(int(s) for s in finished)
        if len(set(seats)) != len(seats) or sorted(seats) != empty:
            raise DealError(f"finished must list the seats with no cards ({names or 'none'}), "
                            f"each once, first place first, not {list(seats)}")
        return seats

    # -- matches (RULES.md "Several deals") -----------------------------------------------------
    def match_deal_setup(self, carry: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        return {"leader": carry["leader"]} if carry.get("leader") is not None else {}

    def match_after_deal(self, carry: dict[str, Any], state: Any) -> dict[str, Any]:
        # big-two: the previous winner leads freely; pusoy-dos only with next_leader='winner'.
        if getattr(self.options, "next_leader", None) == "winner" or self.name == "big-two":
            return {"leader": state.placements[0]}
        return carry

    def match_over(self, totals: Sequence[float], deals: int, carry: dict[str, Any]) -> bool:
        if getattr(self.options, "match_end", "deals") == "penalty-limit":
            return bool(-min(totals) >= self.options.penalty_limit)
        return bool(deals >= self.options.deals)

    def match_end_text(self) -> str:
        options = self.options
        if getattr(options, "match_end", "deals") == "penalty-limit":
            return f"the match ends when a player has {options.penalty_limit} penalty points"
        if options.deals == 1:
            return super().match_end_text()
        return f"the match lasts {options.deals} deals"

    def bench_extra(self, seconds: float) -> dict[str, str]:
        return {"all leads of a 13-card hand": f"{_leads_microseconds(self, seconds):.1f} µs"}

    def greedy_action(
        self, observation: Observation, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """The rule-based policy (compiled: ``rust/src/climbing/policy.rs``): it goes out when
        it can; otherwise it answers with the cheapest play that does not break up a pair,
        triple or five-card hand, keeps its 2s while the others still hold many cards, and
        leads the combination that sheds the most low cards. It reads the observation's seat,
        hand, card counts and table, and never draws from ``rng``."""
        return self.table.core.greedy(observation, legal)  # type: ignore[no-any-return]


def _leads_microseconds(game: ClimbingGame, seconds: float) -> float:
    """Microseconds for ``legal_actions()`` to list every lead of a fresh 13-card hand.

    Measured through the public protocol: fresh deals where seat 0 leads freely are made
    untimed, then only their first ``legal_actions()`` (which builds the hand's plays) is timed.
    The best of several rounds is reported, as ``timeit`` does, to shed scheduling noise.
    """
    import time

    deals = [game.new_deal(seed=i, leader=0) for i in range(200)]
    for state in deals:  # warm the shared action table, as a long simulation would be
        state.legal_actions()
    best = float("inf")
    deadline = time.perf_counter() + seconds
    seed = 200
    while time.perf_counter() < deadline or best == float("inf"):
        fresh = [game.new_deal(seed=seed + i, leader=0) for i in range(200)]
        seed += 200
        start = time.perf_counter()
        for state in fresh:
            state.legal_actions()
        best = min(best, (time.perf_counter() - start) / len(fresh))
    return best * 1e6


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _show(value: object) -> str:
    """A short description of an argument for an error message."""
    text = repr(value)
    return text if len(text) <= 40 else f"a {type(value).__name__}"
