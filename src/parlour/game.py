"""The game protocol every variant implements: ``Game``, ``State``, ``Action``, ``Observation``.

A :class:`Game` is an immutable ruleset (a variant, a player count and option values). It makes
deals: ``game.new_deal(seed=…)``. A :class:`State` is one deal in progress: it knows whose turn it
is, the legal actions, how to apply one (in place), and what each seat may observe.

>>> import parlour
>>> game = parlour.new_game("big-two")
>>> state = game.new_deal(seed=7)
>>> state.current_player in range(4), state.is_over
(True, False)
>>> first = state.legal_actions()[0]
>>> state.apply(first)
>>> state.history[0] == (state.history[0][0], first)
True

Nothing outside ``parlour.games`` knows anything game-specific: bots, the CLI, the arena and the
RL wrappers only use what is defined here.
"""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Iterable, Sequence
from dataclasses import fields
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, Self

from parlour._core import shuffle as _shuffle
from parlour.cards import CARDS, Card, CardSet, parse_cards
from parlour.errors import DealError, IllegalAction, SeatError
from parlour.match import Match
from parlour.text import Scores
from parlour.view import SeatView

if TYPE_CHECKING:
    from parlour._core import Race
    from parlour.registry import Variant

#: ``state.current_player`` once the deal is over.
TERMINAL = -1


class Action(int):
    """A move, as a small immutable int that prints in the game's notation.

    Actions are made by the game (``state.legal_actions()``, ``state.parse_action(text)``), not by
    hand; the int value is the engine's packed encoding. ``str(action)`` is the canonical notation
    and ``state.parse_action(str(action)) == action``.
    """

    __slots__ = ()

    def __bool__(self) -> bool:
        # Every action is truthy, whatever its packed value: ``if action:`` must never mistake a
        # real move (a pass, the 2 of clubs, a draw from the stock) for "no action".
        return True

    def __repr__(self) -> str:
        return f"{type(self).__name__}('{self}')"

    def __format__(self, spec: str) -> str:
        return format(str(self), spec)

    def words(self) -> str:
        """The move in a player's words ("the pair of 9s (9♣ 9♠)", "rob the trump, discarding
        the 4♦"), for hints and reviews; the notation (``str``) is for everything else.
        """
        return str(self)


class Knowledge(Protocol):
    """What a seat knows, compiled: the search samples worlds from it and plays them out
    without Python (each family's ``parlour._core.…Knowledge``)."""

    def race(self, race: Race, candidates: list[int], priors: list[float], seed: int,
             ) -> tuple[int, int, list[tuple[list[float], int]], list[int]]:
        """Searches ``candidates`` (action ints) with ``race``'s settings: the worlds counted,
        the rollouts made, each candidate's returns (one per world) and wins, and the seats
        played by the rule-based policy in every world (``race``'s model of the opponents)."""
        ...


class Observation(ABC):
    """What one seat may see of a deal: its own hand and everything public, nothing more.

    Bots receive an observation, never the state. Each family adds its own public fields
    (the table, tricks, melds …) in a frozen dataclass subclass, so observations compare equal
    exactly when they show the same thing.
    """

    game: Game
    seat: int
    current_player: int
    hand: CardSet
    hand_sizes: tuple[int, ...]
    #: The actions so far as this seat saw them (another seat's face-down card is hidden).
    history: tuple[tuple[int, Action], ...]

    @classmethod
    def assemble(cls, **fields: Any) -> Self:
        """The observation with these fields (every field of the family's dataclass, by name),
        made without the frozen dataclass's ``__init__``: that sets each field through
        ``object.__setattr__``, a large part of an observation's cost when an environment makes
        one per step. The engines' tests check that it equals the ``__init__``-made one."""
        obs = object.__new__(cls)
        obs.__dict__.update(fields)
        return obs

    @property
    def is_over(self) -> bool:
        return self.current_player == TERMINAL

    @property
    def stalled(self) -> str | None:
        """Why the deal can no longer end before its turn limit, in a player's words, or
        ``None`` (always, in a family whose deals end by themselves). A search plays its
        policy's move there without rollouts, which would all run on to the limit.
        """
        return None

    def prompt(self) -> str:
        """What the seat to move is asked to do now, in a few words ("beat the play or pass"),
        which the tables show on its turn. Each family says its own.
        """
        return "choose a move"

    def reason(self, action: Action, legal: Sequence[Action], instead: Action | None = None,
               ) -> str:
        """Why ``action`` (one of ``legal``) is good for this seat, in the game's terms, for
        a hint: a clause such as "it keeps your 2♠, the highest card left, for later", or
        empty when there is nothing to say. ``instead`` is the next best move, when a reason
        may be measured against it. Each family says it from the seat's own view only.
        """
        return ""

    def log_lines(self, start: int = 0) -> list[str]:
        """The deal's public history from action ``start`` on, told for this seat: a line per
        action, plus what follows from it (who won a trick, the end of the deal). Never names a
        card hidden from this seat; tables and the plain-text player print exactly this.
        """
        name = self.game.seat_name
        return [f"{name(seat)}: {action}" for seat, action in self.history[start:]]

    @abstractmethod
    def sample_state(self, rng: random.Random) -> State:
        """A full state consistent with everything this observation shows.

        The hidden cards are dealt at random from those this seat cannot see, so that
        ``sample.observation(self.seat) == self``. Search bots use it to determinise.
        """

    def _knowledge(self) -> Knowledge | None:
        """This seat's knowledge compiled for the search (``None``: the family has none, and
        :class:`~parlour.bots.search.SearchBot` refuses to search it)."""
        return None

    @abstractmethod
    def view(self) -> SeatView:
        """The table from this seat's point of view, in parts: the title, the panels of text,
        the hand and the cards marked in it, the result once the deal is over, and the family's
        own facts (the tricks, the caption over the table play). The front ends draw it."""

    def render(self) -> str:
        """A plain-text picture of the table from this seat's point of view: the view's text.

        >>> import parlour
        >>> obs = parlour.new_game("big-two").new_deal(seed=1).observation(0)
        >>> obs.render() == obs.view().text()
        True
        """
        return self.view().text()

    def to_dict(self) -> dict[str, Any]:
        """A JSON-able form, for remote players."""
        out: dict[str, Any] = {}
        for f in fields(self):  # type: ignore[arg-type]
            if f.name == "game":
                continue
            out[f.name] = _jsonable(getattr(self, f.name))
        out["variant"] = self.game.name
        return out


def _jsonable(value: Any) -> Any:
    if isinstance(value, CardSet):
        return [str(c) for c in value]
    if isinstance(value, (Card, Action)):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_jsonable(v) for v in value]
    if isinstance(value, dict):
        return {str(k): _jsonable(v) for k, v in value.items()}
    return value


class State(ABC):
    """One deal in progress. Mutated in place by :meth:`apply`, like python-chess's ``push``.

    Engines keep ``current_player`` as a plain attribute (``TERMINAL`` once over) because it is
    read on every step of every simulation.
    """

    game: Game
    current_player: int

    @property
    def is_over(self) -> bool:
        return self.current_player == TERMINAL

    @abstractmethod
    def legal_actions(self) -> list[Action]:
        """Every legal action of the player to move (empty once the deal is over)."""

    @abstractmethod
    def apply(self, action: Action | str) -> None:
        """Play ``action`` (an :class:`Action` or its text) for the player to move.

        Raises :class:`~parlour.errors.IllegalAction` naming the rule broken, and then leaves the
        state unchanged.
        """

    @abstractmethod
    def parse_action(self, text: str) -> Action:
        """Parse the notation of an action in this state (cards in any order, any case).

        Raises :class:`~parlour.errors.IllegalAction` saying what was expected. Parsing does not
        check legality; :meth:`apply` does.
        """

    @abstractmethod
    def clone(self) -> State:
        """An independent copy."""

    @abstractmethod
    def returns(self) -> list[float]:
        """Each seat's score for this deal (higher is better); zeros until the deal is over."""

    @abstractmethod
    def observation(self, seat: int) -> Observation:
        """What ``seat`` may see. Raises :class:`~parlour.errors.SeatError` for a seat outside
        ``0..players-1``."""

    def coerce_action(self, action: object) -> Action:
        """What an :meth:`apply` argument that is not already this engine's action type stands
        for: text is parsed; anything else is refused with :class:`IllegalAction`.

        Engines call it only off their fast path (``if action.__class__ is not MyAction``), so a
        float, a bool, ``None`` or another game's action can never be taken for a move.
        """
        if isinstance(action, str):
            return self.parse_action(action)
        raise IllegalAction(
            f"{action!r} is not an action of {self.game.name}: apply one of "
            "state.legal_actions() or its text"
        )

    def check_seat(self, seat: object) -> int:
        """``seat`` if it is a seat of this game; otherwise :class:`~parlour.errors.SeatError`."""
        n = self.game.players
        if isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat < n:
            return int(seat)
        raise SeatError(f"{seat!r} is not a seat of {self.game.name}: seats are 0 to {n - 1}")

    @property
    @abstractmethod
    def history(self) -> list[tuple[int, Action]]:
        """The actions so far, as ``(seat, action)`` pairs: a new list on every call, so a
        caller that changes it changes nothing in the state."""

    @abstractmethod
    def setup(self) -> dict[str, Any]:
        """JSON-able keyword arguments with which ``game.new_deal(**setup)`` recreates this deal
        as it was before the first action."""

    def zones(self) -> dict[str, CardSet]:
        """Where every card is: disjoint named sets (``"P0"`` … for hands, then the variant's
        own: ``"played"``, ``"stock"``, ``"discards"``, ``"melds"`` …) covering the 52 cards."""
        raise NotImplementedError(f"{type(self).__name__} does not list its zones")

    def hidden_from(self, seat: int) -> CardSet:
        """The cards ``seat`` cannot see or deduce from public play (other hands, the stock …).
        An observation of ``seat`` never mentions one of them. Raises
        :class:`~parlour.errors.SeatError` for a seat outside ``0..players-1``."""
        raise NotImplementedError(f"{type(self).__name__} does not say what is hidden")

    def winners(self) -> list[int]:
        """The seats that won this deal: by default, those with the highest return."""
        if not self.is_over:
            return []
        r = self.returns()
        best = max(r)
        return [i for i, v in enumerate(r) if v == best]

    def __str__(self) -> str:
        return self.observation(self.current_player if self.current_player >= 0 else 0).render()


class Game(ABC):
    """An immutable ruleset: a variant with its player count and option values.

    Make one with :func:`parlour.new_game`. Equal games play identically.
    """

    #: Each family's options dataclass type; instances are frozen.
    options_type: ClassVar[type]
    #: Whether the hands left at the end of a deal are shown to everyone (they are counted for
    #: the score, as in Rummy); otherwise the end of a deal shows nothing its play did not.
    reveals_hands_at_end: ClassVar[bool] = False

    def __init__(self, variant: Variant, players: int, options: Any) -> None:
        self._variant = variant
        self._players = players
        self._options = options

    @property
    def penalty_scoring(self) -> bool:
        """Whether a deal scores penalty points (the fewer the better): the returns are then
        their negatives, and a table shows them counted up from 0 as the rules count them."""
        return False

    #: What a score counts where the deals score no penalties: points, or Spoil Five's chips.
    score_unit: ClassVar[str] = "points"

    @property
    def scores(self) -> Scores:
        """How this game's scores read to a player, in every front end (penalty points
        counted up from 0, other scores signed): :class:`parlour.text.Scores`.

        >>> import parlour
        >>> parlour.new_game("big-two").scores.line("Result", ["P0", "P1"], [-7.0, 0.0])
        'Result, penalties: P0 7, P1 0'
        """
        return Scores(penalty=self.penalty_scoring, unit=self.score_unit)

    def max_deal_length(self) -> int | None:
        """The most moves a deal can take, or ``None`` where the family does not bound it
        (OpenSpiel's ``max_game_length``). Each family says its own."""
        return None

    @property
    def sides(self) -> tuple[int, ...] | None:
        """Each seat's side where the seats play in partnerships (seats of one side share
        their score: Forty-Five's even and odd seats), else ``None``.

        >>> import parlour
        >>> parlour.new_game("forty-five").sides, parlour.new_game("spoil-five").sides
        ((0, 1, 0, 1), None)
        """
        return None

    @property
    def name(self) -> str:
        return self._variant.name

    @property
    def variant(self) -> Variant:
        return self._variant

    @property
    def players(self) -> int:
        return self._players

    @property
    def options(self) -> Any:
        return self._options

    def option_values(self) -> dict[str, Any]:
        return {f.name: getattr(self._options, f.name) for f in fields(self._options)}

    def describe(self) -> dict[str, Any]:
        """``{"variant", "players", "options"}``: enough for :func:`parlour.new_game` to rebuild it."""
        return {"variant": self.name, "players": self.players, "options": self.option_values()}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.describe() == other.describe()

    def __hash__(self) -> int:
        return hash((self.name, self.players, tuple(self.option_values().items())))

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.option_values().items())
        return f"<Game {self.name} players={self.players}{', ' + opts if opts else ''}>"

    def seat_name(self, seat: int) -> str:
        return f"P{seat}"

    def card_order(self) -> Sequence[int]:
        """The card indices from lowest to highest in this game's own ranking, for listing
        hands; variants whose order depends on the deal (a trump suit) refine it per deal."""
        return range(52)

    def card_set(self, cards: int | Iterable[Card | int]) -> CardSet:
        """A :class:`CardSet` (from a mask or cards) that lists its cards in this game's order."""
        kind = CardSet.ordered(self.card_order())
        return kind(cards) if isinstance(cards, int) else kind(CardSet.from_cards(cards))

    @abstractmethod
    def new_deal(
        self,
        *,
        seed: int | None = None,
        deck: Sequence[Card | str] | str | None = None,
        hands: Sequence[Sequence[Card | str] | str] | None = None,
        **setup: Any,
    ) -> State:
        """A new deal: shuffled from ``seed``, dealt from ``deck`` (52 cards, top first) by the
        variant's own procedure, or from explicit ``hands``, plus variant-specific setup (who
        leads, who deals …). A deal that is not a partition of the 52 cards is refused with
        :class:`~parlour.errors.DealError`."""

    # -- matches: the variant's rule for several deals --------------------------------------
    def new_match(self, seed: int | None = None) -> Match:
        return Match(self, seed=seed)

    def match_start(self) -> dict[str, Any]:
        """Public facts carried from deal to deal (who leads next, the pool …), at the start."""
        return {}

    def match_deal_setup(self, carry: dict[str, Any], rng: random.Random) -> dict[str, Any]:
        """Extra ``new_deal`` arguments for the next deal of a match."""
        return {}

    def match_after_deal(self, carry: dict[str, Any], state: State) -> dict[str, Any]:
        """The carried facts after ``state`` ended."""
        return carry

    def match_end_text(self) -> str:
        """One sentence saying what ends a match of this game, for the tables to show."""
        return "the match is one deal"

    def match_initial_totals(self) -> list[float]:
        return [0.0] * self.players

    @abstractmethod
    def match_over(self, totals: Sequence[float], deals: int, carry: dict[str, Any]) -> bool:
        """Whether a match with these cumulative totals after ``deals`` deals has ended."""

    def match_winners(self, totals: Sequence[float], carry: dict[str, Any]) -> list[int]:
        """The match winners: by default the highest total (ties share)."""
        best = max(totals)
        return [i for i, t in enumerate(totals) if t == best]

    def bench_extra(self, seconds: float) -> dict[str, str]:
        """Variant-specific figures for ``parlour bench`` (label -> formatted value)."""
        return {}

    # -- the rule-based policy that ``bots.greedy`` delegates to ------------------------------
    def greedy_action(
        self, observation: Observation, legal: Sequence[Action], rng: random.Random
    ) -> Action:
        """A sensible rule-based choice for this variant."""
        raise NotImplementedError(f"{self.name} has no rule-based policy")


# -- helpers for the engines -------------------------------------------------------------------


def action_text(text: object) -> str:
    """``text`` if it is a string; otherwise :class:`IllegalAction` saying text was expected.
    Every ``parse_action`` starts here."""
    if not isinstance(text, str):
        raise IllegalAction(f"expected the text of an action (as str(action) prints it), not {text!r}")
    return text


def check_partition(groups: Sequence[Sequence[Card]], names: Sequence[str], total: int = 52) -> None:
    """Refuse a deal whose groups hold a card twice or miss some of the 52."""
    seen: dict[int, str] = {}
    for group, name in zip(groups, names, strict=False):
        for c in group:
            if int(c) in seen:
                where = seen[int(c)]
                raise DealError(
                    f"{c} is dealt twice ({where} and {name})" if where != name
                    else f"{c} appears twice in {name}"
                )
            seen[int(c)] = name
    if len(seen) != total:
        missing = CardSet((1 << 52) - 1) - CardSet.from_cards(Card(i) for i in seen)
        raise DealError(f"the deal is missing {len(missing)} card(s): {missing}")


def parse_deck(deck: Sequence[Card | str] | str) -> list[Card]:
    """A full 52-card deck, checked."""
    cards = parse_cards(deck)
    check_partition([cards], ["the deck"])  # no duplicate and none missing: exactly 52
    return cards


def shuffled_deck(seed: int) -> list[Card]:
    """The 52 cards, top first, as ``random.Random(seed).shuffle`` leaves them (shuffled by
    the compiled core, the same for every int seed)."""
    deck = list(CARDS)
    _shuffle(seed, deck)
    return deck
