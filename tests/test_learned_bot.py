"""The learned policy of big-two-4card: its shipped weights, the ``learned`` bot, the training
script at a tiny size, and the search it guides.

Strength against other bots is measured with the arena (README, "Bots"), not here.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

import numpy as np
import pytest

import parlour
from parlour import ParlourError
from parlour.bots import GreedyBot, SearchBot, make_bot
from parlour.bots.learned import LearnedBot, load_model, prior
from parlour.bots.learned.features import OBS_WIDTH, WIDTH
from parlour.bots.learned.model import ARRAYS, FORMAT, WEIGHTS, read_model
from parlour.bots.levels import LEVELS
from parlour.bots.search import policy_order
from parlour.game import State

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "training"))
import train_big_two_4card as training  # noqa: E402


def position(variant: str = "big-two-4card", moves: int = 6, seed: int = 21) -> State:
    """A position after about ``moves`` greedy moves where the seat to move has a choice."""
    state = parlour.new_game(variant).new_deal(seed=seed)
    rng = random.Random(seed)
    while moves > 0 or len(state.legal_actions()) < 2:
        p = state.current_player
        state.apply(GreedyBot().choose(state.observation(p), state.legal_actions(), rng))
        moves -= 1
    assert not state.is_over
    return state


def test_the_shipped_weights_load_and_match_their_metadata() -> None:
    model = load_model()
    meta = model.metadata
    assert meta["format"] == FORMAT and meta["variant"] == "big-two-4card"
    assert f"--seed {meta['seed']}" in meta["command"]
    assert meta["command"].startswith("python training/train_big_two_4card.py")
    assert f"--positions {meta['positions']}" in meta["reproduce"]
    assert set(ARRAYS) <= set(model.arrays)
    hidden = model.arrays["b1"].shape[0]
    assert model.arrays["w1_obs"].shape == (OBS_WIDTH, hidden)
    assert model.arrays["w1_act"].shape == (WIDTH - OBS_WIDTH, hidden)
    assert WEIGHTS.stat().st_size < 3_000_000
    # What the run recorded about itself: it fitted the held-out positions better than at start.
    assert meta["policy_loss_after"] < meta["policy_loss_before"]


@pytest.fixture(scope="module")
def fresh() -> training.Batch:
    """300 positions labelled now, from a seed the training never used."""
    data = training.Data()
    game = parlour.new_game("big-two-4card")
    rng = random.Random(20261123)
    while len(data) < 300:
        training.label_deal(game, rng, data, explore=0.15, label=0.5, candidates=6)
    return training.Batch(data, np.arange(len(data)))


def test_the_shipped_policy_picks_better_moves_than_greedy_in_fresh_positions(
        fresh: training.Batch) -> None:
    """The returns of the policy's picks in the sampled worlds beat those of greedy's picks:
    the held-out *pick gain* of training/README.md (+1.2 points a decision here, standard
    error 0.4)."""
    assert training.pick_gain(load_model().arrays, fresh) > 0.4


def test_the_shipped_value_beats_a_constant_in_fresh_positions(fresh: training.Batch) -> None:
    model = load_model()
    _, value_loss = training.losses(model.arrays, fresh)
    assert value_loss < 0.85 * float(np.var(fresh.value))


def test_the_value_is_read_from_the_observation() -> None:
    state = position(moves=9)
    seat = state.current_player
    obs = state.observation(seat)
    value = load_model().value(obs)
    assert isinstance(value, float) and -39 <= value <= 39
    assert value == load_model().value(obs.sample_state(random.Random(1)).observation(seat))


def test_the_bot_plays_legal_moves_through_whole_deals() -> None:
    game = parlour.new_game("big-two-4card")
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
    assert why.startswith(f"{action}: the learned policy rates it ")
    assert "points a deal above the next best" in why
    scores = prior(obs, legal, random.Random(0))
    assert scores is not None and legal[int(np.argmax(scores))] == action
    assert make_bot("learned").choose(obs, legal, random.Random(0)) == action


@pytest.mark.parametrize("variant", ["big-two", "forty-five", "rummy"])
def test_without_weights_the_bot_plays_the_rule_based_choice(variant: str) -> None:
    state = position(variant, moves=4)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    action, why = LearnedBot().choose_explained(obs, legal, random.Random(3))
    assert action == GreedyBot().choose(obs, legal, random.Random(3))
    assert why == f"{action}: the rule-based choice (no learned weights for {variant})"
    assert prior(obs, legal, random.Random(3)) is None


def test_weights_of_another_format_or_shape_are_refused(tmp_path: Path) -> None:
    model = load_model()
    wrong = tmp_path / "wrong.npz"
    type(model)(model.arrays, model.metadata).save(wrong)
    meta = json.loads(json.dumps(model.metadata))
    meta["format"] = FORMAT + 1
    with pytest.raises(ParlourError, match=f"reads format {FORMAT}"):
        type(model)(model.arrays, meta)
    with pytest.raises(ParlourError, match="lack w3"):
        type(model)({k: v for k, v in model.arrays.items() if k != "w3"}, model.metadata)
    short = dict(model.arrays, w1_act=model.arrays["w1_act"][:-1])
    with pytest.raises(ParlourError, match="other features"):
        type(model)(short, model.metadata)
    assert read_model(wrong).metadata == model.metadata
    (tmp_path / "junk.npz").write_text("not weights")
    with pytest.raises(ParlourError, match="cannot read the weights"):
        read_model(tmp_path / "junk.npz")


def test_the_training_script_runs_small_and_fits_its_data(tmp_path: Path,
                                                          capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "tiny.npz"
    args = ["--seed", "7", "--positions", "120", "--epochs", "15", "--batch", "16",
            "--hidden", "32", "--hidden2", "16", "--value-hidden", "16", "--out", str(out)]
    assert training.main(args) == 0
    assert "held-out policy loss" in capsys.readouterr().out
    model = read_model(out)
    meta = model.metadata
    assert meta["seed"] == 7 and meta["positions"] >= 120 and meta["format"] == FORMAT
    assert meta["command"].endswith(" ".join(args))
    # The short run fits the positions it trains on better than its random start did.
    assert meta["train_policy_loss_after"] < 0.8 * meta["train_policy_loss_before"]
    # The same seed and count make the same weights.
    again = tmp_path / "again.npz"
    assert training.main([*args[:-1], str(again)]) == 0
    for k in ARRAYS:
        assert np.array_equal(read_model(again).arrays[k], model.arrays[k])
    state = position(moves=9)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    assert len(model.advantages(obs, legal, legal[0])) == len(legal)


def guided() -> SearchBot:
    return SearchBot(iterations=30, max_candidates=3, min_worlds=4, guide=prior,
                     guided_iterations=24, guided_candidates=3)


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
    # The playout policy's candidates, then the guide's best moves not among them.
    assert [c.action for c in first.candidates] == \
           greedy_order + [a for a in top if a not in greedy_order]
    assert all(c.prior == scores[legal.index(c.action)] for c in first.candidates)
    why = guided().choose_explained(obs, legal, random.Random(8))[1]
    assert why.startswith(f"{first.action}: wins ") and ", learned " in why


def test_a_strong_prior_outweighs_a_few_worlds() -> None:
    """With a huge prior weight the search plays the guide's choice; with none, its rollouts'."""
    state = position(moves=9)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    scores = prior(obs, legal, random.Random(0))
    assert scores is not None
    trusting = SearchBot(iterations=30, guide=prior, prior_weight=1e9, guided_candidates=3)
    assert trusting.choose(obs, legal, random.Random(2)) == legal[int(np.argmax(scores))]
    blind = SearchBot(iterations=30, guide=prior, prior_weight=0.0, guided_candidates=3)
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
    bot = SearchBot(iterations=30, guide=prior, prior_margin=ranked[0] - ranked[1])
    result = bot.search(obs, legal, random.Random(0))
    assert result.action == legal[int(np.argmax(scores))]
    assert (result.iterations, result.worlds) == (0, 0)
    assert result.explanation().startswith(f"{result.action}: the learned policy rates it ")
    closer = SearchBot(iterations=30, guide=prior, prior_margin=ranked[0] - ranked[1] + 0.01)
    assert closer.search(obs, legal, random.Random(0)).worlds > 0


@pytest.mark.parametrize("variant", ["big-two", "forty-five", "spoil-five", "rummy", "pusoy-dos"])
def test_the_guide_leaves_every_other_variant_searched_as_before(variant: str) -> None:
    state = position(variant, moves=5)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    plain = SearchBot(iterations=30, max_candidates=3, min_worlds=4).search(
        obs, legal, random.Random(6))
    with_guide = guided().search(obs, legal, random.Random(6))
    assert with_guide.prior_weight == 0.0
    assert [(c.action, c.values) for c in plain.candidates] == \
           [(c.action, c.values) for c in with_guide.candidates]
    assert plain.action == with_guide.action


def test_the_levels_are_not_guided() -> None:
    """The guided searches measured were no stronger than the plain one (README, Bots)."""
    for level in LEVELS:
        bot = make_bot(level.name)
        assert isinstance(bot, SearchBot) and bot.guide is None


@pytest.mark.parametrize("kwargs, message", [
    ({"iterations": 10, "guided_iterations": 0}, "at least 1, not 0"),
    ({"iterations": 10, "guided_candidates": -1}, "guided_candidates must be at least 0"),
    ({"iterations": 10, "prior_weight": -1.0}, "prior_weight a finite number"),
    ({"iterations": 10, "prior_margin": 0.0}, "prior_margin must be above 0 points"),
])
def test_a_bad_guided_budget_is_refused(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(ParlourError, match=message):
        SearchBot(**kwargs)  # type: ignore[arg-type]
