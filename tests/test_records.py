"""Records: saved matches replay and resume exactly; every kind of damage to one is refused by
name; saving is atomic; loading never fails with anything but a one-line ``RecordError``."""

from __future__ import annotations

import copy
import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import parlour
from parlour.bots import Bot, make_bot
from parlour.errors import RecordError
from parlour.game import State
from parlour.match import Match
from parlour.records import (
    check_save_path,
    deal_record,
    load,
    match_record,
    replay_deal,
    replay_match,
    resume_match,
    save,
)

#: Matches of a few deals, each carrying something from deal to deal (who leads, who deals,
#: the pool, the series totals).
CONFIGS: dict[str, tuple[int, dict[str, Any]]] = {
    "big-two-4card": (4, {"deals": 3}),
    "big-two": (4, {"match_end": "deals", "deals": 3}),
    "pusoy-dos": (4, {"deals": 3, "next_leader": "winner"}),
    "forty-five": (4, {"target": 15}),
    "spoil-five": (3, {"deals": 4}),
    "rummy": (2, {"series_target": 150}),
}
#: The setup entry each variant's match carries from deal to deal.
CARRIED = {"big-two-4card": "leader", "big-two": "leader", "pusoy-dos": "leader",
           "forty-five": "dealer", "spoil-five": "pool", "rummy": "seed"}
SEED = 7
Record = dict[str, Any]


def bots_for(players: int) -> list[Bot]:
    return [make_bot("greedy"), *[make_bot("random")] * (players - 1)]


def bot_step(match: Match, state: State, bots: list[Bot]) -> None:
    seat = state.current_player
    state.apply(bots[seat].choose(state.observation(seat), state.legal_actions(), match.bot_rng()))


def play_match(name: str, stop: tuple[int, int | None] | None = None) -> Match:
    """Bots play a match of ``name``; ``stop=(deals, actions)`` stops once ``deals`` deals are
    scored, after ``actions`` actions of the next deal (``None``: before it is dealt)."""
    players, options = CONFIGS[name]
    match = parlour.new_game(name, players=players, **options).new_match(seed=SEED)
    bots = bots_for(players)
    while not match.is_over:
        if stop is not None and len(match.deals) == stop[0]:
            if stop[1] is not None:
                state = match.next_deal()
                for _ in range(stop[1]):
                    bot_step(match, state, bots)
            return match
        match.play_out(match.next_deal(), bots)
    assert stop is None, f"{name} ended before deal {stop and stop[0] + 1}"
    return match


def finish(match: Match) -> None:
    bots = bots_for(match.game.players)
    if match.current is not None:
        match.play_out(match.current, bots)
    while not match.is_over:
        match.play_out(match.next_deal(), bots)


@pytest.fixture(scope="module")
def saved(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[str, str], Record]:
    """Real saved records of every configuration: a finished match, and one stopped in the
    middle of its second deal."""
    directory = tmp_path_factory.mktemp("records")
    records = {}
    for name in CONFIGS:
        for kind, stop in (("finished", None), ("unfinished", (1, 5))):
            match = play_match(name, stop)
            assert len(match.deals) >= (2 if stop is None else 1)
            path = directory / f"{name}-{kind}.json"
            save(match_record(match), path)
            records[name, kind] = load(path)
    return records


def refused(call: Callable[[], object]) -> str:
    with pytest.raises(RecordError) as info:
        call()
    message = str(info.value)
    assert "\n" not in message
    return message


# -- untampered records replay -----------------------------------------------------------------


@pytest.mark.parametrize("kind", ["finished", "unfinished"])
@pytest.mark.parametrize("name", CONFIGS)
def test_saved_records_replay_and_resume(saved: dict[tuple[str, str], Record], name: str,
                                         kind: str) -> None:
    record = saved[name, kind]
    states = replay_match(record)
    assert [[[seat, str(action)] for seat, action in s.history] for s in states] == [
        d["actions"] for d in record["deals"]
    ]
    resumed = resume_match(record)
    assert (resumed.current is None) == (kind == "finished")
    assert resumed.is_over == (kind == "finished")
    assert json.loads(json.dumps(match_record(resumed))) == record
    # The version of the package that wrote it, beside the record's own format.
    assert (record["format"], record["parlour"]) == ("parlour-match/1", parlour.__version__)
    assert all("parlour" not in deal for deal in record["deals"])


def test_a_record_written_by_another_version_replays(saved: dict[tuple[str, str], Record]) -> None:
    """What a replay reads is the record's format: the version that wrote it is information."""
    for record in saved.values():
        older = {k: v for k, v in record.items() if k != "parlour"}
        assert len(replay_match(older)) == len(replay_match({**record, "parlour": "9.9.9"}))


# -- tampered records are refused, naming the problem -----------------------------------------


def _other_variant_deal(name: str) -> Record:
    other = "pusoy-dos" if name == "big-two" else "big-two"
    state = parlour.new_game(other).new_deal(seed=1)
    rng = random.Random(1)
    while not state.is_over:
        state.apply(rng.choice(state.legal_actions()))
    return deal_record(state)


def _change_carried(rec: Record) -> str:
    key = CARRIED[rec["variant"]]
    setup = rec["deals"][1]["setup"]
    old = setup.get(key)
    if key in ("leader", "dealer"):
        setup[key] = 1 if old is None else (old + 1) % rec["players"]
    else:
        setup[key] = old + 1
    return f"deal 2: its setup has {key}={setup[key]!r}"


def _swap_deals(rec: Record) -> str:
    deals = rec["deals"]
    deals[0], deals[1] = deals[1], deals[0]
    return "deal 1: its setup has "


def _first_option(rec: Record) -> str:
    return str(next(iter(rec["options"])))


def _bad_option(rec: Record) -> str:
    option = _first_option(rec)
    rec["options"][option] = "not-a-value"
    return f"({option}) must be "


def _deal_with_other_options(rec: Record) -> str:
    option = _first_option(rec)
    rec["deals"][1]["options"][option] = "not-a-value"
    return f"deal 2: its option {option} is 'not-a-value', but the match's is"


def _out_of_turn(rec: Record) -> str:
    action = rec["deals"][0]["actions"][0]
    action[0] = (action[0] + 1) % rec["players"]
    return f"deal 1: action 1 ({action[1]}) is by P{action[0]}, but P"


def _complement_winners(rec: Record) -> str:
    rec["winners"] = [s for s in range(rec["players"]) if s not in rec["winners"]]
    return "the winners are"


def _parent(rec: Record, path: tuple[Any, ...]) -> Any:
    """The object or list that holds the field at ``path``."""
    target: Any = rec
    for key in path[:-1]:
        target = target[key]
    return target


def _set(path: tuple[Any, ...], value: Any, message: str) -> Callable[[Record], str]:
    def tamper(rec: Record) -> str:
        _parent(rec, path)[path[-1]] = value
        return message

    return tamper


def _delete(path: tuple[Any, ...], message: str) -> Callable[[Record], str]:
    def tamper(rec: Record) -> str:
        del _parent(rec, path)[path[-1]]
        return message

    return tamper


def _action_text_not_a_string(rec: Record) -> str:
    action = rec["deals"][0]["actions"][0]
    action[1] = 5
    return f"deal 1: action 1 is [{action[0]}, 5]"


def _flip_over(rec: Record) -> str:
    rec["over"] = not rec["over"]
    return f"the record says the match is {'over' if rec['over'] else 'not over'}, but"


def _change_total(rec: Record) -> str:
    rec["totals"][0] = 99
    return "the totals are [99"


def _change_result(rec: Record) -> str:
    rec["deals"][0]["result"][0] += 1
    return "deal 1: replay gives"


def _substitute_other_variant(rec: Record) -> str:
    rec["deals"][1] = _other_variant_deal(rec["variant"])
    return f"deal 2: its variant is '{rec['deals'][1]['variant']}', but the match's is '{rec['variant']}'"


def _extra_deal(rec: Record) -> str:
    rec["deals"].append(copy.deepcopy(rec["deals"][-1]))
    return f"deal {len(rec['deals'])}: it follows the end of the match"


#: name -> (tampering, returning a part of the expected message; whether it applies to an
#: unfinished match too: the others change what only a finished match has)
TAMPERINGS: dict[str, tuple[Callable[[Record], str], bool]] = {
    "totals changed to 99": (_change_total, True),
    "winners changed": (_complement_winners, True),
    "a deal removed": (_delete(("deals", 0), "deal 1: its setup has "), True),
    "two deals swapped": (_swap_deals, True),
    "a deal of another variant": (_substitute_other_variant, True),
    "a deal with other options": (_deal_with_other_options, True),
    "the carried leader, dealer or pool wrong": (_change_carried, True),
    "the seed changed": (_set(("seed",), SEED + 1, "deal 1: its setup has"), True),
    "a bad variant name": (_set(("variant",), "big-three", "unknown variant 'big-three'"), True),
    "a bad option value": (_bad_option, True),
    "players 99": (_set(("players",), 99, "players, not 99"), True),
    "deals missing": (_delete(("deals",), "the record has no 'deals'"), True),
    "deals not a list": (_set(("deals",), {}, "'deals' must be a list"), True),
    "an action null": (_set(("deals", 0, "actions", 0), None,
                            'deal 1: action 1 is None; expected a [seat, "text"] pair'), True),
    "an action a number": (_set(("deals", 0, "actions", 0), 7,
                                'deal 1: action 1 is 7; expected a [seat, "text"] pair'), True),
    "an action's text not a string": (_action_text_not_a_string, True),
    "an action out of turn": (_out_of_turn, True),
    "a result changed": (_change_result, True),
    "a result not numbers": (_set(("deals", 0, "result"), "won",
                                  "deal 1: the result must be"), True),
    "an unfinished deal not the last": (_set(
        ("deals", 0, "result"), None,
        "deal 1 is unfinished (its result is null) but is not the last deal"), True),
    "over or not over wrong": (_flip_over, True),
    "extra deals after the match ended": (_extra_deal, False),
    "the last deal's result removed": (_set(("deals", -1, "result"), None, "the totals are"),
                                       False),
}


@pytest.mark.parametrize(("name", "kind", "tampering"), [
    (name, kind, tampering)
    for name in CONFIGS for kind in ("finished", "unfinished")
    for tampering, (_, unfinished_too) in TAMPERINGS.items()
    if kind == "finished" or unfinished_too
])
def test_a_tampered_record_is_refused_by_name(saved: dict[tuple[str, str], Record], name: str,
                                              kind: str, tampering: str) -> None:
    rec = copy.deepcopy(saved[name, kind])
    expected = TAMPERINGS[tampering][0](rec)
    assert expected in refused(lambda: replay_match(rec))
    assert expected in refused(lambda: resume_match(rec))


# -- a lone deal -------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def deals(saved: dict[tuple[str, str], Record]) -> list[Record]:
    """Lone deal records: each variant's first finished deal and its unfinished one."""
    out = []
    for name in CONFIGS:
        match = resume_match(saved[name, "unfinished"])
        assert match.current is not None
        out += [deal_record(match.deals[0]), deal_record(match.current)]
    return out


def test_lone_deal_records_replay(deals: list[Record]) -> None:
    for record in deals:
        state = replay_deal(json.loads(json.dumps(record)))
        assert deal_record(state) == record


@pytest.mark.parametrize(("field", "value", "expected"), [
    ("format", "parlour-match/1", "not a deal record"),
    ("setup", [], "the setup must be an object"),
    ("setup", {"hands": "3D"}, "the setup is not a deal of"),
    ("actions", None, "'actions' must be a list, not null"),
    ("options", None, "the options must be an object"),
    ("players", "4", "the number of players must be an integer"),
    ("variant", 3, "the variant must be a name"),
])
def test_a_lone_deal_record_is_checked_field_by_field(deals: list[Record], field: str,
                                                      value: Any, expected: str) -> None:
    for record in deals:
        assert expected in refused(lambda: replay_deal({**record, field: value}))  # noqa: B023


def test_a_lone_deal_record_must_be_an_object_with_every_field(deals: list[Record]) -> None:
    for field in ("format", "variant", "players", "options", "setup", "actions", "result"):
        rest = {k: v for k, v in deals[0].items() if k != field}
        assert refused(lambda: replay_deal(rest))  # noqa: B023
    assert "has no 'actions'" in refused(
        lambda: replay_deal({k: v for k, v in deals[0].items() if k != "actions"}))
    assert "a deal record is a JSON object, not an array" in refused(lambda: replay_deal([]))


def test_a_lone_deal_needs_its_result_exactly_when_it_is_over(deals: list[Record]) -> None:
    finished, unfinished = deals[0], deals[1]
    assert finished["result"] is not None and unfinished["result"] is None
    assert "the deal is over, but the record has no result" in refused(
        lambda: replay_deal({**finished, "result": None}))
    assert "the record gives a result, but the deal is not over" in refused(
        lambda: replay_deal({**unfinished, "result": finished["result"]}))
    extra = {**finished, "actions": [*finished["actions"], finished["actions"][-1]]}
    assert "comes after the end of the deal" in refused(lambda: replay_deal(extra))


def test_random_damage_only_ever_raises_record_error(saved: dict[tuple[str, str], Record],
                                                    deals: list[Record]) -> None:
    """Any field of a match or deal record replaced by a value of another type: the record
    still replays or is refused with a RecordError, never another exception."""
    rng = random.Random(0)
    values: list[Any] = [None, True, -1, 2**70, 1.5, "x", "", "3D", "pass\n", [], [0], [None], {},
                        {"a": 1}]
    cases = [(replay_match, r) for r in saved.values()] + [(replay_deal, r) for r in deals]
    for replay, record in cases:
        paths = _leaf_paths(record)
        for _ in range(100):
            rec = copy.deepcopy(record)
            path = rng.choice(paths)
            _parent(rec, path)[path[-1]] = rng.choice(values)
            try:
                replay(rec)
            except RecordError as e:
                assert "\n" not in str(e)


def _leaf_paths(value: Any, path: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    if isinstance(value, dict):
        items: list[tuple[Any, Any]] = list(value.items())
    elif isinstance(value, list):
        items = list(enumerate(value))
    else:
        return [path]
    out = [path] if path else []
    for key, item in items:
        out += _leaf_paths(item, (*path, key))
    return out


# -- saving and resuming -----------------------------------------------------------------------


@pytest.mark.parametrize("stop", [(0, 3), (1, 0), (1, 7), (1, None)],
                         ids=["deal1-mid", "deal2-start", "deal2-mid", "between-deals"])
@pytest.mark.parametrize("name", CONFIGS)
def test_a_saved_and_resumed_match_ends_as_the_uninterrupted_one(
        name: str, stop: tuple[int, int | None], tmp_path: Path) -> None:
    whole = play_match(name)
    part = play_match(name, stop)
    if stop[1] is None:
        assert part.current is None
    else:
        assert part.current is not None and len(part.current.history) == stop[1]
        assert not part.current.is_over
    path = tmp_path / "match.json"
    save(match_record(part), path)

    resumed = resume_match(load(path))
    assert json.loads(json.dumps(match_record(resumed))) == load(path)
    finish(resumed)
    assert match_record(resumed) == match_record(whole)


def test_the_bot_generator_depends_on_the_position_only() -> None:
    a, b = play_match("big-two", (1, 4)), play_match("big-two", (1, 4))
    assert a.bot_rng().getstate() == b.bot_rng().getstate()
    other = play_match("big-two", (1, 5))
    assert other.bot_rng().getstate() != a.bot_rng().getstate()
    later = play_match("big-two", (2, 4))
    assert later.bot_rng().getstate() != a.bot_rng().getstate()
    between = play_match("big-two", (1, None))
    with pytest.raises(parlour.ParlourError, match="no deal is in progress"):
        between.bot_rng()


def test_a_deal_must_be_scored_before_the_next_is_dealt() -> None:
    match = play_match("big-two", (1, 0))
    assert match.current is not None
    with pytest.raises(parlour.ParlourError, match="the current deal is not finished"):
        match.next_deal()


# -- atomic save, save path, load --------------------------------------------------------------


def _old_and_new(saved: dict[tuple[str, str], Record], tmp_path: Path) -> tuple[Path, str, Record]:
    path = tmp_path / "match.json"
    save(saved["big-two", "unfinished"], path)
    return path, path.read_text(), saved["big-two", "finished"]


@pytest.mark.parametrize("failing", ["fsync", "replace"])
def test_a_failed_save_leaves_the_old_file_intact(saved: dict[tuple[str, str], Record],
                                                  tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                  failing: str) -> None:
    path, old, new = _old_and_new(saved, tmp_path)

    def fail(*args: object) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, failing, fail)
    message = refused(lambda: save(new, path))
    assert message == f"cannot save to {path}: No space left on device"
    monkeypatch.undo()
    assert path.read_text() == old
    assert sorted(tmp_path.iterdir()) == [path]  # no temporary file left behind
    save(new, path)
    assert load(path) == new


def test_an_interrupted_save_leaves_the_old_file_intact(saved: dict[tuple[str, str], Record],
                                                        tmp_path: Path,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    path, old, new = _old_and_new(saved, tmp_path)

    def interrupt(*args: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(os, "fsync", interrupt)
    with pytest.raises(KeyboardInterrupt):
        save(new, path)
    monkeypatch.undo()
    assert path.read_text() == old
    assert sorted(tmp_path.iterdir()) == [path]
    with pytest.raises(TypeError):
        save({**new, "seed": object()}, path)  # not JSON: refused before any file is touched
    assert path.read_text() == old


def test_check_save_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fine = tmp_path / "new.json"
    assert check_save_path(str(fine)) == fine
    assert list(tmp_path.iterdir()) == []  # the check leaves nothing behind
    fine.write_text("{}")
    assert check_save_path(fine) == fine
    assert refused(lambda: check_save_path(tmp_path)) == f"cannot save to {tmp_path}: it is a directory"
    missing = tmp_path / "no" / "m.json"
    assert refused(lambda: check_save_path(missing)).endswith(f"{missing.parent} does not exist")
    under_file = fine / "m.json"
    assert refused(lambda: check_save_path(under_file)).endswith(f"{fine} is not a directory")
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert refused(lambda: check_save_path(fifo)).endswith("it is not a regular file")

    def denied(*args: object) -> int:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr(os, "open", denied)
    other = tmp_path / "other.json"
    assert refused(lambda: check_save_path(other)) == f"cannot save to {other}: Permission denied"


@pytest.mark.parametrize(("content", "expected"), [
    (bytes(range(256)), "it is not text (a binary file?)"),
    (b'{"format": "parlour-match/1", "deals": [', "invalid or truncated JSON"),
    (b"[1, 2]", "it holds an array, not a JSON object"),
    (b"null", "it holds null, not a JSON object"),
    (b"[" * 100_000 + b"]" * 100_000, "nested too deeply"),
    (b"", "invalid or truncated JSON"),
])
def test_load_refuses_what_is_not_a_record(tmp_path: Path, content: bytes, expected: str) -> None:
    path = tmp_path / "bad.json"
    path.write_bytes(content)
    assert expected in refused(lambda: load(path))


def test_load_refuses_a_truncated_saved_record(saved: dict[tuple[str, str], Record],
                                               tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    save(saved["rummy", "finished"], path)
    text = path.read_bytes()
    for cut in (1, len(text) // 3, len(text) - 3):
        path.write_bytes(text[:cut])
        assert "invalid or truncated JSON" in refused(lambda: load(path))
    assert refused(lambda: load(tmp_path)).startswith(f"cannot read {tmp_path}: ")
    assert refused(lambda: load(tmp_path / "none")).endswith("No such file or directory")
