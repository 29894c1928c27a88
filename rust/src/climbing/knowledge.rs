//! A climbing deal in simulation: the deal as simulation drives it ([`sim::Deal`] for
//! [`State`], the greedy choice being [`policy::greedy`] on the view of the seat to move); what
//! one seat knows of it ([`Seen`], the observation in Rust), and worlds sampled consistently
//! with it ([`Knowledge`]).
//!
//! A world deals the cards the seat cannot see at random to the other seats, each also holding
//! the cards it has played since the start, and replays the history. Two things the seat knows
//! constrain the deal beyond the card counts:
//!
//! - at the opening, whoever is to open holds the lowest card;
//! - under `pass_only_if_no_legal_play` (B8) a pass tells that the seat could not beat the
//!   table, so no seat is dealt a hand that could have beaten a table it passed on.
//!
//! Without forced passes every deal is drawn uniformly. With them, a few random deals are tried
//! first (an accepted one is a uniform draw among the consistent deals); if none fits, a search
//! ([`search`]) finds a consistent deal, which exists (the true one) but is not drawn uniformly.
//! The search is bounded ([`PROOF_STEPS`], [`WORLD_STEPS`]): the passes of a hand-made
//! observation can otherwise keep it busy for years.

use std::collections::HashMap;
use std::sync::Arc;

use super::Scoring;
use super::combos::{MASK, PASS, SIZE_SHIFT, Table, can_beat};
use super::policy::{self, SeatView};
use super::state::{Illegal, MAX_SEATS, Start, State};
use crate::sim::{self, Inference, Policy, Rng};

impl sim::Deal for State {
    type Move = u64;

    fn players(&self) -> usize {
        State::players(self)
    }

    fn to_move(&self) -> i8 {
        self.current_player()
    }

    fn legal_into(&mut self, out: &mut Vec<u64>) {
        self.legal_actions(out);
    }

    /// Applies `m`; the climbing rules have no chance inside a deal, so `rng` is not drawn from.
    /// A move that is not legal (which the contract rules out) leaves the state as it was.
    fn play(&mut self, m: u64, _rng: &mut Rng) {
        let done = self.apply(m);
        debug_assert!(done.is_ok(), "{m:#x} is not legal here: {done:?}");
    }

    fn returns_into(&self, out: &mut [f64]) {
        let returns = self.returns();
        out[..returns.len()].copy_from_slice(returns);
    }

    /// Under placement scoring a seat's place, and so its points, is fixed when it goes out
    /// (and with them whether it won: every place's points are known), however the others
    /// play on for theirs.
    fn settled(&self, seat: usize) -> Option<(f64, bool)> {
        if self.is_over() {
            return Some(sim::result_over(self, seat));
        }
        let rules = &self.table().rules;
        if rules.scoring != Scoring::Placement {
            return None;
        }
        let place = self
            .finished()
            .iter()
            .position(|&s| usize::from(s) == seat)?;
        let points = |k: usize| rules.placement_points.get(k).map_or(0.0, |&p| f64::from(p));
        let mine = points(place);
        Some((mine, (0..self.players()).all(|k| points(k) <= mine)))
    }

    /// The greedy policy on what the seat to move may see (its hand, the card counts and the
    /// table); it draws nothing from `rng`.
    fn greedy(&self, legal: &[u64], _rng: &mut Rng) -> u64 {
        let view = SeatView::of_mover(self);
        match policy::greedy(self.table(), &view, legal) {
            Some(i) => legal[i],
            None => PASS,
        }
    }
}

/// What one seat sees of a deal: the fields of Python's `ClimbingObservation`, cards as
/// key-order masks.
#[derive(Clone, Debug, PartialEq)]
pub struct Seen {
    pub seat: u8,
    /// The seat to move, or -1 once the deal is over.
    pub current: i8,
    /// This seat's cards.
    pub hand: u64,
    /// Every seat's number of cards.
    pub sizes: Vec<u8>,
    /// The play to beat (0 when the player to move leads), its maker (-1 without one) and the
    /// passes since.
    pub table: u64,
    pub table_seat: i8,
    pub passes: u8,
    /// The deal's first play is due under the opening rule.
    pub opening: bool,
    /// `(seat, play or pass)` since the start.
    pub history: Vec<(u8, u64)>,
    /// Every card out of the hands: played since the start, or out from the start.
    pub played: u64,
    /// Cards out of play from the start.
    pub out: u64,
    /// The seat that led freely at the start.
    pub first_leader: Option<u8>,
    /// The play to beat at the start (0 for none), who made it, the passes after it.
    pub start_table: u64,
    pub start_table_seat: i8,
    pub start_passes: u8,
    /// Seats already out at the start, first place first.
    pub start_finished: Vec<u8>,
    /// Seats that went out, first place first (then, once over, the others).
    pub finished: Vec<u8>,
    /// Each seat's return; zeros until the deal is over.
    pub scores: Vec<f64>,
}

impl Seen {
    /// What `seat` sees of `state` (a seat of the deal).
    pub fn of(state: &State, seat: usize) -> Seen {
        let (table, table_seat, passes) = state.trick();
        let origin = state.origin();
        Seen {
            seat: seat as u8,
            current: state.current_player(),
            hand: state.hands()[seat],
            sizes: state.sizes().to_vec(),
            table,
            table_seat,
            passes,
            opening: state.opening(),
            history: state.history().to_vec(),
            played: state.played() | state.out(),
            out: state.out(),
            first_leader: origin.leader,
            start_table: origin.table,
            start_table_seat: origin.table_seat,
            start_passes: origin.passes,
            start_finished: origin.finished().to_vec(),
            finished: state.finished().to_vec(),
            scores: state.returns().to_vec(),
        }
    }
}

/// Random deals tried before a search deals card by card around the forced passes: a random
/// deal usually breaks some forced pass once a seat has passed on a low play.
const DEAL_TRIES: usize = 10;

/// What a seat's passes tell under B8: its hand at the time, its present cards with `later`
/// (those it played after the passes), held no play beating any of `tables` (the weakest table
/// of each size it passed on then, packed, 0 for none: a hand that cannot beat it cannot beat
/// the rest).
#[derive(Clone, Debug, PartialEq, Eq)]
struct Forced {
    seat: u8,
    later: u64,
    tables: [u64; 6],
}

/// The seen position with what it implies for the hidden cards: everything a world is dealt
/// from.
#[derive(Clone, Debug)]
struct Hidden {
    table: Arc<Table>,
    seen: Seen,
    /// The cards dealt at random: those the seat cannot see, less the lowest card where it is
    /// known to be the opener's.
    unseen: u64,
    /// The cards known to be in each seat's hand at the start: its plays since, the seat's own
    /// hand, the opener's lowest card.
    known: [u64; MAX_SEATS],
    /// How many of the unseen cards each seat is dealt.
    room: [u8; MAX_SEATS],
    forced: Vec<Forced>,
}

/// What one seat knows of a deal, ready to deal worlds from: a [`Seen`] checked against the
/// rules, with what it implies for the hidden cards.
#[derive(Clone, Debug)]
pub struct Knowledge {
    hidden: Hidden,
    /// A world proven consistent when this was built: its start hands and the deal replayed.
    proven_hands: [u64; MAX_SEATS],
    proven: State,
}

/// Why no deal was dealt around the forced passes ([`search`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Unplaced {
    /// No deal fits the constraints: the search tried every one.
    NoDeal,
    /// The search ran out of steps before finding one or proving there is none.
    GaveUp,
}

/// The steps (cards placed) the search may take to deal the world that proves an observation
/// possible: about half a second. A real deal's observation needs far fewer; a hand-made one's
/// passes can ask more than any machine has time for (a search that proves there is no deal
/// tries every way of dealing that its checks do not rule out).
const PROOF_STEPS: u64 = 300_000;

/// The steps each later world may take (a few milliseconds); a world not found within them is
/// the proven one. Over the positions of 600 deals of random play under B8 (five worlds per
/// seat and position, a quarter of a million in all), one world took more than 1,000 steps and
/// none more than 5,000.
const WORLD_STEPS: u64 = 5_000;

impl Knowledge {
    /// The knowledge of `seen` in a deal of `table`'s rules, or why no deal of those rules
    /// shows `seen` to its seat. One world is dealt and replayed (with a fixed seed) to prove
    /// it: every later world then replays too, as worlds differ only in hidden cards and the
    /// constraints on those are kept.
    pub fn new(table: Arc<Table>, seen: Seen) -> Result<Knowledge, String> {
        let n = seen.sizes.len();
        let seat = usize::from(seen.seat);
        if !(2..=MAX_SEATS).contains(&n) || seat >= n {
            return Err(format!(
                "seat {seat} of {n} seats: a climbing deal has 2 to {MAX_SEATS}"
            ));
        }
        if (seen.hand | seen.played | seen.out) & !MASK != 0
            || seen.hand & seen.played != 0
            || seen.out & !seen.played != 0
        {
            return Err("the hand, the cards played and the cards out do not fit".into());
        }
        if seen.hand.count_ones() != u32::from(seen.sizes[seat]) {
            return Err("the hand and its card count differ".into());
        }
        let mut known = [0u64; MAX_SEATS];
        for &(s, a) in &seen.history {
            if usize::from(s) >= n {
                return Err(format!("the history names P{s}, no seat of this deal"));
            }
            known[usize::from(s)] |= a & MASK;
        }
        let mut room = [0u8; MAX_SEATS];
        room[..n].copy_from_slice(&seen.sizes);
        room[seat] = 0;
        let mut unseen = MASK & !seen.hand & !seen.played;
        if seen.opening && seen.first_leader.is_none() && i32::from(seen.current) != seat as i32 {
            // Public knowledge: whoever opens holds the lowest card.
            let opener = usize::try_from(seen.current).unwrap_or(usize::MAX);
            if opener >= n || unseen & 1 == 0 || room[opener] == 0 {
                return Err("the seat to open cannot hold the lowest card".into());
            }
            unseen &= !1;
            known[opener] |= 1;
            room[opener] -= 1;
        }
        if unseen.count_ones() != room.iter().map(|&r| u32::from(r)).sum::<u32>() {
            return Err("the card counts do not add up to the cards unseen".into());
        }
        known[seat] |= seen.hand;
        let hidden = Hidden {
            forced: forced_passes(&seen, &table),
            table,
            seen,
            unseen,
            known,
            room,
        };
        let hands = hidden
            .deal(&mut Rng::new(0), PROOF_STEPS)
            .map_err(|why| match why {
                Unplaced::NoDeal => "no deal is consistent with the passes".to_string(),
                Unplaced::GaveUp => {
                    format!("no deal consistent with the passes was found in {PROOF_STEPS} steps")
                }
            })?;
        let world = hidden.world(&hands)?;
        if Seen::of(&world, seat) != hidden.seen {
            return Err("no deal of these rules shows this to the seat".into());
        }
        Ok(Knowledge {
            hidden,
            proven_hands: hands,
            proven: world,
        })
    }

    /// The knowledge `seat` has of `state`.
    pub fn of_state(state: &State, seat: usize) -> Result<Knowledge, String> {
        if seat >= state.players() {
            return Err(format!("no seat {seat}"));
        }
        Knowledge::new(state.shared_table(), Seen::of(state, seat))
    }

    /// What the seat sees.
    pub fn seen(&self) -> &Seen {
        &self.hidden.seen
    }

    /// The variant's rules and plays.
    pub fn table(&self) -> &Arc<Table> {
        &self.hidden.table
    }

    /// The start hands of a world dealt from `rng`, found in [`WORLD_STEPS`] of the search, or
    /// the proven world's.
    fn world_hands(&self, rng: &mut Rng) -> [u64; MAX_SEATS] {
        self.hidden
            .deal(rng, WORLD_STEPS)
            .unwrap_or(self.proven_hands)
    }

    /// Replays the history from the start `hands`, calling `choice(position, legal, seat,
    /// played)` at each move another seat than the knowing one made among two or more legal
    /// moves, where `wanted(position)` (each position as that seat met it); the world the
    /// replay ends in (as [`Hidden::world_replayed`] gives it), or `None` if the history cannot
    /// be replayed from `hands`. A move not wanted has no legal moves listed.
    fn replay_choices(
        &self,
        hands: &[u64; MAX_SEATS],
        legal: &mut Vec<u64>,
        wanted: impl Fn(&State) -> bool,
        mut choice: impl FnMut(&State, &[u64], usize, u64),
    ) -> Option<State> {
        let seat = self.hidden.seen.seat;
        let each = |replay: &mut State, who: u8, played: u64| {
            if who != seat && wanted(replay) {
                replay.legal_actions(legal);
                if legal.len() > 1 {
                    choice(replay, legal, usize::from(who), played);
                }
            }
        };
        self.hidden.replayed(hands, State::replay, each).ok()
    }

    /// Each seat's hand at the start of a world dealt from `rng` (key order, one per seat):
    /// the deal that, with the history replayed, is the world [`sim::Knowledge::sample`] gives.
    pub fn sample_hands(&self, rng: &mut Rng) -> Vec<u64> {
        let hands = self.world_hands(rng);
        hands[..self.hidden.seen.sizes.len()].to_vec()
    }

    /// A world, as [`sim::Knowledge::sample`] gives, chosen among `candidates` worlds with
    /// probability proportional to `weight(start, world)`: the hook for weighting worlds by how
    /// likely the opponents' past plays were under a policy (replay the deal from `start` and
    /// multiply the policy's probability of each opponent's recorded move). A weight that is
    /// not positive and finite counts as 0; if every candidate weighs 0 the first is taken.
    /// With one candidate, or a constant weight, the draw is that of
    /// [`sim::Knowledge::sample`]'s distribution.
    pub fn sample_weighted<F: FnMut(&Start, &State) -> f64>(
        &self,
        rng: &mut Rng,
        candidates: usize,
        mut weight: F,
    ) -> State {
        self.sample_among(rng, candidates, |hands| {
            let world = self.hidden.world_replayed(hands).ok()?;
            let w = weight(&self.hidden.start(hands), &world);
            Some((world, w))
        })
    }

    /// [`Knowledge::sample_weighted`] with each candidate's world and weight from
    /// `candidate(hands)` (`None` for start hands whose history does not replay, which is
    /// passed over).
    fn sample_among(
        &self,
        rng: &mut Rng,
        candidates: usize,
        mut candidate: impl FnMut(&[u64; MAX_SEATS]) -> Option<(State, f64)>,
    ) -> State {
        let mut chosen: Option<State> = None;
        let mut total = 0.0;
        for _ in 0..candidates.max(1) {
            let hands = self.world_hands(rng);
            let Some((world, w)) = candidate(&hands) else {
                continue;
            };
            let w = if w.is_finite() && w > 0.0 { w } else { 0.0 };
            total += w;
            // A reservoir: each candidate ends chosen with probability w / (the total weight).
            if chosen.is_none() || (w > 0.0 && rng.unit() * total < w) {
                chosen = Some(world);
            }
        }
        chosen.unwrap_or_else(|| self.proven.clone())
    }
}

impl Hidden {
    /// The start of a deal with these hands, the rest as seen.
    fn start(&self, hands: &[u64; MAX_SEATS]) -> Start {
        let seen = &self.seen;
        Start {
            hands: hands[..seen.sizes.len()].to_vec(),
            leader: seen.first_leader,
            out: seen.out,
            table: seen.start_table,
            table_seat: seen.start_table_seat,
            passes: seen.start_passes,
            finished: seen.start_finished.clone(),
        }
    }

    /// The deal from these start hands, with the history replayed: each play looked up among
    /// its seat's plays (the proof of a history); see [`Hidden::world_replayed`].
    fn world(&self, hands: &[u64; MAX_SEATS]) -> Result<State, String> {
        self.replayed(hands, State::apply, |_, _, _| {})
    }

    /// [`Hidden::world`] for a history already proven (by [`Knowledge::new`]): its plays are
    /// plays, so only their cards are checked against the hands ([`State::replay`]).
    fn world_replayed(&self, hands: &[u64; MAX_SEATS]) -> Result<State, String> {
        self.replayed(hands, State::replay, |_, _, _| {})
    }

    /// The deal from these start hands, each move of the history made by `apply` after
    /// `before(position, seat, move)`.
    fn replayed(
        &self,
        hands: &[u64; MAX_SEATS],
        apply: impl Fn(&mut State, u64) -> Result<(), Illegal>,
        mut before: impl FnMut(&mut State, u8, u64),
    ) -> Result<State, String> {
        let mut state = State::new(self.table.clone(), &self.start(hands))?;
        for &(seat, action) in &self.seen.history {
            if state.current_player() != seat as i8 {
                return Err(format!("P{seat} is not to move in the history"));
            }
            before(&mut state, seat, action);
            apply(&mut state, action)
                .map_err(|why| format!("the history cannot be replayed: {why:?}"))?;
        }
        Ok(state)
    }

    /// Each seat's start hand: its known cards with its share of the unseen ones, so that no
    /// seat could have beaten a table it passed on (see the module), found in at most `steps`
    /// of the [`search`].
    fn deal(&self, rng: &mut Rng, steps: u64) -> Result<[u64; MAX_SEATS], Unplaced> {
        let mut cards = [0u8; 52];
        let mut k = 0;
        let mut m = self.unseen;
        while m != 0 {
            cards[k] = m.trailing_zeros() as u8;
            k += 1;
            m &= m - 1;
        }
        let cards = &mut cards[..k];
        rng.shuffle(cards);
        let mut dealt = self.in_order(cards);
        if !self.forced.is_empty() {
            let mut plays = Vec::with_capacity(256);
            let mut tries = 1;
            while !(0..MAX_SEATS).all(|s| self.fits(s as u8, dealt[s], &mut plays)) {
                if tries == DEAL_TRIES {
                    let mut bits: Vec<u64> = cards.iter().map(|&c| 1 << c).collect();
                    let mut known: Cache = HashMap::new();
                    dealt = search(&mut bits, self.room, rng, steps, &mut |seat, hand| {
                        *known
                            .entry((seat, hand))
                            .or_insert_with(|| self.fits(seat, hand, &mut plays))
                    })?;
                    break;
                }
                tries += 1;
                rng.shuffle(cards);
                dealt = self.in_order(cards);
            }
        }
        let mut hands = self.known;
        for (h, d) in hands.iter_mut().zip(dealt) {
            *h |= d;
        }
        Ok(hands)
    }

    /// The shuffled `cards` dealt in seat order, each seat its room.
    fn in_order(&self, cards: &[u8]) -> [u64; MAX_SEATS] {
        let mut dealt = [0u64; MAX_SEATS];
        let mut i = 0;
        for (d, &r) in dealt.iter_mut().zip(&self.room) {
            for &c in &cards[i..i + usize::from(r)] {
                *d |= 1 << c;
            }
            i += usize::from(r);
        }
        dealt
    }

    /// Whether `seat` dealt `hand` (of the unseen cards) keeps every pass it made forced.
    fn fits(&self, seat: u8, hand: u64, plays: &mut Vec<u64>) -> bool {
        self.forced.iter().filter(|f| f.seat == seat).all(|f| {
            self.table.hand_plays(hand | f.later, plays);
            !f.tables.iter().any(|&t| t != 0 && can_beat(plays, t))
        })
    }
}

type Cache = HashMap<(u8, u64), bool>;

impl sim::Knowledge for Knowledge {
    type Deal = State;

    fn seat(&self) -> usize {
        usize::from(self.hidden.seen.seat)
    }

    fn sample(&self, rng: &mut Rng) -> State {
        let hands = self.world_hands(rng);
        // The world replays (the proof in `new`); were it ever not to, the proven one serves.
        self.hidden
            .world_replayed(&hands)
            .unwrap_or_else(|_| self.proven.clone())
    }

    fn sample_inferred<P: Policy<State>>(
        &self,
        rng: &mut Rng,
        inference: &Inference,
        policy: &P,
        scratch: &mut P::Scratch,
    ) -> State {
        let mut legal = Vec::with_capacity(64);
        // The world a candidate gives is this replay's end; the weight needs every position on
        // the way, each seen by the seat that moved. One replay gives both.
        self.sample_among(rng, inference.draws, |hands| {
            let mut weight = 1.0;
            // A seat whose moves weigh nothing (a factor of 1) is passed over.
            let world = self.replay_choices(
                hands,
                &mut legal,
                |replay| policy.weighs(replay),
                |replay, legal, _, played| {
                    weight *= policy.likelihood(replay, legal, played, inference, scratch);
                },
            )?;
            Some((world, weight))
        })
    }

    fn rule_based_chances<P: Policy<State>>(
        &self,
        rng: &mut Rng,
        model: &sim::Opponents,
        policy: &P,
        scratch: &mut P::Scratch,
    ) -> Option<[f64; sim::MAX_PLAYERS]> {
        let seen = &self.hidden.seen;
        let (seat, n) = (usize::from(seen.seat), seen.sizes.len());
        let inference = model.inference();
        // Per seat, the log-likelihood of its moves under each kind, world by world.
        let mut rule_based = vec![Vec::with_capacity(model.worlds); n];
        let mut played_by = vec![Vec::with_capacity(model.worlds); n];
        let mut legal = Vec::with_capacity(64);
        let mut unused = Rng::new(0); // the rule-based policy draws nothing
        for _ in 0..model.worlds.max(1) {
            let hands = self.world_hands(rng);
            let (mut r, mut p) = ([0.0; MAX_SEATS], [0.0; MAX_SEATS]);
            let replayed = self.replay_choices(
                &hands,
                &mut legal,
                |_| true,
                |replay, legal, who, played| {
                    let greedy = sim::Deal::greedy(replay, legal, &mut unused);
                    r[who] += model
                        .rule_based_likelihood(greedy, played, legal.len())
                        .ln();
                    p[who] += policy
                        .likelihood(replay, legal, played, &inference, scratch)
                        .ln();
                },
            );
            if replayed.is_none() {
                continue;
            }
            for s in 0..n {
                rule_based[s].push(r[s]);
                played_by[s].push(p[s]);
            }
        }
        let mut chances = [0.0; sim::MAX_PLAYERS];
        for s in (0..n).filter(|&s| s != seat) {
            chances[s] = model.posterior(&rule_based[s], &played_by[s]);
        }
        Some(chances)
    }
}

/// What the other seats' passes tell under B8 ([`Forced`]), from the history: a pass always
/// faces the latest play (a cleared table is led to, never passed on).
fn forced_passes(seen: &Seen, table: &Table) -> Vec<Forced> {
    if !table.rules.pass_only_if_no_legal_play {
        return Vec::new();
    }
    let mut facing = Vec::with_capacity(seen.history.len());
    let mut t = seen.start_table;
    for &(_, a) in &seen.history {
        facing.push(t);
        if a != PASS {
            t = a;
        }
    }
    let mut later = [0u64; MAX_SEATS];
    let mut forced: Vec<Forced> = Vec::new();
    for (&(seat, a), &t) in seen.history.iter().zip(&facing).rev() {
        let s = usize::from(seat);
        if a != PASS {
            later[s] |= a & MASK;
        } else if seat != seen.seat && seen.sizes[s] > 0 && t != PASS {
            let size = (t >> SIZE_SHIFT) as usize;
            let i = match forced
                .iter()
                .position(|f| f.seat == seat && f.later == later[s])
            {
                Some(i) => i,
                None => {
                    forced.push(Forced {
                        seat,
                        later: later[s],
                        tables: [0; 6],
                    });
                    forced.len() - 1
                }
            };
            let weakest = &mut forced[i].tables[size.min(5)];
            if *weakest == 0 || t < *weakest {
                *weakest = t;
            }
        }
    }
    forced
}

/// Hands of `room[seat]` of `cards` for each seat that all `fits(seat, hand)`. `fits` must hold
/// for every part of a hand it holds for; [`Unplaced::NoDeal`] when no such hands exist, and
/// [`Unplaced::GaveUp`] when `steps` placements found none (the question is hard in general: a
/// hand-made observation can ask it with no answer, and proving so would take years).
///
/// Depth-first, the card with the fewest seats able to take it first, seats in random order. A
/// branch ends as soon as the cards left cannot be placed one by one (Hall's condition: the
/// cards that only the seats of a set can take outnumber those seats' room). Searches that run
/// long start again in a new random order, with twice the patience each time, so that an unlucky
/// early choice costs little; one that ends within its patience has tried everything.
fn search(
    cards: &mut [u64],
    mut room: [u8; MAX_SEATS],
    rng: &mut Rng,
    steps: u64,
    fits: &mut dyn FnMut(u8, u64) -> bool,
) -> Result<[u64; MAX_SEATS], Unplaced> {
    let seats: u8 = (0..MAX_SEATS)
        .filter(|&s| room[s] > 0)
        .fold(0, |m, s| m | 1 << s);
    let mut hands = [0u64; MAX_SEATS];
    let mut patience: u64 = 100;
    let mut left = steps;
    loop {
        if left == 0 {
            return Err(Unplaced::GaveUp);
        }
        let mut budget = patience.min(left);
        left -= budget;
        rng.shuffle(cards);
        let mut search = Search {
            seats,
            room: &mut room,
            hands: &mut hands,
            budget: &mut budget,
            rng: &mut *rng,
            fits: &mut *fits,
        };
        if search.place(cards) {
            return Ok(hands);
        }
        if budget > 0 {
            return Err(Unplaced::NoDeal); // ended within its patience: every branch was tried
        }
        patience = patience.saturating_mul(2);
    }
}

struct Search<'a> {
    /// The seats with room at the start (bit `seat`).
    seats: u8,
    room: &'a mut [u8; MAX_SEATS],
    hands: &'a mut [u64; MAX_SEATS],
    budget: &'a mut u64,
    rng: &'a mut Rng,
    fits: &'a mut dyn FnMut(u8, u64) -> bool,
}

impl Search<'_> {
    /// Places `cards`; on failure everything is as it was.
    fn place(&mut self, cards: &mut [u64]) -> bool {
        if cards.is_empty() {
            return true;
        }
        if *self.budget == 0 {
            return false;
        }
        *self.budget -= 1;
        let mut takers = [0u8; 52];
        for (t, &c) in takers.iter_mut().zip(cards.iter()) {
            for s in 0..MAX_SEATS {
                if self.room[s] > 0 && (self.fits)(s as u8, self.hands[s] | c) {
                    *t |= 1 << s;
                }
            }
        }
        let takers = &takers[..cards.len()];
        // Hall's condition, over every set of the seats.
        let mut group = self.seats;
        while group != 0 {
            let within = takers.iter().filter(|&&t| t & !group == 0).count();
            let space: usize = (0..MAX_SEATS)
                .filter(|&s| group >> s & 1 == 1)
                .map(|s| usize::from(self.room[s]))
                .sum();
            if within > space {
                return false;
            }
            group = (group - 1) & self.seats;
        }
        let mut i = 0;
        for (k, t) in takers.iter().enumerate() {
            if t.count_ones() < takers[i].count_ones() {
                i = k;
            }
        }
        let mut order = [0u8; MAX_SEATS];
        let mut len = 0;
        for s in 0..MAX_SEATS as u8 {
            if takers[i] >> s & 1 == 1 {
                order[len] = s;
                len += 1;
            }
        }
        self.rng.shuffle(&mut order[..len]);
        let last = cards.len() - 1;
        cards.swap(i, last);
        let card = cards[last];
        for &seat in &order[..len] {
            let s = usize::from(seat);
            self.room[s] -= 1;
            self.hands[s] |= card;
            if self.place(&mut cards[..last]) {
                return true;
            }
            self.hands[s] ^= card;
            self.room[s] += 1;
        }
        cards.swap(i, last);
        false
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::climbing::rules::Rules;
    use crate::sim::{Deal, Knowledge as _};
    use crate::test_support::climbing::{all_rules, fresh};

    /// Everything a sampled world must keep of `knowledge`, checked on a world dealt from `rng`:
    /// it replays (no fallback), shows the seat exactly what it saw, holds every card once, and
    /// keeps every pass forced under B8.
    fn check_world(knowledge: &Knowledge, rng: &mut Rng) -> State {
        let hidden = &knowledge.hidden;
        let hands = hidden.deal(rng, PROOF_STEPS).expect("a deal");
        let world = hidden.world(&hands).expect("the history replays");
        let seat = usize::from(hidden.seen.seat);
        assert_eq!(Seen::of(&world, seat), hidden.seen);
        let held = world.hands().iter().fold(0, |m, &h| {
            assert_eq!(m & h, 0, "a card in two hands");
            m | h
        });
        assert_eq!(held & (world.played() | world.out()), 0);
        assert_eq!(held | world.played() | world.out(), MASK);
        // Each forced pass: the seat's hand then (its hand now and its later plays) could not
        // beat the table it passed on.
        let mut plays = Vec::new();
        for f in &hidden.forced {
            let now = world.hands()[usize::from(f.seat)];
            knowledge.table().hand_plays(now | f.later, &mut plays);
            assert!(f.tables.iter().all(|&t| t == 0 || !can_beat(&plays, t)));
        }
        world
    }

    /// Random play of `table`'s deals, calling `visit` on every position before each move.
    fn positions(table: &Arc<Table>, deals: usize, seed: u64, mut visit: impl FnMut(&State)) {
        let mut rng = Rng::new(seed);
        let mut legal = Vec::new();
        for _ in 0..deals {
            let mut state = fresh(table, &mut rng);
            loop {
                visit(&state);
                if state.is_over() {
                    break;
                }
                state.legal_into(&mut legal);
                let m = legal[rng.below(legal.len() as u64) as usize];
                state.play(m, &mut rng);
            }
        }
    }

    #[test]
    fn sampled_worlds_show_the_seat_what_it_saw_and_keep_every_constraint() {
        for rules in all_rules() {
            let table = Arc::new(Table::new(rules));
            let mut rng = Rng::new(3);
            let mut count = 0;
            positions(&table, 4, 1, |state| {
                for seat in 0..4 {
                    let knowledge = Knowledge::of_state(state, seat).expect("knowledge");
                    for _ in 0..2 {
                        check_world(&knowledge, &mut rng);
                        let world = knowledge.sample(&mut rng);
                        assert_eq!(&Seen::of(&world, seat), knowledge.seen());
                        count += 1;
                    }
                }
            });
            assert!(count > 500, "{count}");
        }
    }

    #[test]
    fn a_world_replayed_without_looking_plays_up_plays_on_as_the_checked_one() {
        // `world_replayed` lists a seat's plays only once needed, from the hand of the moment;
        // the world plays on exactly as the one whose every play was looked up.
        for rules in all_rules() {
            let table = Arc::new(Table::new(rules));
            let mut rng = Rng::new(4);
            let (mut legal, mut other) = (Vec::new(), Vec::new());
            positions(&table, 3, 2, |state| {
                let seat = state.current_player().max(0) as usize;
                let knowledge = Knowledge::of_state(state, seat).expect("knowledge");
                let hands = knowledge.world_hands(&mut rng);
                let mut checked = knowledge.hidden.world(&hands).expect("replays");
                let mut replayed = knowledge.hidden.world_replayed(&hands).expect("replays");
                let mut play = Rng::new(rng.below(1 << 30));
                loop {
                    assert_eq!(checked.hands(), replayed.hands());
                    assert_eq!(checked.history(), replayed.history());
                    assert_eq!(checked.current_player(), replayed.current_player());
                    if checked.is_over() {
                        assert_eq!(checked.returns(), replayed.returns());
                        break;
                    }
                    checked.legal_into(&mut legal);
                    replayed.legal_into(&mut other);
                    assert_eq!(legal, other);
                    let m = legal[play.below(legal.len() as u64) as usize];
                    checked.apply(m).expect("legal");
                    replayed.apply(m).expect("legal");
                }
            });
        }
    }

    /// Composed starts: cards out, a trick in progress, seats already out (pusoy-dos).
    fn composed() -> Vec<(Rules, Start)> {
        let bits = |ks: &[u32]| ks.iter().fold(0u64, |m, &k| m | 1 << k);
        // A pair of 10s (key bits 28, 31) on the table by P2; P3 passed.
        let pair = 2u64 << 61 | 31 << 52 | bits(&[28, 31]);
        let hands = vec![bits(&[0, 35]), bits(&[5, 10]), bits(&[39, 47]), bits(&[44])];
        let used = hands.iter().fold(pair & MASK, |m, h| m | h);
        let trick = Start {
            hands,
            out: MASK & !used,
            table: pair,
            table_seat: 2,
            passes: 1,
            ..Start::default()
        };
        let pusoy_hands = vec![bits(&[0, 4, 8]), 0, bits(&[9, 13, 17]), bits(&[30, 40])];
        let used = pusoy_hands.iter().fold(0, |m, h| m | h);
        let pusoy = Start {
            hands: pusoy_hands,
            leader: Some(2),
            out: MASK & !used,
            table_seat: -1,
            finished: vec![1],
            ..Start::default()
        };
        let mut b8 = Rules::big_two();
        b8.pass_only_if_no_legal_play = true;
        vec![
            (Rules::big_two(), trick.clone()),
            (b8, trick),
            (Rules::pusoy_dos(), pusoy),
        ]
    }

    #[test]
    fn composed_positions_sample_consistently_as_they_play_on() {
        for (rules, start) in composed() {
            let table = Arc::new(Table::new(rules));
            let mut state = State::new(table, &start).unwrap();
            let mut rng = Rng::new(9);
            let mut legal = Vec::new();
            loop {
                for seat in 0..4 {
                    let knowledge = Knowledge::of_state(&state, seat).unwrap();
                    for _ in 0..5 {
                        check_world(&knowledge, &mut rng);
                    }
                }
                if state.is_over() {
                    break;
                }
                state.legal_into(&mut legal);
                let m = legal[rng.below(legal.len() as u64) as usize];
                state.play(m, &mut rng);
            }
        }
    }

    #[test]
    fn the_seat_to_open_holds_the_lowest_card() {
        let table = Arc::new(Table::new(Rules::big_two()));
        let mut rng = Rng::new(4);
        for _ in 0..20 {
            let state = fresh(&table, &mut rng);
            let opener = state.current_player() as usize;
            let seat = (opener + 1) % 4;
            let knowledge = Knowledge::of_state(&state, seat).unwrap();
            for _ in 0..20 {
                let world = check_world(&knowledge, &mut rng);
                assert_eq!(world.hands()[opener] & 1, 1);
            }
        }
    }

    #[test]
    fn unseen_cards_spread_over_the_other_seats_uniformly() {
        // Mid-deal in big-two-4card, seen from P0: each unseen card is with each other seat
        // about as often as that seat's share of the unseen cards.
        let table = Arc::new(Table::new(Rules::big_two_4card()));
        let mut rng = Rng::new(21);
        let mut state = fresh(&table, &mut rng);
        let mut legal = Vec::new();
        for _ in 0..10 {
            state.legal_into(&mut legal);
            let m = state.greedy(&legal, &mut rng);
            state.play(m, &mut rng);
        }
        assert!(!state.is_over());
        let knowledge = Knowledge::of_state(&state, 0).unwrap();
        let hidden = &knowledge.hidden;
        let unseen = hidden.unseen;
        let total = f64::from(unseen.count_ones());
        let draws = 20_000;
        let mut counts = [[0u32; 4]; 52];
        for _ in 0..draws {
            let hands = knowledge.sample_hands(&mut rng);
            for (seat, &h) in hands.iter().enumerate() {
                let mut m = h & unseen;
                while m != 0 {
                    counts[m.trailing_zeros() as usize][seat] += 1;
                    m &= m - 1;
                }
            }
        }
        for (card, row) in counts.iter().enumerate() {
            if unseen >> card & 1 == 0 {
                assert_eq!(row, &[0; 4]);
                continue;
            }
            assert_eq!(row[0], 0, "the seat's own share of unseen cards is none");
            for (seat, &n) in row.iter().enumerate().skip(1) {
                let expect = f64::from(hidden.room[seat]) / total;
                let got = f64::from(n) / f64::from(draws);
                // About 0.0035 standard error: 0.03 is over 8 of them.
                assert!(
                    (got - expect).abs() < 0.03,
                    "card {card} P{seat}: {got} vs {expect}"
                );
            }
        }
    }

    #[test]
    fn passes_forced_by_b8_keep_the_ace_from_the_seat_that_passed() {
        // big-two B8: P0 leads KD, P1 passes (so holds nothing above KD), P2 plays AS, P3 2S,
        // all pass. P1 was dealt 5D 6D 7D; the AH (P2's) is never dealt to P1.
        let mut rules = Rules::big_two();
        rules.pass_only_if_no_legal_play = true;
        let table = Arc::new(Table::new(rules));
        // Key bits: rank r (3 = 0 … 2 = 12) * 4 + suit place (D C H S).
        let card = |r: u32, s: u32| 1u64 << (4 * r + s);
        let hands = vec![
            card(0, 1) | card(1, 1) | card(10, 0),
            card(2, 0) | card(3, 0) | card(4, 0),
            card(5, 0) | card(11, 2) | card(11, 3),
            card(6, 0) | card(7, 0) | card(12, 3),
        ];
        let used = hands.iter().fold(0, |m, h| m | h);
        let start = Start {
            hands,
            leader: Some(0),
            out: MASK & !used,
            table_seat: -1,
            ..Start::default()
        };
        let mut state = State::new(table.clone(), &start).unwrap();
        let single = |k: u64| 1u64 << 61 | k << 52 | 1 << k;
        for a in [single(40), PASS, single(47), single(51), PASS, PASS, PASS] {
            state.apply(a).unwrap();
        }
        let knowledge = Knowledge::of_state(&state, 0).unwrap();
        // P1's passes on KD and 2S, P2's on 2S (P0's own pass tells P0 nothing).
        let passed: Vec<u8> = knowledge.hidden.forced.iter().map(|f| f.seat).collect();
        assert_eq!(passed, [2, 1]);
        let mut rng = Rng::new(1);
        let mut p1 = 0;
        for _ in 0..200 {
            p1 |= check_world(&knowledge, &mut rng).hands()[1];
        }
        assert_eq!(p1 & card(11, 2), 0);
        assert_eq!(
            p1,
            card(2, 0) | card(3, 0) | card(4, 0) | card(5, 0) | card(6, 0) | card(7, 0)
        );
    }

    #[test]
    fn the_search_finds_a_deal_where_random_deals_rarely_fit_and_knows_when_none_does() {
        // 12 cards for three seats of 4; seat 1 may hold no card above bit 3 (four cards fit):
        // 1 random deal in 495 fits.
        let mut rng = Rng::new(2);
        let mut fits = |seat: u8, hand: u64| seat != 1 || hand < 1 << 4;
        for _ in 0..50 {
            let mut cards: Vec<u64> = (0..12).map(|k| 1 << k).collect();
            let hands = search(&mut cards, [0, 4, 4, 4], &mut rng, 10_000, &mut fits).unwrap();
            assert_eq!(hands[1], 0b1111);
            assert_eq!(hands[2].count_ones() + hands[3].count_ones(), 8);
            assert_eq!(hands.iter().fold(0, |m, h| m | h), (1 << 12) - 1);
        }
        // Seat 1 may hold nothing above bit 2: only three cards fit its four places.
        let mut none = |seat: u8, hand: u64| seat != 1 || hand < 1 << 3;
        let mut cards: Vec<u64> = (0..12).map(|k| 1 << k).collect();
        assert_eq!(
            search(&mut cards, [0, 4, 4, 4], &mut rng, 10_000, &mut none),
            Err(Unplaced::NoDeal)
        );
    }

    #[test]
    fn a_search_gives_up_when_its_steps_run_out() {
        // Placing 12 cards takes a step each.
        let mut rng = Rng::new(3);
        let mut any = |_: u8, _: u64| true;
        let mut cards: Vec<u64> = (0..12).map(|k| 1 << k).collect();
        assert_eq!(
            search(&mut cards, [0, 4, 4, 4], &mut rng, 11, &mut any),
            Err(Unplaced::GaveUp)
        );
        assert!(search(&mut cards, [0, 4, 4, 4], &mut rng, 12, &mut any).is_ok());
        // No seat may hold two cards of a residue mod 3, and each residue has four: no deal,
        // which a card-by-card check sees only once three of a residue are placed.
        let mut apart = |_: u8, hand: u64| (0..3).all(|r| (hand & 0o1111 << r).count_ones() < 2);
        assert_eq!(
            search(&mut cards, [0, 4, 4, 4], &mut rng, 3, &mut apart),
            Err(Unplaced::GaveUp)
        );
        assert_eq!(
            search(&mut cards, [0, 4, 4, 4], &mut rng, 100_000, &mut apart),
            Err(Unplaced::NoDeal)
        );
    }

    #[test]
    fn b8_deals_played_out_sample_consistently_at_every_position() {
        let mut rules = Rules::big_two();
        rules.pass_only_if_no_legal_play = true;
        let table = Arc::new(Table::new(rules));
        let mut rng = Rng::new(8);
        let mut forced = 0;
        positions(&table, 30, 2, |state| {
            for seat in 0..4 {
                let knowledge = Knowledge::of_state(state, seat).unwrap();
                forced += knowledge.hidden.forced.len();
                check_world(&knowledge, &mut rng);
            }
        });
        assert!(forced > 100, "{forced}");
    }

    #[test]
    fn an_observation_no_deal_could_show_is_refused() {
        let table = Arc::new(Table::new(Rules::big_two()));
        let state = fresh(&table, &mut Rng::new(1));
        let seat = (state.current_player() as usize + 1) % 4; // not the opener
        let seen = Seen::of(&state, seat);
        let good = Knowledge::new(table.clone(), seen.clone());
        assert!(good.is_ok());
        let mut bad = seen.clone();
        bad.sizes[(seat + 1) % 4] += 1; // a card too many
        assert!(Knowledge::new(table.clone(), bad).is_err());
        let mut bad = seen.clone();
        bad.current = seat as i8; // to open without the lowest card
        assert!(Knowledge::new(table.clone(), bad).is_err());
        let mut bad = seen.clone();
        bad.history.push((7, PASS));
        assert!(Knowledge::new(table.clone(), bad).is_err());
        let mut bad = seen;
        bad.sizes = vec![13; 5];
        assert!(Knowledge::new(table, bad).is_err());
    }

    #[test]
    fn weighted_sampling_takes_only_worlds_of_positive_weight() {
        let table = Arc::new(Table::new(Rules::big_two_4card()));
        let mut rng = Rng::new(6);
        let state = fresh(&table, &mut rng);
        let seat = (state.current_player() as usize + 1) % 4;
        let knowledge = Knowledge::of_state(&state, seat).unwrap();
        // Only worlds where P(seat + 1) holds the 2S (key bit 51) weigh anything.
        let other = (seat + 1) % 4;
        for _ in 0..30 {
            let world = knowledge.sample_weighted(&mut rng, 16, |start, world| {
                assert_eq!(start.hands, world.hands());
                if start.hands[other] >> 51 & 1 == 1 {
                    1.0
                } else {
                    0.0
                }
            });
            assert_eq!(&Seen::of(&world, seat), knowledge.seen());
            if state.hands()[seat] >> 51 & 1 == 0 {
                // 16 candidates miss it with probability (3/4)^16 ≈ 1%; seeded, it never does.
                assert_eq!(world.hands()[other] >> 51 & 1, 1);
            }
        }
    }

    /// A model of the other seats that says P`other` holds the 2S (key bit 51): its every
    /// choice is a thousand times likelier when it does; the others tell nothing.
    struct HoldsTheTwo {
        other: usize,
    }

    impl Policy<State> for HoldsTheTwo {
        type Scratch = ();
        fn choose(&self, _: &State, legal: &[u64], _: &mut Rng, _: &mut ()) -> u64 {
            legal[0]
        }
        fn likelihood(&self, state: &State, _: &[u64], _: u64, _: &Inference, _: &mut ()) -> f64 {
            let mover = state.current_player() as usize;
            match (mover == self.other, state.hands()[mover] >> 51 & 1 == 1) {
                (true, true) => 1.0,
                (true, false) => 0.001,
                (false, _) => 0.5,
            }
        }
    }

    /// A player of the model's other kind: it plays its last legal move, and says so.
    struct Last;

    impl Policy<State> for Last {
        type Scratch = ();
        fn choose(&self, _: &State, legal: &[u64], _: &mut Rng, _: &mut ()) -> u64 {
            legal[legal.len() - 1]
        }
        fn likelihood(&self, _: &State, legal: &[u64], m: u64, _: &Inference, _: &mut ()) -> f64 {
            if Some(&m) == legal.last() {
                0.9
            } else {
                0.1 / (legal.len() - 1) as f64
            }
        }
    }

    #[test]
    fn a_modelled_seat_is_read_by_its_kind() {
        // A seat modelled as rule-based made its move with the rule-based policy's chance (its
        // own choice, or the uniform share); any other seat with the inner policy's, or 1 where
        // the inner policy's seats do not weigh the worlds.
        let table = Arc::new(Table::new(Rules::big_two_4card()));
        let mut rng = Rng::new(5);
        let inference = Inference {
            draws: 4,
            temperature: 1.0,
            uniform: 0.1,
        };
        let mut legal = Vec::new();
        let mut checked = 0;
        while checked < 20 {
            let mut state = fresh(&table, &mut rng);
            while !state.is_over() {
                state.legal_into(&mut legal);
                let mover = state.current_player() as u32;
                let greedy = state.greedy(&legal, &mut rng);
                if legal.len() > 2 {
                    let n = legal.len() as f64;
                    let other = *legal.iter().find(|&&m| m != greedy).unwrap();
                    let as_kind = |rule_based: u32, weigh_inner: bool, m: u64| {
                        let modelled = sim::Modelled {
                            inner: &Last,
                            rule_based,
                            weigh_inner,
                        };
                        modelled.likelihood(&state, &legal, m, &inference, &mut ())
                    };
                    let (rule_based, others) = (1 << mover, !(1 << mover));
                    for weigh_inner in [true, false] {
                        let p = as_kind(rule_based, weigh_inner, greedy);
                        assert!((p - (0.9 + 0.1 / n)).abs() < 1e-12);
                        assert!((as_kind(rule_based, weigh_inner, other) - 0.1 / n).abs() < 1e-12);
                    }
                    for m in [greedy, other] {
                        let inner = Last.likelihood(&state, &legal, m, &inference, &mut ());
                        assert_eq!(as_kind(others, true, m), inner);
                        assert_eq!(as_kind(others, false, m), 1.0);
                    }
                    checked += 1;
                }
                state.play(greedy, &mut rng);
            }
        }
    }

    #[test]
    fn the_kinds_of_the_other_seats_are_weighed_from_their_moves() {
        // P1 and P3 play by the rule-based policy, P2 by `Last`: once each has chosen a few
        // times, P0 finds P1 and P3 more likely rule-based than not, and P2 not at all.
        let table = Arc::new(Table::new(Rules::big_two_4card()));
        let mut rng = Rng::new(11);
        let model = sim::Opponents {
            worlds: 256,
            prior: 0.5,
            noise: 0.05,
            temperature: 1.0,
            certainty: 0.8,
            draws: 1,
        };
        let mut legal = Vec::new();
        let mut rule_based = Vec::new();
        let mut raced = Vec::new();
        for _ in 0..8 {
            let mut state = fresh(&table, &mut rng);
            let mut choices = [0; 4];
            // Until P1-P3 have each chosen four times and P0 is to move.
            while !state.is_over()
                && (choices[1..].iter().any(|&c| c < 4) || state.current_player() != 0)
            {
                state.legal_into(&mut legal);
                let mover = state.current_player() as usize;
                choices[mover] += usize::from(legal.len() > 1);
                let m = if mover == 2 {
                    legal[legal.len() - 1]
                } else {
                    state.greedy(&legal, &mut rng)
                };
                state.play(m, &mut rng);
            }
            if state.is_over() {
                continue;
            }
            let knowledge = Knowledge::of_state(&state, 0).unwrap();
            let chances =
                sim::Knowledge::rule_based_chances(&knowledge, &mut rng, &model, &Last, &mut ())
                    .expect("climbing deals replay");
            assert_eq!(chances[0], 0.0, "the searching seat is not modelled");
            assert!(chances[1] > 0.5 && chances[3] > 0.5, "{chances:?}");
            assert!(chances[2] < 0.01, "{chances:?}");
            assert!(chances[4..].iter().all(|&c| c == 0.0));
            rule_based.extend([chances[1], chances[3]]);
            // A race with the model says whom it played by the rule-based policy: never the
            // searching seat or P2; P1 and P3 as often as their chances reach the certainty.
            state.legal_into(&mut legal);
            let settings = sim::search::Settings {
                iterations: Some(4 * legal.len() as u64),
                time_limit: None,
                min_worlds: 4,
                confidence: 2.5,
                indifference: 0.0,
                prior_weight: 0.0,
                threads: 1,
                inference: None,
                leaf_after: None,
                opponents: Some(model),
            };
            let priors = vec![0.0; legal.len()];
            let outcome = sim::search::race(&knowledge, &legal, &priors, &settings, 7, &Last)
                .expect("the candidates are P0's legal moves");
            assert_eq!(outcome.rule_based & 0b101, 0, "{:b}", outcome.rule_based);
            raced.push(outcome.rule_based);
        }
        // Both certain seats were played by the rule-based policy in some race.
        assert!(raced.contains(&0b1010), "{raced:?}");
        // Four choices each do not always tell: on average they all but settle it.
        assert!(rule_based.len() >= 8, "{} seats checked", rule_based.len());
        let mean = rule_based.iter().sum::<f64>() / rule_based.len() as f64;
        assert!(mean > 0.9, "{rule_based:?}");
    }

    #[test]
    fn inferred_worlds_follow_the_model_of_the_other_seats() {
        // After a few greedy moves in big-two-4card, P0 (without the 2S) samples worlds: with
        // one draw a world, the 2S is with P2 about a third of the time; with 32 draws
        // weighted by a model that says P2 holds it, nearly always. Every world is consistent.
        let table = Arc::new(Table::new(Rules::big_two_4card()));
        let mut rng = Rng::new(3);
        let (seat, other) = (0, 2);
        let mut legal = Vec::new();
        let state = loop {
            let mut state = fresh(&table, &mut rng);
            let mut chose = false;
            for _ in 0..9 {
                state.legal_into(&mut legal);
                chose |= state.current_player() == other as i8 && legal.len() > 1;
                let m = state.greedy(&legal, &mut rng);
                state.play(m, &mut rng);
            }
            // P2 has chosen among two or more moves, and P0 cannot see where the 2S is.
            if chose && state.played() >> 51 & 1 == 0 && state.hands()[seat] >> 51 & 1 == 0 {
                break state;
            }
        };
        let knowledge = Knowledge::of_state(&state, seat).unwrap();
        let model = HoldsTheTwo { other };
        let share = |draws: usize, rng: &mut Rng| {
            let inference = Inference {
                draws,
                temperature: 1.0,
                uniform: 0.1,
            };
            let worlds = 300;
            let mut with = 0;
            for _ in 0..worlds {
                let world =
                    sim::Knowledge::sample_inferred(&knowledge, rng, &inference, &model, &mut ());
                assert_eq!(&Seen::of(&world, seat), knowledge.seen());
                with += world.hands()[other] >> 51 & 1;
            }
            with as f64 / f64::from(worlds)
        };
        let plain = share(1, &mut rng);
        let inferred = share(32, &mut rng);
        assert!((0.2..0.5).contains(&plain), "{plain}");
        assert!(inferred > 0.95, "{inferred}");
        // One draw is the plain sample, from the same numbers.
        let inference = Inference {
            draws: 1,
            temperature: 1.0,
            uniform: 0.1,
        };
        let one = sim::Knowledge::sample_inferred(
            &knowledge,
            &mut Rng::new(9),
            &inference,
            &model,
            &mut (),
        );
        assert_eq!(one.hands(), knowledge.sample(&mut Rng::new(9)).hands());
    }

    /// [`HoldsTheTwo`], whose other seats tell nothing (a factor of 1). With `skip` it says so
    /// ([`Policy::weighs`]), and their moves' likelihood is never to be asked.
    struct OnlyTheTwo {
        other: usize,
        skip: bool,
    }

    impl Policy<State> for OnlyTheTwo {
        type Scratch = ();
        fn choose(&self, _: &State, legal: &[u64], _: &mut Rng, _: &mut ()) -> u64 {
            legal[0]
        }
        fn likelihood(&self, state: &State, _: &[u64], _: u64, _: &Inference, _: &mut ()) -> f64 {
            let mover = state.current_player() as usize;
            if mover != self.other {
                assert!(
                    !self.skip,
                    "asked the likelihood of a seat that weighs nothing"
                );
                return 1.0;
            }
            if state.hands()[mover] >> 51 & 1 == 1 {
                1.0
            } else {
                0.001
            }
        }
        fn weighs(&self, state: &State) -> bool {
            !self.skip || state.current_player() as usize == self.other
        }
    }

    #[test]
    fn seats_that_weigh_nothing_are_passed_over_and_leave_the_worlds_as_they_were() {
        let table = Arc::new(Table::new(Rules::big_two_4card()));
        let mut rng = Rng::new(5);
        let mut legal = Vec::new();
        let inference = Inference {
            draws: 16,
            temperature: 1.0,
            uniform: 0.1,
        };
        let mut compared = 0;
        for _ in 0..6 {
            let mut state = fresh(&table, &mut rng);
            for _ in 0..10 {
                state.legal_into(&mut legal);
                let m = state.greedy(&legal, &mut rng);
                state.play(m, &mut rng);
            }
            let seat = (state.current_player().max(0) as usize + 1) % 4;
            let knowledge = Knowledge::of_state(&state, seat).unwrap();
            let other = (seat + 2) % 4;
            let seed = rng.below(1 << 30);
            let (mut asked, mut skipping) = (Rng::new(seed), Rng::new(seed));
            for _ in 0..20 {
                let model = |skip| OnlyTheTwo { other, skip };
                let a = knowledge.sample_inferred(&mut asked, &inference, &model(false), &mut ());
                let b = knowledge.sample_inferred(&mut skipping, &inference, &model(true), &mut ());
                assert_eq!(a.hands(), b.hands());
                compared += 1;
            }
        }
        assert_eq!(compared, 120);
    }

    #[test]
    fn greedy_playouts_end_and_return_what_the_rules_say() {
        for rules in all_rules() {
            let scoring = rules.scoring;
            let table = Arc::new(Table::new(rules));
            let mut rng = Rng::new(11);
            let mut legal = Vec::new();
            let mut returns = [0.0; 4];
            for _ in 0..300 {
                let mut deal = fresh(&table, &mut rng);
                sim::playout(&mut deal, &mut rng, &mut legal);
                assert!(deal.to_move() < 0 && deal.is_over());
                // Every card is still somewhere: in a hand or played.
                let held = deal.hands().iter().fold(0, |m, h| m | h);
                assert_eq!(held | deal.played(), MASK);
                assert_eq!(held & deal.played(), 0);
                deal.returns_into(&mut returns);
                let left: Vec<f64> = deal.hands().iter().map(|h| h.count_ones().into()).collect();
                let winner = usize::from(deal.finished()[0]);
                assert_eq!(left[winner], 0.0);
                match scoring {
                    // Zero-sum: the winner takes the others' cards.
                    crate::climbing::Scoring::Count => {
                        assert_eq!(returns.iter().sum::<f64>(), 0.0);
                        assert_eq!(returns[winner], left.iter().sum::<f64>());
                    }
                    crate::climbing::Scoring::Penalty => {
                        for (r, &l) in returns.iter().zip(&left) {
                            assert_eq!(-r, f64::from(crate::climbing::rules::penalty(l as u32)));
                        }
                    }
                    // Places 3, 2, 1, 0: every seat ends with one.
                    crate::climbing::Scoring::Placement => {
                        let mut sorted = returns;
                        sorted.sort_by(f64::total_cmp);
                        assert_eq!(sorted, [0.0, 1.0, 2.0, 3.0]);
                        assert_eq!(returns[winner], 3.0);
                    }
                }
            }
        }
    }

    #[test]
    fn a_settled_result_is_the_one_the_deal_ends_with() {
        let mut legal = Vec::new();
        for rules in all_rules() {
            let placement = rules.scoring == crate::climbing::Scoring::Placement;
            let table = Arc::new(Table::new(rules));
            let mut rng = Rng::new(3);
            let mut early = 0;
            for _ in 0..200 {
                let mut deal = fresh(&table, &mut rng);
                let mut settled = [None; 4];
                while deal.to_move() >= 0 {
                    for (seat, s) in settled.iter_mut().enumerate() {
                        if let Some(now) = deal.settled(seat) {
                            // Once settled, it stays as it was.
                            assert_eq!(*s.get_or_insert(now), now);
                        }
                    }
                    deal.legal_into(&mut legal);
                    let m = deal.greedy(&legal, &mut rng);
                    deal.play(m, &mut rng);
                }
                early += settled.iter().flatten().count();
                for (seat, s) in settled.iter().enumerate() {
                    let end = sim::result_over(&deal, seat);
                    assert_eq!(deal.settled(seat), Some(end));
                    assert!(s.is_none_or(|s| s == end), "{s:?} then {end:?}");
                }
            }
            // Placement settles the seats out before the last at once; the others only end.
            assert_eq!(early > 0, placement, "{early} seats settled early");
        }
    }

    #[test]
    fn a_rollout_stops_where_its_seat_is_placed_with_the_result_of_playing_on() {
        let table = Arc::new(Table::new(Rules::pusoy_dos()));
        let mut rng = Rng::new(8);
        let (mut legal, mut stopped) = (Vec::new(), 0);
        for game in 0..200 {
            let start = fresh(&table, &mut rng);
            let seat = game % 4;
            let (mut short, mut long) = (start.clone(), start);
            let got = sim::rollout(
                &mut short,
                &mut Rng::new(1),
                &mut legal,
                &sim::Greedy,
                &mut (),
                seat,
                0,
            );
            sim::playout(&mut long, &mut Rng::new(1), &mut legal);
            assert_eq!(got, sim::result_over(&long, seat));
            stopped += usize::from(!short.is_over());
        }
        assert!(stopped > 50, "{stopped} rollouts stopped before the end");
    }

    #[test]
    fn greedy_picks_a_legal_move_and_never_draws() {
        let table = Arc::new(Table::new(Rules::big_two_4card()));
        let mut rng = Rng::new(5);
        let mut legal = Vec::new();
        for _ in 0..50 {
            let mut deal = fresh(&table, &mut rng);
            while deal.to_move() >= 0 {
                deal.legal_into(&mut legal);
                let mut before = rng.clone();
                let m = deal.greedy(&legal, &mut rng);
                assert!(legal.contains(&m));
                assert_eq!(before.next_u64(), rng.clone().next_u64());
                deal.play(m, &mut rng);
            }
        }
    }
}
