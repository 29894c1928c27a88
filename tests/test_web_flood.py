"""Floods at one table leave another table its pace: its bots' moves and a spectator's pings.

On a running server, a bots-only table watched by a spectator moves at its bot pace
(``bot_delay``, small here so that a window of a few seconds holds many moves), and the
spectator pings it over and over, timing each answer. Both are measured over windows without a
flood and, interleaved with them, while a client floods the server as fast as it can from a
process of its own (tests/web_flood.py) and another address:

- with ``hint`` messages at another table, the hint worked out by the searching judge;
- with pings on connections that never say hello (anyone can: a table's id is public);
- with pings after a spectator's hello, on several connections at once.

The flooded move rate stays within 20% of the quiet one, and the spectator's 99th percentile
of ping times within twice the quiet one's.

Interleaving the windows, and comparing their sums, keeps a slow drift of the machine's load
(other jobs on a shared CI machine) from reading as the flood's effect. The flooding process
runs at the lowest priority: on a real server the flood comes from another machine, and the
CPU the flooder itself burns here is not the server's doing.
"""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import httpx2 as httpx

from parlour.web import create_app
from parlour.web.settings import Settings
from web_helpers import Live, LiveServer, LogWatch, running_server

#: Seconds of each window, and the number of quiet/flooded pairs.
WINDOW, ROUNDS = 2.5, 3
#: The bot pace: like the served default of 0.8 s, the rate is set by it, not by the CPU.
BOT_DELAY = 0.05
#: The spectator's pause between one pong and its next ping.
PING_GAP = 0.02
#: Below this, a 99th percentile of ping times is the machine's noise, not the flood's doing:
#: twice a quiet p99 of 1 ms is compared with this instead.
LATENCY_FLOOR = 0.010
FLOODER = Path(__file__).with_name("web_flood.py")


def version(server: LiveServer, table_id: str) -> int:
    return int(server.call(lambda: server.tables.get(table_id).version))


def window(server: LiveServer, table_id: str, probe: Live, seconds: float) -> tuple[float,
                                                                                  list[float]]:
    """Over the next ``seconds``: the table's events (moves and deals) a second, and the
    times the spectator ``probe`` waited for each pong."""
    start, then = version(server, table_id), time.monotonic()
    pings: list[float] = []
    while time.monotonic() - then < seconds:
        sent = time.monotonic()
        probe.ping()
        pings.append(time.monotonic() - sent)
        time.sleep(PING_GAP)
    return (version(server, table_id) - start) / (time.monotonic() - then), pings


def p99(values: list[float]) -> float:
    return statistics.quantiles(values, n=100)[-1]


def measure(tmp_path: Path, settings: Settings, kind: str, connections: int = 1) -> dict[str, Any]:
    app = create_app(f"sqlite:///{tmp_path / 'web.sqlite'}", bot_delay=BOT_DELAY,
                     advice_level="expert", settings=settings)
    numbers: dict[str, list[Any]] = {"quiet": [], "flooded": [], "quiet_pings": [],
                                     "flooded_pings": [], "floods": []}
    with LogWatch() as watch, running_server(app) as server:
        http = httpx.Client(base_url=server.url, trust_env=False)
        bots = http.post("/api/tables", json={
            "variant": "big-two", "seed": 1, "options": {"match_end": "deals", "deals": 1000},
            "seats": [{"kind": "bot", "bot": "greedy"}] * 4}).json()["table"]
        # The flooded table: a person's turn with a choice to make (Rummy's draw), which
        # the hint bot searches.
        flood = http.post("/api/tables", json={
            "variant": "rummy", "seed": 2,
            "seats": [{"kind": "human"}, {"kind": "bot", "bot": "greedy"}]}).json()["table"]
        token = http.post(f"/api/tables/{flood['id']}/join", json={"seat": 0}).json()["token"]
        me = Live(server, flood["id"], token)
        assert len(me.wait(lambda m: m["view"]["your_turn"])["view"]["legal"]) > 1
        if kind == "hint":
            # The hint process is started by the first hint: before the measures, as on a
            # server that has been up a while.
            me.send({"type": "hint"})
            assert me.receive_until(lambda m: m["type"] in ("hint", "error"), 60)["type"] == "hint"
        # From another address than the flood's, as on a real server.
        spectator = Live(server, bots["id"], address="127.0.0.2")
        time.sleep(0.5)  # under way
        for _ in range(ROUNDS):
            rate, pings = window(server, bots["id"], spectator, WINDOW)
            numbers["quiet"].append(rate)
            numbers["quiet_pings"] += pings
            flooder = subprocess.Popen(
                [sys.executable, str(FLOODER), kind, server.ws_url, flood["id"], token,
                 str(WINDOW + 0.5), str(connections)], stdout=subprocess.PIPE, text=True,
                preexec_fn=lambda: os.nice(19))
            assert flooder.stdout is not None
            try:
                assert flooder.stdout.readline() == "ready\n"
                rate, pings = window(server, bots["id"], spectator, WINDOW)
                numbers["flooded"].append(rate)
                numbers["flooded_pings"] += pings
                numbers["floods"].append(json.loads(flooder.stdout.readline()))
            finally:
                assert flooder.wait(30) == 0
        time.sleep(0.5)  # the flood's last connections closed, and whatever they log logged
        spectator.close()
        me.close()
        http.close()
    numbers["problems"] = watch.problems()
    return {**numbers, "ratio": sum(numbers["flooded"]) / sum(numbers["quiet"]),
            "quiet_p99": p99(numbers["quiet_pings"]),
            "flooded_p99": p99(numbers["flooded_pings"])}


def report(numbers: dict[str, Any]) -> str:
    answers: dict[str, int] = {}
    for f in numbers["floods"]:
        for key, n in f["answers"].items():
            answers[key] = answers.get(key, 0) + n
    sent = sum(f["sent"] for f in numbers["floods"])
    connections = sum(f["connections"] for f in numbers["floods"])
    return (f"quiet {[round(r, 1) for r in numbers['quiet']]} moves/s, flooded "
            f"{[round(r, 1) for r in numbers['flooded']]} moves/s (ratio "
            f"{numbers['ratio']:.2f}); spectator's ping p99 {numbers['quiet_p99'] * 1000:.1f} ms "
            f"quiet, {numbers['flooded_p99'] * 1000:.1f} ms flooded; {sent} messages sent on "
            f"{connections} connections, answered {answers}; "
            f"{len(numbers['problems'])} log lines {numbers['problems'][:3]}")


def check(numbers: dict[str, Any]) -> None:
    assert numbers["problems"] == [], report(numbers)
    assert all(f["sent"] > 50 for f in numbers["floods"]), report(numbers)
    assert numbers["ratio"] >= 0.8, report(numbers)
    assert numbers["flooded_p99"] <= 2 * max(numbers["quiet_p99"], LATENCY_FLOOR), report(numbers)


def test_a_hint_flood_leaves_another_table_its_pace(tmp_path: Path) -> None:
    """The server's own limits: one hint a decision (asked again, the same hint is sent
    again), so a flood at one decision costs one search and then the answers alone."""
    numbers = measure(tmp_path, Settings(tables_per_minute=1000, table_burst=1000), "hint")
    print(report(numbers))
    # Every ask was answered with a hint: a player's hints are never refused.
    answers = [key for f in numbers["floods"] for key in f["answers"]]
    assert not any(key.startswith("error") for key in answers), report(numbers)
    assert sum(f["answers"].get("hint", 0) for f in numbers["floods"]) >= 100, report(numbers)
    check(numbers)


def test_a_flood_before_hello_leaves_another_table_its_pace(tmp_path: Path) -> None:
    numbers = measure(tmp_path, Settings(tables_per_minute=1000, table_burst=1000), "pre-hello")
    print(report(numbers))
    # Nothing is answered before a hello: each connection is closed at its first ping.
    answers = [key for f in numbers["floods"] for key in f["answers"]]
    assert "pong" not in answers and not any(key.startswith("error") for key in answers), (
        report(numbers))
    check(numbers)


def test_a_flood_after_hello_on_many_connections_leaves_another_table_its_pace(
        tmp_path: Path) -> None:
    numbers = measure(tmp_path, Settings(tables_per_minute=1000, table_burst=1000),
                      "post-hello", connections=8)
    print(report(numbers))
    check(numbers)
