"""parlour's variants as OpenSpiel games, and OpenSpiel's IS-MCTS as the bot ``ismcts``.

OpenSpiel's own consistency checks (``pyspiel.random_sim_test``: clones, legal actions and
their masks, action strings, observations, returns within bounds, the length of a deal) run on
every variant at every player count; no string or tensor a seat is given depends on a card
hidden from it; the chance node with a seed deals parlour's deal of that seed and the same moves
give parlour's returns. ``ismcts`` plays whole deals of every variant by the rules, and the same
seed gives the same moves.
"""

from __future__ import annotations

import io
import pickle
import random
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pyspiel
import pytest

import parlour
import parlour.interop.openspiel as ios
from helpers import CONFIGS, IDS, hidden_now, named_cards, other_options
from parlour.arena.deals import play_deal
from parlour.bots import ISMCTSBot, bot_names, bot_spec, make_bot, offered_bots
from parlour.cli import main
from parlour.envs import action_index, encoder, reward_scale
from parlour.game import State

#: Rummy under random play runs to its turn limit; a short one keeps every check quick.
SHORT: dict[str, dict[str, Any]] = {"rummy": {"turn_limit": 40}}


def load(variant: str, players: int | None = None, **params: Any) -> Any:
    given: dict[str, Any] = {} if players is None else {"players": players}
    return pyspiel.load_game(ios.game_name(variant), {**SHORT.get(variant, {}), **given, **params})


def test_every_variant_is_registered_with_its_parameters() -> None:
    registered = {g.short_name: g for g in pyspiel.registered_games()}
    for variant in parlour.variants():
        kind = registered[ios.game_name(variant.name)]
        assert kind.chance_mode == pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC
        assert kind.information == pyspiel.GameType.Information.IMPERFECT_INFORMATION
        assert (kind.min_num_players, kind.max_num_players) == (min(variant.players),
                                                                max(variant.players))
        spec = {k: v for k, v in kind.parameter_specification.items()}
        assert spec == {"players": variant.default_players, "rng_seed": -1,
                        **{o.name: o.default for o in variant.option_info()}}
        for n in variant.players:
            game = pyspiel.load_game(kind.short_name, {"players": n})
            ours = parlour.new_game(variant.name, players=n)
            assert game.parlour_game == ours
            assert game.num_players() == n
            assert game.num_distinct_actions() == action_index(ours).size
            assert game.observation_tensor_shape() == [encoder(ours).size]
            assert game.max_utility() == -game.min_utility() == reward_scale(ours)
            assert game.max_chance_outcomes() == 1


def test_parameters_are_the_options_and_refused_as_parlour_refuses_them() -> None:
    game = pyspiel.load_game("python_parlour_big_two", {"allow_triples": True,
                                                        "straights": "hong-kong"})
    assert game.parlour_game == parlour.new_game("big-two", allow_triples=True,
                                                 straights="hong-kong")
    with pytest.raises(parlour.VariantError, match="played by 2, 4 or 6 players, not 3"):
        pyspiel.load_game("python_parlour_forty_five", {"players": 3})
    with pytest.raises(parlour.VariantError, match="must be 'standard' or 'hong-kong'"):
        pyspiel.load_game("python_parlour_big_two", {"straights": "wrap"})


@pytest.mark.parametrize(("variant", "players"), CONFIGS, ids=IDS)
def test_openspiel_random_simulations(variant: str, players: int) -> None:
    pyspiel.random_sim_test(load(variant, players), num_sims=2 if variant != "rummy" else 1,
                            serialize=False, verbose=False)


@pytest.mark.parametrize("variant", [v for v in parlour.variants() if other_options(v)],
                         ids=lambda v: v.name)
def test_openspiel_random_simulations_with_other_options(variant: parlour.Variant) -> None:
    pyspiel.random_sim_test(load(variant.name, **other_options(variant)), num_sims=1,
                            serialize=False, verbose=False)


class Draws:
    """A probability sampler for ``resample_from_infostate``: numbers from a seeded generator."""

    def __init__(self, seed: int) -> None:
        self.random = random.Random(seed).random

    def __call__(self) -> float:
        return self.random()


@pytest.mark.parametrize(("variant", "players"), CONFIGS, ids=IDS)
def test_no_string_or_tensor_of_a_seat_depends_on_its_hidden_cards(variant: str,
                                                                   players: int) -> None:
    game = load(variant, players, rng_seed=players)
    rng = random.Random(players)
    draws = Draws(players)
    state = game.new_initial_state()
    state.apply_action(0)
    resampled_differently = 0
    while True:
        deal: State = state.to_parlour()
        for seat in range(players):
            hidden = hidden_now(deal, seat)
            info, seen = state.information_state_string(seat), state.observation_string(seat)
            for text in (info, seen):
                assert not named_cards(text) & hidden, (seat, text)
            tensor = state.observation_tensor(seat)
            other = state.resample_from_infostate(seat, draws)
            assert other.history() == state.history()
            assert other.current_player() == state.current_player()
            assert other.information_state_string(seat) == info
            assert other.observation_string(seat) == seen
            assert other.observation_tensor(seat) == tensor
            if not state.is_terminal():  # as the bot's root is made: strings made anew
                again = game.from_parlour(other.to_parlour())
                assert again.information_state_string(seat) == info
                assert again.observation_tensor(seat) == tensor
            resampled_differently += other.to_parlour().zones() != deal.zones()
        if state.is_terminal():
            break
        state.apply_action(rng.choice(state.legal_actions()))
    assert resampled_differently, "no resampled deal differed: the check proved nothing"


@pytest.mark.parametrize("variant", parlour.variants(), ids=lambda v: v.name)
def test_the_same_seed_and_moves_give_parlours_deal_and_returns(variant: parlour.Variant) -> None:
    game = load(variant.name)
    ours = game.parlour_game
    index = action_index(ours)
    rng = random.Random(3)
    for seed in (0, 11):
        state = game.new_initial_state()
        state.deal(seed)
        deal = ours.new_deal(seed=seed)
        assert state.deal_seed == seed
        assert state.to_parlour().zones() == deal.zones()
        while not deal.is_over:
            assert state.current_player() == deal.current_player
            assert not state.is_terminal()
            legal = state.legal_actions()
            assert legal == sorted(index.indices(deal.legal_actions(), deal))
            action = rng.choice(legal)
            state.apply_action(action)
            deal.apply(index.action(action, deal))
        assert state.is_terminal()
        assert state.returns() == deal.returns()
        assert game.from_parlour(deal).history() == state.history()


def test_the_chance_node_draws_from_the_games_seed() -> None:
    def first_deal(rng_seed: int) -> Any:
        state = load("big-two", rng_seed=rng_seed).new_initial_state()
        assert state.chance_outcomes() == [(0, 1.0)]
        state.apply_action(0)
        return state

    one, two, three = first_deal(5), first_deal(5), first_deal(6)
    assert one.deal_seed == two.deal_seed != three.deal_seed
    assert str(one) == str(two)
    assert one.to_parlour().zones() == parlour.new_game("big-two").new_deal(
        seed=one.deal_seed).zones()


def test_states_and_games_serialise_and_pickle() -> None:
    game = load("rummy", 3, rng_seed=1, score_melds=False)
    state = game.new_initial_state()
    state.apply_action(0)
    rng = random.Random(0)
    for _ in range(30):
        state.apply_action(rng.choice(state.legal_actions()))
    for copy in (game.deserialize_state(state.serialize()), pickle.loads(pickle.dumps(state))):
        assert str(copy) == str(state)
        assert copy.history() == state.history()
        assert copy.information_state_string(1) == state.information_state_string(1)
    again = pickle.loads(pickle.dumps(game))
    assert str(again) == str(game)
    assert again.new_initial_state().child(0).deal_seed == game.new_initial_state().child(
        0).deal_seed


def test_importing_parlour_does_not_import_openspiel() -> None:
    code = ("import sys, parlour, parlour.bots, parlour.cli; "
            "assert 'pyspiel' not in sys.modules and 'open_spiel' not in sys.modules")
    subprocess.run([sys.executable, "-c", code], check=True)


# -- the bot -----------------------------------------------------------------------------------

def test_ismcts_is_offered_at_every_table_and_takes_its_settings_after_its_name(
        capsys: pytest.CaptureFixture[str]) -> None:
    assert "ismcts" in bot_names()
    assert isinstance(make_bot("ismcts"), ISMCTSBot)
    assert all("ismcts" in offered_bots(v.name, n) for v in parlour.variants()
               for n in v.players)
    bot = make_bot("ismcts:uct_c=0.5:simulations=7", interactive=True)
    assert isinstance(bot, ISMCTSBot) and (bot.simulations, bot.uct_c) == (7, 0.5)
    assert bot_spec("ismcts:uct_c=0.5:simulations=7") == "ismcts:simulations=7:uct_c=0.5"
    for spec, why in [
        ("ismcts:simulations=0", "ismcts: simulations must be a whole number from 1 to 100,000"),
        ("ismcts:simulations=2.5", "must be a whole number"),
        ("ismcts:uct_c=nan", "uct_c must be a number from 0 to 100, not 'nan'"),
        ("ismcts:depth=3", "ismcts has no setting 'depth=3'; write ismcts:setting=value with "
                           "one of: simulations, uct_c"),
        ("ismcts:simulations", "has no setting 'simulations'"),
        ("ismcts:simulations=3:simulations=4", "simulations is given twice"),
        ("expert:simulations=3", "expert takes no settings"),
    ]:
        with pytest.raises(parlour.VariantError, match=re.escape(why)):
            make_bot(spec)
    with pytest.raises(parlour.VariantError, match="simulations must be a whole number"):
        ISMCTSBot(simulations=0)
    assert main(["simulate", "forty-five", "--players", "2", "--games", "1",
                 "--bots", "ismcts:simulations=abc,greedy"], out=io.StringIO()) == 2
    assert ("simulations must be a whole number from 1 to 100,000, not 'abc'"
            in capsys.readouterr().err)


def test_ismcts_at_a_web_table_and_through_parlour_client(tmp_path: Path) -> None:
    """The lobby offers it, a table seats it with a budget, and ``parlour client`` plays it at
    a remote seat; a budget out of range is refused as any bad input is."""
    import httpx2 as httpx

    from parlour.web.app import create_app
    from web_helpers import running_server

    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite'}", bot_delay=0)
    with running_server(app) as live:
        listed = httpx.get(f"{live.url}/api/variants").json()
        assert all("ismcts" in v["bots"] for v in listed["variants"])
        bad = httpx.post(f"{live.url}/api/tables", json={
            "variant": "forty-five", "players": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "ismcts:simulations=-1"}]})
        assert bad.status_code == 400
        assert "seat 1: ismcts: simulations must be a whole number" in bad.json()["error"]
        table = httpx.post(f"{live.url}/api/tables", json={
            "variant": "forty-five", "players": 2, "options": {"target": 5}, "seed": 3,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "ismcts:simulations=5"}],
        }).json()["table"]
        printed = io.StringIO()
        code = main(["client", live.url, table["id"], "--seat", "0",
                     "--bot", "ismcts:simulations=5", "--name", "R0"], out=printed)
        assert code == 0, printed.getvalue()
        record = httpx.get(f"{live.url}/api/tables/{table['id']}/record").json()
        assert record["over"] and len(record["deals"]) >= 1
        assert [s["name"] for s in record["seats"]] == ["R0", "ismcts:simulations=5"]


class Checked:
    """A bot that must choose one of the legal moves, and is given only the observation."""

    def __init__(self, bot: ISMCTSBot) -> None:
        self.bot = bot
        self.moves = 0

    def choose(self, observation: Any, legal: Any, rng: random.Random) -> Any:
        assert isinstance(observation, parlour.Observation)
        action = self.bot.choose(observation, legal, rng)
        assert action in legal
        self.moves += len(legal) > 1
        return action


@pytest.mark.parametrize("variant", parlour.variants(), ids=lambda v: v.name)
def test_ismcts_plays_whole_deals_by_the_rules(variant: parlour.Variant) -> None:
    game = parlour.new_game(variant.name, **SHORT.get(variant.name, {}))
    bots = [Checked(ISMCTSBot(simulations=6)) for _ in range(2)]
    seats: list[Any] = [*bots, *[make_bot("greedy")] * (game.players - 2)]
    state = play_deal(game, seats, 1, 0)
    assert state.is_over
    assert all(bot.moves for bot in bots)


def test_ismcts_is_reproducible_from_its_seed() -> None:
    game = parlour.new_game("big-two-4card")
    state = game.new_deal(seed=4)
    observation, legal = state.observation(state.current_player), state.legal_actions()
    bot = ISMCTSBot(simulations=30)
    moves = {bot.choose(observation, legal, random.Random(seed)) for seed in (1, 1, 1)}
    assert len(moves) == 1
    rng_a, rng_b = random.Random(9), random.Random(9)
    first = bot.choose(observation, legal, rng_a)
    assert ISMCTSBot(simulations=30).choose(observation, legal, rng_b) == first
    assert rng_a.getstate() == rng_b.getstate()
    deals = [play_deal(parlour.new_game("forty-five", players=2),
                       [ISMCTSBot(simulations=10), "greedy"], 5, 2) for _ in range(2)]
    assert deals[0].history == deals[1].history


def test_ismcts_in_the_arena(tmp_path: Any) -> None:
    from io import StringIO

    out = StringIO()
    code = main(["arena", "forty-five", "--players", "2", "--bots", "greedy,ismcts",
                 "--games", "2", "--duplicate", "--seed", "1",
                 "--results", str(tmp_path / "results.sqlite")], out=out)
    assert code == 0, out.getvalue()
    assert "ismcts" in out.getvalue()
