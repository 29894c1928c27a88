"""The action features of the climbing games (``big-two-4card``, ``big-two``, ``pusoy-dos``)
for the self-play network (:mod:`parlour.bots.learned.network`): a static table over the whole
action index (each action's cards, size, kind, top card and 2s spent) and what each legal
action leaves in hand.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from parlour.encoding import action_index, encoder
from parlour.errors import ParlourError
from parlour.game import Game
from parlour.games.climbing.combos import ClimbingAction
from parlour.games.climbing.game import ClimbingGame
from parlour.games.climbing.rules import Category

if TYPE_CHECKING:
    from parlour._core import ClimbingNet

F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]

#: The dynamic (hand-after-move) features after the 52-card block: cards left / 13, goes out,
#: singles, pairs, triples, quads left / 6, rank groups broken / 4.
AFTER_EXTRA = 7


class ClimbingFeatures:
    """Per-action features of the climbing games: a static table over the whole action index,
    and what each legal action leaves in the hand of the seat to move (read from the ``hand``
    block, the first 52 entries of the observation encoding, in the game's card order as the
    tables here are)."""

    #: A climbing deal's observation holds nothing of the match.
    match_entries: tuple[str, ...] = ()

    def __init__(self, game: Game) -> None:
        if not isinstance(game, ClimbingGame):
            raise ParlourError(f"the self-play network plays the climbing games, not {game.name}")
        self.game = game
        index = action_index(game)
        names = encoder(game).feature_names()
        # The hand block leads the encoding: rows() reads it as the first 52 entries.
        if not (names[0].startswith("hand:") and names[51].startswith("hand:")):
            raise ParlourError(f"{game.name}'s encoding does not start with the hand block")
        place = {card: k for k, card in enumerate(game.card_order())}
        kinds = [cat for cats in game.table.categories.values() for cat in cats]
        self.size = index.size
        self.cards = np.zeros((index.size, 52), dtype=np.float32)
        # pass, size 1-5, kind, top card's place, top card's rank, 2s spent
        static = np.zeros((index.size, 1 + 5 + len(kinds) + 1 + 13 + 1), dtype=np.float32)
        for i in range(index.size):
            a = index.action(i)
            assert isinstance(a, ClimbingAction)
            if a.category is Category.PASS:
                static[i, 0] = 1.0
                continue
            places = sorted(place[int(c)] for c in a.cards)
            self.cards[i, places] = 1.0
            static[i, len(places)] = 1.0
            static[i, 6 + kinds.index(a.category)] = 1.0
            top = places[-1]
            static[i, 6 + len(kinds)] = top / 51
            static[i, 7 + len(kinds) + top // 4] = 1.0
            static[i, -1] = sum(p >= 48 for p in places) / 4  # the 2s: the top rank
        self.static = np.concatenate([self.cards, static], axis=1)
        # card place -> rank (4 suits a rank, lowest first): hand @ ranks counts cards a rank.
        self.ranks = np.zeros((52, 13), dtype=np.float32)
        self.ranks[np.arange(52), np.arange(52) // 4] = 1.0
        self.width = self.static.shape[1] + 52 + AFTER_EXTRA

    def compiled(self, params: dict[str, F32], scale: float) -> ClimbingNet:
        """The network as the climbing games' compiled playout policy
        (:meth:`parlour.bots.learned.network.ActionFeatures.compiled`): the static features as sparse rows."""
        from parlour._core import ClimbingNet

        p, static, game = params, self.static, self.game
        rows, cols = np.nonzero(static)
        ptr = np.searchsorted(rows, np.arange(static.shape[0] + 1)).astype(np.int64)
        return ClimbingNet(
            game.table.core, game.players, p["w1o"], p["w1a"], p["b1"], p["w2"], p["b2"],
            p["w3"], float(p["b3"][0]), ptr, cols.astype(np.int64),
            static[rows, cols].astype(np.float32), scale=scale)

    def rows(self, legal: I64, obs: F32, seg: I64) -> F32:
        """One feature row per legal action (:meth:`parlour.bots.learned.network.ActionFeatures.rows`)."""
        hand = obs[seg, :52]
        played = self.cards[legal]
        after = hand - played
        counts = after @ self.ranks
        held = hand @ self.ranks
        taken = played @ self.ranks
        out = np.empty((legal.shape[0], self.width), dtype=np.float32)
        s = self.static.shape[1]
        out[:, :s] = self.static[legal]
        out[:, s:s + 52] = after
        left = after.sum(axis=1)
        out[:, s + 52] = left / 13
        out[:, s + 53] = (left == 0) & (legal != 0)
        for k in range(1, 5):
            out[:, s + 53 + k] = (counts == k).sum(axis=1) / 6
        out[:, s + 58] = ((taken > 0) & (taken < held)).sum(axis=1) / 4
        return out
