//! The rule-based rummy policy behind the `greedy` bot, read from one seat's [`Sight`].
//!
//! Draw: take the discard when it makes a meld with the hand or extends a table meld. Then meld
//! and lay off, the most points first. Discard: the highest-value card that is not part of a
//! pair or a near-run and that no opponent is collecting (nor could lay off on the table); equal
//! scores are settled by a uniform draw per discard, in the order of the legal moves.
//!
//! The same code serves rollouts ([`State::sight`] of the seat to move, draws from
//! [`crate::sim::Rng::unit`]) and the Python API (a [`Sight`] made from an observation, draws
//! from the caller's `random.Random`), so both choose alike.

use super::melds::{FULL, ROW, column, mask_value, single_layoffs};
use super::state::{DISCARD, DRAW_DISCARD, DRAW_STOCK, KIND_BITS, LAYOFF, MELD, State};

/// Weights of the discard choice, in points: keeping a card that may still meld, and not
/// feeding an opponent (or the table) a card it can use.
const KEEP: i64 = 6;
const FEED: i64 = 8;

/// What the policy reads: the hand of the seat it plays for and the public table, nothing
/// else (no other hand, no stock).
#[derive(Clone, Copy, Debug)]
pub struct Sight<'a> {
    /// The seat the policy plays for.
    pub seat: usize,
    /// Its hand (rummy layout).
    pub hand: u64,
    /// The turn starts with a draw.
    pub drawing: bool,
    /// The top card of the discard pile (rummy-layout bit), if any.
    pub top: Option<u8>,
    /// The melds on the table.
    pub melds: &'a [u64],
    /// Per seat, the cards it took from the discard pile and still holds (public).
    pub taken: &'a [u64],
}

impl State {
    /// What `seat` may see that the policy reads (its hand and the table); the policy plays
    /// the seat to move, `seat == current_player()`.
    pub fn sight(&self, seat: usize) -> Sight<'_> {
        Sight {
            seat,
            hand: self.hand(seat),
            drawing: self.drawing(),
            top: self.pile().last().copied(),
            melds: self.melds(),
            taken: self.taken(),
        }
    }
}

/// The length of the same-suit run through `card` in `hand | card`.
fn run_through(card: u32, hand: u64) -> u32 {
    let pos = card % 13;
    let row = (hand | 1 << card) >> (card - pos) & ROW;
    let up = (row >> pos).trailing_ones();
    let below = (1u64 << pos) - 1;
    let gaps = !row & below;
    let down = if gaps == 0 {
        pos
    } else {
        pos - 1 - (63 - gaps.leading_zeros())
    };
    up + down
}

/// The single cards that could be laid off on some table meld.
fn table_fits(melds: &[u64]) -> u64 {
    melds.iter().fold(0, |m, &meld| m | single_layoffs(meld))
}

/// Whether `m` holds a card of the same suit next to `card` (the run through `card` in
/// `m | card` is two cards or more).
fn has_neighbour(card: u32, m: u64) -> bool {
    let pos = card % 13;
    pos > 0 && m >> (card - 1) & 1 != 0 || pos < 12 && m >> (card + 1) & 1 != 0
}

/// Whether `card` completes a meld with `hand` or extends a table meld.
fn useful(card: u32, hand: u64, melds: &[u64]) -> bool {
    (hand & column(card % 13)).count_ones() >= 2
        || run_through(card, hand) >= 3
        || table_fits(melds) >> card & 1 != 0
}

/// Whether cards an opponent took from the discard pile (`taken`) go with `card`: one of its
/// rank, or one next to it in its suit.
fn collecting(card: u32, taken: u64) -> bool {
    taken & column(card % 13) != 0 || has_neighbour(card, taken & !(1 << card))
}

/// The greedy choice among `legal` (packed actions, any subset of the legal moves) as an index
/// into `legal`; `None` when `legal` is empty. `tie` is called once per discard in `legal`, in
/// order, when the choice is a discard, and never otherwise.
///
/// A value that no rummy move has is never chosen by its kind; a discard naming several cards
/// is scored by its highest one, and one naming none is passed over.
pub fn choose(sight: &Sight<'_>, legal: &[u64], mut tie: impl FnMut() -> f64) -> Option<usize> {
    if legal.is_empty() {
        return None;
    }
    let find = |a: u64| legal.iter().position(|&x| x == a);
    let hand = sight.hand & FULL;
    if sight.drawing {
        let stock = find(DRAW_STOCK);
        if let (Some(i), Some(top)) = (find(DRAW_DISCARD), sight.top)
            && (stock.is_none() || useful(u32::from(top), hand, sight.melds))
        {
            return Some(i);
        }
        return Some(stock.unwrap_or(0));
    }
    // The meld or lay-off of the most points, then the most cards; the first of equals.
    let mut best = None;
    let mut best_key = (0, 0);
    for (i, &a) in legal.iter().enumerate() {
        let kind = a & 7;
        if kind == MELD || kind == LAYOFF {
            let cards = a >> KIND_BITS & FULL;
            let key = (mask_value(cards), cards.count_ones());
            if key > best_key {
                best = Some(i);
                best_key = key;
            }
        }
    }
    if best.is_some() {
        return best;
    }
    let opponents = sight
        .taken
        .iter()
        .enumerate()
        .filter(|&(seat, _)| seat != sight.seat)
        .fold(0, |m, (_, &t)| m | t)
        & FULL;
    let fits = table_fits(sight.melds);
    // The discard of the highest (score, draw, action), as Python's max over those tuples.
    let mut pick: Option<(i64, f64, u64, usize)> = None;
    for (i, &a) in legal.iter().enumerate() {
        let cards = a >> KIND_BITS & FULL;
        if a & 7 != DISCARD || cards == 0 {
            continue;
        }
        let card = 63 - cards.leading_zeros();
        let bit = 1u64 << card;
        let rest = hand & !bit;
        // Keep a card of a pair (or more) or of a near-run.
        let keep = i64::from(rest & column(card % 13) != 0) + i64::from(has_neighbour(card, rest));
        let feed = i64::from(collecting(card, opponents)) + i64::from(fits >> card & 1 != 0);
        let key = (mask_value(bit) - KEEP * keep - FEED * feed, tie(), a, i);
        if pick.is_none_or(|p| (key.0, key.1, key.2) > (p.0, p.1, p.2)) {
            pick = Some(key);
        }
    }
    Some(pick.map_or(0, |p| p.3))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rummy::state::action;
    use crate::test_support::rummy::mask;

    #[test]
    fn run_through_counts_the_block_around_the_card() {
        let hand = mask(&[(0, 0), (0, 1), (0, 3), (0, 4), (0, 5), (1, 2)]);
        assert_eq!(run_through(2, hand), 6); // A 2 [3] 4 5 6 of clubs
        assert_eq!(run_through(13 + 2, hand), 1); // 3D alone in diamonds
        assert_eq!(run_through(12, hand), 1); // KC: nothing below it
        assert_eq!(run_through(0, mask(&[(0, 1)])), 2);
    }

    #[test]
    fn draws_the_discard_only_when_it_helps() {
        let melds = [mask(&[(2, 3), (2, 4), (2, 5)])];
        let taken = [0, 0];
        let legal = [DRAW_STOCK, DRAW_DISCARD];
        let sight = |hand, top| Sight {
            seat: 0,
            hand,
            drawing: true,
            top: Some(top),
            melds: &melds,
            taken: &taken,
        };
        let pair = mask(&[(0, 7), (1, 7)]);
        let never = || -> f64 { panic!("no draw in the draw phase") };
        assert_eq!(choose(&sight(pair, 2 * 13 + 7), &legal, never), Some(1));
        assert_eq!(choose(&sight(pair, 2 * 13 + 9), &legal, never), Some(0));
        assert_eq!(choose(&sight(pair, 2 * 13 + 6), &legal, never), Some(1)); // 7H on 4H-6H
        assert_eq!(
            choose(&sight(pair, 2 * 13 + 9), &[DRAW_DISCARD], never),
            Some(0)
        );
        assert_eq!(choose(&sight(pair, 0), &[], never), None);
    }

    #[test]
    fn melds_before_discarding_and_draws_once_per_discard() {
        let hand = mask(&[(0, 0), (0, 1), (0, 2), (3, 12), (1, 4)]);
        let melds: [u64; 0] = [];
        let taken = [0, 0];
        let sight = Sight {
            seat: 0,
            hand,
            drawing: false,
            top: None,
            melds: &melds,
            taken: &taken,
        };
        let meld = action(MELD, mask(&[(0, 0), (0, 1), (0, 2)]), 0);
        let discards: Vec<u64> = (0..52)
            .filter(|c| hand >> c & 1 != 0)
            .map(|c| action(DISCARD, 1 << c, 0))
            .collect();
        let mut legal = vec![meld];
        legal.extend(&discards);
        let mut draws = 0;
        assert_eq!(choose(&sight, &legal, || unreachable!()), Some(0));
        let pick = choose(&sight, &discards, || {
            draws += 1;
            0.5
        });
        assert_eq!(draws, discards.len());
        // AC: 20 points less 6 for the run it leaves (14) beats KS alone (10) and 5D (5).
        assert_eq!(discards[pick.unwrap()], action(DISCARD, 1, 0));
    }
}
