"""What one rummy seat sees, told as a table and a log, and states sampled consistently with it.

>>> import parlour, random
>>> state = parlour.new_game("rummy", players=3).new_deal(seed=2)
>>> obs = state.observation(1)
>>> obs.hand_sizes, obs.stock_size, len(obs.discard)
((7, 7, 7), 30, 1)
>>> obs.sample_state(random.Random(0)).observation(1) == obs
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parlour.cards import Card, CardSet
from parlour.errors import DealError
from parlour.game import Action, Observation
from parlour.games.rummy.actions import (
    DISCARD,
    DRAW_DISCARD,
    DRAW_STOCK,
    INTERNED,
    KIND_BITS,
    LAYOFF,
    MELD,
    RummyAction,
)
from parlour.games.rummy.melds import (
    FULL,
    TO_CARD,
    TO_RUMMY,
    can_meld,
    card_set,
    extensions,
    mask_value,
    rummy_mask,
)
from parlour.games.rummy.reasons import reason
from parlour.view import HAND, JUST_DRAWN, SeatView, panels

if TYPE_CHECKING:
    from parlour._core import RummyKnowledge
    from parlour.games.rummy.engine import RummyState
    from parlour.games.rummy.game import RummyGame

_REBUILT = "the stock is rebuilt from the discard pile under its top card"
#: How the last line of a finished deal starts: the result follows it.
_RESULT = "result: "
#: Where an observation keeps its compiled knowledge (in its ``__dict__``, not a field).
_KNOWLEDGE = "_knowledge_made"
#: The phases as the compiled view numbers them.
_PHASE_CODES = {"draw": 0, "play": 1, "over": 2}


@dataclass(frozen=True)
class RummyObservation(Observation):
    """One seat's view: its hand, the table with who put down each card, the discard pile, the
    cards each seat took from the discard pile and still holds, hand sizes, running scores, the
    stock size, and the public record. Card sets list their cards in rummy's order (by suit, ace
    low). Every rummy action is public (``draw stock`` does not name the card), so ``history`` is
    the same for every seat; the card a seat drew from the stock is shown to that seat alone, and
    only while it is that seat's turn. When the deal is over every hand is laid face up.

    >>> import parlour
    >>> state = parlour.new_game("rummy").new_deal(seed=1)
    >>> obs = state.observation(0)
    >>> obs.phase, len(obs.hand), obs.melds
    ('draw', 10, ())
    >>> state.apply("draw discard")
    >>> state.observation(1).drawn == state.observation(0).discard_draws[0]
    True
    """

    game: RummyGame
    #: The seat whose view this is.
    seat: int
    #: The seat to move; ``TERMINAL`` (-1) once the deal is over.
    current_player: int
    #: This seat's cards.
    hand: CardSet
    #: How many cards each seat holds.
    hand_sizes: tuple[int, ...]
    #: ``"draw"`` (the turn starts with a draw), ``"play"`` (meld, lay off or discard) or ``"over"``.
    phase: str
    #: The melds on the table in the order they were put down (meld 1 first).
    melds: tuple[CardSet, ...]
    #: Per seat, the table cards it put down (melded or laid off).
    placed: tuple[CardSet, ...]
    #: The discard pile, bottom first: its top card is the last.
    discard: tuple[Card, ...]
    #: Per seat, the cards it took from the discard pile and still holds (everyone saw them).
    taken: tuple[CardSet, ...]
    #: Per seat, the points of the cards it put down (before its hand is counted).
    scores: tuple[int, ...]
    #: How many cards the stock holds.
    stock_size: int
    #: The card the player to move drew this turn and still holds, when this seat may know it
    #: (the drawer always, everyone when it came from the discard pile); otherwise ``None``.
    drawn: Card | None
    #: Turns finished (a turn ends with a discard).
    turn: int
    #: The seat that went out; -1 before, or when the deal ended blocked at the turn limit.
    went_out: int
    #: Every action so far, as ``(seat, action)``.
    history: tuple[tuple[int, RummyAction], ...]
    #: The card each ``draw discard`` in ``history`` took, in order.
    discard_draws: tuple[Card, ...]
    #: For each stock rebuild, how many actions of ``history`` came before it.
    rebuilds: tuple[int, ...]
    #: Once the deal is over, every seat's remaining hand, laid face up to be counted; ``()``
    #: while the deal goes on.
    shown: tuple[CardSet, ...]

    @property
    def stalled(self) -> str | None:
        """Why the deal can only end blocked at the turn limit, or ``None`` while someone might
        still go out. A hand never grows (a turn draws one card and ends with a discard), so a
        hand empties only by melding and laying off: the deal is stalled once no card off the
        table (in a hand, the stock or the discard pile) lays off on a meld, and no three of
        them make a meld or no seat will ever hold three cards at once.

        >>> import parlour
        >>> game = parlour.new_game("rummy")
        >>> clubs = "AC 2C 3C 4C 5C 6C 7C 8C 9C 10C JC QC KC"
        >>> deal = game.new_deal(hands=["9H", "2D"], stock="...", melds=[clubs])
        >>> print(deal.observation(1).stalled)
        nothing can be melded or laid off any more: the deal can only end blocked at the turn limit
        >>> # A seat of two cards will hold three; 10H would lay off on JH QH KH.
        >>> game.new_deal(hands=["9H 5S", "2D"], stock="...", melds=[clubs]).observation(0).stalled
        >>> game.new_deal(hands=["9H", "2D"], stock="...", melds=[clubs, "JH QH KH"]).observation(0).stalled
        """
        if self.is_over:
            return None
        melds = [rummy_mask(m) for m in self.melds]
        table = 0
        for m in melds:
            table |= m
        free = FULL & ~table
        if any(extensions(m, free) for m in melds):
            return None
        # The seat to move, past its draw, already holds its drawn card.
        most = max(n + (s != self.current_player or self.phase == "draw")
                   for s, n in enumerate(self.hand_sizes))
        if most >= 3 and can_meld(free):
            return None
        return ("nothing can be melded or laid off any more: the deal can only end blocked at the "
                "turn limit")

    def sample_state(self, rng: random.Random) -> RummyState:
        """The hidden cards dealt at random; the public record becomes the sample's ``past``.

        Each other seat holds the cards it took from the discard pile and still holds, and as
        many of the cards this seat has not seen as its hand holds besides; the rest are the
        stock, in random order (the compiled sampler of :meth:`_knowledge`, seeded by
        ``rng.getrandbits(64)``; the sample's stock rebuilds by ``rng.randrange(2**63)``).
        A card another seat drew from the stock this turn is not marked in the sample: nothing
        this seat sees tells which card it was.
        """
        from parlour.games.rummy.engine import RummyState

        core = self._knowledge().sample(INTERNED, rng.getrandbits(64))
        state = RummyState(self.game, core, rng.randrange(2**63))
        state._past = self.history
        state._discard_draws[:] = [TO_RUMMY[c] for c in self.discard_draws]  # the core's list
        state._rebuilds = list(self.rebuilds)
        state._start = state.clone()
        return state

    def _knowledge(self) -> RummyKnowledge:
        """What this seat knows, compiled: the worlds :meth:`sample_state` and the search draw
        from. Made once per observation and kept with it (not as a field: observations compare,
        print and pickle without it).

        Raises :class:`DealError` when the observation is no view of a deal (cards in two
        places, hand sizes its known cards do not fit …), which no engine's observation is.
        """
        made: RummyKnowledge | None = self.__dict__.get(_KNOWLEDGE)
        if made is not None:
            return made
        from parlour._core import RummyKnowledge
        from parlour.games.rummy.engine import core_turn_limit

        o = self.game.options
        drawn = -1 if self.drawn is None else TO_RUMMY[self.drawn]
        phase = _PHASE_CODES.get(self.phase, 3)
        try:
            made = RummyKnowledge(
                self.game.players, o.forbid_discard_of_drawn_discard, o.score_melds,
                core_turn_limit(o.turn_limit), self.seat, rummy_mask(self.hand), drawn,
                self.current_player, list(self.hand_sizes), phase,
                [rummy_mask(m) for m in self.melds], [rummy_mask(m) for m in self.placed],
                [TO_RUMMY[c] for c in self.discard], [rummy_mask(t) for t in self.taken],
                list(self.scores), self.stock_size, self.turn, self.went_out,
                [rummy_mask(h) for h in self.shown], self._discarded())
        except (ValueError, OverflowError, TypeError) as e:
            raise DealError(f"this observation is no view of a rummy deal: {e}") from None
        self.__dict__[_KNOWLEDGE] = made
        return made

    def _discarded(self) -> list[int]:
        """Each seat's discards this deal (layout masks), from the public record."""
        discarded = [0] * self.game.players
        for seat, action in self.history:
            if action & 7 == DISCARD:
                discarded[seat] |= action >> KIND_BITS & FULL
        return discarded

    def __getstate__(self) -> dict[str, Any]:
        """The fields alone (the compiled knowledge is made again when needed)."""
        state = dict(self.__dict__)
        state.pop(_KNOWLEDGE, None)
        return state

    def view(self) -> SeatView:
        """The table from this seat: the melds with who put down each card, the piles, every
        seat's count and score, this seat's hand with the card it just drew in brackets (and
        marked :data:`~parlour.view.JUST_DRAWN`), and whose turn it is or how the deal ended.

        >>> import parlour
        >>> state = parlour.new_game("rummy").new_deal(
        ...     hands=["9H 2C AC 3C", "2S 3D 4S"], stock="4C ...", discard="9D",
        ...     melds=["JS QS KS 10S"], placed=["10S", "JS QS KS"], scores=[10, 30])
        >>> state.apply("draw stock")
        >>> seat = state.observation(0).view()
        >>> print(seat.text())
        rummy: you are Human
          meld 1: 10S JS QS KS   (Human 10S; Computer 1 JS QS KS)
        discard pile: 1 card, top 9D; stock: 39 cards
          Human: 5 cards, score 10
          Computer 1: 3 cards, score 30
        your hand: AC 2C 3C [4C] 9H   ([4C]: the card you just drew)
        turn 1: Human to meld, lay off or discard
        >>> [panel.name for panel in seat.panels], dict(seat.marked)
        (['melds', 'piles', 'seats', 'hand', 'turn'], {Card('4C'): 'just drawn'})
        """
        names = self._names()
        melds = []
        for i, m in enumerate(self.melds, 1):
            owners = "; ".join(f"{names[s]} {m & p}" for s, p in enumerate(self.placed) if m & p)
            melds.append(f"  meld {i}: {m}" + (f"   ({owners})" if owners else ""))
        top = f"top {self.discard[-1]}" if self.discard else "empty"
        seats = []
        for s, name in enumerate(names):
            took = f"; took {self.taken[s]}" if self.taken[s] and s != self.seat else ""
            seats.append(f"  {name}: {_count(self.hand_sizes[s])}, score {self.scores[s]}{took}")
        mine = self.drawn if self.current_player == self.seat else None
        hand = " ".join(f"[{c}]" if c == mine else str(c) for c in self.hand) or "(empty)"
        legend = f"   ([{mine}]: the card you just drew)" if mine is not None else ""
        turn = []
        if not self.is_over:
            who = names[self.current_player]
            if self.phase == "draw":
                turn.append(f"turn {self.turn + 1}: {who} to draw")
            else:
                took = (f" (took {self.drawn} from the discard pile)"
                        if self.drawn is not None and mine is None else "")
                turn.append(f"turn {self.turn + 1}: {who}{took} to meld, lay off or discard")
        ending = ["the deal is over", *self._ending()] if self.is_over else []
        return SeatView(
            f"{self.game.name}: you are {names[self.seat]}",
            panels(("melds", melds or ["no melds on the table"]),
                   ("piles", [f"discard pile: {_count(len(self.discard))}, {top};"
                              f" stock: {_count(self.stock_size)}"]),
                   ("seats", seats),
                   (HAND, [f"your hand: {hand}{legend}"]),
                   ("turn", turn),
                   ("result", ending)),
            hand=tuple(self.hand), marked={} if mine is None else {mine: JUST_DRAWN},
            result=ending[-1].removeprefix(_RESULT) if ending else None)

    def prompt(self) -> str:
        """Draw first; then meld, lay off and discard.

        >>> import parlour
        >>> state = parlour.new_game("rummy").new_deal(seed=1)
        >>> state.observation(state.current_player).prompt()
        'draw from the stock or take the discard'
        """
        return ("draw from the stock or take the discard" if self.phase == "draw"
                else "meld, lay off, then discard to end your turn")

    def reason(self, action: Action, legal: Sequence[Action], instead: Action | None = None,
               ) -> str:
        return reason(self, RummyAction(action))

    def log_lines(self, start: int = 0) -> list[str]:
        """The public record from action ``start`` on: a line per action, a line when the stock
        is rebuilt, then how the deal ended and the result. A draw from the stock never names
        its card.

        >>> import parlour
        >>> state = parlour.new_game("rummy").new_deal(
        ...     hands=["5H 6H 7H", "2C 3D 4S"], stock="9C ...", discard="9D")
        >>> for text in ("draw discard", "meld 5H 6H 7H", "discard 9D"):
        ...     state.apply(text)
        >>> print("\\n".join(state.observation(1).log_lines()))
        Human takes 9D from the discard pile
        Human melds 5H 6H 7H (meld 1)
        Human discards 9D
        Human goes out
        Computer 1 holds 2C 3D 4S: 15 points
        result: Human 15, Computer 1 -15: Human wins
        """
        names = self._names()
        record = self.history
        # The melds as each lay-off left them: undo the lay-offs from the last one back.
        melds = list(self.melds)
        after: dict[int, CardSet] = {}
        for i in range(len(record) - 1, -1, -1):
            action = record[i][1]
            if action.kind == LAYOFF:
                after[i] = melds[action.target]
                melds[action.target] = melds[action.target] - card_set(action.cards)
        melds_before = len(self.melds) - sum(1 for _, a in record if a.kind == MELD)
        rebuilt = Counter(self.rebuilds)
        out = [_REBUILT] * rebuilt[0] if start <= 0 else []
        draws = melded = 0
        for i, (seat, action) in enumerate(record):
            kind = action.kind
            who = names[seat]
            cards = card_set(action.cards)
            if kind == DRAW_STOCK:
                line = f"{who} draws from the stock"
            elif kind == DRAW_DISCARD:
                line = f"{who} takes {self.discard_draws[draws]} from the discard pile"
                draws += 1
            elif kind == MELD:
                melded += 1
                line = f"{who} melds {cards} (meld {melds_before + melded})"
            elif kind == LAYOFF:
                line = f"{who} lays off {cards} on meld {action.target + 1}, making {after[i]}"
            else:
                line = f"{who} discards {cards}"
            if i >= start:
                out.append(line)
                out.extend([_REBUILT] * rebuilt[i + 1])
        if self.is_over and start < len(record):  # the ending follows from the last action
            out.extend(self._ending())
        return out

    # -- the text pieces -----------------------------------------------------------------------
    def _names(self) -> list[str]:
        return [self.game.seat_name(i) for i in range(len(self.hand_sizes))]

    def _ending(self) -> list[str]:
        """How the deal ended, each hand left and its points, and the result."""
        names = self._names()
        if self.went_out >= 0:
            lines = [f"{names[self.went_out]} goes out"]
        else:
            lines = [f"the deal is blocked: nobody went out in {self.turn} turns"]
        final = []
        for s, hand in enumerate(self.shown):
            held = mask_value(rummy_mask(hand))
            if hand:
                lines.append(f"{names[s]} holds {hand}: {held} points")
            final.append(self.scores[s] - held)
        winners = self.game.best_scores(final, self.went_out)
        won = (f"{names[winners[0]]} wins" if len(winners) == 1
               else " and ".join(names[w] for w in winners) + " share the win")
        totals = ", ".join(f"{names[s]} {v}" for s, v in enumerate(final))
        lines.append(f"{_RESULT}{totals}: {won}")
        return lines


def _count(n: int) -> str:
    return f"{n} card" if n == 1 else f"{n} cards"


def observe(state: RummyState, seat: int) -> RummyObservation:
    """``state`` as ``seat`` sees it."""
    hand, drawn = state._core.seat_view(seat)
    return RummyObservation.assemble(
        seat=seat,
        hand=card_set(hand),
        drawn=None if drawn < 0 else TO_CARD[drawn],
        **state.shared_view(),
    )
