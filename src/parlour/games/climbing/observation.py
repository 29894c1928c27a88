"""What one seat sees of a climbing deal (:class:`ClimbingObservation`), and states sampled
consistently with it."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import TYPE_CHECKING

from parlour.cards import CARDS, CardSet
from parlour.game import Observation
from parlour.games.climbing.combos import MASK, ClimbingAction
from parlour.games.climbing.engine import ClimbingState

if TYPE_CHECKING:
    from parlour.games.climbing.game import ClimbingGame


@dataclass(frozen=True)
class ClimbingObservation(Observation):
    """What one seat sees: its hand, every play so far, the table, card counts and places."""

    game: ClimbingGame
    seat: int
    current_player: int
    hand: CardSet
    hand_sizes: tuple[int, ...]
    table: ClimbingAction | None  # the play to beat; None when the player to move leads
    table_seat: int
    passes: int
    opening: bool  # the first play of the deal, under the opening rule
    history: tuple[tuple[int, ClimbingAction], ...]
    played: CardSet  # every card played so far (and any out of play from the start)
    out: CardSet  # cards out of play from the start (a composed position)
    first_leader: int | None  # who led freely at the start (None: the lowest card opened)
    finished: tuple[int, ...]
    scores: tuple[float, ...]

    def sample_state(self, rng: random.Random) -> ClimbingState:
        """Deal the unseen cards at random to the other seats, then replay the history."""
        game = self.game
        t = game.table
        unseen = CardSet(((1 << 52) - 1) & ~int(self.hand) & ~int(self.played)).cards()
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
        hands: list[int] = []
        for seat, size in enumerate(sizes):
            if seat == self.seat:
                hands.append(start[seat] | t.key_mask(list(self.hand)))
            else:
                dealt, unseen = unseen[:size], unseen[size:]
                hands.append(start[seat] | t.key_mask(dealt))
        state = ClimbingState(game, hands, self.first_leader, t.key_mask(list(self.out)))
        for _, action in self.history:
            state.apply(action)
        return state

    def render(self) -> str:
        t = self.game.table
        names = [self.game.seat_name(i) for i in range(len(self.hand_sizes))]
        lines = [f"{self.game.name} — you are {names[self.seat]}"]
        counts = "  ".join(
            f"{names[i]}{'*' if i == self.current_player else ''}: {n} card{'s' * (n != 1)}"
            + (f" (out, place {self.finished.index(i) + 1})" if i in self.finished else "")
            for i, n in enumerate(self.hand_sizes)
        )
        lines.append(counts)
        if self.table is None:
            lead = "" if self.is_over else f" — {names[self.current_player]} leads"
            if self.opening:
                lead += f" (the first play must include {t.rules.lowest_card_text})"
            lines.append(f"Table: empty{lead}")
        else:
            plural = "es" if self.passes != 1 else ""
            lines.append(f"Table: {self.table} ({self.table.category}) by "
                         f"{names[self.table_seat]}, {self.passes} pass{plural} since")
        mine = t.cards(t.key_mask(list(self.hand)))
        lines.append(f"Your hand: {' '.join(map(str, mine)) or '(empty)'}")
        if self.is_over:
            lines.append("Deal over. Scores: " + "  ".join(
                f"{names[i]} {s:+g}" for i, s in enumerate(self.scores)))
        return "\n".join(lines)
