"""Hostile clients against a running web table: a real uvicorn server in a thread, real HTTP
(httpx) and real WebSockets (the ``websockets`` client).

Each test makes the server refuse something, and checks three things: what the refusal says
(status, message), that the server still answers afterwards (a ping and a GET), and that the
game did not change (the table's version and its whole record, read on the server's own
event loop). The server's log is watched throughout: a traceback, or any warning, fails the
test that caused it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import random
import re
import socket
import threading
import time
from collections.abc import Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import httpx2 as httpx
import pytest
from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.frames import Frame, Opcode
from websockets.sync.client import connect

import parlour
import parlour.web.chat
import parlour.web.hints
from parlour.bots import make_bot
from parlour.game import State
from parlour.records import replay_match
from parlour.web import create_app
from parlour.web.chat import RATE_LINES, REACTIONS, TEXT_LIMIT
from parlour.web.settings import Settings
from web_helpers import Live, LiveServer, LogWatch, cards_named, hidden_from, running_server

#: Limits wide enough that the tests never meet the ones they do not test (every request
#: comes from 127.0.0.1).
ROOMY = Settings(tables_per_minute=100_000, table_burst=10_000, tables_per_address=10_000)
GREEDY = {"kind": "bot", "bot": "greedy"}
HUMAN = {"kind": "human"}
#: The header of a request body sent as JSON (as the page and every client send it).
JSON = {"Content-Type": "application/json"}


class Site:
    """A running server, an HTTP client of it, and the WebSocket clients opened on it."""

    def __init__(self, server: LiveServer) -> None:
        self.server = server
        self.http = httpx.Client(base_url=server.url, trust_env=False, timeout=30)
        self.clients: list[Live] = []
        self.others: list[httpx.Client] = []

    @property
    def tables(self) -> Any:
        return self.server.tables

    def http_from(self, address: str) -> httpx.Client:
        """An HTTP client of the server from another loopback address (127.0.0.2 …): another
        client, as far as the server can tell."""
        client = httpx.Client(base_url=self.server.url, trust_env=False, timeout=30,
                              transport=httpx.HTTPTransport(local_address=address))
        self.others.append(client)
        return client

    def create(self, variant: str, seats: list[dict[str, Any]] | None = None,
               seed: int | None = None, players: int | None = None,
               **fields: Any) -> tuple[dict[str, Any], str]:
        body = {"variant": variant, "players": players, "seats": seats, **fields}
        if seed is not None:
            body["seed"] = seed
        answer = self.http.post("/api/tables", json=body)
        assert answer.status_code == 201, answer.text
        return answer.json()["table"], answer.json()["owner_token"]

    def join(self, table_id: str, seat: int, name: str = "") -> str:
        answer = self.http.post(f"/api/tables/{table_id}/join", json={"seat": seat, "name": name})
        assert answer.status_code == 200, answer.text
        return str(answer.json()["token"])

    def connect(self, table_id: str, token: str | None = None, **kwargs: Any) -> Live:
        client = Live(self.server, table_id, token, **kwargs)
        self.clients.append(client)
        return client

    def people(self, variant: str, players: int | None = None, seed: int | None = None,
               **fields: Any) -> tuple[str, dict[int, Live]]:
        """A table whose every seat is a person, each connected: nothing moves unless told."""
        count = players or parlour.registry.get_variant(variant).default_players
        table, _ = self.create(variant, [HUMAN] * count, seed=seed, players=players, **fields)
        tokens = [self.join(table["id"], s, f"P{s}") for s in range(count)]
        return table["id"], {s: self.connect(table["id"], t) for s, t in enumerate(tokens)}

    def snapshot(self, table_id: str) -> tuple[int, str]:
        return self.server.snapshot(table_id)

    def settle(self, table_id: str, *clients: Live) -> tuple[int, str]:
        """Read everything sent so far to ``clients``; then the table's snapshot."""
        for client in clients:
            client.ping("settle")
        return self.snapshot(table_id)

    def info(self, table_id: str) -> dict[str, Any]:
        answer = self.http.get(f"/api/tables/{table_id}")
        assert answer.status_code == 200, answer.text
        return dict(answer.json()["table"])

    def lobby(self) -> dict[str, Any]:
        answer = self.http.get("/api/tables", params={"limit": 100})
        assert answer.status_code == 200, answer.text
        return dict(answer.json())

    def unchanged(self, table_id: str, before: tuple[int, str], *clients: Live,
                  quiet: bool = True) -> None:
        """The server still answers (a GET, and a ping on every client, with nothing else
        sent to it first when ``quiet``) and the table is as it was."""
        self.info(table_id)
        for client in clients:
            if quiet:
                client.quiet()
            else:
                client.ping()
        assert self.snapshot(table_id) == before

    def close(self) -> None:
        for client in self.clients:
            with contextlib.suppress(Exception):
                client.close()
        for other in self.others:
            other.close()
        self.http.close()


@pytest.fixture
def watch() -> Iterator[LogWatch]:
    """The server's log while the test runs: no error, no warning, no traceback."""
    with LogWatch() as watch:
        yield watch
    assert watch.problems() == []


@pytest.fixture
def start(tmp_path: Path, watch: LogWatch) -> Iterator[Callable[..., Site]]:
    """Start a server (``create_app`` arguments; the settings default to :data:`ROOMY`)."""
    with contextlib.ExitStack() as stack:
        def start(settings: Settings = ROOMY, uvicorn: dict[str, Any] | None = None,
                  **kwargs: Any) -> Site:
            kwargs = {"bot_delay": 0, "advice_level": "medium", **kwargs}
            database = f"sqlite:///{tmp_path / f'web{len(stack._exit_callbacks)}.sqlite'}"
            server = stack.enter_context(running_server(
                create_app(database, settings=settings, **kwargs), **(uvicorn or {})))
            site = Site(server)
            stack.callback(site.close)
            return site
        yield start


@pytest.fixture
def site(start: Callable[..., Site]) -> Site:
    return start()


def refused(answer: httpx.Response, status: int, message: str) -> None:
    assert answer.status_code == status, (answer.status_code, answer.text)
    assert answer.headers["content-type"] == "application/json"
    assert message in answer.json()["error"], answer.json()


def refusal(reply: dict[str, Any], message: str, ref: Any = None) -> None:
    """``reply`` is an ``error`` that says ``message`` (and echoes ``ref``)."""
    assert reply["type"] == "error" and set(reply) == {"type", "message", "ref"}, reply
    assert message in reply["message"], reply
    assert reply["ref"] == ref, reply
    assert len(reply["message"]) <= 300, reply


# -- playing, from the server's side -------------------------------------------------------------


def move(site: Site, table_id: str, clients: dict[int, Live], rng: random.Random) -> bool:
    """One move at a people-only table, chosen by the greedy bot on the server's deal and sent
    by the connection of the seat to move; the next deal when one is over. ``False`` once the
    match is over."""
    version, state = site.server.state(table_id)
    if state is None:
        if site.info(table_id)["status"] == "finished":
            return False
        message: dict[str, Any] = {"type": "next_deal"}
        mover = clients[0]
    else:
        seat = state.current_player
        action = make_bot("greedy").choose(state.observation(seat), state.legal_actions(), rng)
        message, mover = {"type": "action", "action": str(action)}, clients[seat]
    mover.send(message)
    reply = mover.receive_until(lambda m: m["type"] != "update" or m["version"] > version)
    assert reply["type"] == "update", reply
    return True


def final_states(site: Site, table_id: str) -> tuple[int, list[State]]:
    """The match's seed and its scored deals, read on the server."""
    def read() -> tuple[int, list[State]]:
        match = site.tables.get(table_id).match
        return match.seed, [s.clone() for s in match.deals]
    return site.server.call(read)


# -- the record of a match in progress -----------------------------------------------------------

#: Options that make a match of about two deals.
TWO_DEALS = {
    "big-two-4card": {"deals": 2}, "big-two": {"match_end": "deals", "deals": 2},
    "pusoy-dos": {"deals": 2}, "forty-five": {"target": 5}, "spoil-five": {"deals": 2},
    "rummy": {"series_target": 40},
}


def check_progress_record(site: Site, table_id: str, tokens: dict[int, str]) -> int:
    """The record of the match in progress, asked for with each seat's token, with none, and
    with bad ones: no seed, and no card the asker cannot see at the table. Returns how many
    scored deals it holds."""
    before = site.snapshot(table_id)
    _, state = site.server.state(table_id)
    seed, finished = final_states(site, table_id)
    for seat in [None, *tokens]:
        headers = {} if seat is None else {"Authorization": f"Bearer {tokens[seat]}"}
        answer = site.http.get(f"/api/tables/{table_id}/record", headers=headers)
        assert answer.status_code == 200, answer.text
        record = answer.json()
        assert record["format"] == "parlour-match-progress/1" and not record["over"]
        assert record["seeded"] is False and "seed" not in record
        assert str(seed) not in answer.text
        assert len(record["deals"]) == len(finished)
        current = record["current"]
        if state is None:
            assert current is None
        else:
            leaked = cards_named({"current": current}) & {str(c) for c in
                                                          hidden_from(state, seat)}
            assert not leaked, (seat, leaked)
            if seat is None:
                assert current["hand"] == [] and "hand" not in current["observation"]
            else:
                assert current["seat"] == seat
                assert current["hand"] == [str(c) for c in state.observation(seat).hand]
        for deal, final in zip(record["deals"], finished, strict=True):
            # A scored deal shows its public play only (a spectator's), whoever asks.
            shown = {k: v for k, v in deal.items() if k != "hands_left"}
            leaked = cards_named(shown) & {str(c) for c in hidden_from(final, None)}
            assert not leaked, (seat, leaked, deal)
            zones = final.zones()
            if final.game.reveals_hands_at_end:  # Rummy lays the hands left down to count
                assert deal["hands_left"] == [[str(c) for c in zones[f"P{s}"]]
                                              for s in range(final.game.players)]
            else:
                assert "hands_left" not in deal
    for header, message in (("Bearer not-a-token", "that token holds no seat at this table"),
                            ("Bearer", "the Authorization header is 'Bearer TOKEN'"),
                            ("Basic " + next(iter(tokens.values())),
                             "the Authorization header is 'Bearer TOKEN'")):
        answer = site.http.get(f"/api/tables/{table_id}/record", headers={"Authorization": header})
        refused(answer, 401, message)
        assert "deals" not in answer.text and str(seed) not in answer.text
    # Neither the table's page nor the lobby shows the seed.
    info = site.info(table_id)
    assert info["seeded"] is False and "seed" not in info
    lobby = site.http.get("/api/tables", params={"limit": 100})
    entry = next(t for t in lobby.json()["tables"] if t["id"] == table_id)
    assert entry["seeded"] is False and "seed" not in entry and str(seed) not in lobby.text
    assert site.snapshot(table_id) == before
    return len(finished)


@pytest.mark.parametrize(("variant", "players"), [
    (v.name, n) for v in parlour.registry.variants()
    for n in sorted({v.default_players, v.players[0]})
])
def test_the_record_of_a_match_in_progress_gives_away_nothing(site: Site, variant: str,
                                                              players: int) -> None:
    table_id, clients = site.people(variant, players, **{"options": TWO_DEALS[variant]})
    tokens = {s: c.token for s, c in clients.items() if c.token is not None}
    rng = random.Random(f"{variant}/{players}")
    steps, deals_seen, scored = 0, 0, 0
    while (info := site.info(table_id))["status"] != "finished" and info["deal"] <= 3:
        # Now and then, at the start of each deal, and between deals.
        _, state = site.server.state(table_id)
        if steps % 9 == 0 or info["deal"] != deals_seen or state is None:
            scored = max(scored, check_progress_record(site, table_id, tokens))
            deals_seen = info["deal"]
        assert move(site, table_id, clients, rng)
        steps += 1
    # A record with a scored deal in it was checked, unless the match was one deal.
    assert scored > 0 or info["deal"] == 1, info
    if info["status"] != "finished":
        return
    # The full record, once the match is over: every deal, every hand, the seed.
    seed, _ = final_states(site, table_id)
    for headers in ({}, {"Authorization": f"Bearer {tokens[0]}"}):
        record = site.http.get(f"/api/tables/{table_id}/record", headers=headers).json()
        assert record["format"] == "parlour-match/1" and record["over"] and record["winners"]
        assert record["seed"] == seed and record["seeded"] is False
        replayed = replay_match(record)
        assert len(replayed) == len(record["deals"]) >= 1 and all(s.is_over for s in replayed)
    info = site.info(table_id)
    assert info["status"] == "finished" and "seed" not in info


def test_a_chosen_seed_is_shown_and_a_drawn_one_never(site: Site) -> None:
    seeded, _ = site.create("big-two-4card", [GREEDY] * 4, seed=1234567, options={"deals": 1})
    drawn, _ = site.create("big-two-4card", [GREEDY] * 4, options={"deals": 1})
    assert seeded["seeded"] is True and seeded["seed"] == 1234567
    assert drawn["seeded"] is False and "seed" not in drawn
    secret, _ = final_states(site, drawn["id"])
    for table in (seeded, drawn):
        # Play both matches out before a spectator.
        watcher = site.connect(table["id"])
        watcher.wait(lambda m: m["table"]["status"] == "finished")
        assert str(secret) not in json.dumps(watcher.messages)
    lobby = site.http.get("/api/tables")
    listed = {t["id"]: t for t in lobby.json()["tables"]}
    assert listed[seeded["id"]]["seed"] == 1234567 and listed[seeded["id"]]["seeded"]
    assert "seed" not in listed[drawn["id"]] and str(secret) not in lobby.text
    assert site.info(seeded["id"])["seed"] == 1234567
    assert "seed" not in site.info(drawn["id"])
    # Over now: the records are whole, the drawn seed with them.
    assert site.http.get(f"/api/tables/{drawn['id']}/record").json()["seed"] == secret
    assert site.http.get(f"/api/tables/{seeded['id']}/record").json()["seed"] == 1234567


def test_a_seeded_match_in_progress_shows_its_seed_in_the_record(site: Site) -> None:
    table, _ = site.create("rummy", [HUMAN, HUMAN], seed=77)
    tokens = [site.join(table["id"], s) for s in (0, 1)]
    before = site.snapshot(table["id"])
    record = site.http.get(f"/api/tables/{table['id']}/record",
                           headers={"Authorization": f"Bearer {tokens[1]}"}).json()
    assert record["format"] == "parlour-match-progress/1"
    assert record["seeded"] is True and record["seed"] == 77
    _, state = site.server.state(table["id"])
    assert state is not None and record["current"]["hand"] == [
        str(c) for c in state.observation(1).hand]
    assert site.snapshot(table["id"]) == before


# -- hidden cards read the same wherever they are ------------------------------------------------


def _normal(message: str) -> str:
    return re.sub(r"(?<![A-Za-z0-9])(?:10|[2-9JQKA])[CDHS](?![A-Za-z0-9])", "#", message)


@pytest.mark.parametrize("variant", ["rummy", "forty-five", "spoil-five"])
def test_a_card_in_another_hand_is_refused_as_one_in_the_stock(site: Site, variant: str) -> None:
    table_id, clients = site.people(variant)
    rng = random.Random(5)
    phases = 0
    while phases < 2:
        version, state = site.server.state(table_id)
        assert state is not None
        seat = state.current_player
        me = clients[seat]
        zones = state.zones()
        others = [c for s in range(state.game.players) if s != seat for c in zones[f"P{s}"]]
        stock = list(zones["stock"])
        assert others and stock
        legal = {str(a) for a in state.legal_actions()}
        verbs = {"rummy": ["discard", "meld", "lay"]}.get(variant, ["play"])
        before = site.settle(table_id, *clients.values())
        said: dict[str, set[str]] = {"hand": set(), "stock": set()}
        for where, cards in (("hand", others), ("stock", stock)):
            for card in cards:
                texts = [str(card), f"discard {card}", f"meld {card}"]
                messages: list[dict[str, Any]] = [{"action": t} for t in texts]
                messages += [{"verb": v, "cards": [str(card)]} for v in verbs]
                for n, message in enumerate(messages):
                    reply = me.ask({"type": "action", "token": me.token, "ref": n, **message})
                    refusal(reply, "", n)
                    said[where].add(f"{n}: {_normal(reply['message'])}")
        # Whatever the refusal says, it says it alike of a card in a hand and one in the stock.
        assert said["hand"] == said["stock"], (said["hand"] ^ said["stock"])
        assert not any(str(c) in legal for c in others)
        site.unchanged(table_id, before, *clients.values())
        # Then on a little, to the other phase of a turn (Rummy: after the draw).
        phases += 1
        move(site, table_id, clients, rng)
        assert site.snapshot(table_id)[0] == version + 1


# -- creating tables -----------------------------------------------------------------------------


def test_the_cap_on_open_tables(start: Callable[..., Site]) -> None:
    site = start(Settings(max_tables=3, tables_per_minute=100_000, table_burst=10_000))
    made = [site.create("rummy", [HUMAN, GREEDY])[0]["id"] for _ in range(3)]
    lobby = site.lobby()
    for _ in range(3):
        answer = site.http.post("/api/tables", json={"variant": "rummy"})
        refused(answer, 503, "this server has its most open tables (3): join one, or try again "
                             "later")
        assert answer.headers["retry-after"] == "60"
    assert site.lobby() == lobby and lobby["total"] == 3
    assert site.http.get("/api/variants").status_code == 200
    for table_id in made:
        site.info(table_id)


def test_the_rate_of_new_tables_per_address(start: Callable[..., Site]) -> None:
    site = start(Settings(tables_per_minute=2, table_burst=2))
    site.create("rummy")
    site.create("rummy")
    lobby = site.lobby()
    answer = site.http.post("/api/tables", json={"variant": "rummy"})
    refused(answer, 429, "too many new tables from your address: try again in ")
    wait = int(re.search(r"try again in (\d+) s$", answer.json()["error"]).group(1))
    assert 25 <= wait <= 30 and answer.headers["retry-after"] == str(wait)
    # Refused before anything is checked: a bad request is refused for the rate alike.
    refused(site.http.post("/api/tables", json={"variant": "rummy", "seed": 3}), 429,
            "too many new tables")
    assert site.lobby() == lobby and lobby["total"] == 2
    # Per address: another client may still create.
    other = site.http_from("127.0.0.2").post("/api/tables", json={"variant": "rummy"})
    assert other.status_code == 201, other.text
    assert site.lobby()["total"] == 3


def test_one_address_cannot_hold_the_servers_tables(start: Callable[..., Site]) -> None:
    """An address that creates tables as fast as its rate lets it holds no more than its
    share of the cap, so that another address can always create one."""
    site = start(Settings(max_tables=30, tables_per_minute=600, table_burst=5, idle_timeout=40))
    other = site.http_from("127.0.0.2")
    made, refusals, others = 0, set(), 0
    started = time.monotonic()
    while time.monotonic() - started < 5:
        answer = site.http.post("/api/tables", json={"variant": "rummy"})
        if answer.status_code == 201:
            made += 1
        else:
            refusals.add((answer.status_code, re.sub(r"\d+ s$", "N s", answer.json()["error"])))
            time.sleep(0.05)
        if time.monotonic() - started > others:  # once a second, another address tries
            answer = other.post("/api/tables", json={"variant": "rummy"})
            assert answer.status_code == 201, answer.text
            others += 1
    assert made == 10 and others >= 5, (made, others, refusals)
    assert (429, "your address has its most open tables (10): finish one, or leave one to be "
                 "closed") in refusals
    assert all(status == 429 for status, _ in refusals), refusals
    assert site.lobby()["total"] == made + others


def test_a_table_nobody_sat_down_at_is_closed_sooner(start: Callable[..., Site]) -> None:
    site = start(Settings(tables_per_minute=1000, table_burst=1000, tables_per_address=2,
                          waiting_timeout=0.5, idle_timeout=3600))
    empty, _ = site.create("rummy", [HUMAN, HUMAN])
    begun, _ = site.create("rummy", [HUMAN, HUMAN])
    site.join(begun["id"], 0, "Early")  # somebody sat down: it waits for the other
    refused(site.http.post("/api/tables", json={"variant": "rummy"}), 429,
            "your address has its most open tables (2)")
    deadline = time.monotonic() + 10
    while site.info(empty["id"])["status"] != "archived":
        assert time.monotonic() < deadline, site.info(empty["id"])
        time.sleep(0.1)
    assert site.info(begun["id"])["status"] == "waiting"
    assert [t["id"] for t in site.lobby()["tables"]] == [begun["id"]]
    # Its place in the address's share is free again.
    assert site.http.post("/api/tables", json={"variant": "rummy"}).status_code == 201


# -- hints ---------------------------------------------------------------------------------------


class Gate:
    """Hints that are answered only when let go: a hint stays in flight as long as needed.
    It counts the hints it works out."""

    def __init__(self) -> None:
        self.open = threading.Event()
        self.started = threading.Semaphore(0)
        self.worked = 0

    def work_out_hint(self, variant: str, players: int, options: Any, level: str,
                      observation: Any, legal: list[str]) -> dict[str, str]:
        self.worked += 1
        self.started.release()
        assert self.open.wait(20), "the gate was never opened"
        return {"action": legal[0], "reason": "the gate's choice", "confidence": "clearly best",
                "details": "none"}


@pytest.fixture
def gate(monkeypatch: pytest.MonkeyPatch) -> Iterator[Gate]:
    """Hints worked out by the gate (in a thread of the test's process, where it can be
    waited on) instead of in the hint processes."""
    gate = Gate()
    monkeypatch.setattr(parlour.web.hints, "work_out_hint", gate.work_out_hint)
    monkeypatch.setattr(parlour.web.hints, "hint_executor", ThreadPoolExecutor)
    yield gate
    gate.open.set()


def my_turn(site: Site, seed: int = 1) -> tuple[str, Live]:
    """A big-two table of one person and greedy bots, where it is the person's turn."""
    table, _ = site.create("big-two", [HUMAN] + [GREEDY] * 3, seed=seed)
    me = site.connect(table["id"], site.join(table["id"], 0))
    me.wait(lambda m: m["view"]["your_turn"])
    return table["id"], me


def test_a_hint_is_worked_out_once_a_decision_and_never_refused(start: Callable[..., Site],
                                                                gate: Gate) -> None:
    """Asked again and again at one decision, while it is worked out and after: every ask is
    answered, with the same hint, and it is worked out once."""
    site = start()
    table_id, me = my_turn(site)
    before = site.settle(table_id, me)
    me.send({"type": "hint", "ref": "first"})
    assert gate.started.acquire(timeout=10)
    for n in range(5):
        me.send({"type": "hint", "ref": n})
    me.ping()
    assert [m for m in me.messages if m["type"] in ("hint", "error")] == []
    site.unchanged(table_id, before, me)
    gate.open.set()
    answers = [me.receive_until(lambda m: m["type"] in ("hint", "error")) for _ in range(6)]
    assert [a["ref"] for a in answers] == ["first", 0, 1, 2, 3, 4]
    assert {a["type"] for a in answers} == {"hint"} and len({a["action"] for a in answers}) == 1
    assert answers[0]["action"] in {e["action"] for e in me.view["legal"]}
    for n in range(50):  # a flood at one decision costs nothing more
        assert me.ask({"type": "hint", "token": me.token, "ref": n})["ref"] == n
    assert gate.worked == 1
    site.unchanged(table_id, before, me)


def test_many_seats_hints_wait_their_turn_at_the_helper(start: Callable[..., Site],
                                                        gate: Gate) -> None:
    """The hint processes work out one hint at a time each: the others wait for them, and
    every seat gets its own."""
    site = start(Settings(hint_workers=1, **{k: getattr(ROOMY, k) for k in (
        "tables_per_minute", "table_burst", "tables_per_address")}))
    people = [my_turn(site) for _ in range(3)]
    befores = [site.snapshot(t) for t, _ in people]
    for n, (_, client) in enumerate(people):
        client.send({"type": "hint", "ref": n})
    assert gate.started.acquire(timeout=10)  # the first is worked out, the others wait
    for (table_id, client), before in zip(people, befores, strict=True):
        site.unchanged(table_id, before, client)
    gate.open.set()
    for n, (_, client) in enumerate(people):
        assert client.receive_until(lambda m: m["type"] in ("hint", "error")) == {
            "type": "hint", "ref": n, "action": client.view["legal"][0]["action"],
            "reason": "the gate's choice", "confidence": "clearly best", "details": "none"}
    assert gate.worked == 3


def test_reviews_of_earlier_deals_asked_in_a_flood_wait_their_turn(
        start: Callable[..., Site], gate: Gate, monkeypatch: pytest.MonkeyPatch) -> None:
    """A seat has two hints or reviews worked out at most at once (a player never needs more):
    a third new one is refused until they are done; asked again, an answer is sent again."""
    def work_out_review(*request: Any) -> dict[str, Any]:
        gate.work_out_hint("", 0, {}, "", {}, ["x"])
        return {"deal": request[-1], "level": "gate", "lines": [], "decisions": []}

    monkeypatch.setattr(parlour.web.hints, "work_out_review", work_out_review)
    site = start()
    table_id, clients = site.people("big-two", options={"match_end": "deals", "deals": 9})
    rng = random.Random(5)
    while site.info(table_id)["deal"] < 4:
        assert move(site, table_id, clients, rng)
    me = clients[0]
    before = site.settle(table_id, *clients.values())
    for deal in (1, 2):
        me.send({"type": "review", "deal": deal, "ref": deal})
    assert gate.started.acquire(timeout=10)
    refusal(me.ask({"type": "review", "token": me.token, "deal": 3, "ref": 3}),
            "your last hints and reviews are still being worked out", 3)
    site.unchanged(table_id, before, *clients.values())
    gate.open.set()
    answers = [me.receive_until(lambda m: m["type"] == "review") for _ in range(2)]
    assert sorted(a["deal"] for a in answers) == [1, 2]
    for deal in (3, 1):
        assert me.ask({"type": "review", "token": me.token, "deal": deal})["deal"] == deal
    assert gate.worked == 3  # deal 1's review was sent again, not worked out again


# -- malformed input -----------------------------------------------------------------------------


def test_deeply_nested_json_is_refused_and_the_connection_goes_on(site: Site) -> None:
    table_id, clients = site.people("rummy")
    me = clients[0]
    owner_table, owner = site.create("rummy", [HUMAN, HUMAN])
    before, lobby = site.settle(table_id, *clients.values()), site.lobby()
    deep, deeper = "[" * 5000 + "]" * 5000, "[" * 100_000 + "]" * 100_000
    for path in ("/api/tables", f"/api/tables/{table_id}/join",
                 f"/api/tables/{owner_table['id']}/seats/1"):
        headers = {"Authorization": f"Bearer {owner}", **JSON}
        refused(site.http.post(path, content=deep, headers=headers), 400,
                "the request body is not valid JSON: it is nested too deeply")
        refused(site.http.post(path, content=deeper, headers=headers), 413,
                "the request body is larger than 16384 bytes")
        nested = f'{{"variant": {deep}, "seat": {deep}, "to": {deep}}}'
        refused(site.http.post(path, content=nested[:16384], headers=headers), 400,
                "is not valid JSON")
    for n, text in enumerate([deep, deeper, f'{{"type": "ping", "ref": {deep}}}',
                              f'{{"type": {deep}}}', f'{{"type": "action", "action": {deep}}}']):
        reply = me.ask(text)
        refusal(reply, "the message is not valid JSON: it is nested too deeply" if n != 1
                else "a message is at most 16384 characters")
    # Just shallow enough to be read: refused for what it holds, never for the depth.
    for depth in range(940, 1001, 4):
        inner = "[" * depth + "]" * depth
        for text in (f'{{"type": {inner}}}', f'{{"type": "hint", "token": {inner}}}',
                     f'{{"type": "action", "token": "{me.token}", "cards": {inner}, '
                     '"verb": "discard"}'):
            assert me.ask(text)["type"] == "error"
        answer = site.http.post("/api/tables", headers=JSON,
                                content=f'{{"variant": "rummy", "stand_in": {inner}}}')
        assert answer.status_code == 400
    site.unchanged(table_id, before, *clients.values())
    assert site.lobby() == lobby


def test_oversize_bodies_and_messages(site: Site) -> None:
    table_id, clients = site.people("big-two")
    _, state = site.server.state(table_id)
    assert state is not None
    me = clients[state.current_player]
    before, lobby = site.settle(table_id, *clients.values()), site.lobby()
    body = json.dumps({"variant": "rummy", "seats": None, "pad": "x" * 16_400})
    refused(site.http.post("/api/tables", content=body, headers=JSON), 413,
            "the request body is larger than 16384 bytes")
    refused(site.http.post("/api/tables", content=b" " * 3_600_000, headers=JSON), 413,
            "the request body is larger than 16384 bytes")
    # Over the size limit (and under the 1 MiB a frame may be): refused whole, whatever it is.
    huge = "3D " * 300_000
    for text in (json.dumps({"type": "action", "token": me.token, "action": huge}),
                 json.dumps({"type": "action", "token": me.token, "action": "x" * 16_400}),
                 "x" * 16_385):
        reply = me.ask(text)
        refusal(reply, "a message is at most 16384 characters")
        assert len(reply["message"]) < 60
    # Within it, a long action text: its first 40 characters quoted, no more.
    reply = me.ask({"type": "action", "token": me.token, "action": "3D " * 1000, "ref": "long"})
    refusal(reply, "an action is at most 200 characters, not '3D 3D", "long")
    assert len(reply["message"]) < 120
    reply = me.ask({"type": "action", "token": me.token, "action": "Z" * 199})
    refusal(reply, "")
    assert len(reply["message"]) <= 300
    # A long ref is not echoed.
    reply = me.ask({"type": "ping", "ref": "r" * 99})
    refusal(reply, "a 'ref' is at most 100 characters of JSON")
    assert reply["ref"] is None
    assert me.ask({"type": "ping", "ref": "r" * 98}) == {"type": "pong", "ref": "r" * 98}
    me.ws.send(b"\xff" * 20_000)
    refusal(me.receive(), "a message is at most 16384 characters")
    site.unchanged(table_id, before, *clients.values())
    assert site.lobby() == lobby


def test_a_message_over_the_served_frame_limit_closes_only_its_connection(
        start: Callable[..., Site]) -> None:
    """``parlour serve`` has uvicorn refuse frames over 1 MiB before they are read whole: such
    a message ends that connection (1009), and only it."""
    site = start(uvicorn={"ws_max_size": 1 << 20})
    table_id, clients = site.people("rummy")
    before = site.settle(table_id, *clients.values())
    me = clients[0]
    me.ws.send(json.dumps({"type": "action", "token": me.token, "action": "x" * 3_600_000}))
    with pytest.raises(ConnectionClosed) as closed:
        me.receive(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1009
    # The other seat is told that seat 0 left, and nothing else.
    site.unchanged(table_id, before, clients[1], quiet=False)
    told = [m for m in clients[1].messages if m["type"] == "update"]
    assert told[-1]["version"] == before[0] and not told[-1]["table"]["seats"][0]["connected"]
    again = site.connect(table_id, me.token)
    assert again.seat == 0
    again.ping()
    assert site.snapshot(table_id) == before


def test_an_address_is_read_at_its_pace_and_closed_when_far_over_it(
        start: Callable[..., Site]) -> None:
    site = start(Settings(tables_per_minute=1000, table_burst=1000, messages_per_second=20,
                          message_burst=20, message_wait_limit=2.0))
    table, _ = site.create("rummy", [HUMAN, HUMAN])
    table_id = table["id"]
    me = site.connect(table_id, site.join(table_id, 0, "Me"))
    mine = site.connect(table_id)  # a spectator from the same address
    other = site.connect(table_id, site.join(table_id, 1, "Other"), address="127.0.0.2")
    before = site.settle(table_id, me, mine, other)
    time.sleep(1.2)  # a whole burst again
    # Within its pace: twenty at once, then twenty a second, its connections together;
    # each answered, none refused.
    started = time.monotonic()
    for n in range(15):
        me.send_json({"type": "ping", "ref": n})
        mine.send_json({"type": "ping", "ref": n})
    for client in (me, mine):
        assert [client.receive()["ref"] for _ in range(15)] == list(range(15))
    assert time.monotonic() - started >= 0.4
    # Far over it: read at its pace, then closed (1008), what it queued dropped; the
    # client at another address is answered at once all the while. (On a slow machine the
    # server may close it before it has sent them all.)
    with contextlib.suppress(ConnectionClosed):
        for n in range(2000):
            me.send_json({"type": "ping", "ref": n})
    for _ in range(5):
        started = time.monotonic()
        other.ping()
        assert time.monotonic() - started < 0.5
        time.sleep(0.2)
    with pytest.raises(ConnectionClosed) as closed:
        while True:
            me.receive(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 1008
    assert closed.value.rcvd.reason == "too many messages"
    pongs = [m for m in me.messages if m["type"] == "pong"]
    assert 15 + 20 <= len(pongs) < 15 + 100  # about 2 s of its pace, not the 2000
    site.unchanged(table_id, before, other, mine, quiet=False)
    assert site.connect(table_id, me.token).seat == 0  # it may come back


def test_a_socket_must_say_hello_first_and_soon(start: Callable[..., Site]) -> None:
    """Before its hello a connection is answered nothing: anything else first, or nothing
    for ``hello_timeout`` seconds, and it is closed."""
    site = start(Settings(tables_per_minute=1000, table_burst=1000, hello_timeout=1.0))
    table, _ = site.create("rummy", [HUMAN, GREEDY])
    watcher = site.connect(table["id"])
    before = site.settle(table["id"], watcher)
    for first in ({"type": "ping", "ref": 1}, {"type": "action", "action": "draw stock"},
                  "not json", ["hello"]):
        silent = site.connect(table["id"], hello=False)
        silent.ws.send(first if isinstance(first, str) else json.dumps(first))
        with pytest.raises(ConnectionClosed) as closed:
            silent.receive(timeout=10)
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4400, first
        assert silent.messages == []
    silent = site.connect(table["id"], hello=False)
    started = time.monotonic()
    with pytest.raises(ConnectionClosed) as closed:
        silent.receive(timeout=10)
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4408
    assert closed.value.rcvd.reason == "no hello in 1 s"
    assert 0.9 <= time.monotonic() - started < 5 and silent.messages == []
    site.unchanged(table["id"], before, watcher)


def test_a_client_that_floods_on_after_its_close_gets_nothing_more(site: Site) -> None:
    """A client that never reads the server's close and goes on sending: the server reads
    nothing more from it, and drops the connection at once (it would otherwise parse all it
    sends while waiting seconds for an answer to its close)."""
    table, _ = site.create("rummy", [HUMAN, GREEDY])
    watcher = site.connect(table["id"])
    before = site.settle(table["id"], watcher)
    port = int(site.server.url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=10) as raw:
        raw.sendall(f"GET /ws/{table['id']} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\n"
                    "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
                    "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n".encode())
        answer = b""
        while b"\r\n\r\n" not in answer:
            answer += raw.recv(4096)
        assert answer.startswith(b"HTTP/1.1 101"), answer
        ping = Frame(Opcode.TEXT, b'{"type": "ping"}').serialize(mask=True, extensions=[])
        started, sent = time.monotonic(), 0
        with pytest.raises(OSError):  # the connection reset, or the send timing out
            while time.monotonic() - started < 10:
                raw.sendall(ping * 100)
                sent += 100
        gone = time.monotonic() - started
    assert gone < 3, (gone, sent)
    site.unchanged(table["id"], before, watcher)


def test_repeated_cards_are_refused(site: Site) -> None:
    table_id, clients = site.people("big-two")
    _, state = site.server.state(table_id)
    assert state is not None
    me = clients[state.current_player]  # the holder of 3D
    before = site.settle(table_id, *clients.values())
    for copies in (2, 3, 52):
        reply = me.ask({"type": "action", "token": me.token, "verb": "play",
                        "cards": ["3D"] * copies, "ref": copies})
        refusal(reply, "3D is named twice", copies)
    refusal(me.ask({"type": "action", "token": me.token, "verb": "play",
                    "cards": ["3D"] * 53}), "'cards' lists at most 52 cards")
    refusal(me.ask({"type": "action", "token": me.token, "verb": "play",
                    "cards": ["3D"] * 10_000}), "a message is at most 16384 characters")
    refusal(me.ask({"type": "action", "token": me.token, "action": "3D 3D"}), "")
    hand = me.view["hand"]
    refusal(me.ask({"type": "action", "token": me.token, "verb": "play",
                    "cards": [*hand, hand[0]]}), f"{hand[0]} is named twice")
    site.unchanged(table_id, before, *clients.values())
    # The real move still goes.
    me.send({"type": "action", "verb": "play", "cards": ["3D"]})
    assert me.receive_until(lambda m: m["type"] in ("update", "error"))["type"] == "update"
    assert site.snapshot(table_id)[0] == before[0] + 1


API = [
    ("/api/variants", {"GET"}),
    ("/api/tables", {"GET", "POST"}),
    ("/api/tables/{id}", {"GET"}),
    ("/api/tables/{id}/join", {"POST"}),
    ("/api/tables/{id}/seats/1", {"POST"}),
    ("/api/tables/{id}/record", {"GET"}),
]


def test_every_api_route_refuses_other_methods(site: Site) -> None:
    table, owner = site.create("rummy", [HUMAN, HUMAN])
    before, lobby = site.snapshot(table["id"]), site.lobby()
    for path, allowed in API:
        path = path.format(id=table["id"])
        for method in {"GET", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"} - allowed:
            answer = site.http.request(method, path, json={"seat": 0, "to": "free"},
                                       headers={"Authorization": f"Bearer {owner}"})
            assert answer.status_code == 405, (method, path, answer.text)
            assert answer.json() == {"error": "Method Not Allowed"}, (method, path)
            assert set(answer.headers["allow"].split(", ")) >= allowed
    for path in ("/api/nothing", "/api/tables/x/y/z", f"/api/tables/{table['id']}/seats/x"):
        answer = site.http.get(path)
        assert answer.status_code == 404 and answer.json() == {"error": "Not Found"}, path
    assert site.lobby() == lobby and site.snapshot(table["id"]) == before


# -- pages of other sites -------------------------------------------------------------------------


def test_pages_of_other_sites_can_neither_act_nor_connect(start: Callable[..., Site]) -> None:
    """A page of another site can make a browser send requests to the server (with its
    cookies and from its address): every one that would change something, and every
    WebSocket, is refused unless it comes from the server's own page or an allowed origin."""
    site = start(dataclasses.replace(ROOMY, allowed_origins=("https://cards.example.org",)))
    table, _ = site.create("rummy", [HUMAN] * 3, players=3)
    own = site.server.url
    lobby = site.lobby()
    for origin in ("https://evil.example", "null", own.replace("127.0.0.1", "localhost"),
                   own.rsplit(":", 1)[0] + ":1", "https://cards.example.org.evil.example"):
        for path, body in (("/api/tables", {"variant": "rummy"}),
                           (f"/api/tables/{table['id']}/join", {"seat": 0})):
            refused(site.http.post(path, json=body, headers={"Origin": origin}), 403,
                    "a page of another site (origin ")
        # The form a page may send without asking first: refused all the same.
        refused(site.http.post("/api/tables", content=b'{"variant": "rummy"}',
                               headers={"Origin": origin, "Content-Type": "text/plain"}), 403,
                "may not use this server")
        with pytest.raises(InvalidStatus) as handshake:
            connect(f"{site.server.ws_url}/ws/{table['id']}", proxy=None, origin=origin)
        assert handshake.value.response.status_code == 403
    assert site.lobby() == lobby and not any(s["taken"] for s in site.info(table["id"])["seats"])
    # Reading is not acting: a GET from anywhere is answered (no CORS header: the page of
    # another site cannot read it).
    answer = site.http.get("/api/tables", headers={"Origin": "https://evil.example"})
    assert answer.status_code == 200 and "access-control-allow-origin" not in answer.headers
    # The server's own page, an allowed origin, and programs (no Origin) may.
    for headers in ({"Origin": own}, {"Origin": "https://cards.example.org"}, {}):
        answer = site.http.post(f"/api/tables/{table['id']}/join", json={"seat": None},
                                headers=headers)
        assert answer.status_code == 200, (headers, answer.text)
        with connect(f"{site.server.ws_url}/ws/{table['id']}", proxy=None,
                     origin=headers.get("Origin")) as ws:
            ws.send(json.dumps({"type": "hello", "token": answer.json()["token"]}))
            assert json.loads(ws.recv(timeout=20))["type"] == "welcome"


def test_every_answer_keeps_the_page_to_its_own_scripts(site: Site) -> None:
    table, _ = site.create("rummy")
    paths = ["/", "/static/main.js", "/static/style.css", "/api/variants", "/api/tables",
             f"/api/tables/{table['id']}", f"/api/tables/{table['id']}/record", "/api/nothing",
             "/nothing"]
    for method, path in [("GET", p) for p in paths] + [("POST", "/api/tables")]:
        answer = site.http.request(method, path, json={"variant": "nothing"})
        policy = answer.headers["content-security-policy"]
        assert "script-src 'self'" in policy and "frame-ancestors 'none'" in policy, path
        assert "unsafe-inline" not in policy and "style-src 'self'" in policy
        assert answer.headers["x-frame-options"] == "DENY"
        assert answer.headers["referrer-policy"] == "no-referrer"
        assert answer.headers["x-content-type-options"] == "nosniff"
        assert "strict-transport-security" not in answer.headers  # plain HTTP here
    # The page itself has no inline script or style for the policy to refuse.
    page = site.http.get("/").text
    assert re.findall(r"<script(?![^>]*\bsrc=)[^>]*>", page) == []
    assert re.search(r"<[^>]*\s(style|on[a-z]+)=", page) is None and "<style" not in page


# -- handing a seat on ---------------------------------------------------------------------------


def test_handing_a_seat_on_needs_the_owner_token(site: Site) -> None:
    table, owner = site.create("forty-five", [HUMAN, HUMAN, GREEDY, HUMAN])
    table_id = table["id"]
    here = site.connect(table_id, site.join(table_id, 0, "Here"))
    site.join(table_id, 1, "Gone")
    path = f"/api/tables/{table_id}/seats/{{}}"
    bearer = {"Authorization": f"Bearer {owner}"}
    cases = [
        (1, {}, {"to": "bot"}, 403, "only the table's creator, with its owner token"),
        (1, {"Authorization": "Bearer " + "x" * 32}, {"to": "bot"}, 403, "only the table's creator"),
        (1, {"Authorization": f"Bearer {here.token}"}, {"to": "bot"}, 403,
         "only the table's creator"),
        (1, {"Authorization": owner}, {"to": "bot"}, 401, "'Bearer TOKEN'"),
        (0, bearer, {"to": "bot"}, 409, "Here is connected: only an absent player's seat"),
        (0, bearer, {"to": "free"}, 409, "Here is connected"),
        (2, bearer, {"to": "free"}, 409, "seat 2 is a bot's seat"),
        (3, bearer, {"to": "free"}, 409, "seat 3 is free already"),
        (1, bearer, {"to": "nobody"}, 400, '{"to": "bot", "bot": NAME} or {"to": "free"}'),
        (1, bearer, [1], 400, '{"to": "bot", "bot": NAME} or {"to": "free"}'),
        (1, bearer, {"to": "bot", "bot": "grumpy"}, 400, "unknown bot 'grumpy'"),
        (9, bearer, {"to": "free"}, 400, "9 is not a seat of this table"),
    ]
    before = site.snapshot(table_id)
    seats = site.info(table_id)["seats"]
    here.ping()
    for seat, headers, body, status, message in cases:
        answer = site.http.post(path.format(seat), json=body, headers=headers)
        refused(answer, status, message)
        assert site.snapshot(table_id) == before and site.info(table_id)["seats"] == seats
        here.quiet()
    # The owner frees the absent person's seat: someone else may join it.
    answer = site.http.post(path.format(1), json={"to": "free"}, headers=bearer)
    assert answer.status_code == 200, answer.text
    assert answer.json()["table"]["seats"][1]["taken"] is False
    newcomer = site.join(table_id, 1, "New")
    # And hands seat 3, once someone took it and left, to a bot for good.
    site.join(table_id, 3, "Brief")
    answer = site.http.post(path.format(3), json={"to": "bot", "bot": "easy"}, headers=bearer)
    assert answer.status_code == 200, answer.text
    assert answer.json()["table"]["seats"][3] == {
        "seat": 3, "kind": "bot", "bot": "easy", "name": "easy", "taken": True, "profile": None,
        "connected": True, "away": False, "label": "P3", "display": "easy"}
    refused(site.http.post(path.format(3), json={"to": "free"}, headers=bearer), 409,
            "seat 3 is a bot's seat")
    # Every seat is taken now: the deal is dealt, and the seat's new token plays.
    assert site.info(table_id)["status"] == "playing"
    site.connect(table_id, newcomer).ping()
    here.ping()


def test_the_owner_cannot_see_a_second_hand_by_freeing_a_seat(site: Site) -> None:
    """The creator frees the seat of a player whose page is reloading, mid-deal, and takes it
    under the player's name: the stand-in plays it to the end of the deal, and no token is
    ever sent a card its own seat may not see (the new one's, none until its deal)."""
    table, owner = site.create("big-two", [HUMAN] * 4, seed=11,
                               options={"match_end": "deals", "deals": 2})
    table_id = table["id"]
    tokens = {s: site.join(table_id, s, f"P{s}") for s in range(4)}
    clients = {s: site.connect(table_id, t) for s, t in tokens.items()}
    rng = random.Random(11)
    while (state := site.server.state(table_id)[1]) is not None and state.current_player != 0:
        move(site, table_id, clients, rng)
    clients[1].close()  # the page reloads ...
    while site.info(table_id)["seats"][1]["connected"]:
        time.sleep(0.01)
    # ... and the owner frees the seat and takes it, under the player's name.
    answer = site.http.post(f"/api/tables/{table_id}/seats/1", json={"to": "free"},
                            headers={"Authorization": f"Bearer {owner}"})
    assert answer.status_code == 200, answer.text
    assert answer.json()["table"]["seats"][1]["away"] is True
    second = site.join(table_id, 1, "P1")
    taken = site.connect(table_id, second)
    # The player's own token is refused now: the seat was freed.
    refused(site.http.get(f"/api/tables/{table_id}/record",
                          headers={"Authorization": f"Bearer {tokens[1]}"}), 401,
            "that token holds no seat")
    seen = {0: clients[0], 1: taken}

    def check(deal_of_second: bool) -> None:
        """Nothing sent to either of the owner's tokens names a card hidden from its seat;
        the second one's seat is a spectator's until its own deal."""
        for client in seen.values():
            client.ping("check")
        now = site.server.call(lambda: site.tables.get(table_id).state.clone())  # the deal shown
        for seat, client in seen.items():
            hidden = {str(c) for c in hidden_from(now, seat if seat == 0 or deal_of_second
                                                  else None)}
            for message in client.messages:
                assert not cards_named(message) & hidden, (seat, message)
            client.messages.clear()
            record = site.http.get(f"/api/tables/{table_id}/record", headers={
                "Authorization": f"Bearer {second if seat == 1 else tokens[0]}"})
            current = {"current": record.json()["current"]}  # (the deals before: their end's)
            assert not cards_named(current) & hidden, (seat, current)

    check(False)
    refusal(taken.ask({"type": "action", "token": second, "action": "pass", "ref": 1}),
            "you play this seat from the next deal: until then greedy plays it", 1)
    refusal(taken.ask({"type": "hint", "token": second, "ref": 2}),
            "you play this seat from the next deal", 2)
    people = {0: clients[0], 2: clients[2], 3: clients[3]}
    while (state := site.server.state(table_id)[1]) is not None and not state.is_over:
        if state.current_player == 1:  # the stand-in's turn
            time.sleep(0.01)
            continue
        move(site, table_id, people, rng)
        check(False)
    refusal(taken.ask({"type": "review", "token": second, "deal": 1, "ref": 3}),
            "you have played this seat from deal 2: a review is of your own deals", 3)
    # From the next deal the seat is the second token's, with a hand of its own.
    taken.send({"type": "next_deal"})
    dealt = taken.receive_until(lambda m: m["type"] == "update" and m["view"]["deal"] == 2)
    assert len(dealt["view"]["hand"]) == 13 and not dealt["table"]["seats"][1]["away"]
    check(True)


def test_a_rematch_needs_a_seats_token(site: Site) -> None:
    table, owner = site.create("rummy", [HUMAN, GREEDY])
    before, lobby = site.snapshot(table["id"]), site.lobby()
    path = f"/api/tables/{table['id']}/rematch"
    refused(site.http.post(path), 401,
            "a token (the text given when the seat was taken) is required")
    for token in ("x" * 32, owner):
        refused(site.http.post(path, headers={"Authorization": f"Bearer {token}"}), 401,
                "that token holds no seat at this table")
    assert site.snapshot(table["id"]) == before and site.lobby() == lobby


# -- away, back, and the turn timer --------------------------------------------------------------


def test_the_turn_timer_hands_the_turn_to_the_stand_in_until_the_person_is_back(
        site: Site) -> None:
    # Two people: the other one moves only when the test says, so nothing races.
    table, _ = site.create("rummy", [HUMAN, HUMAN], turn_timeout=5, seed=3)
    assert table["turn_timeout"] == 5.0 and table["stand_in"] == "greedy"
    slow = site.connect(table["id"], site.join(table["id"], 0, "Slow"))
    other = site.connect(table["id"], site.join(table["id"], 1, "Other"))
    spectator = site.connect(table["id"])
    rng = random.Random(3)
    clients = {0: slow, 1: other}
    while (update := slow.wait(lambda m: True))["view"]["current_player"] != 0:
        move(site, table["id"], clients, rng)
        slow.ping()
    started = time.monotonic()
    slow.ping()
    update = slow.update
    assert update is not None and update["timer"]["seat"] == 0
    assert 4 <= update["timer"]["seconds"] <= 5
    steps = len(update["view"]["observation"]["history"])
    notice = slow.receive_until(lambda m: m["type"] == "notice", timeout=15)
    assert time.monotonic() - started >= 4.0
    assert notice == {"type": "notice", "message": "your 5 s ran out: greedy plays for you "
                                                   "until you act again"}
    # The stand-in plays the seat's turn (a draw, a discard); everyone sees it away.
    turn = other.receive_until(lambda m: m["type"] == "update" and m["view"]["your_turn"])
    assert turn["table"]["seats"][0]["away"] is True
    played = turn["view"]["observation"]["history"][steps:]
    assert played and all(seat == 0 for seat, _ in played), played
    assert turn["timer"]["seat"] == 1
    spectator.wait(lambda m: m["version"] == turn["version"])
    for client in (other, spectator):  # the notice was the seat's alone
        client.ping()
        assert not any(m["type"] == "notice" for m in client.messages)
    # A refused "back" changes nothing; the real one takes the seat back.
    before = site.settle(table["id"], slow, other, spectator)
    refusal(slow.ask({"type": "back", "token": "forged", "ref": 1}),
            "that token holds no seat at this table", 1)
    refusal(spectator.ask({"type": "back", "token": slow.token}),
            "this connection is a spectator's")
    refusal(other.ask({"type": "back", "token": slow.token}),
            "that token is for another seat")
    site.unchanged(table["id"], before, slow, other, spectator)
    slow.send({"type": "back"})
    back = slow.receive_until(lambda m: m["type"] == "update")
    assert back["table"]["seats"][0]["away"] is False and back["version"] == turn["version"]
    # The seat's next turn waits for its person, the timer running again.
    move(site, table["id"], clients, rng)
    move(site, table["id"], clients, rng)
    mine = slow.wait(lambda m: m["view"]["your_turn"])
    assert mine["timer"]["seat"] == 0 and mine["timer"]["seconds"] > 3
    before = site.snapshot(table["id"])
    time.sleep(1)
    assert site.snapshot(table["id"]) == before
    site.unchanged(table["id"], before, slow, other, spectator, quiet=False)


def test_acting_takes_the_seat_back_from_the_stand_in(start: Callable[..., Site]) -> None:
    site = start(bot_delay=0.6)
    table, _ = site.create("rummy", [HUMAN, GREEDY], turn_timeout=5, seed=4)
    me = site.connect(table["id"], site.join(table["id"], 0, "Slow"))
    me.receive_until(lambda m: m["type"] == "notice", timeout=15)
    # While away, at the seat's next turn, the stand-in waits its bot pace: act in it.
    turn = me.wait(lambda m: m["view"]["your_turn"] and m["table"]["seats"][0]["away"],
                   timeout=15)
    action = turn["view"]["legal"][0]["action"]
    me.send({"type": "action", "action": action})
    mine = me.receive_until(lambda m: m["type"] in ("update", "error")
                            and m.get("version", 0) > turn["version"])
    assert mine["type"] == "update" and mine["table"]["seats"][0]["away"] is False
    assert mine["view"]["observation"]["history"][-1] == [0, action]
    me.ping()


# -- tables nobody is at -------------------------------------------------------------------------


def test_a_table_with_nobody_there_pauses_its_bots(site: Site) -> None:
    table, _ = site.create("big-two", [GREEDY] * 4)
    before = site.snapshot(table["id"])
    time.sleep(1.0)
    assert site.snapshot(table["id"]) == before  # bot_delay 0, and not a move
    watcher = site.connect(table["id"])
    watcher.receive_until(lambda m: m["type"] == "update" and m["version"] > before[0] + 3)
    watcher.close()
    time.sleep(0.5)  # a move already being worked out may still land
    paused = site.snapshot(table["id"])
    time.sleep(1.0)
    assert site.snapshot(table["id"]) == paused
    assert site.info(table["id"])["status"] == "playing"


def test_an_idle_table_is_archived_with_its_whole_record(start: Callable[..., Site]) -> None:
    site = start(Settings(idle_timeout=0.2, tables_per_minute=1000, table_burst=1000))
    table, _ = site.create("rummy", [HUMAN, GREEDY])
    token = site.join(table["id"], 0, "Ann")
    me = site.connect(table["id"], token)
    me.wait(lambda m: m["view"]["your_turn"])
    time.sleep(0.6)  # someone is there: nothing is archived
    assert site.info(table["id"])["status"] == "playing"
    me.close()
    _, whole = site.snapshot(table["id"])
    deadline = time.monotonic() + 10
    while site.info(table["id"])["status"] != "archived":
        assert time.monotonic() < deadline, "never archived"
        time.sleep(0.05)
    assert table["id"] not in {t["id"] for t in site.lobby()["tables"]}
    record = site.http.get(f"/api/tables/{table['id']}/record",
                           headers={"Authorization": "Bearer whatever"}).json()
    assert record == json.loads(whole)
    assert record["format"] == "parlour-match/1" and "seed" in record and not record["over"]
    # An archived table is played no more.
    again = site.connect(table["id"], token)
    before = site.snapshot(table["id"])
    closed = f"table {table['id']} was closed"
    for message in ({"type": "action", "action": "draw stock"}, {"type": "hint"},
                    {"type": "next_deal"}):
        refusal(again.ask({"token": token, **message, "ref": 1}), closed, 1)
    refused(site.http.post(f"/api/tables/{table['id']}/join", json={"seat": 0}), 409,
            f"table {table['id']} is archived")
    site.unchanged(table["id"], before, again)


# -- the chat ------------------------------------------------------------------------------------


def test_hostile_chat_is_refused_to_its_sender_alone_and_changes_nothing(site: Site) -> None:
    table_id, clients = site.people("rummy")
    _, elsewhere = site.people("rummy")
    watcher = site.connect(table_id)
    everyone = [*clients.values(), watcher]
    me, you = clients[0], clients[1]
    before = site.settle(table_id, *everyone)
    too_long = f"a chat line is at most {TEXT_LIMIT} characters: this one has"
    no_text = "a chat message's 'text' is the text of the line"
    control = "a chat line is one line of text, without control characters"
    unknown = "unknown reaction"
    cases: list[tuple[Live, dict[str, Any], str]] = [
        (me, {"type": "chat", "text": "x" * (TEXT_LIMIT + 1)}, f"{too_long} {TEXT_LIMIT + 1}"),
        (me, {"type": "chat", "text": "x" * 16_000}, f"{too_long} 16000"),
        (me, {"type": "chat", "text": "🂡" * (TEXT_LIMIT + 1)}, too_long),
        (me, {"type": "chat", "text": "<script>" * 100}, too_long),
        (me, {"type": "chat"}, no_text),
        (me, {"type": "chat", "text": None}, no_text),
        (me, {"type": "chat", "text": 7}, no_text),
        (me, {"type": "chat", "text": True}, no_text),
        (me, {"type": "chat", "text": ["hi"]}, no_text),
        (me, {"type": "chat", "text": {"text": "hi"}}, no_text),
        (me, {"type": "chat", "text": ""}, "a chat line needs some text"),
        (me, {"type": "chat", "text": " \n\t\r "}, "a chat line needs some text"),
        (me, {"type": "chat", "text": "two\nlines"}, f"{control} (U+000A)"),
        (me, {"type": "chat", "text": "nul\x00"}, f"{control} (U+0000)"),
        (me, {"type": "chat", "text": "\x1b[31mred"}, f"{control} (U+001B)"),
        (me, {"type": "chat", "text": "evil\u202egnp.exe"}, f"{control} (U+202E)"),
        (me, {"type": "chat", "text": "a\u2028b"}, f"{control} (U+2028)"),
        (me, {"type": "chat", "text": "half \ud83d of an emoji"}, f"{control} (U+D83D)"),
        (me, {"type": "react", "reaction": "hug"},
         f"unknown reaction 'hug'; the reactions are: {', '.join(REACTIONS)}"),
        (me, {"type": "react", "reaction": "Thanks!"}, unknown),
        (me, {"type": "react", "reaction": "x" * 5000}, unknown),
        (me, {"type": "react"}, unknown),
        (me, {"type": "react", "reaction": 1}, unknown),
        (me, {"type": "react", "reaction": ["thanks"]}, unknown),
        (me, {"type": "chat", "text": "hi", "token": None},
         "a token (the text given when the seat was taken) is required"),
        (me, {"type": "chat", "text": "hi", "token": 12345},
         "a token (the text given when the seat was taken) is required"),
        (me, {"type": "chat", "text": "hi", "token": "forged"},
         "that token holds no seat at this table"),
        (me, {"type": "react", "reaction": "thanks", "token": elsewhere[0].token},
         "that token holds no seat at this table"),
        (me, {"type": "chat", "text": "hi", "token": you.token},
         "that token is for another seat than the one this connection said hello for"),
        (watcher, {"type": "chat", "text": "hi"},
         "spectators read the chat: take a seat to write in it"),
        (watcher, {"type": "chat", "text": "hi", "token": me.token},
         "spectators read the chat: take a seat to write in it"),
        (watcher, {"type": "react", "reaction": "oops"},
         "spectators read the chat: take a seat to write in it"),
    ]
    for n, (who, message, words) in enumerate(cases):
        refusal(who.ask({"token": who.token, **message, "ref": n}), words, n)
    # Nobody else was sent anything, and nothing changed: the record has no chat.
    site.unchanged(table_id, before, *everyone)
    assert json.loads(before[1])["chat"] == []


def test_a_chat_flood_is_refused_past_the_seats_pace_to_the_flooder_alone(
        site: Site, monkeypatch: pytest.MonkeyPatch) -> None:
    # A window no slow machine outlasts: the flood is all refused.
    monkeypatch.setattr(parlour.web.chat, "RATE_SECONDS", 3600.0)
    table_id, clients = site.people("rummy")
    watcher = site.connect(table_id)
    everyone = [*clients.values(), watcher]
    me, you = clients[0], clients[1]
    for n in range(RATE_LINES):
        me.send({"type": "chat" if n % 2 else "react",
                 "text": f"<b>spam</b> {n}", "reaction": "oops", "ref": n})
    for client in everyone:
        client.receive_until(lambda m: m["type"] == "chat" and m["lines"][0]["n"] == RATE_LINES)
    before = site.settle(table_id, *everyone)
    flood = 300
    for n in range(flood):
        me.send({"type": "react" if n % 3 == 0 else "chat", "reaction": "thanks",
                 "text": "spam", "ref": n})
    for n in range(flood):
        refusal(me.receive(), f"you are writing too fast: at most {RATE_LINES} lines in "
                              "3600 s; try again in ", n)
    site.unchanged(table_id, before, *everyone)
    # The other seat writes all the same, and the game goes on.
    you.send({"type": "chat", "text": "calm down"})
    for client in everyone:
        [line] = client.receive_until(lambda m: m["type"] == "chat")["lines"]
        assert (line["n"], line["seat"], line["text"]) == (RATE_LINES + 1, 1, "calm down")
    assert move(site, table_id, clients, random.Random(3))
    record = json.loads(site.snapshot(table_id)[1])
    assert [line["seat"] for line in record["chat"]] == [0] * RATE_LINES + [1]


def test_an_archived_tables_chat_is_closed_and_kept_in_its_record(
        start: Callable[..., Site]) -> None:
    site = start(Settings(idle_timeout=0.2, tables_per_minute=1000, table_burst=1000))
    table, _ = site.create("rummy", [HUMAN, GREEDY])
    token = site.join(table["id"], 0, "Ann")
    me = site.connect(table["id"], token)
    me.send({"type": "chat", "text": "back in a minute"})
    [line] = me.receive_until(lambda m: m["type"] == "chat")["lines"]
    me.close()
    deadline = time.monotonic() + 10
    while site.info(table["id"])["status"] != "archived":
        assert time.monotonic() < deadline, "never archived"
        time.sleep(0.05)
    record = site.http.get(f"/api/tables/{table['id']}/record").json()
    assert record["format"] == "parlour-match/1" and record["chat"] == [line]
    again = site.connect(table["id"], token)
    assert [m["type"] for m in again.messages] == ["welcome", "chat", "update"]
    before = site.snapshot(table["id"])
    closed = f"table {table['id']} was closed"
    refusal(again.ask({"type": "chat", "token": token, "text": "anyone?", "ref": 1}), closed, 1)
    refusal(again.ask({"type": "react", "token": token, "reaction": "oops", "ref": 2}), closed,
            2)
    site.unchanged(table["id"], before, again)
