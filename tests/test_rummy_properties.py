"""Properties of rummy under random play, for 2, 3 and 4 players."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from parlour import CardSet, IllegalAction
from parlour.bots import make_bot
from parlour.games.rummy.engine import RummyState
from parlour.records import deal_record, replay_deal

ALL = CardSet((1 << 52) - 1)
players = st.sampled_from([2, 3, 4])
seeds = st.integers(0, 2**32)


def new_state(n: int, seed: int, **options: object) -> RummyState:
    state = parlour.new_game("rummy", players=n, **options).new_deal(seed=seed)
    assert isinstance(state, RummyState)
    return state


def assert_conserved(state: RummyState) -> None:
    obs = [state.observation(s) for s in range(state.game.players)]
    table = CardSet(0)
    for m in obs[0].melds:
        assert not table & m
        table |= m
    piles = [table, CardSet.from_cards(obs[0].discard)] + [o.hand for o in obs]
    seen = CardSet(0)
    for pile in piles:
        assert not seen & pile
        seen |= pile
    assert len(seen) + obs[0].stock_size == 52
    assert obs[0].hand_sizes == tuple(len(o.hand) for o in obs)


def random_illegal(state: RummyState, rng: random.Random) -> list[str]:
    cards = [str(c) for c in ALL]
    out = ["draw stock", "draw discard", "discard " + rng.choice(cards)]
    for k in (1, 2, 3, 4):
        picked = " ".join(rng.sample(cards, k))
        out += [f"meld {picked}", f"layoff {picked} on {rng.randint(1, 4)}"]
    legal = {str(a) for a in state.legal_actions()}
    return [t for t in out if str(state.parse_action(t)) not in legal]


@settings(max_examples=12, deadline=None)
@given(players, seeds)
def test_random_play_conserves_cards_and_refuses_illegal_actions(n: int, seed: int) -> None:
    state = new_state(n, seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_over:
        step += 1
        legal = state.legal_actions()
        assert legal and len(set(legal)) == len(legal)
        if step % 5:
            state.apply(rng.choice(legal))
            continue
        assert_conserved(state)
        for a in rng.sample(legal, min(3, len(legal))):
            state.clone().apply(a)
        for text in random_illegal(state, rng):
            before = ([state.observation(s) for s in range(n)], list(state.history))
            try:
                state.apply(text)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{text} was accepted")
            assert ([state.observation(s) for s in range(n)], list(state.history)) == before
        state.apply(rng.choice(legal))
    assert_conserved(state)
    assert state.turn <= state.game.options.turn_limit


@settings(max_examples=12, deadline=None)
@given(players, seeds)
def test_replay_setup_and_sampling_are_exact(n: int, seed: int) -> None:
    state = new_state(n, seed)
    rng = random.Random(seed)
    while not state.is_over:
        seat = state.current_player
        obs = state.observation(seat)
        sample = obs.sample_state(rng)
        assert sample.observation(seat) == obs
        again = state.game.new_deal(**sample.setup())
        assert again.observation(seat) == obs
        state.apply(rng.choice(state.legal_actions()))
    fresh = state.game.new_deal(**state.setup())
    assert fresh.observation(0) == new_state(n, seed).observation(0)
    again = replay_deal(deal_record(state))
    assert again.history == state.history and again.returns() == state.returns()
    assert again.observation(1) == state.observation(1)


@settings(max_examples=12, deadline=None)
@given(players, seeds)
def test_observations_hide_the_stock_and_other_hands(n: int, seed: int) -> None:
    state = new_state(n, seed)
    rng = random.Random(seed)
    step = 0
    while not state.is_over:
        step += 1
        for seat in range(n if step % 5 == 0 else 0):
            obs = state.observation(seat)
            others = CardSet(0)
            for other in range(n):
                if other != seat:
                    # cards taken from the discard pile were seen by everyone
                    others |= state.observation(other).hand - obs.taken[other]
            shown = obs.to_dict()
            shown_cards = {c for v in shown.values() if isinstance(v, list)
                           for item in v for c in (item if isinstance(item, list) else [item])
                           if isinstance(c, str)}
            assert not {str(c) for c in others} & shown_cards
        state.apply(rng.choice(state.legal_actions()))


@settings(max_examples=15, deadline=None)
@given(players, seeds)
def test_scores_are_points_put_down_minus_points_held(n: int, seed: int) -> None:
    state = new_state(n, seed)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    obs = state.observation(0)
    values = {c: 20 if c.rank == 12 else 10 if c.rank >= 8 else 5 for c in ALL}
    for seat in range(n):
        put = sum(values[c] for c in obs.placed[seat])
        held = sum(values[c] for c in state.observation(seat).hand)
        assert state.returns()[seat] == put - held
    assert state.winners() == [s for s in range(n) if state.returns()[s] == max(state.returns())]
    if state.blocked:
        assert state.turn == state.game.options.turn_limit
    else:
        assert len(state.observation(obs.went_out).hand) == 0


@settings(max_examples=10, deadline=None)
@given(players, seeds)
def test_a_short_turn_limit_ends_the_deal_as_blocked(n: int, seed: int) -> None:
    state = new_state(n, seed, turn_limit=3)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    assert state.turn <= 3
    assert state.blocked == (state.observation(0).went_out < 0)


def test_a_series_plays_deals_until_the_target() -> None:
    game = parlour.new_game("rummy", series_target=100)
    match = game.new_match(seed=4)
    bots = [make_bot("greedy"), make_bot("greedy")]
    while not match.is_over:
        match.play_out(match.next_deal(), bots)
    assert max(match.totals) >= 100
    before_last = [sum(d.returns()[s] for d in match.deals[:-1]) for s in range(2)]
    assert max(before_last) < 100
    assert match.winners() == [s for s in range(2) if match.totals[s] == max(match.totals)]


def test_a_single_deal_is_the_default_match() -> None:
    match = parlour.new_game("rummy", players=3).new_match(seed=2)
    match.play_out(match.next_deal(), [make_bot("random")] * 3)
    assert match.is_over and len(match.deals) == 1
