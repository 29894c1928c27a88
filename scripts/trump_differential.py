"""Play Forty-Five and Spoil Five deals through the package's engine and the pure-Python trump
engine of an earlier commit in lockstep, and count every difference.

Each deal first tries ``new_deal`` with odd arguments (bad hands, turn-ups, dealers, scores,
pools, settings) on both. At every step both engines are compared on the legal actions (values
and order), the player to move, every seat's ``observation(s).to_dict()``, ``returns()``,
``zones()``, ``hidden_from``, ``history``, and the refusal (exception type and message) of a
sample of illegal actions: any int as a hand-made action, moves of another phase, cards not
held, text, bad seats. (A word of an option that is off is refused in other words today,
naming the option: ``OPTION_OFF``.) Each of a sample of ``sample_state`` draws must show the
seat the observation it was drawn from (the draws themselves differ: today's sampler is the
compiled one). The reference is the whole package at the earlier commit, run on its own base
classes (``reference_package.py``).

    python scripts/trump_differential.py --deals 2000
    python scripts/trump_differential.py --rev f50fbd9 --deals 50

Exits 1 if anything differed.
"""

from __future__ import annotations

import argparse
import importlib
import itertools
import random
import re
import sys
import time
from dataclasses import asdict
from functools import partial
from types import ModuleType
from typing import Any

from reference_package import load_reference

import parlour
from parlour.errors import ParlourError
from parlour.game import Game

#: The last commit with the pure-Python trump engine.
REFERENCE = "f50fbd9"


def reference_game(reference: ModuleType, game: Game) -> Any:
    """``game``'s variant, players and options in the ``reference`` package."""
    return reference.new_game(game.variant.name, players=game.players, **asdict(game.options))


def configs() -> list[tuple[str, int, dict[str, Any]]]:
    out: list[tuple[str, int, dict[str, Any]]] = []
    for n in (2, 4, 6):
        for silent, pickup, scoring in itertools.product(
                (False, True), ("after_first_trick", "immediate"), ("primary", "alternative")):
            out.append(("forty-five", n, {"silent_ace": silent, "ace_pickup": pickup,
                                          "scoring": scoring}))
    for n in range(2, 11):
        for jinking, silent, pickup, ante in itertools.product(
                (False, True), (False, True), ("after_first_trick", "immediate"), (1, 2)):
            out.append(("spoil-five", n, {"jinking": jinking, "silent_ace": silent,
                                          "ace_pickup": pickup, "ante": ante}))
    return out


def outcome(call: Any) -> Any:
    """What ``call()`` returns, or the type and message of the error it raises."""
    try:
        return ("ok", call())
    except ParlourError as e:
        return ("error", type(e).__name__, str(e))


def state_view(state: Any) -> Any:
    n = state.game.players
    return (
        state.current_player,
        [int(a) for a in state.legal_actions()],
        [state.observation(s).to_dict() for s in range(n)],
        state.returns(),
        {k: (int(v), str(v)) for k, v in state.zones().items()},
        [(int(state.hidden_from(s)), str(state.hidden_from(s))) for s in range(n)],
        [(s, int(a), str(a)) for s, a in state.history],
        [str(state.hand(s)) for s in range(n)],
        state.is_over, state.winners(), state.setup(),
        state.robber, state.discard, state.pending_ace, state.turn_up, state.jinker,
        state.taker, state.leader, tuple(state.tricks_won), state.dealer, state.pool,
        int(state.play_mask()) if state.current_player >= 0 else None,
        str(state),
    )


def seat_call(state: Any, method: str, seat: Any) -> str:
    return str(getattr(state, method)(seat))


def deal_setup(game: Any, kwargs: dict[str, Any]) -> Any:
    state = game.new_deal(**kwargs)
    return state.setup(), [state.observation(s).to_dict() for s in range(game.players)]


def illegal_probes(rng: random.Random, state: Any) -> list[Any]:
    """Values and texts to try: most of them illegal now."""
    legal = {int(a) for a in state.legal_actions()}
    values = [rng.randrange(-3, 140) for _ in range(6)] + [rng.randrange(52), 64 + rng.randrange(52)]
    values += [128, 129, 130, 131, 132, 2**70, -2**70]
    values = [v for v in values if v not in legal]
    texts = ["", "rob", "keep", "xx", "rob 1X", "rob", str(rng.randrange(99)), "10h", "rob ah",
             "jink", "stop", "silent"]
    return [("value", v) for v in values] + [("text", t) for t in texts] + [("other", 1.5),
                                                                           ("other", None)]


def deal_probes(rng: random.Random, n: int) -> list[dict[str, Any]]:
    """``new_deal`` arguments, most of them refused."""
    deck = [str(c) for c in parlour.cards.CARDS]
    rng.shuffle(deck)
    hands = [" ".join(deck[5 * s:5 * s + 5]) for s in range(n)]
    up = deck[5 * n]
    return [
        {"hands": hands, "turn_up": up, "dealer": rng.randrange(-1, n + 1)},
        {"hands": hands, "turn_up": hands[0].split()[0]},
        {"hands": hands[:-1], "turn_up": up},
        {"hands": [*hands[:-1], hands[0]], "turn_up": up},
        {"hands": [*hands[:-1], hands[-1] + " 1X"], "turn_up": up},
        {"hands": [*hands[:-1], " ".join(hands[-1].split()[:4])], "turn_up": up},
        {"hands": hands, "turn_up": rng.choice([None, 52, -1, "ZZ", 3.0, True])},
        {"hands": hands},
        {"hands": "2C 3C", "turn_up": up},
        {"hands": [*hands[:-1], 7], "turn_up": up},
        {"seed": rng.randrange(99), "turn_up": up},
        {"seed": rng.randrange(99), "hands": hands, "turn_up": up},
        {"seed": "x"},
        {"seed": rng.randrange(99), "dealer": True},
        {"seed": rng.randrange(99), "scores": rng.choice([[1], [1, 2], [0] * n, "0", [1.5] * n])},
        {"seed": rng.randrange(99), "pool": rng.choice([0, -1, 3 * n, 2**70, "5", 2.0])},
        {"seed": rng.randrange(99), "colour": "red"},
        {"deck": deck[:51]},
        {"deck": deck, "dealer": n - 1},
        {"deck": b"2C"},
    ]


#: Today's refusal of a word whose option is off names the option ("spoil-five has no jink
#: (jinking is off)"), where the reference gave the refusal of the deal's phase.
OPTION_OFF = re.compile(r"(forty-five|spoil-five) has no \w+ \(.+ is off\)")


def refusals_agree(ours: Any, theirs: Any) -> bool:
    """The same outcome, a refusal of an option that is off by class alone."""
    if ours[0] == theirs[0] == "error" and OPTION_OFF.fullmatch(ours[2]):
        return bool(ours[1] == theirs[1])
    return bool(ours == theirs)


def probe(state: Any, moves: dict[int, Any], action_type: type, kind: str, value: Any) -> Any:
    if kind == "value":
        action = moves.get(value) if value in moves else int.__new__(action_type, value)
        return outcome(lambda: state.apply(action))
    return outcome(lambda: state.apply(value))


def run(deals: int, rev: str, seed: int) -> int:
    reference = load_reference(rev)
    ref_actions = importlib.import_module("parlour_reference.games.trump.actions")
    new_actions = importlib.import_module("parlour.games.trump.actions")
    rng = random.Random(seed)
    mismatches = steps = probes = samples = played = deal_checks = 0
    cfgs = configs()
    start = time.perf_counter()
    for i in range(deals):
        variant, n, options = cfgs[i % len(cfgs)]
        game = parlour.new_game(variant, players=n, **options)
        ref_game = reference_game(reference, game)
        deal_seed = rng.randrange(2**32)
        setup: dict[str, Any] = {"dealer": deal_seed % n}
        if variant == "spoil-five" and i % 3 == 0:
            setup["pool"] = n * options["ante"] + rng.randrange(5)
            setup["scores"] = [rng.randrange(40) for _ in range(n)]
        if variant == "forty-five" and i % 3 == 0:
            setup["scores"] = [rng.randrange(40), rng.randrange(40)]
        if i % 7 == 0:
            # A turned ace (the dealer may rob it), from explicit hands.
            deck = list(range(52))
            random.Random(deal_seed).shuffle(deck)
            up = 48 + rng.randrange(4)
            deck.remove(up)
            hands = [" ".join(str(parlour.cards.CARDS[c]) for c in deck[5 * s:5 * s + 5])
                     for s in range(n)]
            kwargs: dict[str, Any] = {"hands": hands, "turn_up": str(parlour.cards.CARDS[up])}
        else:
            kwargs = {"seed": deal_seed}
        for bad in deal_probes(rng, n):
            deal_checks += 1
            x = outcome(partial(deal_setup, game, bad))
            y = outcome(partial(deal_setup, ref_game, bad))
            if x != y:
                mismatches += 1
                print(f"deal {i} {variant} {n}: new_deal({bad!r}):", x, y, sep="\n  ")
        new = game.new_deal(**kwargs, **setup)
        old = ref_game.new_deal(**kwargs, **setup)
        greedy = i % 2 == 1
        while True:
            steps += 1
            a, b = state_view(new), state_view(old)
            if a != b:
                mismatches += 1
                print(f"deal {i} {variant} {n} {options} step {steps}: views differ", a, b,
                      sep="\n  ")
                break
            accepted = False
            for kind, value in illegal_probes(rng, new):
                probes += 1
                # On both real states: a refusal must leave each unchanged (the views are
                # compared again), an accepted text moves both on alike.
                x = probe(new, new_actions.MOVES, new_actions.TrumpAction, kind, value)
                y = probe(old, ref_actions.MOVES, ref_actions.TrumpAction, kind, value)
                if x[0] == "ok" or y[0] == "ok":
                    accepted = True
                    if x[0] != y[0]:
                        mismatches += 1
                        print(f"deal {i} step {steps}: {kind} {value!r}: {x} vs {y}")
                    break
                if not refusals_agree(x, y):
                    mismatches += 1
                    print(f"deal {i} {variant} {n} {options} step {steps}: {kind} {value!r}:",
                          x, y, sep="\n  ")
            if accepted:
                continue
            for bad_seat in (-1, n, "0", 1.0, True):
                for method in ("observation", "hidden_from", "hand"):
                    probes += 1
                    x = outcome(partial(seat_call, new, method, bad_seat))
                    y = outcome(partial(seat_call, old, method, bad_seat))
                    if x != y or x[0] == "ok":
                        mismatches += 1
                        print(f"deal {i} bad seat {bad_seat!r} {method}: {x} vs {y}")
            if new.is_over:
                break
            seat = new.current_player
            if steps % 5 == 0:
                samples += 1
                sampled = new.observation(seat).sample_state(random.Random(rng.randrange(2**32)))
                if sampled.observation(seat).to_dict() != new.observation(seat).to_dict():
                    mismatches += 1
                    print(f"deal {i} step {steps}: a state sampled for P{seat} shows another view")
            legal = new.legal_actions()
            if greedy:
                action = game.greedy_action(new.observation(seat), legal, random.Random(steps))
            else:
                action = rng.choice(legal)
            v = int(action)
            if i % 4 == 0:
                # Through the notation on both sides.
                new.apply(str(action))
                old.apply(str(ref_actions.MOVES[v]))
            else:
                new.apply(action)
                old.apply(ref_actions.MOVES[v])
            if steps % 9 == 0:
                new, old = new.clone(), old.clone()
        played += 1
    elapsed = time.perf_counter() - start
    print(f"{played} deals, {steps} steps compared, {probes} illegal or odd inputs, "
          f"{samples} sample_state draws, {deal_checks} new_deal calls with odd arguments; "
          f"{mismatches} mismatches ({elapsed:.0f} s)")
    return mismatches


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--rev", default=REFERENCE, help="the commit of the reference engine")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    sys.exit(1 if run(args.deals, args.rev, args.seed) else 0)


if __name__ == "__main__":
    main()
