"""Play climbing deals through this checkout's engine and a reference revision's, in lockstep.

The reference is the package as it was at ``--rev`` (by default the last commit with the pure
Python climbing engine), extracted from git into a temporary folder and imported under another
name (``parlour_reference``), so both run in one process. Every variant and every combination of
its rule options is played: fresh deals from seeds, deals led freely, and positions composed
mid-deal (``new_deal(hands=…, out=…, table=…)``), with random and greedy play. At every step the
two must agree on the legal actions (values and order), the player to move, every seat's
observation (``to_dict()``), ``returns()``, ``zones()``, ``hidden_from()``, ``placements`` and
``setup()``, and on the error (type and message) for a sample of illegal actions; now and then a
clone is played on and the original must not change, and a state sampled from a seat's
observation must show that seat the same observation. (The samples themselves differ: the
compiled sampler draws its worlds in its own way.) Refusals reworded since the reference are
compared in today's words (``REWORDED``), and its scores of -0 as 0.

    python scripts/climbing_differential.py --deals 100
"""

from __future__ import annotations

import argparse
import itertools
import json
import random
from types import ModuleType
from typing import Any

from reference_package import load_reference

import parlour

REFERENCE_REV = "c83dfda"

CONFIGS: list[tuple[str, dict[str, Any]]] = [("big-two-4card", {})]
CONFIGS += [("big-two", dict(zip(("allow_triples", "straights", "flush_order",
                                   "pass_only_if_no_legal_play"), values, strict=True)))
            for values in itertools.product((False, True), ("standard", "hong-kong"),
                                            ("suit-first", "top-card"), (False, True))]
CONFIGS += [("pusoy-dos", dict(zip(("straights", "control_after_out", "scoring"), values,
                                   strict=True)))
            for values in itertools.product(("seed", "all-wraps", "hong-kong"),
                                            ("next-player", "standard"), ("placement", "penalty"))]


class Mismatch(AssertionError):
    pass


def same(what: str, ours: object, theirs: object, where: str) -> None:
    if ours != theirs:
        raise Mismatch(f"{where}: {what} differ\n  ours:      {ours!r}\n  reference: {theirs!r}")


def refusal(state: Any, text: str) -> tuple[str, str] | None:
    """``(error type, message)`` when applying ``text`` is refused, else None (and applied)."""
    try:
        state.apply(text)
    except ValueError as e:
        return type(e).__name__, str(e)
    return None


#: Refusals reworded since the reference (a plural put right), as (then, now).
REWORDED = [("play 1 cards that beat it", "play 1 card that beats it")]


def reworded(outcome: tuple[str, str] | None) -> tuple[str, str] | None:
    """The reference's refusal in today's words."""
    if outcome is None:
        return None
    kind, message = outcome
    for then, now in REWORDED:
        message = message.replace(then, now)
    return kind, message


def unsigned_zeros(value: Any) -> Any:
    """``value`` with each -0.0 as 0.0: today's engine no longer scores a seat -0."""
    if isinstance(value, float):
        return value + 0.0
    if isinstance(value, dict):
        return {k: unsigned_zeros(v) for k, v in value.items()}
    if isinstance(value, list):
        return [unsigned_zeros(v) for v in value]
    return value


class Counts:
    def __init__(self) -> None:
        self.deals = self.steps = self.observations = self.illegal = self.clones = 0
        self.samples = self.composed = 0


def compare(ours: Any, ref: Any, where: str, counts: Counts) -> None:
    same("legal actions", [int(a) for a in ours.legal_actions()],
         [int(a) for a in ref.legal_actions()], where)
    same("legal action texts", [str(a) for a in ours.legal_actions()],
         [str(a) for a in ref.legal_actions()], where)
    same("current player", ours.current_player, ref.current_player, where)
    same("returns", ours.returns(), ref.returns(), where)
    same("history", [(s, int(a)) for s, a in ours.history],
         [(s, int(a)) for s, a in ref.history], where)
    same("zones", {k: int(v) for k, v in ours.zones().items()},
         {k: int(v) for k, v in ref.zones().items()}, where)
    same("placements", ours.placements, ref.placements, where)
    same("setup", ours.setup(), ref.setup(), where)
    same("winners", ours.winners(), ref.winners(), where)
    for seat in range(4):
        same(f"P{seat}'s observation", json.dumps(ours.observation(seat).to_dict()),
             json.dumps(unsigned_zeros(ref.observation(seat).to_dict())), where)
        same(f"hidden from P{seat}", int(ours.hidden_from(seat)), int(ref.hidden_from(seat)),
             where)
        counts.observations += 1


def candidates(ref: Any, rng: random.Random) -> list[str]:
    """Action texts to try, most of them illegal: plays of the mover's hand that are not legal,
    plays holding another seat's cards, a pass, and text that is no play."""
    out = ["pass", "3D 4S", "XX"]
    table = ref.game.table
    p = ref.current_player
    legal = {int(a) for a in ref.legal_actions()}
    if p >= 0:
        mine = [a for a in table.hand_combos(table.key_of(ref.hand(p))) if int(a) not in legal]
        out += [str(a) for a in rng.sample(mine, min(3, len(mine)))]
        other = rng.choice([s for s in range(4) if s != p])
        theirs = table.hand_combos(table.key_of(ref.hand(other)))
        out += [str(a) for a in rng.sample(theirs, min(2, len(theirs)))]
    return out


def play_deal(name: str, options: dict[str, Any], seed: int, reference: ModuleType,
              counts: Counts) -> None:
    rng = random.Random(seed)
    ours_game = parlour.new_game(name, **options)
    ref_game = reference.new_game(name, **options)
    kind = seed % 4
    setup: dict[str, Any] = {"seed": seed}
    if kind == 1:
        setup["leader"] = rng.randrange(4)
    ours, ref = ours_game.new_deal(**setup), ref_game.new_deal(**setup)
    greedy = seed % 2 == 0
    compose_at = rng.randrange(5, 40) if kind == 3 else -1
    step = 0
    where = f"{name} {options} seed={seed}"
    while True:
        here = f"{where} step {step}"
        compare(ours, ref, here, counts)
        if step == compose_at and not ref.is_over:
            setup = composed(ref)
            ours, ref = ours_game.new_deal(**setup), ref_game.new_deal(**setup)
            counts.composed += 1
            compare(ours, ref, here + " (composed)", counts)
        for text in candidates(ref, rng):
            a, b = refusal(ours.clone(), text), reworded(refusal(ref.clone(), text))
            same(f"outcome of {text!r}", a, b, here)
            counts.illegal += 1
        if step % 7 == 3:
            for seat in range(4):
                k = rng.randrange(1000)
                sampled = ours.observation(seat).sample_state(random.Random(k))
                same("sampled observation", json.dumps(sampled.observation(seat).to_dict()),
                     json.dumps(ours.observation(seat).to_dict()), here)
                counts.samples += 1
        if ref.is_over:
            break
        legal = ref.legal_actions()
        if greedy:
            choice = ref_game.greedy_action(ref.observation(ref.current_player), legal, rng)
        else:
            choice = rng.choice(legal)
        if step % 11 == 5:  # a clone played on leaves the original as it was
            before = json.dumps([ours.observation(s).to_dict() for s in range(4)])
            twin = ours.clone()
            twin.apply(str(rng.choice(legal)))
            same("observations after a clone moved", json.dumps(
                [ours.observation(s).to_dict() for s in range(4)]), before, here)
            counts.clones += 1
        ours.apply(str(choice))
        ref.apply(str(choice))
        step += 1
        counts.steps += 1
    counts.deals += 1


def composed(state: Any) -> dict[str, Any]:
    """``new_deal`` keywords that start a deal at ``state``'s present position."""
    obs = state.observation(0)
    hands = [str(state.hand(s)) for s in range(4)]
    setup: dict[str, Any] = {"hands": hands}
    table = obs.table
    held = set().union(*[{str(c) for c in state.hand(s)} for s in range(4)])
    table_cards = {str(c) for c in table.cards} if table is not None else set()
    out = [str(c) for c in parlour.CardSet((1 << 52) - 1) if str(c) not in held | table_cards]
    if out:
        setup["out"] = out
    if obs.finished:
        setup["finished"] = list(obs.finished)
    if table is None:
        setup["leader"] = state.current_player
    else:
        setup.update(table=str(table), table_seat=obs.table_seat, passes=obs.passes)
    return setup


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rev", default=REFERENCE_REV, help="the reference revision")
    parser.add_argument("--deals", type=int, default=100, help="deals per ruleset")
    parser.add_argument("--first-seed", type=int, default=0)
    args = parser.parse_args()
    reference = load_reference(args.rev)
    counts = Counts()
    for name, options in CONFIGS:
        for seed in range(args.first_seed, args.first_seed + args.deals):
            try:
                play_deal(name, options, seed, reference, counts)
            except Mismatch as e:
                print(f"MISMATCH {e}")
                return 1
    print(f"{len(CONFIGS)} rulesets, {counts.deals} deals ({counts.composed} composed mid-deal), "
          f"{counts.steps} steps, {counts.observations} observations, {counts.illegal} refused "
          f"or tried actions, {counts.clones} clones, {counts.samples} sampled states: "
          "no mismatch")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
