"""The arena on Ray: the local backend's tasks, played as Ray tasks.

``run_arena(…, backend="ray")`` (``parlour arena --backend ray``) cuts the deals into the same
tasks as the local backend and plays each with the same function, as a Ray task of one CPU. So
every deal is shuffled, and every bot draws, from the same seeds as in a local run, and the
gathered plays are sorted by deal the same way: the result is identical, play for play.

Where the tasks run:

- ``RAY_ADDRESS`` set: on that cluster (``ray://host:10001``, ``host:6379`` or ``auto``). Its
  nodes need parlour installed, the same version as here: a node plays with its own copy.
- unset: on a Ray instance started for the run on this machine with ``workers`` CPUs, no
  dashboard and errors only, shut down when the run ends;
- a Ray instance this process already started (``ray.init()`` before the run) is used as it is
  and left running.

At most ``workers`` tasks are in flight at once, as with ``workers`` local processes. Deal
records are carried back with the results and written here, not on the node that played them.

Ray is an optional dependency (``pip install 'parlour[ray]'``), imported only when a run uses it.

>>> {k: v for k, v in init_options(None, 2).items() if k in ("address", "num_cpus")}
{'address': 'local', 'num_cpus': 2}
>>> init_options("ray://head:10001", 2)["address"]
'ray://head:10001'
"""

from __future__ import annotations

import ipaddress
import logging
import os
import socket
from collections.abc import Callable, Sequence
from types import ModuleType
from typing import Any

from parlour.arena.deals import Play, Task, played, record_path
from parlour.errors import ParlourError
from parlour.records import deal_record, save

#: A task's plays, each with its deal record when the run keeps records.
Played = list[tuple[Play, dict[str, Any] | None]]


def require_ray() -> ModuleType:
    """The ``ray`` module, or a :class:`ParlourError` saying how to install it."""
    try:
        import ray
    except ImportError:
        raise ParlourError("the ray backend needs Ray: pip install 'parlour[ray]'") from None
    return ray


def init_options(address: str | None, workers: int) -> dict[str, Any]:
    """The ``ray.init`` arguments: connect to ``address`` (a cluster's own size stands), or
    start a local instance of ``workers`` CPUs. Either way quietly: no dashboard, errors
    only, and the workers' output kept out of the arena's report."""
    # A cluster refuses num_cpus (it has its own); the dashboard is the cluster's to start.
    # "local" starts a new instance even where ``ray start`` left one to join: unset means this
    # machine, for this run alone.
    where: dict[str, Any] = (
        {"address": address} if address
        else {"address": "local", "num_cpus": workers, "include_dashboard": False}
    )
    return {**where, "logging_level": logging.ERROR, "log_to_driver": False}


def check_reachable(address: str, timeout: float = 10.0) -> None:
    """Refuse at once a cluster address nothing answers at (Ray itself would retry for
    minutes). ``auto`` and other addresses without a port are left to Ray.

    >>> check_reachable("ray://127.0.0.1:1")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    parlour.errors.ParlourError: cannot reach the Ray cluster at RAY_ADDRESS=ray://127.0.0.1:1: ...
    """
    host, colon, port = address.removeprefix("ray://").rpartition(":")
    if not colon or not port.isdigit():
        return
    host = host.strip("[]")
    if host == "localhost" or _is_loopback(host):
        # As Ray does: a head started on this machine listens on the node's address.
        host = require_ray().util.get_node_ip_address()
    try:
        socket.create_connection((host, int(port)), timeout=timeout).close()
    except OSError as e:
        raise ParlourError(
            f"cannot reach the Ray cluster at RAY_ADDRESS={address}: {e.strerror or e}") from None


def _is_loopback(host: str) -> bool:
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:  # a host name
        return False


def _play_remote(task: Task) -> Played:
    """Play a task on a Ray worker; the records travel back rather than land on the worker."""
    keep = task.record_dir is not None
    return [(play, deal_record(state) if keep else None) for play, state in played(task)]


def play_on_ray(
    tasks: Sequence[Task], workers: int, finished: Callable[[Task, list[Play]], None]
) -> None:
    """Play ``tasks`` as Ray tasks, at most ``workers`` at once, handing each task's plays to
    ``finished`` as it ends, in any order (the caller sorts them by deal)."""
    ray = require_ray()
    started = not ray.is_initialized()
    if started:
        address = os.environ.get("RAY_ADDRESS") or None
        if address:
            check_reachable(address)
        try:
            ray.init(**init_options(address, workers))
        except (ConnectionError, RuntimeError, ValueError) as e:
            where = f"the Ray cluster at {address}" if address else "a local Ray instance"
            raise ParlourError(f"cannot start the ray backend on {where}: {e}") from None
    remote = ray.remote(num_cpus=1)(_play_remote)
    waiting = list(tasks)
    running: dict[Any, Task] = {}
    try:
        while waiting or running:
            while waiting and len(running) < workers:
                task = waiting.pop(0)
                running[remote.remote(task)] = task
            [ref], _ = ray.wait(list(running), num_returns=1)
            task = running.pop(ref)
            plays = []
            for play, record in ray.get(ref):
                if record is not None:
                    save(record, record_path(task, play))
                plays.append(play)
            finished(task, plays)
    finally:
        # On an error or Ctrl-C, stop the tasks still in flight rather than wait for them.
        for ref in running:
            ray.cancel(ref, force=True)
        if started:
            ray.shutdown()
