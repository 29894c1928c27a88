"""parlour: card games against computer players, bot tournaments and AI research.

>>> import parlour
>>> game = parlour.new_game("big-two-4card")
>>> state = game.new_deal(seed=42)
>>> state.legal_actions()           # the 3D holder must open with the single 3D
[ClimbingAction('3D')]

``parlour.__version__`` is the package's version, the crate's (``rust/Cargo.toml``), which is
compiled into the core: ``parlour --version`` says it too.
"""

# Registers every family's variants (parlour.registry imports none).
import parlour.games  # noqa: F401
from parlour._core import __version__
from parlour.cards import Card, CardSet, parse_card, parse_cards
from parlour.errors import (
    CardError,
    DealError,
    IllegalAction,
    ParlourError,
    RecordError,
    SeatError,
    VariantError,
)
from parlour.game import TERMINAL, Action, Game, Observation, State
from parlour.match import Match
from parlour.play import play_out
from parlour.registry import Variant, get_variant, new_game, variants

__all__ = [
    "TERMINAL", "Action", "Card", "CardError", "CardSet", "DealError", "Game", "IllegalAction",
    "Match", "Observation", "ParlourError", "RecordError", "SeatError", "State", "Variant", "VariantError",
    "__version__", "get_variant", "new_game", "parse_card", "parse_cards", "play_out", "variants",
]
