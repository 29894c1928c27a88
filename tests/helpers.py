"""Helpers shared by several test modules: the variants and player counts to run, random play,
card conservation, and the cards a text names.

Test modules import these from here rather than from one another, so that running one test
file never collects another's tests.
"""

from __future__ import annotations

import random
import re
from typing import Any

import parlour
from parlour.bots import make_bot
from parlour.cards import Card, CardSet
from parlour.game import State

#: Every variant at every player count it is played with, and the test ids for them.
CONFIGS = [(v.name, n) for v in parlour.variants() for n in v.players]
IDS = [f"{name}-{n}p" for name, n in CONFIGS]
MAX_STEPS = 20_000

# Rummy under uniformly random play mostly runs to its 1,000-turn safety limit, and the checks of
# every step cost more the longer the history. The invariant runs mix the greedy bot into
# rummy's random play, so that most deals end normally, and cap the turns, so that none runs
# long; tests/test_rummy_properties.py counts that this play still reaches every kind of
# action, the stock rebuild and both endings.
GREEDY_SHARE = {"rummy": 0.7}
INVARIANT_OPTIONS: dict[str, dict[str, Any]] = {"rummy": {"turn_limit": 100}}


def play_random(state: State, rng: random.Random, on_step: Any = None,
                greedy_share: float = 0.0) -> None:
    """Play to the end: uniformly random actions, or the greedy bot's with ``greedy_share``."""
    greedy = make_bot("greedy")
    steps = 0
    while not state.is_over:
        legal = state.legal_actions()
        assert legal, "a live state must have a legal action"
        if on_step:
            on_step(state, legal)
        if greedy_share and rng.random() < greedy_share:
            p = state.current_player
            state.apply(greedy.choose(state.observation(p), legal, rng))
        else:
            state.apply(rng.choice(legal))
        steps += 1
        assert steps < MAX_STEPS, "deal did not end"


def check_conserved(state: State) -> None:
    total = 0
    for name, cards in state.zones().items():
        assert not total & cards, f"zone {name} overlaps another"
        total |= cards
    assert total == (1 << 52) - 1, f"cards missing: {CardSet((1 << 52) - 1 - total)}"


def other_options(variant: parlour.Variant) -> dict[str, Any]:
    """Every option with a choice moved off its default: each switch flipped, each option
    with named choices on another one (the rules' less common paths: robbing silently,
    jinking, triples …)."""
    options: dict[str, Any] = {}
    for info in variant.option_info():
        if isinstance(info.default, bool):
            options[info.name] = not info.default
        elif info.choices:
            options[info.name] = next(c for c in reversed(info.choices) if c != info.default)
    return options


#: Every variant at every player count with its default options, and with the other options
#: (the games the fuzz and face-down suites run).
GAMES = [parlour.new_game(name, players=n) for name, n in CONFIGS] + [
    parlour.new_game(v.name, **other_options(v)) for v in parlour.variants() if other_options(v)]
GAME_IDS = [IDS[i] if i < len(IDS) else f"{g.name}-{g.players}p-options"
            for i, g in enumerate(GAMES)]

# A card as the text writes one: canonical and in capitals, a whole token ("[4C]" included).
CARD_TOKEN = re.compile(r"(?<![\w])(?:10|[2-9JQKA])[CDHS](?![\w])")


def named_cards(text: str) -> CardSet:
    """Every card ``text`` names.

    >>> str(named_cards("P1 lays off [4C] on meld 2: 2C 3C"))
    '2C 3C 4C'
    """
    return CardSet.from_cards(Card.parse(token) for token in CARD_TOKEN.findall(text))


def hidden_now(state: State, seat: int) -> CardSet:
    """The cards ``seat`` may not be shown at this point: ``state.hidden_from(seat)``, and none
    once the deal is over in a game that lays the hands left down to be counted
    (``Game.reveals_hands_at_end``: the tables show them with the result)."""
    if state.is_over and state.game.reveals_hands_at_end:
        return CardSet(0)
    return state.hidden_from(seat)
