//! The learned network of `parlour.bots.learned.dmc` for rummy, as a playout policy: each seat
//! plays the legal move the network scores highest from that seat's observation, as the Python
//! bot does.
//!
//! The network ([`Mlp`]) reads the observation encoding ([`Encoding`]) and the move's features,
//! computed here exactly as `parlour.bots.learned.rummy.RummyFeatures.rows` does: the move's
//! kind, the cards it moves (for `draw discard` the top of the pile) and the hand it leaves, then
//! their points and counts, whether it goes out, the hand's cards in a meld, its deadwood and
//! the points of its cards with no partner, the change in melded cards of a draw or a discard,
//! and whether a discard lays off on the table.

use super::encoding::{Encoding, extends_of, is_turn_limit};
use super::melds::{FULL, ROW, is_group, mask_value, triple_ranks};
use super::state::{
    DISCARD, DRAW_DISCARD, DRAW_STOCK, KIND_BITS, LAYOFF, MELD, State, TARGET_SHIFT,
};
use crate::sim::mlp::{self, Layers, Mlp, Network};

/// The kinds, as `rummy.KINDS` orders them: the first rows of the features.
const KIND_DRAW_STOCK: u32 = 0;
const KIND_DRAW_DISCARD: u32 = 1;
const KIND_DISCARD: u32 = 2;
const KIND_MELD_RUN: u32 = 3;
const KIND_MELD_SET: u32 = 4;
const KIND_LAYOFF_SET: u32 = 5;
const KIND_LAYOFF_RUN: u32 = 6;
/// The cards moved, then the hand after the move: a row per card in rummy's layout.
const MOVED: u32 = 7;
const AFTER: u32 = MOVED + 52;
/// The columns after them, as `rummy.COLUMNS` orders them.
const POINTS: u32 = AFTER + 52;
const CARDS: u32 = POINTS + 1;
const LEFT: u32 = POINTS + 2;
const GOES_OUT: u32 = POINTS + 3;
const IN_MELD: u32 = POINTS + 4;
const DEADWOOD: u32 = POINTS + 5;
const LOOSE: u32 = POINTS + 6;
const MELD_CHANGE: u32 = POINTS + 7;
const FEEDS: u32 = POINTS + 8;
/// The number of move features.
pub const FEATURES: usize = FEEDS as usize + 1;

/// The ranks a run of three may start at in each suit's row (A to J).
const RUN_STARTS: u64 = spread((1 << 11) - 1);

/// A 13-bit set of ranks, in every suit's row.
const fn spread(ranks: u64) -> u64 {
    ranks | ranks << 13 | ranks << 26 | ranks << 39
}

/// The cards of `hand` in a meld of the hand (three or four of a rank, or three or more in
/// sequence in a suit), and those with a partner (another card of their rank, or one within
/// two ranks in their suit): `rummy.melded`.
fn melded(hand: u64) -> (u64, u64) {
    let [a, b, c, d] = [0, 13, 26, 39].map(|shift| hand >> shift & ROW);
    let two = (a & b) | (a & c) | (a & d) | (b & c) | (b & d) | (c & d);
    let starts = hand & hand >> 1 & hand >> 2 & RUN_STARTS;
    let in_meld = hand & (spread(triple_ranks(hand)) | starts | starts << 1 | starts << 2);
    // Within a suit: a shift by k that carries a card into the next row is cut off.
    let mut near = 0;
    for k in 1..=2 {
        let keep_up = spread(ROW & !((1 << k) - 1)); // ranks k and above
        let keep_down = spread(ROW >> k); // ranks 12 − k and below
        near |= (hand << k) & keep_up | (hand >> k) & keep_down;
    }
    (in_meld, hand & (near | spread(two)))
}

/// A network's weights and the encoding it reads.
#[derive(Clone, Debug)]
pub struct Net {
    encoding: Encoding,
    mlp: Mlp,
}

/// What a decision's moves read: the hand of the seat to move, the top of the discard pile,
/// the cards that lay off on the table and the hand's cards in a meld.
#[derive(Default)]
pub struct Context {
    hand: u64,
    top: u64,
    extends: u64,
    before: u32,
}

impl Net {
    /// The network for deals of `players` seats with the turn limit `turn_limit` (the option's
    /// value, as the encoding takes it), or why the weights do not fit.
    pub fn new(players: usize, turn_limit: f64, layers: Layers) -> Result<Net, String> {
        if !(2..=super::MAX_SEATS).contains(&players) || !is_turn_limit(turn_limit) {
            return Err(format!(
                "no rummy deal of {players} seats and a turn limit of {turn_limit}"
            ));
        }
        let encoding = Encoding::new(players, turn_limit);
        let what = format!(", and w1a of {FEATURES} rows");
        let mlp = Mlp::new(layers, encoding.size(), &what)?;
        if mlp.features() != FEATURES {
            return Err(format!("the weights do not fit this game{what}"));
        }
        Ok(Net { encoding, mlp })
    }

    /// The seats of the deals it plays.
    pub fn players(&self) -> usize {
        self.encoding.players()
    }
}

/// Row `row + k` for each card `k` of `cards`.
#[inline(always)]
fn card_rows(cards: u64, row: u32, terms: &mut Vec<(f32, u32)>) {
    let mut rest = cards;
    while rest != 0 {
        terms.push((1.0, row + rest.trailing_zeros()));
        rest &= rest - 1;
    }
}

/// The first-layer rows of move `m` of the seat to move, with their values.
#[inline(always)]
fn move_terms(state: &State, m: u64, cx: &Context, terms: &mut Vec<(f32, u32)>) {
    let Context {
        hand,
        top,
        extends,
        before,
    } = *cx;
    let cards = m >> KIND_BITS & FULL;
    let (kind, moved, after) = match m & 7 {
        DRAW_STOCK => (KIND_DRAW_STOCK, 0, hand),
        DRAW_DISCARD => (KIND_DRAW_DISCARD, top, hand | top),
        DISCARD => (KIND_DISCARD, cards, hand & !cards),
        MELD if is_group(cards) => (KIND_MELD_SET, cards, hand & !cards),
        MELD => (KIND_MELD_RUN, cards, hand & !cards),
        LAYOFF => {
            let target = (m >> TARGET_SHIFT) as usize;
            let on_group = state.melds().get(target).is_some_and(|&t| is_group(t));
            let kind = if on_group {
                KIND_LAYOFF_SET
            } else {
                KIND_LAYOFF_RUN
            };
            (kind, cards, hand & !cards)
        }
        _ => (KIND_DRAW_STOCK, 0, hand), // no move of any kind: never legal
    };
    terms.push((1.0, kind));
    card_rows(moved, MOVED, terms);
    card_rows(after, AFTER, terms);
    let (in_meld, partner) = melded(after);
    let left = after.count_ones();
    let draw = kind <= KIND_DRAW_DISCARD;
    let columns = [
        (POINTS, mask_value(moved) as f32 / 100.0),
        (CARDS, (f64::from(moved.count_ones()) / 13.0) as f32),
        (LEFT, (f64::from(left) / 26.0) as f32),
        (GOES_OUT, f32::from(u8::from(left == 0 && !draw))),
        (IN_MELD, (f64::from(in_meld.count_ones()) / 10.0) as f32),
        (DEADWOOD, mask_value(after & !in_meld) as f32 / 100.0),
        (LOOSE, mask_value(after & !partner) as f32 / 100.0),
        (
            MELD_CHANGE,
            if kind <= KIND_DISCARD {
                ((f64::from(in_meld.count_ones()) - f64::from(before)) / 4.0) as f32
            } else {
                0.0
            },
        ),
        (
            FEEDS,
            f32::from(u8::from(kind == KIND_DISCARD && moved & extends != 0)),
        ),
    ];
    for (column, value) in columns {
        if value != 0.0 {
            terms.push((value, column));
        }
    }
}

impl Network<State> for Net {
    type Context = Context;

    #[inline(always)]
    fn mlp(&self) -> &Mlp {
        &self.mlp
    }

    #[inline(always)]
    fn encode(&self, state: &State, cx: &mut Context, obs: &mut [f32]) {
        let n = self.encoding.players();
        let seat = mlp::seat_to_move(state, n);
        self.encoding.encode(state, seat, state.discarded(), obs);
        cx.hand = state.hand(seat);
        cx.top = state.pile().last().map_or(0, |&c| 1u64 << c);
        cx.extends = state.melds().iter().fold(0, |m, &x| m | extends_of(x));
        cx.before = melded(cx.hand).0.count_ones();
    }

    /// Every legal move has features.
    #[inline(always)]
    fn move_terms(&self, state: &State, m: u64, cx: &Context, terms: &mut Vec<(f32, u32)>) -> bool {
        move_terms(state, m, cx, terms);
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Rng;

    /// `melded` by brute force: every card against every meld of three of the hand.
    fn melded_slowly(hand: u64) -> (u64, u64) {
        let (mut in_meld, mut partner) = (0, 0);
        for i in 0..52 {
            if hand >> i & 1 == 0 {
                continue;
            }
            let (suit, rank) = (i / 13, i % 13);
            let mut same_rank = 0;
            for s in 0..4 {
                same_rank += hand >> (13 * s + rank) & 1;
            }
            let held = |r: i32| (0..13).contains(&r) && hand >> (13 * suit + r as u32) & 1 == 1;
            let r = rank as i32;
            let run = (held(r - 2) && held(r - 1))
                || (held(r - 1) && held(r + 1))
                || (held(r + 1) && held(r + 2));
            if same_rank >= 3 || run {
                in_meld |= 1 << i;
            }
            if same_rank >= 2 || [-2, -1, 1, 2].iter().any(|&k| held(r + k)) {
                partner |= 1 << i;
            }
        }
        (in_meld, partner)
    }

    #[test]
    fn melded_cards_and_partners_are_found_with_bit_operations() {
        let mut rng = Rng::new(9);
        for _ in 0..5_000 {
            let mut hand = 0u64;
            for _ in 0..(rng.unit() * 20.0) as usize {
                hand |= 1 << ((rng.unit() * 52.0) as u32).min(51);
            }
            assert_eq!(melded(hand), melded_slowly(hand), "{hand:#x}");
        }
        // A run across the end of a suit's row is none: K♣ A♦ 2♦ (bits 12, 13, 14).
        assert_eq!(melded(0b111 << 12).0, 0);
    }
}
