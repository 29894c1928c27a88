"""A family that exists only in the tests (``toy_family``: High Card) is played at every front
end through what it registers and nothing else: the terminal table (by keys, from the start
screen), the web table (HTTP and WebSocket), the arena (its function and ``parlour arena``),
the PettingZoo AEC environment and the batched environment.

The family is registered only inside the ``toy`` fixture, into copies of the registries that
are put back afterwards, so every other module's ``parlour.variants()`` never sees it.
"""

from __future__ import annotations

import asyncio
import io
import random
import warnings
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test  # type: ignore[import-untyped]
from rich.console import Console
from starlette.testclient import TestClient
from textual.pilot import Pilot
from textual.widgets import Button, Static

import parlour
import parlour.client
import parlour.encoding
import parlour.registry
from parlour.arena import bot_stats, run_arena
from parlour.cards import Card
from parlour.cli import main
from parlour.client import observation_from_dict
from parlour.envs import aec_env, batched_env, encoder, env_id, env_ids
from parlour.envs.batched import sample_legal
from parlour.errors import VariantError
from parlour.records import load, replay_deal, replay_match
from parlour.registry import Variant, family_of
from parlour.session import HUMAN
from parlour.tui import ParlourApp
from parlour.tui.app import TableScreen
from parlour.tui.screens import DealOverScreen, Settings, StartScreen
from parlour.tui.widgets import Hand, card_face
from parlour.web import create_app
from toy_family import FAMILY, VARIANT, ToyObservation, ToyState
from toy_family import register as register_toy
from web_helpers import CARD, Session, close_all, create, join

#: The registries the family's registration writes to, and the encoders' caches by game.
REGISTRIES = (
    (parlour.registry, ("_REGISTRY", "_FAMILIES")),
    (parlour.encoding, ("_ENCODINGS", "_INDEXES", "_SCALES", "_COMPILED", "_ENCODER_CACHE",
                        "_INDEX_CACHE", "_COMPILED_CACHE")),
)
NAME = VARIANT.name


def registered_names() -> list[str]:
    return [v.name for v in parlour.variants()]


@pytest.fixture
def toy() -> Iterator[Variant]:
    """High Card registered (its family record, variant and encoding) for one test: each
    registry is replaced by a copy for the test and the original put back after it."""
    assert NAME not in registered_names()
    with pytest.MonkeyPatch.context() as patch:
        for module, names in REGISTRIES:
            for name in names:
                patch.setattr(module, name, dict(getattr(module, name)))
        register_toy()
        assert registered_names()[-1] == NAME and family_of(NAME) is FAMILY
        try:
            yield VARIANT
        finally:
            # The remote client's cache of observation types by game.
            parlour.client._observation_type.cache_clear()
    assert NAME not in registered_names()
    assert all(f.name != FAMILY.name for f in parlour.registry.families())
    with pytest.raises(VariantError):
        parlour.encoding.encoder(VARIANT.make())


def test_the_toy_family_is_unknown_outside_its_fixture() -> None:
    assert NAME not in registered_names()
    with pytest.raises(VariantError):
        parlour.new_game(NAME)
    assert env_id(NAME) not in env_ids()


def test_the_rules_by_the_protocol(toy: Variant) -> None:
    """The deal, the moves, the returns, copies, records and what each seat sees."""
    game = parlour.new_game(NAME)
    state = game.new_deal(hands=["2C 9D KS", "3H 10S AC"], leader=1)
    assert state.current_player == 1 and [str(a) for a in state.legal_actions()] == [
        "3H", "10S", "AC"]
    with pytest.raises(parlour.IllegalAction, match="you do not hold KS"):
        state.apply("KS")
    with pytest.raises(parlour.IllegalAction, match="expected one card"):
        state.apply("pass")
    copy = state.clone()
    for card in ("AC", "2C", "3H", "9D", "KS", "10S"):
        state.apply(card)
    assert state.is_over and state.legal_actions() == [] and state.returns() == [1.0, -1.0]
    assert copy.history == [] and not copy.is_over
    assert parlour.new_game(NAME).new_deal(**state.setup()).zones() == copy.zones()
    zones = state.zones()
    assert len(zones["played"]) == 6 and len(zones["stock"]) == 46
    assert not zones["P0"] and not zones["P1"]
    assert state.observation(0).view().result == (
        "the deal is over: P0 took 2 tricks, P1 1 trick; P0 wins")
    # Every seat's view from a deal dealt from a seed: its own hand, nothing of the other's.
    dealt = game.new_deal(seed=9)
    for seat in (0, 1):
        obs = dealt.observation(seat)
        assert set(obs.hand) == set(dealt.zones()[f"P{seat}"])
        assert not set(CARD.findall(obs.render() + str(obs.to_dict()))) & {
            str(c) for c in dealt.hidden_from(seat)}
        assert obs.sample_state(random.Random(seat)).observation(seat) == obs
        assert observation_from_dict(game, obs.to_dict()) == obs


# -- the terminal table ----------------------------------------------------------------------------


async def settle(pilot: Pilot[Any]) -> None:
    """Wait until the bot has moved and it is the person's turn, or another screen is up."""
    app = pilot.app
    for _ in range(1000):
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        if not isinstance(screen, TableScreen):
            return
        if screen.my_turn and not any(w.is_running for w in app.workers):
            return
    raise AssertionError("the table never came back to the person")


async def start_screen(pilot: Pilot[Any]) -> StartScreen:
    """The start screen once its form for the chosen variant is built."""
    for _ in range(1000):
        await pilot.pause()
        screen = pilot.app.screen
        if (isinstance(screen, StartScreen) and screen.query("#seat")
                and all(widget.is_mounted for widget in screen.query("#setup *"))):
            return screen
    raise AssertionError("the start screen never finished its form")


def screen_text(app: ParlourApp) -> str:
    """What the window shows, as text (the screen's own rendering, as a screenshot takes it)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True,
                      force_terminal=True, color_system="truecolor", legacy_windows=False)
    console.print(app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens))
    return console.export_text()


def message(table: TableScreen) -> str:
    return str(table.query_one("#message", Static).content)


async def play_by_keys(pilot: Pilot[Any], table: TableScreen, card: Card, key: str) -> None:
    """Move the hand's cursor to ``card``, select it with space and press ``key``."""
    hand = table.query_one("#hand", Hand)
    await pilot.press("home", *["right"] * hand.cards.index(card), "space")
    assert hand.selected == {card}
    await pilot.press(key)


def test_the_terminal_table_plays_a_deal_by_keys(toy: Variant) -> None:
    asyncio.run(_terminal_deal())


async def _terminal_deal() -> None:
    app = ParlourApp(pace=0, settings=Settings(NAME, seed=5, bots=["greedy"]))
    rng = random.Random(5)
    async with app.run_test(size=(80, 24)) as pilot:
        start = await start_screen(pilot)
        assert start.query_one("#opt-tricks")  # the family's option, in the generic form
        await pilot.click("#start")
        await settle(pilot)
        table = app.screen
        assert isinstance(table, TableScreen) and table.game.name == NAME
        assert table.seats == [HUMAN, "greedy"] and table.game_verbs == ["play"]
        assert [b.name for b in table.query("#actions Button").results(Button)] == ["play"]
        # No card selected: refused with the rule, nothing played.
        await pilot.press("p")
        assert message(table).startswith("Not allowed: select one card to play")
        assert table.state.history == []
        # No searching level can judge the toy's moves: a hint says so, and nothing breaks.
        await pilot.press("h")
        assert message(table) == (f"There are no hints in {NAME}: no computer player here "
                                  "can judge its moves.")
        mine = []
        keys = iter(["p", "enter"] * 3)
        while isinstance(app.screen, TableScreen):
            state = table.state
            legal = state.legal_actions()
            assert set(table.query_one("#hand", Hand).cards) == {Card(int(a)) for a in legal}
            # The window shows the person's cards and none of the other hand's.
            shown = screen_text(app)
            assert all(card_face(Card(int(a))) in shown for a in legal), shown
            assert not [c for c in state.zones()["P1"] if card_face(c) in shown], shown
            action = rng.choice(legal)
            before = len(state.history)
            await play_by_keys(pilot, table, Card(int(action)), next(keys))
            assert state.history[before] == (0, action)
            mine.append(action)
            await settle(pilot)
        assert isinstance(app.screen, DealOverScreen) and app.screen.title_text == "Deal 1 is over"
        deal = table.match.deals[0]
        assert deal.is_over and len(mine) == 3 and table.match.is_over
        assert [a for seat, a in deal.history if seat == 0] == mine
        assert sum(deal.returns()) == 0 and abs(deal.returns()[0]) in (1, 3)
        result = deal.observation(0).view().result
        assert result is not None and result in app.screen.parts


# -- the web table -------------------------------------------------------------------------------


@pytest.fixture
def http(toy: Variant, tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path}/w.sqlite", bot_delay=0)) as client:
        try:
            yield client
        finally:
            close_all()


def test_the_web_lists_the_toy_with_its_record_and_no_felt(http: TestClient) -> None:
    variants = {v["name"]: v for v in http.get("/api/variants").json()["variants"]}
    info = variants[NAME]
    assert info["family"] == FAMILY.to_dict()
    assert info["family"]["felt"] == "" and info["family"]["verbs"] == [
        {"name": "play", "label": "Play", "key": "p", "help": "play the selected card"}]
    assert info["rules"] == VARIANT.summary and info["match_end"] == "the match is one deal"
    assert [o["name"] for o in info["options"]] == ["tricks"]
    # The levels that play without compiled parts; never the searching ones, which cannot.
    assert info["bots"][:3] == ["random", "easy", "greedy"]
    assert not {"medium", "hard", "expert"} & set(info["bots"])
    assert info["bots_by_players"] == {"2": info["bots"]}
    # No felt: neither a module nor a style sheet to load.
    assert http.get("/static/felts/toy.js").status_code == 404
    assert http.get("/static/felts/toy.css").status_code == 404
    # A searching level asked for anyway is refused, and no table is made.
    for seats, stand_in, where in [
            ([{"kind": "human"}, {"kind": "bot", "bot": "hard"}], "greedy", "seat 1: hard"),
            ([{"kind": "human"}, {"kind": "bot", "bot": "greedy"}], "expert",
             "the stand-in: expert")]:
        refused = http.post("/api/tables", json={"variant": NAME, "seats": seats,
                                                 "stand_in": stand_in})
        assert refused.status_code == 400
        assert refused.json()["error"].startswith(f"{where} cannot play {NAME}")
    assert http.get("/api/tables").json()["total"] == 0


@pytest.mark.parametrize("bot", ["greedy", "random"])
def test_the_web_table_plays_a_deal_against_a_bot(http: TestClient, bot: str) -> None:
    seats = [{"kind": "human"}, {"kind": "bot", "bot": bot}]
    table = create(http, NAME, seats, seed=4)
    me = Session(http, table["id"], join(http, table["id"], 0, "Ann")["token"])
    game = parlour.new_game(NAME)
    rng = random.Random(4)
    sent = 0
    while not me.view["deal_over"]:
        view = me.view
        if view["current_player"] != 0:
            me.receive_until(lambda m: m["type"] == "update")
            continue
        assert view["your_turn"] and view["verbs"] == ["play"] and view["prompt"]
        legal = [entry["action"] for entry in view["legal"]]
        assert sorted(legal) == sorted(view["hand"])
        obs = observation_from_dict(game, view["observation"])
        assert isinstance(obs, ToyObservation) and obs.to_dict() == view["observation"]
        # No hint: no searching level can judge the toy's moves.
        me.send({"type": "hint", "ref": "h"})
        no_hint = me.receive_until(lambda m: m["type"] == "error")
        assert no_hint["ref"] == "h" and no_hint["message"].startswith("there are no hints")
        # A card not in hand is refused, and nothing changes.
        other = next(str(c) for c in parlour.cards.CARDS if str(c) not in legal)
        me.send({"type": "action", "verb": "play", "cards": [other], "ref": "no"})
        refused = me.receive_until(lambda m: m["type"] == "error")
        assert refused["ref"] == "no" and f"you do not hold {other}" in refused["message"]
        card = rng.choice(legal)
        # The page's form (verb and cards) and the notation's, in turn.
        me.send({"type": "action", "verb": "play", "cards": [card]} if sent % 2
                else {"type": "action", "action": card})
        sent += 1
        version = view["step"]
        me.receive_until(lambda m, v=version: m["type"] == "update" and m["view"]["step"] > v)
    final = me.view
    assert sent == 3 and final["deal_result"].startswith("the deal is over")
    returns = final["result"]["returns"]
    assert sum(returns) == 0 and abs(returns[0]) in (1, 3)
    # The table's record replays to the same deal and result.
    record = http.get(f"/api/tables/{table['id']}/record").json()
    (replayed,) = replay_match(record)
    assert replayed.returns() == returns and isinstance(replayed, ToyState)
    # What the client was sent never named a card it could not see: its own cards, and the
    # cards played by the time of each update.
    mine: set[str] = set()
    for m in me.messages:
        if m["type"] == "update":
            mine |= set(m["view"]["hand"])
    for m in me.messages:
        if m["type"] != "update":
            continue
        played = {action for _, action in m["view"]["observation"]["history"]}
        named = set(CARD.findall(str({k: v for k, v in m.items() if k != "table"})))
        assert named <= mine | played, (named - mine - played, m)


# -- the arena -----------------------------------------------------------------------------------


def test_the_arena_plays_duplicate_deals(toy: Variant, tmp_path: Path) -> None:
    game = parlour.new_game(NAME)
    result = run_arena(game, ["random", "greedy"], 6, seed=3, duplicate=True,
                       record_dir=tmp_path / "records")
    assert len(result.plays) == 12  # each deal in both seatings
    for play in result.plays:
        assert sum(play.returns) == 0 and abs(play.returns[0]) in (1, 3)
    assert {tuple(p.seating) for p in result.plays} == {(0, 1), (1, 0)}
    stats = {s.label: s for s in bot_stats(result)}
    assert set(stats) == {"random", "greedy"}
    for path in sorted((tmp_path / "records").iterdir()):
        state = replay_deal(load(path))
        assert isinstance(state, ToyState) and state.is_over

    out = io.StringIO()
    code = main(["arena", NAME, "--bots", "greedy,random", "--games", "4", "--duplicate",
                 "--seed", "1", "--results", str(tmp_path / "results.sqlite")], out=out)
    assert code == 0, out.getvalue()
    assert "greedy − random" in out.getvalue()


# -- the environments ----------------------------------------------------------------------------


def test_the_aec_environment_plays_deals_with_its_masks(toy: Variant) -> None:
    with warnings.catch_warnings():
        # PettingZoo warns about dict observations, its classic card games' convention.
        warnings.filterwarnings("ignore", message=".*(NumPy array|probably should be).*")
        api_test(aec_env(NAME), num_cycles=30)
        seed_test(lambda: aec_env(NAME), num_cycles=30)
    env = aec_env(env_id(NAME))  # by its environment id too
    rng = np.random.default_rng(2)
    size = env.action_index.size
    assert size == 52 and env.observation_spaces["player_0"]["observation"].shape == (
        encoder(env.game).size,)
    for seed in range(5):
        env.reset(seed=seed)
        steps = 0
        for agent in env.agent_iter():
            obs, reward, terminated, truncated, _ = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            assert reward == 0
            mask = obs["action_mask"]
            legal = np.flatnonzero(mask)
            state = env.state
            assert state is not None and agent == f"player_{state.current_player}"
            assert sorted(legal.tolist()) == sorted(int(a) for a in state.legal_actions())
            other = env.observe(f"player_{1 - state.current_player}")["action_mask"]
            assert not other.any()
            env.step(int(rng.choice(legal)))
            steps += 1
        assert steps == 6
        returns = env.final_returns
        assert sum(returns.values()) == 0 and abs(returns["player_0"]) in (1, 3)


def test_the_batched_environment_steps_and_deals_again(toy: Variant) -> None:
    env = batched_env(NAME, num_envs=8, seed=1)
    rng = np.random.default_rng(1)
    step = env.reset()
    index = env.action_index
    dealt = 0
    for n in range(1, 301):
        states = env.states
        for row in range(8):
            state = states[row]
            assert step.player[row] == state.current_player
            legal = step.legal[step.offsets[row]:step.offsets[row + 1]].tolist()
            assert sorted(legal) == sorted(index.indices(state.legal_actions()))
            expected = encoder(env.game).encode(state.observation(state.current_player))
            assert np.array_equal(step.obs[row], expected)
        chosen = sample_legal(step, rng)
        assert step.mask[np.arange(8), chosen].all()
        step = env.step(chosen)
        # Every deal is six moves long: all eight end together and are dealt again.
        assert step.done.all() == (n % 6 == 0) and step.done.any() == (n % 6 == 0)
        if step.done.any():
            dealt += 8
            assert (step.rewards.sum(axis=1) == 0).all()
            assert set(np.abs(step.rewards[:, 0]).tolist()) <= {1.0, 3.0}
            assert all(not s.history for s in env.states)
        else:
            assert not step.rewards.any()
    assert dealt == 8 * 50
    # The same seed and moves give the same arrays.
    again = batched_env(NAME, num_envs=8, seed=1)
    first, second = again.reset(), batched_env(NAME, num_envs=8, seed=1).reset()
    assert np.array_equal(first.obs, second.obs) and np.array_equal(first.legal, second.legal)


def test_a_family_without_a_lesson_has_no_tutorial_anywhere(toy: Variant) -> None:
    from parlour.tutorial import lesson_of, playable, tutorial

    assert lesson_of(NAME) is None and NAME not in playable()
    with pytest.raises(VariantError, match=f"there is no tutorial of '{NAME}'"):
        tutorial(NAME)
    with pytest.raises(VariantError, match="there is no tutorial of 'toy'"):
        tutorial(FAMILY.name)
    with TestClient(create_app("sqlite://", bot_delay=0)) as http:
        data = http.get("/api/variants").json()
        assert not next(v for v in data["variants"] if v["name"] == NAME)["tutorial"]
        assert "toy" not in [t["family"] for t in data["tutorials"]]
        answer = http.post("/api/tables", json={"tutorial": True, "variant": NAME})
        assert answer.status_code == 400
        assert f"there is no tutorial of '{NAME}'" in answer.json()["error"]
