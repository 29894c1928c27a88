"""Each variant's rules in a few lines, for the tables' start and help screens (terminal and web).

The complete rules, with every ambiguity resolved, are in the project's rules document; these
summaries say what a player needs at the table.
"""

from __future__ import annotations

_CLIMBING = (
    "Shed all your cards first. The leader plays any allowed combination; each player in turn "
    "beats it with a higher combination of the same size, or passes. When everyone else has "
    "passed, the last player to play leads anything."
)

SUMMARIES = {
    "big-two-4card": _CLIMBING + "\n\nRanks 3 (low) … A, 2 (high); suits ♦ < ♣ < ♥ < ♠. The "
    "holder of 3♦ opens with it. Plays: singles, pairs, triples, two pairs and four of a kind "
    "(4 cards), and 5-card hands (straight < flush < full house < straight flush). The first "
    "player out wins the deal and takes the others' card counts.",
    "big-two": _CLIMBING + "\n\nRanks 3 (low) … A, 2 (high); suits ♦ < ♣ < ♥ < ♠. The first "
    "deal opens with a play including 3♦; later deals, the last winner leads anything. Plays: singles, pairs and 5-card hands (straight < "
    "flush < full house < four of a kind < straight flush). When someone goes out the others pay "
    "1 a card, 2 a card from 10 cards, 3 a card with all 13; the match ends at 50 and the "
    "lowest total wins.",
    "pusoy-dos": _CLIMBING + "\n\nRanks 3 (low) … A, 2 (high); suits ♣ < ♠ < ♥ < ♦. The first "
    "play must include 3♣. Plays: singles, pairs, triples and 5-card hands (straight < flush < "
    "full house < four of a kind with one more card < straight flush); straights include "
    "A-2-3-4-5 and 2-3-4-5-6. Play goes on after the "
    "first player goes out, for places: first place scores most.",
    "forty-five": "Two sides (even and odd seats) take tricks; the turned-up card's suit is "
    "trumps. The 5 of trumps is highest, then the jack of trumps, the A♥, the ace of trumps. "
    "Before the opening lead, a player holding the ace of trumps may rob the turn-up (take it "
    "and discard a card); when an ace is turned up, the dealer may rob. Follow suit or trump; the top trumps may be held back when a lower "
    "trump is led. Three or four tricks score 5, all five score 10; the first side to 45 wins.",
    "spoil-five": "Everyone antes to the pool; the turned-up card's suit is trumps (5 of trumps, "
    "jack of trumps, A♥, ace of trumps highest). The ace-of-trumps holder may rob the turn-up. "
    "Follow suit or trump. Whoever takes three tricks takes the pool; if nobody does, the pool is "
    "spoiled and carried over. Taking the first three tricks, you may jink: play on for all five "
    "for an extra payment, losing the pool if you fail.",
    "rummy": "Each turn: draw (from the stock, or the top discard), then meld sets (3–4 of a "
    "rank) or runs (3+ in a suit, ace low), lay cards off on any meld on the table, and end by "
    "discarding. Cards you put down score for you (A 20, 10–K 10, 2–9 5); what is left in your "
    "hand when someone goes out counts against you. Highest score wins.",
}


def summary(variant: str) -> str:
    """The variant's rules in a paragraph or two (a generic line for a variant without one)."""
    return SUMMARIES.get(variant, "See the rules document for this variant.")
