//! Card order of Spoil Five and Forty-Five, precomputed per trump suit (the tables of the
//! Python package's `ranking.py`, with the same values).
//!
//! Every card gets a *power* for each trump suit: trumps (the trump suit plus the ace of hearts)
//! count 101 and up, plain cards 1..13 within their suit. Only powers of trumps, or of cards of
//! the suit led, are ever compared, so one table per trump suit decides every trick.

/// Every card.
pub const DECK: u64 = (1 << 52) - 1;
/// Powers at or above this mark are trumps; a demoted (silent) ace gets exactly this value.
pub const TRUMP_BASE: u8 = 100;

const ACE: u8 = 12;
const FIVE: u8 = 3;
const JACK: u8 = 9;
const HEARTS: u8 = 2;
/// The ace of hearts, a trump whatever the trump suit.
pub const AH: u8 = ACE * 4 + HEARTS;
/// In a trump order: the ace of hearts (in a suit other than hearts).
const AH_MARK: u8 = 255;

// Ranks (2..A as 0..12) highest first, as RULES.md 3.2 lists them.
const BLACK_TRUMPS: &[u8] = &[3, 9, AH_MARK, 12, 11, 10, 0, 1, 2, 4, 5, 6, 7, 8];
const DIAMOND_TRUMPS: &[u8] = &[3, 9, AH_MARK, 12, 11, 10, 8, 7, 6, 5, 4, 2, 1, 0];
const HEART_TRUMPS: &[u8] = &[3, 9, 12, 11, 10, 8, 7, 6, 5, 4, 2, 1, 0];
/// Plain ranks, highest first ("high in red, low in black"); the ace of hearts is never plain.
const BLACK_PLAIN: &[u8] = &[11, 10, 9, 12, 0, 1, 2, 3, 4, 5, 6, 7, 8];
const DIAMOND_PLAIN: &[u8] = &[11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0, 12];
const HEART_PLAIN: &[u8] = &[11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1, 0];

/// By suit (clubs, diamonds, hearts, spades).
const TRUMP_ORDER: [&[u8]; 4] = [BLACK_TRUMPS, DIAMOND_TRUMPS, HEART_TRUMPS, BLACK_TRUMPS];
const PLAIN_ORDER: [&[u8]; 4] = [BLACK_PLAIN, DIAMOND_PLAIN, HEART_PLAIN, BLACK_PLAIN];

const fn suit_mask(suit: u8) -> u64 {
    let mut mask = 0;
    let mut rank = 0;
    while rank < 13 {
        mask |= 1 << (rank * 4 + suit);
        rank += 1;
    }
    mask
}

const fn powers(trump: usize, demoted: bool) -> [u8; 52] {
    let mut power = [0u8; 52];
    let mut suit = 0;
    while suit < 4 {
        let order = PLAIN_ORDER[suit];
        let mut i = 0;
        while i < order.len() {
            power[order[i] as usize * 4 + suit] = (order.len() - i) as u8;
            i += 1;
        }
        suit += 1;
    }
    let order = TRUMP_ORDER[trump];
    let mut i = 0;
    while i < order.len() {
        let card = if order[i] == AH_MARK {
            AH as usize
        } else {
            order[i] as usize * 4 + trump
        };
        power[card] = TRUMP_BASE + (order.len() - i) as u8;
        i += 1;
    }
    if demoted {
        power[ACE as usize * 4 + trump] = TRUMP_BASE;
    }
    power
}

const fn all_powers() -> [[[u8; 52]; 4]; 2] {
    let mut out = [[[0; 52]; 4]; 2];
    let mut t = 0;
    while t < 4 {
        out[0][t] = powers(t, false);
        out[1][t] = powers(t, true);
        t += 1;
    }
    out
}

/// `POWER[demoted][trump][card]`: the card's strength when `trump` is the trump suit, after
/// the ace of trumps was demoted (silent option) or not.
pub static POWER: [[[u8; 52]; 4]; 2] = all_powers();

/// `TRUMP_MASK[trump]`: every trump (the trump suit and the ace of hearts).
pub const TRUMP_MASK: [u64; 4] = [
    suit_mask(0) | 1 << AH,
    suit_mask(1) | 1 << AH,
    suit_mask(2) | 1 << AH,
    suit_mask(3) | 1 << AH,
];

const fn plain_masks(trump: usize) -> [u64; 4] {
    let mut out = [0; 4];
    let mut suit = 0;
    while suit < 4 {
        out[suit] = suit_mask(suit as u8) & !TRUMP_MASK[trump];
        suit += 1;
    }
    out
}

/// `PLAIN_MASK[trump][suit]`: the cards that follow a plain lead of `suit`.
pub const PLAIN_MASK: [[u64; 4]; 4] = [
    plain_masks(0),
    plain_masks(1),
    plain_masks(2),
    plain_masks(3),
];

/// `ACE_OF_TRUMPS[trump]`: the card whose holder may rob (the ace of hearts for hearts).
pub const ACE_OF_TRUMPS: [u8; 4] = [ACE * 4, ACE * 4 + 1, ACE * 4 + 2, ACE * 4 + 3];

/// `RENEGERS[trump]`: the cards with the reneging privilege (five and jack of trumps, AH).
pub const RENEGERS: [[u8; 3]; 4] = [
    [FIVE * 4, JACK * 4, AH],
    [FIVE * 4 + 1, JACK * 4 + 1, AH],
    [FIVE * 4 + 2, JACK * 4 + 2, AH],
    [FIVE * 4 + 3, JACK * 4 + 3, AH],
];

/// The position in `trick` (cards in playing order) of the card that takes it: the highest
/// trump, else the highest card of the suit led.
pub fn trick_winner(trick: &[u8], power: &[u8; 52]) -> usize {
    let led_suit = trick[0] & 3;
    let mut best = 0;
    let mut winner = 0;
    for (i, &c) in trick.iter().enumerate() {
        let p = power[usize::from(c)];
        if p > best && (p >= TRUMP_BASE || c & 3 == led_suit) {
            best = p;
            winner = i;
        }
    }
    winner
}
