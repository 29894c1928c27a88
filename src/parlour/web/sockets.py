"""The WebSocket protocol ``parlour serve`` has uvicorn speak: uvicorn's own, but for what it
does once the app has closed a connection.

uvicorn goes on reading (and parsing) whatever the client sends after the server's close
frame, until the client answers the close or seconds have passed: a client that floods and
never answers would have that much of the server's time, unpaced, on every connection it
opens. Here the server reads nothing more once it has closed a connection, and lets the
connection go after a short grace for the close frame to reach the client.
"""

from __future__ import annotations

import asyncio
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol

#: Seconds a closed connection is kept for the close frame to go out before it is dropped.
CLOSE_GRACE = 0.5


class WebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's WebSocket protocol (the sans-I/O one), reading nothing after its close."""

    async def send(self, message: Any) -> None:
        await super().send(message)
        if message["type"] == "websocket.close" and not self.transport.is_closing():
            self.transport.pause_reading()
            asyncio.get_running_loop().call_later(CLOSE_GRACE, self.transport.close)
