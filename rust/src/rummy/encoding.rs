//! Rummy's observation encoding and action index, exactly as `parlour/games/rummy/encoding.py`
//! defines them (its docstring has the tables).
//!
//! Card blocks are in rummy's order, the engine's own layout. The encoding reads only what the
//! observing seat sees: its hand, the table, the pile, the cards each seat took from the pile
//! or discarded (public), and the card the mover drew only when this seat may know it.

use std::sync::Arc;

use super::melds::{FULL, ROW, column, is_group, is_run, suits_of_rank};
use super::state::{
    DISCARD, DRAW_DISCARD, DRAW_STOCK, KIND_BITS, LAYOFF, MAX_SEATS, MELD, Rules, State,
    TARGET_SHIFT, action as pack,
};
use crate::env::batch::Family;
use crate::env::{BLOCK, card_block, relative};
use crate::pyrandom::Mt19937;

/// Every card's points together: no deal scores more.
pub const TOTAL_POINTS: f64 = 400.0;

/// One player count's encoding.
#[derive(Clone, Debug)]
pub struct Encoding {
    n: usize,
    turn_limit: f64,
}

/// Whether `turn_limit` may scale an encoding's turn count: the option's value, a whole number
/// of turns from 1 (the one rule for the encoders and the networks).
pub fn is_turn_limit(turn_limit: f64) -> bool {
    turn_limit >= 1.0 && turn_limit.is_finite()
}

impl Encoding {
    /// The encoding for `players` seats and the deal's `turn_limit` (the option's value; see
    /// [`is_turn_limit`]).
    pub fn new(players: usize, turn_limit: f64) -> Encoding {
        Encoding {
            n: players,
            turn_limit,
        }
    }

    pub fn players(&self) -> usize {
        self.n
    }

    /// Card blocks: hand, table, placed / taken / discarded per seat, pile, its top, the card
    /// drawn, the cards that would lay off.
    fn card_entries(&self) -> usize {
        BLOCK * (3 * self.n + 6)
    }

    /// The length of every encoding.
    pub fn size(&self) -> usize {
        self.card_entries() + 3 + 4 * self.n + 3
    }

    /// Writes `seat`'s encoding of `state` into `out[..size()]` (every entry). `discarded` holds
    /// each seat's discards this deal (rummy layout), as [`Discards`] keeps them.
    // Out of line, as the climbing games' encoding is (see there).
    #[inline(never)]
    pub fn encode(&self, state: &State, seat: usize, discarded: &[u64], out: &mut [f32]) {
        let n = self.n;
        let (blocks, s) = out[..self.size()].split_at_mut(self.card_entries());
        let mut blocks = blocks.chunks_exact_mut(BLOCK);
        let mut block = |mask: u64| {
            if let Some(b) = blocks.next() {
                card_block(mask, b);
            }
        };
        let (hand, drawn) = state.seat_view(seat);
        block(hand);
        let (mut table, mut extends) = (0, 0);
        for &m in state.melds() {
            table |= m;
            extends |= extends_of(m);
        }
        block(table);
        for seats in [state.placed(), state.taken(), discarded] {
            for i in 0..n {
                block(seats[(seat + i) % n]);
            }
        }
        let pile = state.pile();
        block(pile.iter().fold(0, |m, &c| m | 1 << c));
        block(pile.last().map_or(0, |&c| 1 << c));
        block(if drawn >= 0 { 1 << drawn } else { 0 });
        block(extends);
        s.fill(0.0);
        let phase = if state.is_over() {
            2
        } else {
            usize::from(!state.drawing())
        };
        s[phase] = 1.0;
        let current = state.current_player();
        if current >= 0 {
            s[3 + relative(current as usize, seat, n)] = 1.0;
        }
        let (hands, scores) = (state.hands(), state.scores());
        for i in 0..n {
            let p = (seat + i) % n;
            s[3 + n + i] = (f64::from(hands[p].count_ones()) / 26.0) as f32;
            s[3 + 2 * n + i] = (scores[p] as f64 / TOTAL_POINTS) as f32;
        }
        let k = 3 + 3 * n;
        s[k] = (state.stock().len() as f64 / 52.0) as f32;
        s[k + 1] = (pile.len() as f64 / 52.0) as f32;
        let turn = state.turn() as f64 / self.turn_limit;
        s[k + 2] = (if turn < 1.0 { turn } else { 1.0 }) as f32;
        let went_out = state.went_out();
        if went_out >= 0 {
            s[k + 3 + relative(went_out as usize, seat, n)] = 1.0;
        }
    }
}

/// The cards that lay off on `meld`: a group of three's missing card, or the cards just below
/// and just above a run (within its suit).
pub fn extends_of(meld: u64) -> u64 {
    if meld == 0 {
        return 0;
    }
    if is_group(meld) {
        return column(meld.trailing_zeros() % 13) & !meld;
    }
    let low = meld & meld.wrapping_neg();
    let row = ROW << (meld.trailing_zeros() / 13 * 13);
    let above = 1u64.checked_shl(64 - meld.leading_zeros()).unwrap_or(0);
    ((low >> 1) | above) & row
}

/// Each seat's discards of one deal, kept up to date move by move (the engine keeps no history).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Discards(pub [u64; MAX_SEATS]);

impl Discards {
    /// Notes that `seat` played `action`.
    #[inline]
    pub fn record(&mut self, seat: usize, action: u64) {
        if action & 7 == DISCARD {
            self.0[seat % MAX_SEATS] |= action >> KIND_BITS & FULL;
        }
    }
}

/// How a lay-off goes on its meld.
const GROUP: u8 = 0;
const BELOW: u8 = 1;
const ABOVE: u8 = 2;
const BOTH: u8 = 3;
const MODE_SHIFT: u32 = 56;

const DISCARD_INDEX: usize = 2;
const RUN_INDEX: usize = 54;
const GROUP_INDEX: usize = 318;
/// The first lay-off's index.
pub const FIRST_LAYOFF: usize = 383;
/// The suit sets of a group, in index order.
const GROUP_SUITS: [u64; 5] = [7, 11, 13, 14, 15];

/// The cards of ranks `lo..=hi` (ace low) of one suit.
fn block_of(suit: u32, lo: u32, hi: u32) -> u64 {
    ((1 << (hi - lo + 1)) - 1) << (13 * suit + lo)
}

/// Draws, discards, melds, then lay-offs by cards and side; a lay-off's meld follows from the
/// table (a meld holds each card once, so exactly one meld fits).
#[derive(Clone, Debug)]
pub struct ActionIndex {
    /// `(mode, cards)` of each lay-off, in index order.
    layoffs: Vec<(u8, u64)>,
    /// `(mode << 56 | cards, index)`, sorted.
    by_key: Vec<(u64, u16)>,
}

impl Default for ActionIndex {
    fn default() -> Self {
        ActionIndex::new()
    }
}

impl ActionIndex {
    pub fn new() -> ActionIndex {
        let mut layoffs: Vec<(u8, u64)> = (0..52).map(|i| (GROUP, 1 << i)).collect();
        for mode in [BELOW, ABOVE] {
            for s in 0..4 {
                for lo in 0..13 {
                    for hi in lo..13 {
                        if (mode == BELOW && hi <= 9) || (mode == ABOVE && lo >= 3) {
                            layoffs.push((mode, block_of(s, lo, hi)));
                        }
                    }
                }
            }
        }
        for s in 0..4 {
            for a in 0..13 {
                for b in a..13 {
                    for c in b + 4..13 {
                        for d in c..13 {
                            layoffs.push((BOTH, block_of(s, a, b) | block_of(s, c, d)));
                        }
                    }
                }
            }
        }
        let mut by_key: Vec<(u64, u16)> = layoffs
            .iter()
            .enumerate()
            .map(|(i, &(mode, cards))| {
                (
                    u64::from(mode) << MODE_SHIFT | cards,
                    (FIRST_LAYOFF + i) as u16,
                )
            })
            .collect();
        by_key.sort_unstable();
        ActionIndex { layoffs, by_key }
    }

    /// The number of actions (2,855).
    pub fn size(&self) -> usize {
        FIRST_LAYOFF + self.layoffs.len()
    }

    /// The index of `action` made with `melds` on the table; `None` for a value that is no
    /// move, or a lay-off that goes on no meld of the table.
    pub fn index(&self, action: u64, melds: &[u64]) -> Option<usize> {
        let cards = action >> KIND_BITS & FULL;
        match action & 7 {
            DRAW_STOCK | DRAW_DISCARD if action < 2 => Some(action as usize),
            DISCARD if cards.count_ones() == 1 && action >> KIND_BITS == cards => {
                Some(DISCARD_INDEX + cards.trailing_zeros() as usize)
            }
            MELD if action >> KIND_BITS == cards => meld_index(cards),
            LAYOFF => {
                let meld = *melds.get(usize::try_from(action >> TARGET_SHIFT).ok()?)?;
                let mode = if is_group(meld) {
                    GROUP
                } else {
                    let below = cards & ((meld & meld.wrapping_neg()).wrapping_sub(1));
                    if below != 0 && cards & !below != 0 {
                        BOTH
                    } else if below != 0 {
                        BELOW
                    } else {
                        ABOVE
                    }
                };
                let key = u64::from(mode) << MODE_SHIFT | cards;
                let at = self.by_key.binary_search_by_key(&key, |&(k, _)| k).ok()?;
                Some(usize::from(self.by_key[at].1))
            }
            _ => None,
        }
    }

    /// The action at index `i` with `melds` on the table; `None` past the actions, or for a
    /// lay-off that no meld of the table takes.
    pub fn action(&self, i: usize, melds: &[u64]) -> Option<u64> {
        match i {
            0 | 1 => Some(i as u64),
            DISCARD_INDEX..RUN_INDEX => Some(pack(DISCARD, 1 << (i - DISCARD_INDEX), 0)),
            RUN_INDEX..GROUP_INDEX => {
                let mut k = i - RUN_INDEX;
                let suit = (k / 66) as u32;
                k %= 66;
                let mut lo = 0;
                while k >= 11 - lo {
                    k -= 11 - lo;
                    lo += 1;
                }
                let (lo, hi) = (lo as u32, (lo + 2 + k) as u32);
                Some(pack(MELD, block_of(suit, lo, hi), 0))
            }
            GROUP_INDEX..FIRST_LAYOFF => {
                let k = i - GROUP_INDEX;
                let (rank, suits) = ((k / 5) as u32, GROUP_SUITS[k % 5]);
                let cards = (0..4)
                    .filter(|s| suits >> s & 1 != 0)
                    .fold(0, |m, s| m | 1 << (13 * s + rank));
                Some(pack(MELD, cards, 0))
            }
            _ => {
                let &(mode, cards) = self.layoffs.get(i - FIRST_LAYOFF)?;
                let low = cards & cards.wrapping_neg();
                let low_bit = low.trailing_zeros();
                let fits = |m: u64| match mode {
                    GROUP => is_group(m) && m & column(low_bit % 13) != 0,
                    ABOVE => !is_group(m) && m != 0 && 63 - m.leading_zeros() + 1 == low_bit,
                    _ => {
                        // Below, or both ends: the run starts just above the (lower) block.
                        let lower = (cards ^ cards.wrapping_add(low)) & cards;
                        let top = 64 - lower.leading_zeros();
                        !is_group(m) && m != 0 && m.trailing_zeros() == top
                    }
                };
                let target = melds.iter().position(|&m| fits(m))?;
                Some(pack(LAYOFF, cards, target as u64))
            }
        }
    }
}

/// The index of a meld's cards (a run or a group), or `None`.
fn meld_index(cards: u64) -> Option<usize> {
    if is_run(cards) {
        let low = cards.trailing_zeros();
        let (suit, lo) = ((low / 13) as usize, (low % 13) as usize);
        let hi = ((63 - cards.leading_zeros()) % 13) as usize;
        let before = 11 * lo - lo * (lo.saturating_sub(1)) / 2;
        return Some(RUN_INDEX + 66 * suit + before + hi - lo - 2);
    }
    if is_group(cards) {
        let rank = cards.trailing_zeros() % 13;
        let suits = suits_of_rank(cards, rank);
        let k = GROUP_SUITS.iter().position(|&s| s == suits)?;
        return Some(GROUP_INDEX + 5 * rank as usize + k);
    }
    None
}

/// The card of each card index (`rank * 4 + suit`, ace high) in rummy's layout: the deck
/// `game.new_deal(seed=…)` shuffles.
const DECK: [u8; 52] = {
    let mut deck = [0u8; 52];
    let mut c = 0;
    while c < 52 {
        deck[c] = ((c & 3) * 13 + ((c >> 2) + 1) % 13) as u8;
        c += 1;
    }
    deck
};
/// Each stock rebuild's shuffle is seeded `seed + rebuilds * SEED_STEP`.
const SEED_STEP: u128 = 0x9E37_79B9_7F4A_7C15;

/// `random.Random(seed)` for any seed from 0 up (its key: the 32-bit words of `seed`).
fn generator(seed: u128) -> Mt19937 {
    let mut key = [0u32; 4];
    let words = (128 - seed.leading_zeros()).div_ceil(32).max(1) as usize;
    for (i, w) in key.iter_mut().enumerate() {
        *w = (seed >> (32 * i)) as u32;
    }
    Mt19937::from_key(&key[..words])
}

/// What a batched rummy deal carries beside its state: each seat's discards, and the deal's
/// seed with the stock rebuilds so far (which seed the next one's shuffle).
#[derive(Clone, Debug, Default)]
pub struct Track {
    pub discards: Discards,
    seed: u64,
    rebuilds: u64,
    pile: Vec<u8>,
}

/// The batched environment's rummy deals: `game.new_deal(seed=…)` of one ruleset.
#[derive(Clone, Debug)]
pub struct Env {
    rules: Rules,
    hand_size: usize,
    encoding: Encoding,
    index: Arc<ActionIndex>,
}

impl Env {
    /// Deals of `rules` with `hand_size` cards each; `turn_limit` is the option's value (the
    /// encoding's scale). `None` unless such a deal can be dealt.
    pub fn new(
        rules: Rules,
        hand_size: usize,
        turn_limit: f64,
        index: Arc<ActionIndex>,
    ) -> Option<Env> {
        let env = Env {
            rules,
            hand_size,
            encoding: Encoding::new(usize::from(rules.players), turn_limit),
            index,
        };
        State::deal(rules, &DECK, hand_size).ok()?;
        Some(env)
    }

    /// The rules of this game's deals.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    pub fn encoding(&self) -> &Encoding {
        &self.encoding
    }

    /// The number of actions.
    pub fn actions(&self) -> usize {
        self.index.size()
    }
}

impl Family for Env {
    type State = State;
    type Move = u64;
    type Track = Track;

    fn players(&self) -> usize {
        self.encoding.players()
    }

    fn obs_size(&self) -> usize {
        self.encoding.size()
    }

    fn deal(&self, seed: u64) -> (State, Track) {
        let mut deck = DECK;
        Mt19937::from_abs_seed(seed).shuffle(&mut deck);
        // `new` dealt these rules and hand size once: any order of the deck deals too.
        let state = State::deal(self.rules, &deck, self.hand_size).expect("a deck deals");
        let track = Track {
            seed,
            ..Track::default()
        };
        (state, track)
    }

    fn to_move(&self, state: &State) -> i8 {
        state.current_player()
    }

    fn legal_into(&self, state: &mut State, out: &mut Vec<u64>) {
        state.legal_actions(out);
    }

    fn index(&self, state: &State, m: u64) -> i64 {
        self.index.index(m, state.melds()).map_or(-1, |i| i as i64)
    }

    fn apply(&self, state: &mut State, track: &mut Track, m: u64) {
        let seat = state.current_player();
        if seat < 0 || state.apply(m).is_err() {
            return;
        }
        track.discards.record(seat as usize, m);
        if state.needs_rebuild() {
            // As `RummyState.rebuild_stock`: the discards under the top card, shuffled.
            let pile = state.pile();
            track.pile.clear();
            track.pile.extend_from_slice(&pile[..pile.len() - 1]);
            let seed = u128::from(track.seed) + u128::from(track.rebuilds) * SEED_STEP;
            generator(seed).shuffle(&mut track.pile);
            if state.rebuild(&track.pile).is_ok() {
                track.rebuilds += 1;
            }
        }
    }

    fn returns_into(&self, state: &State, out: &mut [f64]) {
        let hands = state.hands();
        for (i, o) in out.iter_mut().enumerate().take(hands.len()) {
            *o = (state.scores()[i] - state.hand_value(i)) as f64;
        }
    }

    fn encode(&self, state: &State, track: &Track, seat: usize, out: &mut [f32]) {
        self.encoding.encode(state, seat, &track.discards.0, out);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fixed_indexes_go_both_ways_and_count_as_the_python_table() {
        let index = ActionIndex::new();
        assert_eq!(index.size(), 2855);
        for i in 0..FIRST_LAYOFF {
            let a = index.action(i, &[]).unwrap();
            assert_eq!(index.index(a, &[]), Some(i), "index {i}");
        }
        // meld AC 2C 3C is 54, meld AC AD AH 318 (the Python names).
        assert_eq!(meld_index(0b111), Some(54));
        assert_eq!(meld_index(1 | 1 << 13 | 1 << 26), Some(318));
        assert_eq!(meld_index(0b11), None);
    }

    #[test]
    fn a_layoff_index_names_its_side_and_finds_its_meld() {
        let index = ActionIndex::new();
        // Clubs run 4C 5C 6C (bits 3..=5), a group of three sevens (C missing), a run 9D-JD.
        let run = 0b111 << 3;
        let group = 1 << 19 | 1 << 32 | 1 << 45;
        let other = 0b111 << 21;
        let melds = [other, run, group];
        for (cards, target) in [(1 << 6, 1), (1 << 2, 1), (1 << 2 | 1 << 6, 1), (1 << 6, 2)] {
            let a = pack(LAYOFF, cards, target);
            // 7C fits the run (above) and the group: two lay-offs with their own indexes.
            let i = index.index(a, &melds).unwrap();
            assert!(i >= FIRST_LAYOFF);
            assert_eq!(index.action(i, &melds), Some(a));
        }
        assert_eq!(index.index(pack(LAYOFF, 1 << 6, 5), &melds), None);
        assert_eq!(index.action(FIRST_LAYOFF, &melds), None); // AC on a group of aces
    }

    #[test]
    fn extends_are_the_cards_next_to_each_meld() {
        assert_eq!(extends_of(0b111 << 3), 1 << 2 | 1 << 6);
        assert_eq!(extends_of(0b111), 1 << 3); // no card below the ace
        assert_eq!(extends_of(0b111 << 49), 1 << 48); // none above the king of spades
        assert_eq!(extends_of(1 | 1 << 13 | 1 << 26), 1 << 39);
        assert_eq!(extends_of(column(4)), 0);
    }
}
