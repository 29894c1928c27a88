"""Check an installed parlour as a player would find it, with nothing from the source tree.

    python smoke_wheel.py --readme README.md [--version 0.1.0] [--rl] [--serve]

Run by the Python of the environment where parlour was installed (a wheel, from PyPI or
``dist/``), from a folder outside the source tree: ``tests/test_wheel.py`` runs it after
installing the wheel ``make wheel`` built, and the release workflow
(``.github/workflows/release.yml``) after building each platform's wheel, so that what is
checked here is what runs there. It uses the standard library and parlour alone. It checks:

- that parlour is imported from the installed package, not from a ``src/`` folder, and that
  no Rust compiler is on the ``PATH`` (the wheel must need none);
- ``parlour --version`` (``--version``: the version it must say) and ``parlour variants``;
- a whole deal of every variant with computer players, through ``parlour simulate``: the
  learned network's players (the shipped networks) and the searching ``expert``'s in turn;
- the README's Python examples (``>>>``), as doctests, against the installed package;
- with ``--serve``: ``parlour serve`` on a free port answers the page (with the version in
  its footer) and ``/api/variants``;
- with ``--rl``: the reinforcement-learning environments (the ``rl`` extra) import and step.

It prints a line per check and exits 0, or 1 at the first that fails.
"""

from __future__ import annotations

import argparse
import doctest
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path


def check(what: str, ok: bool, detail: object = "") -> None:
    print(f"{'ok' if ok else 'FAILED'}: {what}" + (f" ({detail})" if detail and not ok else ""),
          flush=True)
    if not ok:
        raise SystemExit(1)


def parlour(*args: str, timeout: float = 300) -> subprocess.CompletedProcess[str]:
    """``parlour ARGS`` from this environment's scripts."""
    command = Path(sys.executable).with_name("parlour" + (".exe" if os.name == "nt" else ""))
    return subprocess.run([str(command), *args], capture_output=True, text=True,
                          timeout=timeout, check=False)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def get(url: str) -> tuple[int, str]:
    with urllib.request.urlopen(url, timeout=30) as answer:
        return answer.status, answer.read().decode()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--readme", required=True, help="the README whose examples to run")
    parser.add_argument("--version", default=None, help="the version parlour must say")
    parser.add_argument("--rl", action="store_true", help="check the rl extra's environments")
    parser.add_argument("--serve", action="store_true", help="check parlour serve")
    args = parser.parse_args()

    import parlour as package
    from parlour.bots import offered_bots

    where = Path(package.__file__).resolve()
    check(f"parlour {package.__version__} is imported from the installed package ({where})",
          "site-packages" in where.parts and "src" not in where.parts, where)
    for tool in ("cargo", "rustc"):
        check(f"no {tool} on the PATH", shutil.which(tool) is None, shutil.which(tool))

    answer = parlour("--version")
    expected = f"parlour {args.version or package.__version__}"
    check(f"parlour --version says {expected!r}", answer.stdout.strip() == expected,
          answer.stdout + answer.stderr)
    answer = parlour("variants")
    names = [v.name for v in package.variants()]
    check(f"parlour variants lists the {len(names)} variants",
          answer.returncode == 0 and all(n in answer.stdout for n in names), answer.stderr)

    for n, variant in enumerate(package.variants()):
        players = variant.default_players
        level = ("learned", "expert")[n % 2]
        if level == "learned" and "learned" not in offered_bots(variant.name):
            level = "expert"
        bots = ",".join([level] + ["greedy"] * (players - 1))
        answer = parlour("simulate", variant.name, "--games", "1", "--seed", "7", "--bots", bots)
        check(f"a deal of {variant.name} with {bots}", answer.returncode == 0,
              answer.stdout[-500:] + answer.stderr[-1000:])

    failures, tried = doctest.testfile(str(Path(args.readme).resolve()), module_relative=False,
                                       optionflags=doctest.ELLIPSIS, verbose=False)
    check(f"the README's {tried} examples", tried > 0 and failures == 0,
          f"{failures} of {tried} failed")

    if args.serve:
        serve(package.__version__)
    if args.rl:
        rl()
    print("all checks passed", flush=True)
    return 0


def serve(version: str) -> None:
    port = free_port()
    with tempfile.TemporaryDirectory() as folder:
        command = Path(sys.executable).with_name("parlour" + (".exe" if os.name == "nt" else ""))
        server = subprocess.Popen(
            [str(command), "serve", "--port", str(port), "--database",
             f"sqlite:///{Path(folder) / 'web.sqlite'}"], stdout=subprocess.PIPE, text=True)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    status, page = get(f"http://127.0.0.1:{port}/")
                    break
                except OSError:
                    if time.monotonic() > deadline or server.poll() is not None:
                        check("parlour serve answers", False, "it did not start")
                    time.sleep(0.2)
            check("parlour serve answers the page, its version in the footer",
                  status == 200 and f"parlour {version}</footer>" in page, page[-300:])
            status, body = get(f"http://127.0.0.1:{port}/api/variants")
            data = json.loads(body)
            check("parlour serve answers /api/variants",
                  status == 200 and data["version"] == version and len(data["variants"]) == 6,
                  body[:300])
        finally:
            if os.name == "nt":
                server.terminate()
            else:
                server.send_signal(signal.SIGINT)
            server.wait(30)


def rl() -> None:
    import numpy as np

    from parlour.envs import aec_env, batched_env, single_agent_env
    from parlour.envs.batched import sample_legal

    env = single_agent_env("big-two-4card", opponents="greedy", seat=0)
    env.reset(seed=3)
    done, steps = False, 0
    while not done:
        legal = np.flatnonzero(env.action_masks())
        _, _, done, truncated, _ = env.step(int(legal[0]))
        done, steps = done or truncated, steps + 1
    check(f"a Gymnasium environment plays a deal to its end ({steps} of its steps)", steps > 0)
    aec = aec_env("rummy")
    aec.reset(seed=1)
    check("a PettingZoo environment deals", aec.agent_selection in aec.possible_agents)
    batch = batched_env("forty-five", num_envs=8, seed=0)
    step = batch.reset()
    rng = np.random.default_rng(0)
    ended = 0
    for _ in range(100):
        step = batch.step(sample_legal(step, rng))
        ended += int(step.done.sum())
    check(f"a batched environment plays on ({ended} deals ended)", ended > 0)


if __name__ == "__main__":
    raise SystemExit(main())
