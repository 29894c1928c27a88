//! Everything that differs between the climbing variants, as data.
//!
//! Cards live in *key order*: bit `4 * r + s`, where `r` is the climbing rank (3 = 0 … A = 11,
//! 2 = 12) and `s` the suit's place in the variant's suit order, so a card's bit index is its
//! single-card strength and bit 0 is the lowest card of the deck (the opening card).

/// The 5-card categories a variant may have; a ruleset lists its own, low to high.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Five {
    Straight,
    Flush,
    FullHouse,
    FourPlusOne,
    StraightFlush,
}

/// How a finished deal is scored.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Scoring {
    /// The winner takes the sum of the cards left; the others lose theirs (big-two-4card).
    Count,
    /// 1 per card left up to 9, 2 each for 10 to 12, 3 each for 13 (big-two).
    Penalty,
    /// Points by place, `placement_points[place]` (pusoy-dos).
    Placement,
}

/// A straight window: the set of its five ranks (bit `r`) and the rank that decides its strength.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Window {
    pub ranks: u16,
    pub top: u8,
}

/// One variant's rules, with its options applied.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Rules {
    /// Three of a kind is a 3-card play.
    pub triples: bool,
    /// Two pair and four of a kind are 4-card plays (big-two-4card).
    pub four_card_hands: bool,
    /// The 5-card categories, low to high.
    pub five: Vec<Five>,
    pub windows: Vec<Window>,
    /// Flushes compare by suit first, then by top card.
    pub flush_suit_first: bool,
    /// The lowest card must open the deal alone (big-two-4card).
    pub opening_single: bool,
    pub scoring: Scoring,
    /// The deal ends when the first player goes out.
    pub ends_at_first_out: bool,
    /// When a player goes out, the next player leads at once (rather than the others still
    /// answering the last play).
    pub next_player_leads_after_out: bool,
    /// A player may pass only when unable to beat the table.
    pub pass_only_if_no_legal_play: bool,
    pub placement_points: Vec<i32>,
}

const A: u8 = 11;
const TWO: u8 = 12;

fn window(ranks: &[u8], top: u8) -> Window {
    Window {
        ranks: ranks.iter().fold(0, |m, &r| m | 1 << r),
        top,
    }
}

/// The straight windows of each `straights` option.
pub fn windows(name: &str) -> Option<Vec<Window>> {
    let runs = |n: u8| (0..n).map(|lo| window(&[lo, lo + 1, lo + 2, lo + 3, lo + 4], lo + 4));
    let standard: Vec<Window> = runs(9).collect();
    let mut seed = standard.clone();
    seed.push(window(&[A, TWO, 0, 1, 2], TWO));
    seed.push(window(&[TWO, 0, 1, 2, 3], TWO));
    Some(match name {
        "standard" => standard,
        "hong-kong" => {
            let mut w = vec![window(&[A, TWO, 0, 1, 2], 2), window(&[TWO, 0, 1, 2, 3], 3)];
            w.extend(runs(8));
            w
        }
        "seed" => seed,
        "all-wraps" => {
            let mut w = seed;
            w.push(window(&[10, A, TWO, 0, 1], TWO));
            w.push(window(&[9, 10, A, TWO, 0], TWO));
            w
        }
        _ => return None,
    })
}

const BIG_TWO_FIVES: [Five; 5] = [
    Five::Straight,
    Five::Flush,
    Five::FullHouse,
    Five::FourPlusOne,
    Five::StraightFlush,
];

impl Rules {
    /// big-two-4card (it has no rule options).
    pub fn big_two_4card() -> Rules {
        Rules {
            triples: true,
            four_card_hands: true,
            five: vec![
                Five::Straight,
                Five::Flush,
                Five::FullHouse,
                Five::StraightFlush,
            ],
            windows: windows("standard").unwrap_or_default(),
            flush_suit_first: false,
            opening_single: true,
            scoring: Scoring::Count,
            ends_at_first_out: true,
            next_player_leads_after_out: true,
            pass_only_if_no_legal_play: false,
            placement_points: vec![3, 2, 1, 0],
        }
    }

    /// big-two with its default options.
    pub fn big_two() -> Rules {
        Rules {
            triples: false,
            four_card_hands: false,
            five: BIG_TWO_FIVES.to_vec(),
            windows: windows("standard").unwrap_or_default(),
            flush_suit_first: true,
            opening_single: false,
            scoring: Scoring::Penalty,
            ends_at_first_out: true,
            next_player_leads_after_out: true,
            pass_only_if_no_legal_play: false,
            placement_points: vec![3, 2, 1, 0],
        }
    }

    /// pusoy-dos with its default options.
    pub fn pusoy_dos() -> Rules {
        Rules {
            triples: true,
            four_card_hands: false,
            five: BIG_TWO_FIVES.to_vec(),
            windows: windows("seed").unwrap_or_default(),
            flush_suit_first: true,
            opening_single: false,
            scoring: Scoring::Placement,
            ends_at_first_out: false,
            next_player_leads_after_out: true,
            pass_only_if_no_legal_play: false,
            placement_points: vec![3, 2, 1, 0],
        }
    }

    /// The place of a 5-card category in this variant's order, if it has it.
    pub fn five_index(&self, kind: Five) -> Option<u64> {
        self.five.iter().position(|&k| k == kind).map(|i| i as u64)
    }
}

/// Big Two penalty for cards left: 1 each up to 9, 2 each for 10-12, 3 each for 13.
pub fn penalty(cards_left: u32) -> i32 {
    let n = cards_left as i32;
    match cards_left {
        13 => 39,
        10.. => 2 * n,
        _ => n,
    }
}
