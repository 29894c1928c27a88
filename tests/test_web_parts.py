"""The web table's client hub, turn driver, work pool and chat on their own (parlour.web.hub,
parlour.web.turns, parlour.web.work, parlour.web.chat): each seat is sent its own view and
nothing of another's hand; bots play and the turn timer runs only while someone watches; a
hint is worked out once and answered to everyone who asked; a chat line is checked, paced and
kept."""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import unicodedata
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import parlour.web.hints
import parlour.web.hub
import parlour.web.views
from parlour.game import Action
from parlour.match import Match
from parlour.registry import new_game
from parlour.session import HUMAN, TableSession
from parlour.web.chat import (
    BIDI_CONTROLS,
    KEPT,
    RATE_LINES,
    RATE_SECONDS,
    REACTIONS,
    RECENT,
    TEXT_LIMIT,
    Chat,
)
from parlour.web.hub import Client, Hub, SeatViews
from parlour.web.messages import WebError
from parlour.web.seating import Seat, Seating
from parlour.web.turns import TurnDriver
from parlour.web.work import WORK_IN_FLIGHT, WorkPool

#: Threads for the bots to think in and the hints to be worked out in (processes, on a server).
WORKERS = ThreadPoolExecutor(1)


def dealt(variant: str, seats: list[str], seed: int = 1) -> tuple[TableSession, Seating]:
    """A session and its seats (``HUMAN``: a person's seat, taken; else a bot's), first deal
    dealt."""
    game = new_game(variant)
    session = TableSession(Match(game, seed), seats)
    seating = Seating(game, [Seat(n, "human", None, f"H{n}", f"hash{n}") if kind == HUMAN
                             else Seat(n, "bot", kind, kind, None)
                             for n, kind in enumerate(seats)], None)
    session.match.next_deal()
    return session, seating


def sent(client: Client) -> list[dict[str, Any]]:
    """What ``client`` was sent, in order (its outbox emptied)."""
    out = []
    while not client.outbox.empty():
        out.append(json.loads(client.outbox.get_nowait()))
    return out


# -- the hub ---------------------------------------------------------------------------------


def test_each_client_is_sent_its_own_seats_view_worked_out_once(
        monkeypatch: pytest.MonkeyPatch) -> None:
    session, seating = dealt("big-two", [HUMAN] * 4)
    hub = Hub(SeatViews(session, seating))
    clients = [Client(0), Client(0), Client(1), Client(None)]
    for client in clients:
        hub.add(client)
    worked: list[int] = []
    seat_view = parlour.web.views.seat_view

    def counted(obs: Any, *args: Any) -> dict[str, Any]:
        worked.append(obs.seat)
        return seat_view(obs, *args)

    monkeypatch.setattr(parlour.web.hub, "seat_view", counted)
    hub.broadcast(7, {"id": "t"}, None)
    assert sorted(worked) == [0, 1]  # once a seat, however many of its clients
    state = session.match.current
    assert state is not None
    hands = [{str(c) for c in state.observation(s).hand} for s in range(4)]
    (a,), (b,), (c,), (d,) = map(sent, clients)
    assert a == b and a["type"] == "update" and a["version"] == 7 and a["table"] == {"id": "t"}
    for message, seat in ((a, 0), (c, 1)):
        assert message["view"]["seat"] == seat and set(message["view"]["hand"]) == hands[seat]
        text = json.dumps(message)
        # No card of another hand: cards are named by rank and suit, as "3D".
        assert not any(f'"{card}"' in text for other in range(4) if other != seat
                       for card in hands[other])
    assert d["view"]["seat"] is None and d["view"]["hand"] == []
    assert not any(f'"{card}"' in json.dumps(d) for hand in hands for card in hand)


def test_a_seat_played_from_the_next_deal_is_shown_the_spectators_view() -> None:
    session, seating = dealt("big-two", [HUMAN] * 4)
    seating.seats[2].sits_from = 2
    hub = Hub(SeatViews(session, seating))
    late, spectator = Client(2), Client(None)
    hub.add(late)
    hub.add(spectator)
    hub.broadcast(1, {}, None)
    [mine], [public] = sent(late), sent(spectator)
    assert mine["view"] == {**public["view"], "seat": 2} and mine["view"]["hand"] == []


def test_a_notice_goes_to_that_seats_clients_alone() -> None:
    session, seating = dealt("big-two", [HUMAN] * 4)
    hub = Hub(SeatViews(session, seating))
    clients = [Client(1), Client(2), Client(None), Client(1)]
    assert not hub.watched
    for client in clients:
        hub.add(client)
    assert hub.watched
    hub.notify(1, "yours")
    assert [sent(c) for c in clients] == [[{"type": "notice", "message": "yours"}], [], [],
                                          [{"type": "notice", "message": "yours"}]]
    assert hub.remove(clients[0]) and not hub.remove(clients[0])
    hub.send_all({"type": "pong", "ref": 1})
    assert [len(sent(c)) for c in clients] == [0, 1, 1, 1]


# -- the turn driver -------------------------------------------------------------------------


class FakeTable:
    """A table as the driver sees it: it records what the driver asks of it."""

    def __init__(self, watched: bool = True) -> None:
        self.id = "t"
        self.version = 1
        self.open = True
        self.watched = watched
        self.moves: list[tuple[int, Action]] = []
        self.timeouts: list[int] = []
        self.done = asyncio.Event()

    def moved(self, seat: int, action: Action) -> None:
        self.version += 1
        self.moves.append((seat, action))
        self.done.set()

    def deal(self) -> None:
        raise AssertionError("no deal is due")

    def timed_out(self, seat: int) -> None:
        self.timeouts.append(seat)
        self.done.set()


def driver(session: TableSession, seating: Seating, table: FakeTable, **settings: Any
           ) -> TurnDriver:
    options: dict[str, Any] = {"turn_timeout": None, "stand_in": "random", "bot_delay": 0.0,
                               "bot_pool": WORKERS, "closing": lambda: False}
    return TurnDriver(table, session, seating, **{**options, **settings})


async def until_seat_moves(session: TableSession, seat: int) -> None:
    """Wait (10 s at most) until ``seat`` is no longer to move."""
    async with asyncio.timeout(10):
        while session.to_move() == seat:
            await asyncio.sleep(0.01)


def test_a_bots_turn_is_played_through_its_table_while_someone_watches() -> None:
    session, seating = dealt("rummy", ["greedy", HUMAN])  # the bot moves first

    async def run(watched: bool) -> FakeTable:
        driven = FakeTable(watched)
        turns = driver(session, seating, driven)
        turns.schedule()
        if watched:
            await until_seat_moves(session, 0)
        await asyncio.sleep(0.05)  # anything more would have been scheduled by now
        turns.stop()
        return driven

    assert asyncio.run(run(False)).moves == []  # nobody watching: the table waits
    driven = asyncio.run(run(True))
    # A draw to a discard, each through the table; then no bot is due: the person's turn.
    seats = [seat for seat, _ in driven.moves]
    assert seats == [0] * len(seats) and len(seats) >= 2 and session.to_move() == 1
    assert str(driven.moves[0][1]) in ("draw stock", "draw discard")
    assert driven.version == 1 + len(seats)


def test_the_stand_in_plays_for_a_person_away() -> None:
    session, seating = dealt("rummy", [HUMAN, "greedy"])

    async def run() -> FakeTable:
        driven = FakeTable()
        turns = driver(session, seating, driven)
        turns.schedule()
        await asyncio.sleep(0.05)
        assert driven.moves == []  # the person's turn
        seating.mark_away(0, True)
        turns.schedule()
        await until_seat_moves(session, 0)
        turns.stop()
        return driven

    # The stand-in draws for the person, and plays their turns on while they are away.
    moves = asyncio.run(run()).moves
    assert moves[0][0] == 0 and str(moves[0][1]) in ("draw stock", "draw discard")


def test_the_turn_timer_runs_out_for_a_person_present_only() -> None:
    session, seating = dealt("rummy", [HUMAN, "greedy"])

    async def run(watched: bool) -> tuple[FakeTable, Any, Any]:
        driven = FakeTable(watched)
        turns = driver(session, seating, driven, turn_timeout=0.2)
        turns.arm()
        timer = turns.timer()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(driven.done.wait(), 0.6)
        after = turns.timer()
        turns.stop()
        return driven, timer, after

    driven, timer, after = asyncio.run(run(True))
    assert driven.timeouts == [0] and timer["seat"] == 0 and 0 < timer["seconds"] <= 0.2
    assert after is None
    driven, timer, _ = asyncio.run(run(False))
    assert driven.timeouts == [] and timer is None  # nobody here: the clock stands still


# -- the work pool ---------------------------------------------------------------------------


def test_a_hint_is_worked_out_once_and_answered_to_everyone_who_asked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    gate, worked = threading.Event(), []

    def work_out_hint(*request: Any) -> dict[str, str]:
        worked.append(request)
        assert gate.wait(10)
        return {"action": request[-1][0], "reason": "r", "confidence": "c", "details": "d"}

    monkeypatch.setattr(parlour.web.hints, "work_out_hint", work_out_hint)
    game = new_game("rummy")
    state = game.new_deal(seed=1)
    seat = state.current_player

    async def run() -> tuple[Client, Client]:
        tasks: set[asyncio.Task[None]] = set()
        pool = WorkPool("t", game, "medium", WORKERS, tasks)
        first, second = Client(seat), Client(seat)
        pool.hint(first, seat, 1, state, "a")
        pool.hint(second, seat, 1, state, "b")
        await asyncio.sleep(0.05)
        assert first.outbox.empty() and second.outbox.empty()  # still being worked out
        gate.set()
        await asyncio.gather(*tasks)
        pool.hint(first, seat, 1, state, "c")  # asked again once found: sent again
        return first, second

    first, second = asyncio.run(run())
    hint = {"type": "hint", "action": "draw stock", "reason": "r", "confidence": "c",
            "details": "d"}
    assert sent(first) == [{**hint, "ref": "a"}, {**hint, "ref": "c"}]
    assert sent(second) == [{**hint, "ref": "b"}]
    [request] = worked  # once
    assert request[:4] == ("rummy", 2, game.option_values(), "medium")
    assert request[5] == ["draw stock", "draw discard"]


def test_work_in_flight_is_limited_and_a_failure_can_be_asked_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    gate = threading.Event()

    def work_out_review(*request: Any) -> dict[str, Any]:
        assert gate.wait(10)
        if request[-1] == 1:
            raise RuntimeError("a bug")
        return {"deal": request[-1], "level": "medium", "lines": [], "decisions": []}

    monkeypatch.setattr(parlour.web.hints, "work_out_review", work_out_review)
    game = new_game("rummy")
    state = game.new_deal(seed=1)
    while not state.is_over:
        state.apply(state.legal_actions()[0])

    async def run() -> Client:
        tasks: set[asyncio.Task[None]] = set()
        pool = WorkPool("t", game, "medium", ThreadPoolExecutor(WORK_IN_FLIGHT), tasks)
        me = Client(0)
        for deal in range(1, WORK_IN_FLIGHT + 1):
            pool.review(me, 0, deal, state, deal)
        with pytest.raises(WebError, match="your last hints and reviews are still") as e:
            pool.review(me, 0, 9, state, 9)
        assert e.value.status == 429 and e.value.retry_after == 1.0
        gate.set()
        await asyncio.gather(*tasks)
        pool.review(me, 0, 1, state, "again")  # the failure was forgotten: worked out anew
        await asyncio.gather(*tasks)
        return me

    replies = sent(asyncio.run(run()))
    assert {"type": "error", "message": "the review could not be worked out", "ref": 1} in replies
    assert {"type": "review", "deal": 2, "level": "medium", "lines": [], "decisions": [],
            "ref": 2} in replies
    assert replies[-1] == {"type": "error", "message": "the review could not be worked out",
                           "ref": "again"}


# -- the chat ------------------------------------------------------------------------------------


class Clock:
    """A clock the test moves: the chat's pace and its lines' times."""

    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_a_chat_line_is_stripped_numbered_named_and_timed() -> None:
    clock = Clock()
    chat = Chat(clock=clock, now=lambda: 1_700_000_000.123456)
    first = chat.write(2, "Ann", "\t  hello <b>there</b>  \n")
    assert first == {"n": 1, "seat": 2, "name": "Ann", "text": "hello <b>there</b>",
                     "reaction": None, "t": 1_700_000_000.123}
    second = chat.react(0, "Bob", "well-played")
    assert second == {"n": 2, "seat": 0, "name": "Bob", "text": REACTIONS["well-played"],
                      "reaction": "well-played", "t": 1_700_000_000.123}
    assert chat.record() == chat.recent() == [first, second]


@pytest.mark.parametrize("text", [
    "x" * TEXT_LIMIT,
    "♠" * TEXT_LIMIT,
    "🂡" * TEXT_LIMIT,  # outside the BMP: 400 UTF-16 units, but 200 characters
    "👩\u200d💻 e\u0301 \u00a0 ok",  # a joined emoji, a combining accent, a no-break space
    "<img src=x onerror=alert(1)>",
    "<script>alert(1)</script>",
])
def test_a_chat_line_of_up_to_the_limit_in_characters_is_kept_as_typed(text: str) -> None:
    line = Chat().write(0, "Ann", text)
    assert line["text"] == text


@pytest.mark.parametrize(("text", "words"), [
    (None, "a chat message's 'text' is the text of the line"),
    ("", "a chat line needs some text"),
    (" \t\n\u3000 ", "a chat line needs some text"),
    ("x" * (TEXT_LIMIT + 1), f"a chat line is at most {TEXT_LIMIT} characters: this one has "
                             f"{TEXT_LIMIT + 1}"),
    ("🂡" * (TEXT_LIMIT + 1), f"a chat line is at most {TEXT_LIMIT} characters"),
    ("two\nlines", "a chat line is one line of text, without control characters (U+000A)"),
    ("a\tb", "without control characters (U+0009)"),
    ("nul\x00", "without control characters (U+0000)"),
    ("bell\x07", "without control characters (U+0007)"),
    ("del\x7f", "without control characters (U+007F)"),
    ("c1\x9b", "without control characters (U+009B)"),
    ("line\u2028sep", "without control characters (U+2028)"),
    ("para\u2029sep", "without control characters (U+2029)"),
    ("evil\u202egnp.exe", "without control characters (U+202E)"),
    ("iso\u2066late", "without control characters (U+2066)"),
    ("lone \ud800 surrogate", "without control characters (U+D800)"),
])
def test_a_chat_line_that_is_no_line_of_text_is_refused(text: str | None, words: str) -> None:
    chat = Chat()
    with pytest.raises(WebError) as refused:
        chat.write(0, "Ann", text)
    assert words in str(refused.value), str(refused.value)
    assert refused.value.status == 400
    assert chat.record() == [] and chat.count == 0


@pytest.mark.parametrize("reaction", [None, "", "THANKS", "thanks ", "hug", "x" * 1000])
def test_an_unknown_reaction_is_refused_naming_the_reactions(reaction: str | None) -> None:
    chat = Chat()
    with pytest.raises(WebError) as refused:
        chat.react(0, "Ann", reaction)
    assert str(refused.value).startswith("unknown reaction")
    assert str(refused.value).endswith("the reactions are: " + ", ".join(REACTIONS))
    assert len(str(refused.value)) < 160  # what was sent is quoted short
    assert chat.record() == []


def test_each_seat_writes_so_many_lines_in_so_many_seconds() -> None:
    clock = Clock()
    chat = Chat(clock=clock)
    for n in range(RATE_LINES):
        (chat.write if n % 2 else chat.react)(0, "Ann", "thanks")
        clock.now += 1
    with pytest.raises(WebError) as refused:
        chat.write(0, "Ann", "one too many")
    wait = RATE_SECONDS - RATE_LINES  # the first line leaves the window then
    assert str(refused.value) == (f"you are writing too fast: at most {RATE_LINES} lines in "
                                  f"{RATE_SECONDS:g} s; try again in {wait:g} s")
    assert refused.value.status == 429 and refused.value.retry_after == pytest.approx(wait)
    # Another seat writes all the same; a refused line is not counted.
    assert chat.write(1, "Bob", "me too")["n"] == RATE_LINES + 1
    clock.now += wait - 0.5
    with pytest.raises(WebError):
        chat.write(0, "Ann", "still too soon")
    clock.now += 0.5
    assert chat.write(0, "Ann", "now")["n"] == RATE_LINES + 2
    with pytest.raises(WebError):
        chat.write(0, "Ann", "but only the one")
    # A line refused for its text costs nothing of the pace.
    clock.now += RATE_SECONDS
    for _ in range(3):
        with pytest.raises(WebError):
            chat.write(0, "Ann", "bad\nline")
    for _ in range(RATE_LINES):
        chat.write(0, "Ann", "fine")


def test_the_chat_keeps_its_last_lines_and_numbers_on_after_a_restore() -> None:
    clock = Clock()
    chat = Chat(clock=clock)
    for n in range(KEPT + 7):
        clock.now += RATE_SECONDS  # never too fast
        chat.write(n % 3, f"P{n % 3}", f"line {n + 1}")
    kept = chat.record()
    assert len(kept) == KEPT and [line["n"] for line in kept] == list(range(8, KEPT + 8))
    assert chat.recent() == kept[-RECENT:] and chat.recent(0) == []
    again = Chat(clock=clock)
    again.restore(json.loads(json.dumps(kept)))  # as the database gives them back
    assert again.record() == kept
    assert again.write(0, "Ann", "after")["n"] == KEPT + 8
    empty = Chat()
    empty.restore([])
    assert empty.write(0, "Ann", "first")["n"] == 1


@settings(max_examples=400, derandomize=True, database=None, deadline=None)
@given(st.text(max_size=300) | st.text(min_size=195, max_size=205)
       | st.text(st.sampled_from("ab ♠🂡\u00a0\u200d\n\t\x00\x1b\x85\u2028\u2029\u202e\u2066"
                                 "\ud800\udfff"), max_size=12))
def test_any_text_is_a_chat_line_kept_as_typed_or_is_refused_for_what_it_is(text: str) -> None:
    chat = Chat()
    stripped = text.strip()
    controls = [c for c in stripped if c in BIDI_CONTROLS
                or unicodedata.category(c) in ("Cc", "Cs", "Zl", "Zp")]
    try:
        line = chat.write(0, "Ann", text)
    except WebError as refused:
        assert not stripped or len(stripped) > TEXT_LIMIT or controls, (text, str(refused))
        assert str(refused).startswith("a chat line ") and refused.status == 400
        assert chat.record() == []
        return
    assert line["text"] == stripped and 1 <= len(stripped) <= TEXT_LIMIT and not controls
    stripped.encode("utf-8")  # no lone surrogate: any database stores it
    assert json.loads(json.dumps(line)) == line
