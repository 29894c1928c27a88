"""High Card's observation encoding, action index and reward scale, for
:mod:`parlour.encoding`; no compiled parts, so the environments run on the Python encoder.

**Action index** (52 actions): index ``i`` plays the card of index ``i`` (``2C 2D 2H 2S 3C …``).

**Observation encoding** (seats relative to the observer, card blocks in card-index order):
``hand:*`` this seat's cards; ``played:self:*`` and ``played:+1:*`` the cards each seat has
played; ``trick:*`` the cards of the trick in progress; then ``leader:<seat>``,
``to_move:<seat>`` (all zero once over), ``tricks_won:<seat>`` and ``cards_left:<seat>``
(each / tricks), ``return:<seat>`` once over (/ tricks).

>>> from toy_family import VARIANT
>>> game = VARIANT.make()
>>> table = ToyEncoding(game)
>>> masks, scalars = table.raw(game.new_deal(hands=["2C 9D KS", "3H 10S AC"]).observation(0))
>>> masks[0] == (1 << 0) | (1 << 29) | (1 << 47), scalars[:4]
(True, [1.0, 0.0, 1.0, 0.0])
"""

from __future__ import annotations

from collections.abc import Sequence

from parlour.cards import CARDS
from parlour.encoding import ActionIndex, register_encoding, relative_names
from toy_family.actions import PLAYS, ToyAction
from toy_family.game import ToyGame
from toy_family.observation import ToyObservation


class ToyEncoding:
    """The table :class:`~parlour.encoding.Encoder` reads High Card's observations through."""

    def __init__(self, game: ToyGame) -> None:
        rel = relative_names(2)
        self.card_blocks: Sequence[tuple[str, bool]] = [
            ("hand", False), *((f"played:{r}", False) for r in rel), ("trick", False)]
        self.scalars: Sequence[str] = [f"{group}:{r}" for group in (
            "leader", "to_move", "tricks_won", "cards_left", "return") for r in rel]
        self.scale = float(game.tricks)

    def raw(self, obs: ToyObservation) -> tuple[list[int], list[float]]:
        me, other = obs.seat, 1 - obs.seat
        played = [0, 0]
        for seat, action in obs.history:
            played[seat] |= 1 << int(action)
        trick = sum(1 << int(c) for c in obs.trick)
        scale = self.scale
        over = obs.is_over
        scalars = [float(obs.leader == me), float(obs.leader == other),
                   float(obs.current_player == me), float(obs.current_player == other),
                   obs.tricks_won[me] / scale, obs.tricks_won[other] / scale,
                   obs.hand_sizes[me] / scale, obs.hand_sizes[other] / scale,
                   obs.returns[me] / scale if over else 0.0,
                   obs.returns[other] / scale if over else 0.0]
        return [int(obs.hand), played[me], played[other], trick], scalars


def toy_index(game: ToyGame) -> ActionIndex:
    """One index per card: the card's own index."""
    names = [str(c) for c in CARDS]
    return ActionIndex(game, PLAYS, names, ToyAction)


def toy_scale(game: ToyGame) -> float:
    """The largest absolute return: every trick to one seat."""
    return float(game.tricks)


def register() -> None:
    """Register the encoding, index and scale of the family (no compiled parts)."""
    register_encoding("toy", ToyEncoding, toy_index, toy_scale, compiled=None)
