"""What one seat sees of a climbing deal (:class:`ClimbingObservation`), states sampled
consistently with it, and the table and log as text."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from parlour.cards import CARDS, FULL_DECK, Card, CardSet
from parlour.game import Observation
from parlour.games.climbing.combos import (
    MASK,
    PASS_VALUE,
    SIZE_SHIFT,
    ClimbingAction,
    ComboTable,
    can_beat,
)
from parlour.games.climbing.engine import ClimbingState, Start

if TYPE_CHECKING:
    from parlour.games.climbing.game import ClimbingGame


@dataclass(frozen=True)
class ClimbingObservation(Observation):
    """What one seat sees: its hand, every play so far, the table, card counts and places.

    Card sets list their cards in the variant's order (lowest first). The ``start_…`` fields,
    ``first_leader`` and ``out`` describe the position the deal started from (a fresh deal, or
    one composed with ``new_deal(hands=…, out=…, table=…)``); everything else is the present.
    """

    game: ClimbingGame  # the ruleset
    seat: int  # the seat that sees this
    current_player: int  # the seat to move; -1 (TERMINAL) once the deal is over
    hand: CardSet  # this seat's cards
    hand_sizes: tuple[int, ...]  # every seat's number of cards (public)
    table: ClimbingAction | None  # the play to beat; None when the player to move leads freely
    table_seat: int  # the seat that made the table play; -1 when the table is empty
    passes: int  # passes since the table play
    opening: bool  # the deal's first play is due, under the opening rule (lowest card)
    history: tuple[tuple[int, ClimbingAction], ...]  # (seat, play or pass) since the start
    played: CardSet  # every card out of the hands: played so far, or out of play from the start
    out: CardSet  # cards out of play from the start (a composed position)
    first_leader: int | None  # who led freely at the start; None: the opening rule or a trick
    start_table: ClimbingAction | None  # the play to beat at the start (a composed trick)
    start_table_seat: int  # who made start_table; -1 without one
    start_passes: int  # passes after start_table at the start
    start_finished: tuple[int, ...]  # seats out before the start, first place first (pusoy-dos)
    finished: tuple[int, ...]  # seats that went out, first place first (then the last one left)
    scores: tuple[float, ...]  # each seat's return; zeros until the deal is over

    def sample_state(self, rng: random.Random) -> ClimbingState:
        """Deal the unseen cards at random to the other seats, then replay the history.

        When a seat may pass only if it cannot beat the table (B8), no seat is dealt a play
        that would have beaten a table it passed on."""
        state = ClimbingState(self.game, self._start(rng))
        for _, action in self.history:
            state.apply(action)
        return state

    def _start(self, rng: random.Random) -> Start:
        """A start position consistent with this observation: the cards this seat cannot see
        dealt at random, each seat also holding the cards it has played since."""
        t = self.game.table
        unseen = CardSet(FULL_DECK & ~int(self.hand) & ~int(self.played)).cards()
        rng.shuffle(unseen)
        start = [0] * len(self.hand_sizes)
        for seat, action in self.history:
            start[seat] |= action & MASK
        sizes = list(self.hand_sizes)
        if self.opening and self.first_leader is None and self.current_player != self.seat:
            # Public knowledge: whoever opens holds the lowest card.
            lowest = CARDS[t.from_key[0]]
            unseen.remove(lowest)
            start[self.current_player] |= 1
            sizes[self.current_player] -= 1
        sizes[self.seat] = 0
        forced = self._forced_passes()
        hands = _deal(t, unseen, sizes, start, forced, rng)
        hands[self.seat] = start[self.seat] | t.key_of(self.hand)
        return Start(tuple(hands), self.first_leader, t.key_of(self.out),
                     int(self.start_table or 0), self.start_table_seat, self.start_passes,
                     self.start_finished)

    def _forced_passes(self) -> dict[int, dict[int, dict[int, int]]]:
        """What the passes of the other seats tell, when a seat may pass only if it cannot
        beat the table (B8): for each seat still holding cards, ``{later: {size: table}}``,
        saying that the seat's present hand with the cards ``later`` (those it played after
        some of its passes) holds no play beating ``table`` (packed; the weakest table of
        each size it passed on then, since a hand that cannot beat it cannot beat the rest)."""
        if not self.game.rules.pass_only_if_no_legal_play:
            return {}
        # A pass always faces the latest play: a cleared table must be led to, never passed.
        facing: list[int] = []
        table = int(self.start_table or 0)
        for _, action in self.history:
            facing.append(table)
            if action != PASS_VALUE:
                table = action
        later = [0] * len(self.hand_sizes)
        forced: dict[int, dict[int, dict[int, int]]] = {}
        for (seat, action), table in zip(reversed(self.history), reversed(facing), strict=True):
            if action != PASS_VALUE:
                later[seat] |= action & MASK
            elif seat != self.seat and self.hand_sizes[seat]:
                weakest = forced.setdefault(seat, {}).setdefault(later[seat], {})
                size = table >> SIZE_SHIFT
                weakest[size] = min(table, weakest.get(size, table))
        return forced

    # -- text ------------------------------------------------------------------------------------
    def log_lines(self, start: int = 0) -> list[str]:
        """A line per action from ``start`` on, and what follows from it: who wins control
        ("all pass — P2 leads"), who goes out and in what place, and the deal's result.

        The history is replayed on a state sampled from this observation: what follows from
        an action depends only on public facts (the plays and card counts), and the lines name
        no card but those played.

        >>> import parlour
        >>> s = parlour.new_game("big-two").new_deal(hands=["3D 4D", "5C", "6C", "7C"],
        ...     out=[c for c in parlour.CardSet((1 << 52) - 1).cards()
        ...          if str(c) not in ("3D", "4D", "5C", "6C", "7C")], leader=0)
        >>> for play in ("3D", "pass", "pass", "pass", "4D"):
        ...     s.apply(play)
        >>> print("\\n".join(s.observation(1).log_lines()))
        P0: 3D
        P1: pass
        P2: pass
        P3: pass
        all pass — P0 leads
        P0: 4D
        P0 is out and wins the deal
        deal over — P0 wins the deal; penalties: P0 0, P1 1, P2 1, P3 1
        """
        name = self.game.seat_name
        rules = self.game.rules
        state = ClimbingState(self.game, self._start(random.Random(0)))
        first = len(self.history) - len(self.history[start:])
        lines: list[str] = []
        for i, (seat, action) in enumerate(self.history):
            placed = len(state.placements)
            state.apply(action)
            if i < first:
                continue
            lines.append(f"{name(seat)}: {action}"
                         + (f" ({action.category})" if action.size > 1 else ""))
            gone = state.placements[placed:]
            if action == PASS_VALUE:
                if not state.is_over and _leads(state):
                    lines.append(f"all pass — {name(state.current_player)} leads")
            elif gone:
                if rules.ends_at_first_out:
                    lines.append(f"{name(seat)} is out and wins the deal")
                else:
                    lines.append(f"{name(seat)} is out: {_ordinal(placed + 1)} place")
                    if not state.is_over and _leads(state):
                        lines.append(f"{name(state.current_player)} leads")
            if state.is_over:
                if not rules.ends_at_first_out:
                    last = len(state.placements)
                    lines.append(f"{name(state.placements[-1])} is left with cards: "
                                 f"{_ordinal(last)} place")
                lines.append("deal over — " + result_text(self.game, state.placements,
                                                          state.returns()))
        return lines

    def render(self) -> str:
        """The table from this seat: card counts and places, the table play with who made it
        and the passes since, who is to move, this seat's hand, and the result once over."""
        game = self.game
        name = game.seat_name
        lines = [f"{game.name} — you are {name(self.seat)}"]
        seats = []
        for i, n in enumerate(self.hand_sizes):
            mark = "*" if i == self.current_player else ""
            if i in self.finished and n == 0:
                place = self.finished.index(i) + 1
                status = ("out, wins the deal" if game.rules.ends_at_first_out
                          else f"out, {_ordinal(place)} place")
            elif i in self.finished:
                status = f"{n} card{'s' * (n != 1)}, {_ordinal(self.finished.index(i) + 1)} place"
            else:
                status = f"{n} card{'s' * (n != 1)}"
            seats.append(f"{name(i)}{mark}: {status}")
        lines.append("  ".join(seats))
        if self.table is None:
            lead = "" if self.is_over else f" — {name(self.current_player)} leads"
            if self.opening:
                lead += f" (the first play must include {game.rules.lowest_card_text})"
            lines.append(f"Table: empty{lead}")
        else:
            plural = "es" if self.passes != 1 else ""
            to_play = "" if self.is_over else f" — {name(self.current_player)} to play"
            lines.append(f"Table: {self.table} ({self.table.category}) by "
                         f"{name(self.table_seat)}, {self.passes} pass{plural} since{to_play}")
        lines.append(f"Your hand: {self.hand or '(empty)'}")
        if self.is_over:
            lines.append("Deal over — " + result_text(game, self.finished, self.scores))
        return "\n".join(lines)


#: Random deals tried before dealing card by card around the forced passes: a random deal
#: usually breaks some forced pass once a seat has passed on a low play.
_DEAL_TRIES = 10


def _deal(t: ComboTable, cards: list[Card], sizes: list[int], start: list[int],
          forced: dict[int, dict[int, dict[int, int]]], rng: random.Random) -> list[int]:
    """Each seat's start hand: ``start[seat]`` with ``sizes[seat]`` of ``cards`` (shuffled)
    dealt to it, so that no seat could have beaten a table it passed on.

    Without forced passes the shuffled cards are dealt in order. With them, random deals are
    tried first (each a uniform draw among the consistent deals); if none fits, a search
    (:func:`_search`) finds a consistent deal, which exists (the true one) but is not drawn
    uniformly.
    """
    known: dict[tuple[int, int], bool] = {}

    def holds_no_answer(seat: int, hand: int) -> bool:
        fits = known.get((seat, hand))
        if fits is None:
            fits = known[seat, hand] = not any(
                can_beat(plays, table)
                for later, weakest in forced.get(seat, {}).items()
                for plays in [t.hand_combos(hand | later)] for table in weakest.values())
        return fits

    def dealt_in_order() -> list[int]:
        hands, i = [], 0
        for size in sizes:
            hands.append(t.key_mask(cards[i:i + size]))
            i += size
        return hands

    dealt = dealt_in_order()
    if forced:
        for _ in range(_DEAL_TRIES):
            if all(holds_no_answer(seat, dealt[seat]) for seat in forced):
                break
            rng.shuffle(cards)
            dealt = dealt_in_order()
        else:
            bits = [1 << t.to_key[c] for c in cards]
            dealt = _search(bits, sizes[:], holds_no_answer, rng)
    return [s | d for s, d in zip(start, dealt, strict=True)]


def _search(cards: list[int], room: list[int], fits: Callable[[int, int], bool],
            rng: random.Random) -> list[int]:
    """Hands of ``room[seat]`` of ``cards`` for each seat that all ``fits(seat, hand)``.
    ``fits`` must hold for every part of a hand it holds for, and such hands must exist (the
    search does not end otherwise).

    Depth-first, the card with the fewest seats able to take it first, seats in random order.
    A branch ends as soon as the cards left cannot be placed one by one (Hall's condition: the
    cards that only the seats of a set can take outnumber those seats' room). Searches that
    run long start again in a new random order, with twice the patience each time, so that
    an unlucky early choice costs little."""
    seats = [s for s, r in enumerate(room) if r]
    sets = [frozenset(s for i, s in enumerate(seats) if m >> i & 1)
            for m in range(1, 1 << len(seats))]
    hands = [0] * len(room)
    budget = 0

    def place(cards: list[int]) -> bool:
        nonlocal budget
        if not cards:
            return True
        budget -= 1
        if budget < 0:
            return False
        takers = [{s for s in seats if room[s] and fits(s, hands[s] | c)} for c in cards]
        for group in sets:
            within = sum(1 for t in takers if t <= group)
            if within > sum(room[s] for s in group):
                return False
        i = min(range(len(cards)), key=lambda k: len(takers[k]))
        card, rest = cards[i], cards[:i] + cards[i + 1:]
        order = sorted(takers[i])
        rng.shuffle(order)
        for seat in order:
            room[seat] -= 1
            hands[seat] |= card
            if place(rest):
                return True
            hands[seat] ^= card
            room[seat] += 1
        return False

    patience = 100
    while True:
        budget = patience
        rng.shuffle(cards)
        if place(cards):
            return hands
        assert budget < 0, "no deal fits the observation"  # the true deal does
        patience *= 2


def result_text(game: ClimbingGame, finished: tuple[int, ...] | list[int],
                scores: tuple[float, ...] | list[float]) -> str:
    """A finished deal's result in words, by the variant's scoring."""
    name = game.seat_name
    scoring = game.rules.scoring
    if scoring == "placement":
        return "places: " + ", ".join(f"{_ordinal(i + 1)} {name(s)}"
                                      for i, s in enumerate(finished))
    head = f"{name(finished[0])} wins the deal"
    if scoring == "penalty":
        return head + "; penalties: " + ", ".join(f"{name(i)} {abs(s):g}"
                                                  for i, s in enumerate(scores))
    return head + ": " + ", ".join(f"{name(i)} {s:+g}" for i, s in enumerate(scores))


def _leads(state: ClimbingState) -> bool:
    """Whether the player to move leads freely (the table is empty)."""
    return state.observation(state.current_player).table is None


def _ordinal(n: int) -> str:
    suffix = {1: "st", 2: "nd", 3: "rd"}.get(n, "th")
    return f"{n}{suffix}"
