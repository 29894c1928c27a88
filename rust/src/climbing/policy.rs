//! The rule-based climbing player behind the `greedy` bot, for rollouts and for Python alike.
//!
//! It goes out when it can; otherwise it answers with the cheapest play that does not break up
//! a pair, triple or five-card hand, keeps its 2s while the others still hold many cards, and
//! leads the combination that sheds the most low cards. It reads a [`SeatView`] only: the
//! seat's own hand, every seat's card count and the play to beat, all of which the seat may
//! see; it draws nothing at random.
//!
//! Costs are kept in quarter points (every term of the cost is a multiple of a quarter), so
//! the integer arithmetic here picks exactly what the floating-point costs of the first,
//! Python, version of this policy picked, ties included.

use super::combos::{
    MASK, PASS, SIZE_SHIFT, STRENGTH_SHIFT, SUIT_ROW, Table, at_least, nibble_counts,
};
use super::state::{MAX_SEATS, State};

/// The climbing rank of the 2 (the highest).
const TWO_RANK: u32 = 12;

/// A cost above which an answer is not worth its cards: the seat passes instead (14 points).
const PASS_ABOVE: i32 = 14 * 4;

/// What the policy reads: one seat's knowledge of the position, nothing more.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SeatView {
    /// The seat to choose for.
    pub seat: u8,
    /// Its cards (key order).
    pub hand: u64,
    /// Every seat's number of cards (public), `players` of them.
    pub sizes: [u8; MAX_SEATS],
    pub players: u8,
    /// The play to beat, or 0 ([`PASS`]) when the seat leads freely.
    pub table: u64,
}

impl SeatView {
    /// The view of the seat to move in `state` (its hand, the card counts and the table).
    pub fn of_mover(state: &State) -> SeatView {
        let seat = state.current_player().max(0) as u8;
        let mut sizes = [0u8; MAX_SEATS];
        sizes[..state.players()].copy_from_slice(state.sizes());
        SeatView {
            seat,
            hand: state.hands()[usize::from(seat)],
            sizes,
            players: state.players() as u8,
            table: state.trick().0,
        }
    }
}

/// How many pairs, triples or quads of a hand `play` splits without using them whole; `counts`
/// is the hand's [`nibble_counts`] (each rank's count in its nibble).
pub fn broken_groups(play: u64, counts: u64) -> u32 {
    let used = nibble_counts(play & MASK);
    // Per nibble 8 + held - used - 1, never below 3: bit 3 is set where used < held.
    let fewer = ((counts | (8 * SUIT_ROW)) - used - SUIT_ROW) >> 3 & SUIT_ROW;
    row_count(fewer & at_least(counts, 2) & at_least(used, 1))
}

/// How many of the [`SUIT_ROW`] bits (one per rank) `rows` has set: the multiplication adds
/// every nibble into the top one, 13 at most, so nothing carries. (A population count would
/// do, but without a `popcnt` instruction in the portable build it costs more.)
#[inline]
fn row_count(rows: u64) -> u32 {
    (rows.wrapping_mul(SUIT_ROW) >> 48 & 15) as u32
}

/// The number of cards in a nibble (4 bits), from a table.
#[inline]
fn nibble_count(n: u64) -> i32 {
    (0x4332_3221_3221_2110u64 >> (4 * (n & 15)) & 15) as i32
}

/// The greedy choice among `legal` (any list of moves of the position, in the engine's order or
/// a part of it) for the seat of `view`: the index of the move in `legal`, or `None` when
/// `legal` is empty.
pub fn greedy(table: &Table, view: &SeatView, legal: &[u64]) -> Option<usize> {
    let first_play = legal.iter().position(|&a| a != PASS);
    let Some(first_play) = first_play else {
        return if legal.is_empty() { None } else { Some(0) };
    };
    let hand = view.hand;
    if let Some(out) = legal.iter().position(|&a| a != PASS && a & MASK == hand) {
        return Some(out); // going out
    }
    // The fewest cards another seat still holding cards has.
    let players = usize::from(view.players).min(MAX_SEATS);
    let danger = (0..players)
        .filter(|&i| i != usize::from(view.seat) && view.sizes[i] > 0)
        .map(|i| view.sizes[i])
        .min()
        .unwrap_or(13);
    let costs = Costs {
        counts: nibble_counts(hand),
        in_fives: table.five_card_cards(hand),
        keep_twos: danger > 3 && hand.count_ones() > 4,
    };
    if view.table == PASS {
        // Lead: shed as many low cards as possible in one go (2.5 points a card).
        let shed = |a: u64| 10 * (a >> SIZE_SHIFT) as i32;
        let (lead, _) = first_least(
            legal,
            first_play,
            |a| base_cost(a) - shed(a),
            |a| costs.of(a) - shed(a),
        );
        return Some(lead);
    }
    let (best, best_cost) = first_least(legal, first_play, base_cost, |a| costs.of(a));
    if legal.contains(&PASS) {
        if danger <= 2 && view.table >> SIZE_SHIFT == 1 {
            // Someone is about to go out: block with the highest single (the first of the
            // highest, as Python's `max` picks it).
            let mut top = first_play;
            for (i, &a) in legal.iter().enumerate().skip(first_play + 1) {
                if a > legal[top] {
                    top = i;
                }
            }
            return Some(top);
        }
        if best_cost >= PASS_ABOVE {
            return Some(0); // too expensive to answer now: pass (the engine lists it first)
        }
    }
    Some(best)
}

/// What the cost of a play depends on besides the play: the hand's rank counts (as
/// [`nibble_counts`]), its cards in five-card plays, and whether 2s are worth keeping.
struct Costs {
    counts: u64,
    in_fives: u64,
    keep_twos: bool,
}

/// The part of a play's cost that its strength gives, in quarter points: the rest, for the
/// groups it breaks and the cards it takes from five-card plays and 2s, is never negative.
#[inline]
fn base_cost(a: u64) -> i32 {
    if a >> SIZE_SHIFT < 5 {
        (a >> STRENGTH_SHIFT & 63) as i32 // the deciding card, a quarter point a step
    } else {
        // A point per rank of the top card (-1 for no card, as Python's `bit_length() - 1 >> 2`).
        4 * (((64 - (a & MASK).leading_zeros()) as i32 - 1) >> 2)
    }
}

impl Costs {
    /// The cost of playing `a`, in quarter points.
    #[inline]
    fn of(&self, a: u64) -> i32 {
        let m = a & MASK;
        let size = a >> SIZE_SHIFT;
        let mut c = base_cost(a);
        c += 24 * broken_groups(a, self.counts) as i32;
        if size < 5 && m & self.in_fives != 0 {
            c += 12 * (m & self.in_fives).count_ones() as i32;
        }
        if self.keep_twos {
            // Keep 2s for the end while nobody is close to going out.
            c += 32 * nibble_count(m >> (4 * TWO_RANK));
        }
        c
    }
}

/// The index of the first play (not a pass) of least `key` in `legal`, from `first` (a play),
/// and its key: the play Python's `min` picks. `lower(a)` is never above `key(a)`: a play whose
/// lower bound is no better than the best so far cannot replace it, so its key is not needed.
#[inline]
fn first_least(
    legal: &[u64],
    first: usize,
    lower: impl Fn(u64) -> i32,
    key: impl Fn(u64) -> i32,
) -> (usize, i32) {
    let mut best = (first, key(legal[first]));
    for (i, &a) in legal.iter().enumerate().skip(first + 1) {
        if a != PASS && lower(a) < best.1 {
            let k = key(a);
            if k < best.1 {
                best = (i, k);
            }
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::climbing::rules::Rules;
    use crate::climbing::state::Start;
    use crate::test_support::climbing::single;

    fn view(hand: u64, sizes: [u8; 4], table: u64) -> SeatView {
        SeatView {
            seat: 0,
            hand,
            sizes,
            players: 4,
            table,
        }
    }

    fn plays(table: &Table, hand: u64) -> Vec<u64> {
        let mut out = Vec::new();
        table.hand_plays(hand, &mut out);
        out
    }

    #[test]
    fn the_counts_without_popcount_are_counts() {
        for n in 0..16u64 {
            assert_eq!(nibble_count(n), n.count_ones() as i32);
        }
        for rows in [0, SUIT_ROW, 1, 1 << 48, SUIT_ROW & !(1 << 20)] {
            assert_eq!(row_count(rows), rows.count_ones());
        }
    }

    #[test]
    fn broken_groups_counts_the_groups_a_play_splits() {
        // Pair of 3s (bits 0, 1), triple of 4s (4, 5, 6), single 5 (8).
        let counts = nibble_counts(0b1_0111_0011);
        assert_eq!(broken_groups(single(0), counts), 1); // splits the pair
        assert_eq!(broken_groups(0b11, counts), 0); // the whole pair
        assert_eq!(broken_groups(0b11_0000, counts), 1); // two of the triple
        assert_eq!(broken_groups(single(8), counts), 0); // a lone card
        assert_eq!(broken_groups(0b1_0001_0001, counts), 2);
        // A card the hand does not hold breaks nothing.
        assert_eq!(broken_groups(single(12), counts), 0);
    }

    #[test]
    fn any_values_at_all_get_a_choice_and_no_panic() {
        let table = Table::new(Rules::big_two());
        let junk = [
            u64::MAX,
            5 << SIZE_SHIFT,
            7 << SIZE_SHIFT | 1,
            1 << 63,
            3,
            PASS,
        ];
        for t in [PASS, u64::MAX, 1 << SIZE_SHIFT | 1] {
            let v = view(MASK, [13, 0, 1, 13], t);
            let i = greedy(&table, &v, &junk).unwrap();
            assert!(i < junk.len());
        }
    }

    #[test]
    fn goes_out_when_it_can() {
        let table = Table::new(Rules::big_two());
        // A pair of 5s (key bits 8, 9): the pair goes out at once.
        let hand = 3 << 8;
        let legal = plays(&table, hand);
        let i = greedy(&table, &view(hand, [2, 5, 5, 5], 0), &legal).unwrap();
        assert_eq!(legal[i] & MASK, hand);
    }

    #[test]
    fn leads_the_pair_rather_than_breaking_it() {
        let table = Table::new(Rules::big_two());
        // 3D alone (bit 0), a pair of 4s (bits 4, 5), a king (bit 40).
        let hand = 1 | 3 << 4 | 1 << 40;
        let legal = plays(&table, hand);
        let i = greedy(&table, &view(hand, [4, 9, 9, 9], 0), &legal).unwrap();
        // The 3 alone costs 0 - 2.5; the pair of 4s 1.25 - 5: the pair sheds more.
        assert_eq!(legal[i] & MASK, 3 << 4);
    }

    #[test]
    fn passes_rather_than_spend_a_two_early_and_blocks_when_someone_is_close() {
        let table = Table::new(Rules::big_two());
        // Only a 2 (bit 48) beats the table's ace (bit 44), with five other low cards.
        let hand = 1 << 48 | 1 | 1 << 4 | 1 << 8 | 1 << 12 | 1 << 16;
        let mut legal = vec![PASS];
        legal.extend(plays(&table, hand).into_iter().filter(|&a| {
            a >> SIZE_SHIFT == 1 && a >> STRENGTH_SHIFT > single(44) >> STRENGTH_SHIFT
        }));
        assert_eq!(legal, vec![PASS, single(48)]);
        let calm = view(hand, [6, 9, 9, 9], single(44));
        assert_eq!(greedy(&table, &calm, &legal), Some(0));
        let close = view(hand, [6, 9, 2, 9], single(44));
        assert_eq!(greedy(&table, &close, &legal), Some(1));
        assert_eq!(greedy(&table, &calm, &[]), None);
        assert_eq!(greedy(&table, &calm, &[PASS]), Some(0));
    }

    #[test]
    fn five_card_cards_are_the_union_of_the_five_card_plays() {
        let mut x = 0x2545_F491_4F6C_DD1Du64;
        for rules in [Rules::big_two_4card(), Rules::big_two(), Rules::pusoy_dos()] {
            let table = Table::new(rules);
            for _ in 0..2_000 {
                // A random hand of 5 to 13 cards.
                let mut hand = 0u64;
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                let size = 5 + (x % 9) as u32;
                while hand.count_ones() < size {
                    x ^= x << 13;
                    x ^= x >> 7;
                    x ^= x << 17;
                    hand |= 1 << (x % 52);
                }
                let union = plays(&table, hand)
                    .iter()
                    .filter(|&&p| p >> SIZE_SHIFT == 5)
                    .fold(0, |m, &p| m | p & MASK);
                assert_eq!(table.five_card_cards(hand), union, "{hand:#x}");
            }
        }
    }

    #[test]
    fn the_view_of_the_mover_is_its_hand_the_counts_and_the_table() {
        let hands: Vec<u64> = (0..4)
            .map(|s| crate::climbing::combos::SUIT_ROW << s)
            .collect();
        let start = Start {
            hands: hands.clone(),
            table_seat: -1,
            ..Start::default()
        };
        let mut state = State::new(Arc::new(Table::new(Rules::big_two_4card())), &start).unwrap();
        state.apply(single(0)).unwrap();
        let v = SeatView::of_mover(&state);
        assert_eq!(
            v,
            SeatView {
                seat: 1,
                hand: hands[1],
                sizes: [12, 13, 13, 13],
                players: 4,
                table: single(0),
            }
        );
    }
}
