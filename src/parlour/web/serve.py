"""``parlour serve`` (the web table on uvicorn) and ``parlour client`` (a bot at a remote seat)."""

from __future__ import annotations

import argparse
from typing import Any, TextIO

from parlour.web import DEFAULT_DATABASE


def add_parsers(sub: Any) -> None:
    """Add the ``serve`` and ``client`` subcommands to the ``parlour`` command's parsers."""
    sp = sub.add_parser("serve", help="the web table: lobby, tables and bots in the browser")
    sp.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    sp.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    sp.add_argument("--database", default=DEFAULT_DATABASE, metavar="URL",
                    help="where tables are kept: sqlite:///FILE (default "
                         f"{DEFAULT_DATABASE}) or postgresql://USER:PASSWORD@HOST/DB")
    sp.add_argument("--bot-delay", type=float, default=0.8, metavar="SECONDS",
                    help="pause before each bot move (default 0.8)")
    sp.add_argument("--hint-bot", default="hard", metavar="NAME",
                    help="the bot that answers hints (default hard)")
    sp.add_argument("--records", default=None, metavar="DIR",
                    help="also save each finished match as DIR/TABLE_ID.json "
                         "(the record parlour replay reads)")
    sp.add_argument("--instance", default="t", metavar="NAME",
                    help="this process's name when several share one database (default t)")

    from parlour import client

    sp = sub.add_parser("client", help="play a bot at a seat of a web table, over its WebSocket")
    client.add_arguments(sp)


def run(args: argparse.Namespace, out: TextIO) -> int:
    if args.command == "client":
        from parlour import client

        return client.run(args, out)
    import uvicorn

    from parlour.web.app import create_app

    app = create_app(args.database, bot_delay=args.bot_delay, hint_bot=args.hint_bot,
                     instance=args.instance, records=args.records)
    out.write(f"parlour web table: open http://{args.host}:{args.port}/ (Ctrl-C stops)\n")
    out.flush()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning")
    return 0
