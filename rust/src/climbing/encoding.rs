//! The climbing games' observation encoding and action index, exactly as
//! `parlour/games/climbing/encoding.py` defines them (its docstring has the tables).
//!
//! Card blocks are in the variant's key order, which is the engine's own bit order, so every
//! block is a mask written out bit by bit. The encoding reads only what the observing seat
//! sees: its own hand, the cards each seat played (public), the table, the counts and places.

use std::sync::Arc;

use super::combos::{MASK, PASS, SIZE_SHIFT, Table};
use super::rules::{Rules, Scoring};
use super::state::{MAX_SEATS, Start, State};
use crate::env::batch::Family;
use crate::env::{BLOCK, card_block, relative};
use crate::interned::Interned;
use crate::pyrandom::Mt19937;

/// A packed play's size and category (`size << 3 | category`) start at this bit.
const KIND_SHIFT: u32 = SIZE_SHIFT - 3;
const NO_KIND: u16 = u16::MAX;

/// The largest absolute return of a deal, by the ruleset's scoring (`SCORE_SCALE`).
pub fn score_scale(scoring: Scoring) -> f64 {
    match scoring {
        Scoring::Count | Scoring::Penalty => 39.0,
        Scoring::Placement => 3.0,
    }
}

/// One ruleset's encoding at one player count.
#[derive(Clone, Debug)]
pub struct Encoding {
    n: usize,
    /// The scalar of each table kind, by `size << 3 | category`.
    kind: [u16; 64],
    kinds: usize,
    scale: f64,
}

impl Encoding {
    /// The encoding of `rules` for `players` seats (2 to [`MAX_SEATS`]).
    pub fn new(rules: &Rules, players: usize) -> Encoding {
        // The kinds of play, size by size, each size's categories low to high (the Python
        // table's `categories`).
        let mut sizes: Vec<(u64, usize)> = vec![(1, 1), (2, 1)];
        if rules.triples {
            sizes.push((3, 1));
        }
        if rules.four_card_hands {
            sizes.push((4, 2));
        }
        sizes.push((5, rules.five.len()));
        let mut kind = [NO_KIND; 64];
        let mut kinds = 0;
        for (size, count) in sizes {
            for category in 0..count {
                if let Some(slot) = kind.get_mut((size << 3 | category as u64) as usize) {
                    *slot = (3 * players + kinds) as u16;
                }
                kinds += 1;
            }
        }
        Encoding {
            n: players,
            kind,
            kinds,
            scale: score_scale(rules.scoring),
        }
    }

    pub fn players(&self) -> usize {
        self.n
    }

    /// Card blocks: the hand, each seat's plays, the table, the cards out from the start.
    fn card_entries(&self) -> usize {
        BLOCK * (self.n + 3)
    }

    /// The length of every encoding.
    pub fn size(&self) -> usize {
        self.card_entries() + 5 * self.n + self.kinds + 3
    }

    /// Writes `seat`'s encoding of `state` into `out[..size()]` (every entry). `played` holds
    /// each seat's cards played this deal, as [`played_by_seat`] folds them from the history.
    // Out of line: inlined into the network's scores (it runs once per decision, the products once
    // per move) it measured a few percent slower.
    #[inline(never)]
    pub fn encode(&self, state: &State, seat: usize, played: &[u64], out: &mut [f32]) {
        let n = self.n;
        let (blocks, s) = out[..self.size()].split_at_mut(self.card_entries());
        let mut blocks = blocks.chunks_exact_mut(BLOCK);
        let mut block = |mask: u64| {
            if let Some(b) = blocks.next() {
                card_block(mask, b);
            }
        };
        let hands = state.hands();
        block(hands[seat]);
        for i in 0..n {
            block(played[(seat + i) % n]);
        }
        let (table, table_seat, passes) = state.trick();
        block(table & MASK);
        block(state.out());
        s.fill(0.0);
        for (i, x) in s[..n].iter_mut().enumerate() {
            *x = (f64::from(hands[(seat + i) % n].count_ones()) / 13.0) as f32;
        }
        let (to_move, table_by, passes_at) = (n, 2 * n, 3 * n + self.kinds);
        let (place, score) = (passes_at + 3, passes_at + 3 + n);
        let mover = state.current_player();
        if mover >= 0 {
            s[to_move + relative(mover as usize, seat, n)] = 1.0;
            if table == 0 {
                s[passes_at + 1] = 1.0;
            }
        }
        if table != 0 {
            s[table_by + relative(table_seat as usize, seat, n)] = 1.0;
            let k = self.kind[(table >> KIND_SHIFT) as usize & 63];
            if k != NO_KIND {
                s[usize::from(k)] = 1.0;
            }
            s[passes_at] = (f64::from(passes) / (n - 1) as f64) as f32;
        }
        if state.opening() {
            s[passes_at + 2] = 1.0;
        }
        for (p, &who) in state.finished().iter().enumerate() {
            s[place + relative(usize::from(who), seat, n)] = ((n - p) as f64 / n as f64) as f32;
        }
        if mover < 0 {
            let returns = state.returns();
            for i in 0..n {
                s[score + i] = (returns[(seat + i) % n] / self.scale) as f32;
            }
        }
    }
}

/// Each seat's cards played in `history` (`(seat, play)` pairs), into `out` (cleared first).
pub fn played_by_seat(history: &[(u8, u64)], out: &mut [u64; MAX_SEATS]) {
    *out = [0; MAX_SEATS];
    for &(seat, play) in history {
        out[usize::from(seat) % MAX_SEATS] |= play & MASK;
    }
}

/// Index 0 is the pass; then every play of the ruleset in the engine's (sorted) order.
#[derive(Clone, Debug)]
pub struct ActionIndex {
    plays: Vec<u64>,
    /// Each play's place in `plays`.
    places: Interned<()>,
}

impl ActionIndex {
    pub fn new(table: &Table) -> ActionIndex {
        let mut plays = Vec::new();
        table.hand_plays(MASK, &mut plays);
        let places = Interned::from_pairs(&plays, std::iter::repeat_n((), plays.len()));
        ActionIndex { plays, places }
    }

    /// The number of actions.
    pub fn size(&self) -> usize {
        self.plays.len() + 1
    }

    /// The index of a packed play (or the pass); `None` for a value no play of the ruleset has.
    pub fn index(&self, play: u64) -> Option<usize> {
        if play == PASS {
            return Some(0);
        }
        self.places.position(play).map(|i| i + 1)
    }

    /// The packed play at index `i`.
    pub fn action(&self, i: usize) -> Option<u64> {
        match i {
            0 => Some(PASS),
            _ => self.plays.get(i - 1).copied(),
        }
    }
}

/// The batched environment's climbing deals: `game.new_deal(seed=…)` of one ruleset.
#[derive(Clone, Debug)]
pub struct Env {
    table: Arc<Table>,
    /// The key-order bit of each card index.
    key: [u8; 52],
    encoding: Encoding,
    index: Arc<ActionIndex>,
}

impl Env {
    /// Deals of `table` for `players` seats; `card_order` is the card index of each key-order
    /// bit (the Python table's). `None` unless `players` is 2 to [`MAX_SEATS`] and
    /// `card_order` lists the 52 cards once.
    pub fn new(
        table: Arc<Table>,
        card_order: &[u8; 52],
        players: usize,
        index: Arc<ActionIndex>,
    ) -> Option<Env> {
        if !(2..=MAX_SEATS).contains(&players) {
            return None;
        }
        let mut key = [u8::MAX; 52];
        for (bit, &card) in card_order.iter().enumerate() {
            *key.get_mut(usize::from(card))? = bit as u8;
        }
        if key.contains(&u8::MAX) {
            return None;
        }
        Some(Env {
            encoding: Encoding::new(&table.rules, players),
            table,
            key,
            index,
        })
    }

    /// The rules of this game's deals.
    pub fn rules(&self) -> &Rules {
        &self.table.rules
    }

    pub fn encoding(&self) -> &Encoding {
        &self.encoding
    }

    pub fn action_index(&self) -> &ActionIndex {
        &self.index
    }

    /// The number of actions.
    pub fn actions(&self) -> usize {
        self.index.size()
    }
}

impl Family for Env {
    type State = State;
    type Move = u64;
    type Track = [u64; MAX_SEATS];

    fn players(&self) -> usize {
        self.encoding.players()
    }

    fn obs_size(&self) -> usize {
        self.encoding.size()
    }

    fn deal(&self, seed: u64) -> (State, [u64; MAX_SEATS]) {
        // The deck of `random.Random(seed).shuffle(list(range(52)))`, one card at a time from
        // seat 0, as `ClimbingTable.deal` deals it.
        let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
        Mt19937::from_abs_seed(seed).shuffle(&mut deck);
        let n = self.players();
        let mut hands = vec![0u64; n];
        for (i, &card) in deck.iter().enumerate() {
            hands[i % n] |= 1 << self.key[usize::from(card)];
        }
        let start = Start {
            hands,
            table_seat: -1,
            ..Start::default()
        };
        // Two to four seats share the 52 cards and one holds the lowest: always a deal.
        let state = State::new(self.table.clone(), &start).expect("a full deal is a deal");
        (state, [0; MAX_SEATS])
    }

    fn to_move(&self, state: &State) -> i8 {
        state.current_player()
    }

    fn legal_into(&self, state: &mut State, out: &mut Vec<u64>) {
        state.legal_actions(out);
    }

    fn index(&self, _: &State, m: u64) -> i64 {
        self.index.index(m).map_or(-1, |i| i as i64)
    }

    fn apply(&self, state: &mut State, played: &mut [u64; MAX_SEATS], m: u64) {
        let seat = state.current_player();
        if seat >= 0 && state.apply(m).is_ok() {
            played[seat as usize] |= m & MASK;
        }
    }

    fn returns_into(&self, state: &State, out: &mut [f64]) {
        for (o, &r) in out.iter_mut().zip(state.returns()) {
            *o = r;
        }
    }

    fn encode(&self, state: &State, played: &[u64; MAX_SEATS], seat: usize, out: &mut [f32]) {
        self.encoding.encode(state, seat, played, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::climbing::by_suit_place;

    #[test]
    fn sizes_follow_the_ruleset() {
        // big-two-4card: 7 blocks, 5 × 4 seat scalars, 9 kinds, 3 flags (the Python 396).
        assert_eq!(Encoding::new(&Rules::big_two_4card(), 4).size(), 396);
        let index = ActionIndex::new(&Table::new(Rules::big_two_4card()));
        assert_eq!(index.size(), 21_076);
        assert_eq!(
            ActionIndex::new(&Table::new(Rules::big_two())).size(),
            18_827
        );
    }

    #[test]
    fn the_index_goes_both_ways() {
        let index = ActionIndex::new(&Table::new(Rules::pusoy_dos()));
        for i in 0..index.size() {
            assert_eq!(index.index(index.action(i).unwrap()), Some(i));
        }
        assert_eq!(index.action(index.size()), None);
        assert_eq!(index.index(3), None);
    }

    #[test]
    fn an_encoding_names_the_mover_the_table_and_the_plays() {
        let rules = Rules::big_two();
        let enc = Encoding::new(&rules, 4);
        let mut s = by_suit_place(rules);
        let mut legal = Vec::new();
        s.legal_actions(&mut legal);
        s.apply(legal[0]).unwrap();
        let mut played = [0; MAX_SEATS];
        played_by_seat(s.history(), &mut played);
        let mut out = vec![9.0; enc.size() + 1];
        enc.encode(&s, 1, &played, &mut out);
        assert_eq!(out[enc.size()], 9.0);
        assert!(out[..enc.size()].iter().all(|&x| (-1.0..=1.0).contains(&x)));
        let blocks = BLOCK * 7;
        // Seat 1 sees seat 0 as +3: its play in block 4 (played:+3) and in the table block.
        let play = legal[0] & MASK;
        for k in 0..52 {
            let bit = if play >> k & 1 != 0 { 1.0 } else { 0.0 };
            assert_eq!(out[BLOCK * 4 + k], bit);
            assert_eq!(out[BLOCK * 5 + k], bit);
        }
        assert_eq!(out[blocks + 4], 1.0); // to_move:self
        assert_eq!(out[blocks + 8 + 3], 1.0); // table_by:+3
    }
}
