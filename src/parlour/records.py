"""Game records: a deal or a whole match as JSON, their exact replay, and resuming a match.

A deal record holds the game (variant, players, options), the deal's setup (enough for
``game.new_deal(**setup)`` to recreate it), the actions in notation, and the result (``null``
while the deal is unfinished). Replaying applies the actions one by one through the public
protocol and checks the result.

>>> import parlour, random
>>> state = parlour.new_game("big-two").new_deal(seed=3)
>>> rng = random.Random(0)
>>> while not state.is_over:
...     state.apply(rng.choice(state.legal_actions()))
>>> again = replay_deal(deal_record(state))
>>> again.returns() == state.returns() and again.history == state.history
True

A match record holds the game, the match seed, every deal so far (the last one possibly
unfinished), the totals, the winners and whether the match is over. It is checked as a whole:
each deal must be the one the match's seed and the deals before it give, in order, none missing.
Fields other than these are ignored, so a program may keep its own in a record (the command
line keeps who sits where).

>>> from parlour.bots import make_bot
>>> match = parlour.new_game("big-two-4card", deals=2).new_match(seed=5)
>>> match.play_out(match.next_deal(), [make_bot("random")] * 4)
>>> state = match.next_deal()
>>> state.apply(state.legal_actions()[0])
>>> resumed = resume_match(match_record(match))
>>> len(resumed.deals), resumed.current.history == state.history
(1, True)
"""

from __future__ import annotations

import contextlib
import json
import os
import secrets
from pathlib import Path
from typing import Any

from parlour._core import __version__
from parlour.errors import ParlourError, RecordError
from parlour.game import Game, State
from parlour.match import Match
from parlour.registry import new_game

DEAL_FORMAT = "parlour-deal/1"
MATCH_FORMAT = "parlour-match/1"

_GAME_KEYS = ("variant", "players", "options")


def deal_record(state: State) -> dict[str, Any]:
    """The JSON-able record of a deal (finished or not: an unfinished deal's result is ``None``).

    ``format`` is the record's own version (what :func:`replay_deal` reads); ``parlour`` the
    version of the package that wrote it."""
    return {"format": DEAL_FORMAT, "parlour": __version__, **_deal(state)}


def _deal(state: State) -> dict[str, Any]:
    return {
        **state.game.describe(),
        "setup": state.setup(),
        "actions": [[seat, str(action)] for seat, action in state.history],
        "result": state.returns() if state.is_over else None,
    }


def match_record(match: Match) -> dict[str, Any]:
    """The JSON-able record of the whole match so far.

    ``deals`` holds the scored deals and then, if there is one, the deal in progress
    (:attr:`Match.current`) with ``"result": None``: it is not scored yet, even if its play is
    over. ``totals`` are the totals so far, ``winners`` the match's winners (empty until it is
    over), ``over`` whether it is over; ``parlour`` is the version of the package that wrote it.

    >>> import parlour
    >>> match = parlour.new_game("big-two").new_match(seed=4)
    >>> state = match.next_deal()
    >>> record = match_record(match)
    >>> len(record["deals"]), record["deals"][0]["result"], record["over"], record["winners"]
    (1, None, False, [])
    """
    deals = [{"format": DEAL_FORMAT, **_deal(s)} for s in match.deals]
    if match.current is not None:
        deals.append({"format": DEAL_FORMAT, **_deal(match.current), "result": None})
    return {
        "format": MATCH_FORMAT,
        "parlour": __version__,
        **match.game.describe(),
        "seed": match.seed,
        "deals": deals,
        "totals": list(match.totals),
        "winners": match.winners(),
        "over": match.is_over,
    }


# -- replay ------------------------------------------------------------------------------------


def replay_deal(record: object) -> State:
    """Recreate a lone deal from its record, action by action.

    Raises :class:`RecordError` naming the first problem: a field missing or of the wrong type,
    a game or setup that cannot be made, an action that is malformed, out of turn or illegal,
    or a result that is not the one the actions give (a finished deal must have its result, an
    unfinished one ``null``).
    """
    rec = _record(record, DEAL_FORMAT, "a deal record")
    game = _game(rec, "")
    setup = _field(rec, "setup", "")
    if not isinstance(setup, dict) or not all(isinstance(k, str) for k in setup):
        raise RecordError(f"the setup must be an object of deal arguments, not {setup!r}")
    try:
        state = game.new_deal(**setup)
    except (ParlourError, TypeError) as e:
        raise RecordError(f"the setup is not a deal of {game.name}: {_one_line(e)}") from None
    _replay_actions(state, _field(rec, "actions", ""), "")
    _check_result(state, _field(rec, "result", ""), "", unscored=False)
    return state


def replay_match(record: object) -> list[State]:
    """Verify a match record as a whole and return its deals, replayed (the last one may be
    unfinished).

    Every deal is dealt again from the match seed (``Match(game, seed)``, ``next_deal()``) and
    must have exactly that setup, so a deal removed, reordered, substituted or with a wrong
    leader, dealer or pool is refused; its actions are replayed and its result checked; only
    the last deal may be unfinished and no deal may follow the end of the match; the stored
    totals, winners and ``over`` must be the recomputed ones. Raises :class:`RecordError`
    naming the first inconsistency.
    """
    match = _rebuild(record)
    return [*match.deals, *([match.current] if match.current is not None else [])]


def replay(record: dict[str, Any]) -> list[State]:
    """The deals of a deal record (one) or a match record, replayed and verified by
    :func:`replay_deal` or :func:`replay_match`.

    >>> import parlour
    >>> state = parlour.new_game("big-two").new_deal(seed=1)
    >>> [len(s.history) for s in replay(deal_record(state))]
    [0]
    """
    return [replay_deal(record)] if record.get("format") == DEAL_FORMAT else replay_match(record)


def resume_match(record: object) -> Match:
    """The match rebuilt from its record (verified as by :func:`replay_match`).

    The finished deals are scored, and :attr:`Match.current` is the unfinished deal replayed to
    exactly where it stopped (``None`` if the last deal was finished). Playing on with
    ``match.next_deal()`` gives exactly the deals the uninterrupted match would have given, and
    bots drawing from :meth:`Match.bot_rng` make the same choices. A current deal whose play is
    already over still needs ``match.finish_deal(match.current)``.
    """
    return _rebuild(record)


def _rebuild(record: object) -> Match:
    rec = _record(record, MATCH_FORMAT, "a match record")
    game = _game(rec, "")
    seed = _field(rec, "seed", "")
    if not _is_int(seed):
        raise RecordError(f"the match seed must be an integer, not {seed!r}")
    deals = _field(rec, "deals", "")
    if not isinstance(deals, list):
        raise RecordError(f"'deals' must be a list of deal records, not {_json_kind(deals)}")
    totals = _numbers(_field(rec, "totals", ""), game, "the totals")
    winners = _field(rec, "winners", "")
    if not (isinstance(winners, list) and all(_is_int(w) for w in winners)):
        raise RecordError(f"the winners must be a list of seats, not {winners!r}")
    over = _field(rec, "over", "")
    if not isinstance(over, bool):
        raise RecordError(f"'over' must be true or false, not {over!r}")

    match = Match(game, seed)
    for number, deal in enumerate(deals, 1):
        where = f"deal {number}: "
        if match.current is not None:
            raise RecordError(
                f"deal {number - 1} is unfinished (its result is null) but is not the last deal"
            )
        if match.is_over:
            raise RecordError(f"{where}it follows the end of the match (over after deal {number - 1})")
        _replay_match_deal(match, rec, deal, where)

    if totals != match.totals:
        raise RecordError(f"the totals are {totals}, but the deals give {match.totals}")
    if over != match.is_over:
        raise RecordError(
            f"the record says the match is {_over_text(over)}, but after its deals it is "
            f"{_over_text(match.is_over)}"
        )
    if winners != match.winners():
        raise RecordError(f"the winners are {winners}, but the match's totals give {match.winners()}")
    return match


def _replay_match_deal(match: Match, rec: dict[str, Any], deal: object, where: str) -> None:
    """Deal the match's next deal, check that ``deal`` records it, replay it and score it."""
    if not isinstance(deal, dict):
        raise RecordError(f"{where}expected a deal record (an object), not {_json_kind(deal)}")
    if deal.get("format") != DEAL_FORMAT:
        raise RecordError(f"{where}not a deal record (format {deal.get('format')!r})")
    for key in _GAME_KEYS:
        value = deal.get(key)
        if value == rec[key]:
            continue
        if key == "options" and isinstance(value, dict):
            name, mine, theirs = _difference(value, rec[key])
            raise RecordError(f"{where}its option {name} is {mine}, but the match's is {theirs}")
        raise RecordError(f"{where}its {key} is {value!r}, but the match's is {rec[key]!r}")
    state = match.next_deal()
    # Through JSON, as the record went, so that tuples and lists compare equal.
    expected = json.loads(json.dumps(state.setup()))
    setup = _field(deal, "setup", where)
    if not isinstance(setup, dict):
        raise RecordError(f"{where}the setup must be an object, not {_json_kind(setup)}")
    if setup != expected:
        name, mine, theirs = _difference(setup, expected)
        raise RecordError(
            f"{where}its setup has {name}={mine}, but the match's seed and the deals before it "
            f"give {name}={theirs}"
        )
    _replay_actions(state, _field(deal, "actions", where), where)
    result = _field(deal, "result", where)
    _check_result(state, result, where, unscored=True)
    if result is not None:
        match.finish_deal(state)


def _replay_actions(state: State, actions: object, where: str) -> None:
    if not isinstance(actions, list):
        raise RecordError(f"{where}'actions' must be a list, not {_json_kind(actions)}")
    for n, item in enumerate(actions, 1):
        if not (isinstance(item, list) and len(item) == 2 and _is_int(item[0])
                and isinstance(item[1], str)):
            raise RecordError(f'{where}action {n} is {item!r}; expected a [seat, "text"] pair')
        seat, text = item
        shown = _printable(text)
        if state.is_over:
            raise RecordError(f"{where}action {n} ({shown}) comes after the end of the deal")
        if seat != state.current_player:
            raise RecordError(
                f"{where}action {n} ({shown}) is by P{seat}, but P{state.current_player} is to move"
            )
        try:
            state.apply(state.parse_action(text))
        except ParlourError as e:
            raise RecordError(
                f"{where}action {n} ({shown}) by P{seat} is not allowed: {_one_line(e)}"
            ) from None


def _check_result(state: State, result: object, where: str, *, unscored: bool) -> None:
    """A result must be the one the replay gives; ``None`` is allowed for a deal whose play is
    not over and, when ``unscored``, for a match's last deal not yet scored."""
    if result is None:
        if state.is_over and not unscored:
            raise RecordError(f"{where}the deal is over, but the record has no result")
        return
    numbers = _numbers(result, state.game, f"{where}the result")
    if not state.is_over:
        raise RecordError(
            f"{where}the record gives a result, but the deal is not over after its "
            f"{len(state.history)} actions"
        )
    if numbers != state.returns():
        raise RecordError(f"{where}replay gives {state.returns()}, the record says {numbers}")


# -- field checks ------------------------------------------------------------------------------


def _record(record: object, fmt: str, what: str) -> dict[str, Any]:
    if not isinstance(record, dict):
        raise RecordError(f"{what} is a JSON object, not {_json_kind(record)}")
    if record.get("format") != fmt:
        raise RecordError(f"not {what} (format {record.get('format')!r}, expected {fmt!r})")
    return record


def _field(record: dict[str, Any], key: str, where: str) -> Any:
    if key not in record:
        raise RecordError(f"{where}the record has no '{key}'")
    return record[key]


def _game(rec: dict[str, Any], where: str) -> Game:
    variant, players, options = (_field(rec, key, where) for key in _GAME_KEYS)
    if not isinstance(variant, str):
        raise RecordError(f"{where}the variant must be a name, not {variant!r}")
    if not _is_int(players):
        raise RecordError(f"{where}the number of players must be an integer, not {players!r}")
    if not isinstance(options, dict) or not all(isinstance(k, str) for k in options):
        raise RecordError(f"{where}the options must be an object of option values, not {options!r}")
    try:
        return new_game(variant, players=players, **options)
    except ParlourError as e:
        raise RecordError(f"{where}{_one_line(e)}") from None


def _numbers(value: object, game: Game, what: str) -> list[float]:
    if not (isinstance(value, list) and len(value) == game.players
            and all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in value)):
        raise RecordError(f"{what} must be {game.players} numbers, one per seat, not {value!r}")
    return value


def _difference(got: dict[str, Any], expected: dict[str, Any]) -> tuple[str, str, str]:
    """Where two unequal objects first differ (in ``expected``'s key order, then ``got``'s): the
    key, and each one's value there (``nothing`` where it has none), printable."""
    keys = [*expected, *(k for k in got if k not in expected)]
    key = next(k for k in keys if (k in got, got.get(k)) != (k in expected, expected.get(k)))
    return _printable(str(key)), _show(got, key), _show(expected, key)


def _show(values: dict[str, Any], key: object) -> str:
    return repr(values[key]) if key in values else "nothing"


def _printable(text: str) -> str:
    """Text from a record as a message may quote it: as it is if printable, else its repr."""
    return text if text.isprintable() else repr(text)


def _one_line(error: Exception) -> str:
    """An error's message on one line (some, such as ``random``'s, span several)."""
    return " ".join(str(error).split())


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _over_text(over: bool) -> str:
    return "over" if over else "not over"


def _json_kind(value: object) -> str:
    """What a decoded JSON value is, in JSON's words (``an array``, ``null`` …)."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "a boolean"
    kinds = ((dict, "an object"), (list, "an array"), (str, "a string"), ((int, float), "a number"))
    return next((name for kind, name in kinds if isinstance(value, kind)), type(value).__name__)


# -- files -------------------------------------------------------------------------------------


def save(record: dict[str, Any], path: str | Path) -> None:
    """Write ``record`` to ``path`` as JSON, atomically.

    The record goes to a new file in the same directory, flushed and synced to disk, which then
    replaces ``path`` in one step: a crash or an error never leaves a half-written file, and the
    previous record stays whole until the new one is complete. An :class:`OSError` becomes a
    one-line :class:`RecordError` naming the path.
    """
    target = Path(path)
    text = json.dumps(record, indent=1) + "\n"
    # Replace what a symbolic link points to, not the link itself.
    real = Path(os.path.realpath(target))
    try:
        fd, temp = _new_temp_file(real)
        try:
            with open(fd, "w", encoding="utf-8") as f:
                f.write(text)
                f.flush()
                os.fsync(f.fileno())
            os.replace(temp, real)
        except BaseException:
            with contextlib.suppress(OSError):
                temp.unlink()
            raise
    except OSError as e:
        raise RecordError(f"cannot save to {target}: {_reason(e)}") from None


def check_save_path(path: str | Path) -> Path:
    """``path`` as a :class:`~pathlib.Path` if :func:`save` can write there; otherwise
    :class:`RecordError` saying why. Check before the first card is dealt, so that a game is
    never played only to find that its record cannot be kept.

    The directory must exist and be writable (the save creates a temporary file in it), and the
    path must not be a directory; an existing file must be a regular, writable file.

    >>> check_save_path("/")
    Traceback (most recent call last):
    ...
    parlour.errors.RecordError: cannot save to /: it is a directory
    """
    target = Path(path)
    problem = f"cannot save to {target}"
    try:
        real = Path(os.path.realpath(target))
        if real.is_dir():
            raise RecordError(f"{problem}: it is a directory")
        if real.exists():
            if not real.is_file():
                raise RecordError(f"{problem}: it is not a regular file")
            if not os.access(real, os.W_OK):
                raise RecordError(f"{problem}: the file is not writable")
        directory = real.parent
        if not directory.is_dir():
            missing = "is not a directory" if directory.exists() else "does not exist"
            raise RecordError(f"{problem}: the directory {directory} {missing}")
        # Try what save() does rather than trust permission bits (root, ACLs, read-only mounts).
        fd, temp = _new_temp_file(real)
        os.close(fd)
        temp.unlink()
    except OSError as e:
        raise RecordError(f"{problem}: {_reason(e)}") from None
    return target


def _new_temp_file(real: Path) -> tuple[int, Path]:
    """A new, empty hidden file beside ``real`` (opened for writing): its file descriptor and path."""
    temp = real.with_name(f".{real.name}.{secrets.token_hex(4)}.tmp")
    return os.open(temp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666), temp


def load(path: str | Path) -> dict[str, Any]:
    """The record saved at ``path`` (a JSON object), not yet checked: replay it to check it.

    An unreadable file, one that is not UTF-8 text (a binary file), not JSON (a truncated
    file) or whose JSON is not an object is refused with a one-line :class:`RecordError`.
    """
    try:
        raw = Path(path).read_bytes()
    except OSError as e:
        raise RecordError(f"cannot read {path}: {_reason(e)}") from None
    try:
        # utf-8-sig: also accept a file that an editor saved with a byte-order mark.
        data = json.loads(raw.decode("utf-8-sig"))
    except UnicodeDecodeError:
        raise RecordError(f"{path} is not a parlour record: it is not text (a binary file?)") from None
    except json.JSONDecodeError as e:
        raise RecordError(f"{path} is not a parlour record: invalid or truncated JSON ({e})") from None
    except RecursionError:
        raise RecordError(f"{path} is not a parlour record: its JSON is nested too deeply") from None
    if not isinstance(data, dict):
        raise RecordError(f"{path} does not hold a parlour record: it holds {_json_kind(data)}, "
                          "not a JSON object")
    return data


def _reason(error: OSError) -> str:
    return error.strerror or str(error)
