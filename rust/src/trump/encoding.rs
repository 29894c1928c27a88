//! The trump games' observation encoding and action index, exactly as
//! `parlour/games/trump/encoding.py` defines them (its docstring has the tables).
//!
//! Card blocks are in card-index order (`2C 2D 2H 2S 3C …`), the engine's own masks. The
//! encoding reads only what the observing seat sees: its hand, the cards played, the turn-up,
//! its own discard when it robbed (never another seat's), and the public counts and seats.

use super::{JINK, KEEP, MAX_SEATS, ROB_BASE, Rules, STOP, Scoring, State, deal};
use crate::env::batch::Family;
use crate::env::{BLOCK, card_block, clip, relative};
use crate::pyrandom::Mt19937;

/// The largest absolute return of a deal (`trump_scale`): all five tricks in Forty-Five; in
/// Spoil Five every ante, doubled by a jink.
pub fn return_scale(scoring: Scoring, players: usize) -> f64 {
    match scoring {
        Scoring::Sides { points } => f64::from(points[5]),
        Scoring::Pool { ante } => 2.0 * players as f64 * f64::from(ante),
    }
}

/// One ruleset's encoding at one player count.
#[derive(Clone, Debug)]
pub struct Encoding {
    n: usize,
    /// Two sides (Forty-Five): scores are own side, other side; else one per seat and a pool.
    sides: bool,
    /// What scores and the pool are divided by: Forty-Five's target + 25, Spoil Five's chips
    /// in play.
    score_scale: f64,
    return_scale: f64,
}

impl Encoding {
    /// The encoding for `players` seats of a variant scored by `scoring`; `score_scale` is the
    /// Python table's (it depends on options the deal does not carry).
    pub fn new(scoring: Scoring, players: usize, score_scale: f64) -> Encoding {
        Encoding {
            n: players,
            sides: matches!(scoring, Scoring::Sides { .. }),
            score_scale,
            return_scale: return_scale(scoring, players),
        }
    }

    pub fn players(&self) -> usize {
        self.n
    }

    /// Card blocks: the hand, each seat's plays, each seat's card in the trick, the turn-up,
    /// this seat's discard.
    fn card_entries(&self) -> usize {
        BLOCK * (2 * self.n + 3)
    }

    /// Scores: own side and other side, or one per seat.
    pub fn score_entries(&self) -> usize {
        if self.sides { 2 } else { self.n }
    }

    /// The length of every encoding.
    pub fn size(&self) -> usize {
        // trump, phase, eight seat groups, two flags, scores, pool, returns
        self.card_entries() + 8 + 9 * self.n + 2 + self.score_entries() + 1
    }

    /// Writes `seat`'s encoding of `state` into `out[..size()]` (every entry). `played` holds
    /// each seat's cards played to tricks, as [`played_by_seat`] folds them; `scores` the
    /// deal's scores before it (Forty-Five: the two sides'; Spoil Five: each seat's chips).
    // Out of line, as the climbing games' encoding is (see there).
    #[inline(never)]
    pub fn encode(
        &self,
        state: &State,
        seat: usize,
        played: &[u64],
        scores: &[f64],
        out: &mut [f32],
    ) {
        let n = self.n;
        let (blocks, s) = out[..self.size()].split_at_mut(self.card_entries());
        let mut blocks = blocks.chunks_exact_mut(BLOCK);
        let mut block = |mask: u64| {
            if let Some(b) = blocks.next() {
                card_block(mask, b);
            }
        };
        block(state.hands()[seat]);
        for i in 0..n {
            block(played[(seat + i) % n]);
        }
        let leader = usize::from(state.leader());
        let mut trick = [0u64; MAX_SEATS];
        for (j, &card) in state.trick().iter().enumerate() {
            trick[(leader + j) % n] = 1 << card;
        }
        for i in 0..n {
            block(trick[(seat + i) % n]);
        }
        block(1 << state.turn_up());
        let discard = state.discard();
        block(if state.robber() == seat as i8 && discard >= 0 {
            1 << discard
        } else {
            0
        });
        s.fill(0.0);
        let rel = |who: usize| relative(who, seat, n);
        s[usize::from(state.trump())] = 1.0;
        s[4 + state.phase() as usize] = 1.0;
        let group = |k: usize| 8 + k * n; // dealer, leader, to_move, tricks_won, cards_left …
        s[group(0) + rel(usize::from(state.dealer()))] = 1.0;
        s[group(1) + rel(leader)] = 1.0;
        for (k, who) in [
            (2, state.current_player()),
            (5, state.keeper()),
            (6, state.robber()),
            (7, state.jinker()),
        ] {
            if who >= 0 {
                s[group(k) + rel(who as usize)] = 1.0;
            }
        }
        let (won, hands) = (state.tricks_won(), state.hands());
        for i in 0..n {
            let p = (seat + i) % n;
            s[group(3) + i] = (f64::from(won[p]) / 5.0) as f32;
            s[group(4) + i] = (f64::from(hands[p].count_ones()) / 5.0) as f32;
        }
        let flags = group(8);
        s[flags] = f32::from(u8::from(state.pending_ace()));
        s[flags + 1] = f32::from(u8::from(state.demoted()));
        let sc = flags + 2;
        let scale = self.score_scale;
        if self.sides {
            let own = seat % 2;
            s[sc] = clip(scores[own] / scale) as f32;
            s[sc + 1] = clip(scores[1 - own] / scale) as f32;
        } else {
            for i in 0..n {
                s[sc + i] = clip(scores[(seat + i) % n] / scale) as f32;
            }
            s[sc + n] = clip(state.pool() / scale) as f32;
        }
        if state.current_player() < 0 {
            let returns_at = sc + self.score_entries() + 1;
            let mut returns = [0.0; MAX_SEATS];
            state.returns_into(&mut returns);
            for i in 0..n {
                s[returns_at + i] = clip(returns[(seat + i) % n] / self.return_scale) as f32;
            }
        }
    }
}

/// Each seat's cards played to tricks in `history` (`(seat, move)` pairs), into `out`
/// (cleared first).
pub fn played_by_seat(history: &[(u8, u8)], out: &mut [u64; MAX_SEATS]) {
    *out = [0; MAX_SEATS];
    for &(seat, v) in history {
        if v < 52 {
            out[usize::from(seat) % MAX_SEATS] |= 1 << v;
        }
    }
}

/// The number of actions: 52 plays, 52 robs, keep, silent, jink and stop.
pub const ACTIONS: usize = 108;
const ROB_INDEX: usize = 52;
const CALL_INDEX: usize = 104;

/// The index of move `v` (another seat's rob, shown without its discard, has none).
pub fn index(v: u16) -> Option<usize> {
    let v = usize::from(v);
    let rob = usize::from(ROB_BASE);
    match v {
        0..52 => Some(v),
        _ if (rob..rob + 52).contains(&v) => Some(v - rob + ROB_INDEX),
        _ if (usize::from(KEEP)..=usize::from(STOP)).contains(&v) => {
            Some(v - usize::from(KEEP) + CALL_INDEX)
        }
        _ => None,
    }
}

/// The move at index `i`.
pub fn action(i: usize) -> Option<u16> {
    match i {
        0..52 => Some(i as u16),
        ROB_INDEX..CALL_INDEX => Some((i - ROB_INDEX) as u16 + ROB_BASE),
        CALL_INDEX..ACTIONS => Some((i - CALL_INDEX) as u16 + KEEP),
        _ => None,
    }
}

const _: () = assert!(JINK == KEEP + 2 && STOP == KEEP + 3);

/// The batched environment's trump deals: `game.new_deal(seed=…)` of one ruleset, with the
/// default setup (the last seat deals; the scores and pool a match starts with).
#[derive(Clone, Debug)]
pub struct Env {
    rules: Rules,
    encoding: Encoding,
    dealer: u8,
    pool: f64,
    scores: Vec<f64>,
}

impl Env {
    /// The number of actions.
    pub fn actions(&self) -> usize {
        ACTIONS
    }

    /// Deals of `rules` for `players` seats, each with the scores and pool given (2 scores for
    /// two sides, else one per seat); `None` if they do not fit.
    pub fn new(
        rules: Rules,
        players: usize,
        score_scale: f64,
        scores: Vec<f64>,
        pool: f64,
    ) -> Option<Env> {
        let encoding = Encoding::new(rules.scoring, players, score_scale);
        if !(2..=MAX_SEATS).contains(&players) || scores.len() != encoding.score_entries() {
            return None;
        }
        Some(Env {
            rules,
            encoding,
            dealer: (players - 1) as u8,
            pool,
            scores,
        })
    }

    /// The rules of this game's deals.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn encoding(&self) -> &Encoding {
        &self.encoding
    }
}

impl Family for Env {
    type State = State;
    type Move = u16;
    type Track = [u64; MAX_SEATS];

    fn players(&self) -> usize {
        self.encoding.players()
    }

    fn obs_size(&self) -> usize {
        self.encoding.size()
    }

    fn deal(&self, seed: u64) -> (State, [u64; MAX_SEATS]) {
        // `trump_deal`: the deck of `random.Random(seed).shuffle(list(range(52)))`.
        let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
        Mt19937::from_abs_seed(seed).shuffle(&mut deck);
        let n = self.players();
        // Two to ten seats take 5 cards each from 52 and a turn-up: always a deal.
        let (hands, turn_up) = deal(&deck, n, usize::from(self.dealer)).expect("52 cards deal");
        let state = State::new(self.rules, &hands[..n], turn_up, self.dealer, self.pool)
            .expect("a dealt deal is a deal");
        (state, [0; MAX_SEATS])
    }

    fn to_move(&self, state: &State) -> i8 {
        state.current_player()
    }

    fn legal_into(&self, state: &mut State, out: &mut Vec<u16>) {
        state.legal_actions(out);
    }

    fn index(&self, _: &State, m: u16) -> i64 {
        index(m).map_or(-1, |i| i as i64)
    }

    fn apply(&self, state: &mut State, played: &mut [u64; MAX_SEATS], m: u16) {
        let seat = state.current_player();
        if seat >= 0 && state.apply(i64::from(m)).is_ok() && m < 52 {
            played[seat as usize] |= 1 << m;
        }
    }

    fn returns_into(&self, state: &State, out: &mut [f64]) {
        let mut returns = [0.0; MAX_SEATS];
        state.returns_into(&mut returns);
        for (o, &r) in out.iter_mut().zip(&returns) {
            *o = r;
        }
    }

    fn encode(&self, state: &State, played: &[u64; MAX_SEATS], seat: usize, out: &mut [f32]) {
        self.encoding.encode(state, seat, played, &self.scores, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::trump::FORTY_FIVE;
    use crate::trump::HIDDEN_ROB;

    #[test]
    fn the_index_goes_both_ways() {
        for i in 0..ACTIONS {
            assert_eq!(index(action(i).unwrap()), Some(i));
        }
        assert_eq!(action(ACTIONS), None);
        assert_eq!(index(HIDDEN_ROB), None);
        assert_eq!(
            [0, 51, 64, 73, 128, 129, 130, 131].map(|v| index(v).unwrap()),
            [0, 51, 52, 61, 104, 105, 106, 107]
        );
    }

    #[test]
    fn only_the_robber_sees_its_discard() {
        let rules = FORTY_FIVE;
        // Spades are trumps (the turn-up 2S, card 3); seat 3 holds AS (card 51) and robs.
        let hands = [
            1 << 4 | 1 << 8 | 1 << 12 | 1 << 16 | 1 << 20,
            1 << 5 | 1 << 9 | 1 << 13 | 1 << 17 | 1 << 21,
            1 << 6 | 1 << 10 | 1 << 14 | 1 << 18 | 1 << 22,
            1 << 51 | 1 << 11 | 1 << 15 | 1 << 19 | 1 << 23,
        ];
        let mut s = State::new(rules, &hands, 3, 3, 0.0).unwrap();
        s.apply(i64::from(ROB_BASE) + 11).unwrap();
        let enc = Encoding::new(rules.scoring, 4, 70.0);
        let scores = [0.0; 2];
        let mut played = [0; MAX_SEATS];
        played_by_seat(s.history(), &mut played);
        let discard_block = BLOCK * 10;
        for seat in 0..4 {
            let mut out = vec![0.0; enc.size()];
            enc.encode(&s, seat, &played, &scores, &mut out);
            let seen: Vec<usize> = (0..52).filter(|&k| out[discard_block + k] != 0.0).collect();
            assert_eq!(
                seen,
                if seat == 3 { vec![11] } else { vec![] },
                "seat {seat}"
            );
        }
    }
}
