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

from textual import on
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import Screen
from textual.widgets import Button, Footer, RichLog, Static

from parlour.bots import bot_names, make_bot
from parlour.errors import ParlourError
from parlour.game import Action, State
from parlour.match import Match
from parlour.moves import Choice, Move, offered_verbs, parse_move
from parlour.moves import verb_label as label
from parlour.records import check_save_path
from parlour.registry import new_game
from parlour.review import REVIEWER, review_deal, review_lines, reviewer_bot
from parlour.session import HUMAN, Position, TableSession, Turn
from parlour.text import clip
from parlour.tui.moves import VERB_KEYS, verb_key
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
from parlour.tui.views import view
from parlour.tui.widgets import Hand, cards_markup

#: Seconds between two bots' moves, so that each can be followed.
DEFAULT_PACE = 0.8


def strongest_bot() -> str:
    """The strongest bot level available, for hints."""
    names = bot_names()
    return next((n for n in ("expert", "hard", "medium", "greedy") if n in names), names[0])


class TableScreen(Screen[None]):
    """One match at the table: the human's seat against bots."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("h", "hint", "Hint"),
        Binding("c", "clear", "Clear"),
        Binding("question_mark,f1", "help", "Help"),
        Binding("q", "quit_table", "Quit"),
        Binding("enter", "verb('play')", "Play", show=False),
        *[Binding(key, f"verb({verb!r})", label(verb), show=False)
          for verb, key in VERB_KEYS.items()],
    ]

    def __init__(self, match: Match, seats: Sequence[str], save_path: Path | None) -> None:
        super().__init__()
        self.session = TableSession(match, seats, save_path=save_path)
        self.match = match
        self.game = match.game
        self.seats = list(seats)
        self.seat = self.seats.index(HUMAN)
        #: The deal on the table: the current one, or the last finished one between deals.
        self.state: State = self.session.start_deal()
        self.logged = 0
        self.verbs: list[str] = []
        self.thinking = False
        self.closed = False
        #: The deal-over lines, shown again after a review.
        self.deal_over_lines: list[str] = []

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Horizontal(id="top"):
            yield Static(id="seats")
            with VerticalScroll(id="table-scroll"):
                yield Static(id="table")
        yield RichLog(id="log", wrap=True, markup=False)
        yield Static(id="message")
        yield Hand(id="hand")
        yield Horizontal(id="actions")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#hand", Hand).focus()
        self.new_deal_log()
        self.advance()

    # -- what is shown ------------------------------------------------------------------------
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
        log.write(f"— deal {self.deal_number}" + (f", resumed after {done} actions" if done
                                                  else "") + " —")
        self.logged = 0

    def show(self) -> None:
        """Redraw everything from the human's observation."""
        obs = self.state.observation(self.seat)
        v = view(obs)
        name = self.game.seat_name
        if self.state.is_over:
            turn = "the deal is over"
        elif self.my_turn:
            turn = "your turn"
        else:
            turn = f"{name(self.state.current_player)} is playing…"
        self.query_one("#status", Static).update(f"{v.title} · deal {self.deal_number} · {turn}")
        rows = []
        for i, who in enumerate(self.seats):
            mark = "▶" if i == self.state.current_player else " "
            player = "you" if who == HUMAN else who
            size = obs.hand_sizes[i]
            rows.append(f"{mark} {name(i)} ({player})\n    {size} card{'s' * (size != 1)} · "
                        f"match {self.match.totals[i]:g}")
        self.query_one("#seats", Static).update("\n".join(rows))
        self.query_one("#table", Static).update(v.table)
        self.query_one("#hand", Hand).show(v.hand, v.new_card)
        log = self.query_one("#log", RichLog)
        for line in obs.log_lines(self.logged):
            log.write(cards_markup(line))
        self.logged = len(obs.history)
        verbs = offered_verbs(self.state.legal_actions()) if self.my_turn else []
        if verbs != self.verbs:
            self.verbs = verbs
            bar = self.query_one("#actions", Horizontal)
            bar.remove_children()
            bar.mount_all([Button(f"{label(v)} ({verb_key(v)})", name=v, compact=True)
                           for v in verbs])
            for button in bar.query(Button):
                button.can_focus = False

    def say(self, text: str, style: str = "") -> None:
        shown = cards_markup(clip(text))
        if style:
            shown.stylize(style)
        self.query_one("#message", Static).update(shown)

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
        match, name = self.match, self.game.seat_name
        result = self.session.finish_deal()
        lines = [f"Deal {result.number} is over", result.summary]
        lines += [f"  {name(i)}{' (you)' if i == self.seat else ''}: deal {result.returns[i]:+g}, "
                  f"match {result.totals[i]:g}" for i in range(self.game.players)]
        if result.hands is not None:
            lines += [f"  {name(i)} held {' '.join(map(str, hand))}"
                      for i, hand in enumerate(result.hands) if hand and i != self.seat]
        if match.is_over:
            winners = ", ".join(name(w) for w in match.winners())
            lines.append(f"The match is over after {len(match.deals)} deals. Winner(s): {winners}")
        else:
            lines.append(f"The match goes on: {self.game.match_end_text()}.")
        self.show()
        self.deal_over_lines = lines
        self.app.push_screen(DealOverScreen(lines, match.is_over), self.after_deal)

    def after_deal(self, choice: str | None) -> None:
        if choice == "review":
            self.app.push_screen(ReviewScreen(f"Review of deal {len(self.match.deals)}",
                                              self.deal_review),
                                 lambda _: self.app.push_screen(
                                     DealOverScreen(self.deal_over_lines, self.match.is_over),
                                     self.after_deal))
        elif choice == "quit":
            self.action_quit_table()
        elif self.match.is_over:
            self.closed = True
            self.app.pop_screen()
            app = self.app
            if isinstance(app, ParlourApp):
                app.show_start()
        else:
            self.state = self.session.start_deal()
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

    def chosen(self, move: Move | None) -> None:
        if move is not None and self.my_turn:
            self.played(self.session.play(self.seat, move.action))

    def played(self, action: Action) -> None:
        hand = self.query_one("#hand", Hand)
        hand.selected.clear()
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
    def action_hint(self) -> None:
        if not self.my_turn:
            self.say("A hint is for your turn.")
            return
        name = getattr(self.app, "hint_bot", strongest_bot())
        turn = self.session.hint_turn(self.seat, name)
        self.say(f"Thinking ({name})…")

        def think() -> None:
            try:
                action, reason = turn.explain()
            except Exception as e:
                self.app.call_from_thread(self.say, f"internal error in {name}: {e}", "red")
                return
            self.app.call_from_thread(self.hinted, action, reason, turn.position)

        self.run_worker(think, thread=True, group="hint", exit_on_error=False)

    def hinted(self, action: Action, reason: str, position: Position) -> None:
        if self.closed or position != self.session.position:
            return
        move = parse_move(action)
        self.query_one("#hand", Hand).select_only(set(move.cards))
        key = verb_key(move.verb)
        self.say(f"Hint: {action} — {reason}" + (f" (press {key})" if key else ""), "green")

    def deal_review(self) -> list[str]:
        """The review of the last deal's decisions of the person's seat (run in a worker
        thread)."""
        state = self.match.deals[-1]
        level = getattr(self.app, "review_level", REVIEWER)
        decisions = review_deal(state, [self.seat], reviewer_bot(level), seed=self.match.seed,
                                deal=len(self.match.deals))
        return review_lines(decisions, state)

    @guarded
    def action_help(self) -> None:
        self.app.push_screen(HelpScreen(self.game.name))

    # -- saving and quitting ------------------------------------------------------------------
    def save_to(self, text: str) -> str:
        """Save the match so far to ``text`` (a path); :class:`RecordError` if it cannot be."""
        if not text:
            raise ParlourError("give a file name to save to")
        return str(self.session.save(check_save_path(text)))

    @guarded
    def action_quit_table(self) -> None:
        if self.match.is_over:
            self.app.exit(0)
            return
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

    ``pace`` is the pause between bots' moves in seconds (0: instant); ``hint_bot`` names the
    bot that gives hints (default: the strongest level); ``review_level``, the searching level
    that reviews a deal's decisions (default: the strongest).
    """

    CSS_PATH = "parlour.tcss"
    TITLE = "parlour"
    BINDINGS: ClassVar[list[BindingType]] = [Binding("ctrl+q", "quit_anywhere", "Quit", priority=True, show=False)]

    def __init__(self, *, match: Match | None = None, seats: Sequence[str] = (),
                 save_path: Path | None = None, settings: Settings | None = None,
                 pace: float = DEFAULT_PACE, hint_bot: str | None = None,
                 review_level: str = REVIEWER) -> None:
        super().__init__()
        self.match = match
        self.seats = list(seats)
        self.save_path = save_path
        self.settings = settings or Settings()
        self.pace = pace
        self.hint_bot = hint_bot or strongest_bot()
        self.review_level = review_level

    def on_mount(self) -> None:
        if self.match is not None and self.match.is_over:
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

    def action_quit_anywhere(self) -> None:
        screen = self.screen
        if isinstance(screen, TableScreen):
            screen.action_quit_table()
        else:
            self.exit(0)


def run(*, match: Match | None = None, seats: Sequence[str] = (), save_path: Path | None = None,
        settings: Settings | None = None, pace: float = DEFAULT_PACE) -> int:
    """Open the table; the exit code when it closes."""
    app = ParlourApp(match=match, seats=seats, save_path=save_path, settings=settings, pace=pace)
    code = app.run()
    return code if isinstance(code, int) else 0
