"""The Irish trump family (RULES.md section 3): ``forty-five`` and ``spoil-five``.

>>> import parlour
>>> state = parlour.new_game("spoil-five", players=5).new_deal(seed=3)
>>> len(state.observation(0).hand)
5
"""

from pathlib import Path

from parlour.games.trump.variants import (
    FortyFiveGame,
    FortyFiveOptions,
    SpoilFiveGame,
    SpoilFiveOptions,
)
from parlour.registry import Family, Variant, Verb, register, register_family

register_family(Family(
    name="trump",
    verbs=(
        Verb("play", "Play", "p", "play the selected cards"),
        Verb("rob", "Rob", "r", "rob the turn-up, discarding the selected card"),
        Verb("keep", "Keep", "k", "keep your hand: do not rob"),
        Verb("silent", "Stay silent", "i", "say nothing of the ace of trumps you hold"),
        Verb("jink", "Jink", "j", "jink: play on for all five tricks"),
        Verb("stop", "Stop", "t", "stop: take the pool"),
    ),
    felt=Path(__file__).with_name("felt.js"),
    features="parlour.games.trump.features:TrumpFeatures",
    tutorial="parlour.games.trump.tutorial:LESSON",
    one_card_moves=True,
    seat_totals=False,  # the felt shows the sides' points (Forty-Five) or the chips
))

# ``expert`` plays its worlds out with the network: measured stronger than greedy's rollouts.
_LEVELS = {"expert": {"network_playouts": True, "network_iterations": 1_500}}

register(Variant(
    name="forty-five",
    description="Forty-Five: two sides rob the trump and take tricks; first side to 45 wins",
    players=(2, 4, 6),
    default_players=4,
    options_type=FortyFiveOptions,
    factory=FortyFiveGame,  # type: ignore[arg-type]
    family="trump",
    encoding="parlour.games.trump.encoding",
    weights={4: Path(__file__).with_name("forty_five.npz")},
    levels=_LEVELS,
    summary="Two sides (even and odd seats) take tricks; the turned-up card's suit is "
    "trumps. The 5 of trumps is highest, then the jack of trumps, the A♥, the ace of trumps. "
    "Before the opening lead, a player holding the ace of trumps may rob the turn-up (take it "
    "and discard a card); when an ace is turned up, the dealer may rob. Follow suit or trump; the top trumps may be held back when a lower "
    "trump is led. Three or four tricks score 5, all five score 10; the first side to 45 wins.",
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
    encoding="parlour.games.trump.encoding",
    weights={4: Path(__file__).with_name("spoil_five.npz")},
    levels=_LEVELS,
    summary="Everyone antes to the pool; the turned-up card's suit is trumps (5 of trumps, "
    "jack of trumps, A♥, ace of trumps highest). The ace-of-trumps holder may rob the turn-up. "
    "Follow suit or trump. Whoever takes three tricks takes the pool; if nobody does, the pool is "
    "spoiled and carried over. Taking the first three tricks, you may jink: play on for all five "
    "for an extra payment, losing the pool if you fail.",
))

__all__ = ["FortyFiveGame", "FortyFiveOptions", "SpoilFiveGame", "SpoilFiveOptions"]
