"""The trump games' first-game tutorial (:data:`LESSON`): one deal of Forty-Five, and the coach
that explains trumps and their order, robbing the turn-up, following suit and taking tricks as
they arise.

Every note is a fact of the seat's own view (:class:`TrumpObservation`) and its legal moves:
another seat's discard, for one, is never named.

>>> import parlour
>>> game = parlour.new_game("forty-five")
>>> state = game.new_deal(hands=["5S 3S 7D 8C 9H", "KS 2D 3D 4D 5D", "6S 7S 8S 9S 10S",
...                              "AS 4C 6C 8H KC"], turn_up="2S", dealer=3)
>>> [note.key for note in coach(state.observation(3), state.legal_actions())]
['trumps', 'partners', 'rob']
>>> state.apply("rob 4C")
>>> [note.key for note in coach(state.observation(0), state.legal_actions())]
['trumps', 'partners', 'rob', 'lead', 'plain-order']
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from parlour.cards import CARDS, SUIT_NAMES, Card
from parlour.game import Action, Observation
from parlour.games.trump.actions import JINK, ROB_BASE, TrumpAction
from parlour.games.trump.ranking import ACE_OF_TRUMPS, TRUMP_BASE, trump_order
from parlour.registry import Lesson, Note

if TYPE_CHECKING:
    from parlour.games.trump.observation import TrumpObservation


def coach(observation: Observation, legal: Sequence[Action]) -> list[Note]:
    """The notes that apply to this position of a trump deal, for the seat that sees it
    (``legal``: its legal moves, none unless it is to move)."""
    obs: TrumpObservation = observation  # type: ignore[assignment]
    game = obs.game
    name = game.seat_name
    moves = [TrumpAction(a) for a in legal]
    mine = bool(moves)
    power = obs._power()
    trumps = SUIT_NAMES[obs.trump]
    turn_up = obs.turn_up.symbol()
    notes = [Note("trumps", "Trumps", (
        f"The card turned up after the deal, the {turn_up}, makes {trumps} trumps. A trump "
        f"beats every card of the other suits, and the A♥ is always a trump too."))]
    if game.partnership:
        sides = game.rules.sides
        partners = [name(s) for s in range(game.players) if s != obs.seat
                    and sides[s] == sides[obs.seat]]
        points = game.rules.points or ()
        with_whom = (f"You play with {' and '.join(partners)}, your partner, against the "
                     "others: the tricks either of you takes count for your side."
                     if partners else "You play against the other seat.")
        scored = (f" Three tricks score {points[3]}, four {points[4]} and all five "
                  f"{points[5]}." if len(points) > 5 else "")
        notes.append(Note("partners", "Partners", with_whom + scored))
    else:
        notes.append(Note("pool", "The pool", (
            "Everyone has put chips in the pool. Whoever takes three of the five tricks takes "
            "the pool; if nobody does, it is spoiled and carried over to the next deal.")))
    robbed = obs.robber >= 0
    if any(ROB_BASE <= int(m) < ROB_BASE + 52 for m in moves):
        turned_ace = int(obs.turn_up) == ACE_OF_TRUMPS[obs.trump]
        why = ("An ace was turned up and you dealt, so you may rob it" if turned_ace else
               "You hold the ace of trumps, so you may rob the turn-up")
        notes.append(Note("rob", "Robbing the trump", (
            f"{why}: take the {turn_up} into your hand and give up a card face down (select "
            "it, then rob), or keep your hand as it is, which tells everyone you hold the "
            "ace.")))
    elif robbed and obs.robber != obs.seat:
        notes.append(Note("rob", "Robbing the trump", (
            f"{name(obs.robber)} robbed the trump: holding the ace of trumps (or dealing a "
            f"turned-up ace), they took the {turn_up} and gave up a card face down.")))
    elif obs.announced >= 0 and obs.announced != obs.seat:
        notes.append(Note("rob", "Robbing the trump", (
            f"{name(obs.announced)} holds the ace of trumps and chose not to rob the "
            f"{turn_up}: keeping the hand tells everyone who holds the ace.")))
    cards = [c for _, c in _played(obs)]
    if any(power[c] >= TRUMP_BASE for c in cards):
        order = " ".join(c.symbol() for c in trump_order(obs.trump))
        notes.append(Note("trump-order", "The order of trumps", (
            "Trumps rank in an order of their own, highest first: "
            f"{order}. The 5 of trumps beats every card, then the jack of trumps, then the "
            "A♥, then the ace of trumps.")))
    if finished := obs.finished_tricks():
        winner = obs.trick_winners[0]
        card = next(c for s, c in finished[0] if s == winner)
        notes.append(Note("trick", "Taking a trick", (
            f"{name(winner)} took the first trick with the {card.symbol()}: the highest trump "
            "in a trick takes it or, with no trump, the highest card of the suit led. Whoever "
            "takes a trick leads the next.")))
    if mine and obs.phase == "play":
        if not obs.trick:
            notes.append(Note("lead", "Leading", (
                "You lead this trick: play any card. Each player after you must follow the "
                "suit you lead if they can, or play a trump.")))
        else:
            led = obs.trick[0]
            if power[led] >= TRUMP_BASE:
                notes.append(Note("trump-lead", "A trump was led", (
                    "A trump was led, so you must play a trump if you hold one. Only the top "
                    "three trumps, the 5 and jack of trumps and the A♥, may be held back from "
                    "a lower trump's lead.")))
            else:
                suit = SUIT_NAMES[int(led) & 3]
                holds = any(power[c] < TRUMP_BASE and int(c) & 3 == int(led) & 3
                            for c in obs.hand)
                if holds:
                    notes.append(Note("follow", "Following suit", (
                        f"{suit.capitalize()} were led and you hold some: you must follow "
                        "suit with one, or play a trump, which you may always do instead.")))
                else:
                    notes.append(Note("void", "No card of the suit", (
                        f"{suit.capitalize()} were led and you hold none, so you may play any "
                        "card: a trump to try to take the trick, or another card to throw "
                        "away.")))
        if any(power[c] < TRUMP_BASE for c in obs.hand):
            notes.append(Note("plain-order", "The order of plain suits", (
                "In the suits that are not trumps the K, Q and J are highest; below them red "
                "cards run from the 10 down to the 2 (the A♦ lowest) and black ones from the "
                "A and 2 up to the 10: high in red, low in black.")))
    if mine and JINK in moves:
        notes.append(Note("jink", "Jinking", (
            "You have taken three tricks: stop now and take the pool, or jink, playing on for "
            "all five tricks for an extra payment from everyone, and losing the pool if you "
            "miss one.")))
    if obs.is_over:
        notes.append(Note("scoring", "The deal is over", (
            "The side that took three tricks or more scored. A whole match goes on deal "
            "after deal until a side has 45 points." if game.partnership else
            "Whoever took three tricks took the pool; with nobody, it is spoiled and carried "
            "over. A whole match goes on deal after deal.")))
    return notes


def _played(obs: TrumpObservation) -> list[tuple[int, Card]]:
    """Every card played to a trick so far, with its seat."""
    return [(seat, CARDS[int(a)]) for seat, a in obs.history if int(a) < 52]


#: The deal: you hold the ace of trumps and rob, follow suit, lead and see trumps led,
#: and your side takes all five tricks, following the hints.
SEED = 29

LESSON = Lesson(
    title="Trump games",
    intro=("Win tricks. Each player plays a card in turn; the highest trump, or with no "
           "trump the highest card of the suit led, takes the trick. The card turned up "
           "after the deal decides which suit is trumps."),
    variants={"forty-five": {"target": 5}, "spoil-five": {"deals": 1}},
    seed=SEED,
    coach=coach,
)
