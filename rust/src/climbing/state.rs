//! One deal of a climbing game.
//!
//! Each seat's plays are listed once per deal (when first needed, sorted) and only filtered as
//! its cards leave; the answers to a table play are a bisected slice of that list.

use std::sync::Arc;

use super::combos::{MASK, PASS, SIZE_SHIFT, STRENGTH_SHIFT, Table, can_beat};

/// The most seats a climbing deal has.
pub const MAX_SEATS: usize = 4;
/// `current_player` once the deal is over.
pub const TERMINAL: i8 = -1;

/// The position a deal starts from, cards as key-order masks.
///
/// Either the opening (no `leader`, no `table`: the holder of the lowest card opens under the
/// opening rule), a free lead by `leader`, or a trick in progress: `table` (a packed play) made
/// by `table_seat`, followed by `passes` passes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Start {
    pub hands: Vec<u64>,
    pub leader: Option<u8>,
    /// Cards out of play from the start.
    pub out: u64,
    pub table: u64,
    pub table_seat: i8,
    pub passes: u8,
    /// Seats already out, first place first.
    pub finished: Vec<u8>,
}

/// What a deal started from besides the hands, kept with the deal (all of it public: every
/// seat's observation shows it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Origin {
    /// The seat that led freely at the start.
    pub leader: Option<u8>,
    /// The play to beat at the start (0 for none), who made it and the passes after it.
    pub table: u64,
    pub table_seat: i8,
    pub passes: u8,
    finished: [u8; MAX_SEATS],
    finished_len: u8,
}

impl Origin {
    /// The seats already out at the start, first place first.
    pub fn finished(&self) -> &[u8] {
        &self.finished[..usize::from(self.finished_len)]
    }
}

/// Why an action was refused; the state is then unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The deal is over.
    Over,
    /// A pass by the seat that leads (the opener, or a seat with control).
    MustPlay,
    /// A pass by a seat that could beat the table, under `pass_only_if_no_legal_play`.
    CannotPass,
    /// Cards the player does not hold (these).
    NotHeld(u64),
    /// A value that is no play of this variant.
    NotAPlay,
    /// A play of another size than the table's.
    WrongSize,
    /// A play of the table's size that does not beat it.
    NotBeating,
    /// The opening play must be the lowest card alone.
    OpeningSingle,
    /// The opening play must include the lowest card.
    OpeningMustInclude,
}

/// A deal in progress.
#[derive(Clone, Debug)]
pub struct State {
    table: Arc<Table>,
    n: u8,
    hands: [u64; MAX_SEATS],
    /// Each hand's number of cards.
    sizes: [u8; MAX_SEATS],
    /// Each seat's plays, sorted, once built (bit `seat` of `built`).
    plays: [Vec<u64>; MAX_SEATS],
    built: u8,
    table_play: u64,
    table_seat: i8,
    passes: u8,
    active: u8,
    finished: [u8; MAX_SEATS],
    finished_len: u8,
    history: Vec<(u8, u64)>,
    /// Cards played since the start (the start's table play included).
    played: u64,
    out: u64,
    returns: [f64; MAX_SEATS],
    opening: bool,
    current: i8,
    origin: Origin,
}

impl State {
    /// The deal starting at `start`, or why `start` is no position of this table's rules.
    pub fn new(table: Arc<Table>, start: &Start) -> Result<State, String> {
        check(&table, start)?;
        let n = start.hands.len();
        let mut hands = [0u64; MAX_SEATS];
        hands[..n].copy_from_slice(&start.hands);
        let mut finished = [0u8; MAX_SEATS];
        finished[..start.finished.len()].copy_from_slice(&start.finished);
        let mut state = State {
            table,
            n: n as u8,
            hands,
            sizes: hands.map(|h| h.count_ones() as u8),
            plays: Default::default(),
            built: 0,
            table_play: start.table,
            table_seat: start.table_seat,
            passes: start.passes,
            active: hands.iter().filter(|&&h| h != 0).count() as u8,
            finished,
            finished_len: start.finished.len() as u8,
            history: Vec::with_capacity(64),
            played: start.table & MASK,
            out: start.out,
            returns: [0.0; MAX_SEATS],
            opening: false,
            current: 0,
            origin: Origin {
                leader: start.leader,
                table: start.table,
                table_seat: start.table_seat,
                passes: start.passes,
                finished,
                finished_len: start.finished.len() as u8,
            },
        };
        state.current = if start.table != 0 {
            let mut p = start.table_seat as u8;
            for _ in 0..=start.passes {
                p = state.next_active(p);
            }
            p as i8
        } else if let Some(leader) = start.leader {
            leader as i8
        } else {
            state.opening = true;
            state.hands[..n]
                .iter()
                .position(|&h| h & 1 != 0)
                .unwrap_or(0) as i8
        };
        Ok(state)
    }

    pub fn table(&self) -> &Table {
        &self.table
    }

    /// The variant's table, shared.
    pub fn shared_table(&self) -> Arc<Table> {
        self.table.clone()
    }

    pub fn players(&self) -> usize {
        usize::from(self.n)
    }

    /// The seat to move, or [`TERMINAL`].
    pub fn current_player(&self) -> i8 {
        self.current
    }

    pub fn is_over(&self) -> bool {
        self.current == TERMINAL
    }

    fn plays_of(&mut self, seat: usize) -> &[u64] {
        if self.built >> seat & 1 == 0 {
            self.table
                .hand_plays(self.hands[seat], &mut self.plays[seat]);
            self.built |= 1 << seat;
        }
        &self.plays[seat]
    }

    /// Every legal action of the player to move into `out` (cleared first; empty once over).
    pub fn legal_actions(&mut self, out: &mut Vec<u64>) {
        out.clear();
        if self.current < 0 {
            return;
        }
        let t = self.table_play;
        let opening = self.opening;
        let opening_single = self.table.rules.opening_single;
        let pass_only = self.table.rules.pass_only_if_no_legal_play;
        let plays = self.plays_of(self.current as usize);
        if t == 0 {
            if !opening {
                out.extend_from_slice(plays);
            } else if opening_single {
                out.push(1 << SIZE_SHIFT | 1);
            } else {
                out.extend(plays.iter().copied().filter(|a| a & 1 != 0));
            }
            return;
        }
        let lo = plays.partition_point(|&a| a <= t | MASK);
        let next_size = ((t >> SIZE_SHIFT) + 1) << SIZE_SHIFT;
        let hi = lo + plays[lo..].partition_point(|&a| a < next_size);
        if lo == hi || !pass_only {
            out.push(PASS);
        }
        out.extend_from_slice(&plays[lo..hi]);
    }

    /// Play `action` for the player to move; refused with the reason, leaving the state as it was.
    pub fn apply(&mut self, action: u64) -> Result<(), Illegal> {
        self.apply_looked_up(action, true)
    }

    /// [`State::apply`] for a move of a history already proven playable (the recorded plays of
    /// a deal, replayed from other hands holding their cards): a play is looked up among its
    /// seat's plays only once they are listed, so a replay lists no seat's plays it does not
    /// need (they are listed from the hand of the moment when first needed, the same list).
    /// Every other check is made.
    pub(crate) fn replay(&mut self, action: u64) -> Result<(), Illegal> {
        self.apply_looked_up(action, false)
    }

    fn apply_looked_up(&mut self, action: u64, look_up: bool) -> Result<(), Illegal> {
        if self.current < 0 {
            return Err(Illegal::Over);
        }
        let p = self.current as u8;
        let t = self.table_play;
        let rules = &self.table.rules;
        if action == PASS {
            if t == 0 {
                return Err(Illegal::MustPlay);
            }
            if rules.pass_only_if_no_legal_play && can_beat(self.plays_of(p.into()), t) {
                return Err(Illegal::CannotPass);
            }
            self.history.push((p, PASS));
            self.passes += 1;
            let ts = self.table_seat as u8;
            let still_in = self.hands[usize::from(ts)] != 0;
            let needed = if still_in {
                self.active - 1
            } else {
                self.active
            };
            if self.passes >= needed {
                self.table_play = 0;
                self.passes = 0;
                self.current = if still_in { ts } else { self.next_active(ts) } as i8;
            } else {
                self.current = self.next_active(p) as i8;
            }
            return Ok(());
        }
        let m = action & MASK;
        let mut hand = self.hands[usize::from(p)];
        if m & !hand != 0 {
            return Err(Illegal::NotHeld(m & !hand));
        }
        let (opening_single, opening) = (rules.opening_single, self.opening);
        let listed = self.built >> p & 1 == 1;
        if (look_up || listed) && self.plays_of(p.into()).binary_search(&action).is_err() {
            return Err(Illegal::NotAPlay);
        }
        if t != 0 {
            if action >> SIZE_SHIFT != t >> SIZE_SHIFT {
                return Err(Illegal::WrongSize);
            }
            if action >> STRENGTH_SHIFT <= t >> STRENGTH_SHIFT {
                return Err(Illegal::NotBeating);
            }
        } else if opening {
            if opening_single && m != 1 {
                return Err(Illegal::OpeningSingle);
            }
            if m & 1 == 0 {
                return Err(Illegal::OpeningMustInclude);
            }
        }
        self.opening = false;
        self.history.push((p, action));
        self.played |= m;
        hand ^= m;
        self.hands[usize::from(p)] = hand;
        self.sizes[usize::from(p)] -= (action >> SIZE_SHIFT) as u8;
        // Keep the plays without the cards gone, in order (a branch-free `retain`).
        let plays = &mut self.plays[usize::from(p)];
        let mut kept = 0;
        for i in 0..plays.len() {
            let a = plays[i];
            plays[kept] = a;
            kept += usize::from(a & m == 0);
        }
        plays.truncate(kept);
        self.table_play = action;
        self.table_seat = p as i8;
        self.passes = 0;
        if hand != 0 {
            self.current = self.next_active(p) as i8;
        } else {
            self.went_out(p);
        }
        Ok(())
    }

    fn went_out(&mut self, p: u8) {
        self.push_finished(p);
        self.active -= 1;
        let ends_at_first_out = self.table.rules.ends_at_first_out;
        if ends_at_first_out || self.active <= 1 {
            if !ends_at_first_out {
                for i in 0..self.n {
                    if self.hands[usize::from(i)] != 0 {
                        self.push_finished(i);
                    }
                }
            }
            let n = self.players();
            let mut left = [0u32; MAX_SEATS];
            for (l, h) in left.iter_mut().zip(&self.hands[..n]) {
                *l = h.count_ones();
            }
            let finished = self.finished;
            let len = usize::from(self.finished_len);
            self.table
                .score(&left[..n], &finished[..len], &mut self.returns[..n]);
            self.current = TERMINAL;
            return;
        }
        self.current = self.next_active(p) as i8;
        if self.table.rules.next_player_leads_after_out {
            self.table_play = 0;
        }
    }

    fn push_finished(&mut self, seat: u8) {
        self.finished[usize::from(self.finished_len)] = seat;
        self.finished_len += 1;
    }

    fn next_active(&self, p: u8) -> u8 {
        let mut q = if p + 1 < self.n { p + 1 } else { 0 };
        while self.hands[usize::from(q)] == 0 {
            q = if q + 1 < self.n { q + 1 } else { 0 };
        }
        q
    }

    /// Each seat's hand (key order).
    pub fn hands(&self) -> &[u64] {
        &self.hands[..self.players()]
    }

    /// Each seat's number of cards.
    pub fn sizes(&self) -> &[u8] {
        &self.sizes[..self.players()]
    }

    /// Each seat's return; zeros until the deal is over.
    pub fn returns(&self) -> &[f64] {
        &self.returns[..self.players()]
    }

    /// The seats that went out, first place first (then, once over, the others).
    pub fn finished(&self) -> &[u8] {
        &self.finished[..usize::from(self.finished_len)]
    }

    /// The actions so far as `(seat, action)`.
    pub fn history(&self) -> &[(u8, u64)] {
        &self.history
    }

    /// The play to beat (0 when the player to move leads), its maker and the passes since.
    pub fn trick(&self) -> (u64, i8, u8) {
        let seat = if self.table_play != 0 {
            self.table_seat
        } else {
            -1
        };
        (self.table_play, seat, self.passes)
    }

    /// Whether the deal's first play, under the opening rule, is due.
    pub fn opening(&self) -> bool {
        self.opening
    }

    /// Cards played since the start (the start's table play included).
    pub fn played(&self) -> u64 {
        self.played
    }

    /// Cards out of play from the start.
    pub fn out(&self) -> u64 {
        self.out
    }

    /// What the deal started from besides the hands.
    pub fn origin(&self) -> &Origin {
        &self.origin
    }

    /// The cards `seat` cannot see: the other hands, less the lowest card while everyone knows
    /// that the seat to open holds it.
    pub fn hidden_from(&self, seat: usize) -> u64 {
        let mut others = 0;
        for (i, &h) in self.hands().iter().enumerate() {
            if i != seat {
                others |= h;
            }
        }
        if self.opening { others & !1 } else { others }
    }
}

/// Why `start` is no position of `table`'s rules (the checks that keep the engine sound; the
/// Python side explains a bad setup in more words first).
fn check(table: &Table, start: &Start) -> Result<(), String> {
    let n = start.hands.len();
    if !(2..=MAX_SEATS).contains(&n) {
        return Err(format!(
            "a climbing deal has 2 to {MAX_SEATS} seats, not {n}"
        ));
    }
    let mut seen = start.out | start.table & MASK;
    if start.out & start.table & MASK != 0 || start.out & !MASK != 0 {
        return Err("the cards out and the table play overlap".into());
    }
    for &h in &start.hands {
        if h & seen != 0 || h & !MASK != 0 {
            return Err("a card is in two places".into());
        }
        seen |= h;
    }
    if seen != MASK {
        return Err("the deal does not hold the 52 cards".into());
    }
    let active = start.hands.iter().filter(|&&h| h != 0).count();
    let empty = n - active;
    if active < 2 || (table.rules.ends_at_first_out && empty > 0) {
        return Err("too few seats hold cards".into());
    }
    let mut fin = start.finished.clone();
    fin.sort_unstable();
    let empties: Vec<u8> = (0..n as u8)
        .filter(|&i| start.hands[usize::from(i)] == 0)
        .collect();
    if fin != empties {
        return Err("finished must list the seats with no cards, each once".into());
    }
    let seat_ok = |s: i64| (0..n as i64).contains(&s);
    if start.table != 0 {
        let mut plays = Vec::new();
        table.hand_plays(start.table & MASK, &mut plays);
        if plays.binary_search(&start.table).is_err() {
            return Err("the table play is no play of this variant".into());
        }
        if start.leader.is_some() || !seat_ok(start.table_seat.into()) {
            return Err("a trick needs its table seat and no leader".into());
        }
        let ts = start.table_seat as usize;
        let answering = active - usize::from(start.hands[ts] != 0);
        if usize::from(start.passes) >= answering {
            return Err("too many passes".into());
        }
    } else if let Some(leader) = start.leader {
        if !seat_ok(leader.into()) || start.hands[usize::from(leader)] == 0 {
            return Err("the leader must be a seat holding cards".into());
        }
    } else if !start.hands.iter().any(|&h| h & 1 != 0) {
        return Err("no hand holds the lowest card".into());
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::climbing::rules::Rules;
    use crate::test_support::climbing::{by_suit_place, single};

    #[test]
    fn the_holder_of_the_lowest_card_opens_and_must_play_it() {
        let mut s = by_suit_place(Rules::big_two_4card());
        assert_eq!(s.current_player(), 0);
        let mut legal = Vec::new();
        s.legal_actions(&mut legal);
        assert_eq!(legal, vec![1 << SIZE_SHIFT | 1]);
        assert_eq!(s.apply(PASS), Err(Illegal::MustPlay));
        s.apply(legal[0]).unwrap();
        assert_eq!(s.current_player(), 1);
        assert_eq!(s.history(), &[(0, legal[0])]);
    }

    /// Seat i holds `hands[i]`, every other card is out, and `leader` leads freely.
    fn position(rules: Rules, hands: [u64; 4], leader: u8) -> State {
        let out = MASK & !hands.iter().fold(0, |m, h| m | h);
        let start = Start {
            hands: hands.to_vec(),
            leader: Some(leader),
            out,
            table_seat: -1,
            ..Start::default()
        };
        State::new(Arc::new(Table::new(rules)), &start).unwrap()
    }

    #[test]
    fn each_refusal_says_which_rule() {
        let mut rules = Rules::big_two();
        rules.pass_only_if_no_legal_play = true;
        // P0: key bits 4 and 8; P1: 5 and a pair (bits 12, 13); P2: 9; P3: 20.
        let mut s = position(
            rules,
            [1 << 4 | 1 << 8, 1 << 5 | 3 << 12, 1 << 9, 1 << 20],
            0,
        );
        assert_eq!(s.apply(PASS), Err(Illegal::MustPlay));
        assert_eq!(s.apply(single(5)), Err(Illegal::NotHeld(1 << 5)));
        assert_eq!(s.apply(1 << 4 | 1 << 8), Err(Illegal::NotAPlay));
        s.apply(single(4)).unwrap();
        assert_eq!(s.apply(PASS), Err(Illegal::CannotPass)); // P1 can beat it with bit 5
        let pair = 2 << SIZE_SHIFT | 13 << STRENGTH_SHIFT | 3 << 12;
        assert_eq!(s.apply(pair), Err(Illegal::WrongSize));
        s.apply(single(5)).unwrap();
        assert_eq!(s.current_player(), 2);
        s.apply(single(9)).unwrap(); // P2 goes out: big-two ends at the first out
        assert!(s.is_over());
        assert_eq!(s.finished(), &[2]);
        assert_eq!(s.returns(), &[-1.0, -2.0, 0.0, -1.0]);
        assert!(s.returns()[2].is_sign_positive()); // 0, never -0 (it would print "-0")
        assert_eq!(s.apply(PASS), Err(Illegal::Over));
    }

    #[test]
    fn a_weaker_play_and_a_missing_opening_card_are_refused() {
        let mut s = by_suit_place(Rules::big_two());
        // P0 holds every bit ≡ 0 (mod 4), the lowest card (bit 0) among them.
        assert_eq!(s.apply(single(4)), Err(Illegal::OpeningMustInclude));
        s.apply(single(0)).unwrap();
        s.apply(single(1)).unwrap();
        assert_eq!(s.apply(PASS), Ok(()));
        assert_eq!(s.current_player(), 3);
        assert_eq!(s.apply(single(3)), Ok(()));
        assert_eq!(s.apply(single(4)), Ok(()));
        assert_eq!(s.apply(single(5)), Ok(()));
        assert_eq!(s.current_player(), 2);
        assert_eq!(s.apply(single(2)), Err(Illegal::NotBeating));
    }

    #[test]
    fn placement_scoring_plays_on_until_one_seat_is_left() {
        let mut s = position(
            Rules::pusoy_dos(),
            [1 << 4, 1 << 5, 1 << 6, 1 << 7 | 1 << 8],
            0,
        );
        for k in [4, 5, 6] {
            s.apply(single(k)).unwrap();
        }
        assert!(s.is_over());
        assert_eq!(s.finished(), &[0, 1, 2, 3]);
        assert_eq!(s.returns(), &[3.0, 2.0, 1.0, 0.0]);
    }

    #[test]
    fn penalties_and_counts() {
        use crate::climbing::rules::penalty;
        assert_eq!(
            (0..=13).map(penalty).collect::<Vec<_>>(),
            [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 20, 22, 24, 39]
        );
        let mut s = position(
            Rules::big_two_4card(),
            [1 << 4, 3 << 8, 1 << 12, 7 << 16],
            0,
        );
        s.apply(single(4)).unwrap();
        assert_eq!(s.returns(), &[6.0, -2.0, -1.0, -3.0]);
    }

    #[test]
    fn bad_starts_are_refused() {
        let table = Arc::new(Table::new(Rules::big_two()));
        let start = Start {
            hands: vec![MASK, 0, 0, 0],
            ..Start::default()
        };
        assert!(State::new(table.clone(), &start).is_err());
        let start = Start {
            hands: vec![MASK, MASK, 0, 0],
            ..Start::default()
        };
        assert!(State::new(table, &start).is_err());
    }

    #[test]
    fn a_replayed_move_is_checked_but_not_looked_up_among_plays_not_yet_listed() {
        let rules = Rules::big_two_4card();
        let mut state = by_suit_place(rules.clone());
        let p = state.current_player() as usize;
        let hand = state.hands()[p];
        // Two cards of the hand that make no play: not a play, though held.
        let low = hand & hand.wrapping_neg();
        let high = 1u64 << (63 - hand.leading_zeros());
        let not_a_play = (2u64 << SIZE_SHIFT) | low | high;
        assert_eq!(state.clone().apply(not_a_play), Err(Illegal::NotAPlay));
        // A replay does not look it up, the seat's plays not being listed yet (a proven history
        // holds only plays): the next check stops it, the opening's rule of a single.
        assert_eq!(
            state.clone().replay(not_a_play),
            Err(Illegal::OpeningSingle)
        );
        // Cards not held are refused either way, and nothing changes.
        let before = state.clone();
        let foreign = state.hands()[(p + 1) % 4] & state.hands()[(p + 1) % 4].wrapping_neg();
        let single = (1u64 << SIZE_SHIFT) | foreign;
        assert!(matches!(state.replay(single), Err(Illegal::NotHeld(_))));
        assert_eq!(state.hands(), before.hands());
        assert_eq!(state.history(), before.history());
        // A replayed play (the opening one) is taken as apply takes it.
        let mut legal = Vec::new();
        let mut applied = state.clone();
        applied.legal_actions(&mut legal);
        let opening = legal[0];
        applied.apply(opening).unwrap();
        state.replay(opening).unwrap();
        assert_eq!(state.hands(), applied.hands());
        assert_eq!(state.current_player(), applied.current_player());
        state.legal_actions(&mut legal);
        let mut listed = Vec::new();
        applied.legal_actions(&mut listed);
        assert_eq!(legal, listed);
    }
}
