"""The key that performs each verb at the terminal table and what it does in words (each
family's record, :class:`~parlour.registry.Family`), and which verbs a game has."""

from __future__ import annotations

from parlour.game import State
from parlour.moves import parse_error
from parlour.registry import TABLE_KEYS, family_of, verbs


def verb_key(verb: str) -> str:
    """The key that performs ``verb``: its family's, or the first free letter of its name.

    >>> verb_key("pass"), verb_key("layoff"), verb_key("wave")
    ('a', 'l', 'v')
    """
    known = verbs()
    if verb in known:
        return known[verb].key
    taken = TABLE_KEYS | {v.key for v in known.values()}
    return next((ch for ch in verb if ch.isalpha() and ch not in taken), "")


def verb_help(verb: str) -> str:
    """What ``verb`` does, in words."""
    found = verbs().get(verb)
    return found.help if found is not None else verb


def game_verbs(state: State) -> list[str]:
    """The verbs of ``state``'s family that its game has, legal now or not: those its own
    notation writes (alone, with a card, or with a card and a meld: an option can take a verb
    away), so that the help and the keys are the game's and never another family's.

    >>> import parlour
    >>> game_verbs(parlour.new_game("big-two").new_deal(seed=1))
    ['play', 'pass']
    >>> game_verbs(parlour.new_game("rummy").new_deal(seed=1))
    ['draw stock', 'draw discard', 'meld', 'layoff', 'discard']
    """
    names = [verb.name for verb in family_of(state.game.variant).verbs]
    return [verb for verb in names
            if any(parse_error(state, f"{'' if verb == 'play' else verb} {form}".strip()) is None
                   for form in ("", "2C", "2C on 1"))]
