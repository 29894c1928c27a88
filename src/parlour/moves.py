"""From selected cards and a verb to a legal action, generically over every variant.

Every action prints in the rules' notation. Its words that are not cards are its *verb*
(``pass``, ``rob``, ``draw stock``, ``meld``, ``layoff``, ``discard`` …; bare cards are
``play``), its cards are what the player selects, and ``on N`` names a lay-off's meld. The tables
(terminal and web) offer only the verbs of the legal actions and pick the action whose verb
and cards match.

>>> import parlour
>>> state = parlour.new_game("rummy").new_deal(seed=1)
>>> offered_verbs(state.legal_actions())
['draw stock', 'draw discard']
>>> parse_move(state.legal_actions()[0]).verb
'draw stock'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from parlour.cards import Card, parse_card
from parlour.errors import CardError, IllegalAction, ParlourError
from parlour.game import Action, State

#: How the verbs are labelled on buttons.
VERB_LABELS = {"layoff": "lay off", "draw stock": "draw stock", "draw discard": "draw discard"}


@dataclass(frozen=True)
class Move:
    """One legal action taken apart: its verb, its cards and a lay-off's meld (``"2"``)."""

    action: Action
    verb: str
    cards: frozenset[Card]
    target: str | None = None

    @property
    def text(self) -> str:
        return str(self.action)


def parse_move(action: Action) -> Move:
    """``action`` as verb, cards and target.

    >>> import parlour
    >>> state = parlour.new_game("big-two").new_deal(seed=1)
    >>> move = parse_move(state.legal_actions()[0])
    >>> move.verb, [str(c) for c in move.cards]
    ('play', ['3D'])
    """
    words: list[str] = []
    cards: list[Card] = []
    target = None
    tokens = str(action).split()
    i = 0
    while i < len(tokens):
        token = tokens[i]
        if token == "on" and i + 1 < len(tokens):
            target = tokens[i + 1]
            i += 2
            continue
        try:
            cards.append(parse_card(token))
        except CardError:
            words.append(token)
        i += 1
    return Move(action, " ".join(words) or "play", frozenset(cards), target)


def offered_verbs(legal: Iterable[Action]) -> list[str]:
    """The verbs of the legal actions, each once, in the order they first appear."""
    seen: dict[str, None] = {}
    for action in legal:
        seen.setdefault(parse_move(action).verb, None)
    return list(seen)


def verb_label(verb: str) -> str:
    return VERB_LABELS.get(verb, verb)


class Choice(ParlourError):
    """Several legal actions match (a lay-off that fits more than one meld): ask which."""

    def __init__(self, moves: Sequence[Move]) -> None:
        super().__init__("choose one of: " + " | ".join(m.text for m in moves))
        self.moves = list(moves)


def pick(state: State, verb: str, selected: Iterable[Card]) -> Action:
    """The legal action for ``verb`` with the ``selected`` cards.

    Verbs without cards (``pass``, ``keep``, ``draw stock`` …) ignore the selection. Raises
    :class:`Choice` when several actions fit, and :class:`~parlour.errors.IllegalAction` with
    the engine's reason when none does; the state is never changed.

    >>> import parlour
    >>> state = parlour.new_game("big-two").new_deal(seed=1)
    >>> str(pick(state, "play", [parse_card("3D")]))
    '3D'
    >>> pick(state, "pass", [])
    Traceback (most recent call last):
    ...
    parlour.errors.IllegalAction: the holder of 3D must open; passing is not allowed
    >>> pick(state, "play", [parse_card("3D")] * 2)
    Traceback (most recent call last):
    ...
    parlour.errors.IllegalAction: 3D is named twice
    """
    cards = list(selected)
    chosen = frozenset(cards)
    if len(chosen) < len(cards):
        # A set would quietly drop the repeats; the text form refuses them, and so does this.
        twice = next(c for c in cards if cards.count(c) > 1)
        raise IllegalAction(f"{twice} is named twice")
    moves = [m for m in map(parse_move, state.legal_actions()) if m.verb == verb]
    if moves and all(not m.cards for m in moves):
        if len(moves) == 1:
            return moves[0].action
        raise Choice(moves)
    fitting = [m for m in moves if m.cards == chosen]
    if len(fitting) == 1:
        return fitting[0].action
    if fitting:
        raise Choice(fitting)
    if moves and not chosen:
        raise IllegalAction(f"select the card(s) to {verb_label(verb)} first")
    return _refusal(state, verb, chosen)


def _refusal(state: State, verb: str, chosen: frozenset[Card]) -> Action:
    """Raise the engine's reason for refusing ``verb`` with ``chosen``, on a copy of the state."""
    order = {c: i for i, c in enumerate(state.observation(state.current_player).hand)}
    cards = " ".join(str(c) for c in sorted(chosen, key=lambda c: order.get(c, int(c))))
    text = cards if verb == "play" else f"{verb} {cards}".strip()
    trial = state.clone()
    try:
        trial.apply(text)
    except ParlourError as e:
        raise IllegalAction(str(e)) from None
    # The engine took it on the copy, yet it matched no legal action: refuse it all the same.
    raise IllegalAction(f"{text} is not one of your legal moves")
