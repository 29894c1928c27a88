"""The terminal table, driven headlessly through Textual's pilot: every variant from the start
screen through illegal and legal moves, the hint, saving mid-deal, resuming and finishing the
deal; no key crashes any screen; what the table says and shows (refusals, names, scores, the
hand, the help, the start screen) at 80x24 and 60x20; and SVG snapshots of its main screens."""

from __future__ import annotations

import asyncio
import functools
import io
import random
import re
from pathlib import Path

import pytest
from rich.console import Console
from rich.table import Table
from textual import events
from textual.command import CommandPalette
from textual.containers import VerticalScroll
from textual.widgets import Button, Input, Label, RichLog, Select, Static

import parlour
import parlour.advice
from parlour.bots import BOT_LEVELS
from parlour.bots.learned import weights
from parlour.cards import Card
from parlour.cli import HUMAN, main
from parlour.moves import parse_move, pick
from parlour.records import load, resume_match
from parlour.review import review_deal, review_lines, reviewer_bot
from parlour.summaries import summary as rules_summary
from parlour.tui import ParlourApp
from parlour.tui.app import MESSAGE_ROWS, TableScreen
from parlour.tui.moves import verb_key
from parlour.tui.screens import (
    ChoiceScreen,
    DealOverScreen,
    HelpScreen,
    QuitScreen,
    ReviewScreen,
    StartScreen,
)
from parlour.tui.views import standing, view
from parlour.tui.widgets import Hand, card_face, sorted_hand

SIZE = (80, 24)
#: The smallest window the table is made for.
SMALL = (60, 20)


def sync(test):
    """Run an ``async`` test body in its own event loop (as a plain pytest test)."""

    @functools.wraps(test)
    def run(*args, **kwargs) -> None:
        asyncio.run(test(*args, **kwargs))

    return run
VARIANTS = [v.name for v in parlour.variants()]


def table_app(**kwargs) -> ParlourApp:
    """The app with instant bots, quick hints and reviews (the medium level), so tests do not
    wait."""
    return ParlourApp(pace=0, advice_level="medium", **kwargs)


async def start_screen(pilot) -> StartScreen:
    """The start screen once its form is built: its choices are mounted over several turns of
    the event loop after the screen appears or a choice changes, so one pause is not always
    enough on a loaded machine."""
    for _ in range(1000):
        await pilot.pause()
        screen = pilot.app.screen
        if (isinstance(screen, StartScreen) and screen.query("#seat")
                and all(widget.is_mounted for widget in screen.query("#setup *"))):
            return screen
    raise AssertionError("the start screen never finished its form")


async def choose(pilot, name: str, value) -> None:
    """Choose ``value`` in the start screen's ``name`` choice (variant, players or seat) and
    wait until the screen has built its form for it."""
    screen = await start_screen(pilot)
    screen.query_one(f"#{name}", Select).value = value
    for _ in range(1000):
        await start_screen(pilot)
        if getattr(screen.settings, name) == value:
            return
    raise AssertionError(f"the start screen never showed {name} = {value!r}")


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


def screen_text(app: ParlourApp) -> str:
    """What the window shows, as text (the screen's own rendering, as a screenshot takes it)."""
    width, height = app.size
    console = Console(width=width, height=height, file=io.StringIO(), record=True,
                      force_terminal=True, color_system="truecolor", legacy_windows=False)
    console.print(app.screen._compositor.render_update(
        full=True, screen_stack=app._background_screens))
    return console.export_text()


def rows_of(app: ParlourApp, widget) -> list[str]:
    """The window's rows that ``widget``'s content takes, cut to its columns."""
    region = widget.content_region
    rows = screen_text(app).splitlines()[region.y:region.y + region.height]
    return [row[region.x:region.x + region.width] for row in rows]


def score_rows(screen: DealOverScreen) -> dict[str, list[str]]:
    """The deal-over table's rows by seat ("P0": its words)."""
    grid = next(part for part in screen.parts if isinstance(part, Table))
    console = Console(width=80, file=io.StringIO(), record=True)
    console.print(grid)
    rows = [line.split() for line in console.export_text().splitlines()[1:]]
    return {cells[0]: cells for cells in rows if cells}


def inside(app: ParlourApp, widget) -> bool:
    """Whether ``widget`` is wholly in the window."""
    region, (width, height) = widget.region, app.size
    return (region.width > 0 and region.height > 0 and region.x >= 0 and region.y >= 0
            and region.right <= width and region.bottom <= height)


def words(text: str) -> str:
    return " ".join(text.split())


async def play_greedy(pilot, table: TableScreen) -> None:
    """The person's move as greedy would make it (no hint asked), then the bots'."""
    action = parlour.bots.make_bot("greedy").choose(
        table.state.observation(table.seat), table.state.legal_actions(), random.Random(0))
    table.played(table.session.play(table.seat, action))
    await settle(pilot)


def sit(variant: str, seat: int = 0, players: int | None = None, bots: str = "greedy",
        seed: int = 7, **options) -> ParlourApp:
    """The app sat at a new match, as 'parlour play VARIANT --seat SEAT' opens it."""
    game = parlour.new_game(variant, players=players, **options)
    seats = [bots] * (game.players - 1)
    seats.insert(seat, HUMAN)
    return table_app(match=game.new_match(seed=seed), seats=seats)


async def start_from_start_screen(pilot, variant: str, seed: int) -> TableScreen:
    app = pilot.app
    assert isinstance(app.screen, StartScreen)
    await choose(pilot, "variant", variant)
    app.screen.query_one("#seed", Input).value = str(seed)
    await pilot.click("#start")
    await settle(pilot)
    assert isinstance(app.screen, TableScreen)
    assert app.screen.game.name == variant
    assert app.screen.match.seed == seed
    return app.screen


async def hint(pilot, table: TableScreen):
    """Press h; the hinted action, after checking the message and the selection it made."""
    expected = parlour.advice.hint(table.state.observation(table.seat),
                                   table.state.legal_actions(), level="medium")
    await pilot.press("h")
    await pilot.app.workers.wait_for_complete()
    await pilot.pause()
    text = message(table)
    # The judge's hint at the position (the same wherever it is asked), in a player's words:
    # said shortly where the whole sentence would not fit.
    assert words(text).startswith((words(f"Hint: {expected.text}"),
                                   words(f"Hint: {expected.brief}"))), text
    action = expected.action
    assert table.query_one("#hand", Hand).selected == set(parse_move(action).cards)
    return action


async def play_hint(pilot, table: TableScreen) -> None:
    """Take the hint through the keys: its cards are selected, press its verb's key."""
    await play_move(pilot, table, await hint(pilot, table))


async def play_move(pilot, table: TableScreen, action) -> None:
    """Make ``action`` through the keys: select its cards, press its verb's key."""
    hand = table.query_one("#hand", Hand)
    if set(hand.selected) != set(parse_move(action).cards):
        hand.select_only(set(parse_move(action).cards))
        await pilot.pause()
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
    """Every card selected and "play" (Rummy: "meld"): never legal in any variant; refused in
    place, with the rule's reason and never the parser's."""
    hand = table.query_one("#hand", Hand)
    before = list(table.state.history)
    verb = "play" if "play" in table.game_verbs else "meld"
    await pilot.press("c")
    for _ in hand.cards:
        await pilot.press("space", "right")
    assert hand.selected == set(hand.cards)
    await pilot.press(verb_key(verb))
    await pilot.pause()
    assert message(table).startswith("Not allowed: ")
    assert "expected" not in message(table)
    with pytest.raises(parlour.IllegalAction):
        pick(table.state, verb, hand.selected)
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
        assert resumed.screen.title_text == "Deal 1 is over"
        # Each seat's row: its score this deal and its standing in the match.
        rows = score_rows(resumed.screen)
        scores = standing(table.game, table.match.totals,
                          view(table.state.observation(table.seat)).figures)
        for seat, figure in enumerate(scores.figures):
            assert rows[f"P{seat}"][-1] == figure
        # The review judges the person's decisions of the deal, then the deal's result is back.
        await pilot.press("r")
        await settle(pilot)
        assert isinstance(resumed.screen, ReviewScreen)
        review = str(resumed.screen.query_one("#review-lines", Static).content)
        decisions = review_deal(table.match.deals[0], [table.seat], reviewer_bot("medium"))
        assert review.splitlines() == [table.names.text(line) for line in
                                       review_lines(decisions, table.match.deals[0])]
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
        "backspace", "delete", "1", "9", "z", "question_mark", "f1", "c", "h", "n", *"parkijtswdmlx"]


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
        await choose(pilot, "variant", "spoil-five")
        app.screen.query_one("#opt-ante", Input).value = "1000"
        await pilot.click("#start")
        await pilot.pause()
        assert isinstance(app.screen, StartScreen)
        # Said in the form's words: the option by its label, no keyword.
        error = str(app.screen.query_one("#start-error", Static).content)
        assert "Ante must be a whole number from 1 to 100, not 1000" in error, error
        assert "ante=" not in error and "(ante)" not in error


@sync
async def test_the_start_screen_hides_the_options_that_do_not_apply() -> None:
    """Big Two's number of deals only when the match ends after a number of deals, its
    penalty limit only when it ends at the limit: shown and hidden as the choice changes."""
    app = table_app()
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, "variant", "big-two")
        screen = app.screen
        assert isinstance(screen, StartScreen)

        def shown() -> dict[str, bool]:
            return {name: screen.query_one(f"#row-{name}").display
                    for name in ("match_end", "penalty_limit", "deals")}

        assert shown() == {"match_end": True, "penalty_limit": True, "deals": False}
        match_end = screen.query_one("#opt-match_end", Select)
        # Each choice in words, not its keyword.
        assert [str(prompt) for prompt, _ in match_end._options] == [
            "at the penalty limit", "after a number of deals"]
        match_end.value = "deals"
        for _ in range(100):
            await pilot.pause()
            if shown()["deals"]:
                break
        assert shown() == {"match_end": True, "penalty_limit": False, "deals": True}
        screen.query_one("#opt-deals", Input).value = "3"
        screen.query_one("#opt-penalty_limit", Input).value = "20"
        # What is hidden is not played: the penalty limit stays at its default.
        assert screen.chosen().options["deals"] == 3
        assert "penalty_limit" not in screen.chosen().options
        match_end.value = "penalty-limit"
        for _ in range(100):
            await pilot.pause()
            if not shown()["deals"]:
                break
        assert shown() == {"match_end": True, "penalty_limit": True, "deals": False}
        assert screen.chosen().options["penalty_limit"] == 20
        assert "deals" not in screen.chosen().options
        # Pusoy Dos: what happens when a player goes out counts only when deals play on.
        await choose(pilot, "variant", "pusoy-dos")
        assert screen.query_one("#row-control_after_out").display
        screen.query_one("#opt-scoring", Select).value = "penalty"
        for _ in range(100):
            await pilot.pause()
            if not screen.query_one("#row-control_after_out").display:
                break
        assert not screen.query_one("#row-control_after_out").display


@sync
async def test_the_default_hint_is_the_strongest_levels_in_a_players_words() -> None:
    app = ParlourApp(pace=0)
    assert app.advice_level == "expert"
    async with app.run_test(size=SIZE) as pilot:
        await choose(pilot, "variant", "forty-five")
        await pilot.click("#start")
        await settle(pilot)
        table = app.screen
        await pilot.press("h")
        await app.workers.wait_for_complete()
        await pilot.pause()
        text = words(message(table))
        # The move, and how sure the judge is, in a player's words; h again: the figures.
        assert re.match(r"Hint: .+(: the only move|\. Clearly the best move here|\. A close "
                        r"call with .+|\. Any move will do: .+)\.", text), text
        for internal in ("network", "rollout", "simulated", "rule-based", "P0", "P1"):
            assert internal not in text, text
        await pilot.press("h")
        await pilot.pause()
        assert re.match(r"Hint: .+: (wins \d+% of \d+ trial deals|clearly ahead|the only)",
                        words(message(table))), message(table)


# -- snapshots: fixed seed, fixed size, instant bots ----------------------------------------

def _at_table(variant: str, players: int | None = None, moves: int = 0):
    async def setup(pilot) -> None:
        app = pilot.app
        await choose(pilot, "variant", variant)
        if players is not None:
            await choose(pilot, "players", players)
        app.screen.query_one("#seed", Input).value = "7"
        await pilot.click("#start")
        await settle(pilot)
        for _ in range(moves):  # greedy's moves, through the keys
            table = app.screen
            await play_move(pilot, table, parlour.bots.make_bot("greedy").choose(
                table.state.observation(table.seat), table.state.legal_actions(),
                random.Random(0)))
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


def _at_deal_over(variant: str, players: int | None = None):
    """Sit at ``variant`` from the start screen and play the deal out with hints."""
    async def finish(pilot) -> None:
        await _at_table(variant, players)(pilot)
        while isinstance(pilot.app.screen, TableScreen):
            await play_hint(pilot, pilot.app.screen)
            await settle(pilot)
    return finish


def test_snapshot_deal_over(snap_compare) -> None:
    assert snap_compare(table_app(), terminal_size=SIZE, run_before=_at_deal_over("big-two-4card"))


def test_snapshot_help(snap_compare) -> None:
    async def help_screen(pilot) -> None:
        await _at_table("rummy")(pilot)
        await pilot.press("f1")
    assert snap_compare(table_app(), terminal_size=SIZE, run_before=help_screen)


def test_snapshot_start_screen_small(snap_compare) -> None:
    assert snap_compare(table_app(), terminal_size=SMALL)


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["80x24", "60x20"])
def test_snapshot_six_players(snap_compare, size) -> None:
    assert snap_compare(table_app(), terminal_size=size,
                        run_before=_at_table("spoil-five", 6, 1))


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["80x24", "60x20"])
def test_snapshot_hint(snap_compare, size) -> None:
    async def hinted(pilot) -> None:
        await _at_table("big-two", None, 1)(pilot)
        await hint(pilot, pilot.app.screen)
    assert snap_compare(table_app(), terminal_size=size, run_before=hinted)


@sync
@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["80x24", "60x20"])
async def test_a_hint_never_covers_the_hand_and_goes_with_the_move(size) -> None:
    for variant in ("big-two", "rummy"):
        app = table_app()
        async with app.run_test(size=size) as pilot:
            await _at_table(variant)(pilot)
            table = app.screen
            for _ in range(3):
                await settle(pilot)
                if not isinstance(app.screen, TableScreen) or not table.my_turn:
                    break
                action = await hint(pilot, table)
                hand, shown = table.query_one("#hand", Hand), table.query_one("#message", Static)
                assert not hand.region.overlaps(shown.region), (variant, size)
                assert not app._notifications, [n.message for n in app._notifications]
                await play_move(pilot, table, action)
                await settle(pilot)
                assert not message(table).startswith("Hint"), message(table)


def test_snapshot_thirteen_cards_small(snap_compare) -> None:
    async def selected(pilot) -> None:
        await _at_table("big-two")(pilot)
        await pilot.press("right", "space", "right", "space")
    assert snap_compare(table_app(), terminal_size=SMALL, run_before=selected)


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["80x24", "60x20"])
def test_snapshot_long_refusal(snap_compare, size) -> None:
    async def refused(pilot) -> None:
        await _at_table("big-two")(pilot)
        await refuse_five(pilot, pilot.app.screen)
    assert snap_compare(table_app(), terminal_size=size, run_before=refused)


def test_snapshot_help_small(snap_compare) -> None:
    async def help_screen(pilot) -> None:
        await _at_table("big-two")(pilot)
        await pilot.press("question_mark")
    assert snap_compare(table_app(), terminal_size=SMALL, run_before=help_screen)


def test_snapshot_deal_over_small(snap_compare) -> None:
    assert snap_compare(table_app(), terminal_size=SMALL,
                        run_before=_at_deal_over("spoil-five", 6))


# -- 1. messages wrap, never cut --------------------------------------------------------------

async def refuse_five(pilot, table: TableScreen) -> str:
    """At Big Two's first lead (seed 7), the 3♦ and the next four cards played: not a play, and
    the rule's long reason; the refusal's text."""
    hand = table.query_one("#hand", Hand)
    cards = set(hand.cards[:5])
    with pytest.raises(parlour.IllegalAction) as refused:
        pick(table.state, "play", cards)
    hand.select_only(cards)
    await pilot.press("p")
    await pilot.pause()
    return f"Not allowed: {refused.value}"


@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["80x24", "60x20"])
@sync
async def test_a_long_refusal_wraps_and_is_never_cut(size) -> None:
    app = table_app()
    async with app.run_test(size=size) as pilot:
        await _at_table("big-two")(pilot)
        table = app.screen
        full = await refuse_five(pilot, table)
        assert len(full) > size[0] and "valid combination" in full
        shown = table.query_one("#message", Static)
        rows = [row.strip() for row in rows_of(app, shown)]
        assert 2 <= len(rows) <= MESSAGE_ROWS
        whole = words(" ".join(rows))
        cards_shown = full
        for token in re.findall(r"\b(?:10|[2-9JQKA])[CDHS]\b", full):
            cards_shown = cards_shown.replace(token, card_face(Card.parse(token)), 1)
        if whole.endswith("…"):
            # Too long for three rows at this width: cut there, and shown whole in a notice.
            assert words(cards_shown).startswith(whole[:-1].rstrip())
            assert [n.message for n in app._notifications] == [cards_shown]
        else:
            assert whole == words(cards_shown)
        # Every message the table says wraps the same way: a hint, a plain refusal.
        table.say("x " * 200)
        await pilot.pause()
        assert len(rows_of(app, shown)) == MESSAGE_ROWS


# -- 2. six players, thirteen cards, 60x20 ----------------------------------------------------

@pytest.mark.parametrize("size", [SIZE, SMALL], ids=["80x24", "60x20"])
@pytest.mark.parametrize(("variant", "players"), [("spoil-five", 6), ("big-two", None),
                                                   ("rummy", 4)])
@sync
async def test_the_table_fits_the_window(size, variant: str, players: int | None) -> None:
    app = table_app()
    async with app.run_test(size=size) as pilot:
        await _at_table(variant, players)(pilot)
        table = app.screen
        n = table.game.players
        hand = table.query_one("#hand", Hand)
        for name in ("#status", "#seats", "#table-scroll", "#log", "#hand", "#actions"):
            assert inside(app, table.query_one(name)), name
        # The whole hand in one row of cards, the cursor's row under it.
        assert hand.region.height == 3 and len(hand.cards) * 4 <= hand.content_size.width
        assert "▲" in rows_of(app, hand)[2]
        assert rows_of(app, hand)[1].split() == [card_face(c) for c in hand.cards]
        # Whose turn, and every seat with its cards and score.
        assert table.query_one("#status").region.y == 0
        assert rows_of(app, table.query_one("#status"))[0].strip().startswith("your turn")
        seats = [row.split() for row in rows_of(app, table.query_one("#seats"))]
        for seat in range(n):
            row = next(cells for cells in seats if f"P{seat}" in cells)
            assert row[-2] == str(len(table.state.observation(seat).hand))
        assert table.query_one("#table-scroll").region.height >= 4
        await pilot.press("question_mark")
        await pilot.pause()
        assert inside(app, app.screen.query_one("#help"))


# -- 3. refusals name the rule ----------------------------------------------------------------

async def until(pilot, table: TableScreen, ready) -> None:
    """Play the person's moves as greedy until ``ready(table)``."""
    for _ in range(200):
        if ready(table):
            return
        await play_greedy(pilot, table)
    raise AssertionError("the position never came")


def legal_moves(table: TableScreen):
    return [parse_move(a) for a in table.state.legal_actions()]


@sync
async def test_rummy_refusals_name_the_rule() -> None:
    app = sit("rummy", seed=6)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = app.screen
        hand = table.query_one("#hand", Hand)
        # Drawing first: laying off is not a move yet.
        assert [m.verb for m in legal_moves(table)] == ["draw stock", "draw discard"]
        hand.select_only({hand.cards[0]})
        await pilot.press("l")
        assert message(table) == ("Not allowed: you cannot lay off now: you can draw from stock or "
                                  "take the discard")

        def layoff_offered(t: TableScreen) -> bool:
            return any(m.verb == "layoff" for m in legal_moves(t))

        await until(pilot, table, layoff_offered)
        fits = {c for m in legal_moves(table) if m.verb == "layoff" for c in m.cards}
        loose = next(c for c in hand.cards if c not in fits)
        hand.select_only({loose})
        await pilot.press("l")
        assert message(table) == f"Not allowed: {card_face(loose)} fits no meld on the table"
        hand.select_only(set(hand.cards[:2]))
        await pilot.press("x")
        assert message(table) == "Not allowed: select one card to discard"
        assert not hand.selected - set(hand.cards) and len(table.state.history) > 0


@pytest.mark.parametrize("variant", ["forty-five", "spoil-five"])
@sync
async def test_robbing_with_two_cards_selected_asks_for_one(variant: str) -> None:
    app = sit(variant, seed=2)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = app.screen
        assert "rob" in table.verbs
        hand = table.query_one("#hand", Hand)
        hand.select_only(set(hand.cards[:2]))
        await pilot.press("r")
        assert message(table) == "Not allowed: select one card to discard"
        await pilot.press("c", "r")
        assert message(table) == "Not allowed: select one card to discard"
        await pilot.press("c", "space", "right", "space", "p")
        assert message(table) == "Not allowed: you cannot play now: you can rob or keep"


# -- 4. quitting, and keys typed fast ---------------------------------------------------------

@sync
async def test_quitting_by_any_route_offers_to_save() -> None:
    app = sit("big-two")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = app.screen
        await pilot.press("question_mark")
        assert isinstance(app.screen, HelpScreen)
        await pilot.press("ctrl+q")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen) and app.is_running
        await pilot.press("escape", "escape")
        assert app.screen is table
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert isinstance(app.screen, CommandPalette)
        await pilot.press(*"quit")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, QuitScreen) and app.is_running
        await pilot.click("#discard")
        await pilot.pause()
    assert app.return_value == 0


@sync
async def test_keys_typed_fast_after_clear_are_kept() -> None:
    app = sit("big-two")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        hand = app.screen.query_one("#hand", Hand)
        # Typed faster than the table answers: all queued before any is done.
        for key in ("space", "c", "right", "space", "right", "space"):
            app.post_message(events.Key(key, " " if key == "space" else key))
        await pilot.pause()
        await pilot.pause()
        assert hand.cursor == 2 and hand.selected == {hand.cards[1], hand.cards[2]}


# -- 5. the hand: selection without colour, dimmed cards, sorting -----------------------------

@sync
async def test_the_hand_shows_selection_and_legal_cards_without_colour() -> None:
    app = sit("big-two")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = app.screen
        hand = table.query_one("#hand", Hand)
        await pilot.press("right", "space")
        raised, level, cursor = hand.render().split()
        chosen = hand.cards[1]
        # The selected card sits a row above the others, the cursor under it.
        assert raised.plain.split() == [card_face(chosen)]
        assert card_face(chosen) not in level.plain.split()
        assert cursor.plain.index("▲") == raised.plain.index(card_face(chosen))
        # The opening lead must hold 3♦: the cards no legal play uses are dimmed.
        playable = {c for m in legal_moves(table) for c in m.cards}
        assert playable and playable != set(hand.cards)
        for i, card in enumerate(hand.cards):
            style = hand.card_style(card)
            assert ("dim" in style) == (card not in playable), (card, style)
            assert i == 1 or card_face(card) in level.plain


@sync
async def test_a_long_hand_wraps_onto_rows_each_with_its_cursor_row() -> None:
    app = sit("rummy", hand_size=20)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        hand = app.screen.query_one("#hand", Hand)
        await pilot.press(*["right"] * 16, "space")
        rows = rows_of(app, hand)
        assert inside(app, hand) and len(rows) == 6
        assert rows[1].split() + rows[4].split() == [card_face(c) for c in hand.cards
                                                     if c != hand.cards[16]]
        assert rows[3].split() == [card_face(hand.cards[16])] and "▲" in rows[5]
        await pilot.click(hand, offset=(1 + 4 * 3 + 1, 4))  # the second row's fourth card
        assert hand.selected == {hand.cards[16], hand.cards[17]}


@sync
async def test_s_sorts_the_hand_by_suit_then_by_rank() -> None:
    app = sit("big-two")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = app.screen
        hand = table.query_one("#hand", Hand)
        order = table.game.card_order()
        assert hand.cards == sorted_hand(hand.cards, "rank", order)  # Big Two's own order
        await pilot.press("s")
        assert [c.suit for c in hand.cards] == sorted(
            (c.suit for c in hand.cards), key=[1, 0, 2, 3].index)  # ♦ ♣ ♥ ♠, Big Two's
        assert hand.cards == sorted_hand(hand.cards, "suit", order)
        assert "sorted by suit" in message(table)
        await pilot.press("s")
        assert hand.cards == sorted_hand(hand.cards, "rank", order)
        assert "s Sort" in screen_text(app).splitlines()[-1]


@sync
async def test_enter_makes_the_move_the_selected_cards_make() -> None:
    app = sit("big-two")
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = app.screen
        await pilot.press("space", "enter")  # the 3♦, the first lead
        await settle(pilot)
        assert [str(a) for s, a in table.state.history if s == table.seat][:1] == ["3D"]
    app = sit("rummy", seed=6)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        await pilot.press("space", "enter")  # Rummy has no "play": which keys make a move
        assert message(app.screen) == ("Press the key of your move: draw from stock (w), "
                                       "take the discard (d).")


# -- 6. the start screen ----------------------------------------------------------------------

@sync
async def test_the_start_screen_speaks_plainly() -> None:
    app = table_app()
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = app.screen
        assert app.focused is screen.query_one("#variant", Select)
        for variant in [v.name for v in parlour.variants()]:
            await choose(pilot, "variant", variant)
            game = parlour.new_game(variant)
            # Each level in a line of its own words; learned where it has a network.
            offered = [value for _, value in screen.query_one("#bot-0", Select)._options]
            assert offered[:6] == ["random", "easy", "greedy", "medium", "hard", "expert"]
            assert ("learned" in offered) == bool(weights(variant))
            prompts = [str(prompt) for prompt, _ in screen.query_one("#bot-0", Select)._options]
            assert all(f"{v} — {BOT_LEVELS[v]}" in prompts for v in offered)
            # The opponents by seat; the options in words, without the rules' codes.
            labels = [str(label.content) for label in screen.query(".bot-label").results(Label)]
            assert labels == [f"P{i}" for i in range(1, game.players)]
            for option in screen.query(".option").results(Static):
                text = str(option.content)
                assert not re.search(r"\([A-Z]\d+\)|_|\[|True|False", text), text
            description = str(screen.query_one("#description", Static).content)
            # Said once: how a match ends (Big Two's), how many play (Spoil Five's).
            sentences = [s.strip().lower() for s in re.split(r"[.;]", description) if s.strip()]
            assert len(sentences) == len(set(sentences))
            assert description.lower().count("match ends") <= 1
            assert description.count("players") <= 1
        await choose(pilot, "variant", "spoil-five")
        await choose(pilot, "seat", 2)
        labels = [str(label.content) for label in screen.query(".bot-label").results(Label)]
        assert labels == ["P0", "P1", "P3"]
        # learned where it has a network for that many players: Rummy's 2 and 4, not 3.
        await choose(pilot, "variant", "rummy")
        for players in (3, 4, 2):
            await choose(pilot, "players", players)
            offered = [value for _, value in screen.query_one("#bot-0", Select)._options]
            assert ("learned" in offered) == (players in weights("rummy")), players


@sync
async def test_after_a_match_new_game_keeps_the_game_and_settings() -> None:
    app = sit("big-two-4card", seat=2, bots="easy", deals=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        while isinstance(app.screen, TableScreen):
            await play_greedy(pilot, app.screen)
        assert isinstance(app.screen, DealOverScreen) and app.screen.match_over
        assert "The match is over after 1 deal." in screen_text(app)
        await pilot.press("n")
        screen = await start_screen(pilot)
        assert screen.query_one("#variant", Select).value == "big-two-4card"
        assert screen.query_one("#seat", Select).value == 2
        assert [screen.query_one(f"#bot-{k}", Select).value for k in range(3)] == ["easy"] * 3
        assert screen.query_one("#opt-deals", Input).value == "1"
        assert screen.chosen().options == {"deals": 1}


@sync
async def test_play_again_deals_a_new_match_at_the_same_seats_and_counts_the_last(
        own_statistics) -> None:
    from parlour.stats import PlayerStats

    app = sit("big-two-4card", seat=1, bots="random", deals=1)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        first = app.screen
        assert isinstance(first, TableScreen)
        while isinstance(app.screen, TableScreen):
            await play_greedy(pilot, app.screen)
        assert isinstance(app.screen, DealOverScreen) and app.screen.match_over
        buttons = list(app.screen.query(Button).results(Button))
        assert [b.id for b in buttons] == ["again", "next", "review", "quit"]
        assert all(b.region.right <= SMALL[0] and b.size.width for b in buttons)
        await pilot.press("a")
        await settle(pilot)
        again = app.screen
        assert isinstance(again, TableScreen) and again is not first
        assert again.seats == first.seats == ["random", HUMAN, "random", "random"]
        assert again.game.option_values() == {**first.game.option_values()}
        assert again.match.seed != first.match.seed and not again.match.deals
    # The finished match counts in the person's statistics, and the start screen shows them.
    rows = PlayerStats(own_statistics).rows()
    assert [(r.variant, r.opponents, r.deals, r.matches) for r in rows] == [
        ("big-two-4card", "random", 1, 1)]
    start = table_app()
    async with start.run_test(size=SIZE) as pilot:
        await pilot.press("t")
        await pilot.pause()
        shown = str(start.screen.query_one("#stats-lines", Static).content)
        assert shown == rows[0].line()


# -- 7. the help ------------------------------------------------------------------------------

@pytest.mark.parametrize(("variant", "mine", "others"), [
    ("big-two", ["p", "a"], ["r", "k", "w", "m", "l", "x", "j"]),
    ("rummy", ["w", "d", "m", "l", "x"], ["p", "a", "r", "k", "j"]),
    ("forty-five", ["p", "r", "k"], ["a", "w", "m", "l", "x", "i", "j", "t"]),
])
@sync
async def test_help_shows_this_games_keys_and_its_rules_whole(variant, mine, others) -> None:
    app = sit(variant)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        await pilot.press("question_mark")
        await pilot.pause()
        help_screen = app.screen
        assert isinstance(help_screen, HelpScreen)
        keys = [line.split()[0] for line in
                str(help_screen.query_one("#keys", Static).content).splitlines()]
        assert set(mine) <= set(keys) and not set(others) & set(keys)
        assert "s" in keys
        assert str(help_screen.query_one("#rules", Static).content) == rules_summary(variant)
        # Taller than the window: it scrolls, and the keys are at its end.
        dialog = help_screen.query_one("#help", VerticalScroll)
        assert inside(app, dialog) and dialog.max_scroll_y > 0
        await pilot.press("end")
        await pilot.pause()
        assert dialog.scroll_y == dialog.max_scroll_y
        # The other families' verb keys do nothing at this table.
        await pilot.press("escape", others[0])
        assert message(app.screen) == ""


# -- 8. names and numbers ---------------------------------------------------------------------

@sync
async def test_penalties_are_counted_one_way_and_never_minus_zero() -> None:
    app = sit("big-two", seed=3)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        while isinstance(app.screen, TableScreen):
            await play_greedy(pilot, app.screen)
        table = app.screen_stack[-2]
        shown = screen_text(app)
        assert not re.search(r"-0\b", shown)
        # The game says "penalties: P0 7, P1 0 …": the table's figures are the same.
        said = dict(re.findall(r"(P\d) (\d+)", shown.split("penalties:")[1].split("\n")[0]))
        rows = score_rows(app.screen)
        for seat, penalty in said.items():
            assert rows[seat][-2:] == [penalty, penalty]
        await pilot.press("n")
        await settle(pilot)
        seats = [row.split() for row in rows_of(app, table.query_one("#seats"))]
        assert seats[0][-1] == "penalties"
        for seat, penalty in said.items():
            assert next(r for r in seats if seat in r)[-1] == penalty


@sync
async def test_spoil_five_chips_are_the_same_in_the_seat_panel_and_at_the_table() -> None:
    app = sit("spoil-five", players=5)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = app.screen
        chips = re.search(r"chips: (.*)", str(table.query_one("#table", Static).content))
        at_table = dict(re.findall(r"(P\d) (\d+)", chips.group(1)))
        seats = [row.split() for row in rows_of(app, table.query_one("#seats"))]
        assert seats[0][-1] == "chips"
        for seat, count in at_table.items():
            assert next(r for r in seats if seat in r)[-1] == count
        assert int(at_table["P0"]) == table.match.totals[0] - 1  # the ante is in the pool


@sync
async def test_rummy_keeps_the_top_discard_in_sight_at_60x20() -> None:
    """At the smallest window Rummy's melds grow all deal long, more than the table panel has
    rows for: the piles come first, so the top discard stays in sight at every turn."""
    app = sit("rummy", players=4, seed=3)
    async with app.run_test(size=SMALL) as pilot:
        await settle(pilot)
        most = 0
        while isinstance(app.screen, TableScreen) and most < 5:
            table = app.screen
            obs = table.state.observation(table.seat)
            shown = words(" ".join(rows_of(app, table.query_one("#table-scroll"))))
            assert f"top {card_face(obs.discard[-1])};" in shown, shown
            most = max(most, len(obs.melds))
            await play_greedy(pilot, table)
        assert most == 5  # the melds alone take more rows than the panel shows


def test_a_climbing_refusal_counts_its_cards() -> None:
    state = parlour.new_game("big-two").new_deal(seed=1)
    state.apply("3D")
    hand = state.observation(state.current_player).hand
    pair = next([a, b] for a in hand for b in hand if a.rank == b.rank and a < b)
    with pytest.raises(parlour.IllegalAction, match="play 1 card that beats it, or pass"):
        pick(state, "play", pair)


@sync
async def test_parlour_play_rummy_seat_1_names_the_seats_right(monkeypatch) -> None:
    import parlour.cli
    import parlour.tui

    opened = {}
    monkeypatch.setattr(parlour.cli, "isatty", lambda stream: True)
    monkeypatch.setattr(parlour.tui, "run", lambda **kwargs: opened.update(kwargs) or 0)
    assert main(["play", "rummy", "--seat", "1", "--seed", "3"]) == 0
    app = table_app(match=opened["match"], seats=opened["seats"])
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = app.screen
        shown = screen_text(app)
        assert "Human" not in shown and "Computer" not in shown
        seats = [row.split() for row in rows_of(app, table.query_one("#seats"))]
        assert seats[1][:2] == ["P0", "greedy"] and seats[2][:3] == ["▶", "P1", "you"]
        assert "you are P1" in rows_of(app, table.query_one("#status"))[0]
        assert "P0 draws" in shown or "P0 takes" in shown


# -- the first-game tutorial ------------------------------------------------------------------


def notes_text(table: TableScreen) -> str:
    """What the tutorial's notes panel holds, as text."""
    return "\n".join(strip.text for strip in table.query_one("#notes", RichLog).lines)


async def follow_the_hint(pilot, table: TableScreen) -> None:
    """Make the move the hint shown names, by its verb's key on the cards it selected (and its
    number where the cards fit more than one move)."""
    given = table.session.given_hint()
    assert given is not None, "no hint at the person's turn"
    move = parse_move(given.action)
    assert table.query_one("#hand", Hand).selected == set(move.cards)
    assert message(table).startswith("Hint: ")
    await pilot.press(verb_key(move.verb))
    await pilot.pause()
    if isinstance(pilot.app.screen, ChoiceScreen):
        choice = pilot.app.screen
        number = next(i for i, m in enumerate(choice.moves, 1) if m.action == given.action)
        await pilot.press(str(number))
        await pilot.pause()


@pytest.mark.parametrize(("variant", "notes"), [
    ("big-two", ["opening", "order", "beat", "lead", "scoring"]),
    ("forty-five", ["trumps", "partners", "rob", "trick", "lead", "scoring"]),
    ("rummy", ["draw", "meld", "discard", "scoring"]),
])
@sync
async def test_the_tutorial_is_played_to_the_end_by_following_its_hints(
        variant: str, notes: list[str], own_statistics) -> None:
    from parlour.tutorial import HINT, tutorial

    lesson = tutorial(variant)
    app = table_app(tutorial=lesson)
    async with app.run_test(size=SIZE) as pilot:
        turns = 0
        while True:
            await settle(pilot)
            if isinstance(app.screen, DealOverScreen):
                break
            table = app.screen
            assert table.coach is not None
            if turns == 0:
                status = rows_of(app, table.query_one("#status"))[0]
                assert "your turn · tutorial · " in status
            await follow_the_hint(pilot, table)
            turns += 1
        table = next(s for s in app.screen_stack if isinstance(s, TableScreen))
        seen = [note.key for note in table.coach.notes]
        assert seen[0] == "intro" and "hint" in seen and seen[-1] == "end"
        assert len(seen) == len(set(seen))  # each note once
        for key in notes:
            assert key in seen, (key, seen)
        shown = re.sub(r"\s+", " ", notes_text(table))
        for note in table.coach.notes:  # every note in the panel, once, in the player's words
            text = f"{note.title}: {table.names.text(note.text)}"
            assert re.sub(r"\s+", " ", text) in shown
            assert shown.count(f"{note.title}: ") == 1
        assert "Human" not in shown and "Computer" not in shown
        assert HINT.title in shown
        over = " ".join(part for part in app.screen.parts if isinstance(part, str))
        assert "The end of the tutorial" in over and "The match is over" not in over
        assert turns >= 4 and table.match.is_over and len(table.match.deals) == 1
    assert not own_statistics.exists()  # a tutorial is not counted in the statistics


@sync
async def test_the_tutorial_plays_again_from_its_deal_and_a_new_game_from_the_usual_one() -> None:
    from parlour.tutorial import tutorial

    app = table_app(tutorial=tutorial("forty-five"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        first = app.screen
        hand = first.state.observation(0).hand
        while not isinstance(app.screen, DealOverScreen):
            await follow_the_hint(pilot, app.screen)
            await settle(pilot)
        await pilot.press("a")  # play again: the same deal, its notes from the start
        await settle(pilot)
        again = app.screen
        assert isinstance(again, TableScreen) and again is not first
        assert again.state.observation(0).hand == hand
        assert again.coach is not None and again.coach.notes[0].key == "intro"
        while not isinstance(app.screen, DealOverScreen):
            await follow_the_hint(pilot, app.screen)
            await settle(pilot)
        await pilot.press("n")  # a new game: the start screen with the game's usual options
        screen = await start_screen(pilot)
        assert screen.settings.variant == "forty-five" and screen.settings.options == {}


@sync
async def test_a_table_that_is_no_tutorial_has_no_notes_and_shows_no_hint_unasked() -> None:
    app = sit("big-two", seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        table = app.screen
        assert table.coach is None and not table.query("#notes")
        assert table.session.given_hint() is None and not message(table).startswith("Hint")
        assert "deal 1" in rows_of(app, table.query_one("#status"))[0]


@sync
async def test_parlour_play_tutorial_opens_the_table_at_the_tutorial(monkeypatch) -> None:
    import parlour.cli
    import parlour.tui

    opened: dict = {}
    monkeypatch.setattr(parlour.cli, "isatty", lambda stream: True)
    monkeypatch.setattr(parlour.tui, "run", lambda **kwargs: opened.update(kwargs) or 0)
    assert main(["play", "--tutorial", "trump"]) == 0
    assert opened["tutorial"].variant == "forty-five" and opened["match"] is None
    assert main(["play", "--tutorial"]) == 0
    assert opened["tutorial"].variant == parlour.registry.default_variant().name
    assert main(["play", "--tutorial", "spoil-five", "--pace", "0"]) == 0
    assert opened["tutorial"].variant == "spoil-five" and opened["pace"] == 0


@sync
async def test_quitting_a_tutorial_leaves_at_once_and_saves_nothing(tmp_path: Path,
                                                                   monkeypatch) -> None:
    from parlour.tutorial import tutorial

    monkeypatch.chdir(tmp_path)
    app = table_app(tutorial=tutorial("rummy"))
    async with app.run_test(size=SIZE) as pilot:
        await settle(pilot)
        assert not app.screen.match.is_over
        await pilot.press("q")
        await pilot.pause()
        assert not any(isinstance(s, QuitScreen) for s in app.screen_stack)
    assert app.return_code == 0
    assert not list(tmp_path.glob("parlour-*.json"))
