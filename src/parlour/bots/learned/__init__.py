"""``learned``: the self-play networks, as bots and as guides for search.

The network (:mod:`.network`) scores each legal action by the points it expects the seat to end the
deal with after playing it, from the seat's observation alone; the bot plays the best-scored
action. It learned by self-play: ``training/selfplay.py`` (Deep Monte-Carlo on the batched
environment; the command, seed and compute that made each shipped network are in
``load_policy(variant).metadata``). Big-two-4card's and pusoy-dos's are smaller networks
distilled from self-play ones (``--teacher``), which their searches play out at less than half
the cost.

Every variant has weights (:func:`weights`, from each variant's record: the climbing and trump
games for 4 players, Rummy for 2 and 4). At another number of players, or under options that
change the play, ``learned`` plays the rule-based policy and says so, so that it can sit at any
table. A search takes the network as its guide (:func:`prior`) and its playout policy
(:func:`network_playouts`) as its settings say (:class:`~parlour.bots.search.SearchConfig`'s
``guided`` and ``network_playouts``); where there is no network, it searches as without them.

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
from collections.abc import Mapping, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from parlour.bots.base import Bot
from parlour.game import Action, Observation

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

    from parlour._core import ClimbingNet, RummyNet, TrumpNet
    from parlour.bots.learned.network import ActionFeatures, QNet

def weights(variant: str) -> Mapping[int, Path]:
    """The shipped networks' files of ``variant`` by number of players (none: an empty
    mapping), as its record registers them (:attr:`parlour.registry.Variant.weights`).

    >>> sorted(weights("rummy"))
    [2, 4]
    """
    from parlour.registry import get_variant

    shipped = get_variant(variant).weights
    mine = {n: path for (v, n), path in _REPLACED.items() if v == variant}
    return {**shipped, **mine} if mine else shipped


#: Networks in the shipped ones' place in this process (:func:`replace_weights`).
_REPLACED: dict[tuple[str, int], Path] = {}


def replace_weights(variant: str, players: int, path: Path) -> None:
    """Play ``variant`` for ``players`` with the network in ``path`` (a file of
    ``training/selfplay.py --export``) instead of the shipped one, in this process from here
    on: as ``learned``, and as every search's guide and playouts (an experiment with a network
    before it is shipped)."""
    from parlour.bots.learned.network import QNet

    QNet.load(path)  # refused here, with the reason, rather than at the first move
    _REPLACED[variant, players] = path
    _load.cache_clear()


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
    given), read once, or ``None`` where there is none (or no such variant). numpy is imported only here, so that
    registering the bot costs nothing at start-up.

    >>> load_policy("rummy").features.game.players, load_policy("rummy", 3)
    (2, None)
    >>> load_policy("rummy") is load_policy("rummy", 2)
    True
    """
    import parlour
    from parlour.registry import variants

    if variant not in {v.name for v in variants()}:
        return None
    return _load(variant, parlour.new_game(variant, players=players).players)


@cache
def _load(variant: str, players: int) -> Policy | None:
    path = weights(variant).get(players)
    if path is None:
        return None
    import parlour
    from parlour.bots.learned.network import QNet, features_for

    net, metadata = QNet.load(path)
    return Policy(net, features_for(parlour.new_game(variant, players=players)), metadata)


def policy_for(observation: Observation) -> Policy | None:
    """The shipped network for the observation's deal, or ``None``: a network plays the rules it
    was trained on (the variant's defaults, at the numbers of players it has :func:`weights` for), and
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
    policy = _load(game.name, game.players)
    if policy is None or getattr(game, "rules", None) != getattr(policy.features.game, "rules", None):
        return None
    return policy


def prior(observation: Observation, legal: Sequence[Action],
          rng: random.Random) -> list[float] | None:
    """Each legal action's predicted advantage (points a deal, centred on the legal actions'
    mean) by the learned network, or ``None`` for a variant without weights (the guide of a
    search whose settings say ``guided``)."""
    policy = policy_for(observation)
    if policy is None:
        return None
    points = policy.scores(observation, legal)
    return [float(x) for x in points - points.mean()]


def network_playouts(observation: Observation) -> ClimbingNet | TrumpNet | RummyNet | None:
    """The learned network of the observation's variant as a search's playout policy (for a
    search whose settings say ``network_playouts``), or ``None`` where there is none."""
    policy = policy_for(observation)
    return None if policy is None else policy.compiled()


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
            shipped = weights(game.name)
            which = (game.name if not shipped
                     else f"{game.players}-player {game.name}"
                     if game.players not in shipped
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


__all__ = ["LearnedBot", "Policy", "load_policy", "network_playouts", "policy_for", "prior",
           "replace_weights", "weights"]
