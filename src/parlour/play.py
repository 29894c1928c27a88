"""Playing a deal out: the players of :func:`play_out` and the seeds every deal is dealt from.

Below the game protocol (:mod:`parlour.game`) and the match (:mod:`parlour.match`), which both
use it; it knows them by their types alone.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol

from parlour.errors import DealError, SeatError

if TYPE_CHECKING:
    from parlour.game import Action, Observation, State


class Player(Protocol):
    """What :func:`play_out` needs of a seat's player: a bot (:class:`parlour.bots.Bot`)."""

    def choose(self, observation: Observation, legal_actions: Sequence[Action],
               rng: random.Random) -> Action: ...


def play_out(state: State, players: Sequence[Player],
             rng: random.Random | Sequence[random.Random] | Callable[[], random.Random]) -> State:
    """Let ``players`` (one per seat) play ``state`` to its end, each seeing only its
    observation and the legal actions; returns ``state``.

    ``rng`` is one generator for every decision, a generator per seat, or a function that
    makes a fresh one for each decision (such as :meth:`parlour.match.Match.bot_rng`).

    >>> import parlour, random
    >>> from parlour.bots import make_bot
    >>> state = play_out(parlour.new_game("big-two").new_deal(seed=1), [make_bot("greedy")] * 4,
    ...                  random.Random(1))
    >>> state.is_over, len(state.winners())
    (True, 1)
    """
    if len(players) != state.game.players:
        raise SeatError(f"give a player for each of the {state.game.players} seats, "
                        f"not {len(players)}")
    while not state.is_over:
        seat = state.current_player
        if isinstance(rng, random.Random):
            choice_rng = rng
        elif callable(rng):
            choice_rng = rng()
        else:
            choice_rng = rng[seat]
        state.apply(players[seat].choose(state.observation(seat), state.legal_actions(),
                                         choice_rng))
    return state


def seed_or_random(seed: int | None) -> int:
    """The seed to use: the one given, or a fresh one (so that every deal can be recorded).

    Anything but an int or ``None`` is refused with :class:`DealError`: ``random.Random``
    would quietly hash a string or a float, and the recorded seed must replay exactly.
    """
    if seed is None:
        return random.SystemRandom().randrange(2**63)
    if isinstance(seed, int) and not isinstance(seed, bool):
        return seed
    raise DealError(f"a seed must be an integer, not {seed!r}")
