//! Plays packed one `u64` each, and every play of a hand.
//!
//! A play is `size << 61 | strength << 52 | mask`, where `mask` holds its cards in key order and
//! `strength = category * 64 + key` (the category's place among its size's, then the deciding
//! card). Plays of one size compare as plain integers, so a hand's plays sorted once give every
//! answer to a table play by bisection. The pass is 0.

use super::rules::{Five, Rules, Scoring};

/// The 52 card bits.
pub const MASK: u64 = (1 << 52) - 1;
pub const SIZE_SHIFT: u32 = 61;
pub const STRENGTH_SHIFT: u32 = 52;
pub const PASS: u64 = 0;
/// One suit's bits in key order (suit place 0).
pub const SUIT_ROW: u64 = 0x0001_1111_1111_1111;

#[inline]
pub fn size_of_play(play: u64) -> u64 {
    play >> SIZE_SHIFT
}

#[inline]
fn pack(size: u64, category: u64, key: u64, mask: u64) -> u64 {
    size << SIZE_SHIFT | (category << 6 | key) << STRENGTH_SHIFT | mask
}

#[inline]
fn top_bit(mask: u64) -> u64 {
    63 - u64::from(mask.leading_zeros())
}

/// The rank nibble (4 bits, one per suit place) of rank `r` in `mask`.
#[inline]
fn nibble(mask: u64, r: u32) -> u64 {
    mask >> (4 * r) & 15
}

/// Each set bit of `mask` alone, lowest first.
fn bits(mut mask: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let low = mask & mask.wrapping_neg();
        mask ^= low;
        Some(low)
    })
}

/// Whether any of `plays` (sorted, as [`Table::hand_plays`] lists them) beats `table`: one of
/// its size and stronger.
pub fn can_beat(plays: &[u64], table: u64) -> bool {
    let i = plays.partition_point(|&p| p <= table | MASK);
    i < plays.len() && size_of_play(plays[i]) == size_of_play(table)
}

/// One variant's combinations: its rules and the tables derived from them once.
#[derive(Clone, Debug)]
pub struct Table {
    pub rules: Rules,
    straight: Option<u64>,
    straight_flush: Option<u64>,
    flush: Option<u64>,
    full_house: Option<u64>,
    four_plus_one: Option<u64>,
    /// Each window's rank set, deciding rank and cards (every suit of its ranks).
    windows: Vec<(u16, u32, u64)>,
}

impl Table {
    pub fn new(rules: Rules) -> Table {
        let windows = rules
            .windows
            .iter()
            .map(|w| {
                let cards = (0..13)
                    .filter(|r| w.ranks >> r & 1 == 1)
                    .fold(0, |m, r| m | 15 << (4 * r));
                (w.ranks, u32::from(w.top), cards)
            })
            .collect();
        Table {
            straight: rules.five_index(Five::Straight),
            straight_flush: rules.five_index(Five::StraightFlush),
            flush: rules.five_index(Five::Flush),
            full_house: rules.five_index(Five::FullHouse),
            four_plus_one: rules.five_index(Five::FourPlusOne),
            windows,
            rules,
        }
    }

    /// The key of a flush (five cards of one suit, `mask`).
    fn flush_key(&self, mask: u64) -> u64 {
        let top = top_bit(mask);
        if self.rules.flush_suit_first {
            (top & 3) * 13 + (top >> 2)
        } else {
            top
        }
    }

    /// Every play in `hand` (key order), sorted, into `out` (cleared first).
    pub fn hand_plays(&self, hand: u64, out: &mut Vec<u64>) {
        out.clear();
        // Room for a 13-card hand's plays at once, rather than growing in steps.
        out.reserve(64);
        let hand = hand & MASK;
        let rules = &self.rules;
        let counts = nibble_counts(hand);
        // The ranks with one card or more and with two or more, as bit 4r for rank r.
        let present_rows = at_least(counts, 1);
        let pair_rows = at_least(counts, 2);
        // Plays of one to four cards are listed in order (size, category, deciding card, then
        // cards), so only the five-card plays need sorting. Subsets of a rank's cards come from
        // tables in increasing order, which is the order of their top card, then their cards.
        for b in bit_indices(hand) {
            out.push(pack(1, 0, b, 1 << b));
        }
        for sh in bit_indices(pair_rows) {
            for p in rank_subsets(&PAIRS_OF, hand, sh) {
                out.push(pack(2, 0, sh + top_bit(p), p << sh));
            }
        }
        if rules.triples {
            for sh in bit_indices(at_least(counts, 3)) {
                for t in rank_subsets(&TRIPLES_OF, hand, sh) {
                    out.push(pack(3, 0, sh + top_bit(t), t << sh));
                }
            }
        }
        if rules.four_card_hands {
            // Two pair: the higher pair's top card decides; both pairs' cards.
            for hi in bit_indices(pair_rows) {
                for ph in rank_subsets(&PAIRS_OF, hand, hi) {
                    let ph = ph << hi;
                    for lo in bit_indices(pair_rows & ((1 << hi) - 1)) {
                        for pl in rank_subsets(&PAIRS_OF, hand, lo) {
                            out.push(pack(4, 0, top_bit(ph), ph | pl << lo));
                        }
                    }
                }
            }
            // Four of a kind alone, a category above two pair.
            for sh in bit_indices(at_least(counts, 4)) {
                out.push(pack(4, 1, sh + 3, 15 << sh));
            }
        }
        let fives = out.len();
        let mut present: u16 = 0;
        for sh in bit_indices(present_rows) {
            present |= 1 << (sh / 4);
        }
        if let Some(cat) = self.full_house {
            for tr in bit_indices(at_least(counts, 3)) {
                for t in rank_subsets(&TRIPLES_OF, hand, tr) {
                    let t = t << tr;
                    for pr in bit_indices(pair_rows & !(1 << tr)) {
                        for p in rank_subsets(&PAIRS_OF, hand, pr) {
                            out.push(pack(5, cat, tr + 3, t | p << pr));
                        }
                    }
                }
            }
        }
        if let Some(cat) = self.four_plus_one {
            for r in bit_indices(at_least(counts, 4)) {
                let q = 15 << r;
                for kicker in bits(hand & !q) {
                    out.push(pack(5, cat, r + 3, q | kicker));
                }
            }
        }
        self.straights(hand, present, out);
        self.flushes(hand, out);
        out[fives..].sort_unstable();
    }

    fn straights(&self, hand: u64, present: u16, out: &mut Vec<u64>) {
        for &(ranks, top, _) in &self.windows {
            if ranks & !present != 0 {
                continue;
            }
            // Every choice of one card per rank of the window, as an odometer over the ranks.
            let mut rs = [0u32; 5];
            let mut choice = [0u64; 5];
            for (k, r) in (0..13).filter(|r| ranks >> r & 1 == 1).enumerate().take(5) {
                rs[k] = r;
                choice[k] = nibble(hand, r);
            }
            self.odometer(&rs, &choice, top, out);
        }
    }

    fn odometer(&self, rs: &[u32; 5], nibbles: &[u64; 5], top: u32, out: &mut Vec<u64>) {
        let mut left = *nibbles;
        loop {
            let mut m = 0;
            for (k, &r) in rs.iter().enumerate() {
                let n = left[k];
                m |= (n & n.wrapping_neg()) << (4 * r);
            }
            let one_suit = m & !(SUIT_ROW << (m.trailing_zeros() & 3)) == 0;
            let cat = if one_suit {
                self.straight_flush
            } else {
                self.straight
            };
            if let Some(cat) = cat {
                let key = u64::from(4 * top) + top_bit(nibble(m, top));
                out.push(pack(5, cat, key, m));
            }
            // Next choice: drop the lowest card of the first rank with another left.
            let mut k = 0;
            loop {
                if k == 5 {
                    return;
                }
                let n = left[k];
                let rest = n & (n - 1);
                if rest != 0 {
                    left[k] = rest;
                    break;
                }
                left[k] = nibbles[k];
                k += 1;
            }
        }
    }

    fn flushes(&self, hand: u64, out: &mut Vec<u64>) {
        let Some(cat) = self.flush else { return };
        for s in 0..4 {
            let row = hand & SUIT_ROW << s;
            if row.count_ones() < 5 {
                continue;
            }
            let mut cards = [0u64; 13];
            let mut n = 0;
            for b in bits(row) {
                cards[n] = b;
                n += 1;
            }
            for a in 0..n {
                for b in a + 1..n {
                    for c in b + 1..n {
                        for d in c + 1..n {
                            for e in d + 1..n {
                                let m = cards[a] | cards[b] | cards[c] | cards[d] | cards[e];
                                if self.is_window_row(m >> s) {
                                    continue; // a straight flush, listed with the straights
                                }
                                out.push(pack(5, cat, self.flush_key(m), m));
                            }
                        }
                    }
                }
            }
        }
    }

    /// The cards of `hand` (key order) that belong to some five-card play of it: the union of
    /// the five-card plays [`Table::hand_plays`] lists, found without listing them.
    pub fn five_card_cards(&self, hand: u64) -> u64 {
        let hand = hand & MASK;
        if hand.count_ones() < 5 {
            return 0;
        }
        let counts = nibble_counts(hand);
        let mut cards = 0;
        // A full house (a triple and a pair of another rank) can use any card of the ranks with
        // two cards or more, once there are two such ranks and one of them has three.
        let pairs = at_least(counts, 2);
        if pairs.count_ones() > 1 && at_least(counts, 3) != 0 {
            cards |= (pairs * 15) & hand;
        }
        if self.four_plus_one.is_some() && at_least(counts, 4) != 0 {
            return hand; // four of a kind takes any other card as its fifth
        }
        let present = at_least(counts, 1) * 15; // every card of the ranks present
        for &(_, _, window_cards) in &self.windows {
            if window_cards & !present == 0 {
                cards |= hand & window_cards;
            }
        }
        for s in 0..4 {
            let row = hand & SUIT_ROW << s;
            if row.count_ones() >= 5 {
                cards |= row;
            }
        }
        cards
    }

    /// Whether `row` (one card per rank, all in suit place 0) has exactly a straight window's
    /// ranks.
    fn is_window_row(&self, row: u64) -> bool {
        self.windows
            .iter()
            .any(|&(_, _, cards)| cards & SUIT_ROW == row)
    }

    /// Each seat's return for a deal ending with `left[i]` cards in seat i's hand and the
    /// seats in `finished` having gone out, first place first.
    pub fn score(&self, left: &[u32], finished: &[u8], returns: &mut [f64]) {
        match self.rules.scoring {
            Scoring::Count => {
                let winner = usize::from(finished[0]);
                let total: u32 = left.iter().sum();
                for (i, (r, &c)) in returns.iter_mut().zip(left).enumerate() {
                    // `0.0 - x`, not `-x`: no seat's return is ever -0.0.
                    *r = if i == winner {
                        f64::from(total)
                    } else {
                        0.0 - f64::from(c)
                    };
                }
            }
            Scoring::Penalty => {
                for (r, &c) in returns.iter_mut().zip(left) {
                    *r = 0.0 - f64::from(super::rules::penalty(c));
                }
            }
            Scoring::Placement => {
                returns.iter_mut().for_each(|r| *r = 0.0);
                let points = &self.rules.placement_points;
                for (place, &seat) in finished.iter().enumerate() {
                    returns[usize::from(seat)] = points.get(place).map_or(0.0, |&p| f64::from(p));
                }
            }
        }
    }
}

/// The subsets of `size` cards of each nibble (a rank's cards), in increasing order: its
/// count of them, then the subsets.
const fn subsets_table(size: u32) -> [[u8; 7]; 16] {
    let mut table = [[0u8; 7]; 16];
    let mut n = 0;
    while n < 16 {
        let mut s = 1;
        while s < 16 {
            if s & !n == 0 && (s as u32).count_ones() == size {
                let k = table[n][0] as usize;
                table[n][k + 1] = s as u8;
                table[n][0] += 1;
            }
            s += 1;
        }
        n += 1;
    }
    table
}

/// Each nibble's pairs and triples (see [`subsets_table`]).
const PAIRS_OF: [[u8; 7]; 16] = subsets_table(2);
const TRIPLES_OF: [[u8; 7]; 16] = subsets_table(3);

/// The subsets of the rank at bit `sh` of `hand` in `table`, in increasing order.
#[inline]
fn rank_subsets(table: &[[u8; 7]; 16], hand: u64, sh: u64) -> impl Iterator<Item = u64> + '_ {
    let row = &table[(hand >> sh & 15) as usize];
    row[1..=usize::from(row[0])].iter().map(|&s| u64::from(s))
}

/// The index of each set bit of `mask`, lowest first.
fn bit_indices(mut mask: u64) -> impl Iterator<Item = u64> {
    std::iter::from_fn(move || {
        if mask == 0 {
            return None;
        }
        let i = u64::from(mask.trailing_zeros());
        mask &= mask - 1;
        Some(i)
    })
}

/// Each rank's card count in its own nibble (0 to 4): a popcount per nibble.
#[inline]
pub(crate) fn nibble_counts(mask: u64) -> u64 {
    let c = mask - (mask >> 1 & 0x5555_5555_5555_5555);
    (c & 0x3333_3333_3333_3333) + (c >> 2 & 0x3333_3333_3333_3333)
}

/// The nibbles of `counts` (as [`nibble_counts`] gives) holding at least `k` (1 to 4), as bit 0
/// of each nibble (the [`SUIT_ROW`] bits).
#[inline]
pub(crate) fn at_least(counts: u64, k: u64) -> u64 {
    // A count c of 0..4 plus 8 - k has bit 3 set exactly when c >= k, and never carries.
    (counts + (8 - k) * SUIT_ROW) >> 3 & SUIT_ROW
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_full_deck_has_every_play_once_and_sorted() {
        for rules in [Rules::big_two_4card(), Rules::big_two(), Rules::pusoy_dos()] {
            let table = Table::new(rules);
            let mut plays = Vec::new();
            table.hand_plays(MASK, &mut plays);
            assert!(plays.windows(2).all(|w| w[0] < w[1]));
            assert!(
                plays
                    .iter()
                    .all(|&p| (p & MASK).count_ones() as u64 == p >> SIZE_SHIFT)
            );
        }
    }

    #[test]
    fn can_beat_looks_only_at_plays_of_the_table_size() {
        let table = Table::new(Rules::big_two());
        let mut plays = Vec::new();
        // 3D 3C (bits 0 and 1) and a 4 (bit 4).
        table.hand_plays(0b1_0011, &mut plays);
        let pair_of_threes = plays
            .iter()
            .copied()
            .find(|&p| p >> SIZE_SHIFT == 2)
            .unwrap();
        let single_four = pack(1, 0, 4, 1 << 4);
        assert!(can_beat(&plays, pack(1, 0, 1, 1 << 1)));
        assert!(!can_beat(&plays, single_four));
        assert!(!can_beat(&plays, pair_of_threes));
    }
}
