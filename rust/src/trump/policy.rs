//! The rule-based policy (`greedy`): win cheaply, save top trumps, help the partner, rob.
//!
//! It reads one seat's [`Seen`] only: the seat's own hand and what is public. Cards still
//! *outstanding* (that another seat may yet play) are those neither in this hand, played, this
//! seat's own discard, nor the turn-up left on the pack. The same [`greedy`] serves playouts
//! (a [`Seen`] made from the [`State`] for the seat to move, [`State::seen`]) and the Python
//! API's `game.greedy_action` (a [`Seen`] made from the observation's fields); it draws nothing
//! from a generator.
//!
//! Ties between cards of equal power (plain cards of different suits) go to the one listed
//! first among the legal moves, as a stable sort of them by power would leave it.

use super::{
    DECK, JINK, KEEP, POWER, Phase, ROB_BASE, Rules, SILENT, STOP, Scoring, State, TRUMP_BASE,
    TRUMP_MASK,
};

/// What the policy reads of a deal: one seat's own hand and public information.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Seen<'a> {
    /// The seat choosing.
    pub seat: u8,
    pub players: u8,
    /// Read as a play for [`Phase::Play`] and [`Phase::Over`].
    pub phase: Phase,
    pub trump: u8,
    /// The ace of trumps ranks lowest trump (nobody robbed or announced).
    pub demoted: bool,
    /// This seat's cards.
    pub hand: u64,
    /// Cards another seat may still play: not in this hand, not played, not this seat's own
    /// discard, and not the turn-up while nobody robbed it.
    pub outstanding: u64,
    /// The seat that leads (or led) the trick in progress.
    pub leader: u8,
    /// The trick in progress, from its leader on.
    pub trick: &'a [u8],
    /// Tricks taken so far by each seat (`players` of them).
    pub tricks_won: &'a [u8],
    /// Two sides of partners (Forty-Five, even and odd seats) rather than each seat alone.
    pub partnership: bool,
}

impl Rules {
    /// Whether seats play in two sides of partners (even and odd seats), as Forty-Five's
    /// scoring by sides says; otherwise each seat plays for itself.
    pub fn partnership(&self) -> bool {
        matches!(self.scoring, Scoring::Sides { .. })
    }
}

impl Seen<'_> {
    /// The side `seat` plays for.
    fn side(&self, seat: u8) -> u8 {
        if self.partnership { seat % 2 } else { seat }
    }

    fn power(&self) -> &'static [u8; 52] {
        &POWER[usize::from(self.demoted)][usize::from(self.trump & 3)]
    }

    /// The power of the highest trump still outstanding, 0 if none.
    fn top_outstanding_trump(&self) -> u8 {
        let power = self.power();
        let mut trumps = self.outstanding & TRUMP_MASK[usize::from(self.trump & 3)];
        let mut best = 0;
        while trumps != 0 {
            best = best.max(power[trumps.trailing_zeros() as usize]);
            trumps &= trumps - 1;
        }
        best
    }

    /// Trumps in hand that no outstanding trump can beat.
    fn sure_winners(&self) -> u32 {
        let power = self.power();
        let top = self.top_outstanding_trump();
        let mut hand = self.hand & DECK;
        let mut count = 0;
        while hand != 0 {
            let p = power[hand.trailing_zeros() as usize];
            count += u32::from(p > top && p >= TRUMP_BASE);
            hand &= hand - 1;
        }
        count
    }
}

impl State {
    /// What `seat` knows that the policy reads (`seat` < players): its hand and public
    /// information only.
    pub fn seen(&self, seat: usize) -> Seen<'_> {
        let mut gone = self.hands[seat] | self.played;
        if self.robber == seat as i8 {
            gone |= 1 << self.discard;
        }
        if self.robber < 0 {
            gone |= 1 << self.turn_up;
        }
        Seen {
            seat: seat as u8,
            players: self.n,
            phase: self.phase,
            trump: self.trump,
            demoted: self.demoted,
            hand: self.hands[seat],
            outstanding: DECK & !gone,
            leader: self.leader,
            trick: self.trick(),
            tricks_won: self.tricks_won(),
            partnership: self.rules.partnership(),
        }
    }
}

/// The greedy choice among `legal` (in the order given) for the seat of `seen`: one of the
/// moves of `legal`, or during the robbing `keep` or `silent`, and when jinking `jink` or
/// `stop`. None only for a play with no card among `legal` (no legal move, or a value that is
/// no card).
pub fn greedy(seen: &Seen<'_>, legal: &[u16]) -> Option<u16> {
    match seen.phase {
        Phase::Rob => Some(rob(seen, legal)),
        Phase::Jink => Some(if seen.sure_winners() >= 2 { JINK } else { STOP }),
        Phase::Play | Phase::Over => play(seen, legal),
    }
}

fn rob(seen: &Seen<'_>, legal: &[u16]) -> u16 {
    let power = seen.power();
    // Taking a trump for the weakest card only ever strengthens the hand.
    let mut weakest: Option<u16> = None;
    for &v in legal {
        if (ROB_BASE..ROB_BASE + 52).contains(&v) {
            let c = usize::from(v - ROB_BASE);
            if weakest.is_none_or(|w| power[c] < power[usize::from(w - ROB_BASE)]) {
                weakest = Some(v);
            }
        }
    }
    match weakest {
        Some(v) => v,
        None if legal.contains(&KEEP) => KEEP,
        None => SILENT,
    }
}

/// Whether `card` beats `best` in a trick led with `led_suit`.
fn beats(card: u8, best: u8, led_suit: u8, power: &[u8; 52]) -> bool {
    let (p, q) = (power[usize::from(card)], power[usize::from(best)]);
    if p >= TRUMP_BASE || q >= TRUMP_BASE {
        return p > q;
    }
    card & 3 == led_suit && (best & 3 != led_suit || p > q)
}

/// The first of `cards` with the lowest power (the first a stable sort by power puts first).
fn lowest(cards: impl Iterator<Item = u8>, power: &[u8; 52]) -> Option<u8> {
    cards.fold(None, |low, c| match low {
        Some(l) if power[usize::from(l)] <= power[usize::from(c)] => Some(l),
        _ => Some(c),
    })
}

/// The last of `cards` with the highest power (the last a stable sort by power puts last).
fn highest(cards: impl Iterator<Item = u8>, power: &[u8; 52]) -> Option<u8> {
    cards.fold(None, |high, c| match high {
        Some(h) if power[usize::from(h)] > power[usize::from(c)] => Some(h),
        _ => Some(c),
    })
}

fn play(seen: &Seen<'_>, legal: &[u16]) -> Option<u16> {
    if legal.iter().any(|&v| v >= 52) {
        return None;
    }
    let power = seen.power();
    let cards = || legal.iter().map(|&v| v as u8);
    let is_trump = |c: &u8| power[usize::from(*c)] >= TRUMP_BASE;
    // The weakest card: the lowest plain card, or the lowest trump if all are trumps.
    let weakest =
        lowest(cards().filter(|c| !is_trump(c)), power).or_else(|| lowest(cards(), power))?;
    let chosen = |c: u8| Some(u16::from(c));
    let trick = seen.trick;
    let n = seen.players;
    if trick.is_empty() {
        let top = seen.top_outstanding_trump();
        if let Some(t) = highest(cards().filter(is_trump), power)
            && power[usize::from(t)] > top
        {
            return chosen(t); // draw trumps with a card nobody can beat
        }
        // The first of the highest plain cards (as max() over a sorted list picks it).
        let best = cards()
            .filter(|c| !is_trump(c))
            .fold(None, |high: Option<u8>, c| match high {
                Some(h) if power[usize::from(h)] >= power[usize::from(c)] => Some(h),
                _ => Some(c),
            });
        if let Some(b) = best
            && power[usize::from(b)] >= 12
        {
            return chosen(b); // a king or queen: a fair chance to win the trick plainly
        }
        return chosen(weakest);
    }
    let led_suit = trick[0] & 3;
    let mut best_i = 0;
    for (i, &c) in trick.iter().enumerate() {
        if beats(c, trick[best_i], led_suit, power) {
            best_i = i;
        }
    }
    let best = trick[best_i];
    let winner = ((usize::from(seen.leader) + best_i) % usize::from(n)) as u8;
    let last = trick.len() + 1 == usize::from(n);
    let partner_wins = seen.side(winner) == seen.side(seen.seat) && winner != seen.seat;
    if partner_wins && (last || power[usize::from(best)] > seen.top_outstanding_trump()) {
        return chosen(weakest); // the partner has the trick
    }
    let winning = || cards().filter(|&c| beats(c, best, led_suit, power));
    let Some(cheapest) = lowest(winning(), power) else {
        return chosen(weakest);
    };
    let mine = seen.side(seen.seat);
    let threat = (trick.len() + 1..usize::from(n)).any(|i| {
        let s = ((usize::from(seen.leader) + i) % usize::from(n)) as u8;
        seen.side(s) != mine && seen.tricks_won.get(usize::from(s)).is_some_and(|&k| k >= 2)
    });
    if threat {
        // An opponent on two tricks is still to play: hold it off.
        return highest(winning(), power).map(u16::from);
    }
    chosen(cheapest) // the cheapest card that takes it
}
