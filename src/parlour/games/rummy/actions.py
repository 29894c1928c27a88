"""Rummy moves, interned, and their notation.

Encoding: bits 0-2 the kind (draw stock, draw discard, meld, lay-off, discard), bits 3-54 the
cards as a rummy-layout mask, bits 55 and up the 0-based table meld of a lay-off. Every distinct
action is made once and kept by that int in the compiled table :data:`INTERNED`, which the
engine hands its legal actions from, so a step allocates no move object. Text names the shared
object of a move that has been met (listed, made, or asked for by value); text naming a move
never met is a new object, equal to it, so that a refused meld of any cards adds nothing to the
table, which lasts as long as the process.

>>> str(parse_action(" MELD 6c 4♣ 5C")), str(parse_action("lay off qd kd on 1"))
('meld 4C 5C 6C', 'layoff QD KD on 1')
>>> parse_action("discard th") is action(DISCARD, 1 << 35)
True
"""

from __future__ import annotations

from parlour._core import RummyActions
from parlour.cards import RANK_PLURALS, RANK_TEXT, SUIT_NAMES, parse_card
from parlour.errors import IllegalAction
from parlour.game import Action, action_text
from parlour.games.rummy.melds import FULL, TO_RUMMY, card_set, is_group, text_of

DRAW_STOCK, DRAW_DISCARD, MELD, LAYOFF, DISCARD = range(5)
KIND_BITS = 3
TARGET_SHIFT = 55


class RummyAction(Action):
    """A rummy move; get them from the state or :func:`parse_action`. ``RummyAction(value)``
    returns the shared move of that packed value, and refuses a value no move has.

    >>> a = parse_action("layoff 7C 8C on 2")
    >>> a.kind == LAYOFF, a.target, a.cards == parse_action("meld 7c 8c").cards
    (True, 1, True)
    >>> shared = RummyAction(int(a))
    >>> shared == a, RummyAction(int(a)) is shared
    (True, True)
    >>> RummyAction(5)
    Traceback (most recent call last):
    ...
    parlour.errors.IllegalAction: 5 is not a rummy move: take actions from state.legal_actions() or state.parse_action(text)
    """

    __slots__ = ()

    def __new__(cls, value: object) -> RummyAction:
        # Only a plain int or a move itself: another game's action is not converted by value.
        if value.__class__ in (int, RummyAction) and is_move(value):  # type: ignore[arg-type]
            return action_by_key(int(value))  # type: ignore[call-overload]
        raise IllegalAction(f"{value!r} is not a rummy move: take actions from "
                            "state.legal_actions() or state.parse_action(text)")

    @property
    def kind(self) -> int:
        return int(self) & 7

    @property
    def cards(self) -> int:
        """The cards moved, as a rummy-layout mask (0 for a draw)."""
        return int(self) >> KIND_BITS & FULL

    @property
    def target(self) -> int:
        """The 0-based table meld of a lay-off."""
        return int(self) >> TARGET_SHIFT

    def words(self) -> str:
        """The move as a player says it.

        >>> [parse_action(t).words() for t in ("draw discard", "meld 7c 7d 7s", "meld 4c 5c 6c")]
        ['take the top discard', 'meld three 7s', 'meld a run of clubs, 4 to 6']
        >>> parse_action("layoff 7C 8C on 2").words(), parse_action("discard kh").words()
        ('lay off the 7♣ 8♣ on meld 2', 'discard the K♥')
        """
        kind = self.kind
        if kind in _SAID:
            return _SAID[kind]
        cards = list(card_set(self.cards))
        symbols = " ".join(card.symbol() for card in cards)
        if kind == DISCARD:
            return f"discard the {symbols}"
        if kind == LAYOFF:
            return f"lay off the {symbols} on meld {self.target + 1}"
        if is_group(self.cards):
            return f"meld {'three' if len(cards) == 3 else 'four'} {RANK_PLURALS[cards[0].rank]}"
        ranks = [RANK_TEXT[card.rank] for card in cards]
        return f"meld a run of {SUIT_NAMES[cards[0].suit]}, {ranks[0]} to {ranks[-1]}"

    def __str__(self) -> str:
        v = int(self)
        kind = v & 7
        if kind == DRAW_STOCK:
            return "draw stock"
        if kind == DRAW_DISCARD:
            return "draw discard"
        cards = text_of(v >> KIND_BITS & FULL)
        if kind == MELD:
            return f"meld {cards}"
        if kind == LAYOFF:
            return f"layoff {cards} on {(v >> TARGET_SHIFT) + 1}"
        return f"discard {cards}"


#: The draws, as a player says them (:meth:`RummyAction.words`).
_SAID = {DRAW_STOCK: "draw from the stock", DRAW_DISCARD: "take the top discard"}

#: Every move's one object, by packed value: made through :class:`RummyAction` the first time a
#: move is met, here or by the engine (``RummyCore``), and shared from then on.
INTERNED = RummyActions(RummyAction)
_U64 = 1 << 64
# The moves past 64 bits (lay-offs on a meld number no table reaches), which the compiled table
# does not take.
_FAR: dict[int, RummyAction] = {}


def action(kind: int, cards: int = 0, target: int = 0) -> RummyAction:
    """The one action of this kind, cards (rummy-layout mask) and 0-based lay-off target."""
    return action_by_key(_pack(kind, cards, target))


def action_by_key(key: int) -> RummyAction:
    """The one action of a packed value (which the caller knows to be a move)."""
    if key < _U64:
        return INTERNED.get(key)  # type: ignore[no-any-return]
    a = _FAR.get(key)
    if a is None:
        a = _FAR[key] = int.__new__(RummyAction, key)
    return a


def _pack(kind: int, cards: int, target: int) -> int:
    """The packed value of a move (the module docstring's encoding)."""
    return kind | cards << KIND_BITS | target << TARGET_SHIFT


def _written(kind: int, cards: int = 0, target: int = 0) -> RummyAction:
    """The action text names: the shared one if the move has been met, else a new object equal
    to it (the module docstring says why)."""
    key = _pack(kind, cards, target)
    known = INTERNED.known(key) if key < _U64 else _FAR.get(key)
    return known if known is not None else int.__new__(RummyAction, key)


def is_move(value: int) -> bool:
    """Whether ``value`` packs a move as :func:`parse_action` could make it: a draw, a meld of
    some cards, a lay-off of some cards on a meld, or a discard of one card (legal or not)."""
    if value < 0:
        return False
    kind = value & 7
    cards = value >> KIND_BITS
    if kind in (DRAW_STOCK, DRAW_DISCARD):
        return value == kind
    if kind == MELD:
        return 0 < cards <= FULL
    if kind == LAYOFF:
        return cards & FULL != 0
    return kind == DISCARD and cards <= FULL and cards.bit_count() == 1


DRAW_STOCK_ACTION = action(DRAW_STOCK)
DRAW_DISCARD_ACTION = action(DRAW_DISCARD)
#: ``discard`` of each rummy-layout card.
DISCARD_ACTIONS: tuple[RummyAction, ...] = tuple(action(DISCARD, 1 << i) for i in range(52))

EXPECTED = (
    "expected 'draw stock', 'draw discard', 'meld' and its cards (meld 4C 5C 6C), "
    "'layoff' and its cards 'on' a meld number (layoff 7C 8C on 2), or 'discard' and one card "
    "(discard KH)"
)


def _cards(words: list[str]) -> int:
    if not words:
        raise IllegalAction(f"no cards given: {EXPECTED}")
    m = 0
    for w in words:
        bit = 1 << TO_RUMMY[int(parse_card(w))]  # a bad card is a CardError, an IllegalAction
        if m & bit:
            raise IllegalAction(f"{w.upper()} is named twice")
        m |= bit
    return m


def parse_action(text: str) -> RummyAction:
    """The action written ``text`` (any case, extra spaces, T for ten, suit symbols, any order)."""
    words = action_text(text).split()
    if not words:
        raise IllegalAction(f"empty action: {EXPECTED}")
    # Keywords in any case; the cards keep their text, so that an error names them as written.
    lower = [w.lower() for w in words]
    head, rest = lower[0], words[1:]
    if head == "lay" and lower[1:2] == ["off"]:
        head, rest = "layoff", words[2:]
    if head == "draw" and lower[1:] in (["stock"], ["discard"]):
        return DRAW_STOCK_ACTION if lower[1] == "stock" else DRAW_DISCARD_ACTION
    if head == "meld":
        return _written(MELD, _cards(rest))
    if head == "discard":
        if len(rest) != 1:
            raise IllegalAction(f"discard takes exactly one card: {EXPECTED}")
        return _written(DISCARD, _cards(rest))
    if head in ("layoff", "lay-off"):
        number = rest[-1] if rest else ""
        if len(rest) < 3 or rest[-2].lower() != "on" or not (number.isascii() and number.isdigit()):
            raise IllegalAction(f"a lay-off ends with 'on' and a meld number: {EXPECTED}")
        if int(number) < 1:
            raise IllegalAction("melds are numbered from 1")
        return _written(LAYOFF, _cards(rest[:-2]), int(number) - 1)
    raise IllegalAction(f"'{text.strip()}' is not a rummy action: {EXPECTED}")
