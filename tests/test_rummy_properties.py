"""Properties of rummy under random play, for 2, 3 and 4 players.

Uniformly random rummy mostly runs to the 1,000-turn safety limit, and the per-step checks cost
more the longer the history. So the deals checked at every step are played as the invariant runs
of tests/test_protocol.py play them (random actions with the greedy bot's mixed in, at most 100
turns): most end normally after about a hundred actions, and the first test counts that this
play still reaches every kind of action, the stock rebuild and both endings. Uniformly random
deals to the real turn limit are checked where they end.
"""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

import parlour
from helpers import GREEDY_SHARE, INVARIANT_OPTIONS, named_cards, play_random
from parlour import CardSet, IllegalAction
from parlour.bots import make_bot
from parlour.games.rummy.actions import DISCARD, DRAW_DISCARD, DRAW_STOCK, LAYOFF, MELD
from parlour.games.rummy.engine import RummyState
from parlour.records import deal_record, replay_deal

ALL = CardSet((1 << 52) - 1)
players = st.sampled_from([2, 3, 4])
seeds = st.integers(0, 2**32)


def new_state(n: int, seed: int, **options: object) -> RummyState:
    state = parlour.new_game("rummy", players=n, **options).new_deal(seed=seed)
    assert isinstance(state, RummyState)
    return state


def mixed_deal(n: int, seed: int) -> RummyState:
    """A deal set up as the invariant runs set theirs up."""
    return new_state(n, seed, **INVARIANT_OPTIONS["rummy"])


def play_mixed(state: RummyState, rng: random.Random, on_step: object = None) -> None:
    play_random(state, rng, on_step, GREEDY_SHARE["rummy"])


def test_the_invariant_play_reaches_every_action_kind_the_rebuild_and_both_endings() -> None:
    seen: Counter[str] = Counter()
    names = {DRAW_STOCK: "draw stock", DRAW_DISCARD: "draw discard", MELD: "meld",
             LAYOFF: "layoff", DISCARD: "discard"}
    for n in (2, 3, 4):
        for seed in range(20):
            state = mixed_deal(n, seed)
            play_mixed(state, random.Random(seed))
            obs = state.observation(0)
            seen.update(names[a.kind] for _, a in obs.history)
            seen["stock rebuilt"] += len(obs.rebuilds)
            last = obs.history[-1][1].kind
            seen["blocked"] += obs.went_out < 0
            seen["out by a discard"] += obs.went_out >= 0 and last == DISCARD
            seen["out by putting down"] += obs.went_out >= 0 and last in (MELD, LAYOFF)
    missing = [k for k in [*names.values(), "stock rebuilt", "blocked", "out by a discard",
                           "out by putting down"] if not seen[k]]
    assert not missing, f"never reached: {missing} ({dict(seen)})"


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
def test_play_conserves_cards_and_refuses_illegal_actions(n: int, seed: int) -> None:
    state = mixed_deal(n, seed)
    rng = random.Random(seed)

    def check(state: RummyState, legal: list[object]) -> None:
        assert legal and len(set(legal)) == len(legal)
        assert_conserved(state)
        for a in rng.sample(legal, min(3, len(legal))):
            state.clone().apply(a)
        for text in random_illegal(state, rng):
            before = ([state.observation(s) for s in range(n)], state.history)
            try:
                state.apply(text)
            except IllegalAction:
                pass
            else:
                raise AssertionError(f"{text} was accepted")
            assert ([state.observation(s) for s in range(n)], state.history) == before

    play_mixed(state, rng, check)
    assert_conserved(state)
    assert state.observation(0).turn <= state.game.options.turn_limit


@settings(max_examples=12, deadline=None)
@given(players, seeds)
def test_replay_setup_and_sampling_are_exact(n: int, seed: int) -> None:
    state = mixed_deal(n, seed)
    rng = random.Random(seed)

    def check(state: RummyState, legal: list[object]) -> None:
        seat = rng.randrange(n)
        obs = state.observation(seat)
        sample = obs.sample_state(rng)
        assert sample.observation(seat) == obs
        assert sample.hidden_from(seat) | obs.hand == state.hidden_from(seat) | obs.hand
        setup = json.loads(json.dumps(sample.setup()))
        again = state.game.new_deal(**setup)
        assert again.observation(seat) == obs
        assert again.observation(seat).log_lines() == obs.log_lines()
        if state.current_player == seat:
            assert sorted(map(str, sample.legal_actions())) == sorted(map(str, legal))

    play_mixed(state, rng, check)
    obs = state.observation(rng.randrange(n))
    assert obs.sample_state(rng).observation(obs.seat) == obs  # over: every hand is shown
    fresh = state.game.new_deal(**state.setup())
    assert fresh.observation(0) == mixed_deal(n, seed).observation(0)
    again = replay_deal(json.loads(json.dumps(deal_record(state))))
    assert again.history == state.history and again.returns() == state.returns()
    assert again.observation(1) == state.observation(1)


@settings(max_examples=12, deadline=None)
@given(players, seeds)
def test_observations_name_no_card_hidden_from_their_seat(n: int, seed: int) -> None:
    state = mixed_deal(n, seed)
    rng = random.Random(seed)

    def check(state: RummyState, legal: list[object]) -> None:
        zones = state.zones()
        named_by_discards = CardSet.parse(" ".join(
            str(a).removeprefix("discard ") for _, a in state.history if a.kind == DISCARD))
        for seat in range(n):
            obs = state.observation(seat)
            hidden = state.hidden_from(seat)
            # what the seat cannot see: the stock and the other hands, less the cards taken
            # from the discard pile and the discards the history names
            unseen = zones["stock"]
            for other in range(n):
                if other != seat:
                    unseen |= zones[f"P{other}"] - obs.taken[other]
            assert hidden == unseen - named_by_discards
            shown = named_cards("\n".join(
                [json.dumps(obs.to_dict()), obs.render(), *obs.log_lines()]))
            assert not shown & hidden, f"P{seat} is shown hidden {shown & hidden}"
            drawn = state.observation(state.current_player).drawn
            if drawn is not None and seat != state.current_player:
                # another seat's draw is shown only when it came from the discard pile
                assert (obs.drawn is None) == (drawn not in obs.taken[state.current_player])

    play_mixed(state, rng, check)
    assert not state.hidden_from(0) - state.zones()["stock"]  # once over, hands are face up


@settings(max_examples=15, deadline=None)
@given(players, seeds)
def test_uniformly_random_deals_score_points_put_down_minus_points_held(n: int, seed: int) -> None:
    # Uniform play to the real 1,000-turn limit: cheap, for only the end is checked.
    state = new_state(n, seed)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    assert_conserved(state)
    obs = state.observation(0)
    values = {c: 20 if c.rank == 12 else 10 if c.rank >= 8 else 5 for c in ALL}
    for seat in range(n):
        put = sum(values[c] for c in obs.placed[seat])
        held = sum(values[c] for c in obs.shown[seat])
        assert obs.shown[seat] == state.observation(seat).hand
        assert state.returns()[seat] == put - held
    assert state.winners() == [s for s in range(n) if state.returns()[s] == max(state.returns())]
    lines = obs.log_lines()
    if state.blocked:
        assert state.observation(0).turn == state.game.options.turn_limit
        assert "the deal is blocked: nobody went out in 1000 turns" in lines
    else:
        assert len(state.observation(obs.went_out).hand) == 0
        assert f"{state.game.seat_name(obs.went_out)} goes out" in lines
    assert len([line for line in lines if "rebuilt" in line]) == len(obs.rebuilds)


@settings(max_examples=10, deadline=None)
@given(players, seeds)
def test_a_short_turn_limit_ends_the_deal_as_blocked(n: int, seed: int) -> None:
    state = new_state(n, seed, turn_limit=3)
    rng = random.Random(seed)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    assert state.observation(0).turn <= 3
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
