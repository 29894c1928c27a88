"""Rummy with meld-point scoring (RULES.md section 5): the ``rummy`` variant.

>>> import parlour
>>> parlour.get_variant("rummy").players
(2, 3, 4)
"""

from parlour.games.rummy.game import RummyGame, RummyOptions
from parlour.registry import Variant, register

register(
    Variant(
        name="rummy",
        description="Rummy against computer players: melds and lay-offs score, hand subtracted",
        players=(2, 3, 4),
        default_players=2,
        options_type=RummyOptions,
        factory=RummyGame,
        family="rummy",
    )
)

__all__ = ["RummyGame", "RummyOptions"]
