"""The moves of Spoil Five and Forty-Five, interned, and their notation.

Encoding: ``0..51`` plays that card; ``ROB_BASE + c`` robs, discarding card ``c``; then
``keep``, ``silent`` (the holder of the ace of trumps neither robs nor announces, or a seat
without it passes its robbing turn), ``jink``, ``stop`` and ``rob`` without a card, the form
other seats see of somebody's rob (the discard stays hidden).

>>> str(ROB[parse_card("4d")]), str(PLAY[parse_card("th")]), str(KEEP)
('rob 4D', '10H', 'keep')
>>> parse_action(" Rob  4♦ ") is ROB[parse_card("4D")]
True
"""

from __future__ import annotations

from parlour.cards import CARDS, parse_card
from parlour.errors import CardError, IllegalAction
from parlour.game import Action, action_text

ROB_BASE = 64
KEEP_CODE = 128
SILENT_CODE = 129
JINK_CODE = 130
STOP_CODE = 131
HIDDEN_ROB_CODE = 132


class TrumpAction(Action):
    """A Spoil Five / Forty-Five move; get them from the state, never build them by hand.

    Every move is made once and shared: calling the type with a move's value returns that
    shared object, and a value that is no move is refused.

    >>> PLAY[0], ROB[0], int(SILENT), TrumpAction(129) is SILENT
    (TrumpAction('2C'), TrumpAction('rob 2C'), 129, True)
    >>> TrumpAction(200)
    Traceback (most recent call last):
    ...
    parlour.errors.IllegalAction: 200 is not a move of forty-five or spoil-five: take actions from state.legal_actions() or state.parse_action(text)
    """

    __slots__ = ()

    def __new__(cls, value: object) -> TrumpAction:
        move = None
        # Only a plain int or a move itself: another game's action is not converted by value.
        if isinstance(value, int) and value.__class__ in (int, TrumpAction):
            move = MOVES.get(value)
        if move is None:
            raise IllegalAction(f"{value!r} is not a move of forty-five or spoil-five: take "
                                "actions from state.legal_actions() or state.parse_action(text)")
        return move

    def __str__(self) -> str:
        v = int(self)
        # A value made by hand that the game never uses still prints (in an error message).
        return _TEXT.get(v) or f"<no action {v}>"

    def words(self) -> str:
        """The move as a player says it.

        >>> PLAY[parse_card("5s")].words(), ROB[parse_card("4d")].words(), STOP.words()
        ('the 5♠', 'rob the trump, discarding the 4♦', 'stop and take the pool')
        """
        v = int(self)
        if v < 52:
            return f"the {CARDS[v].symbol()}"
        if ROB_BASE <= v < ROB_BASE + 52:
            return f"rob the trump, discarding the {CARDS[v - ROB_BASE].symbol()}"
        return _SAID.get(v, str(self))

    @property
    def card(self) -> int:
        """The card played or discarded, or -1."""
        v = int(self)
        if v < 52:
            return v
        if ROB_BASE <= v < ROB_BASE + 52:
            return v - ROB_BASE
        return -1


_TEXT: dict[int, str] = {}
#: Every move by its value.
MOVES: dict[int, TrumpAction] = {}


def _make(code: int, text: str) -> TrumpAction:
    _TEXT[code] = text
    move = MOVES[code] = int.__new__(TrumpAction, code)
    return move


PLAY: tuple[TrumpAction, ...] = tuple(_make(i, str(CARDS[i])) for i in range(52))
ROB: tuple[TrumpAction, ...] = tuple(
    _make(ROB_BASE + i, f"rob {CARDS[i]}") for i in range(52)
)
KEEP = _make(KEEP_CODE, "keep")
SILENT = _make(SILENT_CODE, "silent")
JINK = _make(JINK_CODE, "jink")
STOP = _make(STOP_CODE, "stop")
HIDDEN_ROB = _make(HIDDEN_ROB_CODE, "rob")

_WORDS = {"keep": KEEP, "silent": SILENT, "jink": JINK, "stop": STOP, "rob": HIDDEN_ROB}
#: The moves without a card, as a player says them (:meth:`TrumpAction.words`).
_SAID = {KEEP_CODE: "keep the hand", SILENT_CODE: "stay silent",
         JINK_CODE: "jink: play on for all five tricks", STOP_CODE: "stop and take the pool",
         HIDDEN_ROB_CODE: "rob the trump"}

EXPECTED = (
    "expected a card to play (e.g. 5S), 'rob' and the card to discard (e.g. rob 4D), 'keep', "
    "'silent', 'jink' or 'stop'"
)


def parse_action(text: str) -> TrumpAction:
    """The action written ``text`` (any case, extra spaces, T for ten, suit symbols)."""
    words = action_text(text).lower().split()
    if not words:
        raise IllegalAction(f"empty action: {EXPECTED}")
    if len(words) == 1:
        word = _WORDS.get(words[0])
        if word is not None:
            return word
        try:
            return PLAY[parse_card(words[0])]
        except CardError:
            pass
    elif len(words) == 2 and words[0] == "rob":
        try:
            return ROB[parse_card(words[1])]
        except CardError as e:
            raise IllegalAction(f"{e}; rob names the card to discard, e.g. rob 4D") from None
    raise IllegalAction(f"'{text.strip()}' is not an action: {EXPECTED}")
