"""Properties every variant must have, at every player count, checked over random deals.

Cards are conserved, every legal action applies, illegal actions are refused and change
nothing, every deal and match ends, records replay exactly, setups round-trip, observations
never mention a hidden card, and sampled states agree with the observation they came from.
"""

from __future__ import annotations

import contextlib
import json
import random
from itertools import combinations
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import parlour
from helpers import CONFIGS, GREEDY_SHARE, IDS, INVARIANT_OPTIONS, check_conserved, play_random
from parlour.bots import make_bot
from parlour.cards import CARDS, CardSet, parse_card
from parlour.errors import CardError, IllegalAction
from parlour.game import State
from parlour.records import deal_record, replay_deal

SETTINGS = settings(max_examples=6, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32)


def snapshot(state: State) -> tuple[Any, ...]:
    n = state.game.players
    return (state.current_player, state.history, state.returns(), state.zones(),
            [state.observation(s) for s in range(n)])


def cards_mentioned(value: Any) -> set[int]:
    """Every card named anywhere in a JSON-able structure (strings split on spaces)."""
    found: set[int] = set()
    if isinstance(value, str):
        for token in value.split():
            with contextlib.suppress(CardError):
                found.add(int(parse_card(token)))
    elif isinstance(value, dict):
        for v in value.values():
            found |= cards_mentioned(v)
    elif isinstance(value, (list, tuple)):
        for v in value:
            found |= cards_mentioned(v)
    return found


def candidate_texts(state: State, rng: random.Random) -> list[str]:
    """Texts of actions that may or may not be legal: card combinations from every hand,
    and the keywords of every family."""
    zones = state.zones()
    hands = [zones[f"P{i}"] for i in range(state.game.players)]
    pool = [c for h in hands for c in h] or list(CARDS)
    mine = list(hands[state.current_player]) or pool
    texts = ["pass", "keep", "jink", "stop", "draw stock", "draw discard", "garbage", "", "3X"]
    for _ in range(12):
        size = rng.randint(1, 5)
        src = mine if rng.random() < 0.7 else pool
        cards = rng.sample(src, min(size, len(src)))
        words = " ".join(str(c) for c in cards)
        texts += [words, f"rob {cards[0]}", f"discard {cards[0]}", f"meld {words}",
                  f"layoff {words} on 1"]
    for pair in list(combinations(mine, 2))[:6]:
        texts.append(" ".join(map(str, pair)))
    return texts


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
@SETTINGS
@given(seed=seeds)
def test_random_deal_keeps_every_invariant(name: str, players: int, seed: int) -> None:
    game = parlour.new_game(name, players=players, **INVARIANT_OPTIONS.get(name, {}))
    state = game.new_deal(seed=seed)
    rng = random.Random(seed)
    start = [state.observation(s) for s in range(players)]
    assert game.new_deal(**json.loads(json.dumps(state.setup()))).observation(0) == start[0]

    def on_step(s: State, legal: list[Any]) -> None:
        check_conserved(s)
        assert len(set(legal)) == len(legal), "duplicate legal actions"
        for action in legal[:40]:
            assert s.parse_action(str(action)) == action, f"{action} does not round-trip"
            twin = s.clone()
            twin.apply(action)  # every legal action applies
            check_conserved(twin)
        for seat in range(players):
            obs = s.observation(seat)
            leaked = cards_mentioned(obs.to_dict()) & {int(c) for c in s.hidden_from(seat)}
            assert not leaked, f"P{seat} sees hidden {CardSet(sum(1 << c for c in leaked))}"
            assert not obs.hand & s.hidden_from(seat)
        before = snapshot(s)
        for text in candidate_texts(s, rng):
            try:
                action = s.parse_action(text)
            except IllegalAction:
                assert snapshot(s) == before
                continue
            if action in legal:
                continue
            with pytest.raises(IllegalAction):
                s.apply(action)
            assert snapshot(s) == before, f"refused '{text}' changed the state"

    play_random(state, rng, on_step, GREEDY_SHARE.get(name, 0.0))
    check_conserved(state)
    assert state.legal_actions() == []
    assert len(state.returns()) == players
    with pytest.raises(IllegalAction):
        state.apply(start[0].game.new_deal(seed=seed).legal_actions()[0])


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
@SETTINGS
@given(seed=seeds)
def test_record_replays_exactly(name: str, players: int, seed: int) -> None:
    game = parlour.new_game(name, players=players)
    state = game.new_deal(seed=seed)
    bots = [make_bot("greedy" if i % 2 else "random") for i in range(players)]
    rng = random.Random(seed)
    while not state.is_over:
        p = state.current_player
        state.apply(bots[p].choose(state.observation(p), state.legal_actions(), rng))
    record = json.loads(json.dumps(deal_record(state)))
    again = replay_deal(record)
    assert again.history == state.history
    assert again.returns() == state.returns()
    assert again.zones() == state.zones()
    assert [again.observation(s) for s in range(players)] == [
        state.observation(s) for s in range(players)]


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
@SETTINGS
@given(seed=seeds)
def test_sampled_states_agree_with_the_observation(name: str, players: int, seed: int) -> None:
    game = parlour.new_game(name, players=players)
    state = game.new_deal(seed=seed)
    rng = random.Random(seed)
    checked = 0
    while not state.is_over:
        if rng.random() < 0.15:
            seat = rng.randrange(players)
            obs = state.observation(seat)
            sample = obs.sample_state(random.Random(rng.random()))
            assert sample.observation(seat) == obs
            check_conserved(sample)
            # the sample may differ only in what the seat cannot see
            assert sample.hidden_from(seat) | sample.zones()[f"P{seat}"] == (
                state.hidden_from(seat) | state.zones()[f"P{seat}"])
            if not sample.is_over:
                assert set(map(str, sample.legal_actions())) == set(
                    map(str, state.legal_actions())) or sample.current_player != seat
            checked += 1
        state.apply(rng.choice(state.legal_actions()))
    assert checked >= 0


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_clone_is_independent(name: str, players: int) -> None:
    state = parlour.new_game(name, players=players).new_deal(seed=11)
    twin = state.clone()
    before = snapshot(state)
    play_random(twin, random.Random(3))
    assert snapshot(state) == before
    assert twin.is_over and not state.is_over


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_match_ends_with_winners(name: str, players: int) -> None:
    game = parlour.new_game(name, players=players)
    match = game.new_match(seed=5)
    bots = [make_bot("greedy")] * players
    for _ in range(500):
        if match.is_over:
            break
        match.play_out(match.next_deal(), bots)
    assert match.is_over, "match did not end within 500 deals"
    assert match.winners()
    totals = [match.game.match_initial_totals()[i] + sum(d.returns()[i] for d in match.deals)
              for i in range(players)]
    assert totals == pytest.approx(match.totals)


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_seeded_deals_are_reproducible(name: str, players: int) -> None:
    game = parlour.new_game(name, players=players)
    a, b = game.new_deal(seed=99), game.new_deal(seed=99)
    assert a.setup() == b.setup()
    assert a.zones() == b.zones()
    assert game.new_deal(seed=100).zones() != a.zones()


@pytest.mark.parametrize(("name", "players"), CONFIGS, ids=IDS)
def test_bad_deals_are_refused(name: str, players: int) -> None:
    game = parlour.new_game(name, players=players)
    deck = [str(c) for c in CARDS]
    with pytest.raises(parlour.DealError, match="twice"):
        game.new_deal(deck=[*deck[:-1], deck[0]])
    with pytest.raises(parlour.DealError, match="missing"):
        game.new_deal(deck=deck[:-1])
    with pytest.raises(parlour.CardError, match="1H"):
        game.new_deal(deck=[*deck[:-1], "1H"])
    state = game.new_deal(deck=deck)  # a full, ordered deck is dealt by the variant's procedure
    check_conserved(state)


def test_big_two_4card_returns_are_zero_sum() -> None:
    game = parlour.new_game("big-two-4card")
    rng = random.Random(1)
    for seed in range(200):
        state = game.new_deal(seed=seed)
        play_random(state, rng)
        assert sum(state.returns()) == 0
        assert max(state.returns()) > 0
