"""A match: deals played one after another until the variant's end, with cumulative scores.

>>> import parlour
>>> from parlour.bots import make_bot
>>> match = parlour.new_game("big-two-4card", deals=2).new_match(seed=1)
>>> bots = [make_bot("random")] * 4
>>> while not match.is_over:
...     state = match.next_deal()
...     match.play_out(state, bots)
>>> len(match.deals), sum(match.totals) == 0, match.current is None
(2, True, True)

Everything random in a match follows from its seed: the deals come from the match's own
generator, and bots draw from :meth:`Match.bot_rng`, which depends on the position alone. A match
saved and resumed (:func:`parlour.records.resume_match`) therefore plays on exactly as it would
have without the interruption.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from parlour.errors import ParlourError
from parlour.play import play_out, seed_or_random

if TYPE_CHECKING:
    from parlour.bots.base import Bot
    from parlour.game import Game, State


class Match:
    """Deals of one game until the variant says the match is over.

    Each deal comes from :meth:`next_deal`; when it is over, :meth:`finish_deal` adds its
    returns to :attr:`totals` and works out what carries to the next deal (who leads, who deals,
    the pool). The variant's rules for all that live in its :class:`Game`.
    """

    def __init__(self, game: Game, seed: int | None = None) -> None:
        self.game = game
        self.seed = seed_or_random(seed)
        # Only dealing draws from this generator (never a bot), so the n-th deal of a match
        # depends on the seed and the deals before it, not on how they were played.
        self._rng = random.Random(self.seed)
        self.totals: list[float] = list(game.match_initial_totals())
        self.carry: dict[str, Any] = game.match_start()
        self.deals: list[State] = []
        self._current: State | None = None

    @property
    def is_over(self) -> bool:
        return self.game.match_over(self.totals, len(self.deals), self.carry)

    @property
    def current(self) -> State | None:
        """The deal in progress: dealt by :meth:`next_deal` and not yet scored by
        :meth:`finish_deal`; ``None`` before the first deal, between deals and at the end.

        Its play may already be over, waiting for :meth:`finish_deal`; it joins :attr:`deals`
        only once scored.

        >>> import parlour
        >>> match = parlour.new_game("big-two").new_match(seed=2)
        >>> match.current is None
        True
        >>> state = match.next_deal()
        >>> match.current is state
        True
        """
        return self._current

    def next_deal(self) -> State:
        """The next deal, dealt from the match's own seeded generator."""
        if self.is_over:
            raise ParlourError("the match is over")
        if self._current is not None:
            # Dealing on would silently drop the current deal from the match.
            raise ParlourError(
                "the current deal is not finished: play it to its end and score it with "
                "finish_deal(state) first"
            )
        setup = self.game.match_deal_setup(self.carry, self._rng)
        self._current = self.game.new_deal(seed=self._rng.randrange(2**63), **setup)
        return self._current

    def finish_deal(self, state: State) -> None:
        """Score a finished deal into the match."""
        self._check_current(state)
        if not state.is_over:
            raise ParlourError("the deal is not over yet")
        for seat, value in enumerate(state.returns()):
            self.totals[seat] += value
        self.carry = self.game.match_after_deal(self.carry, state)
        self.deals.append(state)
        self._current = None

    def bot_rng(self) -> random.Random:
        """A generator for the next decision in the current deal, seeded only by the match seed,
        the deal's number and the number of actions played in it so far.

        Take a fresh one for every bot decision::

            seat = state.current_player
            action = bots[seat].choose(state.observation(seat), state.legal_actions(),
                                       match.bot_rng())

        A bot's choice then depends on the position alone, never on how many random numbers
        were drawn before it, so a match resumed from its record plays on identically. (One
        generator kept for a whole deal would not: resumed mid-deal, it would restart.)

        >>> import parlour
        >>> match = parlour.new_game("big-two").new_match(seed=3)
        >>> state = match.next_deal()
        >>> match.bot_rng().random() == match.bot_rng().random()
        True
        >>> before = match.bot_rng().random()
        >>> state.apply(state.legal_actions()[0])
        >>> match.bot_rng().random() == before
        False
        """
        if self._current is None:
            raise ParlourError("no deal is in progress: call next_deal() first")
        # A str seed is hashed with SHA-512 by random.Random, so the stream is the same in every
        # process and on every platform (unlike hash(), which varies per process).
        position = f"parlour-bot/{self.seed}/{len(self.deals)}/{len(self._current.history)}"
        return random.Random(position)

    def play_out(self, state: State, bots: Sequence[Bot], rng: random.Random | None = None) -> None:
        """Let ``bots`` (one per seat) play ``state`` to its end, then score it.

        Every decision draws from ``rng`` if given, otherwise from a fresh :meth:`bot_rng`.
        """
        self._check_current(state)
        play_out(state, bots, self.bot_rng if rng is None else rng)
        self.finish_deal(state)

    def winners(self) -> list[int]:
        """The seats that won the match; empty until it is over."""
        return self.game.match_winners(self.totals, self.carry) if self.is_over else []

    def _check_current(self, state: State) -> None:
        if state is not self._current:
            raise ParlourError("that deal is not this match's current deal")
