"""The differential traces' format: what is recorded at each position of a deal, how it is
serialised and digested, and how a fixture file is read and written.

``scripts/record_traces.py`` records the fixtures with these functions and
``tests/test_traces.py`` replays them with the same ones, so the two cannot drift apart. Only
the public API is used (``parlour.new_game``, ``game.new_deal(**setup)``,
``state.legal_actions()``, ``state.apply``, ``state.observation(s).to_dict()``,
``state.returns()``, ``state.zones()``, ``state.hidden_from(s)``), so that an engine written
anew under that API is checked by the very same code.

A *position* is what the state shows before each action and once more at the end, as one
JSON-able dict (:func:`position`)::

    {"player": state.current_player,
     "legal": [int(a) for a in state.legal_actions()],       # in the engine's order
     "returns": state.returns(),
     "obs": [state.observation(s).to_dict() for s in seats],
     "zones": {name: str(cards) for name, cards in state.zones().items()},
     "hidden": [str(state.hidden_from(s)) for s in seats]}

It is serialised canonically (:func:`canonical`: ``json.dumps`` with sorted keys, no spaces,
ASCII only, NaN refused), so the bytes depend on the values alone: floats are written as
``json`` writes them (the shortest text that reads back the same), ``0`` and ``0.0`` differ,
tuples and lists are both arrays. Per position the fixture keeps the first
:data:`POSITION_BYTES` bytes of its BLAKE2b digest (:func:`position_digest`); per deal it keeps
three 16-byte BLAKE2b digests, each over one part of every position (:data:`PARTS`), so that a
mismatch says whether the play (whose turn, legal actions, returns), the observations or the
card zones differ, and a cheap check of the play alone is possible.
"""

from __future__ import annotations

import hashlib
import json
import lzma
from collections.abc import Iterable, Iterator, Sequence
from pathlib import Path
from typing import Any

import parlour
from parlour.game import Action, Game, State

FORMAT = "parlour-traces/1"
FIXTURES = Path(__file__).parent / "fixtures" / "traces"
#: Bytes kept of each position's digest (it locates the first position that differs; the
#: 16-byte digests of each deal's parts are the strong check).
POSITION_BYTES = 4
DEAL_BYTES = 16
#: The parts of a position digested separately per deal, by the keys of :func:`position`.
PARTS: dict[str, tuple[str, ...]] = {
    "play": ("player", "legal", "returns"),
    "obs": ("obs",),
    "cards": ("zones", "hidden"),
}


def canonical(value: Any) -> bytes:
    """The canonical JSON bytes of ``value``.

    >>> canonical({"b": [1, 2.0, (3, None)], "a": True})
    b'{"a":true,"b":[1,2.0,[3,null]]}'
    """
    return json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False).encode("ascii")


def plain(value: Any) -> Any:
    """``value`` as it reads back from its JSON (tuples become lists …), for comparing a
    computed position with a stored one."""
    return json.loads(canonical(value))


def play_part(state: State, legal: list[Action]) -> dict[str, Any]:
    """The ``play`` part of a position (``legal``: ``state.legal_actions()``), cheap enough
    to check at every position of every deal."""
    return {"player": state.current_player, "legal": [int(a) for a in legal],
            "returns": state.returns()}


def position(state: State, legal: list[Action]) -> dict[str, Any]:
    """Everything recorded of ``state`` (see the module)."""
    seats = range(state.game.players)
    pos = play_part(state, legal)
    pos["obs"] = [state.observation(s).to_dict() for s in seats]
    pos["zones"] = {name: str(cards) for name, cards in state.zones().items()}
    pos["hidden"] = [str(state.hidden_from(s)) for s in seats]
    return pos


def position_digest(pos: dict[str, Any]) -> bytes:
    return hashlib.blake2b(canonical(pos), digest_size=POSITION_BYTES).digest()


def _joined(encoded: dict[str, bytes], keys: Iterable[str]) -> bytes:
    """``canonical({k: value[k] for k in keys})`` from each value's own canonical JSON
    (``encoded``), so that a position is serialised once for its digest and its parts.

    >>> pos = {"obs": [{"b": 1, "a": 2.5}], "player": 0, "legal": [3]}
    >>> encoded = {k: canonical(v) for k, v in pos.items()}
    >>> _joined(encoded, pos) == canonical(pos)
    True
    """
    return b"{" + b",".join(b'"%s":%s' % (k.encode("ascii"), encoded[k])
                            for k in sorted(keys)) + b"}"


class DealDigests:
    """The running digests of one deal: every position's short digest, and one 16-byte digest
    per part over all its positions (each position's canonical part followed by a newline).

    >>> pos = {"player": 1, "legal": [7], "returns": [0.0], "obs": [{"seat": 0}], "zones": {},
    ...        "hidden": [""]}
    >>> DealDigests().add(pos) == position_digest(pos)
    True
    """

    def __init__(self, parts: tuple[str, ...] = tuple(PARTS)) -> None:
        self.positions = bytearray()
        self._parts = {name: hashlib.blake2b(digest_size=DEAL_BYTES) for name in parts}

    def add(self, pos: dict[str, Any]) -> bytes:
        """Add one position (a full one when every part is digested, else at least the
        parts asked for); its short digest (``b""`` when not every part is digested)."""
        keys = {key for name in self._parts for key in PARTS[name]}
        encoded = {key: canonical(pos[key]) for key in keys}
        digest = b""
        if len(self._parts) == len(PARTS):
            digest = hashlib.blake2b(_joined(encoded, pos), digest_size=POSITION_BYTES).digest()
            self.positions += digest
        for name, h in self._parts.items():
            h.update(_joined(encoded, PARTS[name]) + b"\n")
        return digest

    def parts(self) -> dict[str, str]:
        return {name: h.hexdigest() for name, h in self._parts.items()}


def new_game(deal: dict[str, Any], variant: str) -> Game:
    """The game a recorded deal was played in."""
    return parlour.new_game(variant, players=deal["players"], **deal["options"])


def positions(state: State, actions: list[int], texts: list[str], *, full: bool = True,
              ) -> Iterator[tuple[dict[str, Any], int | None]]:
    """Replay ``actions`` from ``state``: each position (the play part only unless ``full``)
    with the index of the action then taken (``None`` at the end).

    Each action is taken from ``state.legal_actions()`` by its int, and its text is checked
    against ``str(action)`` and ``state.parse_action(text)``; a mismatch raises
    ``AssertionError`` naming the action.
    """
    for i in range(len(actions) + 1):
        legal = state.legal_actions()
        pos = position(state, legal) if full else play_part(state, legal)
        if i == len(actions):
            yield pos, None
            return
        yield pos, i
        ints = pos["legal"]
        assert actions[i] in ints, (f"action {i} ({texts[i]}, {actions[i]}) is not among the "
                                    f"legal actions")
        action = legal[ints.index(actions[i])]
        assert str(action) == texts[i], f"action {i}: str(action) is {action}, not {texts[i]}"
        assert state.parse_action(texts[i]) == action, f"action {i}: {texts[i]} parses wrongly"
        state.apply(action)


def fixture_path(variant: str) -> Path:
    return FIXTURES / f"{variant}.json.xz"


def save(path: Path, data: dict[str, Any]) -> None:
    text = json.dumps(data, sort_keys=True, separators=(",", ":"), ensure_ascii=True,
                      allow_nan=False)
    # Fixed lzma settings and no file name or time stamp in the container (xz keeps none),
    # so the same traces give the same bytes.
    path.write_bytes(lzma.compress(text.encode("ascii"), preset=9 | lzma.PRESET_EXTREME))


def read_xz(path: Path) -> Any:
    """The JSON of an lzma-compressed fixture (the traces and the fixtures recorded from them)."""
    return json.loads(lzma.decompress(path.read_bytes()))


def apply_recorded(state: State, action: int, legal: Sequence[Action] | None = None) -> None:
    """Apply the legal action whose int is ``action``, as a recorded deal took it (``legal``:
    the state's legal actions, when the caller has them already)."""
    if legal is None:
        legal = state.legal_actions()
    state.apply(legal[[int(a) for a in legal].index(action)])


def load(path: Path) -> dict[str, Any]:
    data: dict[str, Any] = read_xz(path)
    if data.get("format") != FORMAT:
        raise ValueError(f"{path}: not a {FORMAT} file")
    return data
