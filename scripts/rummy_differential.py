"""Play rummy deals through the compiled engine and the pure-Python engine it replaced, in
lockstep, and count every difference.

The reference engine is read from git (``--reference``, a commit that still has the Python
engine): the package at that commit, whole, in a throwaway folder (``reference_package.py``), so
it never ships. At every step it compares the legal action
ints and their order, the player to move, every seat's ``observation(s).to_dict()`` and
``hidden_from(s)``, ``returns()``, ``winners()``, ``zones()`` and ``position()``, and applies a
sample of illegal actions to both (class and message of the refusal, state unchanged after);
now and then a ``sample_state`` from both, which must show the seat the same view.

    python scripts/rummy_differential.py --deals 3000
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import random
import sys
from types import ModuleType
from typing import Any

from reference_package import load_reference

import parlour
from parlour.errors import ParlourError

REFERENCE = "f50fbd9"  # the last commit with the pure-Python rummy engine


def snapshot(state: Any, players: int, full: bool = True) -> Any:
    """What is compared; ``full`` adds the observations as dicts and the position, which grow
    with the history (so a long deal compares them at every step only at its start)."""
    cheap = (
        [int(a) for a in state.legal_actions()],
        state.current_player,
        [state.observation(s).hand for s in range(players)],
        [int(state.hidden_from(s)) for s in range(players)],
        state.returns(),
        state.winners(),
        {k: int(v) for k, v in state.zones().items()},
        len(state.history),
        state.is_over,
    )
    if not full:
        return cheap
    return (*cheap, [state.observation(s).to_dict() for s in range(players)], state.position(),
            [(seat, int(a)) for seat, a in state.history])


def refusal(state: Any, value: Any) -> tuple[str, str]:
    try:
        state.apply(value)
    except ParlourError as e:
        return type(e).__name__, str(e)
    return "applied", ""


def illegal_samples(rng: random.Random, legal: list[int], old_action: Any) -> list[Any]:
    """Some actions, most of them illegal, as ints, action objects of both engines, and text."""
    values = [0, 1, 4 | 1 << (3 + rng.randrange(52)), 2 | rng.getrandbits(52) << 3,
              3 | (1 << rng.randrange(52)) << 3 | rng.randrange(6) << 55,
              3 | (7 << (3 + 13 * rng.randrange(4) + rng.randrange(10))) | rng.randrange(4) << 55,
              2 | (7 << (3 + 13 * rng.randrange(4) + rng.randrange(10))),
              rng.getrandbits(70), 5, 3 | 1 << 3 | 1 << 90]
    values = [v for v in values if v not in legal]
    out: list[Any] = []
    for v in values:
        out.append(("int", v))
        try:
            out.append(("action", v))
            old_action(v)
        except ParlourError:
            out.pop()
    out.append(("text", "meld 4c 5c"))
    out.append(("text", "layoff KD on 9"))
    return rng.sample(out, 3)


def play(reference: ModuleType, players: int, options: dict[str, Any], seed: int,
         greedy: bool, stats: dict[str, int]) -> list[str]:
    """One deal in lockstep; the differences found (empty when none)."""
    from parlour.games.rummy.actions import RummyAction

    game = parlour.new_game("rummy", players=players, **options)
    old_game = reference.new_game("rummy", players=players, **options)
    old_action = importlib.import_module("parlour_reference.games.rummy.actions").RummyAction
    new, old = game.new_deal(seed=seed), old_game.new_deal(seed=seed)
    rng = random.Random(seed)
    bad: list[str] = []
    step = 0
    while True:
        stats["steps"] += 1
        full = step < 40 or step % 20 == 0 or new.is_over or old.is_over
        stats["full"] += full
        a, b = snapshot(new, players, full), snapshot(old, players, full)
        if a != b:
            names = ("legal", "current", "hands", "hidden", "returns", "winners", "zones",
                     "played", "over", "observations", "position", "history")
            diff = [n for n, x, y in zip(names, a, b, strict=True) if x != y]
            bad.append(f"seed {seed} step {step}: {diff}")
            return bad
        if new.setup() != old.setup():
            bad.append(f"seed {seed} step {step}: setup")
        if new.is_over:
            break
        legal = a[0]
        for how, v in illegal_samples(rng, legal, old_action):
            stats["illegal"] += 1
            n2, o2 = new.clone(), old.clone()
            if how == "int":
                r1, r2 = refusal(n2, v), refusal(o2, v)
            elif how == "action":
                r1, r2 = refusal(n2, RummyAction(v)), refusal(o2, old_action(v))
            else:
                r1, r2 = refusal(n2, v), refusal(o2, v)
            if r1 != r2:
                bad.append(f"seed {seed} step {step}: {how} {v}: {r1} != {r2}")
            elif r1[0] != "applied":
                stats["refused"] += 1
                if snapshot(n2, players, False) != snapshot(new, players, False):
                    bad.append(f"seed {seed} step {step}: refused {v} changed the state")
        if step % 29 == 0:
            seat = rng.randrange(players)
            sample_seed = rng.getrandbits(32)
            s1 = new.observation(seat).sample_state(random.Random(sample_seed))
            s2 = old.observation(seat).sample_state(random.Random(sample_seed))
            stats["samples"] += 1
            # The sampler is compiled now and deals from its own generator: the two samples
            # hold other hidden cards, and must show the seat the same view as the deal.
            seen = s1.observation(seat)
            if seen != new.observation(seat) or seen.to_dict() != s2.observation(seat).to_dict():
                bad.append(f"seed {seed} step {step}: sample_state of seat {seat}")
        if greedy and rng.random() < 0.8:
            choice = int(game.greedy_action(new.observation(new.current_player),
                                            new.legal_actions(), rng))
        else:
            choice = rng.choice(legal)
        new.apply(RummyAction(choice))
        old.apply(old_action(choice))
        step += 1
        if bad:
            return bad
    return bad


# Random play seldom goes out: turn limits keep most deals short (the default limit, 1000, is
# played by the first combination).
BAD_VALUES: list[Any] = [
    None, "x", 1.5, True, -1, 0, 1, 2, 3, 7, 10**30, -(10**30), [], ["ZZ"], "3D 4D", {"a": 1},
    "...", ["AS", "AS"], "2C 3C 4C", ["2C 3C 4C"], ["2C 3C 4C", "9H"], ["KS QS JS"], "play",
    "draw", "stock", "discard", "AH", "2C", [1, 2], [0, 0, 0, 0], [[0, "draw stock"]],
    {"actions": [], "discard_draws": [], "rebuilds": []},
    {"actions": [[0, "draw discard"]], "discard_draws": ["9S"], "rebuilds": [1]},
    {"actions": [[5, "draw stock"]], "discard_draws": [], "rebuilds": []},
    {"actions": [[0, "meld"]], "discard_draws": [], "rebuilds": []},
]
SETUP_KEYS = ("seed", "hands", "stock", "discard", "melds", "placed", "scores", "taken",
              "player", "phase", "drawn", "drawn_from", "turn", "past", "deck", "bogus")


def bad_setups(reference: ModuleType, count: int, stats: dict[str, int]) -> list[str]:
    """``new_deal`` with ``count`` positions, most of them wrong, through both engines: the same
    refusal (class and message), or the same position."""
    rng = random.Random(7)
    bad: list[str] = []
    for i in range(count):
        players = rng.choice((2, 3, 4))
        turn_limit = rng.choice((5, 1000))
        game = parlour.new_game("rummy", players=players, turn_limit=turn_limit)
        old_game = reference.new_game("rummy", players=players, turn_limit=turn_limit)
        hands = ["5H 6H 7H", "2C 3D 4S", "KD KC", "AS 2S"][:players]
        setup: dict[str, Any] = {
            "hands": hands, "stock": "9C ...", "discard": "9D", "melds": ["JS QS KS"],
            "placed": ["JS QS KS"] + [[]] * (players - 1), "scores": [30] + [0] * (players - 1),
            "taken": [[]] * players, "player": rng.randrange(players), "phase": "play",
            "drawn": "5H", "drawn_from": "stock", "turn": 3,
        }
        for key in rng.sample(SETUP_KEYS, rng.randrange(0, 3)):
            if rng.random() < 0.2:
                setup.pop(key, None)
            else:
                setup[key] = rng.choice(BAD_VALUES)
        if rng.random() < 0.1:
            setup = {"seed": rng.choice(BAD_VALUES), "deck": rng.choice(BAD_VALUES)}
        if setup.get("seed") is None:  # a seed left out is drawn afresh for each engine
            setup["seed"] = i
        results = []
        for g in (game, old_game):
            try:
                state = g.new_deal(**setup)
            except (ParlourError, TypeError) as e:
                results.append((type(e).__name__, str(e)))
            else:
                results.append(("ok", snapshot(state, players)))
        stats["setups"] += 1
        stats["setups refused"] += results[0][0] != "ok"
        if results[0] != results[1]:
            bad.append(f"setup {i} {setup!r}: {results[0]!r:.300} != {results[1]!r:.300}")
    return bad


OPTIONS: list[dict[str, Any]] = [
    {},
    {"forbid_discard_of_drawn_discard": True, "turn_limit": 120},
    {"score_melds": False, "tie_break": "went-out", "turn_limit": 200},
    {"forbid_discard_of_drawn_discard": True, "score_melds": False, "turn_limit": 40},
    {"hand_size": 3, "turn_limit": 300},
    {"hand_size": 5, "forbid_discard_of_drawn_discard": True},
    {"hand_size": 12, "turn_limit": 25},
    {"turn_limit": 3},
]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=1000)
    parser.add_argument("--reference", default=REFERENCE)
    parser.add_argument("--first-seed", type=int, default=0)
    parser.add_argument("--setups", type=int, default=2000)
    args = parser.parse_args()
    reference = load_reference(args.reference)
    stats = {"setups": 0, "setups refused": 0, "deals": 0, "steps": 0, "full": 0, "illegal": 0, "refused": 0, "samples": 0}
    mismatches = bad_setups(reference, args.setups, stats)
    for line in mismatches:
        print(f"MISMATCH {line}", flush=True)
    combos = itertools.cycle(itertools.product((2, 3, 4), OPTIONS, (False, True)))
    for i in range(args.deals):
        players, options, greedy = next(combos)
        if players * (options.get("hand_size") or (10 if players == 2 else 7)) + 1 > 52:
            options = {k: v for k, v in options.items() if k != "hand_size"}
        found = play(reference, players, options, args.first_seed + i, greedy, stats)
        stats["deals"] += 1
        for line in found:
            print(f"MISMATCH {players}p {options} greedy={greedy}: {line}", flush=True)
        mismatches += found
        if (i + 1) % 100 == 0:
            print(f"{i + 1} deals: {stats}, {len(mismatches)} mismatches", flush=True)
    print(f"done: {stats}, {len(mismatches)} mismatches")
    sys.exit(1 if mismatches else 0)


if __name__ == "__main__":
    main()
