"""Hidden information at the web table: every message every client receives (each seat and a
spectator) during whole deals of every variant is checked against the deal as it was when the
message was sent. No message names a card hidden from its receiver — for a seat, a card
``state.hidden_from(seat)`` lists; for a spectator, any card some seat cannot see — and a
spectator never gets a hand. The chat carries what the players type, alike to everyone, and
nothing else."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

import parlour
from parlour.cards import parse_card
from parlour.game import State
from parlour.records import replay_match
from parlour.web import create_app
from parlour.web.views import common_lines
from web_helpers import (
    CARD,
    SHORT,
    Session,
    cards_named,
    close_all,
    game_of,
    hidden_from,
    humans_table,
    play_deal,
)


@pytest.fixture
def http(tmp_path: Path) -> Iterator[TestClient]:
    with TestClient(create_app(f"sqlite:///{tmp_path / 'web.sqlite'}", bot_delay=0)) as client:
        try:
            yield client
        finally:
            close_all()


class Positions:
    """The deal as it was at each (deal, step), rebuilt from the finished match's record."""

    def __init__(self, record: dict[str, Any]) -> None:
        self.deals = replay_match(record)
        self.cache: dict[tuple[int, int], State] = {}

    def state(self, deal: int, step: int) -> State:
        key = (deal, step)
        if key not in self.cache:
            final = self.deals[deal - 1]
            state = final.game.new_deal(**final.setup())
            for _, action in final.history[:step]:
                state.apply(action)
            self.cache[key] = state
        return self.cache[key]


def check_messages(session: Session, positions: Positions) -> int:
    """Check every message ``session`` received; returns how many carried a view."""
    views = 0
    for message in session.messages:
        named = cards_named(message)
        if message["type"] != "update" or message["view"]["deal"] == 0:
            assert not named, message
            continue
        view = message["view"]
        views += 1
        state = positions.state(view["deal"], view["step"])
        leaked = {str(c) for c in hidden_from(state, session.seat)} & named
        assert not leaked, (session.seat, leaked, message)
        if session.seat is None:
            assert view["hand"] == [] and "hand" not in view["observation"], message
            logs = [state.observation(s).log_lines(0) for s in range(state.game.players)]
            assert view["log"] == common_lines(logs)
        else:
            # The seat's own hand is exactly its cards at that moment, and its log the
            # deal told for it (the table extends it line by line).
            obs = state.observation(session.seat)
            assert {parse_card(c) for c in view["hand"]} == set(obs.hand), message
            assert view["log"] == obs.log_lines(0)
    return views


@pytest.mark.parametrize(("variant", "players"), [
    (v.name, n) for v in parlour.registry.variants()
    for n in sorted({v.default_players, v.players[0]})
])
def test_no_message_names_a_card_hidden_from_its_receiver(http: TestClient, variant: str,
                                                          players: int) -> None:
    # Every seat a person, each with its own connection, and one spectator.
    table, sessions = humans_table(http, variant, list(range(players)), seed=players + 30,
                                   players=players, **SHORT[variant])
    spectator = Session(http, table["id"])
    game = game_of(table)
    view = play_deal(sessions, game, seed=7, watchers=[spectator])
    if not view["result"]["match_over"]:
        # Into the second deal, so that what carries from deal to deal is covered too.
        version = sessions[0].update["version"]
        sessions[0].send({"type": "next_deal"})
        for s in [*sessions, spectator]:
            s.receive_until(lambda m, v=version: m["type"] == "update" and m["version"] > v)
    record = http.get(f"/api/tables/{table['id']}/record").json()
    positions = Positions(record)
    counts = [check_messages(s, positions) for s in [*sessions, spectator]]
    steps = len(positions.deals[0].history)
    assert all(n > steps for n in counts), (counts, steps)  # a view after every action at least


def test_the_robbers_discard_stays_with_the_robber(http: TestClient) -> None:
    """Forty-five: a seat that robs the turn-up discards a card face down; only it sees which."""
    for seed in range(60):
        table, sessions = humans_table(http, "forty-five", [0, 1, 2, 3], seed=seed,
                                       **SHORT["forty-five"])
        spectator = Session(http, table["id"])
        play_deal(sessions, game_of(table), seed=seed, watchers=[spectator])
        record = http.get(f"/api/tables/{table['id']}/record").json()
        robs = [(seat, text) for seat, text in record["deals"][0]["actions"]
                if text.startswith("rob ")]
        if robs:
            break
        close_all()
    else:
        pytest.fail("no deal with a rob in 60 seeds")
    (robber, text), = robs
    discard = text.split()[1]
    positions = Positions(record)
    for s in [*sessions, spectator]:
        check_messages(s, positions)
        named = set().union(*(cards_named(m) for m in s.messages))
        assert (discard in named) == (s.seat == robber) or discard in _played(record), s.seat


def _played(record: dict[str, Any]) -> set[str]:
    """Cards played to tricks (public once played)."""
    return {text for _, text in record["deals"][0]["actions"] if " " not in text
            and CARD.fullmatch(text)}


def test_the_chat_carries_what_the_players_type_alike_to_everyone(http: TestClient) -> None:
    table, sessions = humans_table(http, "forty-five", [0, 1, 2, 3], seed=8,
                                   **SHORT["forty-five"])
    spectator = Session(http, table["id"])
    everyone = [*sessions, spectator]
    for s in sessions:
        s.send({"type": "chat", "text": f"hello from seat {s.seat}"})
    play_deal(sessions, game_of(table), seed=8, watchers=[spectator])
    for s in sessions:
        s.send({"type": "react", "reaction": "well-played"})
    for s in everyone:
        s.receive_until(lambda m: m["type"] == "chat" and m["lines"][-1]["n"] == 8)
    record = http.get(f"/api/tables/{table['id']}/record").json()
    positions = Positions(record)
    for s in everyone:
        check_messages(s, positions)  # no chat message names a card: none was typed
    chats = [[m for m in s.messages if m["type"] == "chat"] for s in everyone]
    assert all(chat == chats[0] for chat in chats[1:])  # no seat's own, no spectator's own
    lines = [line for message in chats[0] for line in message["lines"]]
    assert all(list(line) == ["n", "seat", "name", "text", "reaction", "t"] for line in lines)
    assert [line["n"] for line in lines] == list(range(1, 9))
    assert sorted((line["seat"], line["name"], line["text"]) for line in lines) == sorted(
        [(s, f"H{s}", f"hello from seat {s}") for s in range(4)]
        + [(s, f"H{s}", "Well played!") for s in range(4)])
    assert record["chat"] == lines
