"""The terminal table, driven headlessly through Textual's pilot: every variant from the start
screen through illegal and legal moves, the hint, saving mid-deal, resuming and finishing the
deal; no key crashes any screen; and SVG snapshots of each family's main screens."""

from __future__ import annotations

import asyncio
import functools
import random
from pathlib import Path

import pytest
from textual.widgets import Input, Select, Static

import parlour
from parlour.cli import HUMAN, main
from parlour.moves import parse_move, pick
from parlour.records import load, resume_match
from parlour.review import review_deal, review_lines, reviewer_bot
from parlour.tui import ParlourApp
from parlour.tui.app import TableScreen
from parlour.tui.moves import verb_key
from parlour.tui.screens import (
    ChoiceScreen,
    DealOverScreen,
    HelpScreen,
    QuitScreen,
    ReviewScreen,
    StartScreen,
)
from parlour.tui.widgets import Hand

SIZE = (80, 24)


def sync(test):
    """Run an ``async`` test body in its own event loop (as a plain pytest test)."""

    @functools.wraps(test)
    def run(*args, **kwargs) -> None:
        asyncio.run(test(*args, **kwargs))

    return run
VARIANTS = [v.name for v in parlour.variants()]


def table_app(**kwargs) -> ParlourApp:
    """The app with instant bots, the quick greedy hint and the quick review, so tests do not
    wait."""
    return ParlourApp(pace=0, hint_bot="greedy", review_level="medium", **kwargs)


async def settle(pilot) -> None:
    """Wait until the bots have moved and it is the human's turn, or another screen is up."""
    app = pilot.app
    for _ in range(1000):
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen = app.screen
        if not isinstance(screen, TableScreen):
            return
        if screen.my_turn and not any(w.is_running for w in app.workers):
            return
    raise AssertionError("the table never came back to the human")


def message(screen: TableScreen) -> str:
    return str(screen.query_one("#message", Static).content)


async def start_from_start_screen(pilot, variant: str, seed: int) -> TableScreen:
    app = pilot.app
    assert isinstance(app.screen, StartScreen)
    app.screen.query_one("#variant", Select).value = variant
    await pilot.pause()
    app.screen.query_one("#seed", Input).value = str(seed)
    await pilot.click("#start")
    await settle(pilot)
    assert isinstance(app.screen, TableScreen)
    assert app.screen.game.name == variant
    assert app.screen.match.seed == seed
    return app.screen


async def hint(pilot, table: TableScreen):
    """Press h; the hinted action, after checking the message and the selection it made."""
    expected = parlour.bots.make_bot("greedy").choose(
        table.state.observation(table.seat), table.state.legal_actions(), random.Random(0))
    await pilot.press("h")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    text = message(table)
    assert text.startswith("Hint: "), text
    shown = text.removeprefix("Hint: ").split(" — ")[0]
    action = table.state.parse_action(shown)
    assert action in table.state.legal_actions()
    # Greedy does not draw on its generator, so the hint is the greedy move.
    assert action == expected
    assert table.query_one("#hand", Hand).selected == set(parse_move(action).cards)
    return action


async def play_hint(pilot, table: TableScreen) -> None:
    """Take the hint through the keys: its cards are selected, press its verb's key."""
    action = await hint(pilot, table)
    before = len(table.state.history)
    move = parse_move(action)
    await pilot.press(verb_key(move.verb))
    await pilot.pause()
    if isinstance(pilot.app.screen, ChoiceScreen):
        texts = [m.text for m in pilot.app.screen.moves]
        await pilot.press(str(texts.index(str(action)) + 1))
        await pilot.pause()
    assert table.state.history[before] == (table.seat, action) or len(table.match.deals) > 0


async def illegal_move(pilot, table: TableScreen) -> None:
    """Every card selected and "play": never legal in any variant; refused in place."""
    hand = table.query_one("#hand", Hand)
    before = list(table.state.history)
    await pilot.press("c")
    for _ in hand.cards:
        await pilot.press("space", "right")
    assert hand.selected == set(hand.cards)
    await pilot.press("p")
    await pilot.pause()
    assert message(table).startswith("Not allowed: ")
    with pytest.raises(parlour.IllegalAction):
        pick(table.state, "play", hand.selected)
    assert table.state.history == before and isinstance(pilot.app.screen, TableScreen)
    await pilot.press("c")
    assert hand.selected == set()


@pytest.mark.parametrize("variant", VARIANTS)
@sync
async def test_a_deal_of_every_variant_from_the_start_screen_with_save_and_resume(
        variant: str, tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    app = table_app()
    async with app.run_test(size=SIZE) as pilot:
        table = await start_from_start_screen(pilot, variant, seed=11)
        await illegal_move(pilot, table)
        await play_hint(pilot, table)
        await settle(pilot)
        seen = table.state.observation(table.seat)
        await pilot.press("q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen)
        app.screen.query_one("#path", Input).value = str(tmp_path / "missing" / "x.json")
        await pilot.click("#save")
        await pilot.pause()
        assert "missing" in str(app.screen.query_one("#save-error", Static).content)
        path_input = app.screen.query_one("#path", Input)
        path_input.value = str(path)
        path_input.focus()
        await pilot.press("enter")
        await pilot.pause()
    assert app.return_value == 0
    record = load(path)
    assert record["seats"].count(HUMAN) == 1 and record["deals"][-1]["result"] is None
    assert main(["replay", str(path)]) == 0

    resumed = table_app(match=resume_match(record), seats=record["seats"])
    async with resumed.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = resumed.screen
        assert isinstance(table, TableScreen)
        assert table.state.observation(table.seat) == seen
        while isinstance(resumed.screen, TableScreen):
            await play_hint(pilot, table)
            await settle(pilot)
        assert isinstance(resumed.screen, DealOverScreen)
        assert len(table.match.deals) == 1
        summary = "\n".join(resumed.screen.lines)
        assert "Deal 1 is over" in summary
        for seat in range(table.game.players):
            assert f"match {table.match.totals[seat]:g}" in summary
        # The review judges the person's decisions of the deal, then the deal's result is back.
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(resumed.screen, ReviewScreen)
        review = str(resumed.screen.query_one("#review-lines", Static).content)
        decisions = review_deal(table.match.deals[0], [table.seat], reviewer_bot("medium"),
                                seed=table.match.seed)
        assert review.splitlines() == review_lines(decisions, table.match.deals[0])
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(resumed.screen, DealOverScreen)
        await pilot.press("n")
        await settle(pilot)
        if table.match.is_over:
            assert isinstance(resumed.screen, StartScreen)
        else:
            assert resumed.screen is table and table.match.current is table.state
            assert len(table.state.history) == 0 or table.state.history[0][0] != table.seat


def test_the_table_runs_only_on_a_terminal_else_the_line_player(tmp_path: Path, capsys) -> None:
    import io

    out = io.StringIO()
    code = main(["play", "big-two", "--seed", "1", "--pace", "0"], out=out,
                inp=io.StringIO("quit\n"))
    assert code == 0 and "your play> " in out.getvalue()
    assert main(["play", "big-two", "--pace", "-1"], out=io.StringIO()) == 2
    assert "at least 0" in capsys.readouterr().err


KEYS = ["left", "right", "space", "enter", "escape", "tab", "up", "down", "home", "end",
        "backspace", "delete", "1", "9", "z", "question_mark", "f1", "c", "h", "n", *"parkijtsdmlx"]


@pytest.mark.parametrize("variant", ["big-two", "forty-five", "rummy"])
@sync
async def test_no_key_crashes_any_screen(variant: str) -> None:
    """Random keys (every bound key among them) on the start screen, the table, its dialogs."""
    rng = random.Random(variant)
    app = table_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(*rng.choices(["up", "down", "tab", "left", "right", "r", "escape"], k=30))
        await pilot.pause()
        while not isinstance(app.screen, StartScreen):
            await pilot.press("escape")
        await start_from_start_screen(pilot, variant, seed=4)
        screens = set()
        for _ in range(150):
            key = rng.choice([*KEYS, "q"] if rng.random() < 0.05 else KEYS)
            await pilot.press(key)
            screens.add(type(app.screen).__name__)
            await settle(pilot)
            if isinstance(app.screen, QuitScreen):
                await pilot.press("escape")
        assert app.is_running
        assert {"TableScreen", "HelpScreen"} <= screens


@sync
async def test_help_shows_the_keys_and_the_rules() -> None:
    app = table_app()
    async with app.run_test(size=SIZE) as pilot:
        await start_from_start_screen(pilot, "spoil-five", seed=2)
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        text = " ".join(str(s.content) for s in app.screen.query(Static))
        assert "jink" in text and "hint" in text
        await pilot.press("escape")
        assert isinstance(app.screen, TableScreen)


@sync
async def test_the_start_screen_refuses_a_bad_option_in_place() -> None:
    app = table_app()
    async with app.run_test(size=SIZE) as pilot:
        app.screen.query_one("#variant", Select).value = "spoil-five"
        await pilot.pause()
        app.screen.query_one("#opt-ante", Input).value = "1000"
        await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        assert "ante" in str(app.screen.query_one("#start-error", Static).content)


@sync
async def test_the_default_hint_uses_the_strongest_level_and_gives_its_reason() -> None:
    app = ParlourApp(pace=0)
    assert app.hint_bot == "expert"
    async with app.run_test(size=SIZE) as pilot:
        app.screen.query_one("#variant", Select).value = "forty-five"
        await pilot.pause()
        await pilot.click("#start")
        await settle(pilot)
        table = app.screen
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        text = message(table)
        assert text.startswith("Hint: ") and " — " in text


# -- snapshots: fixed seed, fixed size, instant bots ----------------------------------------

def _at_table(variant: str, players: int | None = None, moves: int = 0):
    async def setup(pilot) -> None:
        app = pilot.app
        app.screen.query_one("#variant", Select).value = variant
        await pilot.pause()
        if players is not None:
            app.screen.query_one("#players", Select).value = players
            await pilot.pause()
        app.screen.query_one("#seed", Input).value = "7"
        await pilot.click("#start")
        await settle(pilot)
        for _ in range(moves):
            await play_hint(pilot, app.screen)
            await settle(pilot)
        app.screen.query_one("#message", Static).update("")
    return setup


def test_snapshot_start_screen(snap_compare) -> None:
    assert snap_compare(table_app(), terminal_size=SIZE)


@pytest.mark.parametrize(("variant", "players", "moves"), [
    ("big-two", None, 2), ("forty-five", None, 2), ("rummy", 3, 3)])
def test_snapshot_table(snap_compare, variant: str, players: int | None, moves: int) -> None:
    assert snap_compare(table_app(), terminal_size=SIZE,
                        run_before=_at_table(variant, players, moves))


def test_snapshot_deal_over(snap_compare) -> None:
    async def finish(pilot) -> None:
        await _at_table("big-two-4card")(pilot)
        while isinstance(pilot.app.screen, TableScreen):
            await play_hint(pilot, pilot.app.screen)
            await settle(pilot)
    assert snap_compare(table_app(), terminal_size=SIZE, run_before=finish)


def test_snapshot_help(snap_compare) -> None:
    async def help_screen(pilot) -> None:
        await _at_table("rummy")(pilot)
        await pilot.press("f1")
    assert snap_compare(table_app(), terminal_size=SIZE, run_before=help_screen)
