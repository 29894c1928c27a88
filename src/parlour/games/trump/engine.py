"""One deal of Spoil Five or Forty-Five: robbing the trump, five tricks, jinking.

Hands are 52-bit masks; the trump suit selects a precomputed power table, so legality and trick
winners are a few integer operations. The variant (sides, stopping at three tricks, jinking,
scoring) comes from the :class:`DealRules` its game supplies.

>>> import parlour
>>> game = parlour.new_game("forty-five")
>>> state = game.new_deal(hands=["5S 3S 7D 8C 9H", "KS 2D 3D 4D 5D", "6S 7S 8S 9S 10S",
...                              "AS 4C 6C 8H KC"], turn_up="2S", dealer=3)
>>> state.current_player, [str(a) for a in state.legal_actions()][-2:]
(3, ['rob AS', 'keep'])
>>> state.apply("rob 4C")
>>> state.current_player, state.observation(0).hand_sizes, str(state.hand(3))
(0, (5, 5, 5, 5), 'AS 2S KC 6C 8H')
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from parlour.cards import CARDS, FULL_DECK, CardSet
from parlour.errors import IllegalAction
from parlour.game import TERMINAL, State
from parlour.games.trump.actions import (
    HIDDEN_ROB,
    JINK,
    JINK_CODE,
    KEEP,
    KEEP_CODE,
    MOVES,
    PLAY,
    ROB,
    ROB_BASE,
    SILENT,
    SILENT_CODE,
    STOP,
    STOP_CODE,
    TrumpAction,
    parse_action,
)
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
    from parlour.game import Game
    from parlour.games.trump.observation import TrumpObservation

ROB_PHASE, PLAY_PHASE, JINK_PHASE, OVER = range(4)
HAND_SIZE = 5
TRICKS = 5
_SUIT_WORDS = ("clubs", "diamonds", "hearts", "spades")


@dataclass(frozen=True)
class DealRules:
    """What differs between the variants inside one deal."""

    #: ``sides[seat]``: the side a seat plays for (partners share one).
    sides: tuple[int, ...]
    #: The holder of the ace of trumps may stay silent; the ace then ranks lowest trump.
    silent_ace: bool
    #: A dealer who robs a turned ace takes it at once instead of after trick 1.
    immediate_pickup: bool
    #: The deal ends when a player takes a third trick (Spoil Five).
    stop_at_three: bool
    #: A player who takes the first three tricks may ``jink`` (play for all five) or ``stop``.
    jinking: bool
    #: ``returns(state)``: each seat's score once the deal is over.
    score: Callable[[TrumpState], list[float]]


class TrumpState(State):
    """A deal in progress; see the module docstring for an example."""

    game: Game

    def __init__(
        self,
        game: Game,
        rules: DealRules,
        hands: tuple[int, ...],
        turn_up: int,
        dealer: int,
        scores: tuple[int, ...],
        pool: int,
    ) -> None:
        n = len(hands)
        self.game = game
        self.rules = rules
        self.n = n
        self.initial_hands = hands
        self._hands = list(hands)
        self.turn_up = turn_up
        self.trump = turn_up & 3
        self.tmask = TRUMP_MASK[self.trump]
        self.plain = PLAIN_MASK[self.trump]
        self.power = POWER[self.trump]
        self.renegers = RENEGERS[self.trump]
        self.dealer = dealer
        self.scores = scores
        self.pool = pool
        self.leader = (dealer + 1) % n
        # Mutable lists stay private: callers get copies or tuples (hand(), history …).
        self._trick: list[int] = []
        self._trick_winners: list[int] = []
        self._tricks_won = [0] * n
        self._history: list[tuple[int, TrumpAction]] = []
        self.robber = -1
        self.discard = -1
        self.keeper = -1
        self.pending_ace = False
        self.demoted = -1
        # The card-set type that lists cards in this deal's order (changes if the ace is demoted).
        self._set_type = HAND_SET[0][self.trump]
        self.jinker = -1
        self.taker = -1  # the seat that takes the pool (Spoil Five); -1 for a spoil
        self._rob_turns = 0
        self._ace_holder = -1
        self._start_robbing()

    # -- setup ------------------------------------------------------------------------------
    def _start_robbing(self) -> None:
        ace = ACE_OF_TRUMPS[self.trump]
        if self.turn_up == ace:
            # A turned ace: only the dealer may rob it.
            self._ace_holder = self.dealer
            self.phase = ROB_PHASE
            self.current_player = self.dealer
            return
        holder = -1
        for seat, hand in enumerate(self._hands):
            if hand >> ace & 1:
                holder = seat
        self._ace_holder = holder
        if self.rules.silent_ace:
            # Every seat gets a turn, so a silent holder is not given away by whose turn it is.
            self._rob_turns = self.n
            self.phase = ROB_PHASE
            self.current_player = self.leader
        elif holder >= 0:
            self.phase = ROB_PHASE
            self.current_player = holder
        else:
            self.phase = PLAY_PHASE
            self.current_player = self.leader

    def _end_robbing(self) -> None:
        self.phase = PLAY_PHASE
        self.current_player = self.leader

    # -- protocol ---------------------------------------------------------------------------
    @property
    def history(self) -> list[tuple[int, TrumpAction]]:  # type: ignore[override]
        return list(self._history)

    @property
    def tricks_won(self) -> tuple[int, ...]:
        """Tricks taken so far by each seat."""
        return tuple(self._tricks_won)

    def card_set(self, mask: int) -> CardSet:
        """``mask`` as a card set listed as a player holds it in this deal: trumps first,
        highest first, then the plain suits (once the ace of trumps is demoted, it comes last
        of the trumps)."""
        return self._set_type(mask)

    def hand(self, seat: int) -> CardSet:
        """The cards ``seat`` holds now (a robbed turned ace waiting for trick 1 is not yet
        among them)."""
        return self.card_set(self._hands[self.check_seat(seat)])

    def parse_action(self, text: str) -> TrumpAction:
        return parse_action(text)

    def play_mask(self) -> int:
        """The cards the player to move may play (phase: play)."""
        hand = self._hands[self.current_player]
        trick = self._trick
        if not trick:
            return hand
        led = trick[0]
        tmask = self.tmask
        if tmask >> led & 1:
            trumps = hand & tmask
            if not trumps:
                return hand
            power = self.power
            led_power = power[led]
            privileged = 0
            for c in self.renegers:
                if trumps >> c & 1 and power[c] > led_power:
                    privileged |= 1 << c
            return trumps if trumps & ~privileged else hand
        follow = self.plain[led & 3]
        if hand & follow:
            return hand & (follow | tmask)
        return hand

    def legal_actions(self) -> list[TrumpAction]:  # type: ignore[override]
        phase = self.phase
        if phase == PLAY_PHASE:
            m = self.play_mask()
            out = []
            while m:
                low = m & -m
                out.append(PLAY[low.bit_length() - 1])
                m ^= low
            return out
        if phase == ROB_PHASE:
            return self._rob_actions()
        if phase == JINK_PHASE:
            return [JINK, STOP]
        return []

    def _rob_actions(self) -> list[TrumpAction]:
        seat = self.current_player
        if seat != self._ace_holder:
            return [SILENT]
        out = [ROB[c] for c in _bits(self._hands[seat])]
        out.append(KEEP)
        # The dealer of a turned ace holds nothing to demote, so silence means nothing there.
        if self.rules.silent_ace and self.turn_up != ACE_OF_TRUMPS[self.trump]:
            out.append(SILENT)
        return out

    def apply(self, action: TrumpAction | str) -> None:  # type: ignore[override]
        # Anything but this game's own action type (text, a float, another game's action) is
        # parsed or refused off the fast path.
        v = int(action if action.__class__ is TrumpAction else self.coerce_action(action))
        seat = self.current_player
        phase = self.phase
        if phase == PLAY_PHASE and 0 <= v < 52:
            if not self.play_mask() >> v & 1:
                raise IllegalAction(self._why_not(v))
            self._play(seat, v, PLAY[v])
            return
        if phase == ROB_PHASE:
            self._rob(seat, v)
            return
        if phase == JINK_PHASE and v in (JINK_CODE, STOP_CODE):
            self._history.append((seat, JINK if v == JINK_CODE else STOP))
            if v == JINK_CODE:
                self.jinker = seat
                self.phase = PLAY_PHASE
            else:
                self._finish(seat)
            return
        raise IllegalAction(self._wrong_phase(v))

    def _rob(self, seat: int, v: int) -> None:
        if v not in self._rob_actions():
            raise IllegalAction(self._why_not_rob(seat, v))
        self._history.append((seat, MOVES[v]))
        if v == SILENT_CODE:
            self._rob_turns -= 1
            if self._rob_turns <= 0:
                # Nobody robbed or announced: the ace of trumps ranks lowest for the deal. It is
                # demoted even when it lies in the pack, so the demotion tells nobody anything.
                self.demoted = ACE_OF_TRUMPS[self.trump]
                self._set_type = HAND_SET[1][self.trump]
                self.power = DEMOTED_POWER[self.trump]
                self._end_robbing()
            else:
                self.current_player = (seat + 1) % self.n
            return
        if v == KEEP_CODE:
            self.keeper = seat
            self._end_robbing()
            return
        card = v - ROB_BASE
        self.robber = seat
        self.discard = card
        hand = self._hands[seat] & ~(1 << card)
        turned_ace = self.turn_up == ACE_OF_TRUMPS[self.trump]
        if turned_ace and not self.rules.immediate_pickup:
            self.pending_ace = True
        else:
            hand |= 1 << self.turn_up
        self._hands[seat] = hand
        self._end_robbing()

    def _play(self, seat: int, card: int, action: TrumpAction) -> None:
        self._hands[seat] &= ~(1 << card)
        self._history.append((seat, action))
        trick = self._trick
        trick.append(card)
        if len(trick) < self.n:
            self.current_player = (seat + 1) % self.n
            return
        winner = (self.leader + trick_winner(trick, self.power)) % self.n
        self._trick = []
        self._trick_winners.append(winner)
        self._tricks_won[winner] += 1
        self.leader = winner
        if self.pending_ace:
            self.pending_ace = False
            self._hands[self.dealer] |= 1 << self.turn_up
        self.current_player = winner
        self._after_trick(winner)

    def _after_trick(self, winner: int) -> None:
        rules = self.rules
        played = len(self._trick_winners)
        if rules.stop_at_three:
            if self.jinker >= 0:
                if winner != self.jinker:
                    self._finish(-1)  # the jink failed: a spoil
                elif played == TRICKS:
                    self._finish(winner)
                return
            if self._tricks_won[winner] == 3:
                if rules.jinking and played == 3:
                    self.phase = JINK_PHASE
                else:
                    self._finish(winner)
                return
        if played == TRICKS:
            self._finish(-1)

    def _finish(self, taker: int) -> None:
        self.taker = taker
        self.phase = OVER
        self.current_player = TERMINAL

    def returns(self) -> list[float]:
        if self.phase != OVER:
            return [0.0] * self.n
        return self.rules.score(self)

    def winners(self) -> list[int]:
        if self.phase != OVER:
            return []
        if self.rules.stop_at_three:
            return [] if self.taker < 0 else [self.taker]
        return super().winners()

    def clone(self) -> TrumpState:
        other = object.__new__(TrumpState)
        other.__dict__.update(self.__dict__)
        other._hands = list(self._hands)
        other._trick = list(self._trick)
        other._trick_winners = list(self._trick_winners)
        other._tricks_won = list(self._tricks_won)
        other._history = list(self._history)
        return other

    def setup(self) -> dict[str, Any]:
        return {
            "hands": [str(self.card_set(h)) for h in self.initial_hands],
            "turn_up": str(CARDS[self.turn_up]),
            "dealer": self.dealer,
            "scores": list(self.scores),
            "pool": self.pool,
        }

    def zones(self) -> dict[str, CardSet]:
        card_set = self.card_set
        out = {f"P{s}": card_set(h) for s, h in enumerate(self._hands)}
        played = 0
        for _, a in self._history:
            if a < 52:
                played |= 1 << a
        held = played
        for h in self._hands:
            held |= h
        turn_up = 0 if held >> self.turn_up & 1 else 1 << self.turn_up
        discards = 0 if self.discard < 0 else 1 << self.discard
        out["played"] = card_set(played)
        out["turn_up"] = card_set(turn_up)
        out["discards"] = card_set(discards)
        out["stock"] = card_set(FULL_DECK & ~(held | turn_up | discards))
        return out

    def hidden_from(self, seat: int) -> CardSet:
        """Other hands, the pack under the turn-up and other seats' discards; the turn-up is
        public wherever it goes."""
        known = self._hands[self.check_seat(seat)] | 1 << self.turn_up
        for _, a in self._history:
            if a < 52:
                known |= 1 << a
        if self.robber == seat:
            known |= 1 << self.discard
        return self.card_set(FULL_DECK & ~known)

    def public_history(self, seat: int) -> tuple[tuple[int, TrumpAction], ...]:
        """The history as ``seat`` sees it: other seats' discards are hidden."""
        return self._public_history(self.check_seat(seat))

    def _public_history(self, seat: int) -> tuple[tuple[int, TrumpAction], ...]:
        if self.robber < 0 or self.robber == seat:  # no discard is hidden from this seat
            return tuple(self._history)
        # The state's own pairs where nothing is hidden: observations of one deal then share
        # them, which lets an encoder carry its history fold on from step to step.
        return tuple(
            (s, HIDDEN_ROB) if s != seat and ROB_BASE <= a < ROB_BASE + 52 else pair
            for pair in self._history for s, a in (pair,)
        )

    def observation(self, seat: int) -> TrumpObservation:
        from parlour.games.trump.observation import observe

        if seat.__class__ is not int or not 0 <= seat < self.n:  # the check off the bots' path
            seat = self.check_seat(seat)
        return observe(self, seat)

    # -- messages ---------------------------------------------------------------------------
    def _why_not(self, card: int) -> str:
        c = CARDS[card]
        hand = self._hands[self.current_player]
        if not hand >> card & 1:
            if self.pending_ace and card == self.turn_up and self.current_player == self.dealer:
                return f"{c} is not playable yet: the robbed ace joins your hand after trick 1"
            return f"{c} is not in your hand"
        led = self._trick[0]
        if self.tmask >> led & 1:
            return (
                f"{c} is not allowed: a trump ({CARDS[led]}) was led and you hold a trump "
                "you must play (only the five, the jack of trumps and the ace of hearts may be "
                "held back, and only against a lower trump led)"
            )
        suit = _SUIT_WORDS[led & 3]
        return (
            f"{c} is not allowed: {suit} were led and you hold a card of {suit}; "
            "follow suit or trump"
        )

    def _not_an_action(self, v: int) -> str:
        # A TrumpAction made by hand from a value the game never uses: no text to show.
        return (f"TrumpAction value {v} is not an action of {self.game.name}: apply one of "
                "state.legal_actions() or its text")

    def _why_not_rob(self, seat: int, v: int) -> str:
        if v not in MOVES:
            return self._not_an_action(v)
        text = str(MOVES[v])
        if v < 52:
            return (f"{text} is not allowed yet: the robbing of the trump comes before the "
                    "opening lead")
        if seat != self._ace_holder:
            return (f"{text} is not allowed: only the holder of the ace of trumps may rob; "
                    "say 'silent'")
        if ROB_BASE <= v < ROB_BASE + 52:
            return f"{text} is not allowed: you can only discard a card from your hand"
        if v == HIDDEN_ROB:
            return "say which card to discard face down, e.g. 'rob 4D'"
        if v == SILENT_CODE:
            return "you must rob ('rob' and a card to discard) or 'keep' and announce the ace"
        return f"{text} is not allowed now: rob the trump ('rob 4D') or 'keep'"

    def _wrong_phase(self, v: int) -> str:
        if v not in MOVES:
            return self._not_an_action(v)
        text = str(MOVES[v])
        if self.phase == OVER:
            return "the deal is over"
        if self.phase == JINK_PHASE:
            return f"{text} is not allowed: you have won the first three tricks; 'jink' or 'stop'"
        return f"{text} is not allowed: the robbing of the trump is over; play a card"


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out
