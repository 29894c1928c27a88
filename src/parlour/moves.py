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
from parlour.registry import verbs


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
    """How a sentence names ``verb``: its family's label in lower case (each family's record,
    :class:`~parlour.registry.Family`), else the verb itself.

    >>> verb_label("layoff"), verb_label("draw discard"), verb_label("wave")
    ('lay off', 'take the discard', 'wave')
    """
    found = verbs().get(verb)
    return verb if found is None else found.label.lower()


class Choice(ParlourError):
    """Several legal actions match (a lay-off that fits more than one meld): ask which."""

    def __init__(self, moves: Sequence[Move]) -> None:
        super().__init__("choose one of: " + " | ".join(m.text for m in moves))
        self.moves = list(moves)


def pick(state: State, verb: str, selected: Iterable[Card]) -> Action:
    """The legal action for ``verb`` with the ``selected`` cards.

    Verbs without cards (``pass``, ``keep``, ``draw stock`` …) ignore the selection. Raises
    :class:`Choice` when several actions fit, and :class:`~parlour.errors.IllegalAction` naming
    the rule when none does (:func:`refusal`); the state is never changed.

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
    legal = [parse_move(a) for a in state.legal_actions()]
    moves = [m for m in legal if m.verb == verb]
    if moves and all(not m.cards for m in moves):
        if len(moves) == 1:
            return moves[0].action
        raise Choice(moves)
    fitting = [m for m in moves if m.cards == chosen]
    if len(fitting) == 1:
        return fitting[0].action
    if fitting:
        raise Choice(fitting)
    raise refusal(state, verb, chosen, legal)


#: What the selected cards are for, where that is not the verb itself: a player who robs takes
#: the turn-up and discards the card selected.
CARDS_FOR = {"rob": "discard"}


def refusal(state: State, verb: str, chosen: frozenset[Card],
            legal: Sequence[Move]) -> IllegalAction:
    """Why no legal action is ``verb`` with the ``chosen`` cards, in the words of the rules.

    A selection the verb's actions can be written with gets the engine's reason (tried on a
    copy of the state). One that cannot be written (two cards to discard, a lay-off without
    a meld, a verb not of this moment) is the player's choice, not a typing mistake, so it is
    answered from the legal actions (``legal``, taken apart) rather than with the parser's
    "expected …", which is left only for its own rules.

    >>> import parlour
    >>> state = parlour.new_game("rummy").new_deal(seed=1)
    >>> legal = [parse_move(a) for a in state.legal_actions()]
    >>> str(refusal(state, "layoff", frozenset([parse_card("AD")]), legal))
    'you cannot lay off now: you can draw from stock or take the discard'
    """
    hand = list(state.observation(state.current_player).hand)
    order = {c: i for i, c in enumerate(hand)}
    cards = " ".join(str(c) for c in sorted(chosen, key=lambda c: order.get(c, int(c))))
    text = cards if verb == "play" else f"{verb} {cards}".strip()
    moves = [m for m in legal if m.verb == verb]
    purpose = CARDS_FOR.get(verb, verb_label(verb))
    one_card = {len(m.cards) for m in moves} == {1}
    if moves and not chosen:
        return IllegalAction(f"select one card to {purpose}" if one_card
                             else f"select the cards to {purpose} first")
    unwritten = parse_error(state, text)
    if unwritten is None:
        trial = state.clone()
        try:
            trial.apply(text)
        except ParlourError as e:
            return IllegalAction(str(e))
        # The engine took it on the copy, yet it matched no legal action: refuse it all the same.
        return IllegalAction(f"{text} is not one of your legal moves")
    if not chosen <= set(hand):
        return IllegalAction(f"you do not hold {' '.join(map(str, sorted(chosen - set(hand))))}")
    # A lay-off names its meld ("on N"): when it is the time to put cards down, the cards fit
    # none of the melds on the table.
    takes_meld = any(m.target is not None for m in moves) or (
        parse_error(state, f"{text} on 1") is None and any(m.cards for m in legal))
    if one_card and len(chosen) != 1:
        return IllegalAction(f"select one card to {purpose}")
    if takes_meld:
        return IllegalAction(f"{cards} {'fits' if len(chosen) == 1 else 'fit'} no meld on the table")
    if not moves:
        verbs = " or ".join(verb_label(v) for v in offered_verbs(m.action for m in legal))
        return IllegalAction(f"you cannot {verb_label(verb)} now: you can {verbs}")
    # What is left is the parser's own rule (Big Two's "not a valid combination").
    return IllegalAction(unwritten)


def parse_error(state: State, text: str) -> str | None:
    """Why ``text`` is not an action of the game as written (legal or not); ``None`` if it is.

    >>> import parlour
    >>> state = parlour.new_game("big-two").new_deal(seed=1)
    >>> parse_error(state, "pass"), parse_error(state, "rob 4D") is None
    (None, False)
    """
    try:
        state.parse_action(text)
    except ParlourError as e:
        return str(e)
    return None
