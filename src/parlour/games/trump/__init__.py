"""The Irish trump family (RULES.md section 3): ``forty-five`` and ``spoil-five``.

>>> import parlour
>>> state = parlour.new_game("spoil-five", players=5).new_deal(seed=3)
>>> len(state.observation(0).hand)
5
"""

from parlour.games.trump.variants import (
    FortyFiveGame,
    FortyFiveOptions,
    SpoilFiveGame,
    SpoilFiveOptions,
)
from parlour.registry import Variant, register

register(Variant(
    name="forty-five",
    description="Forty-Five: two sides rob the trump and take tricks; first side to 45 wins",
    players=(2, 4, 6),
    default_players=4,
    options_type=FortyFiveOptions,
    factory=FortyFiveGame,  # type: ignore[arg-type]
    family="trump",
))
register(Variant(
    name="spoil-five",
    description="Spoil Five: 2 to 10 players ante to a pool; three tricks take it, or it is "
                "spoiled and carried over",
    players=tuple(range(2, 11)),
    default_players=4,
    options_type=SpoilFiveOptions,
    factory=SpoilFiveGame,  # type: ignore[arg-type]
    family="trump",
))

__all__ = ["FortyFiveGame", "FortyFiveOptions", "SpoilFiveGame", "SpoilFiveOptions"]
