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
    """An unknown variant, option or player count, or a bad option value."""


class RecordError(ParlourError):
    """A game record is malformed or does not replay to the result it claims."""
