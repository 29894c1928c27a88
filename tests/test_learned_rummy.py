"""Rummy's self-play networks: their move features against the rules' own meld tests, the
shipped weights as the ``learned`` bot of 2- and 4-player Rummy (and of no other rules), as
the searching levels' guide and, compiled, as a search's playout policy, and a tiny training
run."""

from __future__ import annotations

import dataclasses
import random
import sys
from itertools import combinations
from pathlib import Path

import numpy as np
import pytest

import parlour
from parlour import ParlourError
from parlour._core import RummyNet
from parlour.bots import GreedyBot, SearchBot, make_bot
from parlour.bots import base as bots_base
from parlour.bots.learned import (
    LearnedBot,
    load_policy,
    network_playouts,
    policy_for,
    prior,
)
from parlour.bots.learned.network import QNet, features_for
from parlour.bots.levels import level_config
from parlour.bots.search import Playouts, SearchConfig
from parlour.envs import action_index, encoder
from parlour.errors import DealError
from parlour.games.rummy.actions import (
    DISCARD,
    DRAW_DISCARD,
    DRAW_STOCK,
    INTERNED,
    LAYOFF,
    MELD,
)
from parlour.games.rummy.features import COLUMNS, KINDS, RummyFeatures
from parlour.games.rummy.melds import extensions, is_group, is_meld, mask_value, rummy_mask
from parlour.games.rummy.observation import RummyObservation
from parlour.training.dmc import Config, Trainer

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "training"))
import selfplay as training


def in_a_meld(hand: int) -> int:
    """The cards of ``hand`` (a layout mask) that make a meld with two others of it."""
    bits = [1 << i for i in range(52) if hand >> i & 1]
    out = 0
    for a, b, c in combinations(bits, 3):
        if is_meld(a | b | c):
            out |= a | b | c
    return out


def with_partner(hand: int) -> int:
    """The cards of ``hand`` with another of their rank, or of their suit within two ranks."""
    out = 0
    for i in range(52):
        for j in range(52):
            near = i // 13 == j // 13 and 0 < abs(i - j) <= 2
            if i != j and hand >> i & 1 and hand >> j & 1 and (near or i % 13 == j % 13):
                out |= 1 << i
    return out


def bits(row: np.ndarray) -> int:
    return sum(1 << i for i in np.flatnonzero(row))


def test_each_legal_move_is_described_as_the_rules_see_it() -> None:
    game = parlour.new_game("rummy")
    features = features_for(game)
    assert isinstance(features, RummyFeatures)
    enc, index = encoder(game), action_index(game)
    k = len(KINDS)
    col = {name: k + 104 + j for j, name in enumerate(COLUMNS)}
    seen = dict.fromkeys(("draw_discard", "meld", "layoff", "goes_out", "feeds", "breaks"), 0)
    for seed in range(8):
        state = game.new_deal(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            obs = state.observation(state.current_player)
            legal = state.legal_actions()
            at = np.array(index.indices(legal, obs), dtype=np.int64)
            rows = features.rows(at, enc.encode(obs)[None, :], np.zeros(at.size, np.int64))
            hand = rummy_mask(obs.hand)
            for action, row in zip(legal, rows, strict=True):
                kind, cards = action.kind, action.cards
                if kind == DRAW_DISCARD:
                    cards = rummy_mask([obs.discard[-1]])
                    seen["draw_discard"] += 1
                after = hand | cards if kind == DRAW_DISCARD else hand & ~cards
                expected_kind = {DRAW_STOCK: 0, DRAW_DISCARD: 1, DISCARD: 2}.get(kind)
                if kind == MELD:
                    expected_kind = 4 if is_group(cards) else 3
                    seen["meld"] += 1
                if kind == LAYOFF:
                    expected_kind = 5 if is_group(rummy_mask(obs.melds[action.target])) else 6
                    seen["layoff"] += 1
                assert row[:k].tolist() == [float(j == expected_kind) for j in range(k)]
                assert bits(row[k:k + 52]) == cards
                assert bits(row[k + 52:k + 104]) == after
                assert row[col["points"]] == pytest.approx(mask_value(cards) / 100)
                assert row[col["cards"]] == pytest.approx(cards.bit_count() / 13)
                assert row[col["left"]] == pytest.approx(after.bit_count() / 26)
                out = after == 0 and kind not in (DRAW_STOCK, DRAW_DISCARD)
                assert row[col["goes_out"]] == out
                seen["goes_out"] += out
                melded = in_a_meld(after)
                assert row[col["in_meld"]] == pytest.approx(melded.bit_count() / 10)
                assert row[col["deadwood"]] == pytest.approx(mask_value(after & ~melded) / 100)
                assert row[col["loose"]] == pytest.approx(
                    mask_value(after & ~with_partner(after)) / 100)
                change = melded.bit_count() - in_a_meld(hand).bit_count()
                changes = kind in (DRAW_STOCK, DRAW_DISCARD, DISCARD)
                assert row[col["meld_change"]] == pytest.approx(change / 4 if changes else 0.0)
                seen["breaks"] += changes and change < 0
                feeds = kind == DISCARD and any(extensions(rummy_mask(m), cards)
                                                 for m in obs.melds)
                assert row[col["feeds"]] == feeds
                seen["feeds"] += feeds
            state.apply(rng.choice(legal))
    assert all(seen.values()), seen


def test_the_features_refuse_another_family() -> None:
    with pytest.raises(ParlourError, match="for rummy, not big-two"):
        RummyFeatures(parlour.new_game("big-two"))


def position(players: int, seed: int = 5) -> parlour.State:
    """A position of a deal at ``players`` seats after a few greedy moves, with a choice."""
    state = parlour.new_game("rummy", players=players).new_deal(seed=seed)
    rng = random.Random(seed)
    for _ in range(7):
        state.apply(GreedyBot().choose(state.observation(state.current_player),
                                       state.legal_actions(), rng))
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    return state


@pytest.mark.parametrize("players", [2, 4])
def test_the_network_plays_two_and_four_player_rummy(players: int) -> None:
    policy = load_policy("rummy", players)
    assert policy is not None and policy.features.game.players == players
    state = position(players)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    assert policy_for(obs) is policy
    scores = policy.scores(obs, legal)
    action, why = LearnedBot().choose_explained(obs, legal, random.Random(1))
    assert action == legal[int(np.argmax(scores))]
    assert why.startswith(f"{action.words()}: the learned network expects")
    # trained on its lead over the table, which is what wins at Rummy, and it says so
    assert policy.relative and "points over the others' average after it" in why
    assert LearnedBot().choose(obs, legal, random.Random(9)) == action  # no randomness
    # A search's guide; the levels play its worlds out with greedy, an experiment may with the
    # network
    assert not any(level_config(level, "rummy").network_playouts
                   for level in ("medium", "hard", "expert"))
    assert network_playouts(obs) is policy.compiled()
    # A series is played by the deal's rules: the network plays it
    series = parlour.new_game("rummy", players=players, series_target=500).new_deal(seed=5)
    assert policy_for(series.observation(0)) is policy


def test_other_player_counts_and_rules_are_played_without_it() -> None:
    for other, which in ((position(3), "3-player rummy"),
                         (parlour.new_game("rummy", score_melds=False).new_deal(seed=5),
                          "rummy with these options")):
        while len(other.legal_actions()) < 2:
            other.apply(other.legal_actions()[0])
        o, moves = other.observation(other.current_player), other.legal_actions()
        assert policy_for(o) is None
        action, why = LearnedBot().choose_explained(o, moves, random.Random(3))
        assert action == GreedyBot().choose(o, moves, random.Random(3))
        assert why.endswith(f"(no learned weights for {which})")


def test_the_network_guides_rummys_search_which_plays_out_with_greedy() -> None:
    state = position(2, seed=11)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    policy = load_policy("rummy")
    assert policy is not None and policy_for(obs) is policy
    scores = prior(obs, legal, random.Random(0))
    assert scores is not None
    # hard: the network's best moves lead the candidates, its choice first (the one kept unless
    # clearly beaten), played out by greedy at the plain budget: a network budget changes
    # nothing where greedy plays the worlds out
    hard = level_config("hard", "rummy")
    assert hard.guided and not hard.network_playouts and hard.keep_policy == 2.0
    result = make_bot("hard").search(obs, legal, random.Random(2))
    assert result.candidates[0].action == legal[int(np.argmax(scores))]

    def values(config: SearchConfig) -> list[list[float]]:
        return [c.values for c in SearchBot(config).search(obs, legal, random.Random(2)).candidates]

    budget = 1_500
    assert budget != hard.iterations
    assert [c.values for c in result.candidates] == values(
        hard.replace(network_iterations=budget))
    # Played out by the network instead, at the network budget: another search.
    played = SearchBot(hard.replace(network_playouts=True, network_iterations=budget)).search(
        obs, legal, random.Random(2))
    assert 0 < played.iterations <= budget
    assert [c.values for c in played.candidates] != [c.values for c in result.candidates]


@pytest.mark.parametrize("players", [2, 4])
def test_the_compiled_network_scores_every_move_as_the_bot_does(players: int) -> None:
    policy = load_policy("rummy", players)
    assert policy is not None
    net = policy.compiled()
    assert isinstance(net, RummyNet) and net is policy.compiled()  # made once
    game, rng, kinds = policy.features.game, random.Random(players), set()
    for seed in range(3):
        state = game.new_deal(seed=seed)
        while not state.is_over:
            legal = state.legal_actions()
            points = policy.scores(state.observation(state.current_player), legal)
            compiled = dict(net.scores(state._core))  # type: ignore[attr-defined]
            # the bot's scores are the compiled network's, to the bit
            assert points.tolist() == [float(compiled[int(a)]) * policy.scale for a in legal]
            kinds.update(int(a) & 7 for a in legal)
            state.apply(rng.choice(legal))
    assert kinds == {DRAW_STOCK, DRAW_DISCARD, MELD, LAYOFF, DISCARD}  # every kind scored


def test_a_searchs_worlds_carry_the_discards_the_network_reads(
        monkeypatch: pytest.MonkeyPatch) -> None:
    # The engine keeps no history: a sampled world's discards come from the observation's
    # record, so the compiled network scores the world as numpy scores its observation.
    policy = load_policy("rummy")
    assert policy is not None
    net = policy.compiled()
    assert isinstance(net, RummyNet)
    state = position(2, seed=8)
    for _ in range(12):
        state.apply(GreedyBot().choose(state.observation(state.current_player),
                                       state.legal_actions(), random.Random(1)))
    obs = state.observation(state.current_player)
    assert any(a.kind == DISCARD for _, a in obs.history)
    world = obs.sample_state(random.Random(2))
    legal = world.legal_actions()
    expected = policy.scores(world.observation(world.current_player), legal) / policy.scale
    core = obs._knowledge().sample(INTERNED, 7)
    compiled = dict(net.scores(core))
    assert np.allclose([compiled[int(a)] for a in legal], expected, atol=1e-5)
    fresh = dataclasses.replace(obs)  # without the knowledge made above
    monkeypatch.setattr(RummyObservation, "_discarded", lambda self: [0])
    with pytest.raises(DealError, match="one set of discarded cards per seat"):
        fresh._knowledge()


def test_network_playouts_are_reproducible_and_refuse_other_rules() -> None:
    policy = load_policy("rummy")
    assert policy is not None
    state = position(2, seed=3)
    obs, legal = state.observation(state.current_player), state.legal_actions()

    def values(playouts: Playouts | None = None, threads: int = 1) -> list[list[float]]:
        bot = SearchBot(SearchConfig(iterations=60, min_worlds=4, threads=threads),
                        playouts=playouts)
        return [c.values for c in bot.search(obs, legal, random.Random(3)).candidates]

    def net(_: object) -> object:
        return policy.compiled()

    assert values(playouts=net) == values(playouts=net, threads=2)
    assert values(playouts=net) != values()  # not greedy's rollouts
    other = position(4)
    with pytest.raises(ValueError, match="made for other rummy rules"):
        SearchBot(SearchConfig(iterations=20), playouts=net).search(
            other.observation(other.current_player), other.legal_actions(), random.Random(1))
    p = policy.net.params
    with pytest.raises(ValueError, match="do not fit"):
        RummyNet(2, False, True, 1000, 1000.0, p["w1o"], p["w1a"][1:], p["b1"], p["w2"],
                 p["b2"], p["w3"], 0.0)
    with pytest.raises(ValueError, match="no rummy deal of 5 seats"):
        RummyNet(5, False, True, 1000, 1000.0, p["w1o"], p["w1a"], p["b1"], p["w2"], p["b2"],
                 p["w3"], 0.0)
    for turns in (0.5, float("inf"), float("nan")):  # the encoders' rule: a turn limit, from 1
        with pytest.raises(ValueError, match="a turn limit of"):
            RummyNet(2, False, True, 1000, turns, p["w1o"], p["w1a"], p["b1"], p["w2"], p["b2"],
                     p["w3"], 0.0)


def test_a_tiny_rummy_run_trains_for_its_player_count_on_relative_returns(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(bots_base, "_BOTS", dict(bots_base._BOTS))  # the script registers a bot
    weights = tmp_path / "w.npz"
    assert training.main(["--run", str(tmp_path / "run"), "--variant", "rummy", "--players", "3",
                          "--relative", "--envs", "8", "--batch", "32", "--piece-steps", "150",
                          "--pieces", "1", "--eval-deals", "1", "--eval-every", "1",
                          "--export", str(weights)]) == 0
    net, meta = QNet.load(weights)
    assert meta["config"]["players"] == 3 and meta["config"]["relative"] is True
    assert "--variant rummy --players 3 --relative --seed 1 " in meta["command"]
    game = parlour.new_game("rummy", players=3)
    assert net.params["w1o"].shape[0] == encoder(game).size
    assert net.params["w1a"].shape[0] == RummyFeatures(game).width
    # the same run's targets on its own returns differ: the option is applied
    own = Trainer(Config(variant="rummy", players=3, num_envs=8, batch=32))
    rel = Trainer(Config(variant="rummy", players=3, num_envs=8, batch=32, relative=True))
    for trainer in (own, rel):
        trainer.piece(150)
        assert trainer.net.updates > 0
    assert not np.array_equal(own.net.params["w3"], rel.net.params["w3"])
