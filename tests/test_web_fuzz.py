"""The WebSocket protocol fuzzed (hypothesis) against live tables on a running server.

Messages of every kind are sent by the clients of three tables where every seat is a person
(nothing moves unless a message moves it): arbitrary JSON and raw text, every message type
with every field of a wrong type, tokens for the seat, for another seat, for another table
and garbage, action texts and verb/card lists built from real card names, chat lines and
reactions, hints, next_deal, back and pings — and now and then a legal move, as it is or in
another spelling.

After each message the server must have answered with well-formed replies only (an ``error``
with a short message and the message's ``ref``, or a legal update, pong, hint or chat line),
logged nothing (no traceback, no warning), and either left the table exactly as it was
(version, record, every seat's view) or moved it by exactly one action or deal.
"""

from __future__ import annotations

import itertools
import json
import random
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from hypothesis import HealthCheck, event, given, settings
from hypothesis import strategies as st
from websockets.exceptions import ConnectionClosed

import parlour.web.tables
from parlour.web import create_app
from web_helpers import Live, LiveServer, LogWatch, running_server

#: Reproducible, and bounded: the file runs in well under a minute.
FUZZ = settings(max_examples=300, derandomize=True, database=None, deadline=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
TABLES = [("rummy", 2, {"series_target": 500}), ("big-two", 4, {}), ("forty-five", 4, {})]
TYPES = ["hello", "action", "hint", "next_deal", "back", "ping", "chat", "react"]
CARDS = [f"{r}{s}" for r in ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
         for s in "CDHS"]
VERBS = ["play", "pass", "draw", "discard", "meld", "lay", "lay off", "rob", "keep", "knock",
         "stock", "PLAY", ""]


class Fuzzed:
    """The server, its tables and their clients (a seat's own and a spectator's)."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        http = httpx.Client(base_url=server.url, trust_env=False)
        self.tables: list[str] = []
        self.clients: dict[str, list[Live]] = {}
        for variant, players, options in TABLES:
            table = http.post("/api/tables", json={
                "variant": variant, "options": options, "seed": len(self.tables) + 1,
                "seats": [{"kind": "human"}] * players}).json()["table"]
            tokens = [http.post(f"/api/tables/{table['id']}/join", json={"seat": s}).json()[
                "token"] for s in range(players)]
            self.tables.append(table["id"])
            self.clients[table["id"]] = [Live(server, table["id"], t) for t in tokens] + [
                Live(server, table["id"])]
        http.close()
        self.refs = itertools.count()

    def tokens(self, table_id: str) -> list[str]:
        return [c.token for c in self.clients[table_id] if c.token is not None]

    def state(self, table_id: str) -> dict[str, Any]:
        """Everything about the table, read on the server's loop: its version, its whole
        record, and the view of every seat and of a spectator."""
        def read() -> dict[str, Any]:
            table = self.server.tables.get(table_id)
            seats = [*range(table.game.players), None]
            current = table.match.current
            return {"version": table.version, "record": table.record(),
                    "views": [json.dumps(table.view(s, {}), sort_keys=True) for s in seats],
                    "legal": [] if current is None or current.is_over else
                    [str(a) for a in current.legal_actions()],
                    "to_move": None if current is None else current.current_player,
                    "over": table.match.is_over}
        return self.server.call(read)

    def close(self) -> None:
        for clients in self.clients.values():
            for client in clients:
                client.close()


@pytest.fixture(scope="module")
def fuzzed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Fuzzed]:
    database = f"sqlite:///{tmp_path_factory.mktemp('fuzz') / 'web.sqlite'}"
    app = create_app(database, bot_delay=0, advice_level="medium")
    with running_server(app) as server:
        fuzzed = Fuzzed(server)
        try:
            yield fuzzed
        finally:
            fuzzed.close()


# -- what is sent ---------------------------------------------------------------------------------

scalars = (st.none() | st.booleans() | st.integers(-(2**70), 2**70)
           | st.floats(allow_nan=True, allow_infinity=True) | st.text(max_size=30))
json_values = st.recursive(scalars, lambda inner: st.lists(inner, max_size=5)
                           | st.dictionaries(st.text(max_size=10), inner, max_size=5),
                           max_leaves=20)
cards = st.sampled_from(CARDS) | st.sampled_from(["3Z", "1D", "10", "d3", "JOKER", "♠A", ""])
action_texts = st.one_of(
    st.text(max_size=60),
    st.builds(lambda verb, cs: " ".join([verb, *cs]).strip(), st.sampled_from(VERBS),
              st.lists(cards, max_size=6)),
    st.lists(cards, min_size=1, max_size=5).map(" ".join),
    st.sampled_from(["draw stock", "draw discard", "pass", "knock", "rob", "keep"]),
)


@st.composite
def messages(draw: st.DrawFn, tokens: list[str], seat_token: str | None,
             other_table_token: str) -> Any:
    """A message, or a text that is not one: anything a client might send."""
    token = draw(st.one_of(
        st.just(seat_token), st.sampled_from(tokens), st.just(other_table_token),
        st.text(max_size=40), json_values, st.just(None)))
    kind = draw(st.sampled_from(range(7)))
    if kind == 0:  # any JSON at all, or a text, or bytes
        return draw(st.one_of(json_values, st.text(max_size=50).map(lambda t: ("text", t)),
                              st.binary(max_size=50).map(lambda b: ("bytes", b))))
    if kind == 1:  # a message of a known type with fields of any type
        fields = draw(st.dictionaries(st.sampled_from(
            ["token", "action", "verb", "cards", "ref", "seat", "text", "reaction"]), json_values,
            max_size=4))
        return {"type": draw(st.sampled_from(TYPES) | json_values), **fields}
    if kind == 2:  # an action text
        return {"type": "action", "token": token, "action": draw(action_texts)}
    if kind == 3:  # a verb and cards
        return {"type": "action", "token": token, "verb": draw(st.sampled_from(VERBS)),
                "cards": draw(st.lists(cards, max_size=8))}
    if kind == 4:  # hints, next_deal, back, ping, hello again, a chat line, a reaction
        message = {"type": draw(st.sampled_from(TYPES)), "token": token}
        if message["type"] == "chat":
            message["text"] = draw(st.text(max_size=220) | json_values)
        if message["type"] == "react":
            message["reaction"] = draw(st.sampled_from(["thanks", "oops", "boo"]) | json_values)
        if draw(st.booleans()):
            message["ref"] = draw(json_values)
        return message
    return None  # from the seat to move (kinds 5 and 6): chosen by the test from the deal


def spelling(action: str, form: int, order: random.Random) -> dict[str, Any]:
    """A legal action as its text, or (when it names cards) as a verb and the cards in
    another order."""
    parts = action.split()
    if form % 2 == 0 or (len(parts) < 2 and parts[0] not in CARDS) or parts[0] == "draw":
        return {"action": [action, f"  {action}  ", action.lower()][form % 3]}
    verb, named = ("play", parts) if parts[0] in CARDS else (parts[0], parts[1:])
    order.shuffle(named)
    return {"verb": verb, "cards": named}


# -- what comes back ------------------------------------------------------------------------------


def events(record: dict[str, Any]) -> list[Any]:
    """The record as one list of events: each deal dealt, each action."""
    return [item for n, deal in enumerate(record["deals"])
            for item in [("deal", n), *map(tuple, deal["actions"])]]


def expected_ref(message: Any) -> Any:
    if not isinstance(message, dict):
        return None
    ref = message.get("ref")
    return ref if len(json.dumps(ref)) <= 100 else None


def same_json(a: Any, b: Any) -> bool:
    return json.dumps(a, sort_keys=True) == json.dumps(b, sort_keys=True)


def check_reply(reply: dict[str, Any], message: Any, before: dict[str, Any],
                client: Live) -> None:
    kind = reply.get("type")
    if kind == "error":
        assert set(reply) == {"type", "message", "ref"}, reply
        assert isinstance(reply["message"], str) and 0 < len(reply["message"]) <= 300, reply
        assert same_json(reply["ref"], expected_ref(message)), (reply, message)
    elif kind == "update":
        assert set(reply) == {"type", "version", "table", "view", "timer"}, reply
        assert reply["view"]["seat"] == client.seat
    elif kind == "pong":
        assert isinstance(message, dict) and message.get("type") == "ping", (reply, message)
        assert same_json(reply["ref"], expected_ref(message))
    elif kind == "chat":  # a line said: to everyone, this client's own among them
        assert isinstance(message, dict) and message.get("type") in ("chat", "react"), reply
        assert [line["seat"] for line in reply["lines"]] == [client.seat], reply
    elif kind == "hint":
        assert isinstance(message, dict) and message.get("type") == "hint", (reply, message)
        assert reply["action"] in before["legal"] and before["to_move"] == client.seat, reply
        assert same_json(reply["ref"], expected_ref(message))
    else:
        raise AssertionError(f"unexpected reply {reply} to {message!r}")


def exchange(client: Live, message: Any) -> list[dict[str, Any]]:
    """Send ``message``; what came back to it (a ping after it marks the end)."""
    client.ping("before")  # what was sent to this client before (others' moves) is read
    if isinstance(message, tuple):
        client.ws.send(message[1])  # a text frame, or a binary one
    else:
        client.ws.send(json.dumps(message))
    mark = f"mark-{id(message)}-{len(client.messages)}"
    start = len(client.messages)
    client.send_json({"type": "ping", "ref": mark})
    client.receive_until(lambda m: m == {"type": "pong", "ref": mark}, timeout=20)
    replies = client.messages[start:-1]
    if (isinstance(message, dict) and message.get("type") == "hint"
            and not any(r["type"] in ("error", "hint") for r in replies)):
        # A hint taken on is sent when found: after the pong, maybe.
        replies.append(client.receive_until(lambda m: m["type"] in ("hint", "error")))
    return replies


@FUZZ
@given(data=st.data())
def test_fuzzed_messages_are_answered_well_and_change_nothing_they_should_not(
        fuzzed: Fuzzed, data: st.DataObject) -> None:
    with LogWatch() as watch:
        table_id = data.draw(st.sampled_from(fuzzed.tables), label="table")
        clients = fuzzed.clients[table_id]
        client = data.draw(st.sampled_from(clients), label="client")
        others = [t for t in fuzzed.tables if t != table_id]
        before = fuzzed.state(table_id)
        message = data.draw(messages(fuzzed.tokens(table_id), client.token,
                                     fuzzed.tokens(others[0])[0]), label="message")
        # Drawn whatever the deal is, so that what is drawn never depends on it.
        pick, form = data.draw(st.tuples(st.integers(0, 2**16), st.integers(0, 2**16)),
                               label="from the seat to move")
        form %= 8  # (a wide integer's low bits: more even than a small integer's draws)
        if message is None:
            # From the seat to move: a legal move in one of its spellings (or the next deal,
            # between deals), or a hint, or "back".
            if form >= 5:
                message = {"type": ["hint", "hint", "back"][form - 5]}
            elif before["legal"]:
                action = before["legal"][pick % len(before["legal"])]
                message = {"type": "action",
                           **spelling(action, form, random.Random(pick))}
            else:
                message = {"type": "next_deal"}
            client = clients[before["to_move"] or 0]
            message["token"] = client.token
        versions = {t: fuzzed.state(t)["version"] for t in others}
        if isinstance(message, dict) and "ref" not in message:
            message["ref"] = next(fuzzed.refs)
        replies = exchange(client, message)
        after = fuzzed.state(table_id)
        for reply in replies:
            check_reply(reply, message, before, client)
        updates = [r for r in replies if r["type"] == "update"]
        for reply in replies:
            event(f"reply: {reply['type']}")
        event("moved on" if after["version"] > before["version"] else "unchanged")
        if after["version"] == before["version"]:
            assert not updates, (message, updates)
            assert after == before, message  # version, record, every view
        else:
            # Moved on by exactly one action (or deal): the one just sent.
            assert after["version"] == before["version"] + 1, message
            assert isinstance(message, dict) and message.get("type") in ("action", "next_deal")
            assert not any(r["type"] == "error" for r in replies), replies
            old, new = events(before["record"]), events(after["record"])
            assert new[:-1] == old and len(new) == len(old) + 1, message
            assert [u["version"] for u in updates] == [after["version"]]
            if message["type"] == "action":
                assert new[-1][0] == client.seat
        # The other tables did not feel it.
        assert {t: fuzzed.state(t)["version"] for t in others} == versions
    assert watch.problems() == [], (message, watch.problems())


def greet(connect: Callable[[], Live], first: Any, hello_token: Any) -> None:
    """Open a connection, send ``first``, and check the answer: a first message that is not
    a hello closes the connection (4400) with no answer, and a hello then, on a new one, is
    answered as ``first`` would have been had it been that hello."""
    client = connect()
    client.ws.send(first if isinstance(first, str) else json.dumps(first))
    if not (isinstance(first, dict) and first.get("type") == "hello"
            and len(json.dumps(first.get("ref"))) <= 100):
        with pytest.raises(ConnectionClosed):
            client.receive(timeout=5)
        assert client.ws.close_code == 4400 and client.messages == []
        client.close()
        client = connect()
        first = {"type": "hello", "token": hello_token}
        client.send_json(first)
    try:
        reply = client.receive()
        if first.get("token") is None:
            assert reply["type"] == "welcome" and reply["seat"] is None, reply
            assert client.receive()["type"] == "update"
            client.ping()
            return
        assert reply == {"type": "error", "ref": expected_ref(first), "message": (
            "that token holds no seat at this table" if isinstance(first["token"], str)
            else "a token (the text given when the seat was taken) is required")}, reply
        with pytest.raises(ConnectionClosed):
            client.receive(timeout=5)
        assert client.ws.close_code == 4401
    finally:
        client.close()


@settings(max_examples=60, derandomize=True, database=None, deadline=None,
          suppress_health_check=[HealthCheck.too_slow])
@given(first=st.one_of(json_values, st.text(max_size=40)),
       hello_token=st.one_of(st.none(), st.text(max_size=30), json_values))
def test_fuzzed_greetings(fuzzed: Fuzzed, first: Any, hello_token: Any) -> None:
    """Before its hello, a connection is closed (4400) for anything else, with no answer; a
    hello with a bad token is refused and the connection closed (4401)."""
    table_id = fuzzed.tables[0]
    before = fuzzed.state(table_id)
    with LogWatch() as watch:
        greet(lambda: Live(fuzzed.server, table_id, hello=False), first, hello_token)
    assert watch.problems() == []
    assert fuzzed.state(table_id)["version"] == before["version"]


# -- the log watcher catches what it is there for -------------------------------------------------


def test_the_log_watcher_sees_a_server_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A handler that raises (patched in for this test) is seen in the log: the fuzzing
    above would not pass over one silently."""
    def broken(self: Any, client: Any, message: Any) -> None:
        raise RuntimeError("provoked")

    monkeypatch.setattr(parlour.web.tables.Table, "come_back", broken)
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite'}", bot_delay=0)
    with LogWatch() as watch, running_server(app) as server:
        http = httpx.Client(base_url=server.url, trust_env=False)
        table = http.post("/api/tables", json={"variant": "rummy"}).json()["table"]
        token = http.post(f"/api/tables/{table['id']}/join", json={"seat": 0}).json()["token"]
        client = Live(server, table["id"], token)
        client.send({"type": "back"})
        with pytest.raises(ConnectionClosed):
            client.receive_until(lambda m: False, timeout=10)
        http.close()
    assert any("provoked" in p for p in watch.problems()), watch.problems()
