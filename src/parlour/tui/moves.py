"""The key that performs each verb at the terminal table (the verbs are :mod:`parlour.moves`)."""

from __future__ import annotations

#: The key of each known verb: mnemonic where the letter is free. A verb a future variant adds
#: gets the first free letter of its name (:func:`verb_key`).
VERB_KEYS = {
    "play": "p", "pass": "a", "rob": "r", "keep": "k", "silent": "i", "jink": "j",
    "stop": "t", "draw stock": "s", "draw discard": "d", "meld": "m", "layoff": "l",
    "discard": "x",
}
#: Keys the table uses for other things, never given to a verb.
RESERVED_KEYS = frozenset("hqcnu?")


def verb_key(verb: str) -> str:
    """The key that performs ``verb``.

    >>> verb_key("pass"), verb_key("layoff")
    ('a', 'l')
    """
    if verb in VERB_KEYS:
        return VERB_KEYS[verb]
    taken = RESERVED_KEYS | set(VERB_KEYS.values())
    return next((ch for ch in verb if ch.isalpha() and ch not in taken), "")
