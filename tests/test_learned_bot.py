"""The self-play network of big-two-4card: its shipped weights, the ``learned`` bot, the training
pipeline at a tiny size, and the search it guides.

Strength against other bots is measured with the arena (README, "Bots"); here only that the
shipped weights are the trained ones, well clear of ``greedy`` on a few deals.
"""

from __future__ import annotations

import dataclasses
import functools
import json
import math
import random
import sys
import types
from pathlib import Path
from typing import Any

import numpy as np
import pytest

import parlour
from parlour import ParlourError
from parlour._core import ClimbingNet, Network, Race, TrumpNet
from parlour.arena.core import run_arena
from parlour.arena.stats import head_to_head
from parlour.bots import GreedyBot, Inference, Opponents, SearchBot, make_bot
from parlour.bots import base as bots_base
from parlour.bots import learned as learned_module
from parlour.bots.learned import (
    LearnedBot,
    load_policy,
    network_playouts,
    policy_for,
    prior,
    weights,
)
from parlour.bots.learned.network import ARRAYS, FORMAT, QNet, features_for
from parlour.bots.levels import level_config
from parlour.bots.search import Playouts, SearchConfig, SearchResult, policy_order
from parlour.envs import action_index, encoder
from parlour.game import Observation, State
from parlour.games.climbing.features import ClimbingFeatures
from parlour.games.rummy.features import RummyFeatures
from parlour.games.trump.features import COLUMNS as TRUMP_COLUMNS
from parlour.games.trump.features import TrumpFeatures
from parlour.games.trump.ranking import (
    DEMOTED_POWER,
    POWER,
    TRUMP_BASE,
    plain_order,
    trick_winner,
    trump_order,
)
from parlour.training.dmc import Config, Trainer

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "training"))
import selfplay as training  # noqa: E402

VARIANT = "big-two-4card"


def position(variant: str = VARIANT, moves: int = 6, seed: int = 21,
             players: int | None = None) -> State:
    """A position after about ``moves`` greedy moves where the seat to move has a choice."""
    state = parlour.new_game(variant, players=players).new_deal(seed=seed)
    rng = random.Random(seed)
    while moves > 0 or len(state.legal_actions()) < 2:
        p = state.current_player
        state.apply(GreedyBot().choose(state.observation(p), state.legal_actions(), rng))
        moves -= 1
    assert not state.is_over
    return state


#: Every shipped network: its variant and number of players.
SHIPPED = [(v.name, players) for v in parlour.variants() for players in weights(v.name)]


def playouts(observation: Observation) -> object:
    """The levels' playout policy: the network where ``expert`` plays its worlds out with it
    (not in Rummy), else greedy's (``None``)."""
    if level_config("expert", observation.game.name).network_playouts:
        return network_playouts(observation)
    return None


@pytest.mark.parametrize(("variant", "players"), SHIPPED)
def test_the_shipped_weights_load_and_match_their_metadata(variant: str, players: int) -> None:
    policy = load_policy(variant, players)
    assert policy is not None and load_policy("no-such-game") is None
    assert policy.features.game.players == players
    meta = policy.metadata
    assert meta["format"] == FORMAT and meta["variant"] == variant
    command = meta["command"]
    assert command.startswith("python training/selfplay.py ")
    assert f"--variant {variant} " in command
    assert f"--pieces {meta['pieces']}" in command and f"--seed {meta['config']['seed']}" in command
    default = parlour.new_game(variant).players
    assert (f"--players {players} " in command) == (players != default)
    assert ("--relative " in command) == meta["config"].get("relative", False)
    params = policy.net.params
    hidden = meta["config"]["hidden"]
    # A fine-tuned network says how its starting weights were made: a run of the same network.
    assert (" --init BASE " in command) == ("init" in meta)
    if "init" in meta:
        base = meta["init"]
        assert base["variant"] == variant and base["config"]["hidden"] == hidden
        assert base["command"].startswith("python training/selfplay.py ")
    # A distilled one says which network it learned from, and that network's file is kept in
    # the repository (its command writes TEACHER), made as its own metadata says.
    assert (" --teacher TEACHER " in command) == ("teacher" in meta)
    if "teacher" in meta:
        teacher = ROOT / meta["config"]["teacher"]
        assert teacher.parent == ROOT / "training" / "teachers"
        assert QNet.load(teacher)[1] == meta["teacher"]
    size = encoder(parlour.new_game(variant, players=players)).size
    assert params["w1o"].shape == (size, hidden[0])
    assert params["w1a"].shape == (policy.features.width, hidden[0])
    assert params["w2"].shape == tuple(hidden)
    assert weights(variant)[players].stat().st_size < 3_000_000


#: What a few duplicate deals show of each shipped network's margin over ``greedy``: the deals
#: and the lower end of the 95% interval (the documentation's figures are over 2,000 deals).
#: The trump games' margins are a tenth of a point, so they take more deals to show.
SHOWN_MARGIN = {("big-two-4card", 4): (12, 2.0), ("big-two", 4): (12, 1.0),
                ("pusoy-dos", 4): (12, 0.3), ("forty-five", 4): (400, 0.0),
                ("spoil-five", 4): (400, 0.0), ("rummy", 2): (100, 0.0), ("rummy", 4): (50, 0.0)}


@pytest.mark.parametrize(("variant", "players"), SHIPPED)
def test_the_shipped_network_beats_greedy_on_a_few_deals(variant: str, players: int) -> None:
    deals, shown = SHOWN_MARGIN[variant, players]
    result = run_arena(parlour.new_game(variant, players=players), ["learned", "greedy"], deals,
                       seed=77, duplicate=True)
    (pair,) = head_to_head(result)
    assert pair.mean - pair.half > shown, pair


def test_the_bot_plays_legal_moves_through_whole_deals() -> None:
    game = parlour.new_game(VARIANT)
    bots = [LearnedBot(), GreedyBot(), LearnedBot(), GreedyBot()]
    for deal in range(3):
        state = game.new_deal(seed=deal)
        rng = random.Random(deal)
        while not state.is_over:
            p = state.current_player
            legal = state.legal_actions()
            action, why = bots[p].choose_explained(state.observation(p), legal, rng)
            assert action in legal and why
            state.apply(action)
        assert sum(state.returns()) == 0


def test_the_choice_depends_on_the_observation_alone() -> None:
    state = position()
    seat = state.current_player
    obs = state.observation(seat)
    other = obs.sample_state(random.Random(5))
    assert other.observation(seat) == obs
    assert [other.observation(s).hand for s in range(4)] != \
           [state.observation(s).hand for s in range(4)]
    mine = LearnedBot().choose_explained(obs, state.legal_actions(), random.Random(1))
    theirs = LearnedBot().choose_explained(other.observation(seat), other.legal_actions(),
                                           random.Random(1))
    assert mine == theirs


def test_the_bot_explains_its_choice_and_is_deterministic() -> None:
    state = position(moves=9)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    choices = {LearnedBot().choose_explained(obs, legal, random.Random(i)) for i in range(3)}
    assert len(choices) == 1
    (action, why), = choices
    assert why.startswith(f"{action.words()}: the learned network expects ")
    assert "more than after the next best" in why
    scores = prior(obs, legal, random.Random(0))
    assert scores is not None and legal[int(np.argmax(scores))] == action
    assert abs(sum(scores)) < 1e-6  # advantages: centred on the legal moves' mean
    assert make_bot("learned").choose(obs, legal, random.Random(0)) == action


@pytest.mark.parametrize("options", [{"allow_triples": True}, {"straights": "hong-kong"},
                                     {"flush_order": "top-card"},
                                     {"pass_only_if_no_legal_play": True}])
def test_rules_the_network_was_not_trained_on_are_played_without_it(
        options: dict[str, object]) -> None:
    # Its action index and encoding are those of the default rules: another play, or the same
    # play under other rules, is not what it learned.
    state = parlour.new_game("big-two", **options).new_deal(seed=3)
    for _ in range(4):  # past the opening, to positions with a choice
        state.apply(GreedyBot().choose(state.observation(state.current_player),
                                       state.legal_actions(), random.Random(0)))
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    obs, legal = state.observation(state.current_player), state.legal_actions()
    assert policy_for(obs) is None and playouts(obs) is None
    action, why = LearnedBot().choose_explained(obs, legal, random.Random(3))
    assert action == GreedyBot().choose(obs, legal, random.Random(3))
    assert why.endswith("(no learned weights for big-two with these options)")
    for level in ("hard", "expert"):  # searched with greedy playouts, as in an unguided variant
        assert make_bot(level).choose(obs, legal, random.Random(1)) in legal


@pytest.mark.parametrize(("variant", "options"), [
    ("big-two", {"match_end": "deals", "deals": 3}), ("forty-five", {"target": 25}),
    ("spoil-five", {"starting_chips": 30, "deals": 5})])
def test_options_of_the_match_alone_keep_the_network(variant: str,
                                                     options: dict[str, object]) -> None:
    state = parlour.new_game(variant, **options).new_deal(seed=3)
    obs = state.observation(state.current_player)
    assert policy_for(obs) is load_policy(variant) is not None


@pytest.mark.parametrize(("variant", "options"), [
    ("forty-five", {"scoring": "alternative"}), ("forty-five", {"silent_ace": True}),
    ("spoil-five", {"jinking": True}), ("spoil-five", {"ante": 2}),
    ("forty-five", {"players": 6})])
def test_trump_rules_the_network_was_not_trained_on_are_played_without_it(
        variant: str, options: dict[str, object]) -> None:
    state = parlour.new_game(variant, **options).new_deal(seed=3)
    while len(state.legal_actions()) < 2:
        state.apply(state.legal_actions()[0])
    obs = state.observation(state.current_player)
    assert policy_for(obs) is None and playouts(obs) is None
    assert "no learned weights" in LearnedBot().choose_explained(
        obs, state.legal_actions(), random.Random(0))[1]


def test_weights_of_another_format_or_broken_files_are_refused(tmp_path: Path) -> None:
    policy = load_policy(VARIANT)
    assert policy is not None
    good = tmp_path / "good.npz"
    policy.net.save(good, {"variant": VARIANT})
    net, meta = QNet.load(good)
    assert meta["format"] == FORMAT
    assert all(np.array_equal(net.params[k], policy.net.params[k]) for k in ARRAYS)
    arrays = dict(np.load(good))
    arrays["metadata"] = np.array(json.dumps({"format": FORMAT + 1}))
    np.savez(tmp_path / "newer.npz", **arrays)
    with pytest.raises(ParlourError, match=f"reads format {FORMAT}"):
        QNet.load(tmp_path / "newer.npz")
    del arrays["w3"]
    np.savez(tmp_path / "short.npz", **arrays)
    with pytest.raises(ParlourError, match="cannot read the weights"):
        QNet.load(tmp_path / "short.npz")
    (tmp_path / "junk.npz").write_text("not weights")
    with pytest.raises(ParlourError, match="cannot read the weights"):
        QNet.load(tmp_path / "junk.npz")


def test_each_family_has_its_features() -> None:
    for variant in ("big-two", "pusoy-dos"):  # the features serve every climbing game
        features = features_for(parlour.new_game(variant))
        assert isinstance(features, ClimbingFeatures)
        obs = np.ones((1, encoder(features.game).size), dtype=np.float32)
        rows = features.rows(np.array([0, 1]), obs, np.zeros(2, dtype=np.int64))
        assert rows.shape == (2, features.width) and rows[0, 52] == 1.0  # index 0 is the pass
    assert isinstance(features_for(parlour.new_game("spoil-five")), TrumpFeatures)
    assert isinstance(features_for(parlour.new_game("rummy", players=3)), RummyFeatures)
    with pytest.raises(ParlourError, match="climbing games, not forty-five"):
        ClimbingFeatures(parlour.new_game("forty-five"))
    with pytest.raises(ParlourError, match="trump games, not big-two"):
        TrumpFeatures(parlour.new_game("big-two"))
    # a family the network does not know, such as a new one, is refused by name
    game = parlour.new_game("rummy")
    other = dataclasses.replace(game.variant, family="whist", name="whist")
    with pytest.raises(ParlourError, match="no features for whist: it plays the climbing, "
                                           "rummy and trump games"):
        features_for(types.SimpleNamespace(variant=other, name="whist"))  # type: ignore[arg-type]


@pytest.fixture(autouse=True)
def _own_bot_registry(monkeypatch: pytest.MonkeyPatch) -> None:
    """The training script registers its network as the ``training`` bot: keep that out of the
    other tests' bot list."""
    monkeypatch.setattr(bots_base, "_BOTS", dict(bots_base._BOTS))


TINY = ["--envs", "16", "--batch", "32", "--piece-steps", "60", "--eval-every", "1",
        "--eval-deals", "2", "--seed", "9"]


def test_a_run_resumed_from_its_checkpoint_trains_the_same_weights(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    straight, split = tmp_path / "straight", tmp_path / "split"
    assert training.main(["--run", str(straight), "--pieces", "3", *TINY,
                          "--export", str(tmp_path / "a.npz")]) == 0
    assert training.main(["--run", str(split), "--pieces", "2", *TINY]) == 0
    out = capsys.readouterr().out
    assert "resuming" not in out
    # Resumed: the settings come from the checkpoint.
    assert training.main(["--run", str(split), "--pieces", "3", "--eval-every", "1",
                          "--eval-deals", "2", "--export", str(tmp_path / "b.npz")]) == 0
    assert f"resuming {split} at piece 2 (120 steps)" in capsys.readouterr().out
    a, meta = QNet.load(tmp_path / "a.npz")
    b, _ = QNet.load(tmp_path / "b.npz")
    assert a.params["w1o"].shape[1] == 256
    assert all(np.array_equal(a.params[k], b.params[k]) for k in ARRAYS)
    assert (meta["pieces"], meta["steps"], meta["config"]["seed"]) == (3, 180, 9)
    assert "--seed 9 --envs 16 " in meta["command"] and meta["command"].endswith(
        "--batch 32 --piece-steps 60 --pieces 3")
    log = [json.loads(line) for line in (split / "log.jsonl").read_text().splitlines()]
    assert [e["piece"] for e in log] == [1, 2, 3]
    assert all(e["opponent"] == "greedy" and e["eval_deals"] == 2 and e["half"] >= 0 for e in log)
    assert log[-1]["steps"] == 180 and log[-1]["updates"] > 0


def test_a_run_started_from_weights_fine_tunes_them(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    base = tmp_path / "base.npz"
    assert training.main(["--run", str(tmp_path / "base"), "--pieces", "1", *TINY, "--seed", "3",
                          "--export", str(base)]) == 0
    start, base_meta = QNet.load(base)
    # No piece: the weights written are the starting ones, and they say how both were made.
    assert training.main(["--run", str(tmp_path / "none"), "--init", str(base), "--pieces", "0",
                          *TINY, "--export", str(tmp_path / "same.npz")]) == 0
    same, meta = QNet.load(tmp_path / "same.npz")
    assert all(np.array_equal(same.params[k], start.params[k]) for k in ARRAYS)
    assert meta["init"] == base_meta
    assert " --init BASE --seed 9 " in meta["command"] and "--eps-start" not in meta["command"]
    # A piece at a small learning rate moves the starting weights a little; a run of the same
    # settings from its own random weights (another seed than the base's) is far from them.
    for run, extra in (("tuned", ["--init", str(base)]), ("fresh", [])):
        assert training.main(["--run", str(tmp_path / run), "--pieces", "1", *TINY, *extra,
                              "--lr", "0.0001", "--eps-start", "0.01", "--piece-steps", "200",
                              "--export", str(tmp_path / f"{run}.npz")]) == 0
    tuned, meta = QNet.load(tmp_path / "tuned.npz")
    fresh, _ = QNet.load(tmp_path / "fresh.npz")
    moved = max(float(np.abs(tuned.params[k] - start.params[k]).max()) for k in ARRAYS)
    assert 0 < moved < 0.01
    assert max(float(np.abs(fresh.params[k] - start.params[k]).max()) for k in ARRAYS) > 0.1
    assert meta["config"]["eps_start"] == 0.01 and "--lr 0.0001 --eps-start 0.01 " in meta["command"]
    capsys.readouterr()
    # A finished run's network against another bot, without training on.
    assert training.main(["--run", str(tmp_path / "tuned"), "--evaluate", "learned",
                          "--eval-deals", "2", "--eval-seed", "5"]) == 0
    line = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert (line["piece"], line["opponent"], line["eval_deals"]) == (1, "learned", 2)
    assert line["half"] >= 0
    with pytest.raises(SystemExit):
        training.main(["--run", str(tmp_path / "tuned"), "--evaluate", "nobody"])
    assert "no bot 'nobody' to evaluate against" in capsys.readouterr().err
    # Weights of another variant or shape are refused before the run's folder is made.
    other = tmp_path / "other.npz"
    start.save(other, {**base_meta, "variant": "big-two"})
    for init, hidden, message in ((other, [], "the starting network plays big-two, not "
                                   "big-two-4card"),
                                  (base, ["--hidden", "64", "32"], "shapes"),
                                  (tmp_path / "missing.npz", [], "cannot read the weights")):
        with pytest.raises(SystemExit):
            training.main(["--run", str(tmp_path / "refused"), "--init", str(init), *hidden,
                           "--pieces", "1", *TINY])
        assert message in capsys.readouterr().err
        assert not (tmp_path / "refused").exists()
    with pytest.raises(SystemExit):
        training.main(["--run", str(tmp_path / "refused"), "--eps-start", "1.5"])
    assert "a chance from 0 to 1, not 1.5" in capsys.readouterr().err


def test_a_run_distils_its_teacher_into_a_smaller_network(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    teacher_file = weights(VARIANT)[4]
    teacher, teacher_meta = QNet.load(teacher_file)
    trainer = Trainer(Config(seed=4, num_envs=16, batch=64, hidden=(32, 16),
                             teacher=str(teacher_file)))
    # Every legal action of 24 positions, scored by both networks.
    features = trainer.features
    enc = encoder(trainer.game)
    index = action_index(trainer.game)
    states = [position(moves=m, seed=s) for s in range(12) for m in (2, 9)]
    obs = np.stack([enc.encode(s.observation(s.current_player)) for s in states])
    legal = [[index.index(a) for a in s.legal_actions()] for s in states]
    seg = np.repeat(np.arange(len(states)), [len(x) for x in legal])
    acts = features.rows(np.concatenate(legal).astype(np.int64), obs, seg)
    target = teacher.q(obs, seg, acts)

    def error(run: Trainer) -> float:
        return float(np.mean((run.net.q(obs, seg, acts) - target) ** 2))

    # The same run without the teacher learns from the deals' returns instead.
    plain = Trainer(dataclasses.replace(trainer.cfg, teacher=None))
    before = error(trainer)
    assert error(plain) == before
    for run in (trainer, plain):
        run.piece(300)
    # The targets come at once (no deal need end): far more updates, far nearer the teacher.
    assert trainer.net.updates > 2 * plain.net.updates
    assert error(trainer) < before / 3 and error(trainer) < error(plain) / 2, (
        before, error(trainer), error(plain))
    # Through the script: the weights say what they distil, and the command says how.
    assert training.main(["--run", str(tmp_path / "d"), "--teacher", str(teacher_file),
                          "--hidden", "16", "8", "--pieces", "1", *TINY,
                          "--export", str(tmp_path / "d.npz")]) == 0
    student, meta = QNet.load(tmp_path / "d.npz")
    assert student.params["w2"].shape == (16, 8)
    assert meta["teacher"] == teacher_meta
    assert " --teacher TEACHER --seed 9 " in meta["command"]
    # Resumed, the run reads its teacher again: one whose file is gone is a clear error.
    moved = tmp_path / "teacher.npz"
    teacher.save(moved, teacher_meta)
    assert training.main(["--run", str(tmp_path / "m"), "--teacher", str(moved),
                          "--hidden", "16", "8", "--pieces", "1", *TINY]) == 0
    moved.unlink()
    capsys.readouterr()
    with pytest.raises(SystemExit):
        training.main(["--run", str(tmp_path / "m"), "--pieces", "2"])
    assert "cannot read the weights" in capsys.readouterr().err
    # A teacher of another variant, or one that cannot be read, before the folder is made.
    other = tmp_path / "other.npz"
    teacher.save(other, {**teacher_meta, "variant": "big-two"})
    for bad, message in ((other, "the teacher network plays big-two, not big-two-4card"),
                         (tmp_path / "missing.npz", "cannot read the weights")):
        capsys.readouterr()
        with pytest.raises(SystemExit):
            training.main(["--run", str(tmp_path / "refused"), "--teacher", str(bad),
                           "--pieces", "1", *TINY])
        assert message in capsys.readouterr().err
        assert not (tmp_path / "refused").exists()


def test_another_seed_trains_other_weights_and_the_log_is_plotted(tmp_path: Path) -> None:
    first = Trainer(Config(seed=1, num_envs=16, batch=32))
    other = Trainer(Config(seed=2, num_envs=16, batch=32))
    for trainer in (first, other):
        trainer.piece(60)
        assert trainer.net.updates > 0
    assert not np.array_equal(first.net.params["w2"], other.net.params["w2"])
    run = tmp_path / "run"
    assert training.main(["--run", str(run), "--pieces", "1", *TINY, "--plot"]) == 0
    assert (run / "log.png").read_bytes().startswith(b"\x89PNG")


def guided() -> SearchBot:
    return SearchBot(SearchConfig(iterations=30, max_candidates=3, min_worlds=4,
                                  network_iterations=24, guided_candidates=3),
                     guide=prior, playouts=playouts)


def test_the_guided_search_is_reproducible_and_guided() -> None:
    state = position(moves=9)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    first = guided().search(obs, legal, random.Random(8))
    again = guided().search(obs, legal, random.Random(8))
    assert first.action == again.action
    assert [(c.action, c.prior, c.values) for c in first.candidates] == \
           [(c.action, c.prior, c.values) for c in again.candidates]
    assert first.iterations <= 24 and first.prior_weight == 8.0
    scores = prior(obs, legal, random.Random(0))
    assert scores is not None
    top = sorted(legal, key=lambda a: -scores[legal.index(a)])[:3]
    greedy_order = policy_order(obs, legal, random.Random(0), 3)
    # The guide's best moves, then the playout policy's candidates not among them.
    assert [c.action for c in first.candidates] == \
           top + [a for a in greedy_order if a not in top]
    assert all(c.prior == scores[legal.index(c.action)] for c in first.candidates)
    why = guided().choose_explained(obs, legal, random.Random(8))[1]
    assert why.startswith(f"{first.action.words()}: wins ") and "(learned network " in why


def test_a_strong_prior_outweighs_a_few_worlds() -> None:
    """With a huge prior weight the search plays the guide's choice; with none, its rollouts'."""
    state = position(moves=9)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    scores = prior(obs, legal, random.Random(0))
    assert scores is not None
    trusting = SearchBot(SearchConfig(iterations=30, prior_weight=1e9, guided_candidates=3),
                         guide=prior)
    assert trusting.choose(obs, legal, random.Random(2)) == legal[int(np.argmax(scores))]
    blind = SearchBot(SearchConfig(iterations=30, prior_weight=0.0, guided_candidates=3),
                      guide=prior)
    result = blind.search(obs, legal, random.Random(2))
    alive = max(c.samples for c in result.candidates)
    assert result.action == max((c for c in result.candidates if c.samples == alive),
                                key=lambda c: (c.mean, -c.rank)).action


def test_a_clear_prior_is_played_without_searching() -> None:
    state = position(moves=9)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    scores = prior(obs, legal, random.Random(0))
    assert scores is not None
    ranked = sorted(scores, reverse=True)
    bot = SearchBot(SearchConfig(iterations=30, prior_margin=ranked[0] - ranked[1]), guide=prior)
    result = bot.search(obs, legal, random.Random(0))
    assert result.action == legal[int(np.argmax(scores))]
    assert (result.iterations, result.worlds) == (0, 0)
    assert result.explanation().startswith(f"{result.action.words()}: the learned network rates it ")
    closer = SearchBot(SearchConfig(iterations=30, prior_margin=ranked[0] - ranked[1] + 0.01),
                       guide=prior)
    assert closer.search(obs, legal, random.Random(0)).worlds > 0


def test_the_guide_leaves_a_game_without_a_network_searched_as_before() -> None:
    state = position("rummy", moves=5, players=3)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    plain = SearchBot(SearchConfig(iterations=30, max_candidates=3, min_worlds=4)).search(
        obs, legal, random.Random(6))
    with_guide = guided().search(obs, legal, random.Random(6))
    assert with_guide.prior_weight == 0.0
    assert [(c.action, c.values) for c in plain.candidates] == \
           [(c.action, c.values) for c in with_guide.candidates]
    assert plain.action == with_guide.action


def test_a_network_guides_the_search_only_where_its_settings_say() -> None:
    state = position("big-two", moves=5)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    scores = prior(obs, legal, random.Random(1))
    assert scores is not None
    config = SearchConfig(iterations=60, max_candidates=4, min_worlds=4)
    plain = SearchBot(config).search(obs, legal, random.Random(2))
    guided = SearchBot(config.replace(guided=True)).search(obs, legal, random.Random(2))
    assert not plain.guided and guided.guided
    assert guided.candidates[0].action == legal[int(np.argmax(scores))]
    assert [level_config(level, "big-two").guided
            for level in ("medium", "hard", "expert")] == [False, True, True]


@pytest.mark.parametrize("variant", ["big-two-4card", "pusoy-dos"])
def test_the_bot_and_the_compiled_playouts_score_alike_to_the_bit(variant: str) -> None:
    # The bot's scores (and a search's guide) are the core's products, as the compiled playouts'
    # are: the same bits on any machine, where numpy's matrix products vary in their last bits
    # with its threads and the processor; they agree with numpy's to float precision.
    policy = load_policy(variant)
    assert policy is not None
    net = policy.compiled()
    assert net is policy.compiled()  # made once
    game, rng, checked = parlour.new_game(variant), random.Random(4), 0
    for seed in range(3):
        state = game.new_deal(seed=seed)
        while not state.is_over:
            seat, legal = state.current_player, state.legal_actions()
            obs = state.observation(seat)
            if len(legal) > 1:
                points = policy.scores(obs, legal)
                compiled = dict(net.scores(state._e))  # type: ignore[attr-defined]
                got = [float(compiled[int(a)]) * policy.scale for a in legal]
                assert points.tolist() == got
                x = policy.encoder.encode(obs)[None, :]
                seg = np.zeros(len(legal), dtype=np.int64)
                rows = policy.features.rows(
                    np.asarray(policy.index.indices(legal, obs), dtype=np.int64), x, seg)
                numpy_q = policy.net.q(x, seg, rows) * policy.scale
                assert np.allclose(points, numpy_q, atol=1e-3), (points, numpy_q)
                checked += 1
            state.apply(rng.choice(legal))
    assert checked > 30


def test_the_scoring_network_refuses_encodings_of_another_shape() -> None:
    policy = load_policy(VARIANT)
    assert policy is not None
    p = policy.net.params
    network = Network(p["w1o"], p["w1a"], p["b1"], p["w2"], p["b2"], p["w3"], 0.0)
    obs = np.zeros(p["w1o"].shape[0], dtype=np.float32)
    moves = np.zeros((3, p["w1a"].shape[0]), dtype=np.float32)
    assert network.scores(obs, moves).shape == (3,)
    assert network.scores(obs, moves[:0]).shape == (0,)
    with pytest.raises(ValueError, match="an observation of 396 entries"):
        network.scores(obs[1:], moves)
    with pytest.raises(ValueError, match="moves of 141 features"):
        network.scores(obs, moves[:, 1:])
    with pytest.raises(ValueError, match="shapes do not fit"):
        Network(p["w1o"], p["w1a"], p["b1"], p["w2"].T, p["b2"], p["w3"], 0.0)
    with pytest.raises(ValueError, match="no move features"):
        Network(p["w1o"], p["w1a"][:0], p["b1"], p["w2"], p["b2"], p["w3"], 0.0)


def searched(state: State, iterations: int = 60, playouts: Playouts | None = None,
             **settings: Any) -> list[list[float]]:
    """Each candidate's returns, world by world, of a search with ``settings`` from the position
    of ``state``'s seat to move, seeded alike every time."""
    obs, legal = state.observation(state.current_player), state.legal_actions()
    bot = SearchBot(SearchConfig(iterations=iterations, min_worlds=4, **settings),
                    playouts=playouts)
    return [c.values for c in bot.search(obs, legal, random.Random(3)).candidates]


def test_network_playouts_are_reproducible_and_not_greedy() -> None:
    state = position(moves=9)
    values = functools.partial(searched, state, 40)
    assert values(playouts=playouts) == values(playouts=playouts)
    assert values(playouts=playouts) != values()
    # Rummy's levels play out with greedy: the same worlds, the same returns.
    other = position("rummy", moves=5)
    oobs, olegal = other.observation(other.current_player), other.legal_actions()
    plain = SearchBot(SearchConfig(iterations=40)).search(oobs, olegal, random.Random(3))
    with_net = SearchBot(SearchConfig(iterations=40), playouts=playouts).search(
        oobs, olegal, random.Random(3))
    assert [c.values for c in plain.candidates] == [c.values for c in with_net.candidates]


def test_inference_weights_the_worlds_reproducibly_on_any_number_of_threads() -> None:
    state = position(moves=9)
    values = functools.partial(searched, state, playouts=playouts)
    inferred = values(inference=Inference(draws=8))
    assert inferred == values(inference=Inference(draws=8), threads=2)
    assert inferred != values()
    # One draw a world is the plain sample.
    assert values(inference=Inference(draws=1)) == values()
    # Without a compiled network (Rummy's) nothing weights the worlds: greedy's as before.
    other = position("rummy", moves=5)
    oobs, olegal = other.observation(other.current_player), other.legal_actions()
    plain = SearchBot(SearchConfig(iterations=40)).search(oobs, olegal, random.Random(3))
    weighted = SearchBot(SearchConfig(iterations=40, inference=Inference()), playouts=playouts).search(
        oobs, olegal, random.Random(3))
    assert [c.values for c in plain.candidates] == [c.values for c in weighted.candidates]
    # The trump games' worlds do not replay: played out by the network, dealt as before.
    trump = position("forty-five", moves=6)
    tobs, tlegal = trump.observation(trump.current_player), trump.legal_actions()
    dealt = SearchBot(SearchConfig(iterations=40), playouts=playouts).search(
        tobs, tlegal, random.Random(3))
    weighted = SearchBot(SearchConfig(iterations=40, inference=Inference()), playouts=playouts).search(
        tobs, tlegal, random.Random(3))
    assert dealt.iterations == weighted.iterations == 40
    assert [c.values for c in dealt.candidates] == [c.values for c in weighted.candidates]


def test_rollouts_stopped_at_a_leaf_count_the_networks_value() -> None:
    state = position(moves=9)
    values = functools.partial(searched, state, playouts=playouts)
    # Played to the end, a rollout scores whole points; valued by the network at the seat's
    # next choice, hardly ever (the network's points are 39 times its output).
    ended = [v for vs in values() for v in vs]
    leaves = [v for vs in values(leaf_after=1) for v in vs]
    assert all(v == int(v) for v in ended)
    assert sum(v != int(v) for v in leaves) > len(leaves) // 2
    # in points, as the played-out returns are (the network's output is a 39th of them)
    assert all(-39 <= v <= 39 for v in leaves)
    assert np.mean(np.abs(leaves)) > 1.5 and np.mean(np.abs(ended)) > 1.5
    assert values(leaf_after=1) == values(leaf_after=1, threads=2)
    assert values(leaf_after=2) != values(leaf_after=1)
    # Without a compiled network (Rummy's) there is no value to stop at: greedy's rollouts.
    other = position("rummy", moves=5)
    oobs, olegal = other.observation(other.current_player), other.legal_actions()
    plain = SearchBot(SearchConfig(iterations=40)).search(oobs, olegal, random.Random(3))
    stopped = SearchBot(SearchConfig(iterations=40, leaf_after=1), playouts=playouts).search(
        oobs, olegal, random.Random(3))
    assert [c.values for c in plain.candidates] == [c.values for c in stopped.candidates]


@pytest.mark.parametrize("turns", [0, -1, 1.5, True])
def test_a_bad_leaf_is_refused_in_python_and_in_the_core(turns: object) -> None:
    with pytest.raises(ParlourError, match="leaf_after must be a whole number"):
        SearchBot(SearchConfig(iterations=10, leaf_after=turns))  # type: ignore[arg-type]
    if not isinstance(turns, bool):  # the core reads True as 1, a count it accepts
        with pytest.raises((ValueError, TypeError, OverflowError)):
            Race(10, None, 4, 2.0, 0.0, 1, None, turns)  # type: ignore[arg-type]


@pytest.mark.parametrize("settings", [(0, 1.0, 0.1), (8, 0.0, 0.1), (8, math.inf, 0.1),
                                      (8, 1.0, 0.0), (8, 1.0, 1.5), (5000, 1.0, 0.1)])
def test_bad_inference_is_refused_in_python_and_in_the_core(
        settings: tuple[int, float, float]) -> None:
    with pytest.raises(ParlourError, match="inference needs 1 to 4096 draws"):
        Inference(*settings)
    with pytest.raises(ValueError, match="inference needs 1 to 4096 draws"):
        Race(10, None, 4, 2.0, 0.0, 1, settings)
    with pytest.raises(ParlourError, match="must be an Inference"):
        SearchBot(SearchConfig(iterations=10, inference=settings))  # type: ignore[arg-type]


def test_the_model_of_the_opponents_is_reproducible_on_any_number_of_threads() -> None:
    state = position(moves=9)
    obs, legal = state.observation(state.current_player), state.legal_actions()

    values = functools.partial(searched, state, playouts=playouts)
    modelled = values(opponents=Opponents(worlds=64))
    assert modelled == values(opponents=Opponents(worlds=64), threads=2)
    # The other seats were dealt the same worlds but played partly by the rule-based policy.
    assert modelled != values()
    # Worlds chosen by how likely the rule-based seats' moves were in them: other worlds, and
    # as reproducible.
    drawn = values(opponents=Opponents(worlds=64, draws=8))
    assert drawn == values(opponents=Opponents(worlds=64, draws=8), threads=2)
    assert drawn != modelled
    # Without a network the seats are all played by the rule-based policy anyway: no change.
    plain = SearchBot(SearchConfig(iterations=40)).search(obs, legal, random.Random(3))
    greedy_only = SearchBot(SearchConfig(iterations=40, opponents=Opponents())).search(
        obs, legal, random.Random(3))
    assert [c.values for c in plain.candidates] == [c.values for c in greedy_only.candidates]
    # The trump games' worlds do not replay, so no kind is weighed: played out as before.
    trump = position("forty-five", moves=6)
    tobs, tlegal = trump.observation(trump.current_player), trump.legal_actions()
    dealt = SearchBot(SearchConfig(iterations=40), playouts=playouts).search(
        tobs, tlegal, random.Random(3))
    for model in (Opponents(), Opponents(draws=8)):
        same = SearchBot(SearchConfig(iterations=40, opponents=model), playouts=playouts).search(
            tobs, tlegal, random.Random(3))
        assert [c.values for c in dealt.candidates] == [c.values for c in same.candidates]


def test_a_model_of_rule_based_opponents_beats_them_by_more() -> None:
    # Against three greedy players, the search that finds them rule-based and plays its worlds
    # against them as they play wins more of a deal than the one that models them as the
    # network, over the same 100 deals (big-two-4card, seat 0 searching). The gain is about 1.9
    # points a deal, 4 standard errors over 400 deals; 100 deals show it clearly (12 did not:
    # one deal's difference varies by about 9 points, its standard deviation).
    game = parlour.new_game(VARIANT)
    greedy = GreedyBot()

    def total(opponents: Opponents | None) -> float:
        points = 0.0
        for deal in range(100):
            state = game.new_deal(seed=800 + deal)
            bot = SearchBot(SearchConfig(iterations=200, opponents=opponents), playouts=playouts)
            rng = random.Random(deal)
            while not state.is_over:
                seat, legal = state.current_player, state.legal_actions()
                obs = state.observation(seat)
                player = bot if seat == 0 else greedy
                state.apply(player.choose(obs, legal, rng))
            points += state.returns()[0]
        return points

    assert total(Opponents(worlds=64)) > total(None)


def test_a_search_says_whom_it_took_for_a_rule_based_player() -> None:
    # After a dozen greedy moves the model takes some greedy seats for rule-based, never the
    # searching one; the explanation names them as the game does. Without the model nobody is.
    state = position(moves=12)
    seat, legal = state.current_player, state.legal_actions()
    obs = state.observation(seat)

    def search(**settings: Any) -> SearchResult:
        config = SearchConfig(iterations=60, min_worlds=4).replace(**settings)
        return SearchBot(config, playouts=playouts).search(obs, legal, random.Random(3))

    modelled = search(opponents=Opponents(worlds=64))
    assert modelled.rule_based and seat not in modelled.rule_based
    assert set(modelled.rule_based) <= set(range(4))
    *others, last = [f"P{s}" for s in modelled.rule_based]
    named = f"{', '.join(others)} and {last}" if others else last
    kind = "rule-based players" if others else "a rule-based player"
    assert modelled.explanation().endswith(f"; took {named} for {kind}")
    assert modelled.explanation(lambda s: f"seat {s}").count("seat ") == len(modelled.rule_based)
    by_fields = search(opponents={"worlds": 64})  # a record may be given by its fields
    assert by_fields.rule_based == modelled.rule_based
    assert [c.values for c in by_fields.candidates] == [c.values for c in modelled.candidates]
    plain = search()
    assert plain.rule_based == () and "took" not in plain.explanation()


def test_expert_models_the_opponents_where_that_measured_stronger() -> None:
    # In big-two-4card expert's search is the one with the model (16 draws a world); in another
    # climbing variant it has none.
    expert = make_bot("expert")
    assert isinstance(expert, SearchBot)
    assert level_config("expert", VARIANT).opponents == Opponents(draws=16)
    state = position(moves=12)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    result = expert.search(obs, legal, random.Random(3))
    assert result.rule_based and state.current_player not in result.rule_based
    other = position("big-two", moves=12)
    assert expert.search(other.observation(other.current_player), other.legal_actions(),
                         random.Random(3)).rule_based == ()
    assert level_config("expert", "big-two").opponents is None
    assert all(level_config("hard", v.name).opponents is None for v in parlour.variants())


@pytest.mark.parametrize("settings", [(0, 0.5, 0.05, 1.0, 0.8, 1), (5000, 0.5, 0.05, 1.0, 0.8, 1),
                                      (64, 0.0, 0.05, 1.0, 0.8, 1), (64, 1.0, 0.05, 1.0, 0.8, 1),
                                      (64, 0.5, 0.0, 1.0, 0.8, 1), (64, 0.5, 1.5, 1.0, 0.8, 1),
                                      (64, 0.5, 0.05, 0.0, 0.8, 1), (64, 0.5, 0.05, math.nan, 0.8, 1),
                                      (64, 0.5, 0.05, 1.0, 0.0, 1), (64, 0.5, 0.05, 1.0, 1.5, 1),
                                      (64, 0.5, 0.05, 1.0, 0.8, 0), (64, 0.5, 0.05, 1.0, 0.8, 5000)])
def test_a_bad_model_of_the_opponents_is_refused_in_python_and_in_the_core(
        settings: tuple[int, float, float, float, float, int]) -> None:
    with pytest.raises(ParlourError, match="opponents needs 1 to 4096 worlds"):
        Opponents(*settings)
    with pytest.raises(ValueError, match="opponents needs 1 to 4096 worlds"):
        Race(10, None, 4, 2.0, 0.0, 1, None, None, settings)
    with pytest.raises(ParlourError, match="must be an Opponents"):
        SearchBot(SearchConfig(iterations=10, opponents=settings))  # type: ignore[arg-type]


def test_the_chances_of_the_opponents_kinds_need_a_model_and_a_network_of_the_rules() -> None:
    state = position(moves=9)
    knowledge = state.observation(state.current_player)._knowledge()
    net = load_policy(VARIANT).compiled()  # type: ignore[union-attr]
    modelled = Race(10, None, 4, 2.0, 0.0, 1, None, None, Opponents().settings())
    chances = knowledge.rule_based_chances(modelled, 1, net)  # type: ignore[union-attr]
    assert len(chances) == 4 and chances[state.current_player] == 0.0
    assert all(0.0 <= c <= 1.0 for c in chances)
    assert chances == knowledge.rule_based_chances(modelled, 1, net)  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="no model of the opponents"):
        knowledge.rule_based_chances(Race(10, None, 4, 2.0, 0.0, 1), 1, net)  # type: ignore[union-attr]
    other = load_policy("big-two").compiled()  # type: ignore[union-attr]
    with pytest.raises(ValueError, match="another variant"):
        knowledge.rule_based_chances(modelled, 1, other)  # type: ignore[union-attr]


def test_a_network_is_refused_for_another_variant_or_shape() -> None:
    policy = load_policy(VARIANT)
    assert policy is not None
    state = position("big-two", moves=5)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    with pytest.raises(ValueError, match="another variant"):
        SearchBot(SearchConfig(iterations=20), playouts=lambda o: policy.compiled()).search(
            obs, legal, random.Random(1))
    with pytest.raises(ValueError, match="another variant"):
        policy.compiled().scores(state._e)  # type: ignore[attr-defined]
    p = policy.net.params
    game = parlour.new_game(VARIANT)
    empty = np.zeros(0, dtype=np.int64)
    with pytest.raises(ValueError, match="do not fit"):
        ClimbingNet(game.table.core, 4, p["w1o"][1:], p["w1a"], p["b1"], p["w2"], p["b2"],
                    p["w3"], 0.0, empty, empty, np.zeros(0, dtype=np.float32))
    # The second layer saved the other way round has as many entries, and is refused too.
    wide, narrow = p["w2"].shape
    with pytest.raises(ValueError, match=rf"shapes do not fit.*\({narrow}, {wide}\)"):
        ClimbingNet(game.table.core, 4, p["w1o"], p["w1a"], p["b1"],
                    np.ascontiguousarray(p["w2"].T), p["b2"], p["w3"], 0.0, empty, empty,
                    np.zeros(0, dtype=np.float32))


@pytest.mark.parametrize("variant, expert_budget, hard_budget",
                         [("big-two-4card", 1_500, 60), ("big-two", 800, 360)])
def test_expert_plays_out_with_the_network_and_hard_with_it_in_big_two_4card_alone(
        variant: str, expert_budget: int, hard_budget: int) -> None:
    """``expert`` plays its worlds out with the network at the variant's budget (1,500 rollouts
    a move in big-two-4card, 800 in big-two), with its model of the other seats where it has
    one; ``hard`` with it at 60 in big-two-4card, and with ``greedy`` at 360 elsewhere."""
    state = position(variant, moves=9)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    scores = prior(obs, legal, random.Random(0))
    assert scores is not None
    for level, budget in (("expert", expert_budget), ("hard", hard_budget)):
        config = level_config(level, variant)
        network = config.network_playouts
        assert network == (level == "expert" or variant == VARIANT)
        assert (config.opponents is not None) == (level == "expert" and variant == VARIANT)
        result = make_bot(level).search(obs, legal, random.Random(2))
        # the network's choice leads the candidates (the one kept unless clearly beaten)
        assert result.candidates[0].action == legal[int(np.argmax(scores))]
        assert 0 < result.iterations <= budget
        # the same worlds played out the other way give other values
        other = SearchBot(config.replace(network_playouts=not network)).search(
            obs, legal, random.Random(2))
        assert [c.values for c in result.candidates] != [c.values for c in other.candidates]


def test_a_network_budget_applies_where_the_network_plays_out() -> None:
    """``network_iterations``: the budget where the network plays the worlds out, the plain
    ``iterations`` where greedy does."""
    state = position("big-two", moves=9)
    obs, legal = state.observation(state.current_player), state.legal_actions()

    def search(network: int | None, playouts: Playouts | None = network_playouts
               ) -> SearchResult:
        bot = SearchBot(SearchConfig(iterations=120, network_iterations=network),
                        playouts=playouts)
        return bot.search(obs, legal, random.Random(3))

    assert 0 < search(40).iterations <= 40
    assert search(None).iterations > 40
    greedy = SearchBot(SearchConfig(iterations=120)).search(obs, legal, random.Random(3))
    assert search(40, playouts=None).candidates == greedy.candidates


def test_a_guided_search_says_it_kept_the_networks_pick() -> None:
    """Where the network's pick stood against a move that scored more, the reason says whose
    pick it was (a player reads it at the table)."""
    state = parlour.new_game(VARIANT).new_deal(seed=4)
    kept = 0
    while not state.is_over:
        obs, legal = state.observation(state.current_player), state.legal_actions()
        result = make_bot("hard").search(obs, legal, random.Random(0))
        if len(legal) > 1:
            assert result.guided
            why = result.explanation()
            if "set aside" in why:
                assert why.endswith("not by enough to set aside the learned network's pick")
                kept += 1
        state.apply(result.action)
    assert kept


@pytest.mark.parametrize("kwargs, message", [
    ({"iterations": 10, "network_iterations": 0}, "from 1 to 100,000,000, not 0"),
    ({"iterations": 10, "guided_candidates": -1}, "guided_candidates must be at least 0"),
    ({"iterations": 10, "prior_weight": -1.0}, "prior_weight a finite number"),
    ({"iterations": 10, "prior_margin": 0.0}, "prior_margin must be above 0 points"),
])
def test_a_bad_guided_budget_is_refused(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(ParlourError, match=message):
        SearchConfig(**kwargs)  # type: ignore[arg-type]


@pytest.mark.parametrize("variant", ["forty-five", "spoil-five"])
def test_the_trump_features_say_what_each_card_means_in_its_deal(variant: str) -> None:
    """Every legal action of random deals, against the rules' own tables: trump or not, its
    place in the order, whether it follows and takes the trick (``trick_winner``), and the trumps
    and suit cards left in hand."""
    game = parlour.new_game(variant)
    features = features_for(game)
    assert isinstance(features, TrumpFeatures)
    enc, index = encoder(game), action_index(game)
    col = {name: features.size + k for k, name in enumerate(TRUMP_COLUMNS)}
    checked = {"takes": 0, "follows": 0, "partner_holds": 0, "rob": 0}
    for seed in range(12):
        state = game.new_deal(seed=seed)
        rng = random.Random(seed)
        while not state.is_over:
            seat = state.current_player
            obs = state.observation(seat)
            legal = state.legal_actions()
            idx = np.array(index.indices(legal, obs), dtype=np.int64)
            rows = features.rows(idx, enc.encode(obs)[None, :], np.zeros(idx.size, np.int64))
            power = (DEMOTED_POWER if obs.ace_demoted else POWER)[obs.trump]
            for i, row in zip(idx, rows, strict=True):
                assert row[:features.size].tolist() == [float(k == i) for k in range(features.size)]
                if i >= 104:  # keep, silent, jink, stop: the index entry alone
                    assert not row[features.size:].any()
                    continue
                card = int(i) % 52
                trump = power[card] >= TRUMP_BASE
                assert row[col["trump"]] == trump
                places = row[col["trump_place:0"]:col["plain_place:0"]]
                plain = row[col["plain_place:0"]:col["leads"]]
                if trump:
                    order = [int(c) for c in trump_order(obs.trump)]
                    expected = 14 if power[card] == TRUMP_BASE else order.index(card)
                    assert places.nonzero()[0].tolist() == [expected] and not plain.any()
                else:
                    order = [int(c) for c in plain_order(card % 4)]
                    assert plain.nonzero()[0].tolist() == [order.index(card)]
                    assert not places.any()
                if i >= 52:  # a rob: its discard described, no trick
                    checked["rob"] += 1
                    assert not row[col["leads"]:].any()
                    continue
                trick = [int(c) for c in obs.trick]
                assert row[col["leads"]] == (not trick)
                assert row[col["last"]] == (len(trick) == game.players - 1)
                takes = trick_winner([*trick, card], power) == len(trick)
                assert row[col["takes"]] == takes
                checked["takes"] += takes and bool(trick)
                if trick:
                    led = trick[0]
                    follows = (not trump and power[led] < TRUMP_BASE and card % 4 == led % 4)
                    assert row[col["follows"]] == follows
                    checked["follows"] += follows
                    holder = (obs.leader + trick_winner(trick, power)) % game.players
                    partner = (holder != seat and game.rules.sides[holder]
                               == game.rules.sides[seat])
                    assert row[col["partner_holds"]] == partner
                    checked["partner_holds"] += partner
                after = [int(c) for c in obs.hand if int(c) != card]
                assert row[col["trumps_after"]] == pytest.approx(
                    sum(power[c] >= TRUMP_BASE for c in after) / 5)
                assert row[col["suit_after"]] == pytest.approx(sum(
                    power[c] < TRUMP_BASE and c % 4 == card % 4 for c in after) / 5)
            state.apply(rng.choice(legal))
    # every case was met, so none of the checks above passed for want of examples
    assert checked["takes"] and checked["follows"] and checked["rob"]
    assert checked["partner_holds"] or not game.rules.sides.count(0) > 1


def test_a_trump_network_plays_blind_to_the_match_scores_it_never_trained_on() -> None:
    """Self-play deals start a match, so the scores before the deal never varied in training:
    the policy folds their constant share into the bias and ignores them after."""
    game = parlour.new_game("spoil-five")
    features = features_for(game)
    raw = QNet.new(encoder(game).size, features.width, (32, 16), np.random.default_rng(4), 1e-3)
    raw.params["w3"][:] = np.random.default_rng(5).standard_normal(16)  # a network that answers
    policy = learned_module.Policy(raw, features, {})
    start = game.new_deal(seed=8)  # the scores and pool a match starts with, as in self-play
    later = game.new_deal(seed=8, scores=[31, 12, 25, 12], pool=12, dealer=start.dealer)
    seat = start.current_player
    legal = start.legal_actions()
    assert later.legal_actions() == legal and later.current_player == seat
    index = action_index(game)

    def q(net: QNet, state: State) -> np.ndarray:
        obs = state.observation(seat)
        idx = np.array(index.indices(legal, obs), dtype=np.int64)
        o = encoder(game).encode(obs)[None, :]
        return net.q(o, np.zeros(idx.size, np.int64), features.rows(idx, o, np.zeros_like(idx)))

    assert np.allclose(q(policy.net, start), q(raw, start), atol=1e-5)  # the same in training
    assert np.allclose(q(policy.net, later), q(policy.net, start), atol=1e-6)  # and after
    assert not np.allclose(q(raw, later), q(raw, start), atol=1e-3)  # where raw weights drift


def random_policy(variant: str, seed: int = 1, **options: object) -> learned_module.Policy:
    """A network of random weights (an answering last layer) for ``variant``."""
    game = parlour.new_game(variant, **options)
    features = features_for(game)
    rng = np.random.default_rng(seed)
    net = QNet.new(encoder(game).size, features.width, (48, 24), rng, 1e-3)
    net.params["w3"][:] = rng.standard_normal(24)
    return learned_module.Policy(net, features, {"variant": variant})


@pytest.mark.parametrize(("variant", "option"), [("forty-five", "silent_ace"),
                                                  ("spoil-five", "jinking")])
def test_the_compiled_trump_network_scores_every_move_as_the_bot_does(variant: str,
                                                                    option: str) -> None:
    policy = random_policy(variant, **{option: True})
    net = policy.compiled()
    assert net is policy.compiled()
    game, rng = policy.features.game, random.Random(6)
    # plays, robs and every call must all be scored (the options allow silent, jink and stop)
    kind = {range(52): "play", range(64, 116): "rob", range(128, 129): "keep",
            range(129, 130): "silent", range(130, 132): "jink or stop"}
    wanted = set(kind.values()) - ({"jink or stop"} if variant == "forty-five" else {"silent"})
    seen: set[str] = set()
    seed = 0
    while seen != wanted:
        assert seed < 500, f"only {seen} met"
        state = game.new_deal(seed=seed)
        seed += 1
        while not state.is_over:
            legal = state.legal_actions()
            points = policy.scores(state.observation(state.current_player), legal)
            compiled = dict(net.scores(state._e))  # type: ignore[attr-defined]
            # the bot's scores are the compiled network's, to the bit
            assert points.tolist() == [float(compiled[int(a)]) * policy.scale for a in legal]
            seen.update(k for a in legal for r, k in kind.items() if int(a) in r)
            state.apply(rng.choice(legal))


def test_trump_network_playouts_are_reproducible_and_refuse_other_rules() -> None:
    policy = random_policy("forty-five")
    state = position("forty-five", moves=5)
    values = functools.partial(searched, state)

    def net(_: object) -> object:
        return policy.compiled()

    assert values(playouts=net) == values(playouts=net, threads=2)
    assert values(playouts=net) != values()  # not greedy's rollouts
    other = position("spoil-five", moves=5)
    with pytest.raises(ValueError, match="made for another variant"):
        SearchBot(SearchConfig(iterations=20), playouts=net).search(
            other.observation(other.current_player), other.legal_actions(), random.Random(1))
    game, p = parlour.new_game("forty-five"), policy.net.params
    with pytest.raises(ValueError, match="do not fit"):
        TrumpNet(game.rules.core, 4, 70.0, [0.0, 0.0], p["w1o"], p["w1a"][1:], p["b1"],
                 p["w2"], p["b2"], p["w3"], 0.0)
    with pytest.raises(ValueError, match="4 seats with 3 scores"):
        TrumpNet(game.rules.core, 4, 70.0, [0.0, 0.0, 0.0], p["w1o"], p["w1a"], p["b1"],
                 p["w2"], p["b2"], p["w3"], 0.0)
