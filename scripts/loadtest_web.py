"""Load test of the web table (a script, not a unit test).

Starts ``parlour serve`` (uvicorn) on a free port of 127.0.0.1 with a fresh SQLite database
(or the one named by the environment variable ``LOAD_DB``), opens N tables at once — one seat
played by a remote client over the WebSocket protocol, the others by the server's greedy bots,
variants taken in turn — and plays them for a fixed time. A client takes a legal action from
each update where it is to move (after ``--think`` seconds), deals on after each deal, and
opens a new table when a match ends. It stops by itself after ``--seconds`` and prints:

- actions/s: every action the server applied at those tables (bots' and clients'), counted
  at the end from each table's record (the deals played, and the steps of the one in
  progress);
- p50/p99 action latency: from a client sending its action to it receiving the update that
  shows it applied (a round trip through the server: parse, check, store, broadcast).

Every client connects from an address of its own on the loopback network (127.0.1.1,
127.0.1.2 …; the spectators from 127.1.x.x, the floods from 127.2.x.x), as clients of a real
server come from their own machines: each has its own share of the server's per-address
limits (its pace of messages, its connections, its tables).

The server is the ``parlour`` package this script imports (its folder goes first on the
server's ``PYTHONPATH``), started with the flags it prints: the bot pace, the hint bot, and
room for the test's tables (``--max-tables`` N, and the flood's). A 429 for a new table is
retried after its ``Retry-After`` and counted.

``--flood KIND`` adds a flood, from a process of its own; the N tables' figures are the same
as without it, so the two runs compare:

- ``hints``: one more client, at one more table (``--flood-variant``, its other seats greedy
  bots), never plays, and once it is to move asks for hints as fast as the server answers,
  with ``--flood-window`` requests in flight at all times (each answer, hint or refusal, sends
  the next one). It reports the hints answered (worked out by the server's judge,
  ``--advice-level``, by default ``expert``: a real search), each kind of refusal, and the
  messages it sent a second.
  ``--flood-tables K`` floods from one seat at each of K more tables, each from an address
  of its own (the per-seat limits then add up, and the server-wide cap on hints in flight is
  reached).
- ``before-hello``: ``--flood-connections`` connections from one address to the first table
  of the lobby (anyone can read its id) send pings as fast as they can without ever saying
  hello, each opened again whenever the server closes it.
- ``after-hello``: the same, each connection saying hello as a spectator first.

    .venv/bin/python scripts/loadtest_web.py --tables 200 --seconds 60 --bot-delay 0.8 --think 1.5
    .venv/bin/python scripts/loadtest_web.py --tables 200 --seconds 60 --bot-delay 0.8 --think 1.5 \\
        --flood hints
    .venv/bin/python scripts/loadtest_web.py --tables 50 --seconds 60 --bot-delay 0.8 --think 1.5 \\
        --flood hints [--flood-window 64] [--flood-tables 12]
    .venv/bin/python scripts/loadtest_web.py --tables 60 --seconds 60 --bot-delay 0.8 --think 1.5 \\
        --flood before-hello [--flood-connections 8]

The clients pick uniformly among the legal actions (``--bot greedy`` plays the greedy bot on
the observation rebuilt with ``parlour.client.observation_from_dict``, which costs the load
generator more CPU: it shares the machine with the server).
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import http.client
import json
import os
import random
import re
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from multiprocessing import get_context
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import websockets

import parlour
from parlour.bots import make_bot
from parlour.client import observation_from_dict

VARIANTS = [v.name for v in parlour.registry.variants()]


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def address(group: int, n: int) -> str:
    """The loopback address of client ``n`` of ``group`` (0: players, 1: spectators, 2: the
    floods): 127.0.1.1, 127.0.1.2 … for the players."""
    return f"127.{group}.{1 + n // 250}.{1 + n % 250}"


class Refused(Exception):
    """An HTTP answer with an error status."""

    def __init__(self, status: int, retry_after: str | None, text: str) -> None:
        super().__init__(f"{status}: {text}")
        self.status = status
        self.retry_after = retry_after


def call(method: str, url: str, body: dict[str, Any] | None = None,
         source: str | None = None) -> dict[str, Any]:
    """An HTTP request from the loopback address ``source`` (default the system's choice)."""
    parts = urlsplit(url)
    connection = http.client.HTTPConnection(
        parts.hostname or "127.0.0.1", parts.port, timeout=60,
        source_address=None if source is None else (source, 0))
    try:
        connection.request(method, parts.path + (f"?{parts.query}" if parts.query else ""),
                           body=None if body is None else json.dumps(body).encode(),
                           headers={"Content-Type": "application/json"})
        answer = connection.getresponse()
        raw = answer.read()
        if answer.status >= 400:
            raise Refused(answer.status, answer.getheader("Retry-After"),
                          raw.decode(errors="replace"))
        result: dict[str, Any] = json.loads(raw)
        return result
    finally:
        connection.close()


async def acall(method: str, url: str, body: dict[str, Any] | None = None,
                source: str | None = None) -> dict[str, Any]:
    return await asyncio.to_thread(call, method, url, body, source)


def ws_connect(uri: str, source: str, **kwargs: Any) -> Any:
    """A WebSocket connection from the loopback address ``source``."""
    return websockets.connect(uri, max_size=None, open_timeout=60, local_addr=(source, 0),
                              **kwargs)


class Stats:
    def __init__(self) -> None:
        self.latencies: list[float] = []
        self.tables: list[str] = []
        self.errors: list[str] = []
        self.updates = 0
        #: Table creations refused with 429 (and tried again after Retry-After).
        self.refused_creations = 0
        #: When the last client left (``time.monotonic``).
        self.finished = 0.0


async def new_table(base: str, body: dict[str, Any], stats: Stats, stop: float,
                    name: str, source: str) -> tuple[dict[str, Any], str] | None:
    """Create a table and take its seat 0, from the address ``source``: the table and the
    seat's token (``None`` if the time ran out while the server said to wait)."""
    while True:
        try:
            table = (await acall("POST", f"{base}/api/tables", body, source))["table"]
            break
        except Refused as e:
            if e.status != 429:
                raise
            stats.refused_creations += 1
            wait = float(e.retry_after or 1)
            if time.monotonic() + wait >= stop:
                return None
            await asyncio.sleep(wait)
    token = (await acall("POST", f"{base}/api/tables/{table['id']}/join",
                         {"seat": 0, "name": name}, source))["token"]
    return table, token


def table_body(variant: str, seed: int) -> dict[str, Any]:
    info = parlour.registry.get_variant(variant)
    seats = [{"kind": "human"}] + [{"kind": "bot", "bot": "greedy"}] * (info.default_players - 1)
    return {"variant": variant, "seats": seats, "seed": seed}


async def player(base: str, n: int, args: argparse.Namespace, stats: Stats, stop: float) -> None:
    """One remote seat: a table after another until the time is up."""
    rng = random.Random(n)
    bot = make_bot(args.bot) if args.bot != "random" else None
    round_ = 0
    while time.monotonic() < stop:
        variant = VARIANTS[(n + round_) % len(VARIANTS)]
        round_ += 1
        made = await new_table(base, table_body(variant, n * 1000 + round_), stats, stop,
                               f"load{n}", address(0, n))
        if made is None:
            return
        table, token = made
        stats.tables.append(table["id"])
        game = parlour.new_game(variant, players=table["players"], **table["options"])
        uri = base.replace("http://", "ws://") + f"/ws/{table['id']}"
        async with ws_connect(uri, address(0, n)) as ws:
            await ws.send(json.dumps({"type": "hello", "token": token}))
            sent_at: float | None = None
            sent_version = -1
            acted: tuple[int, int] | None = None
            while time.monotonic() < stop:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
                except TimeoutError:
                    break
                message = json.loads(raw)
                kind = message["type"]
                if kind == "error":
                    if message.get("ref") != "deal":
                        stats.errors.append(message["message"])
                    continue
                if kind != "update":
                    continue
                stats.updates += 1
                if sent_at is not None and message["version"] > sent_version:
                    stats.latencies.append(time.perf_counter() - sent_at)
                    sent_at = None
                view = message["view"]
                result = view["result"]
                if result is not None and result["match_over"]:
                    break
                if view["deal_over"]:
                    await ws.send(json.dumps({"type": "next_deal", "token": token, "ref": "deal"}))
                    continue
                position = (view["deal"], view["step"])
                if not view["your_turn"] or position == acted:
                    continue
                acted = position
                if args.think:
                    await asyncio.sleep(args.think * rng.uniform(0.5, 1.5))
                if bot is None:
                    action = rng.choice(view["legal"])["action"]
                else:
                    obs = observation_from_dict(game, view["observation"])
                    state = game.new_deal(seed=0)
                    legal = [state.parse_action(e["action"]) for e in view["legal"]]
                    action = str(bot.choose(obs, legal, rng))
                sent_version = message["version"]
                sent_at = time.perf_counter()
                await ws.send(json.dumps({"type": "action", "token": token, "action": action}))


async def spectator(base: str, table_id: str, stop: float, stats: Stats, n: int) -> None:
    uri = base.replace("http://", "ws://") + f"/ws/{table_id}"
    async with ws_connect(uri, address(1, n)) as ws:
        await ws.send(json.dumps({"type": "hello", "token": None}))
        while time.monotonic() < stop:
            try:
                await asyncio.wait_for(ws.recv(), timeout=max(0.1, stop - time.monotonic()))
            except TimeoutError:
                break
            stats.updates += 1


# -- the floods ----------------------------------------------------------------------------------


def flood_process(kind: str, base: str, args: argparse.Namespace, stop: float) -> dict[str, Any]:
    """Run the flood ``kind`` in this (separate) process until ``stop`` (``time.monotonic``,
    which is the same clock in every process on Linux): its counts, and the CPU it took."""
    if kind == "hints":
        report = asyncio.run(hint_floods(base, args.flood_variant, args.flood_window, stop,
                                         args.flood_tables))
    else:
        report = asyncio.run(ping_flood(base, kind == "after-hello", args.flood_connections,
                                        stop))
    report["cpu"] = time.process_time()
    return report


async def hint_floods(base: str, variant: str, window: int, stop: float,
                      tables: int) -> dict[str, Any]:
    """:func:`flood` at ``tables`` tables, their counts together."""
    reports = await asyncio.gather(*(flood(base, variant, window, stop, 7 + n, address(2, n))
                                     for n in range(tables)))
    report = reports[0]
    for other in reports[1:]:
        report["answers"].update(other["answers"])
        for key in ("hint_times", "other_errors"):
            report[key] += other[key]
        for key in ("sent", "refused_creations"):
            report[key] += other[key]
        for key in ("flooding", "closing"):
            report[key] = max(report[key], other[key])
    return report


async def ping_flood(base: str, hello: bool, connections: int, stop: float) -> dict[str, Any]:
    """``connections`` connections from one address to the lobby's first table, each sending
    pings as fast as it can (after a spectator's hello if ``hello``), opened again whenever
    the server closes it or refuses it."""
    source = address(2, 0)
    while True:
        lobby = await acall("GET", f"{base}/api/tables", source=source)
        if lobby["tables"] or time.monotonic() >= stop:
            break
        await asyncio.sleep(0.2)
    answers: collections.Counter[str] = collections.Counter()
    report: dict[str, Any] = {"answers": answers, "sent": 0, "connections": 0,
                              "flooding": 0.0, "closing": 0.0}
    if not lobby["tables"]:
        return report
    uri = base.replace("http://", "ws://") + f"/ws/{lobby['tables'][0]['id']}"
    ping = json.dumps({"type": "ping", "ref": 1})
    started = time.monotonic()

    async def read(ws: Any) -> None:
        async for raw in ws:
            answers[json.loads(raw)["type"]] += 1

    async def one() -> None:
        while time.monotonic() < stop:
            try:
                async with ws_connect(uri, source, max_queue=None) as ws:
                    report["connections"] += 1
                    reader = asyncio.get_running_loop().create_task(read(ws))
                    try:
                        if hello:
                            await ws.send(json.dumps({"type": "hello", "token": None}))
                        while time.monotonic() < stop:
                            await ws.send(ping)
                            report["sent"] += 1
                    finally:
                        reader.cancel()
            except websockets.ConnectionClosed as closed:
                code = closed.rcvd.code if closed.rcvd else "?"
                answers[f"connection closed by the server ({code})"] += 1
            except (websockets.InvalidStatus, OSError) as e:
                answers[f"connection refused ({e.__class__.__name__})"] += 1
                await asyncio.sleep(0.01)

    await asyncio.gather(*(one() for _ in range(connections)))
    report["flooding"] = time.monotonic() - started
    return report


async def flood(base: str, variant: str, window: int, stop: float, seed: int,
                source: str) -> dict[str, Any]:
    """One seat that never plays and asks for hints as fast as the server answers, from the
    address ``source``."""
    stats = Stats()
    made = await new_table(base, table_body(variant, seed), stats, stop, "flood", source)
    answers: collections.Counter[str] = collections.Counter()
    hint_times: list[float] = []
    report: dict[str, Any] = {"answers": answers, "hint_times": hint_times, "sent": 0,
                              "flooding": 0.0, "closing": 0.0, "other_errors": [],
                              "refused_creations": stats.refused_creations}
    if made is None:
        return report
    table, token = made
    uri = base.replace("http://", "ws://") + f"/ws/{table['id']}"
    sent_at: dict[int, float] = {}
    started: float | None = None
    # The answers still to come when the time is up are left unread: an unbounded queue lets
    # the closing handshake through behind them. A connection the server closes for flooding
    # (1008) is counted and opened again, so the flood lasts the whole run.
    left = time.monotonic()
    while time.monotonic() < stop:
        sent_at.clear()
        try:
            async with ws_connect(uri, source, max_queue=None) as ws:
                await ws.send(json.dumps({"type": "hello", "token": token}))

                async def ask() -> None:
                    while len(sent_at) < window and time.monotonic() < stop:
                        n = report["sent"]
                        report["sent"] += 1
                        sent_at[n] = time.perf_counter()
                        await ws.send(json.dumps({"type": "hint", "token": token, "ref": n}))

                while time.monotonic() < stop:
                    try:
                        raw = await asyncio.wait_for(
                            ws.recv(), timeout=max(0.1, stop - time.monotonic()))
                    except TimeoutError:
                        break
                    message = json.loads(raw)
                    kind = message["type"]
                    ref = message.get("ref")
                    if kind == "update":
                        view = message["view"]
                        if view["deal_over"]:
                            await ws.send(json.dumps({"type": "next_deal", "token": token,
                                                      "ref": "deal"}))
                        elif view["your_turn"] and not sent_at:
                            started = time.monotonic() if started is None else started
                            await ask()
                        continue
                    if kind not in ("hint", "error") or ref == "deal":
                        continue
                    if not isinstance(ref, int) or ref not in sent_at:
                        report["other_errors"].append(message.get("message"))
                        continue
                    asked = sent_at.pop(ref)
                    if kind == "hint":
                        answers["hint"] += 1
                        hint_times.append(time.perf_counter() - asked)
                    else:
                        answers[re.sub(r"\d+", "N", message["message"])] += 1
                    await ask()
                left = time.monotonic()
        except websockets.ConnectionClosed as closed:
            answers[f"connection closed by the server ({closed.rcvd.code if closed.rcvd else '?'})"] += 1
            left = time.monotonic()
    if started is not None:
        report["flooding"] = left - started
    report["closing"] = time.monotonic() - left
    return report


# -- the run -------------------------------------------------------------------------------------


async def run(base: str, args: argparse.Namespace) -> tuple[Stats, dict[str, Any] | None]:
    stats = Stats()
    stop = time.monotonic() + args.seconds
    flooding: asyncio.Future[dict[str, Any]] | None = None
    pool = None
    if args.flood is not None:
        pool = ProcessPoolExecutor(1, mp_context=get_context("spawn"))
        flooding = asyncio.get_running_loop().run_in_executor(
            pool, flood_process, args.flood, base, args, stop)
    players = [asyncio.create_task(player(base, n, args, stats, stop)) for n in range(args.tables)]
    watchers: list[asyncio.Task[None]] = []
    if args.spectators:
        await asyncio.sleep(min(5.0, args.seconds / 4))
        for n, table_id in enumerate(stats.tables[: args.tables]):
            watchers += [asyncio.create_task(spectator(base, table_id, stop, stats,
                                                       n * args.spectators + k))
                         for k in range(args.spectators)]
    results = await asyncio.gather(*players, *watchers, return_exceptions=True)
    stats.finished = time.monotonic()
    stats.errors += [repr(r) for r in results if isinstance(r, BaseException)]
    report = None
    if flooding is not None and pool is not None:
        try:
            report = await asyncio.wait_for(flooding, timeout=60)
        except Exception as e:  # reported with the other errors
            stats.errors.append(f"{args.flood} flood: {e!r}")
        pool.shutdown(wait=False, cancel_futures=True)
    return stats, report


def actions_of(record: dict[str, Any]) -> int:
    """The actions applied at a table, from its record: a finished match's lists every
    deal's; a match in progress lists the deals played and shows the current one's step."""
    done = sum(len(deal["actions"]) for deal in record["deals"])
    current = record.get("current")
    return done + (int(current["step"]) if current else 0)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=200, help="concurrent tables (default 200)")
    parser.add_argument("--seconds", type=float, default=60, help="how long to play (default 60)")
    parser.add_argument("--bot-delay", type=float, default=0.8,
                        help="the server's pause before each bot move (default 0.8 s, the "
                             "server's)")
    parser.add_argument("--think", type=float, default=0.3,
                        help="mean pause of a client before its move (default 0.3 s)")
    parser.add_argument("--bot", default="random", help="the clients' choice: random or a bot name")
    parser.add_argument("--spectators", type=int, default=0, help="spectators per table")
    parser.add_argument("--flood", choices=("hints", "before-hello", "after-hello"),
                        default=None, help="a flood beside the tables (above)")
    parser.add_argument("--flood-connections", type=int, default=8,
                        help="connections of a ping flood (default 8)")
    parser.add_argument("--flood-window", type=int, default=8,
                        help="hint requests the flood keeps in flight (default 8)")
    parser.add_argument("--flood-tables", type=int, default=1,
                        help="tables the flood asks at, one seat each (default 1)")
    parser.add_argument("--flood-variant", default="big-two", choices=VARIANTS,
                        help="the flood's table (default big-two)")
    parser.add_argument("--advice-level", default="expert",
                        help="the server's judge of hints (default expert)")
    parser.add_argument("--tables-per-minute", type=float, default=None,
                        help="the server's creation rate per address (default the server's)")
    args = parser.parse_args()

    port = free_port()
    base = f"http://127.0.0.1:{port}"
    room = args.tables + (args.flood_tables if args.flood == "hints" else 0)
    src = str(Path(parlour.__file__).resolve().parent.parent)
    env = {**os.environ,
           "PYTHONPATH": os.pathsep.join([src, *filter(None, [os.environ.get("PYTHONPATH")])])}
    with tempfile.TemporaryDirectory() as tmp:
        database = os.environ.get("LOAD_DB", f"sqlite:///{tmp}/load.sqlite")
        flags = ["--port", str(port), "--database", database, "--bot-delay", str(args.bot_delay),
                 "--advice-level", args.advice_level, "--max-tables", str(room)]
        if args.tables_per_minute is not None:
            flags += ["--tables-per-minute", f"{args.tables_per_minute:g}"]
        print(f"server: parlour serve {' '.join(flags)} (parlour from {src})", flush=True)
        log_path = Path(tmp) / "server.log"
        with open(log_path, "w") as server_log:
            server = subprocess.Popen([sys.executable, "-m", "parlour", "serve", *flags],
                                      stdout=subprocess.DEVNULL, stderr=server_log, env=env)
        try:
            deadline = time.monotonic() + 30
            while True:
                try:
                    call("GET", f"{base}/api/variants")
                    break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        raise SystemExit("the server did not start") from None
                    time.sleep(0.1)
            started = time.monotonic()
            cpu_before = _cpu(server.pid)
            stats, flood_report = asyncio.run(run(base, args))
            elapsed = stats.finished - started
            cpu = _cpu(server.pid) - cpu_before
            actions = sum(actions_of(call("GET", f"{base}/api/tables/{table_id}/record"))
                          for table_id in stats.tables)
        finally:
            server.send_signal(signal.SIGINT)
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()
            server_lines = log_path.read_text(errors="replace").splitlines()
    lat = sorted(stats.latencies)
    p50 = statistics.median(lat) * 1000 if lat else float("nan")
    p99 = lat[min(len(lat) - 1, int(0.99 * len(lat)))] * 1000 if lat else float("nan")
    print(f"tables: {args.tables} concurrent ({len(stats.tables)} played), "
          f"{args.seconds:.0f} s, bot delay {args.bot_delay} s, client think {args.think} s, "
          f"{args.spectators} spectator(s) per table"
          + (f", flooded: {args.flood}" if args.flood else ""))
    print(f"actions applied: {actions} = {actions / elapsed:.0f} actions/s; "
          f"updates received: {stats.updates} = {stats.updates / elapsed:.0f}/s")
    print(f"client action latency: n={len(lat)}, p50 {p50:.1f} ms, p99 {p99:.1f} ms, "
          f"max {lat[-1] * 1000 if lat else float('nan'):.1f} ms")
    if stats.refused_creations:
        print(f"table creations refused (429, tried again): {stats.refused_creations}")
    flood_cpu = 0.0
    if flood_report is not None:
        flood_cpu = flood_report["cpu"]
        answers = flood_report["answers"]
        spell = flood_report["flooding"]
        if args.flood == "hints":
            times = sorted(flood_report["hint_times"])
            print(f"hint flood: {flood_report['sent']} hint requests in {spell:.1f} s "
                  f"({flood_report['sent'] / spell if spell else 0:.0f}/s), "
                  f"{args.flood_window} in flight at each of {args.flood_tables} table(s); "
                  "answers:")
        else:
            print(f"{args.flood} flood: {flood_report['sent']} pings sent in {spell:.1f} s "
                  f"({flood_report['sent'] / spell if spell else 0:.0f}/s) on "
                  f"{flood_report['connections']} connections ({args.flood_connections} at "
                  "once); answers:")
        for kind, count in answers.most_common():
            print(f"  {count:8d}  {kind}")
        if args.flood == "hints":
            if times:
                print(f"  hint answered in p50 {statistics.median(times) * 1000:.0f} ms, "
                      f"max {times[-1] * 1000:.0f} ms")
            print(f"  its connection(s) closed in {flood_report['closing']:.1f} s")
            if flood_report["refused_creations"]:
                print(f"  its table creations refused {flood_report['refused_creations']} "
                      "time(s)")
            if flood_report["other_errors"]:
                stats.errors += [f"hint flood: {e}" for e in flood_report["other_errors"]]
    own = _cpu(os.getpid())
    print(f"server CPU: {cpu:.1f} s in {elapsed:.1f} s ({100 * cpu / elapsed:.0f}% of one core); "
          f"load generator CPU: {own:.1f} s (+{flood_cpu:.1f} s the flood's); load average "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    if server_lines:
        print(f"server log: {len(server_lines)} line(s), the last: {server_lines[-3:]}")
    if stats.errors:
        print(f"errors: {len(stats.errors)}, e.g. {stats.errors[:3]}")
    return 0 if not stats.errors else 1


def _cpu(pid: int) -> float:
    """User and system CPU seconds of process ``pid`` so far (Linux)."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            fields = f.read().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        return float("nan")


if __name__ == "__main__":
    raise SystemExit(main())
