"""The compiled rules engines (the Rust crate in ``rust/``), one family to a module there.

Each family's Python side (``parlour.games.<family>``) keeps the notation, the checks of a
setup with their messages and the action objects, and hands the engine cards as its own masks
and actions as packed ints: climbing key-order masks (:mod:`parlour.games.climbing.rules`,
:mod:`parlour.games.climbing.combos`), trump card masks and moves
(:mod:`parlour.games.trump.actions`), rummy layout bits (:mod:`parlour.games.rummy.melds`,
:mod:`parlour.games.rummy.actions`).
"""

from typing import Any, final

from parlour.games.rummy.actions import RummyAction
from parlour.games.trump.actions import TrumpAction

__all__ = ["ClimbingEngine", "ClimbingTable", "RummyActions", "RummyCore", "TrumpEngine",
           "TrumpRules", "__version__", "shuffle", "trump_deal"]

__version__: str

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
