"""The web table's server through its real protocol: the lobby over HTTP, tables over
WebSockets (Starlette's TestClient), refusals, reconnecting, restart-and-resume from the
database, records, the chat, and parlour.client at a remote seat through a real uvicorn
server."""

from __future__ import annotations

import contextlib
import io
import json
import os
import random
import re
import signal
import socket
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import parlour
import parlour.cli
import parlour.web.chat
from parlour.bots import make_bot
from parlour.bots.learned import weights
from parlour.client import play_remote
from parlour.records import replay_match
from parlour.web import create_app
from parlour.web.chat import REACTIONS, RECENT
from parlour.web.people import profile_id
from parlour.web.settings import Settings
from parlour.web.store import SeatRow, Store, TableRow, hash_token
from web_helpers import (
    SHORT,
    Session,
    choose,
    close_all,
    create,
    game_of,
    humans_table,
    join,
    play_deal,
    running_server,
    settled,
)

# -- the lobby -----------------------------------------------------------------------------------


def test_variants_lists_every_variant_with_its_options_and_the_bots(http: TestClient) -> None:
    data = http.get("/api/variants").json()
    names = [v["name"] for v in data["variants"]]
    assert names == [v.name for v in parlour.registry.variants()]
    big_two = data["variants"][names.index("big-two")]
    assert big_two["players"] == [4] and big_two["default_players"] == 4
    assert "3♦" in big_two["rules"] and "50" in big_two["match_end"]
    straights = next(o for o in big_two["options"] if o["name"] == "straights")
    assert straights["choices"] == ["standard", "hong-kong"] and straights["default"] == "standard"
    # Each option in words for the page, and when it applies.
    assert straights["label"] == "Straights"
    assert straights["choice_labels"] == ["standard", "Hong Kong"]
    assert straights["applies_when"] == {}
    deals = next(o for o in big_two["options"] if o["name"] == "deals")
    assert deals["label"] == "Number of deals" and deals["choice_labels"] is None
    assert deals["applies_when"] == {"match_end": ["deals"]}
    assert {"greedy", "hard"} <= set(data["bots"])
    # Each game offers its computer players: the learned network only where it has one.
    offered = {v["name"]: v["bots"] for v in data["variants"]}
    assert all(bots[:3] == ["random", "easy", "greedy"] for bots in offered.values())
    learned = [n for n, bots in offered.items() if "learned" in bots]
    assert learned == [n for n in offered if weights(n)] and len(learned) == 6
    # ... and for the numbers of players it has one for (Rummy: 2 and 4, not 3).
    by_players = {v["name"]: v["bots_by_players"] for v in data["variants"]}
    for name, counts in by_players.items():
        variant = parlour.registry.get_variant(name)
        assert sorted(map(int, counts)) == sorted(variant.players)
        assert counts[str(variant.default_players)] == offered[name]
        assert {int(n) for n, bots in counts.items() if "learned" in bots} == set(
            weights(name)) & set(variant.players)
    assert ["learned" in by_players["rummy"][n] for n in "234"] == [True, False, True]


def test_each_familys_felt_and_its_style_sheet_are_served_and_nothing_else(
        http: TestClient, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """The page imports a family's felt as /static/felts/<family>.js and links the style sheet
    beside it as /static/felts/<family>.css, each from the family's folder; a felt with no
    style sheet gets an empty one, and any name but a family with a felt is refused."""
    felts = [f for f in parlour.registry.families() if f.felt is not None]
    assert felts
    for family in felts:
        assert family.felt is not None
        module = http.get(f"/static/felts/{family.name}.js")
        assert module.status_code == 200, family.name
        assert module.headers["content-type"].startswith("text/javascript")
        assert module.text == family.felt.read_text()
        style = http.get(f"/static/felts/{family.name}.css")
        assert style.status_code == 200, family.name
        assert style.headers["content-type"].startswith("text/css")
        sheet = family.felt.with_suffix(".css")
        assert style.text == (sheet.read_text() if sheet.is_file() else "")
    # Names of no family, and paths out of the page's folder to a family's files: refused the
    # same for the style sheet as for the module.
    refused = ["nothing", "felt", "Trump", "trump.js", "%2e%2e",
               "..%2f..%2f..%2fgames%2ftrump%2ffelt",
               "%2e%2e%2f%2e%2e%2f%2e%2e%2fgames%2frummy%2ffelt",
               "trump%2f..%2f..%2f..%2f..%2fgames%2ftrump%2ffelt"]
    for name in refused:
        for suffix in ("js", "css"):
            answer = http.get(f"/static/felts/{name}.{suffix}")
            assert answer.status_code == 404, (name, suffix, answer.text[:80])
    assert http.get("/static/felts/trump.py").status_code == 404
    # A felt with no style sheet beside it.
    bare = tmp_path / "bare" / "felt.js"
    bare.parent.mkdir()
    bare.write_text("export function felt() {}\n")
    known = parlour.registry.families()
    monkeypatch.setattr("parlour.web.app.families",
                        lambda: [*known, parlour.registry.Family("bare", felt=bare)])
    assert http.get("/static/felts/bare.js").text == bare.read_text()
    style = http.get("/static/felts/bare.css")
    assert style.status_code == 200 and style.text == ""
    assert style.headers["content-type"].startswith("text/css")


def test_create_list_and_join(http: TestClient) -> None:
    table = create(http, "big-two", [{"kind": "human"}, {"kind": "bot", "bot": "easy"},
                                     {"kind": "human"}, {"kind": "bot", "bot": "random"}],
                   allow_triples=True)
    assert table["status"] == "waiting" and table["deal"] == 0
    assert table["options"]["allow_triples"] is True and table["options"]["straights"] == "standard"
    assert [(s["kind"], s["bot"], s["taken"]) for s in table["seats"]] == [
        ("human", None, False), ("bot", "easy", True), ("human", None, False),
        ("bot", "random", True)]
    listed = http.get("/api/tables").json()["tables"]
    assert [t["id"] for t in listed] == [table["id"]]

    first = join(http, table["id"], None, "Ann")  # the first free human seat
    assert first["seat"] == 0 and first["table"]["status"] == "waiting"
    assert first["table"]["seats"][0] == {"seat": 0, "kind": "human", "bot": None, "name": "Ann",
                                          "taken": True, "profile": None, "connected": False,
                                          "away": False, "label": "P0", "display": "Ann"}
    second = join(http, table["id"], None, "")
    assert second["seat"] == 2 and second["token"] != first["token"]
    assert second["table"]["status"] == "playing" and second["table"]["deal"] == 1
    assert second["table"]["seats"][2]["name"] == "Player 2"
    assert http.get(f"/api/tables/{table['id']}").json()["table"]["status"] == "playing"


def test_lobby_refusals(http: TestClient) -> None:
    table = create(http, "rummy", [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    cases = [
        ("/api/tables", {"variant": "chess"}, 400, "unknown variant 'chess'"),
        ("/api/tables", {"variant": "big-two", "players": 3}, 400, "played by 4 players"),
        ("/api/tables", {"variant": "big-two", "options": {"triples": True}}, 400,
         "no option 'triples'"),
        ("/api/tables", {"variant": "rummy", "seats": [{"kind": "bot", "bot": "grumpy"},
                                                       {"kind": "human"}]}, 400,
         "unknown bot 'grumpy'"),
        ("/api/tables", {"variant": "rummy", "seats": [{"kind": "human"}]}, 400,
         "must list the 2 seats"),
        ("/api/tables", {"variant": "rummy", "seed": "x"}, 400, "The seed must be a whole number"),
        # What the lobby form can send wrong is said in its words: no keyword, no null.
        ("/api/tables", {"variant": "big-two", "options": {"deals": 5000}}, 400,
         "Number of deals must be a whole number from 1 to 1000, not 5000"),
        ("/api/tables", {"variant": "spoil-five", "options": {"ante": 30}}, 400,
         "The ante (30) is more than the starting chips (20)"),
        ("/api/tables", {"variant": "rummy", "turn_timeout": 2}, 400,
         "The turn timer must be from 5 to 3600 seconds, or none"),
        ("/api/tables", {"variant": "rummy", "colour": 1}, 400, "unknown field(s): colour"),
        (f"/api/tables/{table['id']}/join", {"seat": 1}, 400, "seat 1 is a bot's seat"),
        (f"/api/tables/{table['id']}/join", {"seat": 5}, 400, "5 is not a seat of this table"),
        (f"/api/tables/{table['id']}/join", {"seat": 0, "name": "x" * 41}, 400, "at most 40"),
        ("/api/tables/t-nothing/join", {}, 404, "no table 't-nothing'"),
    ]
    for path, body, status, message in cases:
        answer = http.post(path, json=body)
        assert answer.status_code == status, (body, answer.json())
        assert message in answer.json()["error"], (body, answer.json())
        if ("options" in body and "triples" not in body["options"]) or "turn_timeout" in body:
            assert not re.search(r"_|null|'", answer.json()["error"]), answer.json()
    malformed = http.post("/api/tables", content=b"{not json",
                          headers={"Content-Type": "application/json"})
    assert malformed.status_code == 400 and "not valid JSON" in malformed.json()["error"]
    # A body sent as anything but JSON: what a page of another site can send unasked.
    for kind in (None, "text/plain", "application/x-www-form-urlencoded", "multipart/form-data"):
        answer = http.post("/api/tables", content=b'{"variant": "rummy"}',
                           headers={} if kind is None else {"Content-Type": kind})
        assert answer.status_code == 415, (kind, answer.text)
        assert answer.json() == {"error": "the request body is JSON, sent with Content-Type: "
                                          "application/json"}
    assert http.get("/api/tables").json()["total"] == 1
    assert http.get("/api/tables/t-nothing").status_code == 404
    assert http.get("/api/tables/t-nothing/record").status_code == 404

    join(http, table["id"], 0, "Ann")
    for seat in (0, None):  # the seat taken, then a full table
        answer = http.post(f"/api/tables/{table['id']}/join", json={"seat": seat})
        assert answer.status_code == 409
        assert answer.json()["error"] in ("seat 0 is already taken",
                                          f"table {table['id']} is full: every seat is taken")


def test_an_unknown_table_or_a_bad_token_closes_the_socket(http: TestClient) -> None:
    with http.websocket_connect("/ws/t-nothing") as ws:
        assert ws.receive_json()["message"] == "no table 't-nothing'"
    table = create(http, "rummy", [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    # Anything but a hello first: closed, with the reason and no other answer.
    for first in ({"type": "action", "action": "draw stock", "ref": 1}, {"type": "ping"}, []):
        with http.websocket_connect(f"/ws/{table['id']}") as ws:
            ws.send_json(first)
            assert ws.receive() == {"type": "websocket.close", "code": 4400, "reason": (
                'say hello first: {"type": "hello", "token": TOKEN or null}' if first
                else 'a message is a JSON object with a "type"')}
    with http.websocket_connect(f"/ws/{table['id']}") as ws:
        ws.send_json({"type": "hello", "token": "forged", "ref": 2})
        assert ws.receive_json() == {"type": "error", "ref": 2,
                                     "message": "that token holds no seat at this table"}
        assert ws.receive() == {"type": "websocket.close", "code": 4401, "reason": ""}


def test_one_address_may_have_only_so_many_connections(db: str) -> None:
    settings = Settings(connections_per_address=2)
    with TestClient(create_app(db, bot_delay=0, settings=settings)) as http, _closing():
        table = create(http, "rummy", [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
        first, second = Session(http, table["id"]), Session(http, table["id"])
        with http.websocket_connect(f"/ws/{table['id']}") as third:
            assert third.receive_json()["message"] == (
                "too many connections from your address (at most 2)")
            assert third.receive() == {"type": "websocket.close", "code": 1008, "reason": ""}
        second.close()  # one leaves: another may come
        again = Session(http, table["id"])
        for session in (first, again):
            session.send({"type": "ping", "ref": "still there"})
            assert session.receive_until(lambda m: m["type"] == "pong")["ref"] == "still there"


# -- whole deals with several clients ------------------------------------------------------------


@pytest.mark.parametrize(("variant", "humans"), [
    ("big-two", [0, 2]),        # climbing: two people and two bots
    ("forty-five", [0, 1]),     # trump: partners against each other's side
    ("rummy", [0, 1, 2]),       # rummy: three people
])
def test_several_clients_play_a_whole_match(http: TestClient, variant: str,
                                            humans: list[int]) -> None:
    players = 3 if variant == "rummy" else None
    table, sessions = humans_table(http, variant, humans, seed=11, players=players,
                                   **SHORT[variant])
    spectator = Session(http, table["id"])
    game = game_of(table)
    deals = 0
    while True:
        view = play_deal(sessions, game, watchers=[spectator])
        deals += 1
        result = view["result"]
        assert view["current_player"] == -1 and result is not None
        assert len(result["returns"]) == game.players and result["summary"].startswith(
            f"deal {deals}, {game.scores.counts}: ")
        if result["match_over"]:
            break
        sessions[0].send({"type": "next_deal"})
    assert result["winners"] and spectator.view["result"] == result
    info = http.get(f"/api/tables/{table['id']}").json()["table"]
    assert info["status"] == "finished" and info["deal"] == deals
    assert info["totals"] == result["totals"]
    record = http.get(f"/api/tables/{table['id']}/record").json()
    replayed = replay_match(record)
    assert len(replayed) == deals and record["over"] and record["totals"] == result["totals"]
    assert [s["name"] for s in record["seats"] if s["kind"] == "human"] == [
        f"H{s}" for s in humans]
    for s in sessions:
        s.send({"type": "next_deal", "ref": "late"})
        assert s.receive() == {"type": "error", "message": "the match is over", "ref": "late"}


@pytest.mark.parametrize("variant", [v.name for v in parlour.registry.variants()])
def test_every_variant_plays_a_deal_against_bots(http: TestClient, variant: str) -> None:
    table, [me] = humans_table(http, variant, [0], seed=3)
    view = me.view
    assert view["deal"] == 1 and len(view["hand"]) == view["hand_sizes"][0] > 0
    assert view["observation"]["variant"] == variant and view["text"]
    view = play_deal([me], game_of(table), seed=3)
    assert view["deal_over"] and view["result"]["summary"]
    assert view["log"], "the deal's log"
    # The summary names each seat as the table does: the bots, all "greedy", by seat number.
    seats = me.update["table"]["seats"]
    names = [s["display"] for s in seats]
    assert names[0] == "H0" and len(set(names)) == len(names)
    assert names[1:] == (["greedy"] if len(seats) == 2 else
                         [f"greedy {s}" for s in range(1, len(seats))])
    # Each seat's score as every table shows it: Big Two's penalties counted up from 0.
    scores = game_of(table).scores
    shown = [scores.deal(points) for points in view["result"]["returns"]]
    assert view["result"]["scores"]["deal"] == shown
    assert view["result"]["summary"].startswith(f"deal 1, {scores.counts}: " + ", ".join(
        f"{name} {figure}" for name, figure in zip(names, shown, strict=True)))
    if scores.penalty:
        assert not any(figure.startswith("-") for figure in shown)


def test_a_bots_only_table_plays_its_match_for_a_spectator(http: TestClient) -> None:
    table = create(http, "big-two-4card", [{"kind": "bot", "bot": "greedy"}] * 4, deals=2)
    assert table["status"] == "playing"
    spectator = Session(http, table["id"])
    spectator.receive_until(lambda m: m["type"] == "update" and m["table"]["status"] == "finished")
    assert spectator.view["deal"] == 2 and spectator.view["result"]["match_over"]
    assert spectator.view["hand"] == [] and "hand" not in spectator.view["observation"]
    assert len(replay_match(http.get(f"/api/tables/{table['id']}/record").json())) == 2


def test_moves_by_verb_and_cards_and_hints(http: TestClient) -> None:
    _, [me] = humans_table(http, "big-two", [0], seed=5)
    while not me.view["your_turn"]:
        me.receive_until(lambda m: m["type"] == "update")
    legal = me.view["legal"]
    play = next(e for e in legal if e["verb"] == "play")
    me.send({"type": "hint", "ref": "h"})
    hint = me.receive_until(lambda m: m["type"] == "hint")
    assert hint["ref"] == "h" and hint["action"] in {e["action"] for e in legal} and hint["reason"]
    version = me.update["version"]
    me.send({"type": "action", "verb": "play", "cards": play["cards"][::-1]})
    update = me.receive_until(lambda m: m["type"] == "update" and m["version"] > version)
    assert any(line.endswith(play["action"]) or play["action"] in line
               for line in update["view"]["log"])
    assert update["view"]["observation"]["history"][-1] == [0, play["action"]]


# -- refusals ------------------------------------------------------------------------------------


def _sync(sessions: list[Session]) -> None:
    """Read everything sent so far to each session."""
    for s in sessions:
        s.ws.send_json({"type": "ping", "ref": "sync"})
        s.receive_until(lambda m: m == {"type": "pong", "ref": "sync"})


def test_every_refusal_goes_to_that_client_alone_and_changes_nothing(http: TestClient) -> None:
    table, sessions = humans_table(http, "big-two", [0, 1, 2, 3], seed=9)
    spectator = Session(http, table["id"])
    everyone = [*sessions, spectator]
    _sync(everyone)
    mover_seat = sessions[0].view["current_player"]
    mover = sessions[mover_seat]
    waiter = sessions[(mover_seat + 1) % 4]
    legal = [e["action"] for e in mover.view["legal"]]
    hand = mover.view["hand"]
    not_held = next(c for c in waiter.view["hand"])
    record = http.get(f"/api/tables/{table['id']}/record").json()
    views = {id(s): s.update for s in everyone}

    cases: list[tuple[Session, Any, str]] = [
        (mover, "{not json", "the message is not valid JSON"),
        (mover, [1, 2], 'a message is a JSON object with a "type"'),
        (mover, {"type": "shout", "token": mover.token}, "unknown message type 'shout'"),
        (mover, {"type": "action", "token": "forged", "action": legal[0]},
         "that token holds no seat at this table"),
        (mover, {"type": "action", "action": legal[0]},
         "a token (the text given when the seat was taken) is required"),
        (mover, {"type": "action", "token": waiter.token, "action": legal[0]},
         "that token is for another seat than the one this connection said hello for"),
        (spectator, {"type": "action", "token": mover.token, "action": legal[0]},
         "this connection is a spectator's: say hello with your token first"),
        (waiter, {"type": "action", "token": waiter.token, "action": waiter.view["hand"][0]},
         f"it is H{mover_seat}'s turn, not yours"),
        (mover, {"type": "action", "token": mover.token, "action": "3Z"}, "3Z"),
        (mover, {"type": "action", "token": mover.token, "action": not_held},
         f"you do not hold {not_held}"),
        (mover, {"type": "action", "token": mover.token, "action": "pass"},
         "the holder of 3D must open; passing is not allowed"),
        (mover, {"type": "action", "token": mover.token, "action": 7}, "'action' must be the text"),
        (mover, {"type": "action", "token": mover.token, "verb": "play", "cards": [hand[-1]]},
         ""),
        (mover, {"type": "action", "token": mover.token, "verb": "play", "cards": "3D"},
         "an action message needs"),
        (mover, {"type": "next_deal", "token": mover.token}, "the deal is not over yet"),
        (waiter, {"type": "hint", "token": waiter.token}, "a hint is for your turn"),
        (mover, {"type": "hello", "token": mover.token}, "already said hello"),
    ]
    for n, (who, message, expected) in enumerate(cases):
        if isinstance(message, dict):
            who.ws.send_json({**message, "ref": n})
        elif isinstance(message, list):
            who.ws.send_json(message)
        else:
            who.ws.send_text(message)
        answer = who.receive()
        assert answer["type"] == "error" and expected in answer["message"], (message, answer)
        if isinstance(message, dict):
            assert answer["ref"] == n
        for s in everyone:
            s.quiet()  # nobody got anything else: no update, no error
    assert http.get(f"/api/tables/{table['id']}/record").json() == record
    assert all(s.update is views[id(s)] for s in everyone)
    # The refused mover can still play.
    mover.send({"type": "action", "action": legal[0]})
    assert mover.receive()["type"] == "update"


def test_a_binary_frame_is_refused_like_text(http: TestClient) -> None:
    _, [me] = humans_table(http, "rummy", [0])
    me.ws.send_bytes(b"\xff\xfe")
    assert me.receive()["message"] == "the message is not valid JSON"


# -- reconnecting, restarting --------------------------------------------------------------------


def test_reconnect_with_the_token_gets_the_seat_back(http: TestClient) -> None:
    table = create(http, "forty-five", [{"kind": "human"}] + [{"kind": "bot", "bot": "greedy"}] * 3)
    token = join(http, table["id"], 0, "Ann")["token"]
    first = Session(http, table["id"], token)
    assert first.seat == 0 and first.update["table"]["seats"][0]["connected"]
    hand = first.view["hand"]
    first.close()
    watcher = Session(http, table["id"])
    assert not watcher.update["table"]["seats"][0]["connected"]
    again = Session(http, table["id"], token)
    assert again.seat == 0 and again.view["hand"] == hand
    assert again.update["table"]["seats"][0]["connected"]
    watcher.receive_until(lambda m: m["type"] == "update" and m["table"]["seats"][0]["connected"])


#: The PostgreSQL server of the tests: scripts/install-postgresql.sh (run by make test) installs,
#: starts and prepares it.
POSTGRES = os.environ.get("PARLOUR_TEST_POSTGRES",
                          "postgresql://parlour:parlour@127.0.0.1:5432/parlour_test")


@pytest.fixture(params=["sqlite", "postgresql"])
def database(request: pytest.FixtureRequest, db: str) -> Iterator[tuple[str, str]]:
    """A database URL and an instance name of its own, whose tables are deleted at the end
    (the PostgreSQL database outlives the test)."""
    if request.param == "sqlite":
        yield db, "t"
        return
    try:
        Store(POSTGRES).close()
    except Exception as e:
        pytest.fail(f"no PostgreSQL at {POSTGRES} (run scripts/install-postgresql.sh, or set "
                    f"PARLOUR_TEST_POSTGRES): {e}")
    instance = f"pg{uuid.uuid4().hex[:10]}"
    yield POSTGRES, instance
    store = Store(POSTGRES)
    store.delete_tables(instance)
    assert store.tables(instance) == []
    store.close()


def test_restart_resumes_every_unfinished_table_exactly(database: tuple[str, str]) -> None:
    db, instance = database
    with TestClient(create_app(db, bot_delay=0, advice_level="medium", instance=instance)) as http:
        table, [me] = humans_table(http, "rummy", [0], seed=21)
        game = game_of(table)
        watched = create(http, "spoil-five", [{"kind": "human"}] * 4, seed=2)
        for _ in range(6):  # a few turns of the person, the bot answering each
            while not me.view["your_turn"]:
                me.receive_until(lambda m: m["type"] == "update")
            version = me.update["version"]
            me.send({"type": "action", "action": choose(make_bot("greedy"), game, me.view,
                                                        random.Random(version))})
            me.receive_until(lambda m, v=version: m["type"] == "update" and m["version"] > v)
        while not me.view["your_turn"]:
            me.receive_until(lambda m: m["type"] == "update")
        before = me.update
        record = http.get(f"/api/tables/{table['id']}/record").json()
        close_all()

    with TestClient(create_app(db, bot_delay=0, advice_level="medium", instance=instance)) as http:
        listed = {t["id"]: t for t in http.get("/api/tables").json()["tables"]}
        assert listed[watched["id"]]["status"] == "waiting"
        assert listed[table["id"]]["status"] == "playing"
        back = Session(http, table["id"], me.token)
        assert back.seat == 0 and back.update["version"] == before["version"]
        assert back.view == before["view"]  # same hand, log, legal actions: everything
        assert http.get(f"/api/tables/{table['id']}/record").json() == record
        view = play_deal([back], game, seed=21)
        assert view["result"]["match_over"]
        close_all()
    with TestClient(create_app(db, bot_delay=0, instance=instance)) as http:
        finished = http.get(f"/api/tables/{table['id']}").json()["table"]
        assert finished["status"] == "finished"
    stored = Store(db)
    row = next(r for r in stored.tables(instance) if r.id == table["id"])
    assert row.status == "finished" and row.record is not None
    assert replay_match(row.record)[0].is_over
    # Only the token's hash is stored.
    assert stored.seats(table["id"])[0].token_hash == hash_token(me.token) != me.token
    stored.close()


@contextlib.contextmanager
def _closing() -> Iterator[None]:
    """Close every test session at the end, passed or failed: an open one would hold up the
    TestClient's shutdown."""
    try:
        yield
    finally:
        close_all()


def test_a_seat_freed_during_a_deal_is_played_by_the_stand_in_until_the_next_deal(
        db: str) -> None:
    """The owner frees the seat of a person who is away: the stand-in plays it at once (the
    deal goes on), and whoever takes it watches the rest of the deal as a spectator, then
    plays it from the next deal, with a hand of their own."""
    settings = Settings(turn_timeout=0.3)  # below the 5 s a table may ask for: a test's pace
    with TestClient(create_app(db, bot_delay=0, settings=settings)) as http, _closing():
        created = http.post("/api/tables", json={
            "variant": "rummy", "seats": [{"kind": "human"}, {"kind": "human"}], "seed": 4,
            "options": {"series_target": 500}})
        table, owner = created.json()["table"], created.json()["owner_token"]
        for seat in (0, 1):
            join(http, table["id"], seat, f"P{seat}")
        watcher = Session(http, table["id"])  # somebody is there: the timer runs
        away = watcher.receive_until(
            lambda m: m["type"] == "update" and any(s["away"] for s in m["table"]["seats"]))
        [seat] = [s["seat"] for s in away["table"]["seats"] if s["away"]]
        assert away["view"]["current_player"] == seat and away["timer"] is None

        freed = http.post(f"/api/tables/{table['id']}/seats/{seat}", json={"to": "free"},
                          headers={"Authorization": f"Bearer {owner}"})
        assert freed.status_code == 200
        shown = freed.json()["table"]["seats"][seat]
        assert (shown["taken"], shown["away"]) == (False, True)
        # Somebody sits down: the seat is theirs from the next deal; until then the stand-in
        # plays it and they see what a spectator sees.
        newcomer = join(http, table["id"], seat, "Newcomer")
        assert newcomer["table"]["seats"][seat]["away"] is True
        session = Session(http, newcomer["table"]["id"], newcomer["token"])
        assert session.seat == seat and session.view["seat"] == seat
        assert session.view["hand"] == [] and session.view["legal"] == []
        assert "hand" not in session.view["observation"]
        session.send({"type": "hint", "ref": 1})
        assert session.receive_until(lambda m: m["type"] == "error") == {
            "type": "error", "ref": 1,
            "message": "you play this seat from the next deal: until then greedy plays it"}
        # The deal ends (the stand-in plays the seat, the other person's timer runs out) ...
        over = session.receive_until(lambda m: m["type"] == "update" and m["view"]["deal_over"])
        assert over["view"]["hand"] == [] and over["table"]["seats"][seat]["away"] is True
        # ... and with the next one the newcomer has the seat, a hand of their own.
        session.send({"type": "next_deal"})
        dealt = session.receive_until(lambda m: m["type"] == "update" and m["view"]["deal"] == 2)
        assert len(dealt["view"]["hand"]) == 10 and dealt["view"]["seat"] == seat
        assert dealt["table"]["seats"][seat]["away"] is False


def _named_log(view: dict[str, Any]) -> list[str]:
    """The view's log as the page shows it: each line's seat labels ("P1") replaced by the
    names its ``log_names`` gives that line."""
    runs, lines = view["log_names"], view["log"]
    assert runs and runs[0][0] == 0
    out = []
    for i, line in enumerate(lines):
        names = next(names for first, names in reversed(runs) if first <= i)
        out.append(re.sub(r"\bP(\d)\b", lambda m, n=names: n[int(m[1])], line))
    return out


def test_the_log_names_each_seat_as_it_was_when_the_line_was_written(db: str) -> None:
    """A person's seat handed to a bot of a level another seat already plays: the lines of
    the person's moves still name them, and the other bot's earlier lines keep its name then
    ("greedy"), while later lines name the bots as the table numbers them now; the same after
    a restart."""
    app = create_app(db, bot_delay=0)
    with TestClient(app) as http, _closing():
        created = http.post("/api/tables", json={
            "variant": "big-two", "seed": 3, "seats": [
                {"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "greedy"},
                {"kind": "bot", "bot": "random"}]}).json()
        table, owner = created["table"], created["owner_token"]
        game = game_of(table)
        ann, bob = (Session(http, table["id"], join(http, table["id"], seat, name)["token"])
                    for seat, name in ((0, "Ann"), (1, "Bob")))
        # Play until Bob and the greedy bot have both moved, Bob to move again.
        while True:
            if not settled(ann.update, {0, 1}):
                ann.receive_until(lambda m: settled(m, {0, 1}))
            version = ann.update["version"]
            if bob.update["version"] != version:
                bob.receive_until(lambda m, v=version: m["type"] == "update"
                                  and m["version"] == v)
            view = ann.view
            moved = {seat for seat, _ in view["observation"]["history"]}
            if {1, 2} <= moved and view["current_player"] == 1:
                break
            mover = ann if view["current_player"] == 0 else bob
            mover.send({"type": "action", "action": choose(
                make_bot("greedy"), game, mover.view, random.Random(version))})
            for s in (ann, bob):
                s.receive_until(lambda m, v=version: m["type"] == "update"
                                and m["version"] > v)
        before = _named_log(ann.view)
        assert any(line.startswith("Bob: ") for line in before)
        assert any(line.startswith("greedy: ") for line in before)
        bob.close()
        handed = http.post(f"/api/tables/{table['id']}/seats/1",
                           json={"to": "bot", "bot": "greedy"},
                           headers={"Authorization": f"Bearer {owner}"})
        assert handed.status_code == 200
        assert [s["display"] for s in handed.json()["table"]["seats"]] == [
            "Ann", "greedy 1", "greedy 2", "random"]
        # The bots play on to Ann's turn: both greedy seats have moved since.
        view = ann.receive_until(lambda m: m["type"] == "update" and (
            m["view"]["your_turn"] or m["view"]["deal_over"]))["view"]
        after = _named_log(view)
        assert after[:len(before)] == before  # no earlier line changed
        later = after[len(before):]
        assert any(line.startswith("greedy 1: ") for line in later)
        assert any(line.startswith("greedy 2: ") for line in later)
        assert not any(line.startswith(("Bob", "greedy: ")) for line in later)
        # A spectator's log names the seats alike (every line of Big Two's log is public).
        assert _named_log(Session(http, table["id"]).view) == after
        close_all()
    with TestClient(create_app(db, bot_delay=0)) as http, _closing():
        # After a restart the lines keep the names they were written with.
        assert _named_log(Session(http, table["id"]).view) == after
        back = Session(http, table["id"], ann.token)
        assert _named_log(back.view) == after and back.view["log_names"] == view["log_names"]


def test_tables_of_another_instance_are_left_to_it(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0, instance="a")) as http:
        table = create(http, "rummy", [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
        assert table["id"].startswith("a-")
    with TestClient(create_app(db, bot_delay=0, instance="b")) as http:
        # Listed in b's lobby too (one site), but the table is a's alone.
        assert [t["id"] for t in http.get("/api/tables").json()["tables"]] == [table["id"]]
        assert http.get(f"/api/tables/{table['id']}").status_code == 404
    with TestClient(create_app(db, bot_delay=0, instance="a")) as http:
        assert http.get(f"/api/tables/{table['id']}").status_code == 200


# -- parlour.client through a real server --------------------------------------------------------


@pytest.fixture
def server(db: str) -> Iterator[str]:
    """A uvicorn server on a free port of 127.0.0.1, in a thread, stopped at the end."""
    with running_server(create_app(db, bot_delay=0, advice_level="medium")) as live:
        yield live.url


def test_parlour_client_plays_bots_at_remote_seats(server: str) -> None:
    import httpx2 as httpx

    table = httpx.post(f"{server}/api/tables", json={
        "variant": "forty-five", "options": {"target": 5}, "seed": 8,
        "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"},
                  {"kind": "human"}, {"kind": "bot", "bot": "random"}]}).json()["table"]
    results: dict[int, Any] = {}
    seen: list[dict[str, Any]] = []
    printed = io.StringIO()

    def by_function() -> None:
        results[0] = play_remote(server, table["id"], "greedy", seat=0, name="R0",
                                 on_message=seen.append, timeout=30)

    def by_command() -> None:
        results[2] = parlour.cli.main(["client", server, table["id"], "--seat", "2",
                                       "--bot", "easy", "--name", "R2"], out=printed)

    threads = [threading.Thread(target=by_function), threading.Thread(target=by_command)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    assert results[2] == 0, printed.getvalue()
    results[2] = results[0]
    assert results[0]["match_over"] and results[0] == results[2]
    record = httpx.get(f"{server}/api/tables/{table['id']}/record").json()
    assert record["over"] and record["totals"] == results[0]["totals"]
    assert len(replay_match(record)) == len(record["deals"]) >= 1
    assert [s["name"] for s in record["seats"]] == ["R0", "greedy", "R2", "random"]
    # The command printed the seat it took with the token that takes it back, then the
    # match's result; the remote seat only ever got its own view.
    first, *_ = printed.getvalue().splitlines()
    assert first.startswith(f"seat 2 of table {table['id']}; to come back to it: --token ")
    assert results[0]["summary"] in printed.getvalue()
    views = [m["view"] for m in seen if m["type"] == "update" and m["view"]["deal"] > 0]
    assert views and all(v["seat"] == 0 and v["observation"]["seat"] == 0 for v in views)


def test_a_remote_bot_waits_for_the_table_as_long_as_it_takes(db: str) -> None:
    """The client's timeout bounds connecting, not the quiet while others think: bots that
    take longer than it to move do not end the remote seat's match."""
    import httpx2 as httpx

    with running_server(create_app(db, bot_delay=0.5, advice_level="medium")) as live:
        table = httpx.post(f"{live.url}/api/tables", json={
            "variant": "forty-five", "players": 2, "options": {"target": 5}, "seed": 3,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}).json()["table"]
        result = play_remote(live.url, table["id"], "greedy", timeout=0.2)
    assert result["match_over"] and max(result["totals"]) >= 5


@contextlib.contextmanager
def parlour_serve(tmp_path: Path, *args: str, scheme: str = "http",
                  verify: Any = True) -> Iterator[str]:
    """``parlour serve`` in a subprocess on a free port: its base URL once it answers (the
    first line it prints is checked); stopped with Ctrl-C at the end, which must exit 0."""
    import httpx2 as httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [sys.executable, "-m", "parlour", "serve", "--port", str(port), "--database",
         f"sqlite:///{tmp_path / 'served.sqlite'}", "--bot-delay", "0", *args],
        stdout=subprocess.PIPE, text=True)
    base = f"{scheme}://127.0.0.1:{port}"
    try:
        assert server.stdout is not None
        assert server.stdout.readline() == f"parlour web table: open {base}/ (Ctrl-C stops)\n"
        deadline = time.monotonic() + 20
        while True:
            try:
                httpx.get(f"{base}/api/variants", verify=verify)
                break
            except httpx.TransportError:
                assert time.monotonic() < deadline, "parlour serve did not answer"
                time.sleep(0.05)
        yield base
    finally:
        server.send_signal(signal.SIGINT)
        assert server.wait(20) == 0


def test_parlour_serve_prints_its_address_and_serves(tmp_path: Path) -> None:
    import httpx2 as httpx

    with parlour_serve(tmp_path) as base:
        answer = httpx.get(f"{base}/api/variants")
        assert answer.status_code == 200 and answer.json()["variants"]
        assert answer.json()["version"] == parlour.__version__
        page = httpx.get(f"{base}/")
        assert page.status_code == 200
        assert f'<footer class="footer">parlour {parlour.__version__}</footer>' in page.text
        assert "strict-transport-security" not in answer.headers  # plain HTTP


def test_parlour_serve_trusts_forwarded_headers_only_from_the_proxies_it_names(
        tmp_path: Path) -> None:
    """By default a client is the address it connects from, whatever headers it sends: a
    local program cannot pass for other addresses to get past the per-address limits."""
    import httpx2 as httpx
    from websockets.sync.client import connect

    limits = ("--table-burst", "1", "--tables-per-minute", "1", "--connections-per-address", "1")
    forged = {"X-Forwarded-For": "10.1.2.3"}
    with parlour_serve(tmp_path, *limits) as base:
        first = httpx.post(f"{base}/api/tables", json={"variant": "rummy"})
        assert first.status_code == 201, first.text
        again = httpx.post(f"{base}/api/tables", json={"variant": "rummy"}, headers=forged)
        assert again.status_code == 429, again.text
        url = base.replace("http", "ws") + f"/ws/{first.json()['table']['id']}"
        with connect(url, proxy=None) as held, connect(url, proxy=None,
                                                       additional_headers=forged) as extra:
            held.send('{"type": "hello", "token": null}')
            assert json.loads(held.recv(timeout=20))["type"] == "welcome"
            assert json.loads(extra.recv(timeout=20))["message"] == (
                "too many connections from your address (at most 1)")
    with parlour_serve(tmp_path, *limits, "--forwarded-allow-ips", "127.0.0.1") as base:
        assert httpx.post(f"{base}/api/tables", json={"variant": "rummy"}).status_code == 201
        behind = httpx.post(f"{base}/api/tables", json={"variant": "rummy"}, headers=forged)
        assert behind.status_code == 201, behind.text  # another client behind the proxy


def test_parlour_serve_serves_https_and_wss_with_a_certificate(tmp_path: Path) -> None:
    import ssl

    import httpx2 as httpx
    import trustme
    from websockets.sync.client import connect

    authority = trustme.CA()
    certificate = authority.issue_cert("127.0.0.1")
    certificate.private_key_pem.write_to_path(str(tmp_path / "key.pem"))
    certificate.cert_chain_pems[0].write_to_path(str(tmp_path / "cert.pem"))
    authority.cert_pem.write_to_path(str(tmp_path / "ca.pem"))
    trusted = ssl.create_default_context(cafile=str(tmp_path / "ca.pem"))
    with parlour_serve(tmp_path, "--certfile", str(tmp_path / "cert.pem"), "--keyfile",
                       str(tmp_path / "key.pem"), scheme="https", verify=trusted) as base:
        with pytest.raises(httpx.TransportError):  # no plain HTTP on that port
            httpx.get(base.replace("https", "http") + "/api/variants")
        answer = httpx.post(f"{base}/api/tables", json={"variant": "rummy", "seed": 3},
                            verify=trusted)
        # Under TLS the browser is told to keep to HTTPS for this host.
        assert answer.headers["strict-transport-security"] == "max-age=31536000"
        created = answer.json()["table"]
        url = base.replace("https", "wss") + f"/ws/{created['id']}"
        with connect(url, ssl=trusted) as ws:
            ws.send('{"type": "hello", "token": null}')
            welcome = json.loads(ws.recv(timeout=20))
        assert welcome["type"] == "welcome" and welcome["table"]["id"] == created["id"]


def test_parlour_serve_refuses_a_certificate_without_its_key(tmp_path: Path) -> None:
    out = io.StringIO()
    with contextlib.redirect_stderr(out):
        code = parlour.cli.main(["serve", "--certfile", str(tmp_path / "cert.pem")])
    assert code == 2 and "--certfile and --keyfile go together" in out.getvalue()


def test_a_database_made_before_the_new_columns_gets_them(tmp_path: Path) -> None:
    import sqlite3

    path = tmp_path / "old.sqlite"
    with sqlite3.connect(path) as old:
        old.execute("CREATE TABLE parlour_tables (id VARCHAR(64) PRIMARY KEY, variant VARCHAR(64) "
                    "NOT NULL, players INTEGER NOT NULL, options TEXT NOT NULL, seed BIGINT NOT "
                    "NULL, owner VARCHAR(64) NOT NULL, status VARCHAR(16) NOT NULL, created FLOAT "
                    "NOT NULL, record TEXT)")
        old.execute("INSERT INTO parlour_tables VALUES ('t-old', 'rummy', 2, '{}', 5, 't', "
                    "'waiting', 0, NULL)")
        old.execute("CREATE TABLE parlour_seats (table_id VARCHAR(64), seat INTEGER, kind "
                    "VARCHAR(8) NOT NULL, bot VARCHAR(32), name VARCHAR(64) NOT NULL, token_hash "
                    "VARCHAR(64), PRIMARY KEY (table_id, seat))")
        old.execute("INSERT INTO parlour_seats VALUES ('t-old', 0, 'human', NULL, 'Ann', 'h')")
    store = Store(f"sqlite:///{path}")
    [row] = store.tables("t")
    assert (row.id, row.seed, row.seeded, row.owner_hash, row.turn_timeout) == (
        "t-old", 5, False, None, None)
    assert store.seats("t-old") == [SeatRow(0, "human", None, "Ann", "h", sits_from=0)]
    store.close()


def test_finished_matches_are_saved_as_records_parlour_replay_reads(db: str,
                                                                    tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    with TestClient(create_app(db, bot_delay=0, records=folder)) as http:
        table = create(http, "spoil-five", [{"kind": "bot", "bot": "greedy"}] * 3, deals=2,
                       players=3)
        spectator = Session(http, table["id"])
        spectator.receive_until(lambda m: m["type"] == "update"
                                and m["table"]["status"] == "finished")
        close_all()
    saved = folder / f"{table['id']}.json"
    out = io.StringIO()
    assert parlour.cli.main(["replay", str(saved)], out=out) == 0
    assert out.getvalue().count("=== spoil-five, deal") == 2 and "Match totals" in out.getvalue()


def test_a_table_whose_events_do_not_replay_is_left_out_at_restart(db: str) -> None:
    with TestClient(create_app(db, bot_delay=0)) as http:
        good = create(http, "rummy", [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
        bad = create(http, "rummy", [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
    store = Store(db)
    store.add_event(bad["id"], 99, "action", 1, "meld AS AS AS")
    store.close()
    with TestClient(create_app(db, bot_delay=0)) as http:
        assert [t["id"] for t in http.get("/api/tables").json()["tables"]] == [good["id"]]


# -- after a deal: the review, and playing again -------------------------------------------------


def test_a_review_judges_the_seats_own_moves_and_a_rematch_seats_everyone_again(db: str) -> None:
    from parlour.review import review_deal, review_lines, reviewer_bot

    app = create_app(db, bot_delay=0, advice_level="medium")
    with TestClient(app) as http:
        try:
            table, [me] = humans_table(http, "big-two-4card", [1], seed=3, deals=1)
            me.send({"type": "review", "ref": "early"})
            refusal = me.receive_until(lambda m: m["type"] == "error")
            assert refusal["ref"] == "early" and "none is finished" in refusal["message"]
            unfinished = http.post(f"/api/tables/{table['id']}/rematch",
                                   headers={"Authorization": f"Bearer {me.token}"})
            assert unfinished.status_code == 409
            play_deal([me], game_of(table))
            me.send({"type": "review", "ref": "r"})
            review = me.receive_until(lambda m: m["type"] in ("review", "error"))
            assert review["type"] == "review" and review["ref"] == "r" and review["deal"] == 1
            record = http.get(f"/api/tables/{table['id']}/record").json()
            state = replay_match(record)[0]
            expected = review_deal(state, [1], reviewer_bot("medium"))
            assert review["lines"] == review_lines(expected, state)
            assert [(d["move"], d["played"], d["best"], d["mistake"])
                    for d in review["decisions"]] == [
                (d.step + 1, str(d.played), str(d.best), d.mistake) for d in expected]
            me.send({"type": "review", "deal": 2, "ref": "x"})
            assert "from 1 to 1" in me.receive_until(lambda m: m["type"] == "error")["message"]

            answer = http.post(f"/api/tables/{table['id']}/rematch",
                               headers={"Authorization": f"Bearer {me.token}"})
            assert answer.status_code == 201, answer.json()
            again = answer.json()
            assert again["seat"] == 1 and again["owner_token"] and again["token"]
            new = again["table"]
            assert new["id"] != table["id"] and not new["seeded"]
            assert (new["variant"], new["options"]) == (table["variant"], table["options"])
            assert [(s["kind"], s["bot"]) for s in new["seats"]] == \
                   [(s["kind"], s["bot"]) for s in table["seats"]]
            assert new["seats"][1]["name"] == "H1" and new["status"] == "playing"
            notice = me.receive_until(lambda m: m["type"] == "rematch")
            assert notice == {"type": "rematch", "table": new["id"], "by": 1}
            # The seat is taken at the rematch already: asking again is refused, and a token
            # that holds no seat here asks for nothing.
            assert http.post(f"/api/tables/{table['id']}/rematch",
                             headers={"Authorization": f"Bearer {me.token}"}).status_code == 409
            assert http.post(f"/api/tables/{table['id']}/rematch",
                             headers={"Authorization": "Bearer nope"}).status_code == 401
        finally:
            close_all()


def test_processes_on_one_database_list_each_others_tables(database: tuple[str, str]) -> None:
    """One site over several processes: each lobby lists every process's tables, as their
    owners last kept them; the tables themselves stay with their owners."""
    db, instance = database
    other = f"{instance}x"
    try:
        with TestClient(create_app(db, bot_delay=0, instance=instance)) as a, \
                TestClient(create_app(db, bot_delay=0, instance=other)) as b:
            mine = create(a, "rummy", [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}])
            theirs = create(b, "big-two", [{"kind": "human"}] + [{"kind": "bot", "bot": "easy"}] * 3)

            def listed(http: TestClient, **query: str) -> dict[str, dict[str, Any]]:
                answer = http.get("/api/tables", params={"limit": 100, **query}).json()
                return {t["id"]: t for t in answer["tables"]}

            for http in (a, b):
                both = listed(http)
                assert {mine["id"], theirs["id"]} <= set(both)
                assert both[theirs["id"]]["status"] == both[mine["id"]]["status"] == "waiting"
                assert set(listed(http, variant="rummy")) & {mine["id"], theirs["id"]} == {
                    mine["id"]}
            # A seat taken at b's table shows in a's lobby, and the game begins there.
            join(b, theirs["id"], 0, "Ann")
            seen = listed(a)[theirs["id"]]
            assert seen["status"] == "playing" and seen["seats"][0]["name"] == "Ann"
            assert theirs["id"] in listed(a, status="playing")
            # The table itself is b's alone.
            assert a.get(f"/api/tables/{theirs['id']}").status_code == 404
    finally:
        store = Store(db)
        store.delete_tables(other)
        store.close()


def test_parlour_client_sits_down_with_the_profile_kept_in_the_statistics_file(
        server: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import httpx2 as httpx

    from parlour.stats import PlayerStats

    monkeypatch.setenv("PARLOUR_STATS", str(tmp_path / "stats.json"))
    seen = []
    for seed in (1, 2):
        table = httpx.post(f"{server}/api/tables", json={
            "variant": "big-two-4card", "options": {"deals": 1}, "seed": seed,
            "seats": [{"kind": "human"}] + [{"kind": "bot", "bot": "easy"}] * 3}).json()["table"]
        printed = io.StringIO()
        assert parlour.cli.main(["client", server, table["id"], "--profile", "--name", "Kim"],
                                out=printed) == 0, printed.getvalue()
        seat = httpx.get(f"{server}/api/tables/{table['id']}").json()["table"]["seats"][0]
        seen.append((seat["name"], seat["profile"]))
    # Made once, under the name given, and kept: the same person at both tables.
    key = PlayerStats().profile_key(server)
    assert key is not None and seen == [("Kim", profile_id(key))] * 2
    page = httpx.get(f"{server}/api/profiles/{profile_id(key)}").json()
    assert page["ratings"][0]["matches"] == 2
    # The statistics file still reads, its rows and its key both.
    assert PlayerStats().problem is None
# -- the chat ------------------------------------------------------------------------------------

#: What a name or a line may hold that a page must show as text.
XSS = "<img src=x onerror=alert(1)>"
HUMANS = [{"kind": "human"}, {"kind": "human"}]


def chat_lines(session: Session) -> list[dict[str, Any]]:
    """Every chat line ``session`` was sent, in order."""
    return [line for m in session.messages if m["type"] == "chat" for line in m["lines"]]


def test_players_chat_and_react_and_everyone_at_the_table_reads_it(http: TestClient) -> None:
    table = create(http, "rummy", HUMANS, seed=3)
    tokens = [join(http, table["id"], 0, XSS)["token"], join(http, table["id"], 1, "Bob")["token"]]
    ann, bob = (Session(http, table["id"], t) for t in tokens)
    watcher = Session(http, table["id"])
    everyone = [ann, bob, watcher]
    _sync(everyone)
    version = ann.update["version"]
    started = time.time()

    ann.send({"type": "chat", "text": "  good luck <script>alert(1)</script>  ", "ref": 1})
    said = [s.receive_until(lambda m: m["type"] == "chat") for s in everyone]
    assert said[0] == said[1] == said[2]  # the same line for everyone: nothing of a seat's own
    [line] = said[0]["lines"]
    assert list(line) == ["n", "seat", "name", "text", "reaction", "t"]
    assert (line["n"], line["seat"], line["name"], line["text"], line["reaction"]) == (
        1, 0, XSS, "good luck <script>alert(1)</script>", None)
    assert started - 1 <= line["t"] <= time.time() + 1
    bob.send({"type": "react", "reaction": "well-played", "ref": 2})
    reacted = [s.receive_until(lambda m: m["type"] == "chat") for s in everyone]
    assert reacted[0] == reacted[1] == reacted[2]
    [reaction] = reacted[0]["lines"]
    assert (reaction["n"], reaction["seat"], reaction["name"], reaction["text"],
            reaction["reaction"]) == (2, 1, "Bob", REACTIONS["well-played"], "well-played")

    # A spectator reads the chat but cannot write in it, with a seat's token or without.
    for n, message in enumerate(({"type": "chat", "text": "hi"},
                                 {"type": "chat", "text": "hi", "token": tokens[0]},
                                 {"type": "react", "reaction": "thanks"}), 10):
        watcher.ws.send_json({**message, "ref": n})
        assert watcher.receive() == {
            "type": "error", "message": "spectators read the chat: take a seat to write in it",
            "ref": n}
    for s in everyone:
        s.quiet()
    # Nothing of the game changed: the chat is no event of the match.
    assert http.get(f"/api/tables/{table['id']}").json()["table"]["deal"] == 1
    ann.send({"type": "ping", "ref": "v"})
    assert ann.update["version"] == version

    # Who comes later is sent the latest lines between the welcome and the table.
    late = Session(http, table["id"])
    assert [m["type"] for m in late.messages] == ["welcome", "chat", "update"]
    assert late.messages[1]["lines"] == [line, reaction]
    # The record of the match in progress has the chat, whoever asks.
    for headers in ({}, {"Authorization": f"Bearer {tokens[1]}"}):
        record = http.get(f"/api/tables/{table['id']}/record", headers=headers).json()
        assert record["chat"] == [line, reaction]


def test_a_table_without_chat_sends_no_chat(http: TestClient) -> None:
    table, [me] = humans_table(http, "rummy", [0])
    assert [m["type"] for m in me.messages][:2] == ["welcome", "update"]
    assert http.get(f"/api/tables/{table['id']}/record").json()["chat"] == []


def test_a_newcomer_is_sent_the_latest_lines_and_the_record_keeps_them_all(
        http: TestClient, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(parlour.web.chat, "RATE_LINES", 1000)  # a long chat, at once
    table, [me] = humans_table(http, "rummy", [0])
    for n in range(RECENT + 10):
        me.send({"type": "chat", "text": f"line {n + 1}"})
    me.receive_until(lambda m: m["type"] == "chat" and m["lines"][0]["n"] == RECENT + 10)
    newcomer = Session(http, table["id"])
    [history] = [m for m in newcomer.messages if m["type"] == "chat"]
    assert [line["text"] for line in history["lines"]] == [
        f"line {n}" for n in range(11, RECENT + 11)]
    record = http.get(f"/api/tables/{table['id']}/record").json()
    assert [line["n"] for line in record["chat"]] == list(range(1, RECENT + 11))


def test_a_chat_line_names_its_seat_as_the_table_called_it_then(http: TestClient) -> None:
    created = http.post("/api/tables", json={"variant": "rummy", "seats": HUMANS, "seed": 2})
    table, owner = created.json()["table"], created.json()["owner_token"]
    sams = [Session(http, table["id"], join(http, table["id"], s, "Sam")["token"])
            for s in (0, 1)]
    for sam in sams:  # two Sams: the table numbers them by seat
        sam.send({"type": "chat", "text": "I am Sam"})
        sam.receive_until(lambda m: m["type"] == "chat")
    sams[1].close()
    freed = http.post(f"/api/tables/{table['id']}/seats/1", json={"to": "free"},
                      headers={"Authorization": f"Bearer {owner}"})
    assert freed.status_code == 200
    kim = Session(http, table["id"], join(http, table["id"], 1, "Kim")["token"])
    kim.send({"type": "chat", "text": "I am Kim"})
    sams[0].send({"type": "chat", "text": "still Sam"})
    sams[0].receive_until(lambda m: m["type"] == "chat" and m["lines"][0]["n"] == 4)
    record = http.get(f"/api/tables/{table['id']}/record").json()
    assert [(line["seat"], line["name"], line["text"]) for line in record["chat"]] == [
        (0, "Sam 0", "I am Sam"), (1, "Sam 1", "I am Sam"), (1, "Kim", "I am Kim"),
        (0, "Sam", "still Sam")]
    # The token of the seat's last holder writes no more.
    gone = Session(http, table["id"])
    gone.ws.send_json({"type": "chat", "token": sams[1].token, "text": "me again", "ref": 1})
    assert gone.receive()["type"] == "error"


def test_the_chat_is_kept_with_the_table_and_taken_up_after_a_restart(
        database: tuple[str, str]) -> None:
    db, instance = database
    texts = ["first", "ünïcødé ♠ 🂡 👩\u200d💻", XSS, "<script>alert(1)</script>"]
    with TestClient(create_app(db, bot_delay=0, instance=instance)) as http, _closing():
        table = create(http, "rummy", HUMANS, seed=5)
        tokens = [join(http, table["id"], s, f"P{s}")["token"] for s in (0, 1)]
        players = [Session(http, table["id"], t) for t in tokens]
        for n, text in enumerate(texts):
            players[n % 2].send({"type": "chat", "text": text})
            players[0].receive_until(lambda m, n=n: m["type"] == "chat"
                                     and m["lines"][0]["n"] == n + 1)
        players[1].send({"type": "react", "reaction": "oops"})
        players[0].receive_until(lambda m: m["type"] == "chat" and m["lines"][0]["n"] == 5)
        lines = chat_lines(players[0])
        record = http.get(f"/api/tables/{table['id']}/record").json()
        assert record["chat"] == lines and [line["text"] for line in lines] == [*texts, "Oops!"]

    with TestClient(create_app(db, bot_delay=0, instance=instance)) as http, _closing():
        back = Session(http, table["id"], tokens[1])
        assert back.messages[1] == {"type": "chat", "lines": lines}
        assert http.get(f"/api/tables/{table['id']}/record").json() == record
        back.send({"type": "chat", "text": "after the restart"})
        [after] = back.receive_until(lambda m: m["type"] == "chat")["lines"]
        assert (after["n"], after["seat"], after["name"]) == (6, 1, "P1")


def test_the_database_keeps_each_tables_last_chat_lines(tmp_path: Path) -> None:
    store = Store(f"sqlite:///{tmp_path / 'chat.sqlite'}")
    for table_id, owner in (("a-1", "a"), ("b-1", "b")):
        store.add_table(TableRow(table_id, "rummy", 2, {}, 1, owner, "waiting"),
                        [SeatRow(s, "human", None, "", None) for s in (0, 1)])
    for n in range(1, 9):
        store.add_chat("a-1", {"n": n, "seat": n % 2, "name": "Ann", "text": f"{n}",
                               "reaction": None, "t": 1.5}, keep=5)
    store.add_chat("b-1", {"n": 1, "seat": 0, "name": "Bob", "text": "hi",
                           "reaction": "thanks", "t": 2.0}, keep=5)
    assert [line["n"] for line in store.chat("a-1")] == [4, 5, 6, 7, 8]
    assert store.chat("b-1") == [{"n": 1, "seat": 0, "name": "Bob", "text": "hi",
                                  "reaction": "thanks", "t": 2.0}]
    store.delete_tables("a")
    assert store.chat("a-1") == [] and len(store.chat("b-1")) == 1
    store.close()


def test_a_finished_matchs_record_has_its_chat_and_replay_reads_it(db: str,
                                                                    tmp_path: Path) -> None:
    folder = tmp_path / "records"
    folder.mkdir()
    with TestClient(create_app(db, bot_delay=0, records=folder)) as http, _closing():
        table, [me] = humans_table(http, "big-two", [0], seed=4, **SHORT["big-two"])
        me.send({"type": "chat", "text": "good luck, bots"})
        me.receive_until(lambda m: m["type"] == "chat")
        view = play_deal([me], game_of(table), seed=4)
        assert view["result"]["match_over"]
        # The match is over: players may still say so.
        me.send({"type": "react", "reaction": "good-game"})
        me.receive_until(lambda m: m["type"] == "chat")
        record = http.get(f"/api/tables/{table['id']}/record").json()
        assert record["format"] == "parlour-match/1" and record["over"]
        assert [(line["text"], line["reaction"]) for line in record["chat"]] == [
            ("good luck, bots", None), ("Good game!", "good-game")]
    # The record saved when the match ended has the chat until then.
    saved = json.loads((folder / f"{table['id']}.json").read_text())
    assert [line["text"] for line in saved["chat"]] == ["good luck, bots"]
    # parlour replay and parlour.records read a record with its chat and one without.
    for n, kept in enumerate((saved, {k: v for k, v in saved.items() if k != "chat"})):
        path = tmp_path / f"record{n}.json"
        path.write_text(json.dumps(kept))
        out = io.StringIO()
        assert parlour.cli.main(["replay", str(path)], out=out) == 0
        assert "=== big-two, deal 1" in out.getvalue()
        assert replay_match(kept)[0].is_over
    # A finished table rebuilt from the database has its chat, the lines after the end too.
    with TestClient(create_app(db, bot_delay=0)) as http:
        assert http.get(f"/api/tables/{table['id']}/record").json() == record
