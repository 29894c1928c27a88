"""The action features of the trump games (``forty-five``, ``spoil-five``) for the self-play
network (:mod:`parlour.bots.learned.network`).

A card's worth in these games hangs on the trump suit of the deal and on the trick in progress,
both of which the observation encoding holds in card-index order (the suits as they are, not as
trump and plain). So besides the action's own entry in the action index, each legal action gets
what a player reads from the card in that deal, worked out from the observation row:

- whether the card is a trump, its place in the trump order (highest first; a silent ace is
  last) or in its plain suit's order (highest first, red and black as the rules rank them);
- for a card played to a trick: whether it leads, follows the suit led, would take the trick as
  it stands, whether a partner holds the trick so far, whether it is the trick's last card, and
  how many trumps and cards of its suit the hand keeps after it (/ 5).

A rob describes its discard by the first three; ``keep``, ``silent``, ``jink`` and ``stop`` have
their index entry alone.

>>> import numpy as np, parlour
>>> from parlour.cards import parse_card
>>> from parlour.encoding import action_index, encoder
>>> game = parlour.new_game("forty-five")
>>> state = game.new_deal(seed=3)
>>> obs = state.observation(state.current_player)
>>> str(obs.turn_up), str(obs.hand)  # diamonds are trumps, and this seat leads
('3D', '5D 6D 9C 2S 4S')
>>> features = TrumpFeatures(game)
>>> legal = np.array(action_index(game).indices(state.legal_actions(), obs))
>>> rows = features.rows(legal, encoder(game).encode(obs)[None, :], np.zeros(legal.size, int))
>>> def named(card): return [COLUMNS[k] for k in np.flatnonzero(rows[legal == card][0, 108:])]
>>> named(int(parse_card("5D")))  # the highest trump; one trump (the 6) stays in hand
['trump', 'trump_place:0', 'leads', 'takes', 'trumps_after']
>>> named(int(parse_card("9C")))  # black plain order K Q J A 2 … 8 9 10: the 12th of 13
['plain_place:11', 'leads', 'takes', 'trumps_after']
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import numpy.typing as npt

from parlour.encoding import action_index, encoder
from parlour.errors import ParlourError
from parlour.game import Game
from parlour.games.trump.encoding import score_scale
from parlour.games.trump.ranking import (
    ACE_OF_TRUMPS,
    DEMOTED_POWER,
    POWER,
    TRUMP_BASE,
    TRUMP_MASK,
    plain_order,
    trump_order,
)
from parlour.games.trump.variants import TrumpGame

if TYPE_CHECKING:
    from parlour._core import TrumpNet

F32 = npt.NDArray[np.float32]
I64 = npt.NDArray[np.int64]

#: The action index (``parlour.games.trump.encoding``): plays 0…51, robs 52…103 by discard.
ROBS = 52
#: Places in the trump order: 14 trumps (13 when hearts are trumps) and a silent ace below them.
TRUMP_PLACES = 15
#: Places in a plain suit's order (12 in hearts, whose ace is always a trump).
PLAIN_PLACES = 13
#: The per-deal columns after the action index's one-hot block, in order.
COLUMNS = ("trump", *(f"trump_place:{i}" for i in range(TRUMP_PLACES)),
           *(f"plain_place:{i}" for i in range(PLAIN_PLACES)),
           "leads", "follows", "takes", "partner_holds", "last", "trumps_after", "suit_after")


class TrumpFeatures:
    """Per-action features of a trump game: the action's one-hot entry (``static``) and, per
    decision, what the card means in that deal (:data:`COLUMNS`, read from the observation
    encoding of :func:`parlour.envs.encoder`)."""

    #: The scores before the deal and Spoil Five's pool: set by the match, not the deal.
    match_entries: tuple[str, ...] = ("score:", "pool")

    def __init__(self, game: Game) -> None:
        if not isinstance(game, TrumpGame):
            raise ParlourError(f"these features are for the trump games, not {game.name}")
        self.game = game
        self.size = action_index(game).size
        self.static = np.eye(self.size, dtype=np.float32)
        self.width = self.size + len(COLUMNS)
        enc = encoder(game)
        n = game.players
        self.players = n
        self.hand_at = enc.block("hand:", 52)
        self.trick_at = enc.block("trick:self:", 52)
        enc.block("trick:", 52 * n)  # every seat's card in the trick follows it
        self.trump_at = enc.block("trump:", 4)
        self.leader_at = enc.block("leader:", n)
        self.demoted_at = enc.block("ace_demoted", 1)
        # the other seats (relative to the observer) on the observer's side: its partners
        sides = game.rules.sides
        self.partner = np.array([sides[k] == sides[0] for k in range(n)])
        self.partner[0] = False
        # powers[demoted, trump, card]; a card's place in the trump order (by demoted, trump)
        # and in its plain suit's order (by trump: the trumps have none)
        self.powers = np.array([POWER, DEMOTED_POWER], dtype=np.int64)
        self.trump_place = np.full((2, 4, 52), -1, dtype=np.int64)
        self.plain_place = np.full((4, 52), -1, dtype=np.int64)
        for t in range(4):
            for i, card in enumerate(trump_order(t)):
                self.trump_place[:, t, int(card)] = i
            self.trump_place[1, t, ACE_OF_TRUMPS[t]] = TRUMP_PLACES - 1  # a silent ace
            for s in range(4):
                for i, card in enumerate(plain_order(s)):
                    if not TRUMP_MASK[t] >> int(card) & 1:
                        self.plain_place[t, int(card)] = i
        self.trump_cards = np.array([[TRUMP_MASK[t] >> c & 1 for c in range(52)]
                                     for t in range(4)], dtype=np.float32)

    def compiled(self, params: dict[str, F32], scale: float) -> TrumpNet:
        """The network as the trump games' compiled playout policy
        (:meth:`parlour.bots.learned.network.ActionFeatures.compiled`), its encoding given the
        scores a match starts with, as in self-play."""
        from parlour._core import TrumpNet

        p, game = params, self.game
        scores, _ = game._deal_args({})
        return TrumpNet(game.rules.core, game.players, score_scale(game),
                        [float(v) for v in scores], p["w1o"], p["w1a"], p["b1"], p["w2"],
                        p["b2"], p["w3"], float(p["b3"][0]), scale=scale)

    def rows(self, legal: I64, obs: F32, seg: I64) -> F32:
        """One feature row per legal action: ``legal[j]`` (an action index) was legal in the
        decision whose observation encoding is ``obs[seg[j]]``."""
        n_obs, n = obs.shape[0], self.players
        out = np.zeros((legal.shape[0], self.width), dtype=np.float32)
        out[:, :self.size] = self.static[legal]
        # the deal's trump, its order, and the trick in progress, per decision
        trump = obs[:, self.trump_at:self.trump_at + 4].argmax(axis=1)
        demoted = (obs[:, self.demoted_at] > 0).astype(np.int64)
        power = self.powers[demoted, trump]  # (decisions, 52)
        trick = obs[:, self.trick_at:self.trick_at + 52 * n].reshape(n_obs, n, 52)
        played = trick.max(axis=2) > 0
        cards = trick.argmax(axis=2)
        on = np.arange(n_obs)
        led = cards[on, obs[:, self.leader_at:self.leader_at + n].argmax(axis=1)]
        strength = np.take_along_axis(power, cards, axis=1)
        counts = played & ((strength >= TRUMP_BASE) | (cards % 4 == (led % 4)[:, None]))
        held = np.where(counts, strength, -1)
        best, holder = held.max(axis=1), held.argmax(axis=1)
        in_trick = played.sum(axis=1)
        # each action's card: the card played, or a rob's discard
        card = np.where(legal < ROBS, legal, legal - ROBS)
        has_card = legal < 2 * ROBS
        plays = legal < ROBS
        a = np.flatnonzero(has_card)
        c, r = card[a], seg[a]
        t, d = trump[r], demoted[r]
        p = power[r, c]
        is_trump = p >= TRUMP_BASE
        out[a, self.size] = is_trump
        tp = self.trump_place[d, t, c]
        pp = self.plain_place[t, c]
        base = self.size + 1
        out[a[is_trump], base + tp[is_trump]] = 1.0
        plain = ~is_trump
        out[a[plain], base + TRUMP_PLACES + pp[plain]] = 1.0
        # a card played to the trick
        a = np.flatnonzero(plays)
        c, r = card[a], seg[a]
        p = power[r, c]
        col = base + TRUMP_PLACES + PLAIN_PLACES
        leads = in_trick[r] == 0
        out[a, col] = leads
        led_trump = power[r, led[r]] >= TRUMP_BASE
        out[a, col + 1] = ~leads & (p < TRUMP_BASE) & ~led_trump & (c % 4 == led[r] % 4)
        takes = leads | (((p >= TRUMP_BASE) | (c % 4 == led[r] % 4)) & (p > best[r]))
        out[a, col + 2] = takes
        out[a, col + 3] = ~leads & self.partner[holder[r]]
        out[a, col + 4] = in_trick[r] == n - 1
        hand = obs[r, self.hand_at:self.hand_at + 52]
        trumps = (hand * self.trump_cards[trump[r]]).sum(axis=1) - (p >= TRUMP_BASE)
        out[a, col + 5] = trumps / 5
        suit = np.arange(52) % 4 == (c % 4)[:, None]
        same = (hand * suit * (1.0 - self.trump_cards[trump[r]])).sum(axis=1) - (p < TRUMP_BASE)
        out[a, col + 6] = same / 5
        return out
