"""Every parlour variant as an OpenSpiel game (``pip install 'parlour[openspiel]'``).

Importing this module registers one Python game with ``pyspiel`` per variant, named
``python_parlour_`` and the variant's name with ``_`` for ``-`` (:func:`game_name`); the rules
are parlour's engines, nothing is played by OpenSpiel itself.

>>> import pyspiel
>>> import parlour.interop.openspiel
>>> game = pyspiel.load_game("python_parlour_big_two", {"players": 4})
>>> state = game.new_initial_state()
>>> state.is_chance_node(), state.chance_outcomes()
(True, [(0, 1.0)])
>>> state.deal(7)                     # the chance node, with a deal seed of one's own
>>> state.current_player() == parlour.new_game("big-two").new_deal(seed=7).current_player
True

**Parameters.** ``players`` (the variant's usual number unless given), every option of the
variant by its keyword (``allow_triples``, ``straights`` …; each is an int, a bool or a string,
which pyspiel's parameters allow) and ``rng_seed``: the seed of the game's generator of deals,
-1 (the default) for one seeded by the system, as OpenSpiel's own games with sampled deals do.

**Chance.** A deck has 52! orders, so the deal cannot be a list of explicit chance outcomes.
The game is ``SAMPLED_STOCHASTIC`` in the way of OpenSpiel's own card game with sampled deals
(Tarok): the first state is a chance node with a single outcome, 0, of probability 1; applying
it draws a seed from the game's generator and deals parlour's ``game.new_deal(seed=…)``, so the
deal is any of the 52! alike. ``state.deal_seed`` is the seed drawn; ``state.deal(seed)``
applies the chance node with a seed of one's own, which deals exactly parlour's deal of that
seed. A fixed number of seeds as explicit outcomes was the alternative, and was not taken: it
makes another, smaller game, in which a seat's own hand would in principle tell the whole deal
(no two of 65,536 deals share a hand), and the states that resampling deals (below), every hand
consistent with what the seat saw, would lie outside it.

**Actions.** ``num_distinct_actions`` is the size of the family's action index
(:func:`parlour.envs.action_index`): a legal action of parlour is its index there, legal actions
are listed in ascending order, and an action id is parlour's action at that index in the state
(only a Rummy lay-off reads the state: which meld it adds to).

**Strings.** ``information_state_string(seat)`` is what the seat sees,
``state.observation(seat).to_dict()`` as compact JSON with sorted keys: its own hand, everything
public and the history as that seat saw it, so it recalls every move and names no card hidden
from the seat. ``observation_string(seat)`` is the same without the history.

**Tensors.** ``observation_tensor(seat)`` is parlour's own encoding of the seat's observation
(:func:`parlour.envs.encoder`: ``float32`` entries in ``[-1, 1]``). It sums the history up (which
cards each seat has played, passes …) rather than recalling it move by move, so the game offers
no information-state tensor.

**Resampling.** ``state.resample_from_infostate(seat, sampler)`` deals the cards hidden from the
seat anew with parlour's ``Observation.sample_state`` (seeded from a draw of ``sampler``) and
replays the moves on that deal: the state returned shows the seat the same information state
and has the same history of action ids. OpenSpiel's IS-MCTS determinises with it
(:mod:`parlour.bots.ismcts`).

**Returns** are parlour's ``state.returns()`` once the deal is over (zeros before), in the
variant's own points: general-sum, and bounded by the family's largest return of a deal
(:func:`parlour.envs.reward_scale`). ``state.serialize()`` keeps the deal's setup and moves, so
``game.deserialize_state`` restores a state; games and states pickle.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from typing import Any

import numpy as np
import pyspiel

from parlour.encoding import action_index, encoder, reward_scale
from parlour.errors import ParlourError
from parlour.game import Game, State
from parlour.registry import Variant, game_from_description, variants

#: What every game's name starts with.
PREFIX = "python_parlour_"

_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)
#: The parameters each game has beside its variant's options.
_OWN_PARAMETERS = ("players", "rng_seed")


def game_name(variant: str) -> str:
    """The OpenSpiel name of a variant.

    >>> game_name("big-two-4card")
    'python_parlour_big_two_4card'
    """
    return PREFIX + variant.replace("-", "_")


def load_game(game: Game, rng_seed: int = -1) -> Any:
    """The OpenSpiel game (a :class:`ParlourGame`) of a parlour game: its variant, players and
    option values.

    >>> import parlour
    >>> load_game(parlour.new_game("rummy", players=3)).num_players()
    3
    """
    params: dict[str, Any] = {"players": game.players, "rng_seed": rng_seed}
    params.update(game.option_values())
    return pyspiel.load_game(game_name(game.name), params)


def max_game_length(game: Game) -> int:
    """The most moves a deal of ``game`` can take (what OpenSpiel's ``max_game_length`` is):
    the game's own bound (:meth:`parlour.game.Game.max_deal_length`).

    >>> import parlour
    >>> max_game_length(parlour.new_game("big-two")), max_game_length(parlour.new_game("rummy"))
    (208, 2054)
    """
    most = game.max_deal_length()
    if most is None:
        raise ParlourError(f"{game.name}: no bound on the length of a deal")
    return most


class _Table:
    """What the states of one OpenSpiel game share: the parlour game, its action index and
    encoder, and the generator that draws deal seeds."""

    __slots__ = ("encoder", "game", "index", "names", "rng")

    def __init__(self, game: Game, rng_seed: int) -> None:
        self.game = game
        self.index = action_index(game)
        self.encoder = encoder(game)
        self.names = self.index.names()
        self.rng = random.Random(None if rng_seed == -1 else rng_seed)


class _Deal:
    """A state's parlour deal (``None`` before the chance node) and its seed, kept in one
    attribute: OpenSpiel clones a Python state by deep-copying each of its attributes, which
    here is parlour's ``clone()``, and serialises one by pickling them, which here keeps the
    deal's setup and moves."""

    __slots__ = ("preset", "seed", "state", "strings", "table")

    def __init__(self, table: _Table, state: State | None = None, seed: int | None = None,
                 ) -> None:
        self.table = table
        self.state = state
        self.seed = seed
        #: What the chance node deals instead of a drawn seed: a seed, or a parlour deal.
        self.preset: int | State | None = None
        #: The strings made of this position, by seat and kind: a search asks for the same
        #: information state several times (IS-MCTS, for each node it passes).
        self.strings: dict[tuple[int, bool], str] = {}

    def __deepcopy__(self, memo: dict[int, Any]) -> _Deal:
        copy = _Deal(self.table, None if self.state is None else self.state.clone(), self.seed)
        copy.strings = self.strings.copy()
        return copy

    def __reduce__(self) -> tuple[Any, ...]:
        state = self.state
        setup = None if state is None else state.setup()
        moves = [] if state is None else [str(action) for _, action in state.history]
        return (_restored, (self.table.game.describe(), setup, moves, self.seed))


def _restored(description: dict[str, Any], setup: dict[str, Any] | None, moves: list[str],
              seed: int | None) -> _Deal:
    game = game_from_description(description)
    deal = _Deal(_Table(game, -1), None, seed)
    if setup is not None:
        state = game.new_deal(**setup)
        for move in moves:
            state.apply(move)
        deal.state = state
    return deal


class ParlourState(pyspiel.State):  # type: ignore[misc]
    """One deal of a parlour variant, as an OpenSpiel state (module docstring)."""

    def __init__(self, game: ParlourGame) -> None:
        super().__init__(game)
        self._deal = _Deal(game.table)

    # -- OpenSpiel's API --------------------------------------------------------------------
    def current_player(self) -> int:
        state = self._deal.state
        if state is None:
            return _CHANCE
        player = state.current_player
        return _TERMINAL if player < 0 else player

    def _legal_actions(self, player: int) -> list[int]:
        state = self._deal.state
        assert state is not None
        return sorted(self._deal.table.index.indices(state.legal_actions(), state))

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return [(0, 1.0)]

    def _apply_action(self, action: int) -> None:
        deal = self._deal
        state = deal.state
        if deal.strings:
            deal.strings = {}
        if state is not None:
            state.apply(deal.table.index.action(action, state))
            return
        preset, deal.preset = deal.preset, None
        if isinstance(preset, State):
            deal.state = preset
            return
        seed = deal.table.rng.getrandbits(63) if preset is None else preset
        deal.state = deal.table.game.new_deal(seed=seed)
        deal.seed = seed

    def _action_to_string(self, player: int, action: int) -> str:
        if player == _CHANCE:
            return "deal"
        deal = self._deal
        if deal.state is not None:
            try:
                return str(deal.table.index.action(action, deal.state))
            except ParlourError:  # an action of another position (a lay-off on another meld)
                pass
        return deal.table.names[action]

    def is_terminal(self) -> bool:
        state = self._deal.state
        return state is not None and state.is_over

    def returns(self) -> list[float]:
        state = self._deal.state
        if state is None:
            return [0.0] * self._deal.table.game.players
        return [float(r) for r in state.returns()]

    def resample_from_infostate(self, player_id: int,
                                probability_sampler: Callable[[], float]) -> ParlourState:
        """A state that shows ``player_id`` the same information state: the cards hidden from
        it dealt anew by parlour's ``Observation.sample_state``, seeded from a draw of
        ``probability_sampler`` (a number in ``[0, 1)``), and the same moves."""
        deal = self._deal
        state = deal.state
        out: ParlourState = self.clone()  # the same history of action ids
        if state is None:
            return out
        seed = int(probability_sampler() * 2**53)
        again = out._deal
        again.state = state.observation(player_id).sample_state(random.Random(seed))
        again.seed = None
        # What this seat is shown is the same, what the others are shown is not.
        again.strings = {key: text for key, text in deal.strings.items() if key[0] == player_id}
        return out

    def __str__(self) -> str:
        state = self._deal.state
        if state is None:
            return "the cards are not dealt yet"
        zones = "\n".join(f"{name}: {cards}" for name, cards in state.zones().items())
        mover = "over" if state.is_over else f"P{state.current_player} to move"
        return f"{zones}\n{len(state.history)} moves, {mover}"

    def __reduce__(self) -> tuple[Any, ...]:
        # As the game's: pickled as the game and the state's own serialisation.
        return (_state_of, (self.get_game(), self.serialize()))

    # -- parlour's side ---------------------------------------------------------------------
    @property
    def deal_seed(self) -> int | None:
        """The seed of this state's deal (``game.new_deal(seed=…)`` deals it again); ``None``
        before the chance node, and for a state dealt otherwise (resampled)."""
        return self._deal.seed

    def deal(self, seed: int) -> None:
        """Apply the chance node with parlour's deal of ``seed`` instead of a drawn one."""
        if self._deal.state is not None:
            raise ParlourError("the cards are dealt already: deal(seed) is the first move")
        self._deal.preset = seed
        self.apply_action(0)

    def to_parlour(self) -> State:
        """A copy of this state's parlour deal."""
        state = self._deal.state
        if state is None:
            raise ParlourError("the cards are not dealt yet: apply the chance node first")
        return state.clone()


class _Observer:
    """One seat's view of a state, as OpenSpiel's observers give it: the information state
    (perfect recall: the observation as JSON, no tensor) or the observation (the JSON without
    the history, and parlour's encoding as the tensor)."""

    def __init__(self, table: _Table, iig_obs_type: Any, params: Any) -> None:
        if params:
            raise ValueError(f"parlour's observers take no parameters, not {params!r}")
        kind = iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False)
        if not kind.public_info or kind.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER:
            raise ValueError("parlour's games are observed by one seat, which sees its own cards "
                             "and everything public; no other observation type is offered")
        self._table = table
        self._recall = bool(kind.perfect_recall)
        self.tensor: np.ndarray[Any, np.dtype[np.float32]] | None = None
        self.dict: dict[str, Any] = {}
        if not self._recall:
            self.tensor = np.zeros(table.encoder.size, np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: ParlourState, player: int) -> None:
        tensor = self.tensor
        if tensor is None:
            return
        dealt = state._deal.state
        if dealt is None:
            tensor.fill(0.0)
        else:
            self._table.encoder.encode(dealt.observation(player), out=tensor)

    def string_from(self, state: ParlourState, player: int) -> str:
        deal = state._deal
        dealt = deal.state
        if dealt is None:
            return f"P{player}: the cards are not dealt yet"
        key = (player, self._recall)
        text = deal.strings.get(key)
        if text is None:
            seen = dealt.observation(player).to_dict()
            if not self._recall:
                del seen["history"]
            text = deal.strings[key] = json.dumps(seen, sort_keys=True, separators=(",", ":"),
                                                  ensure_ascii=False)
        return text


class ParlourGame(pyspiel.Game):  # type: ignore[misc]
    """A parlour variant with its players and option values, as an OpenSpiel game."""

    #: Set by each variant's own subclass, which pyspiel makes games of (:func:`register`).
    variant: Variant
    game_type: Any

    def __init__(self, params: dict[str, Any]) -> None:
        options = {k: v for k, v in params.items() if k not in _OWN_PARAMETERS}
        game = self.variant.make(int(params["players"]), **options)
        scale = reward_scale(game)
        info = pyspiel.GameInfo(
            num_distinct_actions=action_index(game).size, max_chance_outcomes=1,
            num_players=game.players, min_utility=-scale, max_utility=scale, utility_sum=None,
            max_game_length=max_game_length(game))
        super().__init__(self.game_type, info, params)
        self.table = _Table(game, int(params["rng_seed"]))

    def __reduce__(self) -> tuple[Any, ...]:
        # pyspiel pickles a game with a sampled chance node with its generator's state, which a
        # Python game cannot give it: this one is pickled as its name and parameters, and its
        # generator's state.
        return (_reloaded, (self.get_type().short_name, self.get_parameters(),
                            self.table.rng.getstate()))

    @property
    def parlour_game(self) -> Game:
        """The parlour game (ruleset) this game plays."""
        return self.table.game

    def new_initial_state(self) -> ParlourState:
        return ParlourState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        return _Observer(self.table, iig_obs_type, params)

    def from_parlour(self, state: State) -> ParlourState:
        """The state of this game at ``state``'s position (a parlour state of the same game,
        not over): its deal (``game.new_deal(**state.setup())``) as the chance node, then its
        moves, so that the history of action ids is the one playing it here would have made.
        A state that starts from a position rather than a deal, as Rummy's sampled states do
        (their setup is that position, their history empty), has the position as its chance
        node and only the moves made from there."""
        table = self.table
        if state.game != table.game:
            raise ParlourError(f"a state of {state.game!r} is not one of {table.game!r}")
        out = ParlourState(self)
        deal = out._deal
        deal.preset = table.game.new_deal(**state.setup())
        out.apply_action(0)
        index = table.index.index
        for _, action in state.history:
            out.apply_action(index(action, deal.state))
        return out


def _reloaded(name: str, params: dict[str, Any], rng_state: Any) -> ParlourGame:
    game: ParlourGame = pyspiel.load_game(name, params)
    game.table.rng.setstate(rng_state)
    return game


def _state_of(game: ParlourGame, serialized: str) -> ParlourState:
    state: ParlourState = game.deserialize_state(serialized)
    return state


def _parameters(variant: Variant) -> dict[str, Any]:
    """A variant's game parameters with their defaults: its players, its options, the seed."""
    spec: dict[str, Any] = {"players": variant.default_players}
    for info in variant.option_info():
        if info.name in _OWN_PARAMETERS:
            raise ParlourError(f"{variant.name}'s option {info.name} clashes with a parameter")
        if isinstance(info.default, (bool, int, str)):
            spec[info.name] = info.default
    spec["rng_seed"] = -1
    return spec


def register(variant: Variant) -> None:
    """Register ``variant`` with pyspiel as :func:`game_name` (done for every variant when the
    module is imported; registering one again does nothing)."""
    name = game_name(variant.name)
    if name in pyspiel.registered_names():
        return
    game_type = pyspiel.GameType(
        short_name=name,
        long_name=f"parlour {variant.name}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(variant.players),
        min_num_players=min(variant.players),
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameters(variant),
    )
    # The creator is a class of its own, as OpenSpiel's Python games register theirs: pyspiel
    # keeps it until the process ends, after Python has finalised, and a class (referred to by
    # its own ``__mro__``) is never freed then, where a function or partial would be.
    creator = type(f"ParlourGame_{variant.name.replace('-', '_')}", (ParlourGame,),
                   {"variant": variant, "game_type": game_type,
                    "__module__": __name__, "__doc__": f"{variant.name} as an OpenSpiel game."})
    pyspiel.register_game(game_type, creator)


for _variant in variants():
    register(_variant)
