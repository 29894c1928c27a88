"""A web table's clients and what each is shown: the client hub.

Each seat sees its own view of the deal (:func:`~parlour.web.views.seat_view`: its hand, what
it may play), a spectator the public one, and a person who sits down in the middle of a deal
watches it as a spectator until the next. At a tutorial the coached seat's view carries the
notes its coach has given (``tutorial``), which follow from that seat's observation alone;
every other view's ``tutorial`` is ``None``. :class:`SeatViews` works each view out from the
table's session and seats; :class:`Hub` holds the connected clients and sends each, in one
broadcast, the view of its own seat, worked out once for all the clients of that seat.

Nothing here changes the match or the seats: the table asks, and the hub sends.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import dataclass, field
from typing import Any

from parlour.game import Observation
from parlour.session import TableSession
from parlour.tutorial import Coach
from parlour.web.messages import ServerMessage, Timer, Update, notice, update
from parlour.web.seating import Names, Seating
from parlour.web.views import empty_view, seat_view, spectator_view

#: The views of one broadcast by seat (``None``: a spectator's), each worked out once.
ViewCache = dict[int | None, dict[str, Any]]


@dataclass(eq=False)
class Client:
    """One WebSocket: the seat it said hello for (``None``: a spectator) and its outbox, which
    a writer task drains in order, so a slow client never holds up the table."""

    seat: int | None
    outbox: asyncio.Queue[str] = field(default_factory=asyncio.Queue)

    def send(self, message: ServerMessage) -> None:
        self.outbox.put_nowait(json.dumps(message))


class SeatViews:
    """The views of one table's deal, seat by seat: worked out from ``session`` (the match)
    and ``seating`` (who plays each seat, what each is called), and at a tutorial ``coach``
    (the notes of the seat it follows)."""

    def __init__(self, session: TableSession, seating: Seating, coach: Coach | None = None) -> None:
        self.session = session
        self.seating = seating
        self.coach = coach
        #: Per seat, the deal's log so far: (deal number, actions told, lines, and for each
        #: line the seats' names when it was written).
        self._logs: dict[int, tuple[int, int, list[str], list[Names]]] = {}

    def view(self, seat: int | None, cache: ViewCache, version: int) -> dict[str, Any]:
        """The View for ``seat`` (``None``: a spectator) after event number ``version``, shared
        through ``cache`` by the clients of one seat within one broadcast."""
        if seat in cache:
            return cache[seat]
        state = self.session.state
        deal = self.session.deal_number
        if state is not None and seat is not None and not self.seating.plays(seat, deal):
            # Its holder plays it from the next deal: until then they watch as a spectator,
            # and never see the hand someone else held in this deal.
            view = {**self.view(None, cache, version), "seat": seat}
        elif state is None:
            view = {"deal": 0, "step": 0, **empty_view(seat), "deal_over": False, "result": None}
        else:
            if seat is None:
                observations = [state.observation(s) for s in range(self.session.game.players)]
                logs = [self.log(o, version) for o in observations]
                part = spectator_view(observations, [lines for lines, _ in logs], logs[0][1])
            else:
                obs = state.observation(seat)
                legal = state.legal_actions() if state.current_player == seat else []
                part = seat_view(obs, legal, *self.log(obs, version))
            view = {"deal": deal, "step": len(state.history), **part,
                    "deal_over": state.is_over, "result": self.result()}
        # The coach's notes are of the seat's hand: for whoever plays it in this deal alone.
        coach = self.coach
        coached = (coach is not None and seat == coach.seat
                   and (state is None or self.seating.plays(seat, deal)))
        view["tutorial"] = coach.to_dict() if coached and coach is not None else None
        cache[seat] = view
        return view

    def forget(self) -> None:
        """Work the logs out afresh: what the seats were called has changed (a deleted
        profile's seats are renamed in every line)."""
        self._logs.clear()

    def log(self, obs: Observation, version: int) -> tuple[list[str], list[Names]]:
        """``obs.log_lines(0)``, extended by the lines of the new actions only: a deal's log
        for a seat only grows, and telling it all again on every move costs the most of an
        update in the long deals. With it, for each line, the seats' names when its action
        was played."""
        number = self.session.deal_number
        deal, told, lines, names = self._logs.get(obs.seat, (0, 0, [], []))
        steps = len(obs.history)
        if deal != number or told > steps:
            told, lines, names = 0, [], []
        if told < steps or not lines:
            new = obs.log_lines(told)
            lines = lines + new
            names = names + self._line_names(obs, told, len(new), version)
            self._logs[obs.seat] = (number, steps, lines, names)
        return lines, names

    def _line_names(self, obs: Observation, told: int, count: int,
                    version: int) -> list[Names]:
        """The seats' names for each of the ``count`` lines of ``obs.log_lines(told)``: those in
        force when the line's action was played. The lines of actions ``told`` on are split
        only where the names changed in between (rarely): a line belongs to the action it
        follows from, the lines of actions ``k`` on being ``obs.log_lines(k)``."""
        # The shown deal's actions are its last events: action k is event first + k.
        first = version - len(obs.history) + 1
        steps = [self.seating.names_at(first + k) for k in range(told, len(obs.history))]
        out: list[Names] = []
        left = count  # the lines of actions ``told + len(out)``'s action on
        for k in range(1, len(steps)):
            if steps[k] is not steps[k - 1]:
                rest = len(obs.log_lines(told + k))
                out += [steps[k - 1]] * (left - rest)
                left = rest
        return out + [steps[-1] if steps else self.seating.latest_names()] * left

    def result(self) -> dict[str, Any] | None:
        """The result of the deal shown once it is scored, its seats named as they are now;
        ``None`` while it goes on, or before the first."""
        session, game = self.session, self.session.game
        state = session.state
        if state is None or not state.is_over or session.match.current is not None:
            return None
        result = session.result()
        name = self.seating.label
        scores = game.scores
        line = scores.line(f"deal {result.number}", list(map(name, range(game.players))),
                           result.returns)
        if result.match_over:
            line += " — match over, won by " + ", ".join(map(name, result.winners))
        hands = None if result.hands is None else [[str(c) for c in h] for h in result.hands]
        return {"returns": list(result.returns), "totals": list(result.totals),
                "scores": {"deal": [scores.deal(r) for r in result.returns],
                           "totals": [scores.total(t) for t in result.totals]},
                "match_over": result.match_over, "winners": list(result.winners),
                "summary": line, "hands": hands}


class Hub:
    """The clients connected to one table, in the order they came, and what is sent to them:
    each client's view is its own seat's (``views``)."""

    def __init__(self, views: SeatViews) -> None:
        self.views = views
        self._clients: list[Client] = []

    @property
    def watched(self) -> bool:
        """Whether anybody is connected."""
        return bool(self._clients)

    def add(self, client: Client) -> None:
        self._clients.append(client)

    def remove(self, client: Client) -> bool:
        """Forget ``client``; whether it was here."""
        if client not in self._clients:
            return False
        self._clients.remove(client)
        return True

    def updates(self, seats: list[int | None], version: int, table: dict[str, Any],
                timer: Timer | None) -> list[Update]:
        """The ``update`` messages for clients of ``seats`` after event number ``version``:
        ``table`` and ``timer`` as given, and each seat's view worked out once."""
        cache: ViewCache = {}
        return [update(version, table, self.views.view(seat, cache, version), timer)
                for seat in seats]

    def broadcast(self, version: int, table: dict[str, Any], timer: Timer | None) -> None:
        """Send every client the update of its own seat (:meth:`updates`)."""
        seats = [c.seat for c in self._clients]
        for client, message in zip(self._clients, self.updates(seats, version, table, timer),
                                   strict=True):
            client.send(message)

    def notify(self, seat: int, text: str) -> None:
        """Tell the clients of ``seat`` (alone) something that happened to it."""
        for client in self._clients:
            if client.seat == seat:
                client.send(notice(text))

    def send_all(self, message: ServerMessage) -> None:
        """Send every client the same ``message``: one with nothing hidden in it."""
        for client in self._clients:
            client.send(message)
