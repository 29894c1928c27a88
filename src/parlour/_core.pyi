"""The compiled rules engines (the Rust crate in ``rust/``), one family to a module there.

Each family's Python side (``parlour.games.<family>``) keeps the notation, the checks of a
setup with their messages and the action objects, and hands the engine cards as its own masks
and actions as packed ints: climbing key-order masks (:mod:`parlour.games.climbing.rules`,
:mod:`parlour.games.climbing.combos`), trump card masks and moves
(:mod:`parlour.games.trump.actions`), rummy layout bits (:mod:`parlour.games.rummy.melds`,
:mod:`parlour.games.rummy.actions`).
"""

from collections.abc import Iterable, Sequence
from typing import Any, final

import numpy as np
import numpy.typing as npt

from parlour.game import Observation
from parlour.games.rummy.actions import RummyAction
from parlour.games.trump.actions import TrumpAction

__all__ = ["MAX_ENVS", "MAX_ITERATIONS", "MAX_THREADS", "BatchedCore", "ClimbingEngine",
           "ClimbingKnowledge", "ClimbingNet", "ClimbingTable", "EnvCore", "Network", "Race",
           "RummyActions", "RummyCore", "RummyKnowledge", "RummyNet", "TrumpEngine",
           "TrumpKnowledge", "TrumpNet", "TrumpRules", "__version__", "rummy_greedy", "shuffle",
           "trump_deal"]

__version__: str
#: The most rollouts a search (:class:`Race`) may be asked for.
MAX_ITERATIONS: int
#: The most deals a :class:`BatchedCore` steps together.
MAX_ENVS: int
#: The most threads a :class:`BatchedCore` is stepped on.
MAX_THREADS: int

def shuffle(seed: int, x: list[Any]) -> None:
    """``random.Random(seed).shuffle(x)``, exactly (CPython's Mersenne Twister, seeded from
    any int), compiled: the deals' shuffle. TypeError if ``seed`` is not an int."""

def trump_deal(seed: int, players: int, dealer: int) -> tuple[tuple[int, ...], int]:
    """A trump deal from ``seed``: the deck ``shuffle(seed, list(range(52)))`` leaves, dealt
    in packets of three then two from the dealer's left; ``(hands as masks, turn_up)``.
    ValueError unless 1 <= players <= 10 and 0 <= dealer < players."""

@final
class TrumpRules:
    """One trump variant's rules inside a deal, and the move objects by value."""

    def __new__(
        cls,
        *,
        moves: list[TrumpAction | None],
        silent_ace: bool,
        immediate_pickup: bool,
        stop_at_three: bool,
        jinking: bool,
        points: list[int] | None = None,
        ante: int = 0,
    ) -> TrumpRules: ...
    def greedy(self, observation: Observation, legal: Sequence[int]) -> TrumpAction:
        """The rule-based policy's choice among ``legal`` (in the order given) for the seat of
        ``observation``, reading only what it shows. IllegalAction for a value in ``legal``
        that is no move, or a play with no card among them; ParlourError for what is no
        observation of a trump game."""

@final
class TrumpEngine:
    """One Forty-Five or Spoil Five deal."""

    def __new__(
        cls, rules: TrumpRules, hands: list[int], turn_up: int, dealer: int, pool: float
    ) -> TrumpEngine: ...
    @staticmethod
    def deal(
        rules: TrumpRules, seed: int, players: int, dealer: int, pool: float
    ) -> tuple[TrumpEngine, tuple[int, ...], int]:
        """The deal ``trump_deal(seed, players, dealer)`` with its engine:
        ``(engine, hands as masks, turn_up)``."""
    @property
    def current_player(self) -> int: ...
    @property
    def record(self) -> list[tuple[int, TrumpAction]]:
        """The ``(seat, move)`` pairs played: the list itself, which ``apply`` extends."""
    @property
    def phase(self) -> int: ...
    @property
    def leader(self) -> int: ...
    @property
    def robber(self) -> int: ...
    @property
    def discard(self) -> int: ...
    @property
    def keeper(self) -> int: ...
    @property
    def jinker(self) -> int: ...
    @property
    def taker(self) -> int: ...
    @property
    def pending_ace(self) -> bool: ...
    @property
    def demoted(self) -> bool: ...
    def legal_actions(self) -> list[TrumpAction]: ...
    def play_mask(self) -> int: ...
    def apply(self, action: int) -> int:
        """Play ``action`` and add ``(seat, its shared move)`` to ``record``: the seat to move
        next (-1 once over), or a refusal code below -1 (nothing changed)."""
    def observe(
        self, seat: int
    ) -> tuple[
        int, int, tuple[int, ...], int, int, tuple[int, ...], tuple[int, ...], tuple[int, ...],
        tuple[int, int, int], tuple[bool, bool], tuple[float, ...], int,
    ]: ...
    def hands(self) -> list[int]: ...
    def trick(self) -> tuple[int, ...]: ...
    def trick_winners(self) -> tuple[int, ...]: ...
    def tricks_won(self) -> tuple[int, ...]: ...
    def returns(self) -> list[float]: ...
    def hidden_from(self, seat: int) -> int: ...
    def zones(self) -> tuple[int, int, int, int]: ...
    def history(self) -> list[tuple[int, int]]: ...
    def clone(self) -> TrumpEngine: ...

@final
class TrumpKnowledge:
    """What one seat knows of a trump deal (from its observation), to deal worlds consistent
    with it: ``rust/src/trump/knowledge.rs``. ParlourError for what is no observation, or one
    that no deal is consistent with."""

    def __new__(cls, rules: TrumpRules, observation: Observation) -> TrumpKnowledge: ...
    @property
    def seat(self) -> int: ...
    def race(self, race: Race, candidates: list[int], priors: list[float], seed: int,
             policy: TrumpNet | None = None,
             ) -> tuple[int, int, list[tuple[list[float], int]], list[int]]:
        """Searches ``candidates`` (the seat's legal moves) with ``race``'s settings over worlds
        dealt from this knowledge, played out by ``policy`` (the greedy policy when None): the
        worlds, the rollouts, each candidate's returns (one per world) and wins, and the seats
        played by the rule-based policy in every world (``race``'s model of the opponents)."""
    def sample(self, seed: int) -> tuple[tuple[int, ...], int]:
        """A world dealt from ``seed`` (0 <= seed < 2**64): ``(hands, discard)``, the hands as
        dealt (masks) and the discard of another seat's rob this seat did not see (-1 if
        none); the observation's history replays from them."""

@final
class ClimbingTable:
    """One climbing variant's rules, and its shared action objects once given."""

    def __new__(
        cls,
        *,
        card_order: list[int],
        triples: bool,
        four_card_hands: bool,
        five_card: list[str],
        windows: list[tuple[int, int]],
        flush_suit_first: bool,
        opening_single: bool,
        scoring: str,
        ends_at_first_out: bool,
        next_player_leads_after_out: bool,
        pass_only_if_no_legal_play: bool,
        placement_points: list[int],
    ) -> ClimbingTable: ...
    def all_plays(self) -> list[int]:
        """Every play of the variant (those of the whole deck), sorted."""
    def set_actions(self, pass_action: Any, objects: list[Any]) -> None:
        """Give the action objects: the pass, then one per play of ``all_plays()``."""
    def deal(self, seed: int, players: int) -> list[int]:
        """A deal from ``seed``: the deck ``shuffle(seed, list(range(52)))`` leaves, dealt one
        card at a time from seat 0; each seat's hand as a key-order mask. ValueError unless
        1 <= players <= 52."""
    def hand_plays(self, hand: int) -> list[Any]:
        """Every play in ``hand`` (a key-order mask), sorted, as action objects."""
    def five_card_cards(self, hand: int) -> int:
        """The cards of ``hand`` (a key-order mask) in some five-card play of it."""
    def greedy(self, observation: Any, legal: Iterable[Any]) -> Any:
        """The greedy policy's choice among ``legal`` (actions of this variant) for the seat of
        ``observation`` (a ``ClimbingObservation``): the element of ``legal`` it picks.
        IllegalAction if ``legal`` is empty."""
    def knowledge(self, observation: Any) -> ClimbingKnowledge:
        """What the seat of ``observation`` (a ``ClimbingObservation`` of this variant) knows,
        to deal worlds from. DealError if no deal shows that observation."""

@final
class ClimbingKnowledge:
    """What one seat knows of a climbing deal, from its observation."""

    @property
    def seat(self) -> int:
        """The seat that knows this."""
    def sample(self, seed: int) -> list[int]:
        """Each seat's hand at the start of a deal consistent with the observation, dealt from
        ``seed`` (key-order masks): replaying the observation's history on that deal shows the
        seat exactly its observation."""
    def race(self, race: Race, candidates: list[int], priors: list[float], seed: int,
             policy: ClimbingNet | None = None,
             ) -> tuple[int, int, list[tuple[list[float], int]], list[int]]:
        """The search over worlds dealt from this knowledge (:class:`Race`), played out by
        ``policy`` (the greedy policy when None)."""
    def rule_based_chances(self, race: Race, seed: int, policy: ClimbingNet) -> list[float]:
        """Each seat's chance of playing by the rule-based policy rather than by ``policy``'s
        network, weighed from its moves so far by ``race``'s model of the opponents, over
        worlds dealt from ``seed`` (0 for the knowing seat); ValueError for a race without
        such a model."""

@final
class ClimbingNet:
    """A learned network as the climbing games' playout policy."""

    def __new__(
        cls,
        table: ClimbingTable,
        players: int,
        w1o: npt.NDArray[np.float32],
        w1a: npt.NDArray[np.float32],
        b1: npt.NDArray[np.float32],
        w2: npt.NDArray[np.float32],
        b2: npt.NDArray[np.float32],
        w3: npt.NDArray[np.float32],
        b3: float,
        ptr: npt.NDArray[np.int64],
        cols: npt.NDArray[np.int64],
        vals: npt.NDArray[np.float32],
        scale: float = 1.0,
    ) -> ClimbingNet: ...
    def scores(self, engine: ClimbingEngine) -> list[tuple[int, float]]:
        """The network's score of each legal play of the seat to move, in the engine's order."""

@final
class TrumpNet:
    """A learned network as the trump games' playout policy; the encoding divides the scores
    before the deal by ``score_scale`` and is given ``scores`` (those a match starts with)."""

    def __new__(
        cls,
        rules: TrumpRules,
        players: int,
        score_scale: float,
        scores: list[float],
        w1o: npt.NDArray[np.float32],
        w1a: npt.NDArray[np.float32],
        b1: npt.NDArray[np.float32],
        w2: npt.NDArray[np.float32],
        b2: npt.NDArray[np.float32],
        w3: npt.NDArray[np.float32],
        b3: float,
        scale: float = 1.0,
    ) -> TrumpNet: ...
    def scores(self, engine: TrumpEngine) -> list[tuple[int, float]]:
        """The network's score of each legal move of the seat to move, in the engine's order."""

@final
class ClimbingEngine:
    """One climbing deal."""

    def __new__(
        cls,
        table: ClimbingTable,
        hands: list[int],
        leader: int | None,
        out: int,
        table_play: int,
        table_seat: int,
        passes: int,
        finished: list[int],
    ) -> ClimbingEngine: ...
    @property
    def current_player(self) -> int: ...
    @property
    def table_play(self) -> int:
        """The play to beat (0 when the player to move leads)."""
    @property
    def played(self) -> int:
        """Cards played since the start (the start's table play included)."""
    @property
    def opening(self) -> bool: ...
    def legal_actions(self) -> list[Any]:
        """The legal actions of the player to move, as action objects."""
    def apply(self, action: int) -> int:
        """Play ``action``: the seat to move next (-1 once over), or a refusal code below -1
        (the state is then unchanged)."""
    def observe(
        self, seat: int
    ) -> tuple[
        int, tuple[int, ...], Any, int, int, bool, int, tuple[int, ...], tuple[float, ...]
    ]:
        """``(hand, hand_sizes, table, table_seat, passes, opening, played, finished, scores)``,
        ``hand`` and ``played`` as card-index masks (``played`` with the cards out from the
        start)."""
    def hands(self) -> list[int]: ...
    def finished(self) -> list[int]: ...
    def returns(self) -> list[float]: ...
    def hidden_from(self, seat: int) -> int: ...
    def clone(self) -> ClimbingEngine: ...

@final
class RummyActions:
    """Every rummy move's one object, by packed value: made through ``kind`` (an int subclass)
    the first time the move is met, then shared."""

    def __new__(cls, kind: type[RummyAction]) -> RummyActions: ...
    def get(self, value: int) -> RummyAction:
        """The object of the move packed as ``value``; ValueError for a value no move has."""
    def known(self, value: int) -> RummyAction | None:
        """The object of ``value`` if that move has been met, else None (adds nothing)."""

@final
class RummyCore:
    """One rummy deal: cards as rummy-layout bits and masks (see
    :mod:`parlour.games.rummy.melds`), actions as packed ints (see
    :mod:`parlour.games.rummy.actions`)."""

    @staticmethod
    def deal(
        actions: RummyActions,
        players: int,
        forbid: bool,
        score_melds: bool,
        turn_limit: int,
        deck: list[int],
        hand_size: int,
    ) -> RummyCore:
        """A deal from ``deck`` (rummy-layout bits, top first)."""
    @staticmethod
    def position(
        actions: RummyActions,
        players: int,
        forbid: bool,
        score_melds: bool,
        turn_limit: int,
        hands: list[int],
        stock: list[int],
        pile: list[int],
        melds: list[int],
        placed: list[int],
        scores: list[int],
        taken: list[int],
        current: int,
        drawing: bool,
        drawn: int,
        drawn_from_discard: bool,
        turn: int,
        ended: int | None = None,
    ) -> RummyCore:
        """A position from its parts; ``ended``: who went out (-1 blocked) of a deal over."""
    def copy(self) -> RummyCore: ...
    @property
    def current_player(self) -> int: ...
    @property
    def went_out(self) -> int: ...
    @property
    def drawing(self) -> bool: ...
    @property
    def record(self) -> list[tuple[int, RummyAction]]:
        """The ``(seat, move)`` pairs applied: the list itself, which ``apply`` extends."""
    @property
    def discard_draws(self) -> list[int]:
        """The card each discard draw took: the list itself, which ``apply`` extends."""
    def legal_actions(self) -> list[RummyAction]: ...
    def apply(self, action: int) -> int:
        """Play ``action`` (any int) and record it. Done: the seat to move next, -1 once over,
        -2 when the stock must now be rebuilt. Refused (nothing changed): -(code * 2**56 + its
        cards)."""
    def pile(self) -> bytes:
        """The discard pile, bottom first."""
    def rebuild(self, order: list[int]) -> None:
        """The new stock: the discards under the top card, in ``order`` (bottom first)."""
    def public_view(
        self,
    ) -> tuple[
        int, list[int], int, list[int], list[int], bytes, list[int], list[int], int, int, int,
        list[int],
    ]: ...
    def seat_view(self, seat: int) -> tuple[int, int]: ...
    def zones(self) -> tuple[list[int], int, int, int]: ...
    def hidden_from(self, seat: int) -> int: ...
    def hand_value(self, seat: int) -> int: ...
    def returns(self) -> list[int] | None: ...
    def parts(
        self,
    ) -> tuple[
        list[int], bytes, bytes, list[int], list[int], list[int], list[int],
        tuple[int, bool, int, bool, int],
    ]: ...

@final
class Network:
    """A learned network that scores a decision's moves from their encodings, summed in a fixed
    order: the same bits on every machine, as the compiled playouts' products."""

    def __new__(
        cls,
        w1o: npt.NDArray[np.float32],
        w1a: npt.NDArray[np.float32],
        b1: npt.NDArray[np.float32],
        w2: npt.NDArray[np.float32],
        b2: npt.NDArray[np.float32],
        w3: npt.NDArray[np.float32],
        b3: float,
    ) -> Network: ...
    def scores(
        self, obs: npt.NDArray[np.float32], moves: npt.NDArray[np.float32]
    ) -> npt.NDArray[np.float32]:
        """The score of each row of ``moves`` (a move's features) in the decision whose
        observation encoding is ``obs``."""

@final
class Race:
    """A search's settings; each family's knowledge runs it (``knowledge.race(race, …)``)."""

    def __new__(cls, iterations: int | None, time_limit: float | None, min_worlds: int,
                confidence: float, prior_weight: float, threads: int,
                inference: tuple[int, float, float] | None = None,
                leaf_after: int | None = None,
                opponents: tuple[int, float, float, float, float, int] | None = None,
                indifference: float = 0.0) -> Race: ...

def rummy_greedy(
    seat: int,
    hand: int,
    drawing: bool,
    top: int,
    melds: Sequence[int],
    taken: Sequence[int],
    legal: Sequence[int],
    rng: Any,
) -> int:
    """The rummy greedy policy's choice among ``legal`` (packed actions), as an index into it,
    for ``seat`` holding ``hand`` with the table's ``melds``, each seat's ``taken`` cards and
    the discard pile's ``top`` card (-1: empty), rummy layout. Ties between discards call
    ``rng.random()`` once per discard in ``legal``, only when the choice is a discard.
    ValueError for an empty ``legal`` or a ``top`` that is no card."""

@final
class RummyKnowledge:
    """What one seat knows of a rummy deal (its hand, the drawn card it may know, the public
    view as :meth:`RummyCore.public_view` gives it, and each seat's discards so far, which a
    network's playouts read; none given: none), from which consistent deals are sampled.
    ValueError when the view is no view of a deal."""

    def __new__(
        cls,
        players: int,
        forbid: bool,
        score_melds: bool,
        turn_limit: int,
        seat: int,
        hand: int,
        drawn: int,
        current: int,
        hand_sizes: list[int],
        phase: int,
        melds: list[int],
        placed: list[int],
        pile: list[int],
        taken: list[int],
        scores: list[int],
        stock_size: int,
        turn: int,
        went_out: int,
        shown: list[int],
        discarded: list[int] | None = None,
    ) -> RummyKnowledge: ...
    @property
    def seat(self) -> int: ...
    def sample(self, actions: RummyActions, seed: int) -> RummyCore:
        """A deal consistent with this knowledge, the unseen cards dealt at random from
        ``seed`` (0 to 2**64 - 1), its moves' objects from ``actions``."""
    def race(self, race: Race, candidates: list[int], priors: list[float], seed: int,
             policy: RummyNet | None = None,
             ) -> tuple[int, int, list[tuple[list[float], int]], list[int]]:
        """The search over worlds sampled from this knowledge (:class:`Race`), played out by
        ``policy`` (the greedy policy when None)."""

@final
class RummyNet:
    """A learned network as rummy's playout policy, for deals of these rules (``turn_limit``
    as the core keeps it); the encoding divides the turn by ``turns`` (the option's value)."""

    def __new__(
        cls,
        players: int,
        forbid: bool,
        score_melds: bool,
        turn_limit: int,
        turns: float,
        w1o: npt.NDArray[np.float32],
        w1a: npt.NDArray[np.float32],
        b1: npt.NDArray[np.float32],
        w2: npt.NDArray[np.float32],
        b2: npt.NDArray[np.float32],
        w3: npt.NDArray[np.float32],
        b3: float,
        scale: float = 1.0,
    ) -> RummyNet: ...
    def scores(self, core: RummyCore) -> list[tuple[int, float]]:
        """The network's score of each legal move of the seat to move, in the core's order."""

@final
class EnvCore:
    """One game's observation encoding, action index and deals, compiled (the crate's ``env``
    module and each family's ``encoding.rs``): exactly the encoding and index of
    :mod:`parlour.encoding`, read from a deal's engine object. ValueError for an engine
    of another player count, a seat that is not one, an array of another size; TypeError for
    another family's engine or another dtype."""

    @staticmethod
    def climbing(table: ClimbingTable, players: int) -> EnvCore: ...
    @staticmethod
    def trump(rules: TrumpRules, players: int, score_scale: float, scores: list[float],
              pool: float) -> EnvCore: ...
    @staticmethod
    def rummy(players: int, forbid: bool, score_melds: bool, turn_limit: int,
              turn_scale: float, hand_size: int) -> EnvCore: ...
    @property
    def size(self) -> int:
        """The length of an observation encoding."""
    @property
    def action_count(self) -> int:
        """The number of actions."""
    def encode(self, engine: Any, seat: int, out: npt.NDArray[np.float32],
               extra: Any = None) -> None:
        """``seat``'s encoding of the deal ``engine`` keeps, into ``out``; ``extra``: a trump
        deal's scores, each rummy seat's discards."""
    def observation(self, engine: Any, seat: int, idle: npt.NDArray[np.int8],
                    extra: Any = None) -> dict[str, npt.NDArray[Any]]:
        """``{"observation": …, "action_mask": …}`` in new arrays (the mask ``idle`` for a
        seat not to move)."""
    def legal(self, engine: Any) -> list[int]:
        """The legal actions' indexes, in the engine's order."""
    def legal_mask(self, engine: Any, mask: npt.NDArray[np.int8]) -> int:
        """1 at each legal action's index of ``mask``; how many."""

@final
class BatchedCore:
    """``num_envs`` deals of one game stepped together (``parlour.envs.batched.BatchedEnv``
    is its face)."""

    def __new__(cls, core: EnvCore, num_envs: int, deals: tuple[int, ...],
                scale: float, threads: int = 1) -> BatchedCore:
        """``deals``: the state of the ``random.Random`` the deal seeds are drawn from, just
        seeded (``getstate()[1]``); ``threads``: how many the rows are stepped on (the
        arrays are the same whatever their number)."""
    @property
    def threads(self) -> int:
        """The number of threads the rows are stepped on."""
    def reset(self, deals: tuple[int, ...] | None, obs: npt.NDArray[np.float32],
              player: npt.NDArray[np.int64], rewards: npt.NDArray[np.float32],
              done: npt.NDArray[np.bool_], offsets: npt.NDArray[np.int64]) -> None:
        """Fresh deals in every row; the first decisions into the arrays."""
    def step(self, actions: npt.NDArray[np.int64], obs: npt.NDArray[np.float32],
             player: npt.NDArray[np.int64], rewards: npt.NDArray[np.float32],
             done: npt.NDArray[np.bool_], offsets: npt.NDArray[np.int64]) -> int:
        """One action index per row; -1, or the first row whose action is not legal there
        (nothing changed)."""
    def legal(self) -> npt.NDArray[np.int64]:
        """Every row's legal action indexes, flat (a new array)."""
    def seeds(self) -> list[int]:
        """Each row's deal seed."""
    def played(self, row: int) -> list[int]:
        """The action indexes played in ``row``'s deal so far."""
