"""A match: deals played one after another until the variant's end, with cumulative scores.

>>> import parlour
>>> from parlour.bots import make_bot
>>> match = parlour.new_game("big-two-4card", deals=2).new_match(seed=1)
>>> bots = [make_bot("random")] * 4
>>> while not match.is_over:
...     state = match.next_deal()
...     match.play_out(state, bots)
>>> len(match.deals), sum(match.totals) == 0
(2, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from parlour.errors import ParlourError
from parlour.game import Game, State, seed_or_random

if TYPE_CHECKING:
    from parlour.bots.base import Bot


class Match:
    """Deals of one game until the variant says the match is over.

    Each deal comes from :meth:`next_deal`; when it is over, :meth:`finish_deal` adds its
    returns to :attr:`totals` and works out what carries to the next deal (who leads, who deals,
    the pool). The variant's rules for all that live in its :class:`Game`.
    """

    def __init__(self, game: Game, seed: int | None = None) -> None:
        self.game = game
        self.seed = seed_or_random(seed)
        self._rng = random.Random(self.seed)
        self.totals: list[float] = list(game.match_initial_totals())
        self.carry: dict[str, Any] = game.match_start()
        self.deals: list[State] = []
        self._current: State | None = None

    @property
    def is_over(self) -> bool:
        return self.game.match_over(self.totals, len(self.deals), self.carry)

    def next_deal(self) -> State:
        """The next deal, dealt from the match's own seeded generator."""
        if self.is_over:
            raise ParlourError("the match is over")
        if self._current is not None and not self._current.is_over:
            raise ParlourError("the current deal is not finished")
        setup = self.game.match_deal_setup(self.carry, self._rng)
        self._current = self.game.new_deal(seed=self._rng.randrange(2**63), **setup)
        return self._current

    def finish_deal(self, state: State) -> None:
        """Score a finished deal into the match."""
        if state is not self._current:
            raise ParlourError("that deal is not this match's current deal")
        if not state.is_over:
            raise ParlourError("the deal is not over yet")
        for seat, value in enumerate(state.returns()):
            self.totals[seat] += value
        self.carry = self.game.match_after_deal(self.carry, state)
        self.deals.append(state)
        self._current = None

    def play_out(self, state: State, bots: Sequence[Bot], rng: random.Random | None = None) -> None:
        """Let ``bots`` (one per seat) play ``state`` to its end, then score it."""
        rng = rng or self._rng
        while not state.is_over:
            seat = state.current_player
            state.apply(bots[seat].choose(state.observation(seat), state.legal_actions(), rng))
        self.finish_deal(state)

    def winners(self) -> list[int]:
        return self.game.match_winners(self.totals, self.carry) if self.is_over else []
