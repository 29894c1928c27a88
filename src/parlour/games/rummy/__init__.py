"""Rummy with meld-point scoring (RULES.md section 5): the ``rummy`` variant.

>>> import parlour
>>> parlour.get_variant("rummy").players
(2, 3, 4)
"""

from pathlib import Path

from parlour.games.rummy.game import RummyGame, RummyOptions
from parlour.registry import Family, Variant, Verb, register, register_family

register_family(Family(
    name="rummy",
    verbs=(
        Verb("draw stock", "Draw from stock", "w", "draw from the stock"),
        Verb("draw discard", "Take the discard", "d", "take the top card of the discard pile"),
        Verb("meld", "Meld", "m", "meld the selected cards"),
        Verb("layoff", "Lay off", "l", "lay the selected cards off on a meld"),
        Verb("discard", "Discard", "x", "discard the selected card"),
    ),
    felt=Path(__file__).with_name("felt.js"),
    features="parlour.games.rummy.features:RummyFeatures",
    tutorial="parlour.games.rummy.tutorial:LESSON",
    # The rollouts' own policy's choice stands unless clearly beaten: measured stronger here,
    # where without that margin `medium`'s few rollouts overrule greedy on noise.
    level_settings={"keep_policy": 2.0},
))

register(
    Variant(
        name="rummy",
        description="Rummy against computer players: melds and lay-offs score, hand subtracted",
        players=(2, 3, 4),
        default_players=2,
        options_type=RummyOptions,
        factory=RummyGame,
        family="rummy",
        encoding="parlour.games.rummy.encoding",
        # The searches play their worlds out with greedy: the network's playouts measured no
        # stronger in Rummy.
        weights={2: Path(__file__).with_name("rummy.npz"),
                 4: Path(__file__).with_name("rummy_4.npz")},
        summary="Each turn: draw (from the stock, or the top discard), then meld sets (3–4 of a "
        "rank) or runs (3+ in a suit, ace low), lay cards off on any meld on the table, and end by "
        "discarding. Cards you put down score for you (A 20, 10–K 10, 2–9 5); what is left in your "
        "hand when someone goes out counts against you. Highest score wins.",
    )
)

__all__ = ["RummyGame", "RummyOptions"]
