"""The face-down card: nothing a seat is shown ever names a card hidden from it.

Whole deals, and the first deals of a match, of every variant at every player count (and with
its other options: silent robs, jinks, triples …) are played by bots. At every step, for every seat, the observation's ``render()``, ``log_lines()`` and
``to_dict()`` must name no card of ``state.hidden_from(seat)``, and a state sampled from the
observation (the hidden cards dealt anew) must show that seat exactly the same observation.
"""

from __future__ import annotations

import json
import random
import re

import pytest

from helpers import GAME_IDS, GAMES, MAX_STEPS
from parlour.bots import Bot, make_bot
from parlour.cards import CARDS, RANK_NAMES, RANK_TEXT, SUIT_NAMES, SUIT_SYMBOLS, SUIT_TEXT, Card
from parlour.game import Game, State

# A card written as a whole token: canonical ``10H``, ``T`` for ten, or a suit symbol. Matching
# is case-sensitive because the renderers write cards in capitals, and lower case would find
# English words ("as", "ks"); the lookarounds keep ``10H`` from matching inside ``10HX``/``P10H``.
_RANKS = {text: i for i, text in enumerate(RANK_TEXT)} | {"T": RANK_TEXT.index("10")}
_SUITS = {text: i for i, text in enumerate(SUIT_TEXT)}
_SUITS |= {sym: i for i, sym in enumerate(SUIT_SYMBOLS)}
_SUITS |= {sym: i for i, sym in enumerate("♧♢♡♤")}
_TOKEN = re.compile(
    rf"(?<![0-9A-Za-z])(10|[{''.join(r for r in _RANKS if len(r) == 1)}])"
    rf"([{''.join(_SUITS)}])(?![0-9A-Za-z])"
)
# A card by name, as ``Card.name()`` writes it ("queen of spades").
_NAME = re.compile(rf"\b({'|'.join(RANK_NAMES)}) of ({'|'.join(SUIT_NAMES)})\b", re.IGNORECASE)


def cards_named(text: str) -> set[Card]:
    """Every card that ``text`` names, in any spelling the renderers could use.

    >>> sorted(map(str, cards_named("P1: 10H, T♠ (ace of clubs); 10HX P3D QS")))
    ['10H', '10S', 'AC', 'QS']
    """
    found = {Card.make(_RANKS[r], _SUITS[s]) for r, s in _TOKEN.findall(text)}
    found |= {Card.make(RANK_NAMES.index(r.lower()), SUIT_NAMES.index(s.lower()))
              for r, s in _NAME.findall(text)}
    return found


def check_views(state: State, step: int, rng: random.Random, sample: bool) -> None:
    """No seat's view names a card hidden from it; optionally, sampled states agree."""
    for seat in range(state.game.players):
        obs = state.observation(seat)
        hidden = set(state.hidden_from(seat))
        shown = {
            "render()": obs.render(),
            "log_lines()": "\n".join(obs.log_lines()),
            "to_dict()": json.dumps(obs.to_dict(), ensure_ascii=False),
        }
        for where, text in shown.items():
            leaked = cards_named(text) & hidden
            assert not leaked, (
                f"after {step} actions, {where} of P{seat} names hidden "
                f"{' '.join(sorted(map(str, leaked)))}:\n{text}")
        if sample:
            again = obs.sample_state(random.Random(rng.random())).observation(seat)
            assert again == obs, f"after {step} actions, a state sampled for P{seat} differs"


def play_checked(state: State, bots: list[Bot], rng: random.Random) -> None:
    """Let ``bots`` play ``state`` to its end, checking every seat's view at every step (and
    sampled states at about one step in four, which keeps long Rummy deals quick)."""
    step = 0
    while True:
        check_views(state, step, rng, sample=state.is_over or rng.random() < 0.25)
        if state.is_over:
            return
        seat = state.current_player
        state.apply(bots[seat].choose(state.observation(seat), state.legal_actions(), rng))
        step += 1
        assert step < MAX_STEPS, "the deal did not end"


def lineup(players: int, seed: int) -> list[Bot]:
    """Greedy and random bots, alternating seats, the other way round on odd seeds."""
    return [make_bot("greedy" if (seat + seed) % 2 else "random") for seat in range(players)]


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_no_seat_is_shown_a_card_hidden_from_it(game: Game, seed: int) -> None:
    state = game.new_deal(seed=seed)
    play_checked(state, lineup(game.players, seed), random.Random(seed))
    assert state.is_over


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_greedy_bots_are_shown_no_hidden_card(game: Game) -> None:
    # Greedy players meld, rob and announce more than random ones, which shows more cards.
    state = game.new_deal(seed=7)
    play_checked(state, [make_bot("greedy")] * game.players, random.Random(7))


@pytest.mark.parametrize("game", GAMES, ids=GAME_IDS)
def test_no_hidden_card_is_shown_across_the_deals_of_a_match(game: Game) -> None:
    """Later deals start from what the match carries (leader, dealer, scores, the pool)."""
    match = game.new_match(seed=11)
    rng = random.Random(11)
    for _ in range(3):
        if match.is_over:
            break
        state = match.next_deal()
        play_checked(state, lineup(game.players, len(match.deals)), rng)
        match.finish_deal(state)
    assert match.deals


def test_cards_named_finds_every_card_in_every_spelling() -> None:
    for card in CARDS:
        rank, suit = str(card)[:-1], str(card)[-1]
        spellings = [str(card), rank.replace("10", "T") + suit,
                     rank + SUIT_SYMBOLS[card.suit], card.name(), card.name().upper()]
        for text in spellings:
            assert cards_named(f"P1: {text}, pass") == {card}, text
            assert cards_named(f"P1: {text}X") == set(), text + "X"
    assert cards_named("as ks 3d: lower case is English, not cards") == set()
