"""The climbing games' first-game tutorial (:data:`LESSON`): one deal of Big Two, and the coach
that explains the opening card, beating a play or passing, control and going out as they arise.

Every note is a fact of the seat's own view (:class:`ClimbingObservation`) and its legal moves,
worded from the variant's rules, so the same coach serves every climbing variant.

>>> import parlour
>>> state = parlour.new_game("big-two").new_deal(seed=1)
>>> seat = state.current_player
>>> [note.key for note in coach(state.observation(seat), state.legal_actions())]
['opening', 'order']
>>> [note.key for note in coach(state.observation((seat + 1) % 4), [])]
['opening']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from parlour.cards import SUIT_SYMBOLS, SUIT_TEXT, Card
from parlour.game import Action, Observation
from parlour.games.climbing.combos import PASS_VALUE, ClimbingAction
from parlour.games.climbing.rules import Category
from parlour.registry import Lesson, Note

if TYPE_CHECKING:
    from parlour.games.climbing.observation import ClimbingObservation

#: The five-card hands as a player says them, in the plural.
_FIVES = {Category.STRAIGHT: "straight", Category.FLUSH: "flush",
          Category.FULL_HOUSE: "full house", Category.FOUR_PLUS_ONE: "four of a kind (with any "
          "fifth card)", Category.STRAIGHT_FLUSH: "straight flush"}


def coach(observation: Observation, legal: Sequence[Action]) -> list[Note]:
    """The notes that apply to this position of a climbing deal, for the seat that sees it
    (``legal``: its legal moves, none unless it is to move)."""
    obs: ClimbingObservation = observation  # type: ignore[assignment]
    rules = obs.game.rules
    name = obs.game.seat_name
    move = obs.game.table.action_type
    moves: list[ClimbingAction] = [move(a) for a in legal]
    plays = [m for m in moves if m != PASS_VALUE]
    mine = bool(moves)
    notes: list[Note] = []
    if obs.is_over:
        notes.append(_scoring(obs))
        return notes
    lowest = Card.parse(rules.lowest_card_text).symbol()
    if obs.opening:
        opener = "You hold" if mine else f"{name(obs.current_player)} holds"
        notes.append(Note("opening", "The opening card", (
            f"{opener} the {lowest}, the lowest card, so {'you open' if mine else 'they open'} "
            f"the deal: {rules.opening_text.replace(rules.lowest_card_text, lowest)}.")))
    if mine:
        notes.append(_order(obs))
    passed = bool(obs.history) and obs.history[-1][1] == PASS_VALUE
    if obs.table is None and passed:
        leader = obs.current_player
        notes.append(Note("control", "Control", (
            "Everyone else passed on your play, so you have control: the table is cleared "
            "and you lead anything you like." if leader == obs.seat else
            f"Everyone else passed on {name(leader)}'s play, so {name(leader)} has control: "
            "the table is cleared and they lead anything they like.")))
    if mine and obs.table is None and not obs.opening:
        notes.append(Note("lead", "Leading", (
            f"You lead: play any combination — {_kinds(obs)}. The others must beat it with "
            "as many cards, or pass.")))
    if mine and obs.table is not None:
        table = obs.table.words()
        if plays:
            # Five-card hands beat each other across kinds (a flush beats any straight).
            kind = "five-card hand" if obs.table.size == 5 else str(obs.table.category)
            notes.append(Note("beat", "Beat it or pass", (
                f"To beat {table} you need a higher {kind} — the same number of cards, "
                "ranked higher — or you may pass. A pass covers this turn only: you may play "
                "again when your turn comes round.")))
        else:
            notes.append(Note("cannot-beat", "Nothing beats it", (
                f"Nothing in your hand beats {table}, so you pass. You may play again when "
                "your turn comes round.")))
    if (obs.table is not None and obs.table.size == 5) or any(m.size == 5 for m in plays):
        fives = " < ".join(_FIVES.get(c, str(c)) for c in rules.five_card)
        notes.append(Note("five-card", "Five-card hands", (
            f"Five-card hands rank by kind first: {fives}. Within a kind, the hand with the "
            "higher deciding card wins.")))
    short = [s for s, n in enumerate(obs.hand_sizes) if n == 1 and s != obs.seat
             and s not in obs.finished]
    if short:
        who = name(short[0])
        notes.append(Note("last-card", "One card left", (
            f"{who} has one card left: they go out if they can beat a single card. Pairs "
            "and bigger plays they cannot follow, and a high single keeps them waiting.")))
    return notes


def _order(obs: ClimbingObservation) -> Note:
    suits = " < ".join(SUIT_SYMBOLS[SUIT_TEXT.index(s)] for s in obs.game.rules.suit_order)
    return Note("order", "The order of the cards", (
        "Cards rank 3 (lowest), 4, 5 … 10, J, Q, K, A, and 2 (highest). Between two cards "
        f"of one rank the suit decides: {suits}."))


def _kinds(obs: ClimbingObservation) -> str:
    """The combinations a player may lead, in words."""
    rules = obs.game.rules
    kinds = ["a single card", "a pair"]
    if rules.triples:
        kinds.append("three of a kind")
    if rules.four_card_hands:
        kinds.append("two pairs or four of a kind")
    kinds.append("a five-card hand")
    return ", ".join(kinds[:-1]) + f" or {kinds[-1]}"


def _scoring(obs: ClimbingObservation) -> Note:
    rules = obs.game.rules
    first = obs.game.seat_name(obs.finished[0]) if obs.finished else "someone"
    if rules.scoring == "placement":
        text = (f"{first} went out first. Play went on for places: first place scores 3, "
                "second 2, third 1 and last 0.")
    elif rules.scoring == "penalty":
        text = (f"{first} went out first and wins the deal. Everyone else takes penalty "
                "points for the cards they still hold: 1 a card, 2 a card with 10 or more, "
                "3 a card with all 13. Over a match, the lowest total wins.")
    else:
        text = (f"{first} went out first and wins the deal, taking a point for every card "
                "the others still hold; each of them loses as many as they hold.")
    return Note("scoring", "Going out", text)


#: The deal: you hold the 3♦ and open, meet each kind of decision (beat, pass, lead, a
#: five-card hand) and go out first, following the hints.
SEED = 62

LESSON = Lesson(
    title="Climbing games",
    intro=("Be the first to play all your cards. Whoever leads plays a combination; each "
           "player in turn beats it with a higher one of the same size, or passes. When "
           "everyone else has passed, the last to play leads again."),
    variants={"big-two": {"match_end": "deals", "deals": 1},
              "big-two-4card": {"deals": 1},
              "pusoy-dos": {"deals": 1}},
    seed=SEED,
    coach=coach,
)
