//! Rummy's card layout, card values and meld validity, on 52-bit masks.
//!
//! Every card set is a mask in *rummy layout*: bit `suit * 13 + r` where `r` is the ace-low
//! rank (A = 0, 2 = 1 … K = 12). Each suit is a 13-bit row, so a run is a contiguous block of
//! one row; a rank is the column `r, r + 13, r + 26, r + 39`.

use std::sync::OnceLock;

/// One suit's row of 13 bits.
pub const ROW: u64 = (1 << 13) - 1;
/// All 52 cards.
pub const FULL: u64 = (1 << 52) - 1;

/// The four bits of an ace-low rank.
pub const fn column(rank: u32) -> u64 {
    1 << rank | 1 << (13 + rank) | 1 << (26 + rank) | 1 << (39 + rank)
}

const ACES: u64 = column(0);
const TENS_UP: u64 = column(9) | column(10) | column(11) | column(12);

/// The points of the cards in `m`: every card 5, plus 15 per ace and 5 per ten or court.
pub fn mask_value(m: u64) -> i64 {
    5 * i64::from(m.count_ones())
        + 15 * i64::from((m & ACES).count_ones())
        + 5 * i64::from((m & TENS_UP).count_ones())
}

/// Three or more consecutive ranks of one suit, ace low, no wrap.
pub fn is_run(m: u64) -> bool {
    if m.count_ones() < 3 {
        return false;
    }
    let low = m & m.wrapping_neg();
    let suit = low.trailing_zeros() / 13;
    if m >> (13 * suit) > ROW {
        return false;
    }
    (m + low) & m == 0
}

/// Three or four cards of one rank.
pub fn is_group(m: u64) -> bool {
    if m.count_ones() < 3 {
        return false;
    }
    m & !column(m.trailing_zeros() % 13) == 0
}

pub fn is_meld(m: u64) -> bool {
    is_run(m) || is_group(m)
}

/// A 13-bit set of the ranks of which `hand` holds three or four cards.
pub fn triple_ranks(hand: u64) -> u64 {
    let (a, b, c, d) = (
        hand & ROW,
        hand >> 13 & ROW,
        hand >> 26 & ROW,
        hand >> 39 & ROW,
    );
    (a & b & (c | d)) | (c & d & (a | b))
}

/// The 4-bit set of suits of `rank` present in `m`.
pub fn suits_of_rank(m: u64, rank: u32) -> u64 {
    let m = m >> rank;
    (m & 1) | (m >> 12 & 2) | (m >> 24 & 4) | (m >> 36 & 8)
}

/// The cards of `rank` in the suits of the 4-bit set `suits`.
pub fn group_mask(rank: u32, suits: u64) -> u64 {
    (0..4)
        .filter(|s| suits >> s & 1 != 0)
        .fold(0, |m, s| m | 1 << (s * 13 + rank))
}

/// The runs of every 13-bit row (row-relative), lowest start first, then shortest first.
pub struct RunTable {
    starts: Vec<u32>,
    segments: Vec<u16>,
}

impl RunTable {
    fn build() -> RunTable {
        let mut starts = Vec::with_capacity(1 << 13 | 1);
        let mut segments = Vec::new();
        for row in 0..1u32 << 13 {
            starts.push(segments.len() as u32);
            for start in 0..13 {
                let mut seg = 0u16;
                for end in start..13 {
                    if row >> end & 1 == 0 {
                        break;
                    }
                    seg |= 1 << end;
                    if end - start >= 2 {
                        segments.push(seg);
                    }
                }
            }
        }
        starts.push(segments.len() as u32);
        RunTable { starts, segments }
    }

    /// Every run inside the 13-bit `row`.
    pub fn of(&self, row: u64) -> &[u16] {
        let row = (row & ROW) as usize;
        &self.segments[self.starts[row] as usize..self.starts[row + 1] as usize]
    }
}

/// The shared run table, built on first use.
pub fn runs() -> &'static RunTable {
    static RUNS: OnceLock<RunTable> = OnceLock::new();
    RUNS.get_or_init(RunTable::build)
}

/// Every set of suits (three or four) inside the 4-bit set `suits`, lowest first.
pub fn group_subsets(suits: u64) -> impl Iterator<Item = u64> {
    (0..16u64).filter(move |sub| sub & !suits == 0 && sub.count_ones() >= 3)
}

/// Calls `f` with every set of cards from `hand` that can be laid off on `meld` in one go: a
/// run grows at either end or both (lower end first); a group of three takes its fourth card.
pub fn extensions(meld: u64, hand: u64, mut f: impl FnMut(u64)) {
    if meld == 0 {
        return;
    }
    if is_group(meld) {
        if meld.count_ones() == 3 {
            let missing = column(meld.trailing_zeros() % 13) & !meld;
            if hand & missing != 0 {
                f(missing);
            }
        }
        return;
    }
    let lo = meld.trailing_zeros();
    let hi = 63 - meld.leading_zeros();
    let floor = lo - lo % 13;
    let mut lows = [0u64; 14];
    let mut n_lows = 1;
    let mut ext = 0;
    let mut i = lo;
    while i > floor && hand >> (i - 1) & 1 != 0 {
        i -= 1;
        ext |= 1 << i;
        lows[n_lows] = ext;
        n_lows += 1;
    }
    let mut highs = [0u64; 14];
    let mut n_highs = 1;
    ext = 0;
    let mut i = hi + 1;
    while i <= floor + 12 && hand >> i & 1 != 0 {
        ext |= 1 << i;
        highs[n_highs] = ext;
        n_highs += 1;
        i += 1;
    }
    for &low in &lows[..n_lows] {
        for &high in &highs[..n_highs] {
            if low | high != 0 {
                f(low | high);
            }
        }
    }
}

/// The single cards that can be laid off on `meld` (a card `c` is in it exactly when
/// `takes(meld, 1 << c)`): the cards just below and just above a run within its suit, the
/// missing card of a group of three.
pub fn single_layoffs(meld: u64) -> u64 {
    let meld = meld & FULL;
    if meld == 0 {
        return 0;
    }
    if is_group(meld) {
        return if meld.count_ones() == 3 {
            column(meld.trailing_zeros() % 13) & !meld
        } else {
            0
        };
    }
    let lo = meld.trailing_zeros();
    let hi = 63 - meld.leading_zeros();
    let floor = lo - lo % 13;
    let below = if lo > floor { 1 << (lo - 1) } else { 0 };
    let above = if hi < floor + 12 { 1 << (hi + 1) } else { 0 };
    below | above
}

/// Whether the single card `bit` can be laid off on `meld`.
pub fn takes(meld: u64, bit: u64) -> bool {
    let mut any = false;
    extensions(meld, bit, |_| any = true);
    any
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_support::rummy::mask;

    #[test]
    fn melds_and_values() {
        let run = mask(&[(0, 3), (0, 4), (0, 5)]);
        assert!(is_run(run) && !is_group(run));
        assert_eq!(mask_value(run), 15);
        assert!(!is_meld(mask(&[(1, 11), (1, 12), (1, 0)])));
        assert!(is_group(mask(&[(0, 0), (2, 0), (3, 0)])));
        assert_eq!(mask_value(mask(&[(0, 0), (2, 9)])), 30);
    }

    #[test]
    fn extensions_in_order() {
        let run = mask(&[(0, 3), (0, 4), (0, 5)]);
        let hand = mask(&[(0, 2), (0, 6), (0, 7), (2, 8)]);
        let mut out = Vec::new();
        extensions(run, hand, |e| out.push(e));
        let seven = mask(&[(0, 6)]);
        let eight = mask(&[(0, 7)]);
        let three = mask(&[(0, 2)]);
        assert_eq!(
            out,
            vec![
                seven,
                seven | eight,
                three,
                three | seven,
                three | seven | eight
            ]
        );
    }

    #[test]
    fn single_layoffs_are_the_cards_a_meld_takes() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        let mut melds = vec![
            0,
            FULL,
            mask(&[(0, 0), (0, 1), (0, 2)]),
            mask(&[(3, 10), (3, 11), (3, 12)]),
        ];
        melds.extend((0..13).map(|r| column(r) & !(1 << (13 + r))));
        melds.extend((0..13).map(column));
        for _ in 0..2000 {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            let (suit, start) = ((x % 4) as u32, (x >> 8) % 13);
            let len = 3 + (x >> 16) % (13 - start).max(1);
            let row = ((1u64 << len.min(13 - start)) - 1) << start;
            melds.push(row << (13 * suit) & FULL);
            melds.push(x & FULL);
        }
        for &meld in &melds {
            let want = (0..52)
                .filter(|&c| takes(meld, 1 << c))
                .fold(0, |m, c| m | 1 << c);
            assert_eq!(single_layoffs(meld), want, "{meld:#x}");
        }
    }

    #[test]
    fn run_table() {
        assert_eq!(runs().of(0b111), &[0b111]);
        assert_eq!(runs().of(0b1111), &[0b111, 0b1111, 0b1110]);
        assert!(runs().of(0b1101).is_empty());
    }
}
