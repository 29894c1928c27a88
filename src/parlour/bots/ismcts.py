"""``ismcts``: OpenSpiel's information-set Monte Carlo tree search (Cowling, Powley and
Whitehouse 2012) as a parlour bot, for comparing parlour's own levels with a standard search
(``pip install 'parlour[openspiel]'``; the bot is registered when OpenSpiel is installed).

The search is OpenSpiel's own, ``open_spiel.python.algorithms.ismcts.ISMCTSBot``, playing the
variant as :mod:`parlour.interop.openspiel` registers it. The bot is given one seat's
observation and the legal moves, never the deal: the root it searches from is a state sampled
from that observation, and each simulation starts from another, drawn by
``resample_from_infostate`` (parlour's ``Observation.sample_state``). The tree's nodes are the
seats' information states (the observation as JSON, history included); a new node is valued by
one rollout of uniformly random legal moves, played by parlour's engine (what OpenSpiel's
``RandomRolloutEvaluator`` does, without going through pyspiel at every move), and the move
visited most is played. Everything random comes from the generator parlour hands the bot, so a
seed gives the same moves.

``ISMCTSBot(simulations=…, uct_c=…)`` sets the budget (simulations a move) and the exploration
constant, which multiplies the game's largest return of a deal (returns are in the variant's
own points, OpenSpiel's IS-MCTS takes them as they are). The default budget, 100 simulations,
takes about as long a move as ``expert`` (21 to 36 ms against its 17 to 55 on one core, and 100
against 45 in Rummy, whose random playouts run long: the documentation's "OpenSpiel" page).

>>> import random, parlour
>>> state = parlour.new_game("forty-five", players=2).new_deal(seed=1)
>>> bot = ISMCTSBot(simulations=8)
>>> move = bot.choose(state.observation(state.current_player), state.legal_actions(),
...                   random.Random(3))
>>> move in state.legal_actions()
True
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from parlour.bots.base import Bot, BotOption
from parlour.errors import VariantError
from parlour.game import Action, Game, Observation

#: Simulations a move by default (see the module docstring).
SIMULATIONS = 100
#: The exploration constant, for returns scaled to [-1, 1] (it multiplies the game's largest
#: return of a deal). Against ``greedy`` in big-two-4card, OpenSpiel's usual 2 measured worse
#: (-2.6 ± 1.2 points a deal over 40 deals), and 1, 0.3 and 0.1 alike (+1.1 to +1.3 ± 0.9 over
#: 150); in two-handed forty-five 2 and 0.5 were alike (-0.1 ± 0.25 over 400).
UCT_C = 1.0

#: The settings ``ismcts`` takes after its name (``ismcts:simulations=400:uct_c=0.5``).
ISMCTS_OPTIONS = (
    BotOption("simulations", int, 1, 100_000, "simulations a move"),
    BotOption("uct_c", float, 0.0, 100.0, "the exploration constant"),
)


class _Rollouts:
    """A node's value: one playout of uniformly random legal moves from its state, by parlour's
    engine; its prior: every legal move alike (OpenSpiel's ``RandomRolloutEvaluator``)."""

    def __init__(self, rng: random.Random) -> None:
        self._rng = rng

    def evaluate(self, state: Any) -> list[float]:
        play = state.to_parlour()
        choice = self._rng.choice
        while not play.is_over:
            play.apply(choice(play.legal_actions()))
        return [float(r) for r in play.returns()]

    def prior(self, state: Any) -> list[tuple[int, float]]:
        legal = state.legal_actions()
        return [(action, 1.0 / len(legal)) for action in legal]


#: The OpenSpiel game of each parlour game played so far (the arena makes a bot per deal).
_GAMES: dict[Game, Any] = {}


def _openspiel_game(game: Game) -> Any:
    found = _GAMES.get(game)
    if found is None:
        from parlour.interop.openspiel import load_game

        found = _GAMES[game] = load_game(game)
    return found


class ISMCTSBot(Bot):
    """``ismcts``: OpenSpiel's IS-MCTS, ``simulations`` a move (module docstring)."""

    name = "ismcts"

    def __init__(self, simulations: int = SIMULATIONS, uct_c: float = UCT_C) -> None:
        if not isinstance(simulations, int) or isinstance(simulations, bool) or simulations < 1:
            raise VariantError(f"ismcts: simulations must be a whole number of at least 1, "
                               f"not {simulations!r}")
        self.simulations = simulations
        self.uct_c = uct_c

    @property
    def reusable(self) -> bool:
        return True  # the same observation, moves and generator state give the same move

    def choose(
        self, observation: Observation, legal_actions: Sequence[Action], rng: random.Random
    ) -> Action:
        if len(legal_actions) == 1:
            return legal_actions[0]
        import numpy as np
        from open_spiel.python.algorithms import ismcts

        from parlour.encoding import reward_scale

        game = _openspiel_game(observation.game)
        root = game.from_parlour(observation.sample_state(rng))
        numbers = np.random.RandomState(rng.getrandbits(32))
        draws = random.Random(rng.getrandbits(64))
        search = ismcts.ISMCTSBot(
            game, _Rollouts(random.Random(rng.getrandbits(64))),
            self.uct_c * reward_scale(observation.game), self.simulations,
            random_state=numbers, final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT)
        search.set_resampler(lambda state, player: state.resample_from_infostate(player,
                                                                                 draws.random))
        chosen = int(search.step(root))
        return game.table.index.action(chosen, observation)  # type: ignore[no-any-return]
