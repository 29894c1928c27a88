"""The web table's ASGI app (Starlette): the lobby over HTTP, each table over a WebSocket.

The server is the only authority over every game: clients send intentions, the table checks
them with the engine, stores them and sends every client its own view. The message format is
``docs/web/protocol.md``.

>>> from starlette.testclient import TestClient
>>> app = create_app("sqlite://", bot_delay=0)
>>> with TestClient(app) as http:
...     created = http.post("/api/tables", json={"variant": "big-two", "seed": 1}).json()
...     joined = http.post(f"/api/tables/{created['table']['id']}/join", json={"name": "Ann"})
>>> joined.json()["seat"], joined.json()["table"]["status"]
(0, 'playing')
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import logging
import math
import time
from collections import Counter
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, assert_never

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.types import Message
from starlette.websockets import WebSocket, WebSocketDisconnect

import parlour
from parlour.bots import bot_names, offered_bots
from parlour.errors import ParlourError, VariantError
from parlour.records import check_save_path
from parlour.registry import families, family_of, get_variant, variants
from parlour.summaries import summary
from parlour.tutorial import lessons, playable
from parlour.web.chat import RATE_LINES, RATE_SECONDS, REACTIONS, TEXT_LIMIT
from parlour.web.guard import Guard
from parlour.web.hub import Client
from parlour.web.limits import Pace, RateLimit, quote, shorten
from parlour.web.messages import (
    AskHint,
    AskReview,
    Back,
    BadMessage,
    ClientMessage,
    NextDeal,
    Ping,
    Play,
    React,
    Say,
    WebError,
    error,
    parse,
    parse_hello,
    pong,
    read_json,
)
from parlour.web.settings import CONNECTION_COST, DEFAULT_DATABASE, Settings
from parlour.web.store import Store
from parlour.web.tables import Table, Tables

log = logging.getLogger("parlour.web")

STATIC_DIR = Path(__file__).with_name("static")

#: Close codes: a table that does not exist, a token that holds no seat, a first message
#: that is not a hello, no hello in time.
CLOSE_UNKNOWN_TABLE = 4404
CLOSE_BAD_TOKEN = 4401
CLOSE_NOT_HELLO = 4400
CLOSE_HELLO_TIMEOUT = 4408
#: Close code for a client far over its pace of messages (a policy violation).
CLOSE_FLOOD = 1008

#: The largest request body read (bytes): the largest real one, a table's creation, is well
#: under 2 KiB.
BODY_LIMIT = 16_384
#: Lobby pages: the default and the largest number of tables in one.
PAGE_SIZE, PAGE_LIMIT = 20, 100
TABLE_STATUSES = ("waiting", "playing", "finished")

#: What the page knows of the tables' chat: its reactions and its limits.
CHAT_INFO = {"reactions": [{"name": name, "text": words} for name, words in REACTIONS.items()],
             "text_limit": TEXT_LIMIT, "lines": RATE_LINES, "seconds": RATE_SECONDS}

_PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>parlour</title>
<p>The parlour web table is running; its page is not installed. The lobby is at
<a href="/api/tables">/api/tables</a>; the protocol is in docs/web/protocol.md.</p>"""


def create_app(
    database_url: str = DEFAULT_DATABASE,
    *,
    bot_delay: float = 0.8,
    advice_level: str = "expert",
    instance: str = "t",
    records: str | Path | None = None,
    static_dir: str | Path | None = None,
    settings: Settings | None = None,
) -> Starlette:
    """The web table's app on the database at ``database_url`` (SQLite by default; a
    ``postgresql://`` URL works the same), resuming every unfinished table stored there that
    belongs to ``instance``.

    ``bot_delay`` is the pause before each bot move (0 in tests), ``advice_level`` the
    searching level that judges hints and reviews, ``instance`` this process's name
    (docs/web/hosting.md,
    "Several processes behind a proxy"),
    ``records`` a folder where each finished match is also saved as JSON. ``settings`` gives
    every other limit (:class:`~parlour.web.tables.Settings`); the arguments above override
    its fields of the same names.
    """
    store = Store(database_url)
    if records is not None:
        check_save_path(Path(records) / "check.json")  # refused now rather than at a match's end
    settings = dataclasses.replace(
        settings or Settings(), bot_delay=bot_delay, advice_level=advice_level,
        instance=instance, records=None if records is None else str(records))
    tables = Tables(store, settings)
    #: Open WebSocket connections by client address, and the pace of each address's messages.
    connections: Counter[str] = Counter()
    pace = RateLimit(settings.messages_per_second * 60, settings.message_burst)
    tables.resume()
    static = Path(static_dir) if static_dir is not None else STATIC_DIR

    @contextlib.asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        tables.start()
        try:
            yield
        finally:
            tables.close()
            store.close()

    page = static / "index.html"
    # The page, with the package's version in its footer.
    html = (page.read_text(encoding="utf-8").replace("{{version}}", parlour.__version__)
            if page.is_file() else _PLACEHOLDER)

    async def index(_request: Request) -> Response:
        return HTMLResponse(html)

    async def list_variants(_request: Request) -> Response:
        coached = set(playable())
        # The first-game tutorials the lobby offers, one a family: its lesson's words and game.
        tutorials = [{"family": family.name, "variant": lesson.variant, "title": lesson.title,
                      "intro": lesson.intro} for family, lesson in lessons()]
        return JSONResponse({"variants": [{**_variant_info(v), "tutorial": v.name in coached}
                                          for v in variants()],
                             "tutorials": tutorials,
                             "bots": bot_names(), "version": parlour.__version__,
                             "table_defaults": {"turn_timeout": settings.turn_timeout,
                                                "stand_in": settings.stand_in},
                             "chat": CHAT_INFO})

    async def list_tables(request: Request) -> Response:
        try:
            query = _lobby_query(request)
        except WebError as e:
            return _error(e)
        page, total = tables.listing(**query)
        return JSONResponse({"tables": page, "total": total, "offset": query["offset"],
                             "limit": query["limit"]})

    async def lobby(request: Request) -> Response:
        # One route for both methods: a 405 on it names them both in its Allow header.
        return await (create_table if request.method == "POST" else list_tables)(request)

    async def create_table(request: Request) -> Response:
        try:
            client = request.client.host if request.client is not None else ""
            table, owner = tables.create(await _body(request), client)
        except WebError as e:
            return _error(e)
        return JSONResponse({"table": table.info(), "owner_token": owner}, status_code=201)

    async def get_table(request: Request) -> Response:
        try:
            table = tables.get(request.path_params["table_id"])
        except WebError as e:
            return _error(e)
        return JSONResponse({"table": table.info()})

    async def join_table(request: Request) -> Response:
        try:
            table = tables.get(request.path_params["table_id"])
            body = await _body(request)
            if not isinstance(body, dict):
                raise WebError('the request must be a JSON object: {"seat": N or null, "name": …}')
            seat, token = table.join(body.get("seat"), body.get("name"), body.get("profile"))
        except WebError as e:
            return _error(e)
        return JSONResponse({"seat": seat, "token": token, "table": table.info()})

    async def rematch(request: Request) -> Response:
        try:
            table = tables.get(request.path_params["table_id"])
            client = request.client.host if request.client is not None else ""
            new, seat, token, owner = tables.rematch(table, _bearer(request), client)
        except WebError as e:
            return _error(e)
        return JSONResponse({"table": new.info(), "seat": seat, "token": token,
                             "owner_token": owner}, status_code=201 if owner else 200)

    async def hand_over_seat(request: Request) -> Response:
        try:
            table = tables.get(request.path_params["table_id"])
            body = await _body(request)
            table.hand_over(_bearer(request), request.path_params["seat"], body)
        except WebError as e:
            return _error(e)
        return JSONResponse({"table": table.info()})

    async def table_record(request: Request) -> Response:
        try:
            table = tables.get(request.path_params["table_id"])
            if not table.open:
                return JSONResponse(table.closed_record())
            token = _bearer(request)
            seat = None if token is None else table.seat_of(token)
        except WebError as e:
            return _error(e)
        return JSONResponse(table.public_record(seat))

    async def table_socket(websocket: WebSocket) -> None:
        address = websocket.client.host if websocket.client is not None else ""
        if connections[address] >= settings.connections_per_address:
            await websocket.accept()
            await websocket.send_json({"type": "error", "ref": None, "message": (
                "too many connections from your address (at most "
                f"{settings.connections_per_address})")})
            await websocket.close(CLOSE_FLOOD)
            return
        # Counted from the first byte: a connection waiting for its turn holds its place.
        connections[address] += 1
        try:
            paced = Pace(pace, address, settings.message_wait_limit)
            if not await paced.turn(min(CONNECTION_COST, settings.message_burst)):
                await websocket.close(CLOSE_FLOOD)  # before the handshake: an HTTP 403
                return
            await websocket.accept()
            try:
                table = tables.get(websocket.path_params["table_id"])
            except WebError as e:
                await websocket.send_json(error(str(e), None))
                await websocket.close(CLOSE_UNKNOWN_TABLE)
                return
            await _serve_socket(websocket, table, paced)
        finally:
            connections[address] -= 1
            if not connections[address]:
                del connections[address]

    people = tables.people
    # New profiles from one address, as new tables are: a burst, then a few a minute.
    new_profiles = RateLimit(settings.tables_per_minute, settings.table_burst)

    async def create_profile(request: Request) -> Response:
        try:
            body = await _body(request)
            if not isinstance(body, dict):
                raise WebError('the request must be a JSON object: {"name": …}')
            client = request.client.host if request.client is not None else ""
            wait = new_profiles.wait(client)
            if wait:
                raise WebError(f"too many new profiles from your address: try again in "
                               f"{math.ceil(wait)} s", 429, retry_after=wait)
            profile, key = people.create(body.get("name"))
        except WebError as e:
            return _error(e)
        return JSONResponse({"profile": {"id": profile.id, "name": profile.name}, "key": key},
                            status_code=201)

    async def my_profile(request: Request) -> Response:
        """The profile of the key in ``Authorization: Bearer``: read, renamed or deleted."""
        try:
            key = _bearer(request)
            if request.method == "DELETE":
                tables.forget(people.delete(key))
                return JSONResponse({"deleted": True})
            if request.method == "PATCH":
                body = await _body(request)
                if not isinstance(body, dict):
                    raise WebError('the request must be a JSON object: {"name": …}')
                profile = people.rename(key, body.get("name"))
            else:
                profile = people.holder(key)
        except WebError as e:
            return _error(e)
        return JSONResponse({"profile": {"id": profile.id, "name": profile.name}})

    async def profile_page(request: Request) -> Response:
        try:
            return JSONResponse(people.page(request.path_params["profile_id"]))
        except WebError as e:
            return _error(e)

    async def leaderboard(request: Request) -> Response:
        try:
            variant = request.path_params["variant"]
            get_variant(variant)
        except VariantError as e:
            return _error(WebError(str(e), 404))
        return JSONResponse(people.leaderboard(variant))

    async def replay(request: Request) -> Response:
        """A deal of a finished match, for a person who played it (Bearer: their profile's
        key); ``POST …/review``: the review of their decisions in it."""
        try:
            table_id, deal = request.path_params["table_id"], request.path_params["deal"]
            if request.method == "POST":
                return JSONResponse(await tables.replay_review(table_id, _bearer(request), deal))
            return JSONResponse(tables.replay(table_id, _bearer(request), deal))
        except WebError as e:
            return _error(e)
        except ParlourError as e:
            return _error(WebError(shorten(str(e))))

    api = [
        Route("/variants", list_variants, methods=["GET"]),
        Route("/profiles", create_profile, methods=["POST"]),
        Route("/profiles/me", my_profile, methods=["GET", "PATCH", "DELETE"]),
        Route("/profiles/{profile_id}", profile_page, methods=["GET"]),
        Route("/leaderboard/{variant}", leaderboard, methods=["GET"]),
        Route("/tables", lobby, methods=["GET", "POST"]),
        Route("/tables/{table_id}", get_table, methods=["GET"]),
        Route("/tables/{table_id}/join", join_table, methods=["POST"]),
        Route("/tables/{table_id}/rematch", rematch, methods=["POST"]),
        Route("/tables/{table_id}/seats/{seat:int}", hand_over_seat, methods=["POST"]),
        Route("/tables/{table_id}/record", table_record, methods=["GET"]),
        Route("/tables/{table_id}/replay/{deal:int}", replay, methods=["GET"]),
        Route("/tables/{table_id}/replay/{deal:int}/review", replay, methods=["POST"]),
    ]
    def felt_of(request: Request) -> Path:
        """The felt module of the family the path names; 404 for any other name."""
        found = next((f.felt for f in families()
                      if f.name == request.path_params["family"] and f.felt is not None), None)
        if found is None or not found.is_file():
            raise HTTPException(404)
        return found

    async def felt(request: Request) -> Response:
        """A family's felt module (its record's ``felt``), for the page to import."""
        return FileResponse(felt_of(request), media_type="text/javascript")

    async def felt_style(request: Request) -> Response:
        """The style sheet beside a family's felt module (``felt.css``): empty where the felt
        has no styles of its own."""
        style = felt_of(request).with_suffix(".css")
        if not style.is_file():
            return Response("", media_type="text/css")
        return FileResponse(style, media_type="text/css")

    routes = [
        Route("/", index),
        Route("/index.html", index),
        # One mount for the API: a path of it with a method it does not take is answered
        # 405 there, instead of falling through to the static files' 404.
        Mount("/api", routes=api),
        WebSocketRoute("/ws/{table_id}", table_socket),
        # Each family's felt module and style sheet live in the family's folder, not among
        # the page's files.
        Route("/static/felts/{family}.js", felt, methods=["GET"]),
        Route("/static/felts/{family}.css", felt_style, methods=["GET"]),
        Mount("/static", StaticFiles(directory=static, check_dir=False), name="static"),
        Mount("/", StaticFiles(directory=static, html=True, check_dir=False), name="root"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan,
                    exception_handlers={HTTPException: _http_error},
                    middleware=[Middleware(Guard, allowed_origins=settings.allowed_origins)])
    app.state.tables = tables
    app.state.store = store
    return app


def _variant_info(variant: Any) -> dict[str, Any]:
    return {
        "name": variant.name, "description": variant.description,
        "family": family_of(variant).to_dict(),
        "rules": summary(variant.name), "players": list(variant.players),
        "default_players": variant.default_players,
        "match_end": variant.make().match_end_text(),
        "bots": offered_bots(variant.name),
        # learned has networks for some numbers of players only (Rummy's 2 and 4)
        "bots_by_players": {str(n): offered_bots(variant.name, n) for n in variant.players},
        # Each option by its keyword (what the API takes) and in words (what the page shows),
        # with the other options' values under which it applies ({} for always).
        "options": [{"name": o.name, "label": o.label, "default": o.default, "help": o.help,
                     "choices": None if o.choices is None else list(o.choices),
                     "choice_labels": None if o.choices is None
                     else [o.value_words(c) for c in o.choices],
                     "min": o.min, "max": o.max,
                     "applies_when": {name: list(values) for name, values in o.applies_when}}
                    for o in variant.option_info()],
    }


def _lobby_query(request: Request) -> dict[str, Any]:
    """The lobby's filters and page from the query string; :class:`WebError` if malformed."""
    params = request.query_params
    unknown = set(params) - {"variant", "status", "offset", "limit"}
    if unknown:
        raise WebError(f"unknown parameter(s): {shorten(', '.join(sorted(unknown)), 80)}; the lobby "
                       "takes variant, status, offset and limit")
    status = params.get("status")
    if status is not None and status not in TABLE_STATUSES:
        raise WebError(f"status is one of {', '.join(TABLE_STATUSES)}, not {quote(status)}")
    variant = params.get("variant")
    if variant is not None and variant not in {v.name for v in variants()}:
        raise WebError(f"unknown variant {quote(variant)}")
    numbers = {}
    for name, default, low, high in (("offset", 0, 0, 10**9), ("limit", PAGE_SIZE, 1, PAGE_LIMIT)):
        text = params.get(name, str(default))
        if not (len(text) <= 10 and text.isascii() and text.isdigit() and low <= int(text) <= high):
            raise WebError(f"{name} is a whole number from {low} to {high}, not {quote(text)}")
        numbers[name] = int(text)
    return {"variant": variant, "status": status, **numbers}


def _bearer(request: Request) -> str | None:
    """The token of an ``Authorization: Bearer TOKEN`` header, if there is one."""
    header = request.headers.get("authorization")
    if header is None:
        return None
    scheme, _, token = header.partition(" ")
    if scheme.lower() != "bearer" or not token.strip():
        raise WebError("the Authorization header is 'Bearer TOKEN'", 401)
    return token.strip()


async def _body(request: Request) -> Any:
    """The request's JSON body (``{}`` if empty); :class:`WebError` for one too large, not
    sent as JSON (``Content-Type: application/json``: a page of another site cannot send that
    without asking first), malformed or too deeply nested (``json`` recurses once per level)."""
    kind = request.headers.get("content-type", "").partition(";")[0].strip().lower()
    chunks, size = [], 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > BODY_LIMIT:
            raise WebError(f"the request body is larger than {BODY_LIMIT} bytes", 413)
        chunks.append(chunk)
    body = b"".join(chunks)
    if body and kind != "application/json":
        raise WebError("the request body is JSON, sent with Content-Type: application/json", 415)
    return read_json(body or b"{}", "the request body")


def _error(error: WebError) -> Response:
    headers = ({} if error.retry_after is None
               else {"Retry-After": str(max(1, round(error.retry_after)))})
    return JSONResponse({"error": str(error)}, status_code=error.status, headers=headers)


async def _http_error(_request: Request, exc: Exception) -> Response:
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": exc.detail}, status_code=exc.status_code, headers=exc.headers)


# -- the WebSocket of one client -----------------------------------------------------------------


def _text(received: Message) -> str:
    """A received WebSocket message's text (a binary one read as UTF-8)."""
    raw = received.get("text")
    if raw is None:
        raw = (received.get("bytes") or b"").decode("utf-8", "replace")
    return str(raw)


async def _receive(websocket: WebSocket, paced: Pace) -> Message | None:
    """The client's next message once it is its turn of ``paced``; ``None`` once the client
    is gone, or when it is that far over its pace (the socket is then closed).

    The turn is taken for a message that has come, not before: a quiet connection waits for
    nothing, so one connection flooding does not use up the patience of another at its
    address."""
    received = await websocket.receive()
    if received["type"] == "websocket.disconnect":
        return None
    if not await paced.turn():
        with contextlib.suppress(Exception):  # unless it is gone already
            await websocket.close(CLOSE_FLOOD, "too many messages")
        return None
    return received


async def _serve_socket(websocket: WebSocket, table: Table, paced: Pace) -> None:
    """Wait for ``hello``, then serve the client's messages, each at its turn of ``paced``,
    until it leaves."""
    settings = table.tables.settings
    try:
        async with asyncio.timeout(settings.hello_timeout):
            seat = await _hello(websocket, table, paced)
    except TimeoutError:
        with contextlib.suppress(Exception):  # unless it is gone already
            await websocket.close(CLOSE_HELLO_TIMEOUT,
                                  f"no hello in {settings.hello_timeout:g} s")
        return
    except WebSocketDisconnect:
        return
    if seat is False:
        return
    client = Client(None if seat is None else int(seat))
    writer = asyncio.create_task(_write(websocket, client))
    table.connect(client)
    table.schedule()
    try:
        while not writer.done():  # (done: a send failed, the client is gone)
            received = await _receive(websocket, paced)  # no faster than its pace
            if received is None:
                break
            ref: object = None
            try:
                message = parse(_text(received))
                ref = message.ref
                await _handle(table, client, message)
            except WebError as e:
                client.send(error(str(e), e.ref if isinstance(e, BadMessage) else ref))
            # Let the other tasks (other tables, this client's writer) have their turn: the
            # messages already read are handed over without a wait, and one client sending
            # as fast as it can would otherwise hold the loop for a whole buffer of them.
            await asyncio.sleep(0)
    except WebSocketDisconnect:
        pass
    finally:
        table.disconnect(client)
        # Let what was queued go out before the writer stops (it fails quietly if the socket
        # is already closed).
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(client.outbox.join(), 0.5)
        writer.cancel()


async def _hello(websocket: WebSocket, table: Table, paced: Pace) -> int | bool | None:
    """The seat the client says hello for (``None``: a spectator); ``False`` if refused, and
    the socket closed: a first message that is not a valid hello closes it (4400) without
    an answer, so that a client that never says hello costs the server one message."""
    received = await _receive(websocket, paced)
    if received is None:
        return False
    try:
        hello = parse_hello(_text(received))
    except WebError as e:
        await websocket.close(CLOSE_NOT_HELLO, _close_reason(str(e)))
        return False
    if hello.spectator:
        return None
    try:
        return table.seat_of(hello.token)
    except WebError as e:
        await websocket.send_json(error(str(e), hello.ref))
        await websocket.close(CLOSE_BAD_TOKEN)
        return False


def _close_reason(text: str) -> str:
    """``text`` cut to what a close frame carries: 123 bytes of UTF-8."""
    while len(text.encode()) > 123:
        text = shorten(text, len(text) - 1)
    return text


async def _write(websocket: WebSocket, client: Client) -> None:
    while True:
        text = await client.outbox.get()
        try:
            await websocket.send_text(text)
        except Exception:  # the client is gone: its reader ends the connection
            return
        finally:
            client.outbox.task_done()


async def _handle(table: Table, client: Client, message: ClientMessage) -> None:
    table.touched = time.monotonic()
    match message:
        case Play():
            table.act(client, message)
        case NextDeal():
            table.next_deal(client, message)
        case AskHint():
            table.hint(client, message)  # the search runs on while the next messages are read
        case AskReview():
            table.review(client, message)  # as a hint: worked out while the next are read
        case Back():
            table.come_back(client, message)
        case Ping():
            client.send(pong(message.ref))
        case Say():
            table.say(client, message)
        case React():
            table.react(client, message)
        case _:
            assert_never(message)
