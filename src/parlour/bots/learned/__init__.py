"""``learned``: the policy network trained for big-two-4card, as a bot and as a guide for search.

The network (:mod:`.model`) scores each legal action by its predicted advantage in points per
deal, from the seat's observation alone (:mod:`.features`); the bot plays the best-scored
action. It was fitted by ``training/train_big_two_4card.py`` to Monte Carlo advantages of
positions from greedy play, so it is one learned step of policy improvement over ``greedy``
(the command, seed and figures are in ``load_model().metadata``).

Only big-two-4card has weights. In the other variants ``learned`` plays the rule-based policy
and says so, so that it can sit at any table; :func:`guide_for` gives no guide there, and a
search keeps its plain behaviour.

>>> import random, parlour
>>> state = parlour.new_game("big-two-4card").new_deal(seed=4)
>>> state.apply("3D")
>>> seat = state.current_player
>>> action, why = LearnedBot().choose_explained(state.observation(seat), state.legal_actions(),
...                                             random.Random(0))
>>> action in state.legal_actions(), why.startswith(str(action))
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import TYPE_CHECKING

from parlour.bots.base import Bot
from parlour.game import Action, Observation

if TYPE_CHECKING:
    from parlour.bots.learned.model import PolicyValue

#: The variants with trained weights.
VARIANTS = ("big-two-4card",)


def load_model() -> PolicyValue:
    """The shipped big-two-4card model, loaded once. numpy is imported only here, so that
    registering the bot costs nothing at start-up."""
    from parlour.bots.learned import model

    return model.load_model()


def guide_for(observation: Observation) -> PolicyValue | None:
    """The learned model for the observation's variant, or ``None`` where there is none."""
    game = observation.game
    if game.name in VARIANTS and game.players == 4:
        return load_model()
    return None


def prior(observation: Observation, legal: Sequence[Action],
          rng: random.Random) -> list[float] | None:
    """Each legal action's predicted advantage (points per deal) by the learned policy, or
    ``None`` for a variant without weights. ``rng`` feeds the rule-based policy's pick, one of
    the features."""
    model = guide_for(observation)
    if model is None:
        return None
    choice = observation.game.greedy_action(observation, legal, rng)
    return [float(x) for x in model.advantages(observation, legal, choice)]


class LearnedBot(Bot):
    """Plays the action the learned policy scores highest (the rule-based policy's pick in a
    variant without weights)."""

    name = "learned"

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        return self.choose_explained(observation, legal_actions, rng)[0]

    def choose_explained(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> tuple[Action, str]:
        if len(legal_actions) == 1:
            return legal_actions[0], "the only legal move"
        scores = prior(observation, legal_actions, rng)
        if scores is None:
            action = observation.game.greedy_action(observation, legal_actions, rng)
            return action, (f"{action}: the rule-based choice (no learned weights for "
                            f"{observation.game.name})")
        ranked = sorted(range(len(legal_actions)), key=lambda i: -scores[i])
        best, second = ranked[0], ranked[1]
        action = legal_actions[best]
        return action, (f"{action}: the learned policy rates it {scores[best] - scores[second]:+.2f}"
                        f" points a deal above the next best, {legal_actions[second]}")


__all__ = ["VARIANTS", "LearnedBot", "guide_for", "load_model", "prior"]
