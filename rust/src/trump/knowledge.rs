//! Simulation of the trump games: the deal as [`sim::Deal`] drives it, and what one seat knows
//! of a deal ([`Knowledge`]), from which worlds consistent with everything it saw are dealt.
//!
//! A seat sees its own hand, the turn-up, every card played, its own discard if it robbed, and
//! who robbed, announced or stayed silent. The cards it cannot see are dealt to the other seats
//! at random, keeping every hard constraint of what it saw:
//!
//! - cards known gone (its hand, the turn-up, the cards played, its own discard) are nobody's;
//! - the robbed turn-up is in the robber's hand until played (or joins the dealer's after
//!   trick 1), and the robber's discard is one of the cards nobody can see;
//! - the seat that robbed or announced holds (or, having robbed, discarded) the ace of trumps;
//!   without the `silent_ace` option a deal whose robbing nobody took has the ace in the pack;
//! - a seat that did not follow a plain suit holds none of it, and one that did not play a
//!   trump to a trump lead holds no trump but those that may renege against that lead;
//! - each seat holds as many cards as it shows.
//!
//! Each try deals the seats with the fewest choices first and then replays the history in the
//! dealt world, keeping it only if every move is legal there and the same seat is to move. When
//! [`TRIES`] tries fail (tight voids among many seats), the hidden hands are matched to the
//! seats without chance instead, which finds hands keeping every constraint whenever some do.

use super::{
    ACE_OF_TRUMPS, DECK, HIDDEN_ROB, MAX_HISTORY, MAX_SEATS, PLAIN_MASK, POWER, Phase, RENEGERS,
    ROB_BASE, Rules, State, TRUMP_MASK, is_move,
};
use crate::sim::{self, Rng};

/// Random tries at dealing a world consistent with the knowledge before the matching.
pub const TRIES: usize = 1000;

impl sim::Deal for State {
    type Move = u16;

    fn players(&self) -> usize {
        State::players(self)
    }

    fn to_move(&self) -> i8 {
        self.current
    }

    fn legal_into(&mut self, out: &mut Vec<u16>) {
        self.legal_actions(out);
    }

    fn play(&mut self, m: u16, _rng: &mut Rng) {
        // No chance inside a deal of these games: every card is dealt at the start. A move not
        // legal here is refused and changes nothing.
        let applied = self.apply(i64::from(m));
        debug_assert!(applied.is_ok(), "{m} is not legal here");
    }

    fn returns_into(&self, out: &mut [f64]) {
        let mut all = [0.0; MAX_SEATS];
        State::returns_into(self, &mut all);
        let n = State::players(self).min(out.len());
        out[..n].copy_from_slice(&all[..n]);
    }

    fn won(&self, seat: usize) -> bool {
        if self.rules.stop_at_three {
            // Spoil Five: the taker of the pool alone, nobody after a spoil.
            return self.phase == Phase::Over && self.taker == seat as i8;
        }
        let mut r = [0.0; MAX_SEATS];
        State::returns_into(self, &mut r);
        let n = State::players(self);
        self.phase == Phase::Over && seat < n && r[..n].iter().all(|&v| v <= r[seat])
    }

    fn greedy(&self, legal: &[u16], _rng: &mut Rng) -> u16 {
        let seat = self.current.max(0) as usize;
        super::policy::greedy(&self.seen(seat), legal).unwrap_or(legal[0])
    }
}

/// What one seat sees of a deal, as plain data: from a [`State`] ([`Observed::of`]) or from
/// the fields of a Python `TrumpObservation`.
#[derive(Clone, Debug, PartialEq)]
pub struct Observed {
    pub seat: usize,
    /// The seat to move, or -1 once the deal is over.
    pub current_player: i8,
    pub hand: u64,
    /// How many cards each seat holds (`players` of them; a robbed turned ace waiting for
    /// trick 1 not counted).
    pub hand_sizes: Vec<u8>,
    pub phase: Phase,
    pub dealer: u8,
    pub turn_up: u8,
    /// The seat that kept the ace of trumps and announced it, or -1.
    pub announced: i8,
    /// The seat that robbed the trump, or -1.
    pub robber: i8,
    /// A dealer's robbed turned ace waits to join the hand after trick 1.
    pub ace_pending: bool,
    pub ace_demoted: bool,
    /// `(seat, move)` as this seat saw them: another seat's rob as [`HIDDEN_ROB`].
    pub history: Vec<(u8, u16)>,
    /// Spoil Five's chips at stake (only the returns of a sampled world depend on it).
    pub pool: f64,
}

impl Observed {
    /// What `seat` (< players) sees of `state`: its own hand and everything public.
    pub fn of(state: &State, seat: usize) -> Observed {
        let view = state.view(seat);
        Observed {
            seat,
            current_player: view.current_player,
            hand: view.hand,
            hand_sizes: view.hand_sizes[..state.players()].to_vec(),
            phase: view.phase,
            dealer: state.dealer(),
            turn_up: state.turn_up(),
            announced: view.announced,
            robber: view.robber,
            ace_pending: view.ace_pending,
            ace_demoted: view.ace_demoted,
            history: state.seen_history(seat).collect(),
            pool: state.pool(),
        }
    }
}

/// A world dealt from a [`Knowledge`]: the hands as dealt, the discard of another seat's rob
/// that the knowing seat did not see (-1 if none), and the deal replayed to now.
#[derive(Clone, Debug, PartialEq)]
pub struct World {
    pub hands: [u64; MAX_SEATS],
    pub discard: i8,
    pub state: State,
}

/// What one seat knows of a deal: the constraints a world must keep, and a world known to keep
/// them.
#[derive(Clone, Debug)]
pub struct Knowledge {
    dealing: Dealing,
    /// A world found when this was made: what [`sim::Knowledge::sample`] gives if every try
    /// fails (with a consistent world known to exist, practically never).
    witness: World,
}

/// What one seat knows, reduced to what dealing a consistent world needs: the cards it cannot
/// see, what each other seat must hold and cannot hold, and the history to replay.
#[derive(Clone, Debug)]
struct Dealing {
    rules: Rules,
    seat: u8,
    n: u8,
    dealer: u8,
    turn_up: u8,
    pool: f64,
    current: i8,
    /// The knowing seat's hand now.
    hand: u64,
    /// The cards each seat played.
    played: [u64; MAX_SEATS],
    robber: i8,
    /// The knowing seat's own discard, if it robbed, or -1.
    my_discard: i8,
    /// The cards the knowing seat cannot see (less an ace of trumps known to lie in the pack).
    unknown: u64,
    /// Per seat, the cards it cannot hold now, learned from how it followed.
    forbid: [u64; MAX_SEATS],
    /// Per seat, the unseen cards it holds now (the robbed turn-up in its hand not counted).
    need: [u8; MAX_SEATS],
    /// The ace of trumps, unseen, known to have been dealt to `ace_seat` (another seat): or -1.
    ace: i8,
    ace_seat: i8,
    history: [(u8, u16); MAX_HISTORY],
    history_len: u8,
}

impl Knowledge {
    /// The knowledge of the seat of `seen`, with the rules of its game. Refuses (with the
    /// reason) what is no observation of a deal, and an observation no world is consistent
    /// with.
    pub fn new(rules: Rules, seen: &Observed) -> Result<Knowledge, String> {
        let n = seen.hand_sizes.len();
        if !(2..=MAX_SEATS).contains(&n) {
            return Err(format!("a deal has 2 to {MAX_SEATS} seats, not {n}"));
        }
        let seats = -1..n as i64;
        let checks = [
            (seen.seat < n, "the seat"),
            (usize::from(seen.dealer) < n, "the dealer"),
            (seen.turn_up < 52, "the turn-up"),
            (seen.hand & !DECK == 0, "the hand"),
            (
                seats.contains(&i64::from(seen.current_player)),
                "the seat to move",
            ),
            (seats.contains(&i64::from(seen.robber)), "the robber"),
            (seats.contains(&i64::from(seen.announced)), "the announcer"),
            (seen.history.len() <= MAX_HISTORY, "the history's length"),
            (
                seen.history
                    .iter()
                    .all(|&(s, v)| usize::from(s) < n && is_move(i64::from(v))),
                "the history",
            ),
        ];
        if let Some((_, what)) = checks.iter().find(|(ok, _)| !ok) {
            return Err(format!("{what} is not one of this deal's"));
        }
        let me = seen.seat;
        let trump = usize::from(seen.turn_up & 3);
        let ace = ACE_OF_TRUMPS[trump];
        let silent = rules.silent_ace;

        let mut played = [0u64; MAX_SEATS];
        let mut my_discard = -1i8;
        // A seat other than this one known to have been dealt the ace of trumps.
        let mut ace_seat = -1i8;
        for &(s, v) in &seen.history {
            if v < 52 {
                played[usize::from(s)] |= 1 << v;
            } else if v == HIDDEN_ROB || (ROB_BASE..ROB_BASE + 52).contains(&v) {
                if usize::from(s) == me {
                    my_discard = if v == HIDDEN_ROB {
                        -1
                    } else {
                        (v - ROB_BASE) as i8
                    };
                }
                ace_seat = s as i8;
            }
        }
        if seen.announced >= 0 {
            ace_seat = seen.announced;
        }
        if seen.phase == Phase::Rob && !silent {
            // Without the silent option only the holder gets a robbing turn.
            ace_seat = seen.current_player;
        }
        let turned_ace = seen.turn_up == ace;
        let all_played = played.iter().fold(0, |m, p| m | p);
        // Without the silent option only the holder gets a robbing turn: no turn means the ace
        // of trumps was never dealt to a player.
        let ace_in_pack = !turned_ace
            && !silent
            && seen.phase != Phase::Rob
            && ace_seat < 0
            && seen.hand >> ace & 1 == 0
            && all_played >> ace & 1 == 0
            && my_discard != ace as i8;
        if turned_ace || ace_seat == me as i8 {
            ace_seat = -1;
        }

        let mut known = seen.hand | 1 << seen.turn_up | all_played;
        if my_discard >= 0 {
            known |= 1 << my_discard;
        }
        let mut unknown = DECK & !known;
        if ace_in_pack {
            unknown &= !(1 << ace);
        }

        let mut need = [0u8; MAX_SEATS];
        for s in (0..n).filter(|&s| s != me) {
            let holds_turn_up =
                s as i8 == seen.robber && !seen.ace_pending && played[s] >> seen.turn_up & 1 == 0;
            need[s] = seen.hand_sizes[s]
                .checked_sub(u8::from(holds_turn_up))
                .ok_or("a robber's hand shows no room for the turn-up")?;
        }
        let ace_placed = ace_seat >= 0 && unknown >> ace & 1 != 0;
        let mut history = [(0u8, 0u16); MAX_HISTORY];
        history[..seen.history.len()].copy_from_slice(&seen.history);
        let dealing = Dealing {
            rules,
            seat: me as u8,
            n: n as u8,
            dealer: seen.dealer,
            turn_up: seen.turn_up,
            pool: seen.pool,
            current: seen.current_player,
            hand: seen.hand,
            played,
            robber: seen.robber,
            my_discard,
            unknown,
            forbid: voids(seen, n),
            need,
            ace: if ace_placed { ace as i8 } else { -1 },
            ace_seat,
            history,
            history_len: seen.history.len() as u8,
        };
        // A fixed generator: the same observation always finds the same witness. What a seat
        // sees follows from its own hand and the history, so if the witness shows it all that
        // it saw, so does every world that replays.
        let inconsistent = "no deal is consistent with this observation";
        let witness = dealing
            .sample_world(&mut Rng::new(0), TRIES)
            .ok_or(inconsistent)?;
        if Observed::of(&witness.state, me) != *seen {
            return Err(inconsistent.into());
        }
        Ok(Knowledge { dealing, witness })
    }

    /// What `seat` (< players) knows of `state`.
    pub fn of(state: &State, seat: usize) -> Result<Knowledge, String> {
        Knowledge::new(*state.rules(), &Observed::of(state, seat))
    }

    pub fn rules(&self) -> &Rules {
        &self.dealing.rules
    }

    /// The number of seats.
    pub fn players(&self) -> usize {
        usize::from(self.dealing.n)
    }

    /// The history as the knowing seat saw it.
    pub fn history(&self) -> &[(u8, u16)] {
        self.dealing.history()
    }

    /// The cards the knowing seat cannot see (less an ace of trumps known to lie in the pack).
    pub fn unseen(&self) -> u64 {
        self.dealing.unknown
    }

    /// Per seat, the cards it cannot hold now (from how it followed).
    pub fn forbidden(&self) -> &[u64] {
        &self.dealing.forbid[..usize::from(self.dealing.n)]
    }

    /// A world consistent with this knowledge, dealt from `rng`; if [`TRIES`] tries fail, the
    /// one the matching finds (the same each time); None if that fails too.
    pub fn sample_world(&self, rng: &mut Rng) -> Option<World> {
        self.dealing.sample_world(rng, TRIES)
    }

    /// The world the matching finds, as [`Knowledge::sample_world`] does when every random
    /// try fails.
    #[cfg(test)]
    pub(crate) fn matched_world(&self) -> Option<World> {
        self.dealing.matched_world()
    }

    /// One random try, as [`Knowledge::sample_world`] makes up to [`TRIES`] of.
    #[cfg(test)]
    pub(crate) fn try_world(&self, rng: &mut Rng) -> Option<World> {
        self.dealing.try_world(rng)
    }

    /// This knowledge with other cards each seat cannot hold, for the tests of the matching.
    #[cfg(test)]
    pub(crate) fn forbidding(mut self, forbid: &[u64]) -> Knowledge {
        self.dealing.forbid[..forbid.len()].copy_from_slice(forbid);
        self
    }

    /// A world as [`Knowledge::sample_world`] deals it, or the witness if every try fails.
    pub fn world(&self, rng: &mut Rng) -> World {
        self.sample_world(rng)
            .unwrap_or_else(|| self.witness.clone())
    }

    /// A world as [`Knowledge::world`] deals it, and its weight from `weight`: the hook for weighting worlds by how likely the other
    /// seats' moves were in them, e.g. the product over their past moves of a policy's
    /// probability of that move, found by replaying the history from [`Knowledge::start`].
    /// The worlds themselves are dealt uniformly within the constraints (as far as the seat
    /// order allows), so a search weights each world's result by its weight.
    pub fn sample_weighted(
        &self,
        rng: &mut Rng,
        mut weight: impl FnMut(&Knowledge, &World) -> f64,
    ) -> (World, f64) {
        let world = self.world(rng);
        let w = weight(self, &world);
        (world, w)
    }

    /// `world` as it was dealt, before the first move: replaying [`Knowledge::history`] from
    /// it (another seat's hidden rob as robbing `world.discard`) leads to `world.state`.
    pub fn start(&self, world: &World) -> State {
        let d = &self.dealing;
        State::new(
            d.rules,
            &world.hands[..usize::from(d.n)],
            d.turn_up,
            d.dealer,
            d.pool,
        )
        .unwrap_or_else(|_| world.state.clone())
    }
}

impl Dealing {
    fn history(&self) -> &[(u8, u16)] {
        &self.history[..usize::from(self.history_len)]
    }

    /// `tries` random tries, then the matching.
    fn sample_world(&self, rng: &mut Rng, tries: usize) -> Option<World> {
        (0..tries)
            .find_map(|_| self.try_world(rng))
            .or_else(|| self.matched_world())
    }

    /// One try: the hidden hands dealt and the history replayed, or None.
    fn try_world(&self, rng: &mut Rng) -> Option<World> {
        let (hidden, discard) = self.deal_hidden(rng)?;
        self.replay(&hidden, discard)
    }

    /// The world the matching finds: the ace of trumps where the seat dealt it may hold it (or
    /// as its robbing discard), then the other cards by [`Dealing::match_hidden`].
    fn matched_world(&self) -> Option<World> {
        let (may_hold, may_discard) = self.ace_places();
        [(true, may_hold), (false, may_discard)]
            .into_iter()
            .filter(|&(_, may)| may)
            .find_map(|(held, _)| {
                let (mut hidden, pool, discard) = self.with_ace(held);
                let pool = self.match_hidden(&mut hidden, pool)?;
                let discard =
                    self.rob_discard(discard, pool, |pool| pool.trailing_zeros() as u8)?;
                self.replay(&hidden, discard)
            })
    }

    /// Another seat that robbed the trump, or -1: its discard is hidden from this one.
    fn other_robber(&self) -> i8 {
        if self.robber >= 0 && self.robber != self.seat as i8 {
            self.robber
        } else {
            -1
        }
    }

    /// Another seat's robbing discard: `discard` where it is placed already, else the card of
    /// `pool` that `choose` picks (None if none is left); -1 where no other seat robbed.
    fn rob_discard(&self, discard: i8, pool: u64, choose: impl FnOnce(u64) -> u8) -> Option<i8> {
        if self.other_robber() < 0 || discard >= 0 {
            return Some(discard);
        }
        (pool != 0).then(|| choose(pool) as i8)
    }

    /// Where the unseen ace of trumps may be: still in the hand of the seat dealt it, or (that
    /// seat having robbed) its discard. With no ace to place, only "not held" (nothing placed).
    fn ace_places(&self) -> (bool, bool) {
        if self.ace < 0 {
            return (false, true);
        }
        let s = self.ace_seat as usize;
        let may_hold = self.need[s] > 0 && self.forbid[s] >> self.ace & 1 == 0;
        (may_hold, s as i8 == self.other_robber())
    }

    /// The hidden hands, the cards left to deal and another seat's robbing discard (-1: not
    /// yet), with the unseen ace of trumps placed: in the hand of the seat dealt it if `held`,
    /// else as that seat's discard (nothing placed where there is no such ace).
    fn with_ace(&self, held: bool) -> ([u64; MAX_SEATS], u64, i8) {
        let mut hidden = [0u64; MAX_SEATS];
        if self.ace < 0 {
            return (hidden, self.unknown, -1);
        }
        let pool = self.unknown & !(1 << self.ace);
        if held {
            hidden[self.ace_seat as usize] = 1 << self.ace;
            (hidden, pool, -1)
        } else {
            (hidden, pool, self.ace)
        }
    }

    /// Fills each other seat's hidden hand up to its `need` from `pool`, keeping what it cannot
    /// hold, by augmenting paths (a seat short of a card takes one that another seat holds,
    /// which takes another in its place, and so on): hands for every seat whenever some exist.
    /// Returns the cards left over, or None if no such hands exist.
    fn match_hidden(&self, hidden: &mut [u64; MAX_SEATS], mut pool: u64) -> Option<u64> {
        let n = usize::from(self.n);
        let me = usize::from(self.seat);
        // The seat each card of the pool went to (-1: none yet).
        let mut owner = [-1i8; 52];
        for s in (0..n).filter(|&s| s != me) {
            let missing = u32::from(self.need[s]).checked_sub(hidden[s].count_ones())?;
            for _ in 0..missing {
                let mut visited = 0u64;
                if !self.augment(s, pool, &mut owner, &mut visited) {
                    return None;
                }
            }
        }
        for (c, &s) in owner.iter().enumerate() {
            if s >= 0 {
                hidden[s as usize] |= 1 << c;
                pool &= !(1 << c);
            }
        }
        Some(pool)
    }

    /// Finds seat `s` one more card of `pool`, moving others' cards along the way if need be.
    fn augment(&self, s: usize, pool: u64, owner: &mut [i8; 52], visited: &mut u64) -> bool {
        let mut allowed = pool & !self.forbid[s] & !*visited;
        while allowed != 0 {
            let c = allowed.trailing_zeros() as usize;
            allowed &= allowed - 1;
            *visited |= 1 << c;
            let holder = owner[c];
            if holder < 0 || self.augment(holder as usize, pool, owner, visited) {
                owner[c] = s as i8;
                return true;
            }
            allowed &= !*visited;
        }
        false
    }

    /// The world of these hidden hands (and another seat's hidden rob discard, or -1), with
    /// the history replayed: None unless every move replays and the same seat is to move.
    fn replay(&self, hidden: &[u64; MAX_SEATS], discard: i8) -> Option<World> {
        let n = usize::from(self.n);
        let me = usize::from(self.seat);
        let mut hands = [0u64; MAX_SEATS];
        for s in 0..n {
            let mut h = self.played[s] | if s == me { self.hand } else { hidden[s] };
            if s as i8 == self.robber {
                let d = if s == me { self.my_discard } else { discard };
                if d < 0 {
                    return None;
                }
                h = h & !(1 << self.turn_up) | 1 << d;
            }
            hands[s] = h;
        }
        let mut state = State::new(
            self.rules,
            &hands[..n],
            self.turn_up,
            self.dealer,
            self.pool,
        )
        .ok()?;
        for &(s, v) in self.history() {
            if state.current != s as i8 {
                return None;
            }
            let v = if v == HIDDEN_ROB {
                ROB_BASE + discard.max(0) as u16
            } else {
                v
            };
            state.apply(i64::from(v)).ok()?;
        }
        (state.current == self.current).then_some(World {
            hands,
            discard,
            state,
        })
    }

    /// The other seats' unseen cards, and the discard of another seat's rob (-1 if none), or
    /// None if this try is stuck.
    fn deal_hidden(&self, rng: &mut Rng) -> Option<([u64; MAX_SEATS], i8)> {
        let n = usize::from(self.n);
        let me = usize::from(self.seat);
        // The seat dealt the ace still holds it, or (having robbed) discarded it: one of its
        // `need + 1` cards then, the ace among them.
        let (may_hold, may_discard) = self.ace_places();
        let held = if may_hold {
            let need = u64::from(self.need[self.ace_seat as usize]);
            !may_discard || rng.below(need + 1) < need
        } else if may_discard {
            false
        } else {
            return None;
        };
        let (mut hidden, mut pool, discard) = self.with_ace(held);
        // The seats with the fewest cards to spare first, in random order among equals.
        let mut order = [0u8; MAX_SEATS];
        let mut len = 0;
        for s in (0..n).filter(|&s| s != me) {
            order[len] = s as u8;
            len += 1;
        }
        let order = &mut order[..len];
        rng.shuffle(order);
        let slack = |s: u8| {
            let s = usize::from(s);
            (pool & !self.forbid[s]).count_ones() as i32 - i32::from(self.need[s])
        };
        // Insertion sort: stable, so the shuffle decides among equal slack.
        for i in 1..order.len() {
            let mut j = i;
            while j > 0 && slack(order[j - 1]) > slack(order[j]) {
                order.swap(j - 1, j);
                j -= 1;
            }
        }
        for &s in order.iter() {
            let s = usize::from(s);
            let missing = u32::from(self.need[s]).checked_sub(hidden[s].count_ones())?;
            let mut allowed = pool & !self.forbid[s];
            if allowed.count_ones() < missing {
                return None;
            }
            for _ in 0..missing {
                let c = pick(allowed, rng);
                allowed &= !(1 << c);
                pool &= !(1 << c);
                hidden[s] |= 1 << c;
            }
        }
        let discard = self.rob_discard(discard, pool, |pool| pick(pool, rng))?;
        Some((hidden, discard))
    }
}

/// A uniformly random card of `mask` (not empty).
fn pick(mask: u64, rng: &mut Rng) -> u8 {
    let mut k = rng.below(u64::from(mask.count_ones()));
    let mut m = mask;
    while k > 0 {
        m &= m - 1;
        k -= 1;
    }
    m.trailing_zeros() as u8
}

/// Per seat, the cards it cannot hold now, learned from how it followed: no card of a plain
/// suit it did not follow, and no trump but the reneging ones above the lead after it did not
/// play a trump to a trump lead.
fn voids(seen: &Observed, n: usize) -> [u64; MAX_SEATS] {
    let trump = usize::from(seen.turn_up & 3);
    let tmask = TRUMP_MASK[trump];
    let power = &POWER[usize::from(seen.ace_demoted)][trump];
    let mut forbid = [0u64; MAX_SEATS];
    let mut led = None;
    let mut in_trick = 0;
    for &(s, v) in &seen.history {
        if v >= 52 {
            continue;
        }
        let card = v as u8;
        match led {
            Some(led) if tmask >> led & 1 != 0 => {
                if tmask >> card & 1 == 0 {
                    let mut privileged = 0u64;
                    for c in RENEGERS[trump] {
                        if power[usize::from(c)] > power[usize::from(led)] {
                            privileged |= 1 << c;
                        }
                    }
                    forbid[usize::from(s)] |= tmask & !privileged;
                }
            }
            Some(led) => {
                let follow = PLAIN_MASK[trump][usize::from(led & 3)];
                if (follow | tmask) >> card & 1 == 0 {
                    forbid[usize::from(s)] |= follow;
                }
            }
            None => led = Some(card),
        }
        in_trick += 1;
        if in_trick == n {
            in_trick = 0;
            led = None;
        }
    }
    forbid
}

impl sim::Knowledge for Knowledge {
    type Deal = State;

    fn seat(&self) -> usize {
        usize::from(self.dealing.seat)
    }

    fn sample(&self, rng: &mut Rng) -> State {
        match self.sample_world(rng) {
            Some(world) => world.state,
            None => self.witness.state.clone(),
        }
    }
}
