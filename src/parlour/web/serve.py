"""``parlour serve`` (the web table on uvicorn) and ``parlour client`` (a bot at a remote seat)."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any, TextIO

from parlour.errors import ParlourError
from parlour.web.settings import DEFAULT_DATABASE, TURN_TIMEOUT_RANGE, Settings


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
    sp.add_argument("--advice-level", default="expert", choices=("medium", "hard", "expert"),
                    help="the searching level that judges, for the hints and the reviews alike "
                    "(default expert)")
    sp.add_argument("--records", default=None, metavar="DIR",
                    help="also save each finished match as DIR/TABLE_ID.json "
                         "(the record parlour replay reads)")
    sp.add_argument("--instance", default="t", metavar="NAME",
                    help="this process's name when several share one database (default t)")
    defaults = Settings()
    sp.add_argument("--turn-timeout", type=_seconds, default=None, metavar="SECONDS",
                    help="seconds a person has for each turn before a bot plays for them "
                         "(default: no timer; a table may set its own)")
    sp.add_argument("--stand-in", default=defaults.stand_in, metavar="NAME",
                    help=f"the bot that plays for a person whose time ran out (default "
                         f"{defaults.stand_in})")
    sp.add_argument("--max-tables", type=_positive, default=defaults.max_tables, metavar="N",
                    help=f"most unfinished tables at once (default {defaults.max_tables})")
    sp.add_argument("--tables-per-address", type=_positive, metavar="N",
                    default=defaults.tables_per_address,
                    help="most unfinished tables created from one address at once (default "
                    f"{defaults.tables_per_address})")
    sp.add_argument("--tables-per-minute", type=_positive, default=defaults.tables_per_minute,
                    metavar="N", help="tables one address may create a minute, after a burst of "
                    f"{defaults.table_burst} (default {defaults.tables_per_minute:g})")
    sp.add_argument("--table-burst", type=_positive, default=defaults.table_burst, metavar="N",
                    help="tables one address may create at once before --tables-per-minute "
                    f"applies (default {defaults.table_burst})")
    sp.add_argument("--connections-per-address", type=_positive, metavar="N",
                    default=defaults.connections_per_address,
                    help="WebSocket connections one address may have open at once (default "
                    f"{defaults.connections_per_address})")
    sp.add_argument("--idle-timeout", type=_positive, default=defaults.idle_timeout,
                    metavar="SECONDS", help="close a table nobody has been at for this long: "
                    "archived if unfinished (default "
                    f"{defaults.idle_timeout:g})")
    sp.add_argument("--waiting-timeout", type=_positive, default=defaults.waiting_timeout,
                    metavar="SECONDS", help="sooner for a table where nobody has sat down "
                    f"(default {defaults.waiting_timeout:g})")
    sp.add_argument("--hint-workers", type=_positive, default=defaults.hint_workers,
                    metavar="N", help="processes that work out hints, apart from the server "
                    f"(default {defaults.hint_workers})")
    sp.add_argument("--certfile", default=None, metavar="FILE",
                    help="serve HTTPS and WSS with this certificate (PEM; with --keyfile)")
    sp.add_argument("--keyfile", default=None, metavar="FILE",
                    help="the certificate's private key (PEM)")
    sp.add_argument("--forwarded-allow-ips", default=None, metavar="ADDRESSES",
                    help="trust the X-Forwarded-For and X-Forwarded-Proto headers from these "
                    "proxies only (comma-separated addresses or networks, such as 127.0.0.1; "
                    "default: from none, each client is the address it connects from)")
    sp.add_argument("--allowed-origins", default="", metavar="ORIGINS",
                    help="other sites whose pages may use this server (comma-separated, such "
                    "as https://cards.example.org; default: its own pages only)")

    from parlour import client

    sp = sub.add_parser("client", help="play a bot at a seat of a web table, over its WebSocket")
    client.add_arguments(sp)


def run(args: argparse.Namespace, out: TextIO) -> int:
    if args.command == "client":
        from parlour import client

        return client.run(args, out)
    import uvicorn

    from parlour.web.app import create_app

    if (args.certfile is None) != (args.keyfile is None):
        raise ParlourError("--certfile and --keyfile go together: give both, or neither")
    for path in (args.certfile, args.keyfile):
        if path is not None and not Path(path).is_file():
            raise ParlourError(f"no such file: {path}")
    origins = tuple(o.strip() for o in args.allowed_origins.split(",") if o.strip())
    for origin in origins:
        if not origin.startswith(("http://", "https://")) or origin.count("/") != 2:
            raise ParlourError(f"an allowed origin is a scheme and a host, such as "
                               f"https://cards.example.org, not {origin}")
    settings = Settings(turn_timeout=args.turn_timeout, stand_in=args.stand_in,
                        max_tables=int(args.max_tables),
                        tables_per_address=int(args.tables_per_address),
                        tables_per_minute=args.tables_per_minute,
                        table_burst=int(args.table_burst),
                        connections_per_address=int(args.connections_per_address),
                        idle_timeout=args.idle_timeout, waiting_timeout=args.waiting_timeout,
                        hint_workers=int(args.hint_workers),
                        allowed_origins=origins)
    app = create_app(args.database, bot_delay=args.bot_delay, advice_level=args.advice_level,
                     instance=args.instance, records=args.records, settings=settings)
    scheme = "http" if args.certfile is None else "https"
    out.write(f"parlour web table: open {scheme}://{args.host}:{args.port}/ (Ctrl-C stops)\n")
    out.flush()
    uvicorn.run(app, host=args.host, port=args.port, log_level="warning",
                ssl_certfile=args.certfile, ssl_keyfile=args.keyfile,
                **uvicorn_options(args.forwarded_allow_ips))
    return 0


def uvicorn_options(forwarded_allow_ips: str | None = None) -> dict[str, Any]:
    """uvicorn's settings for the web table: forwarded headers trusted from the proxies
    ``forwarded_allow_ips`` names only (uvicorn's own default trusts 127.0.0.1, so that any
    local program could pass for any address); a WebSocket message larger than the app
    reads refused before it is buffered whole; nothing read from a connection once the
    server has closed it (:mod:`parlour.web.sockets`)."""
    from parlour.web.sockets import WebSocketProtocol

    return {"proxy_headers": forwarded_allow_ips is not None,
            "forwarded_allow_ips": forwarded_allow_ips or "", "ws_max_size": 1 << 20,
            "ws": WebSocketProtocol}


def _positive(text: str) -> float:
    value = float(text)
    if not value > 0:
        raise argparse.ArgumentTypeError(f"{text} is not a positive number")
    return value


def _seconds(text: str) -> float:
    value = float(text)
    low, high = TURN_TIMEOUT_RANGE
    if not low <= value <= high:
        raise argparse.ArgumentTypeError(f"a turn is {low:g} to {high:g} seconds, not {text}")
    return value
