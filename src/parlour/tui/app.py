"""The terminal table: a Textual app that plays one human seat against bots, for every variant.

The table is an adapter over :class:`~parlour.session.TableSession`, which runs the match: the
bots' turns (thought out in a worker thread, each from the position's own generator, so a resumed
match plays on as it would have), the person's moves (a refusal is the reason shown), hints, the
end of each deal and the saved record, which ``parlour replay`` reads and ``parlour play
--resume`` continues. What is shown comes from the person's observation alone, never the state.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

from rich.console import RenderableType
from rich.containers import Lines
from rich.text import Text
from textual import events, on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, RichLog, Static

from parlour.advice import ADVISER, Hint
from parlour.bots import make_bot, searchable
from parlour.errors import ParlourError
from parlour.game import Action, State
from parlour.match import Match
from parlour.moves import Choice, Move, offered_verbs, parse_move
from parlour.moves import verb_label as label
from parlour.records import check_save_path
from parlour.registry import new_game
from parlour.review import review_deal, review_lines, reviewer_bot
from parlour.session import HUMAN, TableSession, Turn
from parlour.stats import PlayerStats
from parlour.text import clip, plural
from parlour.tui.moves import game_verbs, verb_help, verb_key
from parlour.tui.screens import (
    DEFAULT_BOT,
    ChoiceScreen,
    DealOverScreen,
    HelpScreen,
    QuitScreen,
    ReviewScreen,
    Settings,
    StartScreen,
    guarded,
)
from parlour.tui.views import SeatNames, grid, standing, view
from parlour.tui.widgets import Hand, cards_markup
from parlour.tutorial import END, Tutorial

#: Seconds between two bots' moves, so that each can be followed.
DEFAULT_PACE = 0.8
#: Rows the message under the log grows to; a longer message is shown whole in a notice too.
MESSAGE_ROWS = 3


class TableScreen(Screen[None]):
    """One match at the table: the human's seat against bots. A ``tutorial``'s match shows
    its notes as they arise (:class:`~parlour.tutorial.Coach`) and the hint at each of the
    person's turns, and is not counted in the person's statistics."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "hint", "Hint"),
        Binding("c", "clear", "Clear"),
        Binding("s", "sort", "Sort"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "quit_table", "Quit"),
        Binding("enter", "confirm", "Play", show=False),
    ]

    def __init__(self, match: Match, seats: Sequence[str], save_path: Path | None,
                 tutorial: Tutorial | None = None) -> None:
        super().__init__()
        self.tutorial = tutorial
        self.coach = None if tutorial is None else tutorial.coach()
        self.session = TableSession(match, seats, save_path=save_path,
                                    stats=None if tutorial is not None else PlayerStats())
        self.match = match
        self.game = match.game
        self.seats = list(seats)
        self.seat = self.seats.index(HUMAN)
        self.names = SeatNames(self.game)
        #: The verbs of this game, whose keys are the table's (another family's are not).
        self.game_verbs = game_verbs(self.session.start_deal())
        self.verb_keys = {verb_key(verb): verb for verb in self.game_verbs}
        self.logged = 0
        self.verbs: list[str] = []
        self.thinking = False
        self.closed = False
        #: The deal-over screen's parts, shown again after a review.
        self.deal_over: tuple[str, list[str | RenderableType]] = ("", [])

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="top"):
            yield Static(id="seats")
            with VerticalScroll(id="table-scroll"):
                yield Static(id="table")
        if self.coach is not None:
            yield RichLog(id="notes", wrap=True, markup=False, min_width=20)
        # Wrapped to the log's own width (not at least 78 columns, RichLog's default).
        yield RichLog(id="log", wrap=True, markup=False, min_width=20)
        yield Static(id="message")
        yield Hand(self.game.card_order(), id="hand")
        yield Horizontal(id="actions")
        yield Footer()

    def on_mount(self) -> None:
        # Every seat's row of the seat panel stays in sight, with its header.
        self.query_one("#top").styles.min_height = self.game.players + 1
        self.query_one("#hand", Hand).focus()
        if self.coach is not None:
            self.query_one("#notes", RichLog).border_title = f"Tutorial: {self.coach.lesson.title}"
        self.new_deal_log()
        self.advance()

    def on_key(self, event: events.Key) -> None:
        """The key of one of this game's verbs (its family's record) makes that move with the
        selected cards; another family's keys do nothing here."""
        verb = self.verb_keys.get(event.character or "")
        if verb is not None:
            event.stop()
            self.action_verb(verb)

    # -- what is shown ------------------------------------------------------------------------
    @property
    def state(self) -> State:
        """The deal on the table: the current one, or the last finished one between deals."""
        state = self.session.state
        assert state is not None  # a deal is dealt when the table opens
        return state

    @property
    def deal_number(self) -> int:
        return self.session.deal_number

    @property
    def save_path(self) -> Path | None:
        return self.session.save_path

    @property
    def my_turn(self) -> bool:
        return not self.state.is_over and self.state.current_player == self.seat

    def new_deal_log(self) -> None:
        log = self.query_one("#log", RichLog)
        log.clear()
        done = len(self.state.history)
        log.write(f"— deal {self.deal_number}" + (f", resumed after {plural(done, 'action')}"
                                                  if done else "") + " —")
        self.logged = 0

    def show(self) -> None:
        """Redraw everything from the human's observation."""
        obs = self.state.observation(self.seat)
        v = view(obs, self.names)
        name = self.names
        if self.state.is_over:
            turn = "the deal is over"
        elif self.my_turn:
            turn = "your turn"
        else:
            turn = f"{name(self.state.current_player)} is playing…"
        # Whose turn first: on a narrow window the title's end is what gives way.
        deal = "tutorial" if self.coach is not None else f"deal {self.deal_number}"
        self.query_one("#status", Static).update(f"{turn} · {deal} · {v.title}")
        scores = standing(self.game, self.match.totals, v.figures)
        rows = []
        for i, who in enumerate(self.seats):
            mark = "▶" if i == self.state.current_player and not self.state.is_over else " "
            row = [f"{mark} {name(i)}", "you" if who == HUMAN else who, str(obs.hand_sizes[i]),
                   scores.figures[i]]
            rows.append([Text(cell, style="bold") for cell in row] if mark != " " else row)
        self.query_one("#seats", Static).update(
            grid(["", "", "cards", scores.label], rows, right=2))
        self.query_one("#table", Static).update(v.table)
        legal = [parse_move(a) for a in self.state.legal_actions()] if self.my_turn else []
        # On the person's turn, the cards no legal move uses are dimmed (when moves use cards).
        playable = frozenset(c for m in legal for c in m.cards)
        self.query_one("#hand", Hand).show(v.hand, v.new_card, playable or None)
        log = self.query_one("#log", RichLog)
        for line in obs.log_lines(self.logged):
            log.write(cards_markup(self.names.text(line)))
        self.logged = len(obs.history)
        verbs = offered_verbs(m.action for m in legal)
        if verbs != self.verbs:
            self.verbs = verbs
            bar = self.query_one("#actions", Horizontal)
            bar.remove_children()
            bar.mount_all([Button(f"{label(v)} ({verb_key(v)})", name=v, compact=True)
                           for v in verbs])
            for button in bar.query(Button):
                button.can_focus = False
        self.show_notes()

    def show_notes(self) -> None:
        """A tutorial's notes new at this position, added under those shown before."""
        if self.coach is None:
            return
        state = self.state
        obs = state.observation(self.seat)
        notes = self.query_one("#notes", RichLog)
        for note in self.coach.follow(obs, state.legal_actions() if self.my_turn else []):
            text = Text.assemble((f"{note.title}: ", "bold"),
                                 cards_markup(self.names.text(note.text)))
            notes.write(text)

    def say(self, text: str, style: str = "") -> None:
        """Show ``text`` under the log, wrapped onto up to :data:`MESSAGE_ROWS` rows; a longer
        one is cut there and shown whole in a notice as well."""
        shown = cards_markup(self.names.text(clip(text)))
        if style:
            shown.stylize(style)
        message = self.query_one("#message", Static)
        width, lines = self._wrapped(shown)
        if len(lines) > MESSAGE_ROWS:
            self.notify(shown.plain, severity="error" if style == "red" else "information",
                        timeout=15, markup=False)
            cut = lines[MESSAGE_ROWS - 1]
            cut.truncate(width - 1)
            cut.append("…")
            shown = Text("\n").join(lines[:MESSAGE_ROWS])
        message.update(shown)

    def _wrapped(self, shown: Text) -> tuple[int, Lines]:
        """The message area's width, and ``shown`` wrapped to it."""
        width = max(self.query_one("#message", Static).content_size.width or self.size.width - 2,
                    10)
        return width, shown.wrap(self.app.console, width)

    def fits(self, text: str) -> bool:
        """Whether ``text`` shows whole in the message area (:data:`MESSAGE_ROWS` rows)."""
        return len(self._wrapped(cards_markup(self.names.text(clip(text))))[1]) <= MESSAGE_ROWS

    # -- the flow of play ---------------------------------------------------------------------
    def advance(self) -> None:
        """Go on from the position on the table: the human's turn, a bot's, or the deal's end."""
        if self.closed:
            return
        state = self.state
        self.show()
        if state.is_over:
            self.end_of_deal()
        elif not self.my_turn:
            self.bot_turn()
        elif self.coach is not None and self.session.given_hint() is None:
            self.action_hint()  # a tutorial shows the hint at every turn

    def bot_turn(self) -> None:
        turn = self.session.bot_turn()
        self.thinking = True

        def think() -> None:
            try:
                action = turn.think()
            except Exception as e:  # a bot's bug: stop the table's play, say so
                self.app.call_from_thread(self.say, f"internal error in {turn.bot.name}: {e}",
                                          "red")
                return
            self.app.call_from_thread(self.bot_moved, turn, action)

        self.run_worker(think, thread=True, group="bots", exit_on_error=False)

    def bot_moved(self, turn: Turn, action: Action) -> None:
        if self.closed or not self.session.apply_turn(turn, action):
            return  # the table moved on (a new match, a quit) while the bot thought
        self.thinking = False
        pace = getattr(self.app, "pace", DEFAULT_PACE)
        if pace > 0 and self.session.bot_to_move():
            self.show()
            self.set_timer(pace, self.advance)
        else:
            self.advance()

    def end_of_deal(self) -> None:
        match, name, game = self.match, self.names, self.game
        result = self.session.finish_deal()
        # The standing as the finished deal's table shows it (Spoil Five's chips after it).
        scores = standing(game, result.totals, view(self.state.observation(self.seat)).figures)
        seat_rows = [[name(i) + (" (you)" if i == self.seat else ""),
                      game.scores.deal(result.returns[i]), figure]
                     for i, figure in enumerate(scores.figures)]
        parts: list[str | RenderableType] = [
            self.names.text(result.summary), "",
            grid(["", *game.scores.headings], seat_rows, right=2)]
        if result.hands is not None:
            held = [f"{name(i)} held {' '.join(map(str, hand))}"
                    for i, hand in enumerate(result.hands) if hand and i != self.seat]
            parts += ["", *held]
        if self.coach is not None:
            parts += ["", f"{END.title}. {END.text}"]
        elif match.is_over:
            winners = [name(w) for w in match.winners()]
            parts += ["", f"The match is over after {plural(len(match.deals), 'deal')}. "
                          f"{'Winner' if len(winners) == 1 else 'Winners'}: {', '.join(winners)}."]
        else:
            parts += ["", f"The match goes on: {game.match_end_text()}."]
        self.show()
        self.deal_over = (f"Deal {result.number} is over", parts)
        self.app.push_screen(DealOverScreen(*self.deal_over, match.is_over), self.after_deal)

    def after_deal(self, choice: str | None) -> None:
        if choice == "review":
            self.app.push_screen(ReviewScreen(f"Review of deal {len(self.match.deals)}",
                                              self.deal_review),
                                 lambda _: self.app.push_screen(
                                     DealOverScreen(*self.deal_over, self.match.is_over),
                                     self.after_deal))
        elif choice == "quit":
            self.action_quit_table()
        elif choice == "again" and isinstance(self.app, ParlourApp):
            # Another match with the same game, seats and bots, dealt from a new seed; a
            # tutorial again, as it was.
            self.closed = True
            if self.tutorial is not None:
                self.app.start_tutorial(self.tutorial)
            else:
                self.app.start(Settings.played(self.game, self.seats))
        elif self.match.is_over:
            self.closed = True
            self.app.pop_screen()
            app = self.app
            if isinstance(app, ParlourApp):
                # A new game starts from the game and settings just played (after a tutorial,
                # from the game's usual settings).
                app.settings = (Settings(self.game.name) if self.tutorial is not None
                                else Settings.played(self.game, self.seats))
                app.show_start()
        else:
            self.session.start_deal()
            self.verbs = []
            self.new_deal_log()
            self.say("")
            self.advance()

    # -- the human's moves --------------------------------------------------------------------
    @guarded
    def action_verb(self, verb: str) -> None:
        if not self.my_turn:
            self.say("Wait for your turn." if not self.state.is_over else "The deal is over.")
            return
        hand = self.query_one("#hand", Hand)
        try:
            action = self.session.pick(self.seat, verb, hand.selected)
        except Choice as c:
            self.app.push_screen(ChoiceScreen(c.moves), self.chosen)
            return
        except ParlourError as e:
            self.say(f"Not allowed: {e}", "red")
            return
        self.played(action)

    @guarded
    def action_confirm(self) -> None:
        """Enter: the move the selected cards make, whatever its verb (play, meld, discard …),
        when only one fits; otherwise ``play`` says what is wrong, or, in a game without it
        (Rummy), which keys make a move."""
        selected = self.query_one("#hand", Hand).selected
        fits = offered_verbs(a for a in self.state.legal_actions()
                             if parse_move(a).cards == selected) if selected and self.my_turn else []
        if len(fits) == 1:
            self.action_verb(fits[0])
        elif "play" in self.game_verbs or not self.my_turn:
            self.action_verb("play")
        else:
            keys = ", ".join(f"{label(v)} ({verb_key(v)})" for v in self.verbs)
            self.say(f"Press the key of your move: {keys}.")

    def chosen(self, move: Move | None) -> None:
        if move is not None and self.my_turn:
            self.played(self.session.play(self.seat, move.action))

    def played(self, action: Action) -> None:
        hand = self.query_one("#hand", Hand)
        hand.selected.clear()
        self.app.clear_notifications()  # a long hint's or refusal's notice goes with the move
        self.say(f"You: {action}")
        self.advance()

    @on(Button.Pressed, "#actions Button")
    def button_pressed(self, event: Button.Pressed) -> None:
        if event.button.name:
            self.action_verb(event.button.name)

    @guarded
    def action_clear(self) -> None:
        self.query_one("#hand", Hand).select_only(set())

    @guarded
    def action_sort(self) -> None:
        by = self.query_one("#hand", Hand).sort()
        self.say(f"Your hand is sorted by {by}; s sorts it by {'rank' if by == 'suit' else 'suit'}.")

    @guarded
    def action_hint(self) -> None:
        if not searchable(self.game.variant):
            self.say(f"There are no hints in {self.game.name}: no computer player here can "
                     "judge its moves.")
            return
        if not self.my_turn:
            self.say("A hint is for your turn.")
            return
        given = self.session.given_hint()
        if given is not None:  # asked again at the same decision: the figures behind it
            self.say(f"Hint: {self.names.text(given.details)}", "green")
            return
        level = getattr(self.app, "advice_level", ADVISER)
        turn = self.session.hint_turn(self.seat, level)
        self.say("Thinking…")

        def think() -> None:
            try:
                advice = turn.advise()
            except Exception as e:
                self.app.call_from_thread(self.say, f"internal error in the hint: {e}", "red")
                return
            self.app.call_from_thread(self.hinted, advice, turn)

        self.run_worker(think, thread=True, group="hint", exit_on_error=False)

    def hinted(self, advice: Hint, turn: Turn) -> None:
        if self.closed or not self.session.note_hint(turn, advice):
            return
        move = parse_move(advice.action)
        self.query_one("#hand", Hand).select_only(set(move.cards))
        key = verb_key(move.verb)
        then = f" (press {key}; h again: the figures)" if key else " (h again: the figures)"
        # Said shortly where the whole sentence would not fit (the cards show selected).
        text = f"Hint: {advice.text}{then}"
        self.say(text if self.fits(text) else f"Hint: {advice.brief}{then}", "green")

    def deal_review(self) -> list[str]:
        """The review of the last deal's decisions of the person's seat (run in a worker
        thread)."""
        state = self.match.deals[-1]
        if not searchable(self.game.variant):
            return [f"There is no review in {self.game.name}: no computer player here can "
                    "judge its moves."]
        level = getattr(self.app, "advice_level", ADVISER)
        decisions = review_deal(state, [self.seat], reviewer_bot(level),
                                deal=len(self.match.deals))
        return [self.names.text(line) for line in review_lines(decisions, state)]

    def keys_help(self) -> list[tuple[str, str]]:
        """The keys of this game, for the help."""
        return [
            ("← →", "move along your hand"),
            ("space / click", "select or unselect a card"),
            ("c", "clear the selection"),
            ("s", "sort your hand by suit, or by rank"),
            *[(verb_key(verb), verb_help(verb)) for verb in self.game_verbs],
            ("enter", "the move the selected cards make"),
            ("h", "a hint: the best move found, and how sure (again: its figures)"),
            ("? / f1", "this help"),
            ("q", "quit (offers to save the match)"),
        ]

    @guarded
    def action_help(self) -> None:
        # How this match ends, where its options make it other than the rules' usual match.
        usual = new_game(self.game.name, players=self.game.players)
        match_end = (None if usual.option_values() == self.game.option_values()
                     else self.game.match_end_text())
        self.app.push_screen(HelpScreen(self.game.name, match_end=match_end,
                                        keys=self.keys_help()))

    # -- saving and quitting ------------------------------------------------------------------
    def save_to(self, text: str) -> str:
        """Save the match so far to ``text`` (a path); :class:`RecordError` if it cannot be."""
        if not text:
            raise ParlourError("give a file name to save to")
        return str(self.session.save(check_save_path(text)))

    @guarded
    def action_quit_table(self) -> None:
        if self.match.is_over or self.tutorial is not None:  # a tutorial is not saved
            self.closed = True
            self.app.exit(0)
            return
        if isinstance(self.app.screen, QuitScreen):
            return  # already asking
        default = str(self.save_path or f"parlour-{self.game.name}-{self.match.seed}.json")
        self.app.push_screen(QuitScreen(default, self.save_to), self.after_quit)

    def after_quit(self, leave: bool | None) -> None:
        if leave:
            self.closed = True
            if self.save_path is not None:
                self.app.exit(0, message=f"The match is saved to {self.save_path}; continue it "
                                         f"with 'parlour play --resume {self.save_path}'.")
            else:
                self.app.exit(0)


class ParlourApp(App[int]):
    """The table app: the start screen, or straight to a match (given, or resumed).

    ``pace`` is the pause between bots' moves in seconds (0: instant); ``advice_level`` is
    the searching level that judges the hints and the reviews alike (default: the strongest).
    ``tutorial``: open straight at that first-game tutorial (:mod:`parlour.tutorial`).
    """

    CSS_PATH = "parlour.tcss"
    TITLE = "parlour"

    def __init__(self, *, match: Match | None = None, seats: Sequence[str] = (),
                 save_path: Path | None = None, settings: Settings | None = None,
                 pace: float = DEFAULT_PACE, advice_level: str = ADVISER,
                 tutorial: Tutorial | None = None) -> None:
        super().__init__()
        self.tutorial = tutorial
        self.match = match
        self.seats = list(seats)
        self.save_path = save_path
        self.settings = settings or Settings()
        self.pace = pace
        self.advice_level = advice_level

    def on_mount(self) -> None:
        if self.tutorial is not None:
            self.push_screen(self.tutorial_screen(self.tutorial))
        elif self.match is not None and self.match.is_over:
            self.notify("That match is over: start a new one.")
            self.show_start()
        elif self.match is not None:
            self.push_screen(TableScreen(self.match, self.seats, self.save_path))
        else:
            self.show_start()

    def show_start(self) -> None:
        self.push_screen(StartScreen(self.settings, self.start))

    def start(self, settings: Settings) -> None:
        """Deal a new match with ``settings`` and sit down at it (in place of the start screen).
        A setting the variant refuses raises its :class:`ParlourError`."""
        game = new_game(settings.variant, players=settings.players, **settings.options)
        others = [settings.bots[k] if k < len(settings.bots) else DEFAULT_BOT
                  for k in range(game.players - 1)]
        for name in others:
            make_bot(name)  # an unknown name is refused before the deal
        seats = [*others]
        seats.insert(settings.seat, HUMAN)
        self.settings = settings
        match = game.new_match(seed=settings.seed)
        self.switch_screen(TableScreen(match, seats, self.save_path))

    @staticmethod
    def tutorial_screen(tutorial: Tutorial) -> TableScreen:
        return TableScreen(tutorial.match(), tutorial.seats(), None, tutorial)

    def start_tutorial(self, tutorial: Tutorial) -> None:
        """Sit down at ``tutorial``'s deal afresh (in place of the screen shown)."""
        self.switch_screen(self.tutorial_screen(tutorial))

    async def action_quit(self) -> None:
        """Quit by any route (ctrl+q, the command palette): a match in progress, under whatever
        screen is over it, first offers to be saved."""
        table = next((s for s in reversed(self.screen_stack) if isinstance(s, TableScreen)
                      and not s.closed), None)
        if table is not None:
            table.action_quit_table()
        else:
            self.exit(0)


def run(*, match: Match | None = None, seats: Sequence[str] = (), save_path: Path | None = None,
        settings: Settings | None = None, pace: float = DEFAULT_PACE,
        tutorial: Tutorial | None = None) -> int:
    """Open the table (at ``tutorial``, if given); the exit code when it closes."""
    app = ParlourApp(match=match, seats=seats, save_path=save_path, settings=settings, pace=pace,
                     tutorial=tutorial)
    code = app.run()
    return code if isinstance(code, int) else 0
