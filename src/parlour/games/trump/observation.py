"""What one seat sees of a Spoil Five / Forty-Five deal, and states consistent with it.

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
from parlour.game import Game, Observation
from parlour.games.trump.actions import HIDDEN_ROB, ROB, TrumpAction
from parlour.games.trump.engine import JINK_PHASE, OVER, PLAY_PHASE, ROB_PHASE, TrumpState
from parlour.games.trump.ranking import (
    ACE_OF_TRUMPS,
    DEMOTED_POWER,
    PLAIN_MASK,
    POWER,
    RENEGERS,
    TRUMP_BASE,
    TRUMP_MASK,
)

if TYPE_CHECKING:
    from collections.abc import Sequence

_PHASES = {ROB_PHASE: "rob", PLAY_PHASE: "play", JINK_PHASE: "jink", OVER: "over"}


@dataclass(frozen=True)
class TrumpObservation(Observation):
    """One seat's view: its hand, the turn-up, the tricks, who robbed or announced, the scores.

    ``scores`` are the sides' points before this deal (Forty-Five) or each seat's chips before
    this deal (Spoil Five); ``pool`` is the Spoil Five pool at stake (0 in Forty-Five).
    ``history`` shows another seat's rob as ``rob`` without the discarded card.

    >>> import parlour
    >>> state = parlour.new_game("spoil-five").new_deal(seed=2)
    >>> obs = state.observation(1)
    >>> obs.seat, len(obs.hand), obs.pool
    (1, 5, 4)
    """

    game: Game
    seat: int
    current_player: int
    hand: CardSet
    hand_sizes: tuple[int, ...]
    phase: str
    dealer: int
    turn_up: Card
    trump: int
    leader: int
    trick: tuple[Card, ...]
    trick_winners: tuple[int, ...]
    tricks_won: tuple[int, ...]
    #: The seat that kept the ace of trumps and announced it, or -1.
    announced: int
    #: The seat that robbed the trump, or -1 (the discard is shown only to that seat).
    robber: int
    #: A dealer's robbed turned ace that joins the hand after trick 1.
    ace_pending: bool
    #: The ace of trumps ranks lowest trump: nobody robbed or announced (silent option).
    ace_demoted: bool
    jinker: int
    scores: tuple[int, ...]
    pool: int
    history: tuple[tuple[int, TrumpAction], ...]

    def sample_state(self, rng: random.Random) -> TrumpState:
        return _sample(self, rng)

    def render(self) -> str:
        n = len(self.hand_sizes)
        trump = SUIT_NAMES[self.trump]
        lines = [
            f"{self.game.name}: you are P{self.seat}; dealer P{self.dealer}; "
            f"turn-up {self.turn_up}, {trump} are trumps",
            "your hand: " + " ".join(str(c) for c in sort_hand(self.hand, self.trump)),
        ]
        if self.announced >= 0:
            lines.append(f"P{self.announced} holds the ace of trumps (announced)")
        if self.robber >= 0:
            lines.append(f"P{self.robber} robbed the turn-up")
        if self.ace_demoted:
            lines.append("the ace of trumps ranks as the lowest trump (its holder stayed silent)")
        if self.jinker >= 0:
            lines.append(f"P{self.jinker} jinked: plays for all five tricks")
        seats = [(self.leader + i) % n for i in range(len(self.trick))]
        played = zip(seats, self.trick, strict=True)
        table = ", ".join(f"P{s} {c}" for s, c in played) or "(empty)"
        lines.append(f"trick {len(self.trick_winners) + 1}: {table}")
        lines.append(
            "cards: " + "  ".join(f"P{s} {self.hand_sizes[s]}" for s in range(n))
            + " | tricks: " + "  ".join(f"P{s} {self.tricks_won[s]}" for s in range(n))
        )
        if self.pool:
            lines.append(f"pool {self.pool}; chips " + " ".join(map(str, self.scores)))
        else:
            lines.append("scores: " + " - ".join(map(str, self.scores)))
        if self.is_over:
            lines.append("the deal is over")
        else:
            lines.append(f"P{self.current_player} to {self.phase}")
        return "\n".join(lines)


def sort_hand(hand: int, trump: int) -> list[Card]:
    """The hand, trumps first, highest first, then plain suits high to low."""
    power = POWER[trump]

    def key(c: Card) -> tuple[int, int]:
        return (-power[c], 0) if power[c] >= TRUMP_BASE else (c & 3, -power[c])

    return sorted(CardSet(hand), key=lambda c: (power[c] < TRUMP_BASE, *key(c)))


def observe(state: TrumpState, seat: int) -> TrumpObservation:
    hands = state.hands
    return TrumpObservation(
        game=state.game,
        seat=seat,
        current_player=state.current_player,
        hand=CardSet(hands[seat]),
        hand_sizes=tuple(h.bit_count() for h in hands),
        phase=_PHASES[state.phase],
        dealer=state.dealer,
        turn_up=CARDS[state.turn_up],
        trump=state.trump,
        leader=state.leader,
        trick=tuple(CARDS[c] for c in state.trick),
        trick_winners=tuple(state.trick_winners),
        tricks_won=tuple(state.tricks_won),
        announced=state.keeper,
        robber=state.robber,
        ace_pending=state.pending_ace,
        ace_demoted=state.demoted >= 0,
        jinker=state.jinker,
        scores=state.scores,
        pool=state.pool,
        history=state.public_history(seat),
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
    state = game.new_deal(
        hands=[str(CardSet(h)) for h in hands], turn_up=obs.turn_up, dealer=obs.dealer,
        scores=list(obs.scores), pool=obs.pool,
    )
    assert isinstance(state, TrumpState)
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

