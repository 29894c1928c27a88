"""The RL environments: PettingZoo AEC (api and seed tests), the action index (round trips over
many random deals, stable values), the observation encoding (hidden cards never matter, card
blocks read back), the Gymnasium single-agent env (check_env), the batched env, and the
examples' learning runs at a reduced size."""

from __future__ import annotations

import dataclasses
import importlib.util
import random
import re
import subprocess
import sys
import warnings
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env
from pettingzoo.test import api_test, seed_test

import parlour
from parlour._core import MAX_ENVS, MAX_THREADS, BatchedCore, EnvCore
from parlour.arena.stats import head_to_head
from parlour.bots import base as bots_base
from parlour.bots import make_bot
from parlour.cards import CARDS
from parlour.encoding import HistoryFold, compiled
from parlour.envs import (
    action_index,
    aec_env,
    batched_env,
    encoder,
    env_id,
    env_ids,
    reward_scale,
    single_agent_env,
)
from parlour.envs.batched import sample_legal
from parlour.errors import IllegalAction, SeatError, VariantError
from parlour.games.trump.actions import parse_action as trump_action

ROOT = Path(__file__).resolve().parents[1]
SEATINGS = [(v.name, n) for v in parlour.variants() for n in v.players]
VARIANTS = [v.name for v in parlour.variants()]


def _deals(game, count, seed, bot="random"):
    """States met in ``count`` deals where every seat plays ``bot`` (a state before each move)."""
    bots = [make_bot(bot) for _ in range(game.players)]
    rng = random.Random(seed)
    for d in range(count):
        state = game.new_deal(seed=seed + d)
        while not state.is_over:
            yield state
            p = state.current_player
            state.apply(bots[p].choose(state.observation(p), state.legal_actions(), rng))
        yield state


# -- PettingZoo ------------------------------------------------------------------------------

@pytest.mark.parametrize(("variant", "players"), SEATINGS)
def test_pettingzoo_api_and_seed_tests(variant, players):
    with warnings.catch_warnings():
        # PettingZoo warns about dict observations for environments not on its own list; the
        # dict with "observation" and "action_mask" is its classic card games' convention.
        warnings.filterwarnings("ignore", message=".*(NumPy array|probably should be).*")
        api_test(aec_env(variant, players=players), num_cycles=1000)
        seed_test(lambda: aec_env(variant, players=players), num_cycles=1000)


def test_aec_rewards_are_the_returns_and_normalised_option_divides():
    for rewards in ("score", "normalised"):
        env = aec_env("big-two", rewards=rewards)
        env.reset(seed=5)
        total = dict.fromkeys(env.possible_agents, 0.0)
        for agent in env.agent_iter():
            obs, reward, terminated, _, _ = env.last()
            total[agent] += reward
            env.step(None if terminated else int(np.flatnonzero(obs["action_mask"])[-1]))
        state = env.state
        scale = 1.0 if rewards == "score" else reward_scale(env.game)
        assert [total[a] for a in env.possible_agents] == [r / scale for r in state.returns()]
        assert any(total.values())
        if rewards == "normalised":
            assert all(-1 <= r <= 1 for r in total.values())


def test_aec_illegal_index_is_refused_and_changes_nothing():
    env = aec_env("rummy", players=2)
    env.reset(seed=1)
    obs = env.observe(env.agent_selection)
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    before = env.state.history
    for bad in (illegal, -1, 10**6, 1.5, "draw stock", None):
        with pytest.raises(IllegalAction):
            env.step(bad)
    assert env.state.history == before
    assert np.array_equal(env.observe(env.agent_selection)["action_mask"], obs["action_mask"])


def test_aec_observations_are_the_seats_encodings_and_render_is_the_observation():
    env = aec_env("forty-five", players=4, render_mode="ansi")
    env.reset(seed=2)
    state = env.state
    enc, idx = encoder(env.game), action_index(env.game)
    for seat, agent in enumerate(env.possible_agents):
        obs = env.observe(agent)
        view = state.observation(seat)
        assert np.array_equal(obs["observation"], enc.encode(view))
        expected = (idx.mask(state.legal_actions(), view) if seat == state.current_player
                    else np.zeros(idx.size, dtype=np.int8))
        assert np.array_equal(obs["action_mask"], expected)
    assert env.render() == state.observation(state.current_player).render()
    with pytest.raises(VariantError):
        aec_env("forty-five", render_mode="human")
    with pytest.raises(VariantError):
        aec_env("forty-five", rewards="points")


# -- the action index ------------------------------------------------------------------------

@pytest.mark.parametrize("variant", VARIANTS)
def test_index_round_trips_every_legal_action_of_many_deals(variant):
    v = parlour.registry.get_variant(variant)
    kinds = set()
    for players in (v.players[0], v.players[-1]):
        game = parlour.new_game(variant, players=players)
        idx = action_index(game)
        names = idx.names()
        assert len(names) == idx.size == len(set(names))
        # Random deals, and greedy ones where random play rarely reaches every kind of move
        # (Rummy lay-offs).
        # Rummy's random deals are long (about 600 moves): fewer of them.
        for bot, count in (("random", 3 if variant == "rummy" else 12), ("greedy", 12)):
            for state in _deals(game, count, seed=players * 100, bot=bot):
                if state.is_over:
                    continue
                view = state.observation(state.current_player)
                legal = state.legal_actions()
                found = idx.indices(legal, view)
                assert found == [idx.index(a, view) for a in legal]
                assert [idx.action(i, view) for i in found] == legal
                assert len(set(found)) == len(legal)
                mask = idx.mask(legal, view)
                assert mask.dtype == np.int8 and mask.sum() == len(legal)
                assert all(mask[i] for i in found)
                kinds.update(names[i].split()[0] for i in found)
                kinds.update(" ".join(names[i].split()[-2:]) for i in found
                             if names[i].startswith("layoff"))
    if variant == "rummy":
        assert {"draw", "discard", "meld", "layoff", "a group", "a run"} <= kinds
    if variant == "forty-five":
        assert {"rob", "keep"} <= kinds


def test_index_values_are_stable():
    b2 = parlour.new_game("big-two-4card")
    idx = action_index(b2)
    state = b2.new_deal(seed=1)
    assert idx.size == 21076
    assert (idx.index(state.parse_action("pass")), idx.index(state.parse_action("3D")),
            idx.index(state.parse_action("2S"))) == (0, 1, 52)
    assert str(idx.action(53)) == "3D 3C"
    assert action_index(parlour.new_game("big-two")).size == 18827
    assert action_index(parlour.new_game("big-two", allow_triples=True)).size > 18827
    ff = parlour.new_game("forty-five")
    tidx = action_index(ff)
    s = ff.new_deal(seed=1)
    assert tidx.size == 108
    # The family's index holds every move of the notation, the options' words included, which
    # a game without those options does not read (the family's parser does).
    assert [tidx.index(trump_action(t)) for t in ("2C", "AS", "rob 2C", "rob 4D", "keep",
                                                  "silent", "jink", "stop")] == \
        [0, 51, 52, 61, 104, 105, 106, 107]
    assert tidx.index(s.parse_action("rob 4D")) == 61
    ridx = action_index(parlour.new_game("rummy"))
    names = ridx.names()
    assert ridx.size == 2855
    assert names[:3] == ["draw stock", "draw discard", "discard AC"]
    assert (names[54], names[318], names[383], names[435], names[655], names[875]) == (
        "meld AC 2C 3C", "meld AC AD AH", "layoff AC on a group", "layoff AC below a run",
        "layoff 4C above a run", "layoff AC 5C at both ends of a run")


def test_index_refuses_other_games_actions_and_bad_indices():
    b2 = parlour.new_game("big-two")
    other = parlour.new_game("pusoy-dos").new_deal(seed=1).parse_action("3D")
    with pytest.raises(IllegalAction, match="not an action of big-two"):
        action_index(b2).index(other)
    trump = parlour.new_game("forty-five").new_deal(seed=1).parse_action("2C")
    with pytest.raises(IllegalAction):
        action_index(parlour.new_game("rummy")).index(trump)  # same int as "draw stock"
    for bad in (-1, 21076 * 2, True, 2.0, "3"):
        with pytest.raises(IllegalAction, match="not an action index"):
            action_index(b2).action(bad)


def test_rummy_layoffs_need_the_table_and_find_their_meld():
    game = parlour.new_game("rummy")
    state = game.new_deal(
        hands=["3C 7C 8C 9H 4S 5S 6S", "KD KH"], stock="2D 10S ...", discard="QS",
        melds=["4C 5C 6C", "9C 10C JC", "7D 7H 7S"], player=0, phase="play")
    view = state.observation(0)
    idx = action_index(game)
    layoffs = [a for a in state.legal_actions() if str(a).startswith("layoff")]
    assert {idx.names()[idx.index(a, view)] for a in layoffs} >= {
        "layoff 7C above a run", "layoff 8C below a run", "layoff 3C below a run",
        "layoff 7C 8C above a run", "layoff 7C 8C below a run", "layoff 7C on a group",
        "layoff 3C 7C at both ends of a run"}
    for a in layoffs:
        assert idx.action(idx.index(a, view), view) == a
    with pytest.raises(IllegalAction, match="give the observation"):
        idx.index(layoffs[0])
    assert idx.index(layoffs[0], state) == idx.index(layoffs[0], view)


# -- the observation encoding ----------------------------------------------------------------

def test_encoders_and_indexes_need_numpy_alone():
    code = ("import sys, parlour; from parlour.envs import encoder, action_index; "
            "g = parlour.new_game('big-two-4card'); s = g.new_deal(seed=1); "
            "encoder(g).encode(s.observation(0)); action_index(g).mask(s.legal_actions()); "
            "print(sorted(m for m in ('gymnasium', 'pettingzoo') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.strip() == "[]"


@pytest.mark.parametrize(("variant", "players"), SEATINGS)
def test_hidden_cards_never_change_the_encoding(variant, players):
    game = parlour.new_game(variant, players=players)
    enc = encoder(game)
    rng = random.Random(7)
    differed = 0
    for n, state in enumerate(_deals(game, 3, seed=players)):
        if n % 5:
            continue
        seat = rng.randrange(players)
        view = state.observation(seat)
        x = enc.encode(view)
        assert x.shape == (enc.size,) and x.dtype == np.float32
        assert x.min() >= -1 and x.max() <= 1
        other = view.sample_state(rng)  # the cards hidden from seat dealt anew
        assert np.array_equal(enc.encode(other.observation(seat)), x)
        zones, other_zones = state.zones(), other.zones()
        differed += any(zones[f"P{p}"] != other_zones[f"P{p}"] for p in range(players))
    assert differed  # the samples did move hidden cards


@pytest.mark.parametrize("variant", VARIANTS)
def test_encoding_names_every_entry_and_card_blocks_read_back(variant):
    game = parlour.new_game(variant)
    enc = encoder(game)
    names = enc.feature_names()
    assert len(names) == enc.size == len(set(names))
    hand = [i for i, name in enumerate(names) if name.startswith("hand:")]
    to_move = names.index("to_move:self")
    for state in _deals(game, 1, seed=3):
        if state.is_over:
            break
        view = state.observation(state.current_player)
        x = enc.encode(view)
        in_order = [str(CARDS[i]) for i in game.card_order() if CARDS[i] in view.hand]
        assert [names[i][5:] for i in hand if x[i]] == in_order
        assert x[to_move] == 1
    batch = [state.observation(0) for state in list(_deals(game, 1, seed=4))[:9]]
    stacked = enc.encode_batch(batch)
    assert np.array_equal(stacked, np.stack([enc.encode(o) for o in batch]))


def test_climbing_encoding_says_who_played_what():
    game = parlour.new_game("big-two")
    state = game.new_deal(seed=11)
    first = state.current_player
    play = state.legal_actions()[0]
    state.apply(play)
    names = encoder(game).feature_names()
    seat = (first + 1) % 4
    x = encoder(game).encode(state.observation(seat))
    played = {names[i] for i in np.flatnonzero(x) if names[i].startswith("played:")}
    assert played == {f"played:+3:{c}" for c in play.cards}  # the seat before this one
    assert x[names.index("table_by:+3")] == 1


def _full_fold(history):
    values = [0, 0, 0]
    _order_sensitive(values, history)
    return values


def _order_sensitive(values, actions):
    for seat, card in actions:
        values[seat] = (values[seat] * 53 + card + 1) % (1 << 61)


def test_history_fold_carried_on_equals_a_fold_of_the_whole_history():
    rng = random.Random(3)
    fold = HistoryFold(_order_sensitive, 3)
    fold.LIMIT = 8  # forgets often, as a long run would
    deals: list[tuple] = [tuple((rng.randrange(3), rng.randrange(52)) for _ in range(20))]
    asked = 0
    for _ in range(3000):
        roll = rng.random()
        h = rng.choice(deals)
        if roll < 0.6:  # a deal moves on by an action or a few
            h += tuple((rng.randrange(3), rng.randrange(52)) for _ in range(rng.randrange(1, 4)))
        elif roll < 0.75 and h:  # a branch from an earlier point (a cloned state)
            h = (*h[:rng.randrange(len(h))], (rng.randrange(3), rng.randrange(52)))
        elif roll < 0.85 and len(h) > 1:  # the same pair objects in another history
            h = (rng.choice(h), *h[1:]) if rng.random() < 0.5 else h[:-2] + h[-1:]
        elif roll < 0.9:  # equal values, new pair objects
            h = tuple((s, c) for s, c in h)
        deals.append(h)
        if len(deals) > 12:
            deals.pop(rng.randrange(len(deals)))
        assert fold(h) == _full_fold(h)
        asked += len(h) > HistoryFold.SHORT  # long enough to be carried on
    assert asked > 500


@pytest.mark.parametrize("variant", VARIANTS)
def test_encodings_carried_from_step_to_step_equal_fresh_ones(variant):
    # Interleaved deals and a branch, observed by every seat in turn: each encoding equals that
    # of the same observation with a history of new pair objects (which nothing carries on).
    game = parlour.new_game(variant)
    enc = encoder(game)
    rng = random.Random(5)
    states = [game.new_deal(seed=s) for s in range(3)]
    checked = 0
    for step in range(240):
        if step == 40:
            states.append(states[0].clone())
        i = rng.randrange(len(states))
        if states[i].is_over:
            states[i] = game.new_deal(seed=100 + step)
        state = states[i]
        view = state.observation(step % game.players)
        fresh = dataclasses.replace(view, history=tuple((s, a) for s, a in view.history))
        assert np.array_equal(enc.encode(view), enc.encode(fresh))
        checked += len(view.history) > 8
        state.apply(rng.choice(state.legal_actions()))
    assert checked > 100


@pytest.mark.parametrize("variant", VARIANTS)
def test_observations_are_exactly_what_their_dataclass_makes(variant):
    # Engines assemble observations without the frozen dataclass's __init__ (for speed): they
    # must hold exactly its fields and equal what __init__ makes.
    game = parlour.new_game(variant)
    for n, state in enumerate(_deals(game, 2, seed=5)):
        if n % 3:
            continue
        for seat in range(game.players):
            view = state.observation(seat)
            fields = {f.name: getattr(view, f.name) for f in dataclasses.fields(view)}
            assert set(vars(view)) == set(fields)
            made = type(view)(**fields)
            assert made == view and repr(made) == repr(view) and hash(made) == hash(view)


# -- Gymnasium single-agent env --------------------------------------------------------------

@pytest.mark.parametrize(("variant", "opponents", "seat", "players"), [
    ("rummy", ["greedy"], 0, 2), ("big-two-4card", "random", 2, 4),
    ("pusoy-dos", ["greedy", "random", "greedy"], 1, 4), ("forty-five", "greedy", 3, 4),
    ("spoil-five", "random", 4, 5), ("big-two", "greedy", 0, 4)])
def test_single_agent_env_passes_check_env(variant, opponents, seat, players):
    with warnings.catch_warnings():
        warnings.filterwarnings("ignore", message=".*alternative render modes.*")
        check_env(single_agent_env(variant, opponents=opponents, seat=seat, players=players))


def test_single_agent_env_plays_a_deal_with_masks_in_info():
    env = single_agent_env("rummy", opponents=["greedy"], seat=1, players=2)
    obs, info = env.reset(seed=4)
    state = env.state
    assert state.current_player == 1
    assert np.array_equal(info["action_mask"], env.action_masks())
    assert np.array_equal(obs, encoder(env.game).encode(state.observation(1)))
    rng = np.random.default_rng(0)
    done, reward, steps = False, 0.0, 0
    while not done:
        action = int(rng.choice(np.flatnonzero(info["action_mask"])))
        obs, reward, done, truncated, info = env.step(action)
        steps += 1
        assert not truncated
        assert state.is_over or state.current_player == 1
    assert reward == state.returns()[1] and steps > 5
    first, _ = env.reset(seed=4)  # the same seed: the same deal and the same bot moves
    history = env.state.history
    again, _ = env.reset(seed=4)
    assert np.array_equal(first, again) and env.state.history == history
    env.reset(seed=5)
    assert env.state.setup() != state.setup()


def test_single_agent_env_illegal_actions_and_arguments():
    env = single_agent_env("big-two-4card", illegal_action="raise")
    _, info = env.reset(seed=1)
    bad = int(np.flatnonzero(info["action_mask"] == 0)[0])
    before = env.state.history
    with pytest.raises(IllegalAction):
        env.step(bad)
    assert env.state.history == before
    ending = single_agent_env("big-two-4card", rewards="normalised")
    ending.reset(seed=1)
    _, reward, done, _, info = ending.step(bad)
    assert (reward, done, info["illegal_action"]) == (-1.0, True, True)
    assert not ending.action_masks().any()
    with pytest.raises(IllegalAction, match="reset"):  # the episode is over
        ending.step(bad)
    with pytest.raises(SeatError):
        single_agent_env("big-two", seat=4)
    with pytest.raises(VariantError, match="one opponent"):
        single_agent_env("big-two", opponents=["greedy", "random"])
    with pytest.raises(VariantError):
        single_agent_env("big-two", illegal_action="ignore")


# -- the batched env -------------------------------------------------------------------------

def test_batched_env_shapes_masks_and_observations_match_the_deals():
    env = batched_env("big-two-4card", num_envs=8, seed=3)
    step = env.reset()
    enc, idx = encoder(env.game), action_index(env.game)
    assert step.obs.shape == (8, enc.size) and step.obs.dtype == np.float32
    assert step.mask.shape == (8, idx.size) and step.mask.dtype == np.int8
    rng = np.random.default_rng(1)
    for _ in range(30):
        for row, state in enumerate(env.states):
            p = state.current_player
            assert step.player[row] == p
            view = state.observation(p)
            assert np.array_equal(step.obs[row], enc.encode(view))
            assert np.array_equal(step.mask[row], idx.mask(state.legal_actions(), view))
            legal = step.legal[step.offsets[row]:step.offsets[row + 1]]
            assert np.array_equal(legal, np.flatnonzero(step.mask[row]))
        step = env.step(sample_legal(step, rng))


def test_batched_env_auto_resets_with_the_deals_returns():
    env = batched_env("forty-five", num_envs=16, seed=9, rewards="normalised")
    step = env.reset()
    rng = np.random.default_rng(2)
    finished = 0
    for _ in range(60):
        states = list(env.states)
        step = env.step(sample_legal(step, rng))
        for row in np.flatnonzero(step.done):
            ended = states[row]
            assert ended.is_over and env.states[row] is not ended
            expected = np.array(ended.returns()) / reward_scale(env.game)
            assert np.allclose(step.rewards[row], expected)
            assert not env.states[row].is_over and step.mask[row].any()
            finished += 1
        assert not step.rewards[~step.done].any()
    assert finished >= 16


def test_batched_env_is_reproducible_and_refuses_illegal_actions():
    runs = []
    for _ in range(2):
        env = batched_env("rummy", num_envs=4, players=3, seed=21)
        step = env.reset()
        rng = np.random.default_rng(5)
        arrays = []
        for _ in range(40):
            step = env.step(sample_legal(step, rng))
            arrays.append((step.obs.copy(), step.mask.copy(), step.rewards.copy()))
        runs.append(arrays)
    for a, b in zip(*runs, strict=True):
        assert all(np.array_equal(x, y) for x, y in zip(a, b, strict=True))
    histories = [s.history for s in env.states]
    bad = sample_legal(step, rng)
    bad[2] = int(np.flatnonzero(step.mask[2] == 0)[0])
    step.mask[2] = 1  # writing into a returned mask does not make anything legal
    with pytest.raises(IllegalAction, match="deal 2"):
        env.step(bad)
    assert [s.history for s in env.states] == histories
    with pytest.raises(IllegalAction):
        env.step([0, 1])
    for bad in (0, MAX_ENVS + 1, 2**62):
        with pytest.raises(VariantError, match="num_envs must be a number of deals from 1 to"):
            batched_env("rummy", num_envs=bad)
    # The compiled batch refuses as much, rather than ask for more memory than there is.
    fast = compiled(parlour.new_game("rummy"))
    assert fast is not None
    with pytest.raises(ValueError, match="a batch has 1 to"):
        BatchedCore(fast.core, 2**62, random.Random(0).getstate()[1], 1.0)


@pytest.mark.parametrize("variant", VARIANTS)
def test_batched_env_gives_the_same_arrays_on_one_thread_or_two(variant):
    """Over 12,000 row steps (many deals ending and dealt again), every array equal."""
    envs = [batched_env(variant, num_envs=61, seed=3, threads=n) for n in (1, 2)]
    assert [e._rows._core.threads for e in envs] == [1, 2]  # type: ignore[attr-defined]
    steps = [e.reset() for e in envs]
    rng, ended = np.random.default_rng(8), 0
    for _ in range(200):
        for a, b in zip(*steps, strict=True):
            assert np.array_equal(a, b)
        ended += int(steps[0].done.sum())
        actions = sample_legal(steps[0], rng)
        steps = [e.step(actions) for e in envs]
    assert ended >= 3 if variant == "rummy" else ended > 100
    assert envs[0]._rows.seeds() == envs[1]._rows.seeds()
    for bad in (0, MAX_THREADS + 1, 1.5, True):
        with pytest.raises(VariantError, match="threads must be a number from 1 to"):
            batched_env(variant, num_envs=2, threads=bad)


@pytest.mark.parametrize("variant", VARIANTS)
def test_every_variant_is_made_by_its_environment_id(variant):
    import gymnasium

    import parlour.interop.gymnasium  # noqa: F401  (registers the ids)

    name = env_id(variant)
    assert name in gymnasium.registry and env_ids()[name] == variant
    env = gymnasium.make(name, opponents=["greedy"], seat=1, rewards="normalised")
    direct = single_agent_env(variant, opponents=["greedy"], seat=1, rewards="normalised")
    assert env.unwrapped.game == direct.game
    assert (env.observation_space, env.action_space) == (direct.observation_space,
                                                         direct.action_space)
    obs, _ = env.reset(seed=4)
    assert np.array_equal(obs, direct.reset(seed=4)[0])
    assert aec_env(name).game == batched_env(name, num_envs=2).game == direct.game


def test_an_environment_id_takes_players_and_options_and_refuses_what_is_no_id():
    import gymnasium

    import parlour.interop.gymnasium  # noqa: F401  (registers the ids)

    env = gymnasium.make("parlour/Rummy-v0", players=3, hand_size=7)
    assert env.unwrapped.game.players == 3 and env.unwrapped.game.options.hand_size == 7
    with pytest.raises(VariantError, match="unknown environment id 'parlour/Chess-v0'"):
        batched_env("parlour/Chess-v0")
    # In a fresh interpreter, parlour.envs imported first: the module path registers the ids.
    code = ("import parlour.envs, gymnasium; "
            "env = gymnasium.make('parlour.interop.gymnasium:parlour/Rummy-v0'); "
            "print(env.unwrapped.game.name, gymnasium.make('parlour/BigTwo-v0').spec.id)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=True)
    assert done.stdout.split() == ["rummy", "parlour/BigTwo-v0"]


def test_the_ids_table_of_the_docs_says_each_environments_spaces():
    import gymnasium

    import parlour.interop.gymnasium  # registers the ids

    rows = re.findall(r"^\| `(parlour/\S+)` \| (\S+) \| (\d+) \(([^)]*)\) \| `Box\(-1, 1, "
                      r"\((\d+),\), float32\)` \| `Discrete\((\d+)\)` \|$",
                      (ROOT / "docs" / "rl.md").read_text(), re.M)
    assert [r[0] for r in rows] == list(env_ids())
    for name, variant, players, allowed, size, actions in rows:
        env = gymnasium.make(name)
        game = env.unwrapped.game
        assert (game.name, game.players) == (variant, int(players))
        counts = parlour.registry.get_variant(variant).players
        assert allowed == parlour.registry.player_counts_text(counts).replace(" or ", ", ")
        assert env.observation_space.shape == (int(size),)
        assert env.action_space.n == int(actions)


# -- the example -----------------------------------------------------------------------------

def test_example_learns_to_beat_random():
    path = Path(__file__).resolve().parents[1] / "examples" / "reinforce_big_two_4card.py"
    spec = importlib.util.spec_from_file_location("reinforce_big_two_4card", path)
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    policy = example.train(150, seed=3)
    mean, low, high = example.evaluate(policy, 200, seed=777)
    assert low > 0, (mean, low, high)  # a random player in that seat averages 0


def _example(name, monkeypatch):
    path = Path(__file__).resolve().parents[1] / "examples" / f"{name}.py"
    spec = importlib.util.spec_from_file_location(name, path)
    example = importlib.util.module_from_spec(spec)
    # Its dataclasses look their module up by name while the module runs.
    monkeypatch.setitem(sys.modules, name, example)
    spec.loader.exec_module(example)
    return example


def test_selfplay_example_learns_to_beat_random(monkeypatch):
    # The example registers its ``selfplay`` bot: keep that out of the other tests' bot list.
    monkeypatch.setattr(bots_base, "_BOTS", dict(bots_base._BOTS))
    example = _example("selfplay_big_two_4card", monkeypatch)
    # ~300 deals of self-play, a few seconds. Untrained, the net scores every action alike and
    # passes whenever it may (about -25 points a deal against random); with random weights it
    # is about -4.
    trained = example.train(example.Config(seed=3, num_envs=64, batch=128), steps=300)
    assert trained.net.updates > 20 and trained.deals > 200
    result = example.evaluate(trained.net, trained.features, 40, seed=5, opponent="random")
    (pair,) = head_to_head(result)
    assert (pair.first, pair.second, pair.deals) == ("selfplay", "random", 40)
    assert pair.mean - pair.half > 0, pair


def test_selfplay_example_reproduces_and_saves(tmp_path, monkeypatch, capsys):
    monkeypatch.setattr(bots_base, "_BOTS", dict(bots_base._BOTS))
    example = _example("selfplay_big_two_4card", monkeypatch)
    out = tmp_path / "w.npz"
    # The command line's defaults with a small batch, so that 150 steps of 32 deals update.
    example.main(["--steps", "150", "--envs", "32", "--batch", "64", "--seed", "4", "--eval", "0",
                  "--out", str(out)])
    saved, meta = example.QNet.load(out)
    assert meta["steps"] == 150 and meta["config"]["seed"] == 4
    again = example.train(example.Config(seed=4, num_envs=32, batch=64), steps=150).net
    assert again.updates > 0
    assert saved.params.keys() == again.params.keys()
    for name, weights in again.params.items():
        assert np.array_equal(saved.params[name], weights), name
    other = example.train(example.Config(seed=5, num_envs=32, batch=64), steps=150).net
    assert not np.array_equal(other.params["w2"], again.params["w2"])
    capsys.readouterr()
    example.main(["--eval-only", str(out), "--eval", "2", "--opponent", "random"])
    printed = capsys.readouterr().out
    assert "selfplay − random" in printed and "(2 duplicate deals" in printed


def test_jax_ppo_example_learns_to_beat_random(monkeypatch):
    example = _example("ppo_jax_forty_five", monkeypatch)
    # 30 updates of 128 deals x 32 steps (about 12,000 two-player deals), some 15 seconds.
    cfg = example.Config(seed=3, steps=960)
    params, losses = example.train(cfg, report=lambda line: None)
    assert len(losses) == 30 and np.isfinite(losses).all()
    # The same 600 deals, each played twice (the policy in either seat), against `random`:
    # the untrained network (played by its argmax) scores -0.09 points a deal there, the trained
    # one +0.93 ± 0.25 (greedy +1.49).
    before, _ = example.evaluate(example.new_params(cfg), 2, "random", 600, seed=5)
    after, half = example.evaluate(params, 2, "random", 600, seed=5)
    assert after - half > 0 and after > before + 0.5, (before, after, half)


def test_jax_ppo_example_reproduces_from_its_seed(monkeypatch, capsys):
    example = _example("ppo_jax_forty_five", monkeypatch)

    def run(seed):
        params, losses = example.train(example.Config(seed=seed, envs=16, steps=48, rollout=16),
                                       report=lambda line: None)
        return {k: np.asarray(v) for k, v in params.items()}, losses

    first, again, other = run(4), run(4), run(5)
    assert first[1] == again[1] and first[1] != other[1]
    for name, weights in first[0].items():
        assert np.array_equal(weights, again[0][name]), name
    assert not np.array_equal(first[0]["w1"], other[0]["w1"])
    # The command line with the same settings (so nothing is compiled again) prints the losses.
    example.main(["--seed", "4", "--envs", "16", "--steps", "48", "--rollout", "16", "--eval", "3"])
    printed = capsys.readouterr().out
    assert re.findall(r"loss ([-+.\d]+)", printed) == [f"{loss:+.4f}" for loss in first[1]]
    for opponent in ("random", "greedy"):
        assert f"trained policy - {opponent}:" in printed and "(3 deals x 2 seatings" in printed


def test_an_engine_busy_applying_a_move_is_an_error_to_read_not_a_crash() -> None:
    """Converting a move to an int may run Python code (its ``__index__``) while the engine
    applies it; reading that engine from there is refused with an ordinary error."""
    game = parlour.new_game("big-two-4card")
    fast = compiled(game)
    assert fast is not None
    state = game.new_deal(seed=1)
    engine = state._e  # type: ignore[attr-defined]
    errors: list[Exception] = []

    class Reentrant:
        def __index__(self) -> int:
            try:
                fast.core.legal(engine)
            except Exception as e:  # a panic would not be an Exception, and would escape
                errors.append(e)
            return 0

    before = state.legal_actions()
    assert engine.apply(Reentrant()) < 0  # refused: 0 is no play
    assert [type(e) for e in errors] == [RuntimeError]
    assert state.legal_actions() == before


@pytest.mark.parametrize("scale", [0.0, -1.0, float("nan"), float("inf")])
def test_the_compiled_encoders_refuse_a_scale_that_is_no_divisor(scale: float) -> None:
    """A scale of 0 or NaN would make every observation NaN; the wrappers pass the game's own,
    and the compiled constructors refuse any other as well."""
    trump = parlour.new_game("forty-five")
    scores, pool = trump._deal_args({})  # type: ignore[attr-defined]
    with pytest.raises(ValueError, match="score_scale must be a finite number above 0"):
        EnvCore.trump(trump.rules.core, 4, scale, [float(v) for v in scores], float(pool))
    for turns in (scale, 0.5):  # rummy's is its turn limit: as the network's, from 1
        with pytest.raises(ValueError, match="turn_scale must be a finite number from 1"):
            EnvCore.rummy(2, False, True, 1000, turns, 10)
