//! Rummy in simulation: the deal as a [`Deal`] (greedy playouts, the stock rebuilt from the
//! simulation's generator) and what one seat knows as a [`Knowledge`], from which whole deals
//! consistent with its view are sampled.
//!
//! A seat sees its own hand, the table, the discard pile, every hand's size, and the cards each
//! seat took from the discard pile and still holds. Everything else (the other hands' other
//! cards and the stock, whose order nobody knows) is *unseen*, and a sampled world deals the
//! unseen cards uniformly at random: each other seat gets its taken cards plus as many unseen
//! cards as its hand holds besides, and the rest are the stock, in random order. This is the
//! sampler the Python package had (`RummyObservation.sample_state`), with the same guarantee:
//! the sampled world shows the knowing seat exactly what it saw.
//!
//! It keeps no more than that: a card discarded, shuffled back into the stock at a rebuild and
//! not seen since is dealt like any other unseen card, though the seat knows it went into the
//! stock (the Python sampler did the same).

use crate::sim::{Deal, Knowledge as SimKnowledge, Rng};

use super::melds::{FULL, is_meld, mask_value};
use super::policy::choose;
use super::state::{MAX_SEATS, Parts, PublicView, Rules, State, TERMINAL};

impl Deal for State {
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

    /// Applies `m`; when the stock is then empty at the start of a turn, it is rebuilt from the
    /// discards under the top card, shuffled by `rng`. A move that is not legal changes nothing.
    fn play(&mut self, m: u64, rng: &mut Rng) {
        let done = self.apply(m);
        debug_assert!(done.is_ok(), "{m} is not legal here");
        self.rebuild_shuffled(rng);
    }

    /// Each seat's score less the points of its hand.
    fn returns_into(&self, out: &mut [f64]) {
        for (seat, r) in out.iter_mut().enumerate().take(State::players(self)) {
            *r = (self.scores()[seat] - mask_value(self.hand(seat))) as f64;
        }
    }

    fn greedy(&self, legal: &[u64], rng: &mut Rng) -> u64 {
        let seat = usize::try_from(self.current_player()).unwrap_or(0);
        legal[choose(&self.sight(seat), legal, || rng.unit()).unwrap_or(0)]
    }
}

/// What one seat knows of a rummy deal: the deal with every card it saw in place (its hand, the
/// table, the pile, each seat's taken cards; every hand laid face up once the deal is over),
/// and the unseen cards with how many of them each other seat holds.
#[derive(Clone, Debug)]
pub struct Knowledge {
    seat: usize,
    /// The known position: the other seats hold only their taken cards, the stock is empty.
    base: State,
    unseen: [u8; 52],
    n_unseen: u8,
    /// How many unseen cards each seat holds.
    need: [u8; MAX_SEATS],
}

impl Knowledge {
    /// What `seat` knows, from what it is shown: the public view every seat gets, its hand and
    /// the card the player to move drew this turn when `seat` may know it (-1 otherwise), as
    /// `State::public_view` and `State::seat_view` give them (and the Python observation holds).
    /// Refused (never a panic) when they are no view of a deal: cards in two places, a hand
    /// size its known cards do not fit, unseen cards that do not fill the hands and the stock.
    pub fn new(
        rules: Rules,
        seat: usize,
        view: &PublicView,
        hand: u64,
        drawn: i8,
    ) -> Result<Knowledge, &'static str> {
        let n = usize::from(rules.players);
        if !(2..=MAX_SEATS).contains(&n) || seat >= n {
            return Err("rummy: 2 to 4 players, and the seat one of them");
        }
        if view.hand_sizes.len() != n || view.taken.len() != n {
            return Err("one hand size and taken set per seat");
        }
        let over = view.current == TERMINAL;
        if over != (view.phase == 2) || view.phase > 2 {
            return Err("the phase is over exactly when nobody is to move");
        }
        if view.hand_sizes.iter().any(|&size| size > 52) || view.stock_size > 52 {
            return Err("more than 52 cards in a hand or the stock");
        }
        if !over && view.hand_sizes.contains(&0) {
            return Err("a hand is empty while the deal goes on");
        }
        if over && view.shown.len() != n || !over && !view.shown.is_empty() {
            return Err("every hand is shown once the deal is over, and none before");
        }
        if view.melds.iter().any(|&m| m & !FULL != 0 || !is_meld(m)) {
            return Err("a table meld is no run or group");
        }
        if view.pile.iter().any(|&c| c >= 52) {
            return Err("a card outside the deck");
        }
        // Each seat's known cards: all of a shown or own hand, else what it took.
        let mut hands = [0u64; MAX_SEATS];
        let mut need = [0u8; MAX_SEATS];
        for s in 0..n {
            let known = if over {
                view.shown[s]
            } else if s == seat {
                hand
            } else {
                view.taken[s]
            };
            let size = view.hand_sizes[s];
            let whole = over || s == seat;
            if known & !FULL != 0 || view.taken[s] & !known != 0 && whole {
                return Err("a seat's taken cards are not in its hand");
            }
            if whole && known.count_ones() != size || known.count_ones() > size {
                return Err("a hand size does not fit the cards known in that hand");
            }
            hands[s] = known;
            need[s] = (size - known.count_ones()) as u8;
        }
        if over && view.shown[seat] != hand {
            return Err("the seat's hand is not the one shown");
        }
        // Every known card in one place.
        let pile = view.pile.iter().map(|&c| 1u64 << c);
        let places = hands[..n].iter().copied().chain(view.melds.iter().copied());
        let (mut seen, mut count) = (0u64, 0u32);
        for m in places.chain(pile) {
            seen |= m;
            count += m.count_ones();
        }
        if count != seen.count_ones() {
            return Err("a card shown in two places");
        }
        let table = view.melds.iter().fold(0, |m, &x| m | x);
        if view.placed.iter().any(|&p| p & !table != 0) {
            return Err("a seat placed a card that is not on the table");
        }
        let unseen_mask = FULL & !seen;
        let wanted = need.iter().map(|&k| u32::from(k)).sum::<u32>() + view.stock_size;
        if unseen_mask.count_ones() != wanted {
            return Err("the unseen cards do not fill the hands and the stock");
        }
        let drawing = view.phase == 0;
        let mut from_discard = false;
        if drawn >= 0 {
            let mover =
                usize::try_from(view.current).map_err(|_| "a card drawn with nobody to move")?;
            if drawing || drawn >= 52 || mover >= n {
                return Err("the drawn card is not a card the player to move drew");
            }
            from_discard = view.taken[mover] >> drawn & 1 != 0;
            if !from_discard && (mover != seat || hand >> drawn & 1 == 0) {
                return Err("the drawn card is neither this seat's nor taken from the pile");
            }
        }
        if drawing && view.stock_size == 0 && view.pile.is_empty() {
            return Err("the stock and the discard pile are both empty: nothing to draw");
        }
        let parts = Parts {
            hands: hands[..n].to_vec(),
            stock: Vec::new(),
            pile: view.pile.clone(),
            melds: view.melds.clone(),
            placed: view.placed.clone(),
            scores: view.scores.clone(),
            taken: view.taken.clone(),
            current: view.current,
            drawing,
            drawn,
            drawn_from_discard: from_discard,
            turn: view.turn,
            ended: over.then_some(view.went_out),
        };
        let base = State::from_parts(rules, &parts)?;
        let mut unseen = [0u8; 52];
        let mut n_unseen = 0;
        let mut rest = unseen_mask;
        while rest != 0 {
            unseen[n_unseen] = rest.trailing_zeros() as u8;
            n_unseen += 1;
            rest &= rest - 1;
        }
        Ok(Knowledge {
            seat,
            base,
            unseen,
            n_unseen: n_unseen as u8,
            need,
        })
    }

    /// What `seat` knows of `state`: [`Knowledge::new`] from its views.
    pub fn of(state: &State, seat: usize) -> Result<Knowledge, &'static str> {
        if seat >= state.players() {
            return Err("not a seat");
        }
        let (hand, drawn) = state.seat_view(seat);
        Knowledge::new(*state.rules(), seat, &state.public_view(), hand, drawn)?
            .with_discarded(state.discarded())
    }

    /// The knowledge with each seat's discards so far (public), which its worlds start from:
    /// the learned network's encoding reads them. Refused unless one set of cards per seat.
    pub fn with_discarded(mut self, discarded: &[u64]) -> Result<Knowledge, &'static str> {
        self.base.set_discarded(discarded)?;
        Ok(self)
    }

    /// The known position: every card this seat saw in place, nothing else dealt.
    pub fn known(&self) -> &State {
        &self.base
    }

    /// The cards this seat has not seen, in rummy-layout order.
    pub fn unseen(&self) -> &[u8] {
        &self.unseen[..usize::from(self.n_unseen)]
    }

    /// A world, and its weight: `likelihood` of the world is how likely the opponents' public
    /// plays would have been there under some model of their play (the caller holds the public
    /// record it replays); `|_| 1.0` is plain uniform sampling. This is the room for inference
    /// over worlds: a search averages rollouts weighted by it (or resamples by it), and no
    /// model is built yet.
    pub fn sample_weighted(
        &self,
        rng: &mut Rng,
        likelihood: impl FnOnce(&State) -> f64,
    ) -> (State, f64) {
        let world = self.sample(rng);
        let weight = likelihood(&world);
        (world, weight)
    }
}

impl SimKnowledge for Knowledge {
    type Deal = State;

    fn seat(&self) -> usize {
        self.seat
    }

    /// The unseen cards shuffled, then dealt: each seat its number of them (seat order), the
    /// rest the stock (bottom first).
    fn sample(&self, rng: &mut Rng) -> State {
        let mut world = self.base.clone();
        let mut cards = self.unseen;
        let cards = &mut cards[..usize::from(self.n_unseen)];
        rng.shuffle(cards);
        let mut next = 0;
        for (seat, &k) in self.need.iter().enumerate() {
            for &c in &cards[next..next + usize::from(k)] {
                world.give(seat, c);
            }
            next += usize::from(k);
        }
        world.set_stock(&cards[next..]);
        world
    }
}
