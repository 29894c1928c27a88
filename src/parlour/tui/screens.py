"""The start screen and the small screens over the table: help, deal over, quit, which meld."""

from __future__ import annotations

import functools
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, Literal, TypeVar, cast

from rich.console import Group, RenderableType
from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalGroup, VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Button, Footer, Input, Label, Select, Static, Switch

from parlour.bots import BOT_LEVELS, offered_bots
from parlour.errors import ParlourError, VariantError
from parlour.game import Game
from parlour.moves import Move
from parlour.registry import OptionInfo, default_variant, get_variant, new_game, variants
from parlour.session import HUMAN
from parlour.stats import PlayerStats
from parlour.summaries import summary
from parlour.text import sentence
from parlour.tui.views import SeatNames
from parlour.tui.widgets import cards_markup

F = TypeVar("F", bound=Callable[..., Any])


def guarded(method: F) -> F:
    """``method`` (a handler of a widget or screen) with any exception shown as a one-line
    notice instead of ending the app with a traceback."""

    @functools.wraps(method)
    def wrapper(self: Any, *args: Any, **kwargs: Any) -> Any:
        try:
            return method(self, *args, **kwargs)
        except ParlourError as e:
            self.app.notify(_words(e), severity="error")
        except Exception as e:  # a bug: keep the table alive and say what happened
            self.app.notify(f"internal error: {type(e).__name__}: {e}", severity="error")
        return None

    return cast(F, wrapper)


@dataclass
class Settings:
    """What the start screen chooses: the game, who sits where, and the seed."""

    variant: str = field(default_factory=lambda: default_variant().name)
    players: int | None = None
    seat: int = 0
    #: A bot name for each other seat, in seat order; missing ones are ``greedy``.
    bots: list[str] = field(default_factory=list)
    options: dict[str, Any] = field(default_factory=dict)
    seed: int | None = None

    @classmethod
    def played(cls, game: Game, seats: Sequence[str]) -> Settings:
        """The settings of a match of ``game`` with ``seats`` (:data:`HUMAN` or a bot's name
        each), to start another like it (a new seed)."""
        return cls(game.name, game.players, list(seats).index(HUMAN),
                   [name for name in seats if name != HUMAN], game.option_values())


DEFAULT_BOT = "greedy"

def level_text(name: str) -> str:
    """``greedy — rules of thumb, no lookahead``: a level and what it does."""
    return f"{name} — {BOT_LEVELS[name]}" if name in BOT_LEVELS else name


def option_text(info: OptionInfo) -> Text:
    """An option's label (in bold) and help, in words, with its range.

    >>> from parlour.registry import get_variant
    >>> for info in get_variant("big-two").option_info()[::6]:
    ...     print(option_text(info))
    Allow three of a kind: three cards of one rank may be played on their own, beaten by a higher three.
    Number of deals: the deals in a match (1 to 1000).
    """
    text = sentence(info.help)
    if info.choices is None and not isinstance(info.default, bool) and (
            info.min is not None or info.max is not None):
        span = (f"{info.min} to {info.max}" if info.min is not None and info.max is not None
                else f"{info.min} or more" if info.min is not None else f"at most {info.max}")
        text = f"{text[:-1]} ({span})."
    return Text.assemble((info.label, "bold"), ": ", text[:1].lower() + text[1:])


def _words(error: ParlourError) -> str:
    """What ``error`` says to a player: an option by its label, not its keyword."""
    return error.words if isinstance(error, VariantError) else str(error)


class StartScreen(Screen[None]):
    """Choose the variant (with its description and rules), players, seat, bots, options, seed."""

    AUTO_FOCUS = "#variant"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("s", "start", "Start"),
        Binding("r", "rules", "Rules"),
        Binding("t", "stats", "Statistics"),
        Binding("q", "app.quit", "Quit"),
    ]

    def __init__(self, settings: Settings, start: Callable[[Settings], None]) -> None:
        super().__init__()
        self.settings = settings
        self.on_start = start

    def compose(self) -> ComposeResult:
        s = self.settings
        with VerticalScroll(id="form"):
            yield Static("parlour: card games against computer players", classes="title")
            yield Label("Game")
            yield Select([(v.name, v.name) for v in variants()], value=s.variant,
                         allow_blank=False, id="variant")
            yield Static(id="description")
            yield Vertical(id="setup")
            yield Label("Seed (optional: the same seed deals the same cards)", classes="heading")
            yield Input("" if s.seed is None else str(s.seed), type="integer", id="seed")
        yield Static(id="start-error")
        with Horizontal(id="start-buttons", classes="buttons"):
            yield Button("Start (s)", id="start", variant="primary")
            yield Button("Rules (r)", id="rules")
            yield Button("Stats (t)", id="stats")
            yield Button("Quit (q)", id="quit")
        yield Footer()

    async def on_mount(self) -> None:
        await self.rebuild(self.settings.variant, self.settings.players)

    async def rebuild(self, variant_name: str, players: int | None) -> None:
        """Show the choices of ``variant_name`` with ``players`` seats."""
        v = get_variant(variant_name)
        n = players if players in v.players else v.default_players
        game = new_game(v.name, players=n)
        # The description says what the game is; how a match ends is the options' to say
        # (and the rules'), and the number of players the Players choice's, where there is one.
        self.query_one("#description", Static).update(
            f"{v.description}." + (f" {n} players." if len(v.players) == 1 else ""))
        s = self.settings
        names = SeatNames(game)
        seat = s.seat if 0 <= s.seat < n else 0
        rows: list[Any] = []
        if len(v.players) > 1:
            rows += [Label("Players"), Select([(str(k), k) for k in v.players], value=n,
                                             allow_blank=False, id="players")]
        rows += [Label("Your seat"),
                 Select([(names(i), i) for i in range(n)], value=seat, allow_blank=False,
                        id="seat")]
        levels = offered_bots(v.name, n)
        if n > 1:
            rows.append(Label("Computer players", classes="option"))
        for k in range(n - 1):
            chosen = s.bots[k] if k < len(s.bots) and s.bots[k] in levels else DEFAULT_BOT
            rows.append(Horizontal(Label(id=f"bot-label-{k}", classes="bot-label"),
                                   Select([(level_text(b), b) for b in levels], value=chosen,
                                          allow_blank=False, id=f"bot-{k}"),
                                   classes="bot-row"))
        for info in v.option_info():
            value = s.options.get(info.name, info.default) if v.name == s.variant else info.default
            ident = f"opt-{info.name}"
            widget: Widget
            if info.choices is not None:
                widget = Select([(info.value_words(c), c) for c in info.choices], value=value,
                                allow_blank=False, id=ident, classes="option-input")
            elif isinstance(info.default, bool):
                widget = Switch(value=bool(value), id=ident, classes="option-input")
            else:
                kind: Literal["integer", "text"] = (
                    "integer" if isinstance(info.default, int) else "text")
                widget = Input(str(value), type=kind, id=ident, classes="option-input")
            # One group an option, hidden while the other options make it not apply.
            rows.append(VerticalGroup(Static(option_text(info), classes="option"), widget,
                                      id=f"row-{info.name}"))
        setup = self.query_one("#setup", Vertical)
        await setup.remove_children()
        await setup.mount_all(rows)
        self.settings = Settings(v.name, n, seat, s.bots, s.options if v.name == s.variant
                                 else {}, s.seed)
        self.name_opponents(seat)
        self.show_applying()

    def option_values(self) -> dict[str, Any]:
        """The options as the form shows them (a number not yet typed in full at its default);
        empty while the form is being built."""
        values: dict[str, Any] = {}
        for info in get_variant(self.settings.variant).option_info():
            found = self.query(f"#opt-{info.name}")
            if not found:
                return {}
            widget = found.first()
            if isinstance(widget, (Switch, Select)):
                values[info.name] = widget.value
            elif isinstance(widget, Input):
                text = widget.value.strip()
                if isinstance(info.default, int) and not isinstance(info.default, bool):
                    values[info.name] = int(text) if re.fullmatch(r"-?\d+", text) else info.default
                else:
                    values[info.name] = text or info.default
        return values

    def show_applying(self) -> None:
        """Show the options that apply under the others as chosen, hide the rest (a number of
        deals while the match ends at a penalty limit)."""
        values = self.option_values()
        if not values:
            return
        for info in get_variant(self.settings.variant).option_info():
            for row in self.query(f"#row-{info.name}"):
                row.display = info.applies(values)

    @on(Select.Changed, ".option-input")
    @on(Switch.Changed, ".option-input")
    def option_changed(self) -> None:
        self.show_applying()

    def name_opponents(self, seat: int) -> None:
        """Call each computer player by the seat it takes, with the person at ``seat``."""
        names = SeatNames(new_game(self.settings.variant, players=self.settings.players))
        others = [i for i in range(len(names.names)) if i != seat]
        for k, other in enumerate(others):
            self.query_one(f"#bot-label-{k}", Label).update(names(other))

    @on(Select.Changed, "#variant")
    async def variant_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, str) and event.value != self.settings.variant:
            await self.rebuild(event.value, None)

    @on(Select.Changed, "#players")
    async def players_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, int) and event.value != self.settings.players:
            await self.rebuild(self.settings.variant, event.value)

    @on(Select.Changed, "#seat")
    def seat_changed(self, event: Select.Changed) -> None:
        if isinstance(event.value, int):
            self.settings.seat = event.value
            self.name_opponents(event.value)

    def chosen(self) -> Settings:
        """The settings as shown; :class:`ParlourError` for a value that is not allowed."""
        v = get_variant(self.settings.variant)
        n = self.settings.players or v.default_players
        seat = self.query_one("#seat", Select).value
        bots = [str(self.query_one(f"#bot-{k}", Select).value) for k in range(n - 1)]
        options: dict[str, Any] = {}
        shown = self.option_values()
        for info in v.option_info():
            if not info.applies(shown):
                continue  # hidden: played at its default
            widget = self.query_one(f"#opt-{info.name}")
            if isinstance(widget, (Switch, Select)):
                options[info.name] = widget.value
            elif isinstance(widget, Input):
                text = widget.value.strip()
                if isinstance(info.default, int) and not isinstance(info.default, bool):
                    options[info.name] = _whole(text, info.label) if text else info.default
                else:
                    options[info.name] = text or info.default
        seed_text = self.query_one("#seed", Input).value.strip()
        seed = _whole(seed_text, "the seed") if seed_text else None
        return Settings(v.name, n, seat if isinstance(seat, int) else 0, bots, options, seed)

    @guarded
    def action_start(self) -> None:
        error = self.query_one("#start-error", Static)
        try:
            settings = self.chosen()
            self.on_start(settings)
        except ParlourError as e:
            error.update(Text(_words(e), style="bold red"))

    @guarded
    def action_rules(self) -> None:
        self.app.push_screen(HelpScreen(self.settings.variant))

    @on(Button.Pressed, "#start")
    def start_pressed(self) -> None:
        self.action_start()

    @on(Button.Pressed, "#rules")
    def rules_pressed(self) -> None:
        self.action_rules()

    @guarded
    def action_stats(self) -> None:
        self.app.push_screen(StatsScreen())

    @on(Button.Pressed, "#stats")
    def stats_pressed(self) -> None:
        self.action_stats()

    @on(Button.Pressed, "#quit")
    def quit_pressed(self) -> None:
        self.app.exit(0)

    @on(Input.Submitted)
    def submitted(self) -> None:
        self.action_start()


def _whole(text: str, what: str) -> int:
    try:
        return int(text)
    except ValueError:
        raise ParlourError(f"{what} must be a whole number, not {text!r}") from None


class HelpScreen(ModalScreen[None]):
    """A variant's rules in full (scrollable), and at the table this match's end and the keys
    of its game."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q,question_mark,f1,enter", "close", "Close")]

    def __init__(self, variant: str, *, match_end: str | None = None,
                 keys: Sequence[tuple[str, str]] = ()) -> None:
        super().__init__()
        self.variant = variant
        self.match_end = match_end
        self.keys = list(keys)

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="help"):
            yield Static(f"{self.variant}: rules", classes="title")
            yield Static(summary(self.variant), id="rules")
            if self.match_end:
                yield Static(f"This match: {self.match_end}.")
            if self.keys:
                yield Static("Keys", classes="title heading")
                width = max(len(key) for key, _ in self.keys)
                yield Static("\n".join(f"{key:>{width}}  {what}" for key, what in self.keys),
                             id="keys")
                yield Static("Only the moves you can make now are shown as buttons; a move "
                             "that is not allowed is refused with the rule it breaks.")
            yield Static("[dim]↑ ↓ scroll · escape closes[/]")

    def action_close(self) -> None:
        self.dismiss(None)


class DealOverScreen(ModalScreen[str]):
    """A finished deal's result per seat and the match standing; next deal or quit.

    ``parts`` are what it says, in order: lines of text (cards drawn as cards) and tables."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("n,enter", "choose('next')", "Next"), Binding("r", "choose('review')", "Review"),
        Binding("a", "again", "Play again"), Binding("q", "choose('quit')", "Quit")]

    def __init__(self, title: str, parts: Sequence[str | RenderableType], match_over: bool) -> None:
        super().__init__()
        self.title_text = title
        self.parts = list(parts)
        self.match_over = match_over

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="deal-over"):
            yield Static(self.title_text, classes="title")
            with VerticalScroll(id="deal-over-body"):
                yield Static(Group(*(cards_markup(part) if isinstance(part, str) else part
                                     for part in self.parts)), id="deal-over-text")
            with Horizontal(classes="buttons"):
                if self.match_over:
                    yield Button("Play again (a)", id="again", variant="primary")
                yield Button("New game (n)" if self.match_over else "Next deal (n)",
                             id="next", variant="default" if self.match_over else "primary")
                yield Button("Review (r)", id="review")
                yield Button("Quit (q)", id="quit")

    def action_choose(self, what: str) -> None:
        self.dismiss(what)

    def action_again(self) -> None:
        """Play again: only once the match is over (mid-match the key does nothing)."""
        if self.match_over:
            self.dismiss("again")

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id or "quit")


class StatsScreen(ModalScreen[None]):
    """The person's statistics (:mod:`parlour.stats`), as ``parlour stats`` shows them."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,enter,t", "close", "Close")]

    def compose(self) -> ComposeResult:
        stats = PlayerStats()
        with VerticalScroll(classes="dialog", id="stats-dialog"):
            yield Static("Your statistics", classes="title")
            yield Static(Text("\n".join(stats.lines())), id="stats-lines")
            yield Static(Text(f"kept in {stats.path} · escape closes", style="dim"))

    def action_close(self) -> None:
        self.dismiss(None)


class ReviewScreen(ModalScreen[None]):
    """A deal's review (:mod:`parlour.review`): ``work()`` makes its lines in a worker thread,
    since the search takes a few seconds; a refusal it raises is shown instead."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,q,enter", "close", "Close")]

    def __init__(self, title: str, work: Callable[[], list[str]]) -> None:
        super().__init__()
        self.title_text = title
        self.work = work

    def compose(self) -> ComposeResult:
        with VerticalScroll(classes="dialog", id="review-dialog"):
            yield Static(self.title_text, classes="title")
            yield Static("Reviewing your decisions…", id="review-lines")
            yield Static("[dim]'?' marks a mistake · escape closes[/]")

    def on_mount(self) -> None:
        def run() -> None:
            try:
                text = "\n".join(self.work())
            except ParlourError as e:
                text = str(e)
            self.app.call_from_thread(self.show, text)

        self.run_worker(run, thread=True, exit_on_error=False)

    def show(self, text: str) -> None:
        self.query_one("#review-lines", Static).update(Text(text))

    def action_close(self) -> None:
        self.dismiss(None)


class QuitScreen(ModalScreen[bool]):
    """Quitting mid-match: save the whole match so far to a file, quit without saving, or stay.

    ``save(path)`` writes the record; a path it refuses is reported here and the screen stays.
    """

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "stay", "Back to the table")]

    def __init__(self, default_path: str, save: Callable[[str], str]) -> None:
        super().__init__()
        self.default_path = default_path
        self.save = save

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="quit-dialog"):
            yield Static("Quit the match?", classes="title")
            yield Static("Save the match so far to continue it later with "
                         "'parlour play --resume FILE':")
            yield Input(self.default_path, id="path")
            yield Static(id="save-error")
            with Horizontal(classes="buttons"):
                yield Button("Save and quit", id="save", variant="primary")
                yield Button("Quit without saving", id="discard", variant="error")
                yield Button("Back (esc)", id="stay")

    @guarded
    def save_and_quit(self) -> None:
        try:
            self.save(self.query_one("#path", Input).value.strip())
        except ParlourError as e:
            self.query_one("#save-error", Static).update(Text(str(e), style="bold red"))
            return
        self.dismiss(True)

    @on(Input.Submitted)
    def submitted(self) -> None:
        self.save_and_quit()

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "save":
            self.save_and_quit()
        elif event.button.id == "discard":
            self.dismiss(True)
        else:
            self.dismiss(False)

    def action_stay(self) -> None:
        self.dismiss(False)


class ChoiceScreen(ModalScreen["Move | None"]):
    """Which of several legal actions the selected cards and key mean (a lay-off that fits
    more than one meld): 1–9 or a click picks one, escape goes back."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "pick(0)", "Back"),
                *[Binding(str(i), f"pick({i})", show=False) for i in range(1, 10)]]

    def __init__(self, moves: Sequence[Move]) -> None:
        super().__init__()
        self.moves = list(moves)

    def compose(self) -> ComposeResult:
        with Vertical(classes="dialog", id="choice"):
            yield Static("Which one?", classes="title")
            for i, move in enumerate(self.moves[:9], 1):
                yield Button(f"{i}: {move.text}", name=str(i))

    def action_pick(self, number: int) -> None:
        if number == 0:
            self.dismiss(None)
        elif number <= len(self.moves):
            self.dismiss(self.moves[number - 1])

    @on(Button.Pressed)
    def pressed(self, event: Button.Pressed) -> None:
        self.action_pick(int(event.button.name or 0))
