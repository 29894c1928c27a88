//! The Irish trump games: `forty-five` and `spoil-five` (RULES.md section 3).
//!
//! One deal: robbing the trump, five tricks, jinking. Cards are indices `rank * 4 + suit`
//! (ranks 2..A as 0..12, suits C D H S as 0..3) and hands are 52-bit masks; the trump suit (and
//! whether the ace of trumps was demoted) selects a precomputed power table, so legality and
//! trick winners are a few integer operations. The variant comes in as data ([`Rules`]): flags
//! and a scoring table, never a branch on its name.
//!
//! Moves are the packed ints of the Python package: `0..52` plays that card, `ROB_BASE + c`
//! robs discarding `c`, then [`KEEP`], [`SILENT`], [`JINK`], [`STOP`] and [`HIDDEN_ROB`] (the
//! form other seats see of a rob).

pub mod encoding;
pub mod knowledge;
pub mod net;
pub mod policy;
pub mod tables;

#[cfg(feature = "python")]
pub(crate) mod python;

pub use knowledge::{Knowledge, Observed, World};
pub use policy::{Seen, greedy};

pub use tables::{
    ACE_OF_TRUMPS, AH, DECK, PLAIN_MASK, POWER, RENEGERS, TRUMP_BASE, TRUMP_MASK, trick_winner,
};

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
    rules: Rules,
    n: u8,
    turn_up: u8,
    trump: u8,
    dealer: u8,
    leader: u8,
    phase: Phase,
    current: i8,
    /// The seat that holds the ace of trumps (the dealer for a turned ace), or -1.
    ace_holder: i8,
    /// Robbing turns left (silent option: every seat gets one).
    rob_turns: u8,
    robber: i8,
    discard: i8,
    keeper: i8,
    jinker: i8,
    /// The seat that takes the pool (Spoil Five), -1 for a spoil.
    taker: i8,
    pending_ace: bool,
    demoted: bool,
    trick_len: u8,
    tricks_played: u8,
    history_len: u8,
    pool: f64,
    hands: [u64; MAX_SEATS],
    /// Every card played to a trick.
    played: u64,
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
mod tests;

#[cfg(test)]
mod sim_tests;
