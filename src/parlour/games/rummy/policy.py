"""The rule-based rummy policy behind the ``greedy`` bot, compiled (``rust/src/rummy/policy.rs``,
the same code that plays the rollouts of the search).

Draw: take the discard when it makes a meld with the hand or extends a table meld. Then meld and
lay off, the most points first. Discard: the highest-value card that is not part of a pair or a
near-run and that no opponent is collecting (nor could lay off on the table); equal scores are
settled by ``rng.random()``, drawn once per discard among ``legal`` whenever the choice is a
discard, and never otherwise.

>>> import parlour, random
>>> state = parlour.new_game("rummy").new_deal(hands=["5H 6H 7H 9C", "2C 3D 4S"],
...                                            stock="KD 8C ...", discard="9D")
>>> state.apply("draw stock")
>>> obs = state.observation(0)
>>> str(greedy_action(obs, state.legal_actions(), random.Random(0)))
'meld 5H 6H 7H'
"""

from __future__ import annotations

import random
from collections.abc import Sequence

from parlour._core import rummy_greedy
from parlour.game import Action, Observation
from parlour.games.rummy.melds import TO_RUMMY, rummy_mask
from parlour.games.rummy.observation import RummyObservation


def greedy_action(observation: Observation, legal: Sequence[Action], rng: random.Random) -> Action:
    """The greedy choice among ``legal`` for a rummy observation: the seat's hand and the
    table, as the observation shows them, handed to the compiled policy."""
    if not isinstance(observation, RummyObservation):
        raise TypeError("the rummy policy needs a rummy observation")
    obs = observation
    top = TO_RUMMY[obs.discard[-1]] if obs.discard else -1
    index = rummy_greedy(obs.seat, rummy_mask(obs.hand), obs.phase == "draw", top,
                         [rummy_mask(m) for m in obs.melds], [rummy_mask(t) for t in obs.taken],
                         legal, rng)
    return legal[index]
