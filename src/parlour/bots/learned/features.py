"""Features of a big-two-4card decision: one row per legal action, the seat's view of the deal
(hand, cards gone, the others' card counts, the table) joined to the action's own features
(its cards, kind, strength, what it leaves in the hand, whether the rule-based policy picks it).

Scoring each legal action from (observation, action) features keeps the model small: there is
no output unit per possible play (about 25,000 in big-two-4card). Everything here is derived
from the :class:`~parlour.games.climbing.observation.ClimbingObservation` alone.

>>> import parlour
>>> state = parlour.new_game("big-two-4card").new_deal(seed=1)
>>> state.apply("3D")
>>> obs = state.observation(state.current_player)
>>> rows = encode(obs, state.legal_actions(), greedy_choice=state.legal_actions()[0])
>>> rows.shape == (len(state.legal_actions()), WIDTH)
True
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
from numpy.typing import NDArray

from parlour.game import Action, Observation
from parlour.games.climbing.combos import MASK, SIZE_SHIFT, STRENGTH_SHIFT
from parlour.games.climbing.policy import broken_groups, rank_counts

#: Index of a play's kind by (size, category index within its size); 0 is pass. The 4-card
#: plays are two pair and four of a kind; the 5-card ones straight, flush, full house and
#: straight flush (big-two-4card's rules).
_KIND_OFFSET = {0: 0, 1: 1, 2: 2, 3: 3, 4: 4, 5: 6}
KINDS = 10
PLAYERS = 4
_TWOS = 15 << 48

OBS_WIDTH = 52 + 52 + 13 * (PLAYERS - 1) + 1 + 6 + KINDS + 1 + 13 + (PLAYERS - 1) + 3
ACTION_WIDTH = 52 + KINDS + 1 + 13 + 9
WIDTH = OBS_WIDTH + ACTION_WIDTH


def bits(mask: int) -> NDArray[np.float32]:
    """The 52 key-order card bits of a mask as 0/1 floats (bit 0 first).

    >>> bits(0b101)[:4].tolist()
    [1.0, 0.0, 1.0, 0.0]
    """
    raw = np.frombuffer(mask.to_bytes(7, "little"), dtype=np.uint8)
    return np.unpackbits(raw, bitorder="little")[:52].astype(np.float32)


def _kind(packed: int) -> int:
    size = packed >> SIZE_SHIFT
    return _KIND_OFFSET[size] + (packed >> STRENGTH_SHIFT + 6 & 7) if size else 0


def observation_row(obs: Observation) -> NDArray[np.float32]:
    """The seat's view of the deal, the same for every action (see the module)."""
    o = obs  # a ClimbingObservation of big-two-4card: the fields below are read by name
    t = o.game.table  # type: ignore[attr-defined]
    seat = o.seat
    row = np.zeros(OBS_WIDTH, dtype=np.float32)
    row[0:52] = bits(t.key_of(o.hand))
    row[52:104] = bits(t.key_of(o.played))  # type: ignore[attr-defined]
    at = 104
    sizes = o.hand_sizes
    for i in range(1, PLAYERS):
        n = sizes[(seat + i) % PLAYERS]
        if n:
            row[at + min(n, 13) - 1] = 1.0
        at += 13
    row[at] = sizes[seat] / 13.0
    at += 1
    table = o.table  # type: ignore[attr-defined]
    packed = int(table) if table is not None else 0
    row[at + (packed >> SIZE_SHIFT)] = 1.0
    at += 6
    if packed:
        row[at + _kind(packed)] = 1.0
    at += KINDS
    key = packed >> STRENGTH_SHIFT & 63
    row[at] = key / 51.0 if packed else 0.0
    at += 1
    if packed:
        row[at + (key >> 2)] = 1.0
    at += 13
    if packed:
        row[at + (o.table_seat - seat) % PLAYERS - 1] = 1.0  # type: ignore[attr-defined]
    at += PLAYERS - 1
    row[at + min(o.passes, 2)] = 1.0  # type: ignore[attr-defined]
    return row


def action_rows(obs: Observation, legal: Sequence[Action],
                greedy_choice: Action | None) -> NDArray[np.float32]:
    """One row of action features per legal action (see the module)."""
    t = obs.game.table  # type: ignore[attr-defined]
    hand = t.key_of(obs.hand)
    counts = rank_counts(hand)
    rows = np.zeros((len(legal), ACTION_WIDTH), dtype=np.float32)
    for j, a in enumerate(legal):
        packed = int(a)
        m = packed & MASK
        row = rows[j]
        if m:
            row[0:52] = bits(m)
            key = packed >> STRENGTH_SHIFT & 63
            row[62] = key / 51.0
            row[63 + (key >> 2)] = 1.0
        row[52 + _kind(packed)] = 1.0
        left = hand & ~m
        left_counts = rank_counts(left)
        at = 76
        row[at] = left.bit_count() / 13.0
        row[at + 1] = 1.0 if m and not left else 0.0
        row[at + 2] = (m & _TWOS).bit_count() / 4.0
        row[at + 3] = (left & _TWOS).bit_count() / 4.0
        row[at + 4] = broken_groups(m, counts) / 4.0
        for k in (1, 2, 3):
            row[at + 4 + k] = left_counts.count(k) / 6.0
        row[at + 8] = 1.0 if greedy_choice is not None and a == greedy_choice else 0.0
    return rows


def encode(obs: Observation, legal: Sequence[Action],
           greedy_choice: Action | None) -> NDArray[np.float32]:
    """The model's input: one row per legal action, observation features then action features.
    ``greedy_choice`` is the rule-based policy's pick (a feature), or ``None`` if not known."""
    acts = action_rows(obs, legal, greedy_choice)
    out = np.empty((len(legal), WIDTH), dtype=np.float32)
    out[:, :OBS_WIDTH] = observation_row(obs)
    out[:, OBS_WIDTH:] = acts
    return out
