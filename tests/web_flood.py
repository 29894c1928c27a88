"""A client that floods a table with hint requests, in a process of its own (so that its own
work does not count against the server it floods): used by test_web_flood.py.

    python web_flood.py WS_URL TABLE_ID TOKEN SECONDS

It connects, says hello, prints "ready", sends ``hint`` messages as fast as it can for
SECONDS without waiting for the answers, then prints one JSON line: how many it sent, and
how many hints and refusals (by message) came back meanwhile.
"""

from __future__ import annotations

import collections
import json
import sys
import threading
import time

from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect


def main(url: str, table_id: str, token: str, seconds: float) -> None:
    ws = connect(f"{url}/ws/{table_id}", proxy=None, max_size=None, max_queue=None,
                 open_timeout=20).__enter__()
    ws.send(json.dumps({"type": "hello", "token": token}))
    while json.loads(ws.recv(20))["type"] != "update":
        pass
    answers: collections.Counter[str] = collections.Counter()

    def read() -> None:
        try:
            while True:
                message = json.loads(ws.recv())
                answers[message["type"] if message["type"] != "error"
                        else "error: " + message["message"]] += 1
        except (ConnectionClosed, OSError):
            return

    threading.Thread(target=read, daemon=True).start()
    print("ready", flush=True)
    hint = json.dumps({"type": "hint", "token": token})
    sent, end = 0, time.monotonic() + seconds
    while time.monotonic() < end:
        ws.send(hint)
        sent += 1
    print(json.dumps({"sent": sent, "answers": dict(answers)}), flush=True)
    ws.close()


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], float(sys.argv[4]))
