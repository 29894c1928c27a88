"""A client that floods a table, in a process of its own (so that its own work does not count
against the server it floods): used by test_web_flood.py.

    python web_flood.py KIND WS_URL TABLE_ID TOKEN SECONDS [CONNECTIONS]

KIND is what it sends, as fast as it can, without waiting for the answers:

- ``hint``: ``hint`` messages for the seat of TOKEN, after its hello;
- ``pre-hello``: ``ping`` messages on connections that never say hello;
- ``post-hello``: ``ping`` messages after a spectator's hello.

It opens CONNECTIONS connections at once (default 1), prints "ready" once they are open, floods
for SECONDS (connecting again whenever the server closes a connection), then prints one JSON
line: how many messages it sent, on how many connections, and how many answers of each kind
(refusals by their message, closes by their code) came back meanwhile.
"""

from __future__ import annotations

import collections
import json
import os
import sys
import threading
import time

from websockets.exceptions import ConnectionClosed, InvalidStatus
from websockets.sync.client import ClientConnection, connect


def main(kind: str, url: str, table_id: str, token: str, seconds: float,
         connections: int = 1) -> None:
    answers: collections.Counter[str] = collections.Counter()
    counts = {"sent": 0, "connections": 0}
    lock = threading.Lock()

    def count(key: str, n: int = 1) -> None:
        with lock:
            counts[key] += n

    def hello() -> ClientConnection | None:
        # Uncompressed: each message costs the flooder less, and the server the same.
        try:
            ws = connect(f"{url}/ws/{table_id}", proxy=None, max_size=None, max_queue=None,
                         open_timeout=20, compression=None).__enter__()
        except (InvalidStatus, OSError, TimeoutError) as e:  # refused at the handshake
            with lock:
                answers[f"refused: {e.__class__.__name__}"] += 1
            time.sleep(0.01)
            return None
        count("connections")
        if kind != "pre-hello":
            ws.send(json.dumps({"type": "hello", "token": None if kind == "post-hello"
                                else token}))
            try:
                while json.loads(ws.recv(20))["type"] != "update":
                    pass
            except (ConnectionClosed, TimeoutError):
                return None
        threading.Thread(target=read, args=(ws,), daemon=True).start()
        return ws

    def read(ws: ClientConnection) -> None:
        try:
            while True:
                message = json.loads(ws.recv())
                key = (message["type"] if message["type"] != "error"
                       else "error: " + message["message"])
                with lock:
                    answers[key] += 1
        except ConnectionClosed as e:
            with lock:
                answers[f"closed {e.rcvd.code if e.rcvd else None}"] += 1
        except OSError:
            return

    message = json.dumps({"type": "hint", "token": token} if kind == "hint"
                         else {"type": "ping", "ref": 1})

    def flood(ws: ClientConnection | None) -> None:
        while True:
            if ws is None:
                ws = hello()
                continue
            try:
                ws.send(message)  # blocks while the server reads no more of them
                count("sent")
            except ConnectionClosed:  # closed by the server: come back and go on
                ws = None

    sockets = [hello() for _ in range(connections)]
    print("ready", flush=True)
    # In threads: a send can block for long, and the time is up when it is up.
    for ws in sockets:
        threading.Thread(target=flood, args=(ws,), daemon=True).start()
    time.sleep(seconds)
    with lock:
        print(json.dumps({**counts, "answers": dict(answers)}), flush=True)
    os._exit(0)  # gone at once, as a flooder would: no closing handshake to wait for


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4], float(sys.argv[5]),
         *(int(n) for n in sys.argv[6:7]))
