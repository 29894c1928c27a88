"""A stalled rummy deal (``RummyObservation.stalled``: nobody can go out any more) is told
apart from a live one exactly, stays stalled and ends blocked; a search plays the policy's move
there without rollouts, which would all run on to the turn limit.
"""

from __future__ import annotations

import itertools
import random

import pytest

import parlour
from parlour.bots import make_bot
from parlour.bots.search import SearchBot, SearchConfig, policy_order
from parlour.cards import CARDS
from parlour.games.rummy.engine import RummyState
from parlour.games.rummy.melds import is_group, is_meld, rummy_mask, text_of
from parlour.games.rummy.observation import RummyObservation

STALLED = "nothing can be melded or laid off any more"


def random_position(rng: random.Random, turn_limit: int = 1000) -> RummyState:
    """A 2-player position with most of the deck melded, as a long deal leaves it, hands of one
    card (mostly) to three, a one-card discard pile and the rest stock. Some ranks are full groups on
    the table; in each suit, a stretch of ranks between them is mostly one run that spans it
    (nothing lays off on it), sometimes a run one card short at an end (its neighbour lays off),
    sometimes left off the table (three of it would make a meld)."""
    game = parlour.new_game("rummy", turn_limit=turn_limit)
    grouped = [r for r in range(13) if rng.random() < 0.35]
    melds = [sum(1 << (13 * s + r) for s in range(4)) for r in grouped]
    for suit in range(4):
        stretches = [list(g) for k, g in itertools.groupby(range(13), lambda r: r in grouped)
                     if not k]
        for ranks in stretches:
            roll = rng.random()
            if roll < 0.15 and len(ranks) >= 4:
                ranks = ranks[1:] if rng.random() < 0.5 else ranks[:-1]
            if len(ranks) >= 3 and roll < 0.85:
                melds.append(sum(1 << (13 * suit + r) for r in ranks))
    table = 0
    for m in melds:
        table |= m
    cards = text_of(rummy_mask(CARDS) & ~table).split()
    rng.shuffle(cards)
    sizes = [rng.choice((1, 1, 1, 2, 3)), rng.choice((1, 1, 1, 2, 3))]
    if len(cards) < sum(sizes) + 1:
        return random_position(rng, turn_limit)
    hands = [" ".join(cards[:sizes[0]]), " ".join(cards[sizes[0]:sum(sizes)])]
    state = game.new_deal(hands=hands, discard=cards[sum(sizes)], stock="...",
                          melds=[text_of(m) for m in melds], seed=rng.randrange(2**32))
    assert isinstance(state, RummyState)
    return state


def stalled_by_brute_force(obs: RummyObservation) -> bool:
    """Nobody can go out: no card off the table lays off on a meld, and no three of them make a
    meld or no seat will ever hold three cards (the seat to move may already hold its draw)."""
    melds = [rummy_mask(m) for m in obs.melds]
    table = 0
    for m in melds:
        table |= m
    free = [1 << i for i in range(52) if not table >> i & 1]
    if any(is_meld(m | c) and is_group(m) == is_group(m | c) for m in melds for c in free):
        return False
    held = [n if s == obs.current_player and obs.phase == "play" else n + 1
            for s, n in enumerate(obs.hand_sizes)]
    return max(held) < 3 or not any(is_meld(a | b | c) for a, b, c in itertools.combinations(free, 3))


def test_stalled_is_exactly_when_nobody_can_go_out() -> None:
    rng = random.Random(5)
    seen = {True: 0, False: 0}
    for _ in range(150):
        state = random_position(rng)
        for _ in range(rng.randrange(6)):  # a few random moves: both phases, both seats
            state.apply(rng.choice(state.legal_actions()))
            if state.is_over:
                break
        if state.is_over:
            continue
        obs = state.observation(rng.randrange(2))
        expected = stalled_by_brute_force(obs)
        assert (obs.stalled is not None) == expected, (obs.render(), obs.stalled)
        seen[expected] += 1
    assert min(seen.values()) >= 20, seen  # the random tables make both kinds


def test_a_stalled_deal_stays_stalled_and_ends_blocked_at_the_turn_limit() -> None:
    rng = random.Random(7)
    ended = 0
    while ended < 10:
        state = random_position(rng, turn_limit=rng.randrange(40, 120))
        if state.observation(0).stalled is None:
            continue
        while not state.is_over:
            for seat in range(2):
                assert state.observation(seat).stalled is not None
            state.apply(rng.choice(state.legal_actions()))
        obs = state.observation(0)
        assert obs.went_out == -1 and obs.turn == state.game.options.turn_limit
        assert obs.stalled is None  # over: nothing left to stall
        ended += 1


def stalled_position() -> RummyState:
    rng = random.Random(11)
    while True:
        state = random_position(rng)
        if state.observation(0).stalled is not None and len(state.legal_actions()) > 1:
            return state


@pytest.mark.parametrize("bot", ["hard", "expert"])
def test_a_search_plays_the_policys_move_in_a_stalled_deal_without_rollouts(bot: str) -> None:
    state = stalled_position()
    state.apply("draw stock")  # to the play phase: a discard to choose
    obs, legal = state.observation(state.current_player), state.legal_actions()
    searcher = make_bot(bot)
    assert isinstance(searcher, SearchBot)
    result = searcher.search(obs, legal, random.Random(3))
    assert (result.worlds, result.iterations) == (0, 0)
    assert all(c.samples == 0 for c in result.candidates)
    # The guide's choice where the level has one (the learned network), else greedy's.
    guide = searcher.guide(obs, legal, random.Random(3)) if searcher.guide else None
    if guide is None:
        expected = policy_order(obs, legal, random.Random(3), 1)[0]
    else:
        expected = max(zip(guide, legal, strict=True), key=lambda p: p[0])[1]
    assert result.action == expected
    assert STALLED in result.explanation() and "not searched" in result.explanation()
    # A review still judges a person's move against the others in the same worlds.
    other = next(a for a in legal if a != result.action)
    judged = searcher.search(obs, legal, random.Random(3), include=other)
    assert judged.iterations > 0


def test_a_live_deal_is_searched() -> None:
    state = parlour.new_game("rummy").new_deal(seed=4)
    obs = state.observation(state.current_player)
    assert obs.stalled is None
    result = SearchBot(SearchConfig(iterations=200)).search(obs, state.legal_actions(),
                                                            random.Random(1))
    assert result.iterations > 0 and not result.unsearched
