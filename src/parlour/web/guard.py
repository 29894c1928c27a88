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

from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send
from starlette.websockets import WebSocketClose

from parlour.web.limits import quote

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
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        refused = origin is not None and not self.origin_ok(origin, headers.get("host"))
        if scope["type"] == "websocket":
            if refused:
                await WebSocketClose(CLOSE_ORIGIN)(scope, receive, send)
            else:
                await self.app(scope, receive, send)
            return
        extra = HEADERS + ([HSTS] if scope.get("scheme") == "https" else [])

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                message["headers"] = [*message.get("headers", []), *extra]
            await send(message)

        if refused and scope["method"] not in SAFE_METHODS:
            answer = JSONResponse({"error": f"a page of another site (origin {quote(origin)}) "
                                            "may not use this server"}, status_code=403)
            await answer(scope, receive, send_with_headers)
        else:
            await self.app(scope, receive, send_with_headers)

    def origin_ok(self, origin: str, host: str | None) -> bool:
        """Whether a page of ``origin`` may use the server: it is the server's own (its host
        and port are those the request was sent to, ``host``) or an allowed one."""
        origin = origin.strip().lower()
        if origin in self.allowed:
            return True
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
