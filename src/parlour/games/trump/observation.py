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
from dataclasses import dataclass
from typing import TYPE_CHECKING

from parlour.cards import CARDS, FULL_DECK, SUIT_NAMES, Card, CardSet
from parlour.errors import ParlourError
from parlour.game import Observation
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
    PLAIN_MASK,
    POWER,
    RENEGERS,
    TRUMP_MASK,
    trick_winner,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

    from parlour.games.trump.variants import TrumpGame

_PHASES = {ROB_PHASE: "rob", PLAY_PHASE: "play", JINK_PHASE: "jink", OVER: "over"}

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
        return _sample(self, rng)

    # -- text ---------------------------------------------------------------------------------
    def render(self) -> str:
        """The table from this seat: who is who, trumps and robbing, the tricks, the scores.

        >>> import parlour
        >>> game = parlour.new_game("forty-five")
        >>> state = game.new_deal(hands=["5S 3S 7D 8C 9H", "KS 2D 3D 4D 5D", "6S 7S 8S 9S 10S",
        ...                              "AS 4C 6C 8H KC"], turn_up="2S", dealer=3)
        >>> for action in ["rob 4C", "8C", "5D", "6S", "KC", "10S"]:
        ...     state.apply(action)
        >>> print(state.observation(0).render())
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
        """
        name = self.game.seat_name
        n = len(self.hand_sizes)
        lines = [
            f"{self.game.name} · you are {name(self.seat)}{self._side_text()}",
            f"dealer {name(self.dealer)} · turn-up {self.turn_up}: "
            f"{SUIT_NAMES[self.trump]} are trumps",
            *self._robbing_lines(),
            f"your hand: {self.hand or '(empty)'}",
        ]
        tricks = self.finished_tricks()
        if tricks:
            lines.append(self._trick_text(len(tricks), tricks[-1], self.trick_winners[-1]))
        if self.trick:
            seats = [(self.leader + i) % n for i in range(len(self.trick))]
            trick = tuple(zip(seats, self.trick, strict=True))
            lines.append(self._trick_text(len(tricks) + 1, trick, -1))
        lines.append("cards in hand: " + " · ".join(
            f"{name(s)} {self.hand_sizes[s]}" for s in range(n)))
        lines.append(self._tricks_won_text())
        if self.is_over:
            lines += self._result_lines()
        lines.append(self._standing_text())
        if not self.is_over:
            you = " (you)" if self.current_player == self.seat else ""
            lines.append(f"{name(self.current_player)}{you} to {self._turn_text()}")
        return "\n".join(lines)

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
            story[-1] += self._result_lines()
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

    def _trick_text(self, number: int, trick: Trick, winner: int) -> str:
        """A trick's plays and who took it (``winner``), or who is winning it (``-1``)."""
        name = self.game.seat_name
        plays = ", ".join(f"{name(s)} {c}" for s, c in trick)
        if winner >= 0:
            card = _card_of(trick, winner)
            return f"trick {number}: {plays} · won by {name(winner)} with {card}"
        best, card = trick[trick_winner([c for _, c in trick], self._power())]
        return f"trick {number}: {plays} · {name(best)} is winning with {card}"

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

    def _standing_text(self) -> str:
        """The scores now: after this deal once it is over."""
        ante = 0 if self.game.partnership else int(self.game.options.ante)
        # A seat's score now: before the deal, less the ante paid in, plus what the deal paid
        # out (returns count the ante, so they replace it once the deal is over).
        now = [
            v + (int(self.returns[s]) if self.is_over else -ante) for s, v in enumerate(self.scores)
        ]
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

    def _result_lines(self) -> list[str]:
        """How the deal ended, once it is over."""
        name = self.game.seat_name
        if self.game.partnership:
            sides = self.game.rules.sides
            winner = max(range(len(sides)), key=lambda s: self.returns[s])
            tricks = sum(k for s, k in enumerate(self.tricks_won) if sides[s] == sides[winner])
            return [f"the deal is over: {self._side_label(sides[winner])} took {tricks} tricks "
                    f"and scores {int(self.returns[winner])}"]
        pool = chips_text(self.pool)
        if max(self.returns) <= 0:
            if self.jinker >= 0:
                return [f"the deal is over: {name(self.jinker)}'s jink failed, so the pool of "
                        f"{pool} is spoiled and carries over to the next deal"]
            return [f"the deal is over: nobody took three tricks, so the pool of {pool} is "
                    "spoiled and carries over to the next deal"]
        taker = max(range(len(self.returns)), key=lambda s: self.returns[s])
        if self.jinker == taker:
            extra = chips_text(int(self.game.options.ante))
            return [f"the deal is over: {name(taker)} took all five tricks and takes the pool "
                    f"of {pool} and {extra} from each other player"]
        return [f"the deal is over: {name(taker)} took three tricks and takes the pool of "
                f"{pool}"]

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


# -- determinisation ------------------------------------------------------------------------


def _voids(obs: TrumpObservation) -> list[int]:
    """Per seat, the cards it cannot hold now, learned from how it followed."""
    n = len(obs.hand_sizes)
    trump = obs.trump
    tmask = TRUMP_MASK[trump]
    power = DEMOTED_POWER[trump] if obs.ace_demoted else POWER[trump]
    forbid = [0] * n
    trick: list[int] = []
    for seat, action in obs.history:
        card = int(action)
        if card >= 52:
            continue
        if trick:
            led = trick[0]
            if tmask >> led & 1:
                if not tmask >> card & 1:
                    privileged = 0
                    for c in RENEGERS[trump]:
                        if power[c] > power[led]:
                            privileged |= 1 << c
                    forbid[seat] |= tmask & ~privileged
            else:
                follow = PLAIN_MASK[trump][led & 3]
                if not (follow | tmask) >> card & 1:
                    forbid[seat] |= follow
        trick.append(card)
        if len(trick) == n:
            trick = []
    return forbid


def _sample(obs: TrumpObservation, rng: random.Random) -> TrumpState:
    n = len(obs.hand_sizes)
    me = obs.seat
    trump = obs.trump
    turn_up = int(obs.turn_up)
    ace = ACE_OF_TRUMPS[trump]
    rules_silent = bool(getattr(obs.game.options, "silent_ace", False))

    played = [0] * n
    my_discard = -1
    ace_seat = -1  # a seat other than this one known to have been dealt the ace of trumps
    for seat, action in obs.history:
        v = int(action)
        if v < 52:
            played[seat] |= 1 << v
        elif action == HIDDEN_ROB or action in ROB:
            if seat == me:
                my_discard = action.card
            ace_seat = seat
    if obs.announced >= 0:
        ace_seat = obs.announced
    if obs.phase == "rob" and not rules_silent:
        ace_seat = obs.current_player
    turned_ace = turn_up == ace
    # Without the silent option only the holder gets a robbing turn: no turn means the ace of
    # trumps was never dealt to a player.
    ace_in_pack = (
        not turned_ace and not rules_silent and obs.phase != "rob" and ace_seat < 0
        and not int(obs.hand) >> ace & 1 and not any(p >> ace & 1 for p in played)
        and my_discard != ace
    )
    if turned_ace or ace_seat == me:
        ace_seat = -1

    known = int(obs.hand) | (1 << turn_up)
    for p in played:
        known |= p
    if my_discard >= 0:
        known |= 1 << my_discard
    unknown = FULL_DECK & ~known
    if ace_in_pack:
        unknown &= ~(1 << ace)

    forbid = _voids(obs)
    need = [0] * n
    for s in range(n):
        if s == me:
            continue
        holds_turn_up = (
            s == obs.robber and not obs.ace_pending and not played[s] >> turn_up & 1
        )
        need[s] = obs.hand_sizes[s] - holds_turn_up
    other_robber = obs.robber if obs.robber >= 0 and obs.robber != me else -1

    for _ in range(1000):
        hidden, discard = _deal_hidden(
            n, me, need, forbid, unknown, ace if ace_seat >= 0 and unknown >> ace & 1 else -1,
            ace_seat, other_robber, rng,
        )
        if hidden is None:
            continue
        hands: list[int] = []
        for s in range(n):
            h = played[s] | (int(obs.hand) if s == me else hidden[s])
            if s == obs.robber:
                h &= ~(1 << turn_up)
                h |= 1 << (my_discard if s == me else discard)
            hands.append(h)
        state = _replay(obs, hands, discard)
        if state is not None:
            return state
    raise ParlourError("no deal is consistent with this observation")


def _deal_hidden(
    n: int, me: int, need: Sequence[int], forbid: Sequence[int], unknown: int, ace: int,
    ace_seat: int, robber: int, rng: random.Random,
) -> tuple[list[int] | None, int]:
    hidden = [0] * n
    pool = unknown
    discard = -1
    if ace >= 0:
        pool &= ~(1 << ace)
        # The seat dealt the ace still holds it, or (having robbed) discarded it.
        can_hold = need[ace_seat] > 0 and not forbid[ace_seat] >> ace & 1
        keep_it = rng.random() < need[ace_seat] / (need[ace_seat] + 1)
        if can_hold and (ace_seat != robber or keep_it):
            hidden[ace_seat] = 1 << ace
        elif ace_seat == robber:
            discard = ace
        else:
            return None, -1
    order = sorted((s for s in range(n) if s != me), key=lambda s: rng.random())
    order.sort(key=lambda s: (pool & ~forbid[s]).bit_count() - need[s])
    for s in order:
        missing = need[s] - hidden[s].bit_count()
        allowed = [c for c in _bits(pool & ~forbid[s])]
        if len(allowed) < missing:
            return None, -1
        for c in rng.sample(allowed, missing):
            hidden[s] |= 1 << c
            pool &= ~(1 << c)
    if robber >= 0 and discard < 0:
        rest = _bits(pool)
        if not rest:
            return None, -1
        discard = rng.choice(rest)
    return hidden, discard


def _replay(obs: TrumpObservation, hands: list[int], discard: int) -> TrumpState | None:
    game = obs.game
    # The sampled hands partition the cards (the engine checks it): the deal is made from
    # them as masks, as new_deal would make it, without writing and parsing them as text.
    state = TrumpState(game, game.rules, tuple(hands), int(obs.turn_up), obs.dealer,
                       tuple(obs.scores), obs.pool)
    try:
        for _seat, action in obs.history:
            state.apply(ROB[discard] if action == HIDDEN_ROB else action)
    except ParlourError:
        return None
    if state.current_player != obs.current_player:
        return None
    return state


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out

