"""High Card, a family that exists only in the tests: proof that a family is one unit, played
at every front end through what it registers and nothing else.

Two players are dealt three cards each (the ``tricks`` option) from the seeded shuffle; the
player to move plays any card of their hand (written as the card alone, ``7H``, so the tables
take it as the verb ``play``); once both have played, the higher card (by rank, then suit
C < D < H < S) takes the trick and its player leads the next. Each seat's return is its tricks
minus the other's.

Nothing registers on import: :func:`register` makes the family's registration calls (its
record, its variant and its encoding, as a real family's ``__init__`` and ``encoding`` modules
do), and the tests call it only inside a fixture that restores the registries afterwards.

>>> VARIANT.make().new_deal(seed=1).observation(0).render().splitlines()[0]
'high-card · you are P0'
"""

from __future__ import annotations

from parlour.registry import Family, Variant, Verb, register_family
from parlour.registry import register as register_variant
from toy_family import encoding
from toy_family.actions import PLAYS, ToyAction
from toy_family.game import ToyGame, ToyOptions
from toy_family.observation import ToyObservation
from toy_family.state import ToyState

#: What the front ends know of the family: one verb, no felt (the web page shows the text).
FAMILY = Family(
    name="toy",
    verbs=(Verb("play", "Play", "p", "play the selected card"),),
    felt=None,
    one_card_moves=True,
)

VARIANT = Variant(
    name="high-card",
    description="High Card: two players, the higher card takes each trick",
    players=(2,),
    default_players=2,
    options_type=ToyOptions,
    factory=ToyGame,
    family="toy",
    summary="Each player is dealt three cards. The player to move plays any card; once both "
    "have played, the higher card (rank first, then suit: clubs, diamonds, hearts, spades) "
    "takes the trick and leads the next. You score your tricks minus the other player's.",
)


def register() -> None:
    """The family's registration: its record, its variant, its encoding."""
    register_family(FAMILY)
    register_variant(VARIANT)
    encoding.register()


__all__ = ["FAMILY", "PLAYS", "VARIANT", "ToyAction", "ToyGame", "ToyObservation", "ToyOptions",
           "ToyState", "register"]
