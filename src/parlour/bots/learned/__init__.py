"""``learned``: the self-play networks, as bots and as guides for search.

The network (:mod:`.network`) scores each legal action by the points it expects the seat to end the
deal with after playing it, from the seat's observation alone; the bot plays the best-scored
action. It learned by self-play: ``training/selfplay.py`` (Deep Monte-Carlo on the batched
environment; the command, seed and compute that made each shipped network are in
``load_policy(variant).metadata``). Big-two-4card's and pusoy-dos's are smaller networks
distilled from self-play ones (``--teacher``), which their searches play out at less than half
the cost.

Every variant has weights (:data:`WEIGHTS`): the climbing and trump games for 4 players, Rummy
for 2 and 4. At another number of players, or under options that change the play, ``learned``
plays the rule-based policy and says so, so that it can sit at any table. The searching levels
take a network as their guide where that was measured to make them stronger (:data:`GUIDED`:
all six), and ``expert`` plays its worlds out with it where that measured stronger too
(:func:`playouts`, :data:`PLAYED_OUT`: the climbing and trump games; Rummy's are played out by
``greedy``), as ``hard`` does in big-two-4card alone (:data:`HARD_PLAYED_OUT`); elsewhere
:func:`guide_for` gives no guide and a search keeps its plain behaviour.

>>> import random, parlour
>>> state = parlour.new_game("big-two-4card").new_deal(seed=4)
>>> state.apply("3D")
>>> seat = state.current_player
>>> action, why = LearnedBot().choose_explained(state.observation(seat), state.legal_actions(),
...                                             random.Random(0))
>>> action in state.legal_actions(), why.startswith(action.words())
(True, True)
"""

from __future__ import annotations

import random
from collections.abc import Collection, Mapping, Sequence
from functools import cache
from pathlib import Path
from types import MappingProxyType
from typing import TYPE_CHECKING, Any

from parlour.bots.base import Bot
from parlour.game import Action, Observation

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from parlour._core import ClimbingNet, RummyNet, TrumpNet
    from parlour.bots.learned.network import ActionFeatures, QNet

#: The shipped weights: for each variant that has a network, its file for each number of
#: players it was trained for (beside this module).
WEIGHTS: dict[str, dict[int, Path]] = {
    "big-two-4card": {4: Path(__file__).with_name("big_two_4card.npz")},
    "big-two": {4: Path(__file__).with_name("big_two.npz")},
    "pusoy-dos": {4: Path(__file__).with_name("pusoy_dos.npz")},
    "forty-five": {4: Path(__file__).with_name("forty_five.npz")},
    "spoil-five": {4: Path(__file__).with_name("spoil_five.npz")},
    "rummy": {2: Path(__file__).with_name("rummy.npz"),
              4: Path(__file__).with_name("rummy_4.npz")},
}
VARIANTS = tuple(WEIGHTS)


class Policy:
    """A trained network with the features it reads, for one variant."""

    def __init__(self, net: QNet, features: ActionFeatures, metadata: dict[str, Any]) -> None:
        from parlour._core import Network
        from parlour.encoding import action_index, encoder, reward_scale

        game = features.game
        #: The network as it plays: blind to the match's scores, which training never varied.
        self.net = net.deal_only(features)
        self.features = features
        self.metadata = metadata
        self.encoder = encoder(game)
        self.index = action_index(game)
        #: The network predicts normalised returns; this turns them into the variant's points.
        self.scale = reward_scale(game)
        #: Trained on each seat's return less the other seats' mean (``parlour.training.dmc.Config.relative``):
        #: its points are then a lead over the table.
        self.relative = bool(metadata.get("config", {}).get("relative", False))
        self._compiled: tuple[ClimbingNet | TrumpNet | RummyNet | None] | None = None
        p = self.net.params
        # The core's products, not numpy's: numpy's depend in their last bits on its threads and
        # on the processor, and a near tie would fall another way on another machine.
        self._network = Network(p["w1o"], p["w1a"], p["b1"], p["w2"], p["b2"], p["w3"],
                                float(p["b3"][0]))

    def compiled(self) -> ClimbingNet | TrumpNet | RummyNet | None:
        """The network as the compiled playout policy of a search (``SearchBot(playouts=…)``),
        its outputs worth ``scale`` points each, made once (``None`` in a family without
        one)."""
        if self._compiled is None:
            self._compiled = (self.features.compiled(self.net.params, self.scale),)
        return self._compiled[0]

    def scores(self, observation: Observation, legal: Sequence[Action]) -> npt.NDArray[np.float64]:
        """Each legal action's predicted points for the seat at the end of the deal (over the
        other seats' mean, for a network trained on relative returns: :attr:`relative`)."""
        import numpy as np

        obs = self.encoder.encode(observation)
        indices = np.asarray(self.index.indices(legal, observation), dtype=np.int64)
        seg = np.zeros(indices.size, dtype=np.int64)  # every action is of the one decision
        q = self._network.scores(obs, self.features.rows(indices, obs[None, :], seg))
        points: npt.NDArray[np.float64] = q.astype(np.float64) * self.scale
        return points


def load_policy(variant: str, players: int | None = None) -> Policy | None:
    """The shipped network of ``variant`` for ``players`` seats (its default number if not
    given), read once, or ``None`` where there is none. numpy is imported only here, so that
    registering the bot costs nothing at start-up.

    >>> load_policy("rummy").features.game.players, load_policy("rummy", 3)
    (2, None)
    >>> load_policy("rummy") is load_policy("rummy", 2)
    True
    """
    if variant not in WEIGHTS:
        return None
    import parlour

    return _load(variant, parlour.new_game(variant, players=players).players)


@cache
def _load(variant: str, players: int) -> Policy | None:
    path = WEIGHTS[variant].get(players)
    if path is None:
        return None
    import parlour
    from parlour.bots.learned.network import QNet, features_for

    net, metadata = QNet.load(path)
    return Policy(net, features_for(parlour.new_game(variant, players=players)), metadata)


def policy_for(observation: Observation) -> Policy | None:
    """The shipped network for the observation's deal, or ``None``: a network plays the rules it
    was trained on (the variant's defaults, at the numbers of players in :data:`WEIGHTS`), and
    no others. Options that change only the match (its length) keep the rules; options that change
    the plays do not.

    >>> import parlour
    >>> def network(game): return policy_for(game.new_deal(seed=1).observation(0)) is not None
    >>> network(parlour.new_game("big-two", match_end="deals"))
    True
    >>> network(parlour.new_game("big-two", allow_triples=True))
    False
    >>> [network(parlour.new_game("rummy", players=n)) for n in (2, 3, 4)]
    [True, False, True]
    """
    game = observation.game
    # the cached load by the deal's own player count: no game is made per decision
    policy = _load(game.name, game.players) if game.name in WEIGHTS else None
    if policy is None or getattr(game, "rules", None) != getattr(policy.features.game, "rules", None):
        return None
    return policy


#: The variants whose searching levels (``hard``, ``expert``) take their network as their guide
#: (``expert`` also plays out with it where :data:`PLAYED_OUT` says so, ``hard`` where
#: :data:`HARD_PLAYED_OUT` does): those where that measured stronger. Elsewhere the network is
#: the ``learned`` bot alone, and the levels search with ``greedy``'s candidates and playouts.
GUIDED = frozenset({"big-two-4card", "big-two", "pusoy-dos", "forty-five", "spoil-five", "rummy"})


def guide_for(observation: Observation) -> Policy | None:
    """The network that guides a search of the observation's variant, or ``None``."""
    return policy_for(observation) if observation.game.name in GUIDED else None


def prior(observation: Observation, legal: Sequence[Action],
          rng: random.Random) -> list[float] | None:
    """Each legal action's predicted advantage (points a deal, centred on the legal actions'
    mean) by the learned network, or ``None`` for a variant without weights (a search guide:
    ``SearchBot(guide=prior)``)."""
    policy = guide_for(observation)
    if policy is None:
        return None
    points = policy.scores(observation, legal)
    return [float(x) for x in points - points.mean()]


#: The variants where ``expert`` also plays its worlds out with the network (those where that
#: measured stronger than ``greedy``'s rollouts), each with its rollouts a move. Rummy's play
#: out with ``greedy`` (:func:`network_playouts` still plays them out with the network, for
#: experiments). How these were found: the documentation's Experiments.
PLAYED_OUT: Mapping[str, int] = MappingProxyType({
    "big-two-4card": 1_500, "big-two": 800, "pusoy-dos": 1_500, "forty-five": 1_500,
    "spoil-five": 1_500})


def network_playouts(observation: Observation) -> ClimbingNet | TrumpNet | RummyNet | None:
    """The learned network of the observation's variant as a search's playout policy
    (``SearchBot(playouts=network_playouts)``), or ``None`` where there is none."""
    policy = guide_for(observation)
    return None if policy is None else policy.compiled()


#: The variants where ``hard`` plays its worlds out with the network too, with its few rollouts
#: a move: big-two-4card (60), where the network alone is stronger than a search played out by
#: ``greedy``. Elsewhere ``hard`` plays out with ``greedy``, a step below ``expert``.
HARD_PLAYED_OUT: Mapping[str, int] = MappingProxyType({"big-two-4card": 60})


def playouts(observation: Observation, variants: Collection[str] = PLAYED_OUT,
             ) -> ClimbingNet | TrumpNet | RummyNet | None:
    """The playout policy of the levels' searches: the network where ``variants`` (by default
    :data:`PLAYED_OUT`'s, ``expert``'s) has the observation's variant, else ``None`` (greedy
    playouts)."""
    return network_playouts(observation) if observation.game.name in variants else None


class LearnedBot(Bot):
    """Plays the action the learned network scores highest (the rule-based policy's pick in a
    variant without weights). ``policy``: another network than the shipped one (training
    evaluates its networks so)."""

    name = "learned"

    def __init__(self, policy: Policy | None = None) -> None:
        self.policy = policy

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        return self.choose_explained(observation, legal_actions, rng)[0]

    def choose_explained(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> tuple[Action, str]:
        if len(legal_actions) == 1:
            return legal_actions[0], f"{legal_actions[0].words()}: the only legal move"
        policy = self.policy or policy_for(observation)
        if policy is None:
            action = observation.game.greedy_action(observation, legal_actions, rng)
            game = observation.game
            which = (game.name if game.name not in WEIGHTS
                     else f"{game.players}-player {game.name}"
                     if game.players not in WEIGHTS[game.name]
                     else f"{game.name} with these options")
            return action, f"{action.words()}: the rule-based choice (no learned weights for {which})"
        scores = policy.scores(observation, legal_actions)
        ranked = sorted(range(len(legal_actions)), key=lambda i: -scores[i])
        best, second = ranked[0], ranked[1]
        action = legal_actions[best]
        points = "points over the others' average" if policy.relative else "points"
        return action, (f"{action.words()}: the learned network expects {scores[best]:+.1f} "
                        f"{points} after it, {scores[best] - scores[second]:.1f} more than after "
                        f"the next best, {legal_actions[second].words()}")


__all__ = ["GUIDED", "HARD_PLAYED_OUT", "PLAYED_OUT", "VARIANTS", "WEIGHTS", "LearnedBot", "Policy",
           "guide_for", "load_policy", "network_playouts", "playouts", "policy_for", "prior"]
