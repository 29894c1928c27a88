"""The exceptions parlour raises. Every one is a ``ValueError`` so callers may catch broadly."""

from __future__ import annotations


class ParlourError(ValueError):
    """Base class of parlour's errors."""


class IllegalAction(ParlourError):
    """An action is not legal in the current state; the message names the rule broken.

    The state is left unchanged.
    """


class DealError(ParlourError):
    """A supplied deal (hands, deck or setup) is impossible; the message names the problem."""


class CardError(IllegalAction, DealError):
    """A card or list of cards could not be parsed; the message names the bad token.

    One type for a bad card wherever it appears. It is both an :class:`IllegalAction` (a bad card
    in an action's text) and a :class:`DealError` (a bad card in a deal), so code that catches
    either for its own kind of input also catches a bad card in it.
    """


class SeatError(ParlourError):
    """A seat number that is not one of the game's seats (``0..players-1``)."""


class VariantError(ParlourError):
    """An unknown variant, option or player count, or a bad option value.

    ``words`` says the same to a player, as the tables and the web page show it: an option by
    its label ("Number of deals"), never by its keyword, and its values in words. The message
    itself (``str(error)``) may name the keyword too, for whoever writes code. It is the message
    where the two are the same.

    >>> e = VariantError("big-two: Number of deals (deals) must be ...", "Number of deals must be ...")
    >>> str(e), e.words
    ('big-two: Number of deals (deals) must be ...', 'Number of deals must be ...')
    """

    def __init__(self, message: str, words: str | None = None) -> None:
        super().__init__(message)
        self.words = message if words is None else words


class RecordError(ParlourError):
    """A game record is malformed or does not replay to the result it claims."""
