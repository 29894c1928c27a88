"""The key that performs each verb at the terminal table (the verbs are :mod:`parlour.moves`),
what each does in words, and which verbs a game has."""

from __future__ import annotations

from parlour.game import State
from parlour.moves import parse_error

#: The key of each known verb: mnemonic where the letter is free. A verb a future variant adds
#: gets the first free letter of its name (:func:`verb_key`).
VERB_KEYS = {
    "play": "p", "pass": "a", "rob": "r", "keep": "k", "silent": "i", "jink": "j",
    "stop": "t", "draw stock": "w", "draw discard": "d", "meld": "m", "layoff": "l",
    "discard": "x",
}
#: Keys the table uses for other things, never given to a verb (``s`` sorts the hand).
RESERVED_KEYS = frozenset("hqcnus?")

#: What each verb does, for the help.
VERB_HELP = {
    "play": "play the selected cards",
    "pass": "pass",
    "rob": "rob the turn-up, discarding the selected card",
    "keep": "keep your hand: do not rob",
    "silent": "say nothing of the ace of trumps you hold",
    "jink": "jink: play on for all five tricks",
    "stop": "stop: take the pool",
    "draw stock": "draw from the stock",
    "draw discard": "take the top card of the discard pile",
    "meld": "meld the selected cards",
    "layoff": "lay the selected cards off on a meld",
    "discard": "discard the selected card",
}


def verb_key(verb: str) -> str:
    """The key that performs ``verb``.

    >>> verb_key("pass"), verb_key("layoff")
    ('a', 'l')
    """
    if verb in VERB_KEYS:
        return VERB_KEYS[verb]
    taken = RESERVED_KEYS | set(VERB_KEYS.values())
    return next((ch for ch in verb if ch.isalpha() and ch not in taken), "")


def game_verbs(state: State) -> list[str]:
    """The verbs of :data:`VERB_KEYS` that ``state``'s game has, legal now or not: those its own
    notation writes (alone, with a card, or with a card and a meld), so that the help and the
    keys are the game's and never another family's.

    >>> import parlour
    >>> game_verbs(parlour.new_game("big-two").new_deal(seed=1))
    ['play', 'pass']
    >>> game_verbs(parlour.new_game("rummy").new_deal(seed=1))
    ['draw stock', 'draw discard', 'meld', 'layoff', 'discard']
    """
    return [verb for verb in VERB_KEYS
            if any(parse_error(state, f"{'' if verb == 'play' else verb} {form}".strip()) is None
                   for form in ("", "2C", "2C on 1"))]
