"""Play any parlour :class:`~parlour.bots.Bot` at a remote seat of a web table.

The client takes a seat over HTTP (or reuses a token), says hello over the table's WebSocket and,
on every ``update`` where its seat is to move, rebuilds the seat's
:class:`~parlour.game.Observation` from the ``observation`` the server sent
(:func:`observation_from_dict`), asks the bot and sends the chosen action's text. It keeps no
copy of the deal and never gets more than its seat's view, so a bot in its own process cannot
read the state. The protocol is described in the documentation
("The web protocol").

``parlour client URL TABLE [--seat N | --token T] [--bot NAME]`` runs it from the command line.

Rebuilding an observation works for every variant without knowing any of them: each field of
the family's observation dataclass is converted back from JSON by its type annotation (cards,
card sets, actions, tuples of them), and the engine then deals a state consistent with it
(``sample_state``) whose own observation of the seat is the exact original, card-set types and
orders included.

>>> import parlour
>>> state = parlour.new_game("forty-five").new_deal(seed=4)
>>> obs = state.observation(1)
>>> observation_from_dict(state.game, obs.to_dict()) == obs
True
"""

from __future__ import annotations

import json
import random
import types
import typing
import urllib.error
import urllib.request
from collections.abc import Callable
from dataclasses import fields
from functools import cache
from typing import Any, TextIO

from parlour.bots import Bot, make_bot
from parlour.cards import Card, CardSet, parse_card
from parlour.errors import ParlourError
from parlour.game import Action, Game, Observation, State
from parlour.registry import new_game
from parlour.stats import PlayerStats

#: The ``ref`` of a next_deal this client sends: another seat may have dealt first, and that
#: refusal is expected.
NEXT_DEAL_REF = "client-next-deal"


class ClientError(ParlourError):
    """The server refused something this client needed (a seat, a token, a move)."""


# -- observations back from JSON -----------------------------------------------------------------


def observation_from_dict(game: Game, data: dict[str, Any]) -> Observation:
    """The seat's :class:`Observation` that ``observation.to_dict()`` gave ``data`` for.

    ``game`` is the table's game (``parlour.new_game(variant, players=…, **options)`` from its
    TableInfo). Raises :class:`ClientError` if ``data`` is not such an observation of it.
    """
    kind, hints, proto = _observation_type(game)
    try:
        values = {f.name: game if f.name == "game" else _convert(hints[f.name], data[f.name], proto)
                  for f in fields(kind)}
        rough: Observation = kind(**values)
    except (KeyError, TypeError, ValueError) as e:
        raise ClientError(f"not an observation of {game.name}: {e!r}") from None
    # The engine's own observation of a state consistent with it has the card sets in the
    # game's order for this deal (a trump suit's order, say); it must be the same view.
    exact: Observation = rough.sample_state(random.Random(0)).observation(rough.seat)
    return exact if exact == rough else rough


@cache
def _observation_type(game: Game) -> tuple[type[Any], dict[str, Any], State]:
    """The game's observation class, its resolved field types and a state to parse actions."""
    proto = game.new_deal(seed=0)
    kind = type(proto.observation(0))
    # The game classes are imported for type checking only in the observation modules.
    local = {c.__name__: c for c in type(game).__mro__}
    return kind, typing.get_type_hints(kind, localns=local), proto


def _convert(hint: Any, value: Any, proto: State) -> Any:
    """``value`` (decoded JSON) as the type ``hint``, actions parsed in ``proto``'s game."""
    origin, args = typing.get_origin(hint), typing.get_args(hint)
    if origin in (typing.Union, types.UnionType):
        if value is None and type(None) in args:
            return None
        (inner,) = (a for a in args if a is not type(None))
        return _convert(inner, value, proto)
    if origin is tuple:
        if len(args) == 2 and args[1] is Ellipsis:
            return tuple(_convert(args[0], v, proto) for v in value)
        return tuple(_convert(a, v, proto) for a, v in zip(args, value, strict=True))
    if isinstance(hint, type):
        if issubclass(hint, CardSet):
            return CardSet.from_cards(parse_card(c) for c in value)
        if issubclass(hint, Card):
            return parse_card(value)
        if issubclass(hint, Action):
            return proto.parse_action(value)
        if hint is float:
            return float(value)
    return value


# -- playing at a remote seat --------------------------------------------------------------------


def join(url: str, table_id: str, seat: int | None = None, name: str | None = None,
         profile: str | None = None) -> dict[str, Any]:
    """Take a seat at ``table_id`` over HTTP: ``{"seat", "token", "table"}``; with a
    ``profile``'s key, under the profile's name (and rated with it)."""
    body: dict[str, Any] = {"seat": seat, "name": name}
    if profile is not None:
        body["profile"] = profile
    return _post(f"{url.rstrip('/')}/api/tables/{table_id}/join", body)


def profile_key(url: str, name: str | None, stats: PlayerStats) -> str:
    """This player's profile key at the server at ``url``: the one kept in the statistics
    file, or a new profile made there under ``name`` (default "Player") and kept."""
    key = stats.profile_key(url)
    if key is None:
        made = _post(f"{url.rstrip('/')}/api/profiles", {"name": name or "Player"})
        key = str(made["key"])
        stats.set_profile_key(url, key)
    return key


def _post(url: str, body: dict[str, Any]) -> dict[str, Any]:
    request = urllib.request.Request(url, json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(request, timeout=30) as answer:
            data: dict[str, Any] = json.loads(answer.read())
    except urllib.error.HTTPError as e:
        try:
            message = json.loads(e.read()).get("error", str(e))
        except ValueError:
            message = str(e)
        raise ClientError(message) from None
    except OSError as e:
        raise ClientError(f"cannot reach {url}: {e}") from None
    return data


def socket_url(url: str, table_id: str) -> str:
    """The table's WebSocket address for a server at ``url`` (``http://…`` or ``ws://…``).

    >>> socket_url("http://127.0.0.1:8000/", "t-1")
    'ws://127.0.0.1:8000/ws/t-1'
    """
    base = url.rstrip("/")
    for scheme, ws in (("https://", "wss://"), ("http://", "ws://")):
        if base.startswith(scheme):
            base = ws + base[len(scheme):]
    return f"{base}/ws/{table_id}"


def play_remote(
    url: str,
    table_id: str,
    bot: Bot | str = "greedy",
    *,
    seat: int | None = None,
    token: str | None = None,
    name: str | None = None,
    seed: int = 0,
    deal_on: bool = True,
    on_message: Callable[[dict[str, Any]], None] | None = None,
    timeout: float = 60.0,
) -> dict[str, Any]:
    """Play ``bot`` at a seat of ``table_id`` on the server at ``url`` until the match is over;
    returns the last ``update``'s ``result``.

    Without ``token`` the seat is taken first (``seat`` ``None``: the first free human seat).
    Each decision draws from a generator seeded by ``seed``, the deal and the step, so a replay
    makes the same choices. ``deal_on`` sends ``next_deal`` after each deal; ``on_message`` sees
    every message received (the load test times its moves with it). An ``error`` from the
    server (other than a next deal someone else already dealt) raises :class:`ClientError`.

    ``timeout`` bounds connecting, never the wait for the table: a person may think for as long
    as the table allows. The connection's pings (every 20 s, answered within 20 s) tell a lost
    server from a quiet table, and a lost connection raises :class:`ClientError`.
    """
    from websockets.exceptions import WebSocketException
    from websockets.sync.client import connect

    player = make_bot(bot, interactive=True) if isinstance(bot, str) else bot
    if token is None:
        token = str(join(url, table_id, seat, name)["token"])
    game: Game | None = None
    acted: tuple[int, int] | None = None
    address = socket_url(url, table_id)
    try:
        ws = connect(address, open_timeout=timeout, max_size=None)
    except (OSError, WebSocketException) as e:
        raise ClientError(f"cannot connect to {address}: {e}") from None
    with ws:
        ws.send(json.dumps({"type": "hello", "token": token}))
        while True:
            try:
                message = json.loads(ws.recv())
            except (TimeoutError, WebSocketException) as e:
                raise ClientError(f"the connection to {address} ended: {e!r}") from None
            if on_message is not None:
                on_message(message)
            kind = message.get("type")
            if kind == "error":
                if message.get("ref") == NEXT_DEAL_REF:
                    continue
                raise ClientError(message.get("message", "refused"))
            if kind == "welcome":
                info = message["table"]
                game = new_game(info["variant"], players=info["players"], **info["options"])
                continue
            if kind != "update" or game is None:
                continue
            view = message["view"]
            result = view.get("result")
            if result is not None and result["match_over"]:
                return dict(result)
            if view["deal_over"]:
                if deal_on:
                    ws.send(json.dumps({"type": "next_deal", "token": token, "ref": NEXT_DEAL_REF}))
                continue
            position = (view["deal"], view["step"])
            if view["your_turn"] and position != acted:
                acted = position
                action = _decide(player, game, view, random.Random(f"{seed}/{position}"))
                ws.send(json.dumps({"type": "action", "token": token, "action": action,
                                    "ref": list(position)}))


def _decide(bot: Bot, game: Game, view: dict[str, Any], rng: random.Random) -> str:
    """The bot's action (as text) from what the server sent for the seat."""
    observation = observation_from_dict(game, view["observation"])
    _, _, proto = _observation_type(game)
    legal = [proto.parse_action(entry["action"]) for entry in view["legal"]]
    return str(bot.choose(observation, legal, rng))


def add_arguments(parser: Any) -> None:
    parser.add_argument("url", help="the server, e.g. http://127.0.0.1:8000")
    parser.add_argument("table", help="the table's id")
    parser.add_argument("--seat", type=int, default=None,
                        help="the seat to take (default: the first free one)")
    parser.add_argument("--token", default=None, help="play the seat this token holds (reconnect)")
    parser.add_argument("--name", default=None, help="the name shown at the table")
    parser.add_argument("--profile", action="store_true",
                        help="sit down with your profile at this server (made under --name the "
                             "first time and kept in your statistics file): the same person at "
                             "every table, rated when the match ends")
    parser.add_argument("--bot", default="greedy", help="the bot that plays (default greedy)")
    parser.add_argument("--seed", type=int, default=0, help="seed of the bot's choices")


def run(args: Any, out: TextIO) -> int:
    """``parlour client``: play until the match is over and print its result to ``out``.
    A refusal from the server (a seat taken, a bad token, no server) is a
    :class:`ClientError`, which the command reports with exit code 2."""
    token = args.token
    if token is None:
        key = profile_key(args.url, args.name, PlayerStats()) if args.profile else None
        taken = join(args.url, args.table, args.seat, args.name, key)
        token = str(taken["token"])
        # The token is the seat: printed so that the seat can be taken back (--token) after a
        # lost connection, and by nothing else.
        out.write(f"seat {taken['seat']} of table {args.table}; to come back to it: "
                  f"--token {token}\n")
        out.flush()
    result = play_remote(args.url, args.table, args.bot, token=token, seed=args.seed)
    out.write(result["summary"] + "\n")
    return 0
