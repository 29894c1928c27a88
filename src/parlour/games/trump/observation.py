"""What one seat sees of a Spoil Five / Forty-Five deal, how it reads as text, and states
consistent with it.

>>> import parlour, random
>>> state = parlour.new_game("forty-five").new_deal(seed=5)
>>> obs = state.observation(0)
>>> obs.sample_state(random.Random(1)).observation(0) == obs
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from parlour._core import TrumpKnowledge
from parlour.cards import CARDS, SUIT_NAMES, Card, CardSet
from parlour.game import Action, Observation
from parlour.games.trump.actions import (
    HIDDEN_ROB,
    JINK,
    KEEP,
    ROB,
    SILENT,
    STOP,
    TrumpAction,
)
from parlour.games.trump.engine import JINK_PHASE, OVER, PLAY_PHASE, ROB_PHASE, TrumpState
from parlour.games.trump.ranking import (
    ACE_OF_TRUMPS,
    DEMOTED_POWER,
    HAND_SET,
    POWER,
    trick_winner,
)
from parlour.games.trump.reasons import reason
from parlour.view import HAND, SeatView, TrickView, panels

if TYPE_CHECKING:
    from parlour.games.trump.variants import TrumpGame

_PHASES = {ROB_PHASE: "rob", PLAY_PHASE: "play", JINK_PHASE: "jink", OVER: "over"}
#: What the seat to move is asked to do, by phase (else: play a card).
_PROMPTS = {"rob": "rob the turn-up (select the card to give up) or keep",
            "jink": "jink (play on for all five tricks) or stop"}
#: Where an observation keeps its compiled knowledge (``_knowledge()``), in its ``__dict__``.
_KNOWLEDGE = "_knowledge_cache"
#: How the result line starts, in the table and the log.
_OVER = "the deal is over: "

#: A finished trick: ``(seat, card)`` in playing order, from its leader on.
Trick = tuple[tuple[int, Card], ...]


@dataclass(frozen=True)
class TrumpObservation(Observation):
    """One seat's view: its hand, the turn-up, the tricks, who robbed or announced, the scores.

    ``render()`` draws the table for this seat and ``log_lines()`` tells the deal so far; both
    name another seat's discard only as "face down".

    >>> import parlour
    >>> state = parlour.new_game("spoil-five").new_deal(seed=2)
    >>> obs = state.observation(1)
    >>> obs.seat, len(obs.hand), obs.pool
    (1, 5, 4)
    """

    #: The ruleset: variant, player count and options.
    game: TrumpGame
    #: The seat this view belongs to (0 … players-1).
    seat: int
    #: The seat to act, or -1 once the deal is over.
    current_player: int
    #: This seat's cards, listed trumps first (highest first), then each plain suit.
    hand: CardSet
    #: How many cards each seat holds (a robbed turned ace waiting for trick 1 not counted).
    hand_sizes: tuple[int, ...]
    #: ``"rob"`` (robbing turns before the opening lead), ``"play"``, ``"jink"`` (Spoil Five:
    #: the taker of the first three tricks chooses to jink or stop) or ``"over"``.
    phase: str
    #: The seat that dealt; the seat after it leads the first trick.
    dealer: int
    #: The card turned up after the deal; its suit is trumps. Public wherever it goes.
    turn_up: Card
    #: The trump suit: 0 clubs, 1 diamonds, 2 hearts, 3 spades (the ace of hearts is a trump
    #: too).
    trump: int
    #: The seat that leads (or led) the trick in progress.
    leader: int
    #: The cards of the trick in progress, from the leader on.
    trick: tuple[Card, ...]
    #: The seat that took each finished trick, in order.
    trick_winners: tuple[int, ...]
    #: Tricks taken so far by each seat.
    tricks_won: tuple[int, ...]
    #: The seat that kept the ace of trumps and announced it (the dealer, for a turned ace it
    #: did not rob), or -1.
    announced: int
    #: The seat that robbed the trump, or -1 (the discard is shown only to that seat).
    robber: int
    #: A dealer's robbed turned ace that joins the hand after trick 1.
    ace_pending: bool
    #: The ace of trumps ranks lowest trump: nobody robbed or announced (silent option).
    ace_demoted: bool
    #: The seat that jinked (Spoil Five: plays for all five tricks), or -1.
    jinker: int
    #: Before this deal: Forty-Five, the two sides' points (side A, the even seats, first);
    #: Spoil Five, each seat's chips before paying this deal's ante.
    scores: tuple[int, ...]
    #: Spoil Five: the chips at stake, this deal's antes plus any carried over from spoils;
    #: 0 in Forty-Five.
    pool: int
    #: Each seat's score for this deal (``state.returns()``): zeros until the deal is over.
    returns: tuple[float, ...]
    #: ``(seat, action)`` so far; another seat's rob shows as ``rob`` without the discard.
    history: tuple[tuple[int, TrumpAction], ...]

    def sample_state(self, rng: random.Random) -> TrumpState:
        """A deal consistent with this view, the hidden cards dealt by the compiled sampler
        (:meth:`_knowledge`) from one draw of ``rng``; its observation of this seat is this one.

        Every hard constraint is kept: the cards this seat saw are nobody else's, the robbed
        turn-up stays in the robber's hand, the seat that robbed or announced was dealt the
        ace of trumps, a seat that did not follow holds none of the suit (no trump but those
        that may renege, after a trump lead), and each seat holds as many cards as it shows.
        Raises :class:`ParlourError` if no deal is consistent with it.
        """
        hands, discard = self._knowledge().sample(rng.getrandbits(64))
        game = self.game
        state = TrumpState(game, game.rules, hands, int(self.turn_up), self.dealer,
                           tuple(self.scores), self.pool)
        for _seat, action in self.history:
            state.apply(ROB[discard] if action == HIDDEN_ROB else action)
        return state

    def _knowledge(self) -> TrumpKnowledge:
        """What this seat knows, compiled for dealing worlds (``parlour._core.TrumpKnowledge``,
        ``rust/src/trump/knowledge.rs``); made once per observation and kept with it.

        >>> import parlour
        >>> obs = parlour.new_game("spoil-five").new_deal(seed=8).observation(2)
        >>> obs._knowledge() is obs._knowledge(), obs._knowledge().seat
        (True, 2)
        """
        knowledge: TrumpKnowledge | None = self.__dict__.get(_KNOWLEDGE)
        if knowledge is None:
            # The dataclass is frozen and compares by its fields: the cache is not one.
            knowledge = self.__dict__[_KNOWLEDGE] = TrumpKnowledge(self.game.rules.core, self)
        return knowledge

    def __getstate__(self) -> dict[str, object]:
        # Pickled and copied without the compiled knowledge; it is made again when needed.
        return {k: v for k, v in self.__dict__.items() if k != _KNOWLEDGE}

    # -- text ---------------------------------------------------------------------------------
    def view(self) -> SeatView:
        """The table from this seat: who is who, trumps and robbing, the last finished trick
        and the trick in progress (also as :class:`~parlour.view.TrickView` s), the counts,
        the result once over, the scores and whose turn it is.

        >>> import parlour
        >>> game = parlour.new_game("forty-five")
        >>> state = game.new_deal(hands=["5S 3S 7D 8C 9H", "KS 2D 3D 4D 5D", "6S 7S 8S 9S 10S",
        ...                              "AS 4C 6C 8H KC"], turn_up="2S", dealer=3)
        >>> for action in ["rob 4C", "8C", "5D", "6S", "KC", "10S"]:
        ...     state.apply(action)
        >>> seat = state.observation(0).view()
        >>> print(seat.text())
        forty-five · you are P0, partners with P2: side A
        dealer P3 · turn-up 2S: spades are trumps
        P3 robbed the trump: took 2S and discarded a card face down
        your hand: 5S 3S 7D 9H
        trick 1: P0 8C, P1 5D, P2 6S, P3 KC · won by P2 with 6S
        trick 2: P2 10S · P2 is winning with 10S
        cards in hand: P0 4 · P1 4 · P2 3 · P3 4
        tricks won: side A (P0, P2) 1 · side B (P1, P3) 0 (by seat: P0 0 · P1 0 · P2 1 · P3 0)
        scores (45 to win): side A (P0, P2) 0 · side B (P1, P3) 0
        P3 to play
        >>> [panel.name for panel in seat.panels]
        ['trumps', 'robbing', 'hand', 'tricks', 'counts', 'scores', 'turn']
        >>> seat.tricks[-1]
        TrickView(number=2, plays=((2, Card('10S')),), best=Card('10S'), winner=None)
        """
        name = self.game.seat_name
        n = len(self.hand_sizes)
        tricks = self._trick_views()
        result = self._result_text() if self.is_over else None
        turn = []
        if not self.is_over:
            you = " (you)" if self.current_player == self.seat else ""
            turn.append(f"{name(self.current_player)}{you} to {self._turn_text()}")
        return SeatView(
            f"{self.game.name} · you are {name(self.seat)}{self._side_text()}",
            panels(("trumps", [f"dealer {name(self.dealer)} · turn-up {self.turn_up}: "
                               f"{SUIT_NAMES[self.trump]} are trumps"]),
                   ("robbing", self._robbing_lines()),
                   (HAND, [f"your hand: {self.hand or '(empty)'}"]),
                   ("tricks", [self._trick_text(trick) for trick in tricks]),
                   ("counts", ["cards in hand: " + " · ".join(
                       f"{name(s)} {self.hand_sizes[s]}" for s in range(n)),
                       self._tricks_won_text()]),
                   ("result", [] if result is None else [_OVER + result]),
                   ("scores", [self._standing_text()]),
                   ("turn", turn)),
            hand=tuple(self.hand), marked={}, result=result, tricks=tricks,
            # Spoil Five's chips belong to each seat (Forty-Five's scores are the sides').
            seat_figures={} if self.game.partnership else {"chips": tuple(self._scores_now())})

    def prompt(self) -> str:
        """Rob or keep before the first lead, jink or stop after three tricks, else play.

        >>> import parlour
        >>> state = parlour.new_game("forty-five").new_deal(seed=1)
        >>> state.observation(state.current_player).prompt()
        'play a card'
        """
        return _PROMPTS.get(self.phase, "play a card")

    def reason(self, action: Action, legal: Sequence[Action], instead: Action | None = None,
               ) -> str:
        return reason(self, TrumpAction(action), [TrumpAction(a) for a in legal])

    def log_lines(self, start: int = 0) -> list[str]:
        """The deal told from action ``start`` on: a line per action, who took each trick,
        and how the deal ended. Another seat's discard is told only as "face down".

        >>> import parlour
        >>> game = parlour.new_game("forty-five")
        >>> state = game.new_deal(hands=["5S 3S 7D 8C 9H", "KS 2D 3D 4D 5D", "6S 7S 8S 9S 10S",
        ...                              "AS 4C 6C 8H KC"], turn_up="2S", dealer=3)
        >>> for action in ["rob 4C", "8C", "5D", "6S", "KC"]:
        ...     state.apply(action)
        >>> for line in state.observation(1).log_lines():
        ...     print(line)
        P3 robs the trump: takes 2S and discards a card face down
        trick 1: P0 leads 8C
        P1 plays 5D
        P2 plays 6S
        P3 plays KC
        trick 1 to P2 (with 6S)
        >>> state.observation(3).log_lines(0)[0]
        'P3 robs the trump: takes 2S and discards 4C face down'
        """
        out: list[str] = []
        for i, lines in enumerate(self._story()):
            if i >= start:
                out += lines
        return out

    def finished_tricks(self) -> list[Trick]:
        """Each finished trick's ``(seat, card)`` plays, from the history."""
        n = len(self.hand_sizes)
        plays = [(seat, CARDS[a]) for seat, a in self.history if a < 52]
        return [tuple(plays[i:i + n]) for i in range(0, len(plays) - n + 1, n)]

    def _story(self) -> list[list[str]]:
        """The lines each action of the history adds to the log, one list per action."""
        name = self.game.seat_name
        n = len(self.hand_sizes)
        turned_ace = int(self.turn_up) == ACE_OF_TRUMPS[self.trump]
        ace_waits = turned_ace and not self.game.rules.immediate_pickup
        story: list[list[str]] = []
        trick: list[tuple[int, Card]] = []
        done = silent = 0
        for seat, action in self.history:
            who = name(seat)
            lines: list[str] = []
            v = int(action)
            if v < 52:
                if trick:
                    lines.append(f"{who} plays {CARDS[v]}")
                else:
                    lines.append(f"trick {done + 1}: {who} leads {CARDS[v]}")
                trick.append((seat, CARDS[v]))
                if len(trick) == n:
                    winner = self.trick_winners[done]
                    done += 1
                    lines.append(f"trick {done} to {name(winner)} "
                                 f"(with {_card_of(trick, winner)})")
                    if done == 1 and ace_waits and self.robber >= 0:
                        lines.append(f"{name(self.robber)} takes the turned ace {self.turn_up} "
                                     "into the hand")
                    trick = []
            elif action == HIDDEN_ROB or action in ROB:
                discard = str(CARDS[action.card]) if action in ROB else "a card"
                lines.append(f"{who} robs the trump: takes {self.turn_up} and discards "
                             f"{discard} face down")
                if ace_waits:
                    lines.append(f"the turned ace {self.turn_up} joins {who}'s hand after "
                                 "trick 1")
            elif action == KEEP:
                lines.append(f"{who} does not rob the turned ace" if turned_ace else
                             f"{who} holds the ace of trumps and does not rob (announced)")
            elif action == SILENT:
                silent += 1
                lines.append(f"{who} stays silent")
                if silent == n:
                    lines.append("nobody robbed or announced: the ace of trumps ranks lowest "
                                 "of the trumps for this deal")
            elif action == JINK:
                lines.append(f"{who} jinks: plays on for all five tricks")
            elif action == STOP:
                lines.append(f"{who} stops after three tricks")
            story.append(lines)
        if self.is_over and story:
            story[-1].append(_OVER + self._result_text())
        return story

    def _power(self) -> tuple[int, ...]:
        return DEMOTED_POWER[self.trump] if self.ace_demoted else POWER[self.trump]

    def _side_label(self, side: int) -> str:
        """``side A (P0, P2)``: Forty-Five's sides are A (even seats) and B (odd seats)."""
        sides = self.game.rules.sides
        seats = ", ".join(self.game.seat_name(s) for s in range(len(sides)) if sides[s] == side)
        return f"side {'AB'[side]} ({seats})"

    def _side_text(self) -> str:
        """After "you are P0": the partners and the side, in Forty-Five."""
        if not self.game.partnership:
            return ""
        sides = self.game.rules.sides
        mine = sides[self.seat]
        partners = [self.game.seat_name(s) for s in range(len(sides))
                    if sides[s] == mine and s != self.seat]
        with_text = f", partners with {' and '.join(partners)}" if partners else ""
        return f"{with_text}: side {'AB'[mine]}"

    def _robbing_lines(self) -> list[str]:
        name = self.game.seat_name
        lines = []
        if self.robber >= 0:
            mine = [a for s, a in self.history if s == self.seat and a in ROB]
            discard = str(CARDS[mine[0].card]) if mine else "a card"
            lines.append(f"{name(self.robber)} robbed the trump: took {self.turn_up} and "
                         f"discarded {discard} face down")
        if self.ace_pending:
            lines.append(f"the turned ace {self.turn_up} joins {name(self.dealer)}'s hand after "
                         "trick 1")
        if self.announced >= 0:
            if int(self.turn_up) == ACE_OF_TRUMPS[self.trump]:
                lines.append(f"{name(self.announced)} did not rob the turned ace")
            else:
                lines.append(f"{name(self.announced)} holds the ace of trumps (announced)")
        if self.ace_demoted:
            lines.append("the ace of trumps ranks lowest of the trumps (nobody robbed or "
                         "announced)")
        if self.jinker >= 0:
            lines.append(f"{name(self.jinker)} jinked: plays for all five tricks")
        return lines

    def _trick_views(self) -> tuple[TrickView, ...]:
        """The last finished trick and the trick in progress, those that exist."""
        n = len(self.hand_sizes)
        finished = self.finished_tricks()
        out = []
        if finished:
            winner = self.trick_winners[-1]
            out.append(TrickView(len(finished), finished[-1], _card_of(finished[-1], winner),
                                 winner))
        if self.trick:
            seats = [(self.leader + i) % n for i in range(len(self.trick))]
            best = self.trick[trick_winner(list(self.trick), self._power())]
            out.append(TrickView(len(finished) + 1, tuple(zip(seats, self.trick, strict=True)),
                                 best, None))
        return tuple(out)

    def _trick_text(self, trick: TrickView) -> str:
        """A trick's plays and who took it, or who is winning it."""
        name = self.game.seat_name
        plays = ", ".join(f"{name(s)} {c}" for s, c in trick.plays)
        if trick.winner is not None:
            return f"trick {trick.number}: {plays} · won by {name(trick.winner)} with {trick.best}"
        leading = trick.seat_of(trick.best)
        assert leading is not None  # the best card is one of the trick's
        return f"trick {trick.number}: {plays} · {name(leading)} is winning with {trick.best}"

    def _tricks_won_text(self) -> str:
        """Tricks taken by each seat, and by each side in Forty-Five."""
        won = self.tricks_won
        by_seat = " · ".join(f"{self.game.seat_name(s)} {k}" for s, k in enumerate(won))
        if not self.game.partnership:
            return f"tricks won: {by_seat}"
        sides = self.game.rules.sides
        per_side = [sum(k for s, k in enumerate(won) if sides[s] == side) for side in (0, 1)]
        text = "tricks won: " + " · ".join(
            f"{self._side_label(side)} {per_side[side]}" for side in (0, 1))
        # With one seat a side the side totals already say it all.
        return text if len(won) == 2 else f"{text} (by seat: {by_seat})"

    def _scores_now(self) -> list[int]:
        """Each seat's score now (Spoil Five: its chips; Forty-Five: by side): before the deal,
        less the ante paid in, plus what the deal paid out (returns count the ante, so they
        replace it once the deal is over)."""
        ante = 0 if self.game.partnership else int(self.game.options.ante)
        return [v + (int(self.returns[s]) if self.is_over else -ante)
                for s, v in enumerate(self.scores)]

    def _standing_text(self) -> str:
        """The scores now: after this deal once it is over."""
        now = self._scores_now()
        if self.game.partnership:
            label = "scores after this deal" if self.is_over else "scores"
            return f"{label} ({self.game.options.target} to win): " + " · ".join(
                f"{self._side_label(side)} {now[side]}" for side in (0, 1))
        pool = self.pool
        if self.is_over and max(self.returns) > 0:
            pool_text = "pool: empty"  # taken
        elif self.is_over:
            pool_text = f"pool: {chips_text(pool)}, carried to the next deal"
        else:
            pool_text = f"pool: {chips_text(pool)}"
        return f"{pool_text} · chips: " + " · ".join(
            f"{self.game.seat_name(s)} {v}" for s, v in enumerate(now))

    def _result_text(self) -> str:
        """How the deal ended, once it is over (after "the deal is over: ")."""
        name = self.game.seat_name
        if self.game.partnership:
            sides = self.game.rules.sides
            winner = max(range(len(sides)), key=lambda s: self.returns[s])
            tricks = sum(k for s, k in enumerate(self.tricks_won) if sides[s] == sides[winner])
            return (f"{self._side_label(sides[winner])} took {tricks} tricks and scores "
                    f"{int(self.returns[winner])}")
        pool = chips_text(self.pool)
        if max(self.returns) <= 0:
            if self.jinker >= 0:
                return (f"{name(self.jinker)}'s jink failed, so the pool of {pool} is spoiled "
                        "and carries over to the next deal")
            return (f"nobody took three tricks, so the pool of {pool} is spoiled and carries "
                    "over to the next deal")
        taker = max(range(len(self.returns)), key=lambda s: self.returns[s])
        if self.jinker == taker:
            extra = chips_text(int(self.game.options.ante))
            return (f"{name(taker)} took all five tricks and takes the pool of {pool} and "
                    f"{extra} from each other player")
        return f"{name(taker)} took three tricks and takes the pool of {pool}"

    def _turn_text(self) -> str:
        """What the player to move is to do, after "P1 to"."""
        if self.phase == "jink":
            return "jink (play on for all five tricks) or stop (take the pool)"
        if self.phase == "rob":
            if int(self.turn_up) == ACE_OF_TRUMPS[self.trump]:
                return "rob the turned ace or keep the hand"
            if self.game.rules.silent_ace:
                return "rob the trump, keep the ace of trumps (announcing it) or stay silent"
            return "rob the trump or keep the ace of trumps (announcing it)"
        return "play" if self.trick else "lead"


def _card_of(trick: Trick | list[tuple[int, Card]], seat: int) -> Card:
    """The card ``seat`` played to ``trick``."""
    return next(card for s, card in trick if s == seat)


def chips_text(count: int) -> str:
    """``1 chip``, ``4 chips``."""
    return f"{count} chip{'s' * (count != 1)}"


def observe(state: TrumpState, seat: int) -> TrumpObservation:
    """What ``seat`` sees, from the data the compiled engine gives for that seat."""
    (current, hand, hand_sizes, phase, leader, trick, trick_winners, tricks_won,
     (announced, robber, jinker), (ace_pending, ace_demoted), returns,
     hidden_rob) = state._e.observe(seat)
    return TrumpObservation.assemble(
        game=state.game,
        seat=seat,
        current_player=current,
        hand=HAND_SET[ace_demoted][state.trump](hand),
        hand_sizes=hand_sizes,
        phase=_PHASES[phase],
        dealer=state.dealer,
        turn_up=CARDS[state.turn_up],
        trump=state.trump,
        leader=leader,
        trick=tuple([CARDS[c] for c in trick]),
        trick_winners=trick_winners,
        tricks_won=tricks_won,
        announced=announced,
        robber=robber,
        ace_pending=ace_pending,
        ace_demoted=ace_demoted,
        jinker=jinker,
        scores=state.scores,
        pool=state.pool,
        returns=returns,
        history=state._public_history(seat, hidden_rob),
    )
