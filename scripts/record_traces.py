"""Record the differential traces of every variant's rules engine (``tests/fixtures/traces/``).

The traces pin down, position by position, what the engines do today, so that an engine
written anew under the same Python API (the planned Rust one) must reproduce them exactly:
``tests/test_traces.py`` replays them. The committed fixtures were made by::

    .venv/bin/python scripts/record_traces.py

(the defaults: ``--deals 2000 --base-seed 20261124``, every variant, written to
``tests/fixtures/traces/``; the script puts ``src`` and ``tests`` on the path itself). It runs
on one core, about 8.5 minutes of CPU time in all (rummy 3.3, pusoy-dos 1.4, each of the other
climbing games 1.1). The same command gives the same files, byte for byte, as long as the
engines and bots behave the same. Each deal's setup is checked to deal the same again
(``game.new_deal(**setup).setup() == setup``) as it is recorded.

What is played
--------------
Per variant, ``--deals`` deals in *runs*: a run is one game (a player count drawn uniformly from
the variant's, and the default options for half the runs, otherwise each option moved off its
default with probability one half: each switch flipped, another named choice, or a value from
:data:`INT_OPTIONS` for a number) and one way of playing, and deals one to four deals in a row
the way a match does (``game.match_start``, ``match_deal_setup``, ``match_after_deal``), so
that the later deals carry the leader, the dealer, the scores and the pool. The ways of playing:

- ``random``: every seat plays uniformly random legal actions;
- ``greedy``: every seat plays the ``greedy`` bot;
- ``mixed``: each seat ``random``, ``greedy`` or ``easy``;
- ``search``: one seat a :class:`~parlour.bots.search.SearchBot` of
  :data:`SEARCH_ITERATIONS` rollouts (a fixed budget, so reproducible), the others ``greedy``.

Rummy played by random seats alone mostly runs to its 1,000-turn limit; such runs play with a
``turn_limit`` of 10 to 60 turns instead.

Every random choice is seeded from ``--base-seed``: the runs from the string
``parlour-traces/{base}/{variant}``, each deal's bots from
``parlour-traces/{base}/{variant}/{deal}`` (strings seed :class:`random.Random` through SHA-512,
the same on every platform), and each deal is dealt by ``game.new_deal(seed=…, **args)``.

The fixture format
------------------
One file per variant, ``{variant}.json.xz``: a JSON object (sorted keys, compressed with lzma)
with ``format`` (``"parlour-traces/1"``), ``variant``, ``base_seed``, ``position_bytes``,
``deal_bytes`` and ``deals``, a list in playing order of objects with:

- ``players``, ``options`` (every option value): the game, ``parlour.new_game(variant,
  players=…, **options)``;
- ``seed`` and ``args``: the deal was ``game.new_deal(seed=seed, **args)``;
- ``setup``: its ``state.setup()`` at the start; ``game.new_deal(**setup)`` deals it again;
- ``run``, ``bots``: the run it belongs to and who played each seat (for reading only);
- ``actions`` and ``texts``: each action taken, ``int(action)`` and ``str(action)``;
- ``returns``: ``state.returns()`` at the end;
- ``positions``: hexadecimal, the first ``position_bytes`` bytes of the BLAKE2b digest of each
  position (before every action, and once more at the end), in order;
- ``digests``: ``play``, ``obs`` and ``cards``: a ``deal_bytes``-byte BLAKE2b digest per part of
  the positions, over all of them;
- ``full`` (the first :data:`FULL_DEALS` deals only): every position in full, as the JSON of
  the dict that was digested, plus ``legal_text`` (``[str(a) for a in legal]``).

A position, its canonical serialisation and the parts are defined in ``tests/trace_format.py``.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path[:0] = [str(ROOT / "src"), str(ROOT / "tests")]

import parlour  # noqa: E402
import trace_format as tf  # noqa: E402
from parlour.bots import Bot, SearchBot, SearchConfig, make_bot  # noqa: E402
from parlour.errors import VariantError  # noqa: E402
from parlour.game import Action, Game, State  # noqa: E402
from parlour.registry import get_variant  # noqa: E402

BASE_SEED = 20261124
DEALS = 2000
#: Deals per variant whose positions are stored in full, for debugging a mismatch by field.
FULL_DEALS = 20
SEARCH_ITERATIONS = 32
SEARCH_CANDIDATES = 4
MAX_STEPS = 20_000
#: Values tried for the whole-number options (the others are switches or named choices).
INT_OPTIONS: dict[str, tuple[int, ...]] = {
    "deals": (1, 3, 10),
    "penalty_limit": (10, 50, 200),
    "target": (15, 45, 120),
    "ante": (1, 2, 5),
    "starting_chips": (3, 20, 100),
    "hand_size": (0, 4, 7, 10, 13),
    "turn_limit": (20, 60, 150, 1000),
    "series_target": (0, 60, 200),
}
#: The ways of playing a run, and their weights.
MODES = ("random", "greedy", "mixed", "search")
MODE_WEIGHTS = (34, 30, 32, 4)
RANDOM_TURN_LIMITS = (10, 20, 40, 60)


def draw_options(variant: parlour.Variant, rng: random.Random) -> dict[str, Any]:
    """Default options (half the time), or each option moved off its default with
    probability one half."""
    options: dict[str, Any] = {}
    if rng.random() < 0.5:
        return options
    for info in variant.option_info():
        if isinstance(info.default, bool):
            value: Any = not info.default
        elif info.choices is not None:
            value = rng.choice([c for c in info.choices if c != info.default])
        elif info.name in INT_OPTIONS:
            value = rng.choice([v for v in INT_OPTIONS[info.name] if v != info.default])
        else:
            raise SystemExit(f"{variant.name}: no values to try for option {info.name}")
        if rng.random() < 0.5:
            options[info.name] = value
    return options


def draw_game(variant: parlour.Variant, rng: random.Random) -> Game:
    while True:
        players = rng.choice(variant.players)
        try:
            return parlour.new_game(variant.name, players=players, **draw_options(variant, rng))
        except VariantError:  # e.g. too many cards for the hands asked for
            continue


def seat_bots(mode: str, players: int, rng: random.Random) -> list[str]:
    if mode == "mixed":
        return [rng.choice(("random", "greedy", "easy")) for _ in range(players)]
    if mode == "search":
        bots = ["greedy"] * players
        bots[rng.randrange(players)] = "search"
        return bots
    return [mode] * players


def make(name: str) -> Bot:
    if name == "search":
        return SearchBot(SearchConfig(iterations=SEARCH_ITERATIONS,
                                      max_candidates=SEARCH_CANDIDATES))
    return make_bot(name)


def record_deal(state: State, bots: list[Bot], rng: random.Random, full: bool,
                ) -> dict[str, Any]:
    """Play ``state`` to its end, recording every position."""
    digests = tf.DealDigests()
    actions: list[int] = []
    texts: list[str] = []
    stored: list[dict[str, Any]] = []
    while True:
        legal = state.legal_actions()
        pos = tf.position(state, legal)
        digests.add(pos)
        if full:
            stored.append({**tf.plain(pos), "legal_text": [str(a) for a in legal]})
        if state.is_over:
            break
        if len(actions) >= MAX_STEPS:
            raise SystemExit(f"{state.game!r}: a deal did not end in {MAX_STEPS} actions")
        seat = state.current_player
        action: Action = bots[seat].choose(state.observation(seat), legal, rng)
        actions.append(int(action))
        texts.append(str(action))
        state.apply(action)
    deal: dict[str, Any] = {
        "actions": actions, "texts": texts, "returns": state.returns(),
        "positions": digests.positions.hex(), "digests": digests.parts(),
    }
    if full:
        deal["full"] = stored
    return deal


def record_variant(name: str, deals: int, base_seed: int) -> dict[str, Any]:
    variant = get_variant(name)
    runs = random.Random(f"parlour-traces/{base_seed}/{name}")
    out: list[dict[str, Any]] = []
    run = 0
    while len(out) < deals:
        game = draw_game(variant, runs)
        mode = runs.choices(MODES, MODE_WEIGHTS)[0]
        names = seat_bots(mode, game.players, runs)
        if (variant.family == "rummy" and set(names) == {"random"}
                and game.options.turn_limit > max(RANDOM_TURN_LIMITS)):
            options = {**game.option_values(), "turn_limit": runs.choice(RANDOM_TURN_LIMITS)}
            game = parlour.new_game(name, players=game.players, **options)
        bots = [make(b) for b in names]
        length = 1 if runs.random() < 0.6 else runs.randint(2, 4)
        carry = game.match_start()
        totals = list(game.match_initial_totals())
        for k in range(length):
            if len(out) == deals or (k and game.match_over(totals, k, carry)):
                break
            args = game.match_deal_setup(carry, runs)
            seed = runs.randrange(2**63)
            state = game.new_deal(seed=seed, **args)
            setup = state.setup()
            if game.new_deal(**setup).setup() != setup:
                raise SystemExit(f"{game!r}: new_deal(**setup) does not give the setup back")
            index = len(out)
            rng = random.Random(f"parlour-traces/{base_seed}/{name}/{index}")
            deal = {"players": game.players, "options": game.option_values(), "seed": seed,
                    "args": args, "setup": setup, "run": run, "bots": names}
            deal.update(record_deal(state, bots, rng, index < FULL_DEALS))
            out.append(deal)
            for seat, value in enumerate(state.returns()):
                totals[seat] += value
            carry = game.match_after_deal(carry, state)
        run += 1
    return {"format": tf.FORMAT, "variant": name, "base_seed": base_seed,
            "position_bytes": tf.POSITION_BYTES, "deal_bytes": tf.DEAL_BYTES, "deals": out}


def summary(data: dict[str, Any]) -> str:
    deals = data["deals"]
    positions = sum(len(d["actions"]) + 1 for d in deals)
    players = Counter(d["players"] for d in deals)
    defaults = parlour.new_game(data["variant"]).option_values()
    other = sum(d["options"] != defaults for d in deals)
    bots = Counter(b for d in deals for b in d["bots"])
    return (f"{len(deals)} deals, {positions} positions, players {dict(sorted(players.items()))}, "
            f"{other} with other options, seats played by {dict(bots)}")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--deals", type=int, default=DEALS, help="deals per variant")
    parser.add_argument("--base-seed", type=int, default=BASE_SEED)
    parser.add_argument("--variants", default="", help="comma-separated (default: all)")
    parser.add_argument("--out", type=Path, default=tf.FIXTURES, help="the folder to write to")
    args = parser.parse_args(argv)
    names = args.variants.split(",") if args.variants else [v.name for v in parlour.variants()]
    args.out.mkdir(parents=True, exist_ok=True)
    for name in names:
        start = time.process_time()
        data = record_variant(name, args.deals, args.base_seed)
        seconds = time.process_time() - start
        path = args.out / tf.fixture_path(name).name
        tf.save(path, data)
        print(f"{name}: {summary(data)}; {seconds:.0f} s CPU; {path} "
              f"{path.stat().st_size / 1024:.0f} KiB", flush=True)


if __name__ == "__main__":
    main()
