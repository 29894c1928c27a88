"""The reasons a hint gives (``Observation.reason``) are true: each fact a reason states is
checked another way, through the engine, over every decision of random deals of every variant
and in worlds dealt consistently with what the seat sees."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

import parlour
from parlour.advice import hint
from parlour.cards import Card, parse_cards
from parlour.game import Action, Observation, State

CLIMBING = ("big-two-4card", "big-two", "pusoy-dos")
TRUMP = ("forty-five", "spoil-five")
#: Letters for cards ("3D"): a reason names cards by their faces only.
CARD_CODE = re.compile(r"\b(10|[2-9JQKA])[CDHS]\b")


def decisions(variant: str, deals: int) -> Iterator[tuple[State, Observation, list[Action],
                                                          Action, str]]:
    """Every legal move of every decision with a choice in random deals, with its reason."""
    for seed in range(deals):
        state = parlour.new_game(variant).new_deal(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            obs, legal = state.observation(state.current_player), state.legal_actions()
            if len(legal) > 1:
                for move in legal[:40]:
                    why = obs.reason(move, legal)
                    assert not CARD_CODE.search(why), why
                    yield state, obs, legal, move, why
            state.apply(rng.choice(legal))


def worlds(obs: Observation, n: int = 3) -> Iterator[State]:
    rng = random.Random(0)
    for _ in range(n):
        yield obs.sample_state(rng)


def face(symbol: str) -> Card:
    """The card of a face in a reason ("2♠")."""
    return parse_cards(symbol)[0]


@pytest.mark.parametrize("variant", CLIMBING)
def test_climbing_reasons_are_true(variant: str) -> None:
    said: set[str] = set()
    for state, obs, legal, move, why in decisions(variant, 3):
        seat, cards = obs.seat, set(move.cards)  # type: ignore[attr-defined]
        table = state.game.table  # type: ignore[attr-defined]
        if why == "it goes out":
            assert cards == set(obs.hand)  # type: ignore[attr-defined]
        if "nobody can beat it" in why:
            said.add("unbeatable")
            for world in worlds(obs):  # every other seat passes until the lead comes back
                world.apply(move)
                while not world.is_over and world.current_player != seat:
                    assert [str(a) for a in world.legal_actions()] == ["pass"], (why, world)
                    world.apply(world.legal_actions()[0])
        if "your lowest play that beats" in why:
            said.add("lowest")
            # Every other play that beats the table is a stronger one of the same kind.
            assert all(int(a) > int(move) for a in legal if str(a) != "pass" and a != move)
        if kept := re.search(r"keeps your (\S+), the highest card left", why):
            said.add("highest")
            card = face(kept.group(1))
            assert card in obs.hand and card not in cards  # type: ignore[attr-defined]
            top = table.classify(table.key_mask([card]))
            for world in worlds(obs):
                for other in range(state.game.players):
                    if other != seat:
                        for c in world.observation(other).hand:  # type: ignore[attr-defined]
                            assert table.classify(table.key_mask([c])) < top, (why, c)
        if group := re.search(r"break(?:ing)? up your (pair of|three|four) (\w+)", why):
            said.add("breaking")
            rank = group.group(2)
            held = [c for c in obs.hand if parlour.cards.RANK_PLURALS[c.rank] == rank]  # type: ignore[attr-defined]
            assert len(held) == {"pair of": 2, "three": 3, "four": 4}[group.group(1)]
            assert not cards & set(held) or set(held) <= cards
    assert {"unbeatable", "lowest", "highest"} <= said, said


@pytest.mark.parametrize("variant", TRUMP)
def test_trump_reasons_are_true(variant: str) -> None:
    said: set[str] = set()
    rng = random.Random(1)
    for _, obs, _, move, why in decisions(variant, 6):
        seat = obs.seat
        if why.startswith("it takes the trick") or "nobody can beat it" in why:
            said.add("takes")
            wins = True
        elif why.startswith(("you cannot take this trick", "your partner is winning")):
            said.add("loses")
            wins = False
        else:
            continue
        for world in worlds(obs):  # the trick played out at random by the others
            tricks = len(obs.trick_winners)  # type: ignore[attr-defined]
            world.apply(move)
            while len(world.observation(seat).trick_winners) == tricks:  # type: ignore[attr-defined]
                world.apply(rng.choice(world.legal_actions()))
            taker = world.observation(seat).trick_winners[-1]  # type: ignore[attr-defined]
            assert (taker == seat) == wins, (why, world)
    assert said == {"takes", "loses"}, said


def test_rummy_reasons_are_true() -> None:
    said: set[str] = set()
    for state, obs, _, move, why in decisions("rummy", 3):
        seat = obs.seat
        if meld := re.fullmatch(r"the (\S+) makes a meld with your (.+)", why):
            said.add("meld")
            world = state.clone()
            world.apply(move)
            cards = " ".join(str(face(f)) for f in [meld.group(1), *meld.group(2).split()])
            assert world.parse_action(f"meld {cards}") in world.legal_actions(), why
        if points := re.fullmatch(r"it puts (\d+) points on the table, where they score for you",
                                  why):
            said.add("points")
            world = state.clone()
            world.apply(move)
            gained = world.observation(seat).scores[seat] - obs.scores[seat]  # type: ignore[attr-defined]
            assert gained == int(points.group(1)), why
        if lone := re.match(r"the (?:top discard, the )?(\S+?),? goes with none of your cards",
                            why):
            said.add("lone")
            card = face(lone.group(1))
            for other in obs.hand:  # type: ignore[attr-defined]
                if other != card:
                    low = (other.rank + 1) % 13, (card.rank + 1) % 13  # ace low
                    assert other.rank != card.rank, why
                    assert other.suit != card.suit or abs(low[0] - low[1]) > 2, (why, other)
    assert said == {"meld", "points", "lone"}, said


def test_a_hint_gives_its_reason() -> None:
    hands = ["3D 5C 5S 9H 2S", "4D 6C KH", "7C 8C", "10C JC"]
    dealt = parse_cards(" ".join(hands))
    out = [c for c in parlour.CardSet((1 << 52) - 1).cards() if c not in dealt]
    state = parlour.new_game("big-two").new_deal(hands=hands, out=out, leader=0)
    state.apply("9H")
    advice = hint(state.observation(1), state.legal_actions(), "medium")
    assert advice.text.startswith(("Play the K♥: it is your lowest play that beats the 9♥. ",
                                   "Pass: it saves your K♥")), advice.text
