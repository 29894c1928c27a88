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

#[cfg(test)]
mod tests {
    //! The simulation of the trump games: the greedy policy, the deal as `sim::Deal` and the
    //! worlds a seat's `Knowledge` deals.

    use proptest::prelude::*;

    use super::*;
    use crate::sim::{self, Deal, Rng};
    use crate::test_support::trump::{FORTY_FIVE, SPOIL_FIVE, card, cards, mask};
    use crate::trump::*;

    fn rules(spoil: bool, silent_ace: bool, immediate_pickup: bool, jinking: bool) -> Rules {
        Rules {
            silent_ace,
            immediate_pickup,
            jinking: spoil && jinking,
            ..if spoil { SPOIL_FIVE } else { FORTY_FIVE }
        }
    }

    /// A shuffled deal of `players` seats.
    fn deal(rng: &mut Rng, rules: Rules, players: usize, dealer: u8) -> State {
        let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
        rng.shuffle(&mut deck);
        let hands: Vec<u64> = (0..players)
            .map(|s| deck[s * 5..s * 5 + 5].iter().fold(0, |m, &c| m | 1 << c))
            .collect();
        State::new(
            rules,
            &hands,
            deck[players * 5],
            dealer,
            players as f64 + 3.0,
        )
        .unwrap()
    }

    /// A shuffled deal (as [`deal`]) where nobody has a turn to rob: ready for the opening lead.
    fn deal_to_play(rng: &mut Rng, rules: Rules, players: usize, dealer: u8) -> State {
        loop {
            let s = deal(rng, rules, players, dealer);
            if s.phase() == Phase::Play {
                return s;
            }
        }
    }

    /// `state` after `moves` moves (fewer if it ends), each random or greedy at random.
    fn advance(state: &mut State, moves: usize, rng: &mut Rng) {
        let mut legal = Vec::new();
        for _ in 0..moves {
            if state.is_over() {
                return;
            }
            state.legal_actions(&mut legal);
            let m = if rng.below(2) == 0 || legal.len() == 1 {
                legal[rng.below(legal.len() as u64) as usize]
            } else {
                Deal::greedy(state, &legal, rng)
            };
            state.apply(i64::from(m)).unwrap();
        }
    }

    fn greedy_of(state: &State, legal: &[u16]) -> u16 {
        greedy(&state.seen(state.current_player() as usize), legal).unwrap()
    }

    fn legal(state: &State) -> Vec<u16> {
        let mut out = Vec::new();
        state.legal_actions(&mut out);
        out
    }

    #[test]
    fn greedy_robs_with_the_weakest_card_and_draws_trumps_with_a_sure_winner() {
        let hands = [
            mask("5S 3S 7D 8C 9H"),
            mask("KS 2D 3D 4D 5D"),
            mask("6S 7S 8S 9S 10S"),
            mask("AS 4C 6C 8H KC"),
        ];
        let mut s = State::new(FORTY_FIVE, &hands, card("2S"), 3, 0.0).unwrap();
        // 6C is the lowest plain card of P3's (AS 4C 6C 8H KC).
        let rob = greedy_of(&s, &legal(&s));
        assert_eq!(rob, ROB_BASE + u16::from(card("6C")));
        s.apply(i64::from(rob)).unwrap();
        // P0 leads 5S: no trump left out beats it.
        assert_eq!(greedy_of(&s, &legal(&s)), u16::from(card("5S")));
        s.apply(i64::from(card("5S"))).unwrap();
        s.apply(i64::from(card("KS"))).unwrap();
        // P2's partner has the trick with a trump nobody can beat: P2 plays its weakest, 10S.
        assert_eq!(greedy_of(&s, &legal(&s)), u16::from(card("10S")));
        s.apply(i64::from(card("10S"))).unwrap();
        // P3 cannot win it: its weakest legal card (trumps only: AS or 2S) is 2S.
        assert_eq!(legal(&s), [u16::from(card("2S")), u16::from(card("AS"))]);
        assert_eq!(greedy_of(&s, &legal(&s)), u16::from(card("2S")));
    }

    #[test]
    fn greedy_holds_off_an_opponent_on_two_tricks_and_jinks_with_two_sure_winners() {
        let trick = [card("4H")];
        let plays: Vec<u16> = cards("5H 9H KH").iter().map(|&c| u16::from(c)).collect();
        let mut seen = Seen {
            seat: 0,
            players: 3,
            phase: Phase::Play,
            trump: 3,
            demoted: false,
            hand: mask("5H 9H KH 2C 3C"),
            outstanding: DECK & !mask("5H 9H KH 2C 3C 4H 2S"),
            leader: 2,
            trick: &trick,
            tricks_won: &[0, 1, 0],
            partnership: false,
        };
        // The cheapest card that takes the trick.
        assert_eq!(greedy(&seen, &plays), Some(u16::from(card("5H"))));
        // P1, still to play, has two tricks: take it with the best card.
        seen.tricks_won = &[0, 2, 0];
        assert_eq!(greedy(&seen, &plays), Some(u16::from(card("KH"))));
        // Jinking: JS and AH are two sure winners once 5S is not out.
        seen.phase = Phase::Jink;
        seen.hand = mask("JS AH 2C");
        seen.outstanding = DECK & !mask("JS AH 2C 2S");
        assert_eq!(greedy(&seen, &[JINK, STOP]), Some(STOP));
        seen.outstanding &= !mask("5S");
        assert_eq!(greedy(&seen, &[JINK, STOP]), Some(JINK));
        // A play with no card among the moves has no choice.
        seen.phase = Phase::Play;
        assert_eq!(greedy(&seen, &[]), None);
        assert_eq!(greedy(&seen, &[KEEP]), None);
    }

    #[test]
    fn playouts_end_and_return_what_the_rules_say() {
        let mut rng = Rng::new(11);
        let mut legal = Vec::new();
        let mut returns = [0.0; MAX_SEATS];
        for i in 0..2_000u64 {
            let spoil = i % 2 == 0;
            let players = if spoil {
                2 + (i as usize / 2) % 9
            } else {
                [2, 4, 6][i as usize % 3]
            };
            let r = rules(spoil, i % 3 == 0, i % 5 == 0, i % 7 < 4);
            let mut s = deal(&mut rng, r, players, (i % players as u64) as u8);
            let pool = s.pool();
            sim::playout(&mut s, &mut rng, &mut legal);
            assert!(s.is_over() && Deal::to_move(&s) < 0);
            Deal::returns_into(&s, &mut returns);
            for seat in 0..players {
                // Spoil Five is won by the pool's taker alone; Forty-Five by the side ahead.
                let best = returns[..players].iter().all(|&v| v <= returns[seat]);
                let won = if spoil { s.taker() == seat as i8 } else { best };
                assert_eq!(Deal::won(&s, seat), won);
            }
            let returns = &returns[..players];
            if spoil {
                // Everyone paid the ante; the taker takes the pool (a jink's extras cancel out).
                let taken = if s.taker() >= 0 { pool } else { 0.0 };
                assert_eq!(returns.iter().sum::<f64>(), taken - players as f64);
            } else {
                let won: u32 = s
                    .tricks_won()
                    .iter()
                    .step_by(2)
                    .map(|&k| u32::from(k))
                    .sum();
                let points = [0.0, 0.0, 0.0, 5.0, 5.0, 10.0];
                for (seat, &r) in returns.iter().enumerate() {
                    let side = if seat % 2 == 0 { won } else { 5 - won };
                    assert_eq!(r, points[side as usize]);
                }
            }
        }
    }

    /// Everything `seat` sees of `state`, and the cards it cannot see.
    fn everything_seen(state: &State, seat: usize) -> (Observed, Vec<u8>, Vec<u8>, Vec<f64>, u64) {
        (
            Observed::of(state, seat),
            state.trick_winners().to_vec(),
            state.tricks_won().to_vec(),
            state.returns(),
            state.hidden_from(seat),
        )
    }

    /// Checks one world dealt from `knowledge` (of `seat` in `state`).
    fn check_world(state: &State, seat: usize, knowledge: &Knowledge, world: &World) {
        let w = &world.state;
        let n = state.players();
        // The strongest check: the seat sees exactly what it saw, and not one card more.
        assert_eq!(everything_seen(w, seat), everything_seen(state, seat));
        assert_eq!(w.seen(seat), state.seen(seat));
        // Every card is somewhere, once.
        let (played, turn_up, discards, stock) = w.zones();
        let mut all = 0u64;
        let mut count = 0;
        for m in w
            .hands()
            .iter()
            .copied()
            .chain([played, turn_up, discards, stock])
        {
            assert_eq!(all & m, 0);
            all |= m;
            count += m.count_ones();
        }
        assert_eq!((all, count), (DECK, 52));
        // No seat holds a card it showed it lacks (but a dealer's robbed turned ace joins the
        // hand after trick 1, whatever it showed then).
        let up_bit = 1u64 << state.turn_up();
        for s in (0..n).filter(|&s| s != seat) {
            assert_eq!(w.hands()[s] & knowledge.forbidden()[s] & !up_bit, 0, "P{s}");
        }
        // The robbed turn-up is in the robber's hand until played (or it waits for trick 1).
        let up = state.turn_up();
        let ace = ACE_OF_TRUMPS[usize::from(state.trump())];
        if state.robber() >= 0 && !state.pending_ace() && state.played() >> up & 1 == 0 {
            assert_eq!(w.hands()[state.robber() as usize] >> up & 1, 1);
        }
        // The seat that robbed or announced was dealt the ace of trumps; without the silent option
        // a deal whose robbing nobody took has it in the pack.
        if up != ace {
            let holder = if state.robber() >= 0 {
                state.robber()
            } else {
                state.keeper()
            };
            if holder >= 0 {
                assert_eq!(world.hands[holder as usize] >> ace & 1, 1);
            } else if !state.rules().silent_ace && state.phase() != Phase::Rob {
                assert!(world.hands[..n].iter().all(|h| h >> ace & 1 == 0));
            }
        }
        // The world replays from its deal.
        let mut again = knowledge.start(world);
        for &(_, v) in knowledge.history() {
            let v = if v == HIDDEN_ROB {
                ROB_BASE + world.discard as u16
            } else {
                v
            };
            again.apply(i64::from(v)).unwrap();
        }
        assert_eq!(&again, w);
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        #[test]
        fn sampled_worlds_show_each_seat_what_it_saw(
            seed: u64,
            players in 2usize..=10,
            spoil: bool,
            silent_ace: bool,
            immediate_pickup: bool,
            jinking: bool,
            dealer in 0u8..10,
        ) {
            let players = if spoil { players } else { [2, 4, 6][players % 3] };
            let r = rules(spoil, silent_ace, immediate_pickup, jinking);
            let mut rng = Rng::new(seed);
            let mut state = deal(&mut rng, r, players, dealer % players as u8);
            let mut legal = Vec::new();
            loop {
                for seat in 0..players {
                    let knowledge = Knowledge::of(&state, seat).unwrap();
                    prop_assert_eq!(knowledge.unseen() & state.hands()[seat], 0);
                    // The matching, which random tries fall back on, finds a world as well.
                    let matched = knowledge.matched_world();
                    prop_assert!(matched.is_some());
                    check_world(&state, seat, &knowledge, &matched.unwrap());
                    for _ in 0..3 {
                        let world = knowledge.sample_world(&mut rng).unwrap();
                        check_world(&state, seat, &knowledge, &world);
                        if seat as i8 == state.current_player() {
                            // The policy reads what the seat sees: the same choice in every world.
                            state.legal_actions(&mut legal);
                            if legal.len() > 1 {
                                let mut w = world.state.clone();
                                prop_assert_eq!(
                                    Deal::greedy(&w, &legal, &mut rng),
                                    Deal::greedy(&state, &legal, &mut rng)
                                );
                                sim::playout(&mut w, &mut rng, &mut legal);
                                prop_assert!(w.is_over());
                            }
                        }
                    }
                }
                if state.is_over() {
                    break;
                }
                advance(&mut state, 1 + rng.below(3) as usize, &mut rng);
            }
        }

        /// Whatever a caller passes as an observation: a knowledge or a reason, never a panic; and
        /// a knowledge only of what replays.
        #[test]
        fn junk_observations_are_refused_without_panicking(
            hand_sizes in prop::collection::vec(0u8..8, 0..12),
            seat in 0usize..12,
            current in -2i8..12,
            hand: u64,
            phase in 0u8..4,
            dealer in 0u8..12,
            turn_up in 0u8..60,
            announced in -2i8..12,
            robber in -2i8..12,
            ace_pending: bool,
            ace_demoted: bool,
            history in prop::collection::vec((0u8..12, 0u16..140), 0..70),
            silent_ace: bool,
        ) {
            let seen = Observed {
                seat,
                current_player: current,
                hand: hand & (DECK | 1 << 60),
                hand_sizes,
                phase: [Phase::Rob, Phase::Play, Phase::Jink, Phase::Over][usize::from(phase)],
                dealer,
                turn_up,
                announced,
                robber,
                ace_pending,
                ace_demoted,
                history,
                pool: 4.0,
            };
            if let Ok(knowledge) = Knowledge::new(rules(false, silent_ace, false, false), &seen) {
                let world = knowledge.world(&mut Rng::new(1));
                prop_assert_eq!(Observed::of(&world.state, seat), seen);
            }
        }
    }

    #[test]
    fn unseen_cards_are_dealt_about_uniformly() {
        // A Forty-Five deal whose ace of trumps nobody was dealt, at the opening lead: P0 sees its
        // five cards and the turn-up, and knows the ace is in the pack; each of the other 45 cards
        // lies in each other seat's hand with probability 5/45.
        let mut rng = Rng::new(3);
        let state = deal_to_play(&mut rng, FORTY_FIVE, 4, 3);
        let ace = ACE_OF_TRUMPS[usize::from(state.trump())];
        let knowledge = Knowledge::of(&state, 0).unwrap();
        assert_eq!(knowledge.unseen().count_ones(), 45);
        assert_eq!(knowledge.unseen() >> ace & 1, 0);
        let samples = 18_000;
        let mut counts = [[0u32; 4]; 52];
        for _ in 0..samples {
            let world = sim::Knowledge::sample(&knowledge, &mut rng);
            for (seat, &h) in world.hands().iter().enumerate() {
                let mut h = h;
                while h != 0 {
                    counts[h.trailing_zeros() as usize][seat] += 1;
                    h &= h - 1;
                }
            }
        }
        // 2,000 expected, with a standard deviation of about 42: 10% either side is about 5 of them.
        let expected = samples / 9;
        let mut checked = 0;
        for (c, by_seat) in counts.iter().enumerate() {
            if knowledge.unseen() >> c & 1 == 0 {
                // Seen by P0 (its hand, the turn-up) or known to lie in the pack (the ace).
                assert_eq!(by_seat[1..], [0, 0, 0], "card {c}");
                continue;
            }
            for &k in &by_seat[1..] {
                assert!(
                    k.abs_diff(expected) < expected / 10,
                    "card {c}: {by_seat:?}"
                );
                checked += 1;
            }
        }
        assert_eq!(checked, 45 * 3);
    }

    /// Hidden hands that random dealing rarely finds (9 tries in 1,000 here): in a 9-seat Spoil
    /// Five deal, the unseen cards split into groups of 5, and each other seat allowed only its own
    /// group and the next (the last seat the first group), so that the seats must all take their
    /// own group or all the next.
    #[test]
    fn the_matching_finds_hands_that_random_tries_rarely_do() {
        let mut rng = Rng::new(3);
        let state = deal_to_play(&mut rng, SPOIL_FIVE, 9, 0);
        let knowledge = Knowledge::of(&state, 0).unwrap();
        let mut unseen = knowledge.unseen();
        let mut groups = [0u64; 8];
        for g in groups.iter_mut() {
            for _ in 0..5 {
                let c = unseen.trailing_zeros();
                unseen &= !(1 << c);
                *g |= 1 << c;
            }
        }
        // Seat 0 knows its own hand; seat s may hold groups s - 1 and s (mod 8).
        let mut forbid: Vec<u64> = (0..9)
            .map(|s: usize| match s {
                0 => 0,
                _ => DECK & !(groups[s - 1] | groups[s % 8]),
            })
            .collect();
        let tight = knowledge.forbidding(&forbid);
        let found = (0..TRIES)
            .filter(|_| tight.try_world(&mut rng).is_some())
            .count();
        assert!(found < TRIES / 10, "random tries found {found} of {TRIES}");
        let world = tight.matched_world().expect("the matching finds hands");
        for (s, (hand, no)) in world.hands.iter().zip(&forbid).enumerate().skip(1) {
            assert_eq!(hand & no, 0, "P{s}");
            assert_eq!(hand.count_ones(), 5, "P{s}");
        }
        assert_eq!(Observed::of(&world.state, 0), Observed::of(&state, 0));
        // With one seat allowed fewer cards than it holds, no hands exist, and none are made up.
        forbid[4] |= groups[4] | 1 << groups[3].trailing_zeros();
        let impossible = Knowledge::of(&state, 0).unwrap().forbidding(&forbid);
        assert_eq!(impossible.matched_world(), None);
    }

    #[test]
    fn a_seat_that_showed_a_void_is_dealt_none_of_the_suit() {
        // Spoil Five, three seats, spades trumps; nobody holds the ace of spades (it is in the
        // pack): P1 leads KH, P2 neither follows nor trumps (2D), P0 (who knows) follows with 3H.
        let hands = [
            mask("3H 4C 5C 6C 7C"),
            mask("KH 8C 9C 10C JC"),
            mask("2S 2D 3D 4D 5D"),
        ];
        let mut s = State::new(SPOIL_FIVE, &hands, card("9S"), 0, 3.0).unwrap();
        for c in ["KH", "2D", "3H"] {
            s.apply(i64::from(card(c))).unwrap();
        }
        let knowledge = Knowledge::of(&s, 0).unwrap();
        let hearts = PLAIN_MASK[3][2];
        assert_eq!(knowledge.forbidden()[2], hearts);
        assert_eq!(knowledge.forbidden()[1], 0);
        let mut rng = Rng::new(5);
        let mut p1_hearts = 0;
        for _ in 0..500 {
            let world = knowledge.sample_world(&mut rng).unwrap();
            check_world(&s, 0, &knowledge, &world);
            assert_eq!(world.state.hands()[2] & hearts, 0);
            p1_hearts += (world.state.hands()[1] & hearts).count_ones();
        }
        assert!(p1_hearts > 0, "P1 may hold hearts");
    }

    #[test]
    fn the_weight_hook_sees_each_world_with_its_deal() {
        let mut rng = Rng::new(8);
        let mut state = deal(&mut rng, rules(true, true, false, true), 5, 2);
        advance(&mut state, 9, &mut rng);
        let knowledge = Knowledge::of(&state, 1).unwrap();
        let (world, weight) = knowledge.sample_weighted(&mut Rng::new(4), |k, w| {
            // A weight from replaying the other seats' moves in the world as dealt: here, simply
            // how many moves replay.
            let mut s = k.start(w);
            let mut moves = 0.0;
            for &(_, v) in k.history() {
                let v = if v == HIDDEN_ROB {
                    ROB_BASE + w.discard as u16
                } else {
                    v
                };
                moves += f64::from(u8::from(s.apply(i64::from(v)).is_ok()));
            }
            moves
        });
        assert_eq!(weight, knowledge.history().len() as f64);
        assert_eq!(world, knowledge.world(&mut Rng::new(4)));
        check_world(&state, 1, &knowledge, &world);
    }

    #[test]
    fn a_search_over_sampled_worlds_is_the_same_on_any_number_of_threads() {
        use crate::sim::Greedy;
        use crate::sim::search::{Settings, race};
        let mut rng = Rng::new(21);
        let mut state = deal(&mut rng, FORTY_FIVE, 4, 1);
        let mut legal = Vec::new();
        loop {
            advance(&mut state, 1, &mut rng);
            state.legal_actions(&mut legal);
            if legal.len() > 1 {
                break;
            }
        }
        let knowledge = Knowledge::of(&state, state.current_player() as usize).unwrap();
        let priors = vec![0.0; legal.len()];
        let settings = |threads| Settings {
            iterations: Some(400),
            time_limit: None,
            min_worlds: 8,
            confidence: 2.0,
            indifference: 0.0,
            prior_weight: 0.0,
            threads,
            inference: None,
            leaf_after: None,
            opponents: None,
        };
        let one = race(&knowledge, &legal, &priors, &settings(1), 7, &Greedy).unwrap();
        assert_eq!(
            race(&knowledge, &legal, &priors, &settings(3), 7, &Greedy),
            Some(one.clone())
        );
        assert!(one.iterations <= 400 && one.worlds >= 8);
        // Forty-Five's returns are a side's points: 0, 5 or 10.
        for tally in &one.tallies {
            assert!(tally.values.iter().all(|v| [0.0, 5.0, 10.0].contains(v)));
            assert!(tally.wins <= tally.values.len() as u64);
        }
        // A move the seat cannot make is refused.
        let refused = race(
            &knowledge,
            &[legal[0], STOP],
            &[0.0, 0.0],
            &settings(1),
            7,
            &Greedy,
        );
        assert_eq!(refused, None);
    }
}
