"""What one rummy seat sees, and states sampled consistently with it.

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
from dataclasses import dataclass
from typing import TYPE_CHECKING

from parlour.cards import Card, CardSet
from parlour.game import TERMINAL, Observation
from parlour.games.rummy.melds import TO_CARD, card_set, rummy_mask

if TYPE_CHECKING:
    from parlour.games.rummy.engine import RummyState
    from parlour.games.rummy.game import RummyGame


@dataclass(frozen=True)
class RummyObservation(Observation):
    """One seat's view: its hand, the table with who put down each card, the discard pile
    (bottom first), the cards each seat took from the discard pile and still holds, hand sizes,
    running scores (meld and lay-off points), the stock size and the turn count.

    >>> import parlour
    >>> obs = parlour.new_game("rummy").new_deal(seed=1).observation(0)
    >>> obs.phase, len(obs.hand), obs.melds
    ('draw', 10, ())
    """

    game: RummyGame
    seat: int
    current_player: int
    hand: CardSet
    hand_sizes: tuple[int, ...]
    phase: str
    melds: tuple[CardSet, ...]
    placed: tuple[CardSet, ...]
    discard: tuple[Card, ...]
    taken: tuple[CardSet, ...]
    scores: tuple[int, ...]
    stock_size: int
    drawn: Card | None
    turn: int
    went_out: int

    def sample_state(self, rng: random.Random) -> RummyState:
        from parlour.games.rummy.engine import RummyState

        seen = rummy_mask(self.hand) | rummy_mask(self.discard)
        for m in self.melds:
            seen |= rummy_mask(m)
        taken = [rummy_mask(t) for t in self.taken]
        for t in taken:
            seen |= t
        unseen = [i for i in range(52) if not seen >> i & 1]
        rng.shuffle(unseen)
        state = RummyState(self.game)
        for seat, size in enumerate(self.hand_sizes):
            if seat == self.seat:
                state.hands[seat] = rummy_mask(self.hand)
                continue
            hand = taken[seat]
            for _ in range(size - hand.bit_count()):
                hand |= 1 << unseen.pop()
            state.hands[seat] = hand
        state.stock = unseen
        state.discard = [rummy_mask([c]).bit_length() - 1 for c in self.discard]
        state.melds = [rummy_mask(m) for m in self.melds]
        state.placed = [rummy_mask(m) for m in self.placed]
        state.scores = list(self.scores)
        state.taken = taken
        state.current_player = self.current_player
        state.drawing = self.phase == "draw"
        state.drawn = -1 if self.drawn is None else rummy_mask([self.drawn]).bit_length() - 1
        state.turn = self.turn
        state.seed = rng.randrange(2**63)
        if self.current_player == TERMINAL:
            state._end(self.went_out)
        state._setup = state.position()
        return state

    def render(self) -> str:
        names = [self.game.seat_name(i) for i in range(len(self.hand_sizes))]
        lines = [f"{self.game.name}: you are {names[self.seat]}"]
        for i, m in enumerate(self.melds, 1):
            owners = [
                f"{names[s]}: {m & self.placed[s]}"
                for s in range(len(names)) if m & self.placed[s]
            ]
            lines.append(f"  meld {i}: {m}" + (f"   ({'; '.join(owners)})" if owners else ""))
        top = str(self.discard[-1]) if self.discard else "empty"
        lines.append(f"discard pile: {len(self.discard)} card(s), top {top};"
                     f" stock: {self.stock_size} card(s)")
        for s, name in enumerate(names):
            known = f", took {self.taken[s]}" if self.taken[s] and s != self.seat else ""
            lines.append(f"  {name}: {self.hand_sizes[s]} card(s), score {self.scores[s]}{known}")
        lines.append("your hand: " + " ".join(str(c) for c in _ace_low(self.hand)))
        if self.current_player == TERMINAL:
            end = ("blocked at the turn limit" if self.went_out < 0
                   else f"{names[self.went_out]} went out")
            lines.append(f"the deal is over: {end}")
        else:
            step = "draw" if self.phase == "draw" else "meld, lay off or discard"
            lines.append(f"turn {self.turn + 1}: {names[self.current_player]} to {step}")
        return "\n".join(lines)


def _ace_low(cards: CardSet) -> list[Card]:
    # The game's order: by suit, ace low within a suit.
    m = rummy_mask(cards)
    return [TO_CARD[i] for i in range(52) if m >> i & 1]


def observe(state: RummyState, seat: int) -> RummyObservation:
    """``state`` as ``seat`` sees it."""
    over = state.current_player == TERMINAL
    return RummyObservation(
        game=state.game,
        seat=seat,
        current_player=state.current_player,
        hand=card_set(state.hands[seat]),
        hand_sizes=tuple(h.bit_count() for h in state.hands),
        phase="over" if over else "draw" if state.drawing else "play",
        melds=tuple(card_set(m) for m in state.melds),
        placed=tuple(card_set(m) for m in state.placed),
        discard=tuple(TO_CARD[c] for c in state.discard),
        taken=tuple(card_set(m) for m in state.taken),
        scores=tuple(state.scores),
        stock_size=len(state.stock),
        drawn=None if state.drawn < 0 else TO_CARD[state.drawn],
        turn=state.turn,
        went_out=state.went_out,
    )
