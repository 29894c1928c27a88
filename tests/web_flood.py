"""A client that floods a table with hint requests, in a process of its own (so that its own
work does not count against the server it floods): used by test_web_flood.py.

    python web_flood.py WS_URL TABLE_ID TOKEN SECONDS

It connects, says hello, prints "ready", sends ``hint`` messages as fast as it can for
SECONDS without waiting for the answers (connecting again whenever the server closes the
connection), then prints one JSON line: how many it sent, on how many connections, and how
many hints and refusals (by message) came back meanwhile.
"""

from __future__ import annotations

import collections
import json
import os
import sys
import threading
import time

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect


def main(url: str, table_id: str, token: str, seconds: float) -> None:
    answers: collections.Counter[str] = collections.Counter()

    def hello() -> ClientConnection:
        # Uncompressed: each message costs the flooder less, and the server the same.
        ws = connect(f"{url}/ws/{table_id}", proxy=None, max_size=None, max_queue=None,
                     open_timeout=20, compression=None).__enter__()
        ws.send(json.dumps({"type": "hello", "token": token}))
        while json.loads(ws.recv(20))["type"] != "update":
            pass
        threading.Thread(target=read, args=(ws,), daemon=True).start()
        return ws

    def read(ws: ClientConnection) -> None:
        try:
            while True:
                message = json.loads(ws.recv())
                answers[message["type"] if message["type"] != "error"
                        else "error: " + message["message"]] += 1
        except (ConnectionClosed, OSError):
            return

    ws = hello()
    print("ready", flush=True)
    hint = json.dumps({"type": "hint", "token": token})
    counts = {"sent": 0, "connections": 1}

    def flood(ws: ClientConnection) -> None:
        while True:
            try:
                ws.send(hint)  # blocks while the server reads no more of them
                counts["sent"] += 1
            except ConnectionClosed:  # closed for flooding: come back and go on
                ws = hello()
                counts["connections"] += 1

    # In a thread: a send can block for long, and the time is up when it is up.
    threading.Thread(target=flood, args=(ws,), daemon=True).start()
    time.sleep(seconds)
    print(json.dumps({**counts, "answers": dict(answers)}), flush=True)
    os._exit(0)  # gone at once, as a flooder would: no closing handshake to wait for


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]))
