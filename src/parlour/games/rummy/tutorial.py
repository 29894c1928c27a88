"""Rummy's first-game tutorial (:data:`LESSON`): one deal against one computer player, and the
coach that explains drawing, melding, laying off, discarding and going out as they arise.

Every note is a fact of the seat's own view (:class:`RummyObservation`) and its legal moves.

>>> import parlour
>>> state = parlour.new_game("rummy").new_deal(hands=["5H 6H 7H KS", "2C 3D 4S"],
...                                            stock="9C ...", discard="9D")
>>> [note.key for note in coach(state.observation(0), state.legal_actions())]
['draw']
>>> state.apply("draw stock")
>>> [note.key for note in coach(state.observation(0), state.legal_actions())]
['meld', 'discard']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from parlour.game import Action, Observation
from parlour.games.rummy.actions import DISCARD, LAYOFF, MELD, RummyAction
from parlour.games.rummy.melds import rummy_mask
from parlour.registry import Lesson, Note

if TYPE_CHECKING:
    from parlour.games.rummy.observation import RummyObservation

#: What the cards are worth, put down or left in hand.
_POINTS = "an ace 20 points, a 10, J, Q or K 10, a 2 to 9 5"


def coach(observation: Observation, legal: Sequence[Action]) -> list[Note]:
    """The notes that apply to this position of a rummy deal, for the seat that sees it
    (``legal``: its legal moves, none unless it is to move)."""
    obs: RummyObservation = observation  # type: ignore[assignment]
    name = obs.game.seat_name
    moves = [RummyAction(a) for a in legal]
    kinds = {m.kind for m in moves}
    notes: list[Note] = []
    if obs.is_over:
        went = (f"{name(obs.went_out)} went out, so the deal is over." if obs.went_out >= 0
                else "Nobody could go out, so the deal ended blocked.")
        notes.append(Note("scoring", "Scoring", (
            f"{went} Every card put down on the table scores for whoever put it down, and "
            f"every card left in a hand counts against its holder: {_POINTS}. The highest "
            "score wins.")))
        return notes
    if moves and obs.phase == "draw":
        top = f"the top discard, the {obs.discard[-1].symbol()}" if obs.discard else ""
        notes.append(Note("draw", "Drawing", (
            "Your turn begins with a draw: the top card of the stock, which only you see"
            + (f", or {top}, which everyone sees you take." if top else ".")
            + " Take the discard when it goes with cards you hold.")))
    others = [s for s, placed in enumerate(obs.placed) if placed and s != obs.seat]
    if others:
        notes.append(Note("their-meld", "Melds on the table", (
            f"{name(others[0])} has put cards down: they score for {name(others[0])}. "
            "Anyone may lay off cards on any meld on the table, you too.")))
    if MELD in kinds:
        notes.append(Note("meld", "Melding", (
            "You can meld: put down three or four cards of one rank (a set), or three or more "
            "in a row of one suit, ace low (a run). Cards you put down score for you: "
            f"{_POINTS}.")))
    if LAYOFF in kinds:
        notes.append(Note("layoff", "Laying off", (
            "You can lay off: add cards from your hand to a meld on the table, anyone's, "
            "making a run longer or a set of three into four. They score for you too.")))
    hand = rummy_mask(obs.hand)
    if any(m.kind in (MELD, LAYOFF, DISCARD) and m.cards == hand for m in moves):
        notes.append(Note("go-out", "Going out", (
            "You can go out: play the last of your cards and the deal ends at once. The cards "
            "the others still hold then count against them.")))
    if DISCARD in kinds:
        notes.append(Note("discard", "Discarding", (
            "End your turn by discarding a card face up on the discard pile. Keep the cards "
            "that go with others; a lone high card counts against you if someone goes out.")))
    return notes


#: The deal: you meld at your first turn, lay off and go out, winning, following the
#: hints.
SEED = 7

LESSON = Lesson(
    title="Rummy",
    intro=("Put cards down on the table in melds: sets of one rank and runs in one suit. "
           "Cards you put down score for you; the cards left in your hand when someone goes "
           "out count against you."),
    variants={"rummy": {}},
    seed=SEED,
    coach=coach,
)
