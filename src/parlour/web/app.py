"""The web table's ASGI app (Starlette): the lobby over HTTP, each table over a WebSocket.

The server is the only authority over every game: clients send intentions, the table checks
them with the engine, stores them and sends every client its own view. The message format is
``docs/web-protocol.md``.

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
import json
import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import FileResponse, HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route, WebSocketRoute
from starlette.staticfiles import StaticFiles
from starlette.websockets import WebSocket, WebSocketDisconnect

from parlour.bots import bot_names
from parlour.records import check_save_path
from parlour.registry import variants
from parlour.summaries import summary
from parlour.web import DEFAULT_DATABASE
from parlour.web.store import Store
from parlour.web.tables import Client, Settings, Table, Tables, WebError

log = logging.getLogger("parlour.web")

STATIC_DIR = Path(__file__).with_name("static")

#: Close codes: a table that does not exist, a token that holds no seat.
CLOSE_UNKNOWN_TABLE = 4404
CLOSE_BAD_TOKEN = 4401

_PLACEHOLDER = """<!doctype html><meta charset="utf-8"><title>parlour</title>
<p>The parlour web table is running; its page is not installed. The lobby is at
<a href="/api/tables">/api/tables</a>; the protocol is in docs/web-protocol.md.</p>"""


def create_app(
    database_url: str = DEFAULT_DATABASE,
    *,
    bot_delay: float = 0.8,
    hint_bot: str = "hard",
    instance: str = "t",
    records: str | Path | None = None,
    static_dir: str | Path | None = None,
) -> Starlette:
    """The web table's app on the database at ``database_url`` (SQLite by default; a
    ``postgresql://`` URL works the same), resuming every unfinished table stored there that
    belongs to ``instance``.

    ``bot_delay`` is the pause before each bot move (0 in tests), ``hint_bot`` the bot that
    answers hints, ``instance`` this process's name (see the README on several processes),
    ``records`` a folder where each finished match is also saved as JSON.
    """
    store = Store(database_url)
    if records is not None:
        check_save_path(Path(records) / "check.json")  # refused now rather than at a match's end
    tables = Tables(store, Settings(bot_delay=bot_delay, hint_bot=hint_bot, instance=instance,
                                    records=None if records is None else str(records)))
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

    async def index(_request: Request) -> Response:
        page = static / "index.html"
        return FileResponse(page) if page.is_file() else HTMLResponse(_PLACEHOLDER)

    async def list_variants(_request: Request) -> Response:
        return JSONResponse({"variants": [_variant_info(v) for v in variants()],
                             "bots": bot_names()})

    async def list_tables(_request: Request) -> Response:
        return JSONResponse({"tables": tables.listing()})

    async def create_table(request: Request) -> Response:
        try:
            table = tables.create(await _body(request))
        except WebError as e:
            return _error(e)
        return JSONResponse({"table": table.info()}, status_code=201)

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
            seat, token = table.join(body.get("seat"), body.get("name"))
        except WebError as e:
            return _error(e)
        return JSONResponse({"seat": seat, "token": token, "table": table.info()})

    async def table_record(request: Request) -> Response:
        try:
            table = tables.get(request.path_params["table_id"])
        except WebError as e:
            return _error(e)
        return JSONResponse(table.record())

    async def table_socket(websocket: WebSocket) -> None:
        await websocket.accept()
        try:
            table = tables.get(websocket.path_params["table_id"])
        except WebError as e:
            await websocket.send_json({"type": "error", "message": str(e), "ref": None})
            await websocket.close(CLOSE_UNKNOWN_TABLE)
            return
        await _serve_socket(websocket, table)

    routes = [
        Route("/", index),
        Route("/api/variants", list_variants),
        Route("/api/tables", list_tables, methods=["GET"]),
        Route("/api/tables", create_table, methods=["POST"]),
        Route("/api/tables/{table_id}", get_table),
        Route("/api/tables/{table_id}/join", join_table, methods=["POST"]),
        Route("/api/tables/{table_id}/record", table_record),
        WebSocketRoute("/ws/{table_id}", table_socket),
        Mount("/static", StaticFiles(directory=static, check_dir=False), name="static"),
        Mount("/", StaticFiles(directory=static, html=True, check_dir=False), name="root"),
    ]
    app = Starlette(routes=routes, lifespan=lifespan)
    app.state.tables = tables
    app.state.store = store
    return app


def _variant_info(variant: Any) -> dict[str, Any]:
    return {
        "name": variant.name, "description": variant.description, "family": variant.family,
        "rules": summary(variant.name), "players": list(variant.players),
        "default_players": variant.default_players,
        "match_end": variant.make().match_end_text(),
        "options": [{"name": o.name, "default": o.default, "help": o.help,
                     "choices": None if o.choices is None else list(o.choices),
                     "min": o.min, "max": o.max} for o in variant.option_info()],
    }


async def _body(request: Request) -> Any:
    try:
        return json.loads(await request.body() or b"{}")
    except (ValueError, UnicodeDecodeError):
        raise WebError("the request body is not valid JSON") from None


def _error(error: WebError) -> Response:
    return JSONResponse({"error": str(error)}, status_code=error.status)


# -- the WebSocket of one client -----------------------------------------------------------------


async def _receive(websocket: WebSocket) -> dict[str, Any] | None:
    """The next message as a JSON object; ``None`` once the client is gone.

    :class:`WebError` for one that is not a JSON object (the connection goes on)."""
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return None
    raw = message.get("text")
    if raw is None:
        raw = (message.get("bytes") or b"").decode("utf-8", "replace")
    try:
        data = json.loads(raw)
    except ValueError:
        raise WebError("the message is not valid JSON") from None
    if not isinstance(data, dict):
        raise WebError('a message is a JSON object with a "type"')
    return data


async def _serve_socket(websocket: WebSocket, table: Table) -> None:
    """Wait for ``hello``, then serve the client's messages until it leaves."""
    try:
        seat = await _hello(websocket, table)
    except WebSocketDisconnect:
        return
    if seat is False:
        return
    client = Client(None if seat is None else int(seat))
    writer = asyncio.create_task(_write(websocket, client))
    table.connect(client)
    table.schedule()
    try:
        while True:
            ref = None
            try:
                message = await _receive(websocket)
                if message is None:
                    break
                ref = message.get("ref")
                await _handle(table, client, message)
            except WebError as e:
                client.send({"type": "error", "message": str(e), "ref": ref})
    except WebSocketDisconnect:
        pass
    finally:
        table.disconnect(client)
        # Let what was queued go out before the writer stops (it fails quietly if the socket
        # is already closed).
        with contextlib.suppress(asyncio.TimeoutError, Exception):
            await asyncio.wait_for(client.outbox.join(), 0.5)
        writer.cancel()


async def _hello(websocket: WebSocket, table: Table) -> int | bool | None:
    """The seat the client says hello for (``None``: a spectator); ``False`` if refused."""
    while True:
        ref = None
        try:
            message = await _receive(websocket)
            if message is None:
                return False
            ref = message.get("ref")
            if message.get("type") != "hello":
                raise WebError('say hello first: {"type": "hello", "token": TOKEN or null}')
        except WebError as e:
            await websocket.send_json({"type": "error", "message": str(e), "ref": ref})
            continue
        token = message.get("token")
        if token is None:
            return None
        try:
            return table.seat_of(token)
        except WebError as e:
            await websocket.send_json({"type": "error", "message": str(e), "ref": ref})
            await websocket.close(CLOSE_BAD_TOKEN)
            return False


async def _write(websocket: WebSocket, client: Client) -> None:
    while True:
        text = await client.outbox.get()
        try:
            await websocket.send_text(text)
        except Exception:  # the client is gone: its reader ends the connection
            return
        finally:
            client.outbox.task_done()


#: Hints being worked out (a task must be referenced until it is done).
_HINTS: set[asyncio.Task[None]] = set()


async def _hint(client: Client, request: tuple[Any, Any, Any, Any], ref: Any) -> None:
    bot, observation, legal, rng = request
    action, reason = await asyncio.to_thread(bot.choose_explained, observation, legal, rng)
    client.send({"type": "hint", "action": str(action), "reason": reason, "ref": ref})


async def _handle(table: Table, client: Client, message: dict[str, Any]) -> None:
    kind = message.get("type")
    ref = message.get("ref")
    if kind == "action":
        table.act(client, message)
    elif kind == "next_deal":
        table.next_deal(client, message)
    elif kind == "hint":
        request = table.hint_request(client, message)
        # The search runs on while this client's next messages are read.
        task = asyncio.create_task(_hint(client, request, ref))
        _HINTS.add(task)
        task.add_done_callback(_HINTS.discard)
    elif kind == "ping":
        client.send({"type": "pong", "ref": ref})
    elif kind == "hello":
        raise WebError("this connection has already said hello")
    else:
        raise WebError(f"unknown message type {kind!r}; the types are: hello, action, hint, "
                       "next_deal, ping")
