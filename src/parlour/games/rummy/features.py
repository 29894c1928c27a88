"""The action features of ``rummy`` for the self-play network (:mod:`parlour.bots.learned.network`).

Rummy's action index has 2,855 entries, most of them lay-offs that a deal meets rarely, so an
action is described by what it does rather than by its entry: its kind, the cards it moves
(for ``draw discard``, the top of the pile, read from the observation) and their points, and
what it leaves in hand, where the strength of a rummy hand lies. From the hand after the move
(all in the encoding's card order, rummy's: clubs, diamonds, hearts, spades, ace low):

- the cards themselves, how many (/ 26), and whether the move goes out;
- how many are already in a meld of the hand (a set of three or four, or three or more in
  sequence; / 10) and the points of those that are not (its *deadwood*; / 100), and the points
  of the cards with no partner at all (no card of their rank, none within two ranks in their
  suit; / 100);
- for a draw or a discard, how many more cards are in a meld of the hand than before (/ 4: a
  draw that completes a meld, a discard that breaks one);
- for a discard, whether the card would lay off on the table (the next player may take it).

>>> import numpy as np, parlour
>>> from parlour.encoding import action_index, encoder
>>> game = parlour.new_game("rummy")
>>> state = game.new_deal(hands=["3C 4C 5C 9D 9H KS", "2H"], stock="...", discard=["JD"],
...                       phase="play", drawn="KS", drawn_from="stock")
>>> obs = state.observation(0)
>>> features = RummyFeatures(game)
>>> legal = state.legal_actions()
>>> index = action_index(game)
>>> at = np.array(index.indices(legal, obs))
>>> rows = features.rows(at, encoder(game).encode(obs)[None, :], np.zeros(at.size, int))
>>> def said(text):
...     row = rows[legal.index(state.parse_action(text))]
...     return {name: round(float(v), 2) for name, v in zip(COLUMNS, row[-len(COLUMNS):]) if v}
>>> said("meld 3C 4C 5C")  # 15 points down; 9D 9H KS left, 20 points of deadwood
{'points': 0.15, 'cards': 0.23, 'left': 0.12, 'deadwood': 0.2, 'loose': 0.1}
>>> said("discard 4C")  # breaks the run: three fewer cards in a meld
{'points': 0.05, 'cards': 0.08, 'left': 0.19, 'deadwood': 0.3, 'loose': 0.1, 'meld_change': -0.75}
>>> said("discard KS")  # the card with no partner
{'points': 0.1, 'cards': 0.08, 'left': 0.19, 'in_meld': 0.3, 'deadwood': 0.1}
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from parlour.encoding import action_index, encoder
from parlour.errors import ParlourError
from parlour.game import Game
from parlour.games.rummy.actions import (
    DISCARD,
    DRAW_DISCARD,
    DRAW_STOCK,
    MELD,
    RummyAction,
)
from parlour.games.rummy.encoding import GROUP, RummyIndex
from parlour.games.rummy.game import RummyGame
from parlour.games.rummy.melds import VALUE, is_group

if TYPE_CHECKING:
    from parlour._core import RummyNet

F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]

#: The kinds of move, the first columns of a row.
KINDS = ("draw_stock", "draw_discard", "discard", "meld_run", "meld_set", "layoff_set",
         "layoff_run")
#: The columns after the kinds and the two 52-card blocks (the cards moved, the hand after).
COLUMNS = ("points", "cards", "left", "goes_out", "in_meld", "deadwood", "loose", "meld_change",
           "feeds")
#: The index entry of ``draw discard``, whose card is the top of the pile.
DRAW_DISCARD_AT = 1
_POINTS = np.array(VALUE, dtype=np.float32)


def melded(hand: npt.NDArray[np.bool_]) -> tuple[npt.NDArray[np.bool_], npt.NDArray[np.bool_]]:
    """For hands (rows of 52 in rummy's order): which cards are in a meld of the hand (a set, or
    three or more in sequence in a suit), and which have a partner (another card of their rank,
    or one within two ranks in their suit)."""
    h = hand.reshape(-1, 4, 13)
    per_rank = h.sum(axis=1, keepdims=True)
    in_set = h & (per_rank >= 3)
    three = h[:, :, :-2] & h[:, :, 1:-1] & h[:, :, 2:]  # a run of three starting at each rank
    in_run = np.zeros_like(h)
    for k in range(3):
        in_run[:, :, k:k + 11] |= three
    near = np.zeros_like(h)
    for k in (1, 2):
        near[:, :, k:] |= h[:, :, :-k]
        near[:, :, :-k] |= h[:, :, k:]
    partner = h & (near | (per_rank >= 2))
    return (in_set | in_run).reshape(-1, 52), partner.reshape(-1, 52)


class RummyFeatures:
    """Per-action features of rummy: what the move is and moves (a static table over the action
    index, the top discard filled in per decision), and the hand it leaves (read from the
    observation encoding)."""

    #: The rummy encoding holds nothing of a series.
    match_entries: tuple[str, ...] = ()

    def __init__(self, game: Game) -> None:
        if not isinstance(game, RummyGame):
            raise ParlourError(f"these features are for rummy, not {game.name}")
        self.game = game
        index = action_index(game)
        assert isinstance(index, RummyIndex)
        self.size = index.size
        self.cards = np.zeros((self.size, 52), dtype=np.float32)
        kinds = np.zeros((self.size, len(KINDS)), dtype=np.float32)
        named = {DRAW_STOCK: "draw_stock", DRAW_DISCARD: "draw_discard", DISCARD: "discard"}
        for i in range(index.size):
            if i < index.first_layoff:
                a = index.action(i)
                assert isinstance(a, RummyAction)
                cards = a.cards
                kind = (("meld_set" if is_group(cards) else "meld_run") if a.kind == MELD
                        else named[a.kind])
            else:
                mode, cards = index.layoff(i)
                kind = "layoff_set" if mode == GROUP else "layoff_run"
            kinds[i, KINDS.index(kind)] = 1.0
            self.cards[i] = [cards >> b & 1 for b in range(52)]
        self.kinds = kinds
        self.static = np.concatenate([kinds, self.cards], axis=1)
        self.width = len(KINDS) + 104 + len(COLUMNS)
        enc = encoder(game)
        self.hand_at = enc.block("hand:", 52)
        self.top_at = enc.block("pile_top:", 52)
        self.extends_at = enc.block("extends:", 52)

    def compiled(self, params: dict[str, F32], scale: float) -> RummyNet:
        """The network as rummy's compiled playout policy
        (:meth:`parlour.bots.learned.network.ActionFeatures.compiled`)."""
        from parlour._core import RummyNet
        from parlour.games.rummy.engine import core_turn_limit

        p, o = params, self.game.options
        return RummyNet(self.game.players, o.forbid_discard_of_drawn_discard, o.score_melds,
                        core_turn_limit(o.turn_limit), float(o.turn_limit), p["w1o"], p["w1a"],
                        p["b1"], p["w2"], p["b2"], p["w3"], float(p["b3"][0]), scale=scale)

    def rows(self, legal: I64, obs: F32, seg: I64) -> F32:
        """One feature row per legal action (:meth:`parlour.bots.learned.network.ActionFeatures.rows`)."""
        hand = obs[seg, self.hand_at:self.hand_at + 52] > 0
        moved = self.cards[legal] > 0
        draws = legal == DRAW_DISCARD_AT
        moved[draws] = obs[seg[draws], self.top_at:self.top_at + 52] > 0
        after = np.where(draws[:, None], hand | moved, hand & ~moved)
        meld_after, partner = melded(after)
        meld_before, _ = melded(hand)
        out = np.empty((legal.shape[0], self.width), dtype=np.float32)
        k = len(KINDS)
        out[:, :k] = self.kinds[legal]
        out[:, k:k + 52] = moved
        out[:, k + 52:k + 104] = after
        c = k + 104
        left = after.sum(axis=1)
        out[:, c] = moved @ _POINTS / 100
        out[:, c + 1] = moved.sum(axis=1) / 13
        out[:, c + 2] = left / 26
        out[:, c + 3] = (left == 0) & (legal > DRAW_DISCARD_AT)
        out[:, c + 4] = meld_after.sum(axis=1) / 10
        out[:, c + 5] = (after & ~meld_after) @ _POINTS / 100
        out[:, c + 6] = (after & ~partner) @ _POINTS / 100
        # a draw or a discard; the cards a meld or a lay-off puts down leave the hand scored
        changes = self.kinds[legal, :3].sum(axis=1)
        out[:, c + 7] = changes * (meld_after.sum(axis=1) - meld_before.sum(axis=1)) / 4
        extends = obs[seg, self.extends_at:self.extends_at + 52] > 0
        out[:, c + 8] = self.kinds[legal, 2] * (moved & extends).any(axis=1)
        return out
