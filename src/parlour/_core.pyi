"""The compiled rules engines (the Rust crate in ``rust/``)."""

__version__: str

class RummyCore:
    """One rummy deal: cards as rummy-layout bits and masks (see
    :mod:`parlour.games.rummy.melds`), actions as packed ints (see
    :mod:`parlour.games.rummy.actions`)."""

    @staticmethod
    def deal(
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
    def legal_actions(self) -> list[int]: ...
    def apply(self, a: int) -> int:
        """Done: the seat to move next + 1 (0: over), + 8 when the stock must be rebuilt,
        + 256 * (1 + the card a discard draw took). Refused: code * 2**56 + its cards."""
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
