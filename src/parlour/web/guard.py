"""What the web table asks of browsers: only its own pages may act on it, and its pages run
only their own scripts.

:class:`Guard` wraps the app (ASGI middleware):

- A request that can change something (every method but GET, HEAD and OPTIONS) and every
  WebSocket is refused when it comes from a page of another site: a browser names the page's
  origin in the ``Origin`` header, and it must be the server's own (the host the request was
  sent to) or one of ``allowed_origins``. ``Origin: null`` (a sandboxed frame, a file) is
  refused too. A request without the header is not a browser's cross-site request (browsers
  send it with every such request), so programs such as ``parlour client`` need nothing.
- Every HTTP answer carries headers that keep the page's scripts its own: a
  Content-Security-Policy with no inline script or style and no framing, ``Referrer-Policy``,
  ``X-Content-Type-Options`` and ``X-Frame-Options``; under TLS, ``Strict-Transport-Security``.

>>> from starlette.applications import Starlette
>>> from starlette.testclient import TestClient
>>> http = TestClient(Guard(Starlette(), allowed_origins=("https://cards.example.org",)))
>>> http.post("/", headers={"Origin": "https://evil.example"}).json()
{'error': "a page of another site (origin 'https://evil.example') may not use this server"}
>>> http.post("/", headers={"Origin": "https://cards.example.org"}).status_code
404
>>> http.get("/").headers["x-frame-options"]
'DENY'
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from parlour.web.limits import quote

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]

#: The page's own scripts, style sheet and images only; its WebSockets to its own server
#: (``'self'`` covers ``ws:`` and ``wss:`` to the same host); no plug-ins, no framing.
CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
    "frame-ancestors 'none'"
)
HEADERS = [
    (b"content-security-policy", CONTENT_SECURITY_POLICY.encode()),
    (b"x-frame-options", b"DENY"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-content-type-options", b"nosniff"),
]
#: Under TLS: browsers use HTTPS for this host for a year (and never fall back to HTTP).
HSTS = (b"strict-transport-security", b"max-age=31536000")
#: Methods that change nothing: a page of any site may send them (and cannot read the
#: answers, which carry no CORS header).
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: The WebSocket close code of a connection refused for its origin (a refused handshake: the
#: browser sees an HTTP 403).
CLOSE_ORIGIN = 4403


class Guard:
    """The app ``app``, with the checks and headers above; ``allowed_origins`` are other
    sites whose pages may use it (``https://cards.example.org``)."""

    def __init__(self, app: ASGIApp, allowed_origins: tuple[str, ...] = ()) -> None:
        self.app = app
        self.allowed = frozenset(o.rstrip("/").lower() for o in allowed_origins)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket":
            origin = _header(scope, b"origin")
            if origin is not None and not self.origin_ok(origin, scope):
                await receive()  # the handshake's websocket.connect
                await send({"type": "websocket.close", "code": CLOSE_ORIGIN})
                return
        elif scope["type"] == "http":
            origin = _header(scope, b"origin")
            if (scope["method"] not in SAFE_METHODS and origin is not None
                    and not self.origin_ok(origin, scope)):
                await _refuse(send, f"a page of another site (origin {quote(origin)}) may not "
                                    "use this server")
                return
            headers = HEADERS + ([HSTS] if scope.get("scheme") == "https" else [])

            async def send_with_headers(message: Message) -> None:
                if message["type"] == "http.response.start":
                    message["headers"] = [*message.get("headers", []), *headers]
                await send(message)

            await self.app(scope, receive, send_with_headers)
            return
        await self.app(scope, receive, send)

    def origin_ok(self, origin: str, scope: Scope) -> bool:
        """Whether a page of ``origin`` may use the server: it is the server's own (its host
        and port are those the request was sent to) or an allowed one."""
        origin = origin.strip().lower()
        if origin in self.allowed:
            return True
        host = _header(scope, b"host")
        if host is None:
            return False
        try:
            page, server = urlsplit(origin), urlsplit("//" + host.strip().lower())
            page_port = page.port or {"http": 80, "https": 443}.get(page.scheme)
            server_port = server.port
        except ValueError:  # a port that is not a number
            return False
        # The scheme is not compared: behind a proxy that holds the certificate, the page is
        # https and the request reaches the server as http. Nor the port when the Host header
        # has none (a proxy may leave it out). Only the host itself serves its own pages.
        return (page.scheme in ("http", "https") and page.hostname is not None
                and page.hostname == server.hostname
                and server_port in (None, page_port))


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope.get("headers", []):
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


async def _refuse(send: Send, message: str) -> None:
    body = json.dumps({"error": message}).encode()
    await send({"type": "http.response.start", "status": 403,
                "headers": [(b"content-type", b"application/json"),
                            (b"content-length", str(len(body)).encode()), *HEADERS]})
    await send({"type": "http.response.body", "body": body})
