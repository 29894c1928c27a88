"""The search bot and the difficulty levels: legal, reproducible, observation-only, explained,
and stronger where it must be.

Budgets are kept small (a few dozen rollouts) so that the whole file runs in seconds; the
strength of the real levels is measured with the arena, not here.
"""

from __future__ import annotations

import dataclasses
import functools
import random
import subprocess
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import pytest

import parlour
from parlour import CardSet, ParlourError, VariantError, registry
from parlour._core import MAX_ITERATIONS, Race
from parlour.arena.core import run_arena
from parlour.arena.stats import head_to_head
from parlour.bots import Bot, EasyBot, GreedyBot, RandomBot, SearchBot, bot_names, make_bot
from parlour.bots.learned import weights
from parlour.bots.learned.network import QNet
from parlour.bots.levels import LEVELS, bench_lines, level_config
from parlour.bots.search import Opponents, SearchConfig, SearchResult, paired_difference
from parlour.game import Action, Observation, State

VARIANTS = [v.name for v in parlour.variants()]
DECK = [str(c) for c in CardSet((1 << 52) - 1)]


def small_search() -> SearchBot:
    return SearchBot(SearchConfig(iterations=24, max_candidates=3, min_worlds=4))


def advance(state: State, moves: int, seed: int = 0) -> State:
    """``state`` after ``moves`` greedy moves (fewer if the deal ends first)."""
    rng = random.Random(seed)
    greedy = GreedyBot()
    for _ in range(moves):
        if state.is_over:
            break
        p = state.current_player
        state.apply(greedy.choose(state.observation(p), state.legal_actions(), rng))
    return state


def decision(variant: str, moves: int) -> State:
    """A position of ``variant`` after about ``moves`` greedy moves where the player to move has
    a real choice (more than one legal action)."""
    state = advance(parlour.new_game(variant).new_deal(seed=11), moves)
    while not state.is_over and len(state.legal_actions()) < 2:
        advance(state, 1)
    assert not state.is_over, f"{variant}'s deal ends within {moves} moves: ask for fewer"
    return state


@pytest.mark.parametrize("moves", [0, 9], ids=["start", "mid-deal"])
@pytest.mark.parametrize("variant", VARIANTS)
def test_search_returns_a_legal_explained_move_in_every_variant(variant: str, moves: int) -> None:
    state = decision(variant, moves)
    seat = state.current_player
    legal = state.legal_actions()
    before = state.history
    action, why = small_search().choose_explained(state.observation(seat), legal, random.Random(2))
    assert action in legal
    # The move in words ("the pair of 9s (9♣ 9♠)", "pass"), then its figures.
    assert why.startswith(f"{action.words()}: wins ")
    assert "simulated deals" in why
    assert state.history == before and state.current_player == seat  # the state is untouched


def test_the_same_generator_gives_the_same_search() -> None:
    state = decision("big-two-4card", 5)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    first = small_search().search(obs, legal, random.Random(5))
    again = small_search().search(obs, legal, random.Random(5))
    assert first.action == again.action
    assert [(c.action, c.values) for c in first.candidates] == \
           [(c.action, c.values) for c in again.candidates]
    assert first.iterations == again.iterations <= 24


def test_the_search_depends_on_the_observation_alone() -> None:
    """A state dealt anew from the observation (other hidden cards) gives the same search."""
    state = decision("forty-five", 6)
    seat = state.current_player
    obs = state.observation(seat)
    other = obs.sample_state(random.Random(99))
    assert other.observation(seat) == obs
    hidden_before = [state.observation(s).hand for s in range(state.game.players)]
    hidden_other = [other.observation(s).hand for s in range(state.game.players)]
    assert hidden_before != hidden_other  # the other seats really hold other cards
    mine = small_search().search(obs, state.legal_actions(), random.Random(3))
    theirs = small_search().search(other.observation(seat), other.legal_actions(),
                                   random.Random(3))
    assert [(c.action, c.values) for c in mine.candidates] == \
           [(c.action, c.values) for c in theirs.candidates]


def test_a_single_legal_action_is_returned_without_searching() -> None:
    state = parlour.new_game("big-two-4card").new_deal(seed=3)
    legal = state.legal_actions()
    assert len(legal) == 1  # the 3D opening
    result = small_search().search(state.observation(state.current_player), legal,
                                   random.Random(0))
    assert (result.action, result.iterations, result.worlds) == (legal[0], 0, 0)
    reason = small_search().choose_explained(state.observation(state.current_player), legal,
                                             random.Random(0))[1]
    assert reason == f"{legal[0].words()}: the only legal move"


def test_the_search_finds_the_winning_lead_that_greedy_misses() -> None:
    """Big Two with 4-card hands: each opponent holds one card; leading 2H (unbeatable) keeps
    control and 3D then goes out, whereas leading 3D lets the next seat go out at once."""
    game = parlour.new_game("big-two-4card")
    hands = ["2H 3D", "KC", "10H", "QS"]
    held = {c for h in hands for c in h.split()}
    state = game.new_deal(hands=hands, out=[c for c in DECK if c not in held], leader=0)
    obs, legal = state.observation(0), state.legal_actions()
    assert str(game.greedy_action(obs, legal, random.Random(0))) == "3D"
    action, why = small_search().choose_explained(obs, legal, random.Random(0))
    assert str(action) == "2H"
    assert why.startswith("the 2♥: wins 100% of ") and "next best the 3♦: wins 0%" in why


def test_hard_beats_random_over_fixed_deals() -> None:
    """Big Two with 4-card hands (zero-sum), hard in seat 0 against three random players on
    three fixed deals: hard comes out ahead overall and ahead of every random seat."""
    game = parlour.new_game("big-two-4card")
    bots = [make_bot("hard")] + [make_bot("random")] * 3
    totals = [0.0] * 4
    for deal in range(3):
        state = game.new_deal(seed=100 + deal)
        rng = random.Random(deal)
        while not state.is_over:
            p = state.current_player
            state.apply(bots[p].choose(state.observation(p), state.legal_actions(), rng))
        totals = [t + r for t, r in zip(totals, state.returns(), strict=True)]
    assert totals[0] > 0 and totals[0] > max(totals[1:])


def test_a_time_limit_alone_is_a_budget() -> None:
    state = decision("spoil-five", 3)
    bot = SearchBot(SearchConfig(time_limit=0.05, max_candidates=3))
    result = bot.search(state.observation(state.current_player), state.legal_actions(),
                        random.Random(0))
    assert result.action in state.legal_actions()
    assert result.worlds >= 1


def test_the_time_limit_starts_once_the_guide_and_playouts_are_at_hand() -> None:
    """A level's first search in a process loads its network (a quarter of a second or more);
    that is paid once, not taken from the move's search: here a guide slower than the whole
    time limit still leaves the search its full budget of rollouts."""
    state = decision("big-two", 8)
    obs, legal = state.observation(state.current_player), state.legal_actions()

    def slow_guide(observation: Observation, actions: Sequence[Action],
                   rng: random.Random) -> list[float]:
        time.sleep(0.6)
        return [0.0] * len(actions)

    def search(**limit: float) -> SearchResult:
        bot = SearchBot(SearchConfig(iterations=40, max_candidates=3, **limit), guide=slow_guide)
        return bot.search(obs, legal, random.Random(0))

    timed, untimed = search(time_limit=0.5), search()
    assert timed.seconds >= 0.6 and timed.iterations > len(timed.candidates)
    assert [c.values for c in timed.candidates] == [c.values for c in untimed.candidates]


def test_a_budget_below_one_world_still_tries_every_candidate() -> None:
    state = decision("big-two", 8)
    bot = SearchBot(SearchConfig(iterations=1, max_candidates=3))
    result = bot.search(state.observation(state.current_player), state.legal_actions(),
                        random.Random(0))
    assert result.worlds == 1
    assert result.iterations == len(result.candidates) == min(3, len(state.legal_actions()))
    assert all(c.samples == 1 for c in result.candidates)


@pytest.mark.parametrize("kwargs, message", [
    ({}, "needs a budget"),
    ({"iterations": 0}, "from 1 to 100,000,000, not 0"),
    ({"iterations": 2.5}, "whole number of rollouts"),
    # More than the compiled search takes: its results are kept world by world.
    ({"iterations": MAX_ITERATIONS + 1}, "from 1 to 100,000,000"),
    ({"iterations": 10, "network_iterations": 2**62}, "from 1 to 100,000,000"),
    ({"time_limit": float("nan")}, "finite number of seconds above 0, not nan"),
    ({"time_limit": 1e12}, "finite number of seconds above 0"),
    ({"iterations": 10, "max_candidates": 0}, "max_candidates must be at least 1"),
    ({"iterations": 10, "min_worlds": 2**62}, "min_worlds 1 to 100,000,000"),
    ({"iterations": 10, "threads": 0}, "threads must be a whole number from 1 to 256, not 0"),
    ({"iterations": 10, "threads": True}, "threads must be a whole number"),
    ({"iterations": 10, "indifference": -0.1}, "indifference must be a finite number"),
    ({"iterations": 10, "indifference": float("inf")}, "indifference must be a finite number"),
    ({"iterations": 10, "indifference": {"big-two": 0.3}}, "indifference must be a finite"),
    ({"iterations": 10, "keep_policy": None}, "keep_policy must be a finite number"),
    ({"iterations": 10, "guided": 1}, "guided and network_playouts are true or false"),
    ({"iterations": 10, "opponents": {"draws": 16}}, "opponents must be an Opponents"),
])
def test_a_bad_budget_is_refused(kwargs: dict[str, float], message: str) -> None:
    with pytest.raises(ParlourError, match=message):
        SearchConfig(**kwargs)  # type: ignore[arg-type]


def test_a_search_is_set_by_a_config() -> None:
    with pytest.raises(ParlourError, match="a search is set by a SearchConfig, not 400"):
        SearchBot(400)  # type: ignore[arg-type]
    bot = SearchBot(SearchConfig(iterations=400))
    changed = bot.replace(keep_policy=2.0, opponents={"draws": 4})
    assert (changed.config.keep_policy, changed.config.opponents) == (2.0, Opponents(draws=4))
    assert bot.config == SearchConfig(iterations=400)  # the first bot is unchanged
    with pytest.raises(ParlourError, match="a search has no setting 'candidates'"):
        bot.replace(candidates=3)
    with pytest.raises(ParlourError, match="keep_policy must be"):
        bot.replace(keep_policy=-1.0)


def test_the_compiled_search_refuses_a_budget_past_its_bound() -> None:
    Race(MAX_ITERATIONS, None, 8, 2.0, 0.0, 1)
    with pytest.raises(ValueError, match="iterations must be 1 to 100000000"):
        Race(MAX_ITERATIONS + 1, None, 8, 2.0, 0.0, 1)
    with pytest.raises(ValueError, match="indifference must be a finite number of at least 0"):
        Race(10, None, 8, 2.0, 0.0, 1, indifference=float("nan"))


def test_indifference_ends_the_race_among_moves_too_near_to_matter() -> None:
    """The same worlds, with and without an indifference: a candidate's results are the same
    world by world, the policy's own choice stays in the race unless clearly worse, and over a
    deal's decisions the race makes far fewer rollouts."""
    state = parlour.new_game("big-two").new_deal(seed=3)
    full = short = 0
    while not state.is_over:
        obs, legal = state.observation(state.current_player), state.legal_actions()
        if len(legal) > 2:
            long, near = (SearchBot(SearchConfig(iterations=600, indifference=indifference)).search(
                obs, legal, random.Random(len(state.history))) for indifference in (0.0, 0.3))
            for a, b in zip(long.candidates, near.candidates, strict=True):
                k = min(a.samples, b.samples)  # more worlds where fewer candidates are left
                assert a.action == b.action and a.values[:k] == b.values[:k]
            first = near.candidates[0]
            n = first.samples
            if n < near.worlds:  # dropped: clearly worse than the leader then
                assert any(mean > 2.5 * error for mean, error in (
                    paired_difference(c.values[:n], first.values)
                    for c in near.candidates if c.samples > n))
            full += long.iterations
            short += near.iterations
        state.apply(GreedyBot().choose(obs, legal, random.Random(0)))
    assert short < 0.6 * full, (short, full)


def test_no_legal_action_is_refused() -> None:
    state = parlour.new_game("forty-five").new_deal(seed=1)
    with pytest.raises(ParlourError, match="list of legal actions is empty"):
        small_search().choose(state.observation(0), [], random.Random(0))


def test_the_levels_are_bot_names() -> None:
    assert {"easy", "medium", "hard", "expert"} <= set(bot_names())
    assert isinstance(make_bot("easy"), EasyBot)
    budgets = []
    for level in LEVELS:
        bot = make_bot(level.name)
        live = make_bot(level.name, interactive=True)
        assert isinstance(bot, SearchBot) and isinstance(live, SearchBot)
        assert bot.name == live.name == level.name
        for variant in parlour.variants():
            config = bot.config_for_variant(variant.name)  # type: ignore[attr-defined]
            assert config == level_config(level.name, variant.name)
            assert config.iterations == level.search.iterations and config.time_limit is None
            assert live.config_for_variant(variant.name) == config.replace(  # type: ignore[attr-defined]
                time_limit=level.time_limit)
        assert bot.reusable and not live.reusable
        budgets.append((level.search.iterations, level.time_limit, level.search.max_candidates))
    assert budgets == sorted(budgets)  # each level searches at least as much as the one before
    with pytest.raises(VariantError, match="the bots are: random, greedy, easy, medium"):
        make_bot("master")


def test_easy_is_greedy_with_mistakes() -> None:
    state = decision("big-two-4card", 4)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    greedy = GreedyBot().choose(obs, legal, random.Random(0))
    assert EasyBot(blunder=0.0).choose(obs, legal, random.Random(0)) == greedy
    whims = {EasyBot(blunder=1.0).choose(obs, legal, random.Random(i)) for i in range(40)}
    assert len(whims) > 1 and whims <= set(legal)


@pytest.mark.parametrize("bot", [RandomBot(), GreedyBot(), EasyBot(), small_search()],
                         ids=lambda b: b.name)
def test_an_explained_choice_is_the_same_choice(bot: Bot) -> None:
    state = decision("rummy", 6)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    action, why = bot.choose_explained(obs, legal, random.Random(4))
    assert action == bot.choose(obs, legal, random.Random(4))
    assert why.startswith(f"{action.words()}: ")


def test_bench_lines_time_every_level_after_a_search_not_timed(
        monkeypatch: pytest.MonkeyPatch) -> None:
    searches: list[str] = []
    search = SearchBot.search

    def counted(self: SearchBot, *args: Any, **kwargs: Any) -> Any:
        searches.append(self.name)
        return search(self, *args, **kwargs)

    monkeypatch.setattr(SearchBot, "search", counted)
    lines = list(bench_lines(parlour.new_game("spoil-five"), 0.01))
    assert [line.split()[0] for line in lines] == ["medium", "hard", "expert"]
    assert all("ms p99 per decision" in line and "rollouts/s" in line for line in lines)
    # each level's first search (which loads its network) is not among those timed
    for line in lines:
        timed = int(line.split("(")[-1].split()[0])
        assert searches.count(line.split()[0]) == timed + 1


@pytest.mark.parametrize("variant", VARIANTS)
def test_the_search_runs_compiled_and_threads_do_not_change_it(variant: str) -> None:
    state = decision(variant, 6)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    assert obs._knowledge() is not None  # every family's search runs in Rust

    def searched(threads: int) -> list[tuple[object, list[float], int]]:
        bot = SearchBot(SearchConfig(iterations=400, max_candidates=4, min_worlds=4, threads=threads))
        result = bot.search(obs, legal, random.Random(5))
        return [(c.action, c.values, c.wins) for c in result.candidates]

    one = searched(1)
    assert sum(len(values) for _, values, _ in one) > len(one)  # more than a world each
    assert searched(3) == one


def test_an_observation_without_compiled_knowledge_is_refused(
        monkeypatch: pytest.MonkeyPatch) -> None:
    state = decision("rummy", 4)
    obs, legal = state.observation(state.current_player), state.legal_actions()
    monkeypatch.setattr(type(obs), "_knowledge", lambda self: None)
    with pytest.raises(ParlourError, match="rummy observations have no compiled knowledge"):
        SearchBot(SearchConfig(iterations=60)).search(obs, legal, random.Random(3))


@pytest.mark.parametrize("variant", ["big-two-4card", "forty-five", "rummy"])
def test_keep_policy_overrules_only_a_narrow_lead(variant: str) -> None:
    """With ``keep_policy`` the policy's choice stands unless another move beats it clearly:
    the same worlds and rollouts as without it, only the final pick differs."""
    picks = {"plain": 0, "kept": 0}
    for moves in range(0, 16, 2):  # within every variant's deal
        state = decision(variant, moves)
        obs, legal = state.observation(state.current_player), state.legal_actions()
        config = SearchConfig(iterations=60, max_candidates=4, min_worlds=4)
        plain = SearchBot(config).search(obs, legal, random.Random(moves))
        kept = SearchBot(config.replace(keep_policy=2.0)).search(obs, legal, random.Random(moves))
        assert [c.values for c in plain.candidates] == [c.values for c in kept.candidates]
        first = kept.candidates[0]
        if kept.action != plain.action:
            # Overruled: the policy's choice was still in the race and not clearly beaten.
            assert kept.action == first.action and first.samples == kept.worlds
            assert kept.explanation().endswith("not by enough to set aside the rule-based pick")
        elif kept.action != first.action:
            best = next(c for c in kept.candidates if c.action == kept.action)
            lead = [a - b for a, b in zip(best.values, first.values, strict=False)]
            assert first.samples < kept.worlds or sum(lead) > 0
        picks["plain"] += plain.action != first.action
        picks["kept"] += kept.action != first.action
    assert picks["kept"] <= picks["plain"]


@pytest.mark.parametrize("variant, margin", [("big-two-4card", 2.0), ("forty-five", 0.0),
                                             ("spoil-five", 0.0), ("rummy", 2.0)])
def test_the_levels_keep_the_policy_by_the_familys_measured_margin(variant: str,
                                                                   margin: float) -> None:
    assert {level_config(level.name, variant).keep_policy for level in LEVELS} == {margin}
    for moves in range(0, 12, 3):
        state = decision(variant, moves)
        obs, legal = state.observation(state.current_player), state.legal_actions()
        level = make_bot("medium").search(obs, legal, random.Random(moves))
        fixed = SearchBot(SearchConfig(iterations=48, max_candidates=4, keep_policy=margin)).search(
            obs, legal, random.Random(moves))
        assert level.action == fixed.action
        assert [c.values for c in level.candidates] == [c.values for c in fixed.candidates]


def test_a_levels_settings_are_its_own_then_its_familys_then_its_variants() -> None:
    expert = level_config("expert", "big-two-4card")
    assert expert.iterations == 18_000  # the level's
    assert expert.keep_policy == 2.0  # the family's
    assert (expert.network_playouts, expert.network_iterations) == (True, 1_500)  # the variant's
    assert expert.opponents == Opponents(draws=16)  # the variant's, from its fields
    assert level_config("expert", "big-two").opponents is None
    with pytest.raises(ParlourError, match="'master' is not a searching level"):
        level_config("master", "big-two")
    with pytest.raises(VariantError, match="unknown variant"):
        level_config("hard", "big-three")


def test_a_bad_setting_in_a_variants_record_is_refused(monkeypatch: pytest.MonkeyPatch) -> None:
    record = dataclasses.replace(parlour.get_variant("big-two"), levels={"hard": {"rollouts": 9}})
    monkeypatch.setitem(registry._REGISTRY, "big-two", record)
    level_config.cache_clear()
    try:
        with pytest.raises(ParlourError, match="a search has no setting 'rollouts'"):
            level_config("hard", "big-two")
    finally:
        level_config.cache_clear()


def test_keep_policy_must_be_a_margin() -> None:
    for bad in (-1.0, float("nan"), float("inf")):
        with pytest.raises(ParlourError, match="keep_policy must be a finite number"):
            SearchBot(SearchConfig(iterations=10, keep_policy=bad))


@pytest.mark.parametrize("variant", VARIANTS)
def test_an_included_move_is_raced_in_the_same_worlds(variant: str) -> None:
    state = decision(variant, 9)
    observation, legal = state.observation(state.current_player), state.legal_actions()
    bot = small_search()
    plain = bot.search(observation, legal, random.Random(4))
    outsiders = [a for a in legal if a not in [c.action for c in plain.candidates]]
    if not outsiders:  # every legal move is a candidate already: include changes nothing
        again = bot.search(observation, legal, random.Random(4), include=legal[-1])
        assert again.candidates == plain.candidates
        return
    result = bot.search(observation, legal, random.Random(4), include=outsiders[0])
    included = result.candidates[-1]
    assert included.action == outsiders[0] and included.samples > 0
    assert [c.action for c in result.candidates[:-1]] == [c.action for c in plain.candidates]
    elsewhere = [a for a in decision(variant, 0).legal_actions() if a not in legal]
    with pytest.raises(ParlourError, match="not one of the legal moves"):
        bot.search(observation, legal, random.Random(4), include=elsewhere[0])


def test_a_hint_never_shows_a_better_figure_for_another_move_without_saying_why() -> None:
    seen = set()
    for variant in VARIANTS:
        for moves in (0, 6, 12):
            state = decision(variant, moves)
            obs, legal = state.observation(state.current_player), state.legal_actions()
            config = SearchConfig(iterations=60, max_candidates=4, min_worlds=4, keep_policy=2.0)
            result = SearchBot(config).search(obs, legal, random.Random(moves))
            why = result.explanation()
            best = next(c for c in result.candidates if c.action == result.action)
            others = [c for c in result.candidates if c is not best and c.samples]
            if not others:
                continue
            second = max(others, key=lambda c: (c.mean, -c.rank))
            if second.mean > best.mean:
                assert "not by enough to set aside" in why
                seen.add("kept")
            elif second.win_rate > best.win_rate:
                assert "wins more often" in why
                seen.add("more wins")
            else:
                assert "; next best " in why
                seen.add("plain")
    assert "plain" in seen


def test_the_settings_script_compares_a_changed_level_with_the_shipped_one() -> None:
    """``scripts/search_settings.py``, which measured the documented keep_policy, inference,
    leaf_after, indifference and network figures: the same settings on both sides differ by
    nothing; changed ones by something."""
    script = Path(__file__).resolve().parents[1] / "scripts" / "search_settings.py"

    def run(*args: str, variant: str = "rummy", games: int = 3, level: str = "medium") -> str:
        done = subprocess.run([sys.executable, str(script), variant, level, "--games",
                               str(games), *args], capture_output=True, text=True, check=True)
        return done.stdout.splitlines()[0]

    assert run() == "medium-changed − medium-shipped: +0.000 [+0.000, +0.000] over 3 deals"
    changed = run("--keep-policy", "0", "--against-keep-policy", "2")
    assert changed.startswith("medium-changed − medium-shipped: ") and "+0.000 [" not in changed
    # Racing that drops moves too near to matter: none at 0, as shipped; at 2, other moves.
    assert run("--indifference", "0") == run()
    hasty = run("--indifference", "2")
    assert hasty.startswith("medium-changed − medium-shipped: ") and "+0.000 [" not in hasty
    # medium searches without the network; given network rollouts that stop at its value, it
    # plays other moves.
    same = run("--leaf-after", "1", variant="big-two-4card", games=2)
    assert same == "medium-changed − medium-shipped: +0.000 [+0.000, +0.000] over 2 deals"
    led = run("--leaf-after", "1", "--network-iterations", "40", variant="big-two-4card", games=2)
    assert led.startswith("medium-changed − medium-shipped: ") and "+0.000 [" not in led
    # What the network adds: nothing to a level without it; something once a side has it.
    plain = run("--against-no-network", variant="forty-five", games=2)
    assert plain == "medium-changed − medium-shipped: +0.000 [+0.000, +0.000] over 2 deals"
    guided = run("--network-iterations", "40", "--against-no-network", variant="big-two-4card",
                 games=2)
    assert guided.startswith("medium-changed − medium-shipped: ") and "+0.000 [" not in guided
    # Both sides played out by the network, as hard was before it was made a step below expert.
    both = run("--level-network-iterations", "40", variant="big-two-4card", games=2)
    assert both == "medium-changed − medium-shipped: +0.000 [+0.000, +0.000] over 2 deals"
    for greedy_side in ("--greedy-playouts", "--against-greedy-playouts"):
        assert run("--level-network-iterations", "40", greedy_side,
                   variant="big-two-4card", games=2) != both
    # A network budget for each side: the same on both is the run above; another differs.
    for against, same_budget in (("40", True), ("12", False)):
        budgets = run("--network-iterations", "40", "--against-network-iterations", against,
                      variant="big-two-4card", games=2)
        assert (budgets == both) is same_budget, budgets
    # Rummy's levels play out with greedy: a side played out by its network plays otherwise; the
    # second side may be another bot.
    netted = run("--network-playouts", "--network-iterations", "40", games=2)
    assert netted.startswith("medium-changed − medium-shipped: ") and "+0.000 [" not in netted
    assert run("--against", "learned", games=2).startswith("medium-changed − learned: ")
    # A model of the opponents that plays every other seat by greedy in the worlds.
    modelled = run("--network-iterations", "40", "--against-network-iterations", "40",
                   "--opponents", "1,0.999,1.0,1.0,0.001", variant="big-two-4card", games=2)
    assert modelled.startswith("medium-changed − medium-shipped: ") and modelled != both
    # The same model, its worlds chosen by those seats' moves (a sixth value: the draws).
    certain = ("--network-iterations", "40", "--against-network-iterations", "40", "--opponents")
    dealt = run(*certain, "1,0.999,0.05,1.0,0.001", variant="big-two-4card", games=2)
    assert run(*certain, "1,0.999,0.05,1.0,0.001,8", variant="big-two-4card", games=2) != dealt
    # expert models the opponents in big-two-4card (at a small network budget here): against
    # greedy, given its own model it plays as the level does; without one, otherwise.
    expert = functools.partial(run, "--network-iterations", "40", "--against", "greedy",
                               variant="big-two-4card", games=2, level="expert")
    as_level = expert()
    assert as_level.startswith("expert-changed − greedy: ")
    assert expert("--opponents", "128,0.5,0.05,0.3,0.8,16") == as_level
    assert expert("--no-opponents") != as_level


def test_the_chances_script_reports_each_kind_by_the_moves_seen() -> None:
    """``scripts/opponent_chances.py``, which measured the documented chances table: a row per
    kind, a cell per bucket of moves, with the model's certainty in the heading."""
    script = Path(__file__).resolve().parents[1] / "scripts" / "opponent_chances.py"
    done = subprocess.run([sys.executable, str(script), "big-two-4card", "--deals", "2",
                           "--certainty", "0.9"], capture_output=True, text=True, check=True)
    heading, buckets, *rows = done.stdout.splitlines()
    assert heading.startswith("big-two-4card, 2 deals: ") and "at 0.9 or above" in heading
    assert buckets.split()[3:6] == ["0-3", "4-7", "8-11"]
    assert [row.split()[0] for row in rows] == ["greedy", "learned"]
    # Early in a deal a seat's chance and the share at the certainty are both fractions.
    chance, share = (float(x) for x in rows[0].split()[1:4:2])
    assert 0.0 <= chance <= 1.0 and 0.0 <= share <= 1.0


def test_the_value_leaves_script_values_each_move_three_ways() -> None:
    """``scripts/value_leaves.py``, which measured the documented value network against the
    rollouts it would shorten: stopped past every deal's end, both estimates are the return
    played out (the network's play is deterministic), and stopped at the next choice they are
    not."""
    script = Path(__file__).resolve().parents[1] / "scripts" / "value_leaves.py"
    done = subprocess.run([sys.executable, str(script), "big-two-4card", "--deals", "200",
                           "--epochs", "1", "--eval-deals", "2", "--leaf-after", "1", "99"],
                          capture_output=True, text=True, check=True)
    lines = done.stdout.splitlines()
    assert lines[0].startswith("big-two-4card: ") and "choices of 200 deals" in lines[0]
    assert lines[1].startswith("epoch 1: error ")
    assert lines[2].startswith("stopped at the seat's choice 1, ")
    assert all("error 0.00" not in line for line in lines[3:5])
    assert lines[5].startswith("stopped at the seat's choice 99, ")
    exact = "best move kept 100.0%, 0.00 points lost a choice, error 0.00"
    assert lines[6:] == [f"  value network: {exact}", f"  network's best score: {exact}"]


def test_the_settings_script_puts_another_network_in_the_shipped_ones_place(
        tmp_path: Path) -> None:
    """``--network``: the file's network plays wherever the shipped one would, on both sides
    (``learned`` here, and the level's guide and playouts); the shipped weights copied to
    another file play exactly as shipped, and a file that is not weights is refused."""
    script = Path(__file__).resolve().parents[1] / "scripts" / "search_settings.py"
    shipped = weights("big-two-4card")[4]
    same = tmp_path / "same.npz"
    same.write_bytes(shipped.read_bytes())
    net, metadata = QNet.load(shipped)
    net.params["w3"] = -net.params["w3"]  # a network that likes its worst moves best
    worst = tmp_path / "worst.npz"
    net.save(worst, metadata)

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(script), "big-two-4card", "hard", "--games",
                               "1", "--against", "learned", *args], capture_output=True,
                              text=True)

    plain = run().stdout.splitlines()[0]
    assert plain.startswith("hard-changed − learned: ")
    assert run("--network", str(same)).stdout.splitlines()[0] == plain
    assert run("--network", str(worst)).stdout.splitlines()[0] != plain
    refused = run("--network", str(script))
    assert refused.returncode != 0 and "cannot read the weights" in refused.stderr

    # The network alone: `learned` itself, with the file's network in its place.
    def alone(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, str(script), "big-two-4card", "learned", "--games",
                               "2", "--against", "greedy", *args], capture_output=True,
                              text=True)

    pair = head_to_head(run_arena(parlour.new_game("big-two-4card"), ["learned", "greedy"], 2,
                                  seed=1, duplicate=True))[0]
    by_itself = (f"learned − greedy: {pair.mean:+.3f} [{pair.mean - pair.half:+.3f}, "
                 f"{pair.mean + pair.half:+.3f}] over 2 deals")
    assert alone().stdout.splitlines()[0] == by_itself
    assert alone("--network", str(same)).stdout.splitlines()[0] == by_itself
    assert alone("--network", str(worst)).stdout.splitlines()[0] != by_itself
    refused = alone("--keep-policy", "2")
    assert refused.returncode != 0 and "no search settings (given: keep_policy)" in refused.stderr


def test_the_settings_script_pairs_a_run_with_the_shipped_levels_journal(tmp_path: Path) -> None:
    """``--paired``: the deal-by-deal difference from the shipped level's run against the same
    opponent, read back from its journal (which is left as it was)."""
    script = Path(__file__).resolve().parents[1] / "scripts" / "search_settings.py"
    journal = tmp_path / "medium-greedy.jsonl"
    run_arena(parlour.new_game("rummy"), ["medium", "greedy"], 3, seed=1, duplicate=True,
              journal=journal)
    recorded = journal.read_bytes()

    def paired(*args: str) -> str:
        done = subprocess.run([sys.executable, str(script), "rummy", "medium", "--games", "3",
                               "--against", "greedy", "--paired", str(journal), *args],
                              capture_output=True, text=True, check=True)
        return done.stdout.splitlines()[-1]

    assert paired() == f"paired with {journal}: +0.000 [+0.000, +0.000] over 3 deals"
    # Played by two worker processes, which register the changed side themselves.
    changed = paired("--keep-policy", "0", "--workers", "2")
    assert changed.startswith(f"paired with {journal}: ") and "+0.000 [" not in changed
    assert journal.read_bytes() == recorded
    refused = subprocess.run([sys.executable, str(script), "rummy", "medium", "--games", "3",
                              "--paired", str(journal)], capture_output=True, text=True)
    assert refused.returncode != 0 and "--paired compares" in refused.stderr


def test_the_settings_script_plays_out_with_the_network_it_is_given(tmp_path: Path) -> None:
    """``--playout-weights``: the shipped network's own file plays out as the shipped level
    does; other weights play out otherwise, with the same guide."""
    from parlour.bots.learned import weights
    from parlour.bots.learned.network import QNet

    script = Path(__file__).resolve().parents[1] / "scripts" / "search_settings.py"

    def run(*args: str) -> str:
        done = subprocess.run([sys.executable, str(script), "big-two-4card", "medium", "--games",
                               "2", "--network-iterations", "40", *args],
                              capture_output=True, text=True, check=True)
        return done.stdout.splitlines()[0]

    shipped = weights("big-two-4card")[4]
    net, metadata = QNet.load(shipped)
    net.params["w3"] = -net.params["w3"]  # the worst move played where the best was
    other = tmp_path / "other.npz"
    net.save(other, metadata)
    as_shipped = run()
    assert run("--playout-weights", str(shipped)) == as_shipped
    assert run("--playout-weights", str(other)) != as_shipped
