"""Forty-Five and Spoil Five, compiled simulation: states sampled from an observation
(``obs.sample_state(rng)``, dealt by the compiled sampler) show the seat exactly what it saw and
keep every hard constraint of it, at every position of the differential trace deals; the search
plays those worlds in Rust; the compiled policy refuses what is no choice.

The constraints are worked out here again, independently of the sampler, from the observation
alone: the cards the seat saw are nobody else's, the robbed turn-up is in the robber's hand, the
seat that robbed or announced was dealt the ace of trumps (without the silent option, nobody
holds it when nobody robbed or announced), and a seat that did not follow holds none of that
suit (after a trump lead, no trump but the reneging ones above the lead).
"""

from __future__ import annotations

import copy
import pickle
import random

import pytest

import parlour
import trace_format as tf
from parlour import IllegalAction, ParlourError
from parlour._core import TrumpKnowledge
from parlour.bots import SearchBot, SearchConfig
from parlour.games.trump.actions import HIDDEN_ROB, KEEP, ROB
from parlour.games.trump.engine import TrumpState
from parlour.games.trump.observation import TrumpObservation
from parlour.games.trump.ranking import (
    ACE_OF_TRUMPS,
    DEMOTED_POWER,
    PLAIN_MASK,
    POWER,
    RENEGERS,
    TRUMP_MASK,
)

VARIANTS = ["forty-five", "spoil-five"]
#: Trace deals checked per variant (every position of each, every seat's view).
DEALS = 160


def voids(obs: TrumpObservation) -> list[int]:
    """Per seat, the cards it cannot hold now, from how it followed."""
    n = len(obs.hand_sizes)
    tmask = TRUMP_MASK[obs.trump]
    power = (DEMOTED_POWER if obs.ace_demoted else POWER)[obs.trump]
    forbid = [0] * n
    plays = [(s, int(a)) for s, a in obs.history if int(a) < 52]
    for start in range(0, len(plays), n):
        trick = plays[start:start + n]
        led = trick[0][1]
        for seat, card in trick[1:]:
            if tmask >> led & 1 and not tmask >> card & 1:
                higher = sum(1 << c for c in RENEGERS[obs.trump] if power[c] > power[led])
                forbid[seat] |= tmask & ~higher
            elif not tmask >> led & 1 and not (PLAIN_MASK[obs.trump][led & 3] | tmask) >> card & 1:
                forbid[seat] |= PLAIN_MASK[obs.trump][led & 3]
    return forbid


def dealt_hands(state: TrumpState) -> tuple[int, ...]:
    return state.initial_hands


def check_sample(obs: TrumpObservation, sample: TrumpState, original: TrumpState) -> None:
    seat = obs.seat
    n = len(obs.hand_sizes)
    assert sample.observation(seat) == obs
    # The same cards are hidden from the seat, and every card is somewhere once.
    assert sample.hidden_from(seat) == original.hidden_from(seat)
    union = 0
    for zone in sample.zones().values():
        assert not union & zone
        union |= zone
    assert union == (1 << 52) - 1
    up = int(obs.turn_up)
    for s, forbidden in enumerate(voids(obs)):
        if s != seat:
            # A dealer's robbed turned ace joins the hand after trick 1, whatever it showed.
            assert not int(sample.hand(s)) & forbidden & ~(1 << up), f"P{s} holds a void suit"
    if obs.robber >= 0 and not obs.ace_pending and not any(int(a) == up for _, a in obs.history):
        assert int(sample.hand(obs.robber)) >> up & 1
    ace = ACE_OF_TRUMPS[obs.trump]
    if up != ace:
        holder = obs.robber if obs.robber >= 0 else obs.announced
        if holder >= 0:
            assert dealt_hands(sample)[holder] >> ace & 1
        elif not obs.game.options.silent_ace and obs.phase != "rob":
            assert not any(h >> ace & 1 for h in dealt_hands(sample)[:n])


@pytest.mark.parametrize("variant", VARIANTS)
def test_sampled_states_keep_every_constraint_at_every_trace_position(variant: str) -> None:
    traces = tf.load(tf.fixture_path(variant))["deals"][:DEALS]
    rng = random.Random(variant)
    checked = 0
    worlds: set[tuple[int, ...]] = set()
    for deal in traces:
        game = tf.new_game(deal, variant)
        state = game.new_deal(**deal["setup"])
        for played in [*deal["actions"], None]:
            for seat in range(game.players):
                obs = state.observation(seat)
                sample = obs.sample_state(random.Random(rng.getrandbits(32)))
                check_sample(obs, sample, state)
                worlds.add(dealt_hands(sample))
                checked += 1
            if played is not None:
                tf.apply_recorded(state, played)
    assert checked > 10_000
    assert len(worlds) > checked // 2  # the hidden cards really are dealt anew


def test_a_generator_gives_one_world_and_observations_pickle_without_the_sampler() -> None:
    game = parlour.new_game("spoil-five", players=5, silent_ace=True)
    state = game.new_deal(seed=9)
    for _ in range(3):
        state.apply(state.legal_actions()[0])
    obs = state.observation(2)
    first = obs.sample_state(random.Random(4))
    assert obs.sample_state(random.Random(4)).setup() == first.setup()
    assert {str(obs.sample_state(random.Random(k)).setup()) for k in range(20)} != {
        str(first.setup())}
    assert obs._knowledge() is obs._knowledge()
    for again in (pickle.loads(pickle.dumps(obs)), copy.deepcopy(obs)):
        assert again == obs and "_knowledge_cache" not in vars(again)
        assert again.sample_state(random.Random(4)).setup() == first.setup()


def test_a_hidden_rob_is_replayed_with_a_sampled_discard() -> None:
    game = parlour.new_game("forty-five")
    state = game.new_deal(hands=["5S 3S 7D 8C 9H", "KS 2D 3D 4D 5D", "6S 7S 8S 9S 10S",
                                 "AS 4C 6C 8H KC"], turn_up="2S", dealer=3)
    state.apply("rob 4C")
    obs = state.observation(0)
    assert obs.history[0][1] is HIDDEN_ROB
    discards = set()
    for k in range(40):
        sample = obs.sample_state(random.Random(k))
        check_sample(obs, sample, state)
        (rob,) = [a for s, a in sample.history if s == 3]
        assert rob is ROB[sample.discard]
        assert 1 << sample.discard & state.hidden_from(0)
        discards.add(sample.discard)
    assert len(discards) > 3


def test_an_observation_no_deal_fits_is_refused() -> None:
    state = parlour.new_game("forty-five").new_deal(seed=2)
    obs = state.observation(1)
    fields = {f: getattr(obs, f) for f in obs.__dataclass_fields__}
    # A hand holding the turn-up nobody robbed, a card too many, or a seat that is no seat.
    for changed, message in [({"hand": obs.hand | (1 << int(obs.turn_up))}, "no deal is consistent"),
                             ({"hand_sizes": (5, 6, 5, 5)}, "no deal is consistent"),
                             ({"seat": 7}, "no seat")]:
        rough = TrumpObservation(**{**fields, **changed})
        with pytest.raises(ParlourError, match=message):
            rough.sample_state(random.Random(0))


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_search_runs_compiled_over_the_sampled_worlds(variant: str) -> None:
    """The search plays its worlds through the observation's compiled knowledge: the same
    result on one thread or three, and only returns the variant can give."""
    state = parlour.new_game(variant).new_deal(seed=6)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    obs = state.observation(state.current_player)
    assert isinstance(obs._knowledge(), TrumpKnowledge)
    results = [SearchBot(SearchConfig(iterations=150, max_candidates=3, min_worlds=4, threads=t))
               .search(obs, state.legal_actions(), random.Random(1)) for t in (1, 3)]
    one, three = ([(c.action, c.values, c.wins) for c in r.candidates] for r in results)
    assert one == three and results[0].iterations == results[1].iterations <= 150
    possible = {0.0, 5.0, 10.0} if variant == "forty-five" else {-1.0, 3.0}
    assert {v for _, values, _ in one for v in values} <= possible


def test_the_compiled_policy_refuses_what_is_no_choice() -> None:
    game = parlour.new_game("spoil-five")
    state = game.new_deal(seed=4)
    while state.observation(0).phase != "play":
        state.apply(state.legal_actions()[0])
    obs = state.observation(state.current_player)
    rng = random.Random(0)
    choice = game.greedy_action(obs, state.legal_actions(), rng)
    assert choice in state.legal_actions()
    for legal in ([], [KEEP]):
        with pytest.raises(IllegalAction, match="no card to play"):
            game.greedy_action(obs, legal, rng)
    with pytest.raises(IllegalAction, match="200 is not a move"):
        game.greedy_action(obs, [200], rng)  # type: ignore[list-item]
    with pytest.raises(ParlourError, match="not an observation of a trump game"):
        game.greedy_action(parlour.new_game("rummy").new_deal(seed=1).observation(0),
                           state.legal_actions(), rng)
    assert game.greedy_action(obs, state.legal_actions(), rng) is choice  # nothing changed
