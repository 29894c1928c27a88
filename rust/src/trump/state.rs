//! One deal of the trump games: robbing the trump, five tricks, jinking.
//!
//! Cards are indices `rank * 4 + suit` (ranks 2..A as 0..12, suits C D H S as 0..3) and hands
//! are 52-bit masks; the trump suit (and whether the ace of trumps was demoted) selects a
//! precomputed power table, so legality and trick winners are a few integer operations. The
//! variant comes in as data ([`Rules`]): flags and a scoring table, never a branch on its name.
//!
//! Moves are the packed ints of the Python package: `0..52` plays that card, `ROB_BASE + c`
//! robs discarding `c`, then [`KEEP`], [`SILENT`], [`JINK`], [`STOP`] and [`HIDDEN_ROB`] (the
//! form other seats see of a rob).

use super::tables::{ACE_OF_TRUMPS, DECK, PLAIN_MASK, POWER, RENEGERS, TRUMP_MASK, trick_winner};

/// The most seats a deal has (Spoil Five, 10 players).
pub const MAX_SEATS: usize = 10;
/// Cards each player is dealt.
pub const HAND_SIZE: u32 = 5;
/// Tricks in a deal.
pub const TRICKS: u8 = 5;
/// `current_player` once the deal is over.
pub const TERMINAL: i8 = -1;

pub const ROB_BASE: u16 = 64;
pub const KEEP: u16 = 128;
pub const SILENT: u16 = 129;
pub const JINK: u16 = 130;
pub const STOP: u16 = 131;
pub const HIDDEN_ROB: u16 = 132;

/// The longest history: a robbing turn per seat, five tricks and a jink.
pub const MAX_HISTORY: usize = 6 * MAX_SEATS + 1;

/// Deals `deck` (card indices, top first): packets of three then two from the dealer's left,
/// ending with the dealer; then the next card is turned up. The hands as masks (`players` of
/// them) and the turn-up; None unless `players` is 1 to [`MAX_SEATS`], `dealer` one of them
/// and the deck long enough.
pub fn deal(deck: &[u8], players: usize, dealer: usize) -> Option<([u64; MAX_SEATS], u8)> {
    if !(1..=MAX_SEATS).contains(&players) || dealer >= players {
        return None;
    }
    let mut hands = [0u64; MAX_SEATS];
    let mut cards = deck.iter();
    for packet in [3, 2] {
        for i in 1..=players {
            let seat = (dealer + i) % players;
            for _ in 0..packet {
                hands[seat] |= 1u64 << (cards.next()? % 64);
            }
        }
    }
    Some((hands, *cards.next()?))
}

/// Whether `v` is one of the game's moves (a value the Python package names).
pub fn is_move(v: i64) -> bool {
    (0..52).contains(&v) || (64..116).contains(&v) || (128..=132).contains(&v)
}

/// The stage of a deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u8)]
pub enum Phase {
    /// Robbing turns before the opening lead.
    Rob = 0,
    Play = 1,
    /// Spoil Five: the taker of the first three tricks chooses to jink or stop.
    Jink = 2,
    Over = 3,
}

/// How a finished deal scores.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scoring {
    /// Forty-Five: two sides (even and odd seats); `points[tricks]` for a side's tricks.
    Sides { points: [i32; 6] },
    /// Spoil Five: everyone paid `ante` into the pool; its taker takes it (and an ante from
    /// every other seat after a jink that took all five).
    Pool { ante: i32 },
}

/// What differs between the variants inside one deal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// The holder of the ace of trumps may stay silent; the ace then ranks lowest trump.
    pub silent_ace: bool,
    /// A dealer who robs a turned ace takes it at once instead of after trick 1.
    pub immediate_pickup: bool,
    /// The deal ends when a player takes a third trick (Spoil Five).
    pub stop_at_three: bool,
    /// A player who takes the first three tricks may jink (play for all five) or stop.
    pub jinking: bool,
    pub scoring: Scoring,
}

/// Why a move is refused; the state is then unchanged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Illegal {
    /// The value is no move of the game.
    NotAMove,
    Over,
    /// A card that is not in the player's hand.
    NotHeld,
    /// The dealer's robbed turned ace, before trick 1 is over.
    AceNotYet,
    /// A trump was led and the player holds a trump it must play.
    MustTrump,
    /// A plain suit was led and the player holds a card of it.
    MustFollow,
    /// A card played during the robbing.
    RobFirst,
    /// A rob, keep or jink by a seat that does not hold the ace of trumps.
    OnlyHolder,
    /// A rob discarding a card not in the hand.
    DiscardNotHeld,
    /// A rob that does not name the discard.
    NameDiscard,
    /// `silent` where it is not allowed.
    MustRobOrKeep,
    /// Any other move during the robbing.
    RobOrKeep,
    /// Anything but jink or stop after taking the first three tricks.
    JinkOrStop,
    /// A move of the robbing once the play has begun.
    RobbingOver,
}

/// One deal in progress.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    pub(super) rules: Rules,
    pub(super) n: u8,
    pub(super) turn_up: u8,
    pub(super) trump: u8,
    dealer: u8,
    pub(super) leader: u8,
    pub(super) phase: Phase,
    pub(super) current: i8,
    /// The seat that holds the ace of trumps (the dealer for a turned ace), or -1.
    ace_holder: i8,
    /// Robbing turns left (silent option: every seat gets one).
    rob_turns: u8,
    pub(super) robber: i8,
    pub(super) discard: i8,
    keeper: i8,
    jinker: i8,
    /// The seat that takes the pool (Spoil Five), -1 for a spoil.
    pub(super) taker: i8,
    pending_ace: bool,
    pub(super) demoted: bool,
    trick_len: u8,
    tricks_played: u8,
    history_len: u8,
    pool: f64,
    pub(super) hands: [u64; MAX_SEATS],
    /// Every card played to a trick.
    pub(super) played: u64,
    trick: [u8; MAX_SEATS],
    trick_winners: [u8; TRICKS as usize],
    tricks_won: [u8; MAX_SEATS],
    /// `(seat, move)` pairs.
    history: [(u8, u8); MAX_HISTORY],
}

/// What one seat sees of a deal (its own hand and everything public).
#[derive(Clone, Debug, PartialEq)]
pub struct View {
    pub current_player: i8,
    pub hand: u64,
    pub hand_sizes: [u8; MAX_SEATS],
    pub phase: Phase,
    pub leader: u8,
    pub trick: [u8; MAX_SEATS],
    pub trick_len: u8,
    pub announced: i8,
    pub robber: i8,
    pub ace_pending: bool,
    pub ace_demoted: bool,
    pub jinker: i8,
    /// The position in the history of another seat's rob, shown without its discard.
    pub hidden_rob: Option<usize>,
}

impl State {
    /// A deal from the dealt `hands` (masks), the `turn_up` card, the `dealer` and the `pool`
    /// (Spoil Five's chips at stake). Refuses what is no deal, with the reason.
    pub fn new(
        rules: Rules,
        hands: &[u64],
        turn_up: u8,
        dealer: u8,
        pool: f64,
    ) -> Result<State, String> {
        let n = hands.len();
        if !(2..=MAX_SEATS).contains(&n) {
            return Err(format!("a deal has 2 to {MAX_SEATS} hands, not {n}"));
        }
        if turn_up >= 52 {
            return Err(format!("the turn-up {turn_up} is no card index 0..51"));
        }
        if usize::from(dealer) >= n {
            return Err(format!("the dealer {dealer} is no seat 0..{}", n - 1));
        }
        let mut seen = 1u64 << turn_up;
        for (seat, &hand) in hands.iter().enumerate() {
            if hand & !DECK != 0 || hand.count_ones() != HAND_SIZE {
                return Err(format!("P{seat}'s hand is not {HAND_SIZE} cards"));
            }
            if hand & seen != 0 {
                return Err(format!("P{seat}'s hand repeats a card dealt elsewhere"));
            }
            seen |= hand;
        }
        let mut state = State {
            rules,
            n: n as u8,
            turn_up,
            trump: turn_up & 3,
            dealer,
            leader: ((usize::from(dealer) + 1) % n) as u8,
            phase: Phase::Play,
            current: 0,
            ace_holder: -1,
            rob_turns: 0,
            robber: -1,
            discard: -1,
            keeper: -1,
            jinker: -1,
            taker: -1,
            pending_ace: false,
            demoted: false,
            trick_len: 0,
            tricks_played: 0,
            history_len: 0,
            pool,
            hands: [0; MAX_SEATS],
            played: 0,
            trick: [0; MAX_SEATS],
            trick_winners: [0; TRICKS as usize],
            tricks_won: [0; MAX_SEATS],
            history: [(0, 0); MAX_HISTORY],
        };
        state.hands[..n].copy_from_slice(hands);
        state.start_robbing();
        Ok(state)
    }

    fn start_robbing(&mut self) {
        let ace = ACE_OF_TRUMPS[usize::from(self.trump)];
        if self.turn_up == ace {
            // A turned ace: only the dealer may rob it.
            self.ace_holder = self.dealer as i8;
            self.phase = Phase::Rob;
            self.current = self.dealer as i8;
            return;
        }
        self.ace_holder = self
            .hands()
            .iter()
            .position(|h| h >> ace & 1 != 0)
            .map_or(-1, |s| s as i8);
        if self.rules.silent_ace {
            // Every seat gets a turn, so a silent holder is not given away by whose turn it is.
            self.rob_turns = self.n;
            self.phase = Phase::Rob;
            self.current = self.leader as i8;
        } else if self.ace_holder >= 0 {
            self.phase = Phase::Rob;
            self.current = self.ace_holder;
        } else {
            self.phase = Phase::Play;
            self.current = self.leader as i8;
        }
    }

    // -- reading ---------------------------------------------------------------------------
    pub fn rules(&self) -> &Rules {
        &self.rules
    }
    pub fn players(&self) -> usize {
        usize::from(self.n)
    }
    pub fn hands(&self) -> &[u64] {
        &self.hands[..usize::from(self.n)]
    }
    pub fn current_player(&self) -> i8 {
        self.current
    }
    pub fn is_over(&self) -> bool {
        self.phase == Phase::Over
    }
    pub fn phase(&self) -> Phase {
        self.phase
    }
    pub fn turn_up(&self) -> u8 {
        self.turn_up
    }
    pub fn trump(&self) -> u8 {
        self.trump
    }
    pub fn dealer(&self) -> u8 {
        self.dealer
    }
    pub fn leader(&self) -> u8 {
        self.leader
    }
    pub fn robber(&self) -> i8 {
        self.robber
    }
    pub fn discard(&self) -> i8 {
        self.discard
    }
    pub fn keeper(&self) -> i8 {
        self.keeper
    }
    pub fn jinker(&self) -> i8 {
        self.jinker
    }
    pub fn taker(&self) -> i8 {
        self.taker
    }
    pub fn pool(&self) -> f64 {
        self.pool
    }
    pub fn pending_ace(&self) -> bool {
        self.pending_ace
    }
    pub fn demoted(&self) -> bool {
        self.demoted
    }
    /// The cards of the trick in progress, from its leader on.
    pub fn trick(&self) -> &[u8] {
        &self.trick[..usize::from(self.trick_len)]
    }
    /// The seat that took each finished trick.
    pub fn trick_winners(&self) -> &[u8] {
        &self.trick_winners[..usize::from(self.tricks_played)]
    }
    pub fn tricks_won(&self) -> &[u8] {
        &self.tricks_won[..usize::from(self.n)]
    }
    /// Every card played to a trick so far.
    pub fn played(&self) -> u64 {
        self.played
    }
    /// `(seat, move)` so far.
    pub fn history(&self) -> &[(u8, u8)] {
        &self.history[..usize::from(self.history_len)]
    }
    fn power(&self) -> &'static [u8; 52] {
        &POWER[usize::from(self.demoted)][usize::from(self.trump)]
    }

    // -- legality --------------------------------------------------------------------------
    /// The cards the player to move may play (phase: play).
    pub fn play_mask(&self) -> u64 {
        if self.current < 0 {
            return 0;
        }
        let hand = self.hands[self.current as usize];
        if self.trick_len == 0 {
            return hand;
        }
        let t = usize::from(self.trump);
        let led = self.trick[0];
        let tmask = TRUMP_MASK[t];
        if tmask >> led & 1 != 0 {
            let trumps = hand & tmask;
            if trumps == 0 {
                return hand;
            }
            let power = self.power();
            let led_power = power[usize::from(led)];
            let mut privileged = 0;
            for c in RENEGERS[t] {
                if power[usize::from(c)] > led_power {
                    privileged |= 1 << c;
                }
            }
            return if trumps & !privileged != 0 {
                trumps
            } else {
                hand
            };
        }
        let follow = PLAIN_MASK[t][usize::from(led & 3)];
        if hand & follow != 0 {
            hand & (follow | tmask)
        } else {
            hand
        }
    }

    fn rob_legal(&self, v: u16) -> bool {
        let seat = self.current;
        if seat != self.ace_holder {
            return v == SILENT;
        }
        let hand = self.hands[seat as usize];
        match v {
            KEEP => true,
            SILENT => self.silent_allowed(),
            _ => (ROB_BASE..ROB_BASE + 52).contains(&v) && hand >> (v - ROB_BASE) & 1 != 0,
        }
    }

    fn silent_allowed(&self) -> bool {
        // The dealer of a turned ace holds nothing to demote, so silence means nothing there.
        self.rules.silent_ace && self.turn_up != ACE_OF_TRUMPS[usize::from(self.trump)]
    }

    /// The legal moves of the player to move, in the Python engine's order, into `out`.
    pub fn legal_actions(&self, out: &mut Vec<u16>) {
        out.clear();
        match self.phase {
            Phase::Play => push_bits(self.play_mask(), 0, out),
            Phase::Rob => {
                let seat = self.current;
                if seat != self.ace_holder {
                    out.push(SILENT);
                    return;
                }
                push_bits(self.hands[seat as usize], ROB_BASE, out);
                out.push(KEEP);
                if self.silent_allowed() {
                    out.push(SILENT);
                }
            }
            Phase::Jink => out.extend([JINK, STOP]),
            Phase::Over => {}
        }
    }

    /// Why `v` is refused now, or `None` if it is legal.
    pub fn check(&self, v: i64) -> Option<Illegal> {
        if !is_move(v) {
            return Some(Illegal::NotAMove);
        }
        let v = v as u16;
        match self.phase {
            Phase::Play if v < 52 => {
                if self.play_mask() >> v & 1 != 0 {
                    None
                } else {
                    Some(self.why_not(v as u8))
                }
            }
            Phase::Rob => {
                if self.rob_legal(v) {
                    None
                } else {
                    Some(self.why_not_rob(v))
                }
            }
            Phase::Jink if v == JINK || v == STOP => None,
            Phase::Over => Some(Illegal::Over),
            Phase::Jink => Some(Illegal::JinkOrStop),
            Phase::Play => Some(Illegal::RobbingOver),
        }
    }

    fn why_not(&self, card: u8) -> Illegal {
        let seat = self.current as usize;
        if self.hands[seat] >> card & 1 == 0 {
            if self.pending_ace && card == self.turn_up && seat == usize::from(self.dealer) {
                return Illegal::AceNotYet;
            }
            return Illegal::NotHeld;
        }
        if TRUMP_MASK[usize::from(self.trump)] >> self.trick[0] & 1 != 0 {
            Illegal::MustTrump
        } else {
            Illegal::MustFollow
        }
    }

    fn why_not_rob(&self, v: u16) -> Illegal {
        if v < 52 {
            Illegal::RobFirst
        } else if self.current != self.ace_holder {
            Illegal::OnlyHolder
        } else if (ROB_BASE..ROB_BASE + 52).contains(&v) {
            Illegal::DiscardNotHeld
        } else if v == HIDDEN_ROB {
            Illegal::NameDiscard
        } else if v == SILENT {
            Illegal::MustRobOrKeep
        } else {
            Illegal::RobOrKeep
        }
    }

    // -- moving ----------------------------------------------------------------------------
    /// Play move `v` for the player to move; refused moves leave the state unchanged.
    pub fn apply(&mut self, v: i64) -> Result<(), Illegal> {
        if let Some(illegal) = self.check(v) {
            return Err(illegal);
        }
        let v = v as u16;
        let seat = self.current as u8;
        self.history[usize::from(self.history_len)] = (seat, v as u8);
        self.history_len += 1;
        match self.phase {
            Phase::Play => self.play(seat, v as u8),
            Phase::Rob => self.rob(seat, v),
            Phase::Jink => {
                if v == JINK {
                    self.jinker = seat as i8;
                    self.phase = Phase::Play;
                } else {
                    self.finish(seat as i8);
                }
            }
            Phase::Over => {}
        }
        Ok(())
    }

    fn end_robbing(&mut self) {
        self.phase = Phase::Play;
        self.current = self.leader as i8;
    }

    fn rob(&mut self, seat: u8, v: u16) {
        let ace = ACE_OF_TRUMPS[usize::from(self.trump)];
        match v {
            SILENT => {
                self.rob_turns = self.rob_turns.saturating_sub(1);
                if self.rob_turns == 0 {
                    // Nobody robbed or announced: the ace of trumps ranks lowest for the deal,
                    // even when it lies in the pack, so the demotion tells nobody anything.
                    self.demoted = true;
                    self.end_robbing();
                } else {
                    self.current = ((seat + 1) % self.n) as i8;
                }
            }
            KEEP => {
                self.keeper = seat as i8;
                self.end_robbing();
            }
            _ => {
                let card = (v - ROB_BASE) as u8;
                self.robber = seat as i8;
                self.discard = card as i8;
                let mut hand = self.hands[usize::from(seat)] & !(1 << card);
                if self.turn_up == ace && !self.rules.immediate_pickup {
                    self.pending_ace = true;
                } else {
                    hand |= 1 << self.turn_up;
                }
                self.hands[usize::from(seat)] = hand;
                self.end_robbing();
            }
        }
    }

    fn play(&mut self, seat: u8, card: u8) {
        self.hands[usize::from(seat)] &= !(1 << card);
        self.played |= 1 << card;
        self.trick[usize::from(self.trick_len)] = card;
        self.trick_len += 1;
        if self.trick_len < self.n {
            self.current = ((seat + 1) % self.n) as i8;
            return;
        }
        let position = trick_winner(self.trick(), self.power());
        let winner = (self.leader + position as u8) % self.n;
        self.trick_len = 0;
        self.trick_winners[usize::from(self.tricks_played)] = winner;
        self.tricks_played += 1;
        self.tricks_won[usize::from(winner)] += 1;
        self.leader = winner;
        if self.pending_ace {
            self.pending_ace = false;
            self.hands[usize::from(self.dealer)] |= 1 << self.turn_up;
        }
        self.current = winner as i8;
        self.after_trick(winner);
    }

    fn after_trick(&mut self, winner: u8) {
        let played = self.tricks_played;
        if self.rules.stop_at_three {
            if self.jinker >= 0 {
                if winner as i8 != self.jinker {
                    self.finish(-1); // the jink failed: a spoil
                } else if played == TRICKS {
                    self.finish(winner as i8);
                }
                return;
            }
            if self.tricks_won[usize::from(winner)] == 3 {
                if self.rules.jinking && played == 3 {
                    self.phase = Phase::Jink;
                } else {
                    self.finish(winner as i8);
                }
                return;
            }
        }
        if played == TRICKS {
            self.finish(-1);
        }
    }

    fn finish(&mut self, taker: i8) {
        self.taker = taker;
        self.phase = Phase::Over;
        self.current = TERMINAL;
    }

    // -- results and views -----------------------------------------------------------------
    /// Each seat's score for the deal (zeros until it is over), into `out[..players]`.
    pub fn returns_into(&self, out: &mut [f64; MAX_SEATS]) {
        *out = [0.0; MAX_SEATS];
        if self.phase != Phase::Over {
            return;
        }
        let n = usize::from(self.n);
        match self.rules.scoring {
            Scoring::Sides { points } => {
                let mut won = [0usize; 2];
                for (seat, &k) in self.tricks_won().iter().enumerate() {
                    won[seat % 2] += usize::from(k);
                }
                for (seat, r) in out[..n].iter_mut().enumerate() {
                    *r = f64::from(points[won[seat % 2]]);
                }
            }
            Scoring::Pool { ante } => {
                for r in out[..n].iter_mut() {
                    *r = -f64::from(ante);
                }
                if self.taker >= 0 {
                    let taker = self.taker as usize;
                    out[taker] += self.pool;
                    if self.jinker == self.taker {
                        for seat in (0..n).filter(|&s| s != taker) {
                            out[seat] -= f64::from(ante);
                            out[taker] += f64::from(ante);
                        }
                    }
                }
            }
        }
    }

    pub fn returns(&self) -> Vec<f64> {
        let mut out = [0.0; MAX_SEATS];
        self.returns_into(&mut out);
        out[..usize::from(self.n)].to_vec()
    }

    /// The cards `seat` can neither see nor deduce: other hands, the pack under the turn-up,
    /// other seats' discards (the turn-up is public wherever it goes).
    pub fn hidden_from(&self, seat: usize) -> u64 {
        let mut known = self.hands[seat] | 1 << self.turn_up | self.played;
        if self.robber == seat as i8 {
            known |= 1 << self.discard;
        }
        DECK & !known
    }

    /// Where every card is: `(played, turn_up, discards, stock)` beside the hands, disjoint and
    /// covering the deck with them.
    pub fn zones(&self) -> (u64, u64, u64, u64) {
        let mut held = self.played;
        for h in self.hands() {
            held |= h;
        }
        let turn_up = if held >> self.turn_up & 1 != 0 {
            0
        } else {
            1 << self.turn_up
        };
        let discards = if self.discard < 0 {
            0
        } else {
            1 << self.discard
        };
        (
            self.played,
            turn_up,
            discards,
            DECK & !(held | turn_up | discards),
        )
    }

    /// What `seat` sees (`seat` < players).
    pub fn view(&self, seat: usize) -> View {
        let mut hand_sizes = [0; MAX_SEATS];
        for (size, h) in hand_sizes.iter_mut().zip(self.hands()) {
            *size = h.count_ones() as u8;
        }
        let hidden_rob = if self.robber >= 0 && self.robber != seat as i8 {
            self.history()
                .iter()
                .position(|&(_, a)| (ROB_BASE..ROB_BASE + 52).contains(&u16::from(a)))
        } else {
            None
        };
        View {
            current_player: self.current,
            hand: self.hands[seat],
            hand_sizes,
            phase: self.phase,
            leader: self.leader,
            trick: self.trick,
            trick_len: self.trick_len,
            announced: self.keeper,
            robber: self.robber,
            ace_pending: self.pending_ace,
            ace_demoted: self.demoted,
            jinker: self.jinker,
            hidden_rob,
        }
    }

    /// The history as `seat` sees it: another seat's rob without its discard.
    pub fn seen_history(&self, seat: usize) -> impl Iterator<Item = (u8, u16)> + '_ {
        let hidden = self.view(seat).hidden_rob;
        self.history().iter().enumerate().map(move |(i, &(s, a))| {
            if Some(i) == hidden {
                (s, HIDDEN_ROB)
            } else {
                (s, u16::from(a))
            }
        })
    }
}

fn push_bits(mut mask: u64, base: u16, out: &mut Vec<u16>) {
    while mask != 0 {
        out.push(base + mask.trailing_zeros() as u16);
        mask &= mask - 1;
    }
}

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::test_support::trump::{FORTY_FIVE, SPOIL_FIVE, card, cards, mask};
    use crate::trump::*;

    #[test]
    fn trump_order_matches_the_rules() {
        // Spades: 5S JS AH AS KS QS 2S 3S 4S 6S 7S 8S 9S 10S, highest first.
        let order = cards("5S JS AH AS KS QS 2S 3S 4S 6S 7S 8S 9S 10S");
        let power = &POWER[0][3];
        for pair in order.windows(2) {
            assert!(power[usize::from(pair[0])] > power[usize::from(pair[1])]);
        }
        assert_eq!(power[usize::from(card("10S"))], TRUMP_BASE + 1);
        // Plain diamonds: high in red, the ace lowest.
        let power = &POWER[0][0];
        assert!(power[usize::from(card("2D"))] > power[usize::from(card("AD"))]);
        assert_eq!(POWER[1][3][usize::from(card("AS"))], TRUMP_BASE);
        assert_eq!(trick_winner(&cards("KH QH AH 2C"), &POWER[0][0]), 2);
    }

    /// The orders of RULES.md 3.2 (those of the Python package's ranking.py), highest first:
    /// each card's power is its place counted from the bottom (trumps from `TRUMP_BASE + 1`).
    #[test]
    fn every_power_table_is_the_rules_order() {
        let trumps = [
            "5C JC AH AC KC QC 2C 3C 4C 6C 7C 8C 9C 10C",
            "5D JD AH AD KD QD 10D 9D 8D 7D 6D 4D 3D 2D",
            "5H JH AH KH QH 10H 9H 8H 7H 6H 4H 3H 2H",
            "5S JS AH AS KS QS 2S 3S 4S 6S 7S 8S 9S 10S",
        ];
        let plain = [
            "KC QC JC AC 2C 3C 4C 5C 6C 7C 8C 9C 10C",
            "KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D AD",
            "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
            "KS QS JS AS 2S 3S 4S 5S 6S 7S 8S 9S 10S",
        ];
        for trump in 0..4 {
            let mut expected = [0u8; 52];
            for order in plain {
                let order = cards(order);
                for (i, &c) in order.iter().enumerate() {
                    expected[usize::from(c)] = (order.len() - i) as u8;
                }
            }
            let order = cards(trumps[trump]);
            let mut mask = 0;
            for (i, &c) in order.iter().enumerate() {
                expected[usize::from(c)] = TRUMP_BASE + (order.len() - i) as u8;
                mask |= 1 << c;
            }
            assert_eq!(POWER[0][trump], expected);
            assert_eq!(TRUMP_MASK[trump], mask);
            expected[usize::from(ACE_OF_TRUMPS[trump])] = TRUMP_BASE;
            assert_eq!(POWER[1][trump], expected);
            for suit in 0..4 {
                let follow = cards(plain[suit]).iter().fold(0u64, |m, &c| m | 1 << c) & !mask;
                assert_eq!(PLAIN_MASK[trump][suit], follow);
            }
        }
    }

    #[test]
    fn robbing_then_reneging() {
        let hands = [
            mask("5S 3S 7D 8C 9H"),
            mask("KS 2D 3D 4D 5D"),
            mask("6S 7S 8S 9S 10S"),
            mask("AS 4C 6C 8H KC"),
        ];
        let mut s = State::new(FORTY_FIVE, &hands, card("2S"), 3, 0.0).unwrap();
        assert_eq!(s.current_player(), 3);
        let mut legal = Vec::new();
        s.legal_actions(&mut legal);
        assert_eq!(legal.last(), Some(&KEEP));
        assert_eq!(s.apply(i64::from(card("8C"))), Err(Illegal::RobFirst));
        assert_eq!(
            s.apply(i64::from(ROB_BASE) + 1),
            Err(Illegal::DiscardNotHeld)
        );
        s.apply(i64::from(ROB_BASE + u16::from(card("4C"))))
            .unwrap();
        assert_eq!(s.current_player(), 0);
        assert_eq!(s.hands()[3], mask("AS 2S KC 6C 8H"));
        assert_eq!(s.hidden_from(0) >> card("4C") & 1, 1);
        assert_eq!(s.hidden_from(3) >> card("4C") & 1, 0);
        // A trump led: P1 holds the king of trumps and must play it.
        s.apply(i64::from(card("3S"))).unwrap();
        assert_eq!(s.play_mask(), mask("KS"));
        assert_eq!(s.apply(i64::from(card("2D"))), Err(Illegal::MustTrump));
        assert_eq!(s.apply(i64::from(card("AH"))), Err(Illegal::NotHeld));
        assert_eq!(s.apply(200), Err(Illegal::NotAMove));
        assert_eq!(s.apply(-1), Err(Illegal::NotAMove));
        assert_eq!(s.apply(i64::from(KEEP)), Err(Illegal::RobbingOver));
    }

    #[test]
    fn spoil_five_three_tricks_take_the_pool() {
        let hands = [
            mask("5S JS KS 2C 3C"),
            mask("4D 5D 6D 7D 8D"),
            mask("4H 5H 6H 7H 8H"),
        ];
        let mut s = State::new(SPOIL_FIVE, &hands, card("2S"), 2, 9.0).unwrap();
        for c in cards("5S 4D 4H JS 5D 5H KS 6D 6H") {
            s.apply(i64::from(c)).unwrap();
        }
        assert!(s.is_over());
        assert_eq!(s.returns(), vec![8.0, -1.0, -1.0]);
        assert_eq!(s.apply(0), Err(Illegal::Over));
    }

    #[test]
    fn a_robbed_turned_ace_joins_the_hand_after_trick_one() {
        let hands = [mask("2C 3C 4C 5C 6C"), mask("7C 8C 9C 10C JC")];
        for (immediate_pickup, pending) in [(false, true), (true, false)] {
            let rules = Rules {
                immediate_pickup,
                ..FORTY_FIVE
            };
            let mut s = State::new(rules, &hands, card("AS"), 1, 0.0).unwrap();
            // Only the dealer may rob a turned ace, and it cannot stay silent.
            assert_eq!(s.current_player(), 1);
            s.apply(i64::from(ROB_BASE + u16::from(card("7C"))))
                .unwrap();
            assert_eq!(s.pending_ace(), pending);
            assert_eq!(s.hands()[1] >> card("AS") & 1, u64::from(!pending));
            s.apply(i64::from(card("2C"))).unwrap();
            if pending {
                assert_eq!(s.apply(i64::from(card("AS"))), Err(Illegal::AceNotYet));
            }
            s.apply(i64::from(card("8C"))).unwrap();
            assert!(!s.pending_ace());
            assert_eq!(s.hands()[1] >> card("AS") & 1, 1);
        }
    }

    #[test]
    fn an_ace_nobody_announces_ranks_lowest() {
        let rules = Rules {
            silent_ace: true,
            ..FORTY_FIVE
        };
        let hands = [mask("AS 3C 4C 5C 6C"), mask("2S 8C 9C 10C JC")];
        let mut s = State::new(rules, &hands, card("7S"), 1, 0.0).unwrap();
        // Every seat takes a robbing turn, from the dealer's left.
        assert_eq!(s.current_player(), 0);
        let mut legal = Vec::new();
        s.legal_actions(&mut legal);
        assert_eq!(legal.last(), Some(&SILENT));
        s.apply(i64::from(SILENT)).unwrap();
        assert_eq!(s.apply(i64::from(KEEP)), Err(Illegal::OnlyHolder));
        s.apply(i64::from(SILENT)).unwrap();
        assert!(s.demoted());
        // The two of trumps now beats the demoted ace.
        s.apply(i64::from(card("AS"))).unwrap();
        s.apply(i64::from(card("2S"))).unwrap();
        assert_eq!(s.trick_winners(), &[1]);
    }

    #[test]
    fn bad_deals_are_refused() {
        let hand = mask("2C 3C 4C 5C 6C");
        assert!(State::new(FORTY_FIVE, &[hand, hand], 51, 0, 0.0).is_err());
        assert!(State::new(FORTY_FIVE, &[hand], 51, 0, 0.0).is_err());
        assert!(State::new(FORTY_FIVE, &[hand, mask("7C 8C 9C 10C JC")], 52, 0, 0.0).is_err());
        assert!(State::new(FORTY_FIVE, &[hand, mask("7C 8C 9C 10C JC")], 51, 2, 0.0).is_err());
        assert!(State::new(FORTY_FIVE, &[hand, mask("7C 8C 9C 10C")], 51, 0, 0.0).is_err());
        assert!(
            State::new(
                FORTY_FIVE,
                &[hand, 1 << 60 | mask("7C 8C 9C 10C")],
                51,
                0,
                0.0
            )
            .is_err()
        );
        assert!(State::new(FORTY_FIVE, &[hand, mask("7C 8C 9C 10C 6C")], 51, 0, 0.0).is_err());
        assert!(State::new(FORTY_FIVE, &[hand, mask("7C 8C 9C 10C JC")], 0, 0, 0.0).is_err());
    }

    /// A small generator for the deals and choices of a property (xorshift).
    struct Rng(u64);

    impl Rng {
        fn below(&mut self, n: usize) -> usize {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 % n as u64) as usize
        }
    }

    fn deal(rng: &mut Rng, players: usize, rules: Rules, dealer: u8) -> State {
        let mut deck: Vec<u8> = (0..52).collect();
        for i in (1..52).rev() {
            deck.swap(i, rng.below(i + 1));
        }
        let hands: Vec<u64> = (0..players)
            .map(|s| deck[s * 5..s * 5 + 5].iter().fold(0, |m, &c| m | 1 << c))
            .collect();
        State::new(
            rules,
            &hands,
            deck[players * 5],
            dealer % players as u8,
            10.0,
        )
        .unwrap()
    }

    /// Every card named in what `seat` sees.
    fn mentioned(s: &State, seat: usize) -> u64 {
        let view = s.view(seat);
        let mut m = view.hand | 1 << s.turn_up();
        for &c in &view.trick[..usize::from(view.trick_len)] {
            m |= 1 << c;
        }
        for (_, a) in s.seen_history(seat) {
            if a < 52 {
                m |= 1 << a;
            } else if (ROB_BASE..ROB_BASE + 52).contains(&a) {
                m |= 1 << (a - ROB_BASE);
            }
        }
        m
    }

    proptest! {
        #[test]
        fn random_play_keeps_every_invariant(
            seed in 1u64..u64::MAX,
            players in 2usize..=10,
            silent_ace: bool,
            immediate_pickup: bool,
            spoil: bool,
            jinking: bool,
            dealer in 0u8..10,
        ) {
            let players = if spoil { players } else { [2, 4, 6][players % 3] };
            let rules = Rules {
                silent_ace,
                immediate_pickup,
                stop_at_three: spoil,
                jinking: spoil && jinking,
                scoring: if spoil {
                    Scoring::Pool { ante: 1 }
                } else {
                    Scoring::Sides { points: [0, 0, 0, 5, 15, 25] }
                },
            };
            let mut rng = Rng(seed);
            let mut s = deal(&mut rng, players, rules, dealer);
            let mut legal = Vec::new();
            while !s.is_over() {
                // 52 cards accounted for, none in two places.
                let (played, turn_up, discards, stock) = s.zones();
                let mut seen = 0u64;
                let mut count = 0;
                for m in s.hands().iter().copied().chain([played, turn_up, discards, stock]) {
                    prop_assert_eq!(seen & m, 0);
                    seen |= m;
                    count += m.count_ones();
                }
                prop_assert_eq!(seen, DECK);
                prop_assert_eq!(count, 52);
                for seat in 0..players {
                    prop_assert_eq!(mentioned(&s, seat) & s.hidden_from(seat), 0);
                }
                s.legal_actions(&mut legal);
                prop_assert!(!legal.is_empty());
                for &a in &legal {
                    let mut other = s.clone();
                    prop_assert_eq!(other.apply(i64::from(a)), Ok(()));
                }
                // Moves that are not legal are refused and change nothing.
                let before = s.clone();
                for v in -2..140 {
                    if !legal.contains(&(v as u16)) || v < 0 {
                        prop_assert!(s.apply(v).is_err());
                        prop_assert_eq!(&s, &before);
                    }
                }
                let a = legal[rng.below(legal.len())];
                s.apply(i64::from(a)).unwrap();
            }
            let returns = s.returns();
            if spoil {
                let total: f64 = returns.iter().sum();
                let won = if s.taker() >= 0 { 10.0 } else { 0.0 };
                prop_assert_eq!(total, won - players as f64);
            } else {
                prop_assert!(returns.iter().enumerate().all(|(i, &r)| r == returns[i % 2]));
            }
            prop_assert!(s.history().len() <= 6 * players + 1);
        }
    }

    /// `variants._deal` of the deck `random.Random(seed).shuffle(list(range(52)))` leaves, from the
    /// pure-Python package: `(seed, players, dealer, hands, turn_up)`.
    const KNOWN_DEALS: &[(i128, usize, usize, &[u64], u8)] = &[
        (
            2024,
            4,
            3,
            &[274877907361, 567348570357764, 402654728, 1425001429598208],
            1,
        ),
        (
            7,
            10,
            0,
            &[
                283708393521152,
                620622905346,
                5497558174720,
                70368811827201,
                1125900041126176,
                17875653894148,
                175926709059584,
                137453637632,
                8814615068736,
                2814749767106712,
            ],
            9,
        ),
        (
            -99,
            6,
            2,
            &[
                671089676,
                281474977497153,
                88029651795970,
                2287155985514496,
                140742051889664,
                5498636075136,
            ],
            4,
        ),
    ];

    #[test]
    fn seeded_deals_are_the_python_ones() {
        for &(seed, players, dealer, hands, turn_up) in KNOWN_DEALS {
            let mut deck: Vec<u8> = (0..52).collect();
            assert!(crate::pyrandom::shuffle_seeded(seed, &mut deck));
            let (got, up) = super::deal(&deck, players, dealer).unwrap();
            assert_eq!(&got[..players], hands, "seed {seed}");
            assert!(got[players..].iter().all(|&h| h == 0));
            assert_eq!(up, turn_up, "seed {seed}");
        }
    }

    #[test]
    fn impossible_deals_are_refused() {
        let deck: Vec<u8> = (0..52).collect();
        assert!(super::deal(&deck, 0, 0).is_none());
        assert!(super::deal(&deck, 11, 0).is_none());
        assert!(super::deal(&deck, 4, 4).is_none());
        assert!(super::deal(&deck[..20], 4, 0).is_none());
        assert!(super::deal(&deck[..21], 4, 0).is_some());
        assert!(super::deal(&deck, 10, 9).is_some());
    }
}
