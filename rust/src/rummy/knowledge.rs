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

#[cfg(test)]
mod tests {
    //! Rummy in simulation: greedy playouts, and the worlds sampled from a seat's knowledge.

    use proptest::prelude::*;

    use super::*;
    use crate::rummy::melds::{FULL, mask_value};
    use crate::rummy::state::{DRAW_DISCARD, TERMINAL};
    use crate::rummy::{PublicView, Rules};
    use crate::sim::{Rng, playout};
    use crate::test_support::rummy::rules;

    fn standard(players: u8) -> Rules {
        rules(players, false, true, 1000)
    }

    fn hand_size(players: u8) -> usize {
        if players == 2 { 10 } else { 7 }
    }

    fn new_deal(rules: Rules, hand_size: usize, rng: &mut Rng) -> State {
        let mut deck: Vec<u8> = (0..52).collect();
        rng.shuffle(&mut deck);
        State::deal(rules, &deck, hand_size).expect("a valid deal")
    }

    /// Every card in exactly one place, and each seat's taken cards in its hand.
    fn assert_cards(state: &State) {
        let pile = state.stock().iter().chain(state.pile()).map(|&c| 1u64 << c);
        let places = state.hands().iter().chain(state.melds()).copied();
        let (mut seen, mut count) = (0u64, 0);
        for m in places.chain(pile) {
            assert_eq!(seen & m, 0, "a card in two places");
            seen |= m;
            count += m.count_ones();
        }
        assert_eq!((seen, count), (FULL, 52));
        for (seat, &taken) in state.taken().iter().enumerate() {
            assert_eq!(
                taken & !state.hand(seat),
                0,
                "seat {seat} does not hold its taken cards"
            );
        }
    }

    /// Plays `moves` moves (fewer if the deal ends), greedy or uniformly random by `rng`.
    fn advance(state: &mut State, moves: usize, rng: &mut Rng) {
        let mut legal = Vec::new();
        for _ in 0..moves {
            if state.to_move() < 0 {
                return;
            }
            state.legal_into(&mut legal);
            let m = if legal.len() > 1 && rng.below(2) == 0 {
                state.greedy(&legal, rng)
            } else {
                legal[rng.below(legal.len() as u64) as usize]
            };
            assert!(legal.contains(&m));
            state.play(m, rng);
        }
    }

    /// What `seat` is shown of `state`.
    fn view(state: &State, seat: usize) -> (PublicView, (u64, i8)) {
        (state.public_view(), state.seat_view(seat))
    }

    /// The checks on one world sampled for `seat` of `state`.
    fn assert_world(state: &State, seat: usize, world: &State) {
        assert_eq!(
            view(world, seat),
            view(state, seat),
            "the seat sees another deal"
        );
        assert_cards(world);
        assert_eq!(world.rules(), state.rules());
        for s in 0..state.players() {
            assert_eq!(world.hand(s).count_ones(), state.hand(s).count_ones());
            assert_eq!(world.taken()[s] & !world.hand(s), 0);
        }
        assert_eq!(world.hand(seat), state.hand(seat));
        assert_eq!(
            world.discarded(),
            state.discarded(),
            "the discards are public"
        );
        // Only cards hidden from the seat moved.
        let hidden = state.hidden_from(seat);
        for s in (0..state.players()).filter(|&s| s != seat) {
            assert_eq!(world.hand(s) & !hidden, state.hand(s) & !hidden);
        }
    }

    #[test]
    fn greedy_playouts_end_and_score_as_the_rules_say() {
        let mut rng = Rng::new(1);
        let mut legal = Vec::new();
        let mut out = [0.0; 4];
        let mut went_out = 0;
        for deal in 0..300 {
            let players = 2 + (deal % 3) as u8;
            let score_melds = deal % 5 != 0;
            let r = rules(players, deal % 2 == 0, score_melds, 1000);
            let mut state = new_deal(r, hand_size(players), &mut rng);
            playout(&mut state, &mut rng, &mut legal);
            assert_eq!(state.to_move(), TERMINAL);
            assert_cards(&state);
            state.returns_into(&mut out);
            let n = usize::from(players);
            let table = state.melds().iter().fold(0, |m, &x| m | x);
            let hands: i64 = state.hands().iter().map(|&h| mask_value(h)).sum();
            let total: f64 = out[..n].iter().sum();
            // Lay-offs always score, melds under the option: with it the table is every point put down.
            if score_melds {
                assert_eq!(total, (mask_value(table) - hands) as f64);
            } else {
                assert!(total <= (mask_value(table) - hands) as f64);
            }
            let want: Vec<f64> = state.returns().unwrap().iter().map(|&v| v as f64).collect();
            assert_eq!(out[..n], want[..]);
            if state.went_out() >= 0 {
                went_out += 1;
                assert_eq!(state.hand(state.went_out() as usize), 0);
            }
        }
        assert!(
            went_out > 250,
            "greedy deals end by going out: {went_out} of 300"
        );
    }

    #[test]
    fn a_stock_run_dry_is_rebuilt_in_play() {
        // Two seats that can never meld (hands of one card, nothing to build) draw the stock dry.
        let mut rng = Rng::new(5);
        let mut rebuilt = 0;
        for _ in 0..20 {
            let mut state = new_deal(rules(2, false, true, 200), 1, &mut rng);
            let mut legal = Vec::new();
            while state.to_move() >= 0 {
                let before = state.stock().len();
                state.legal_into(&mut legal);
                let m = legal[rng.below(legal.len() as u64) as usize];
                state.play(m, &mut rng);
                assert!(!state.needs_rebuild());
                rebuilt += usize::from(state.stock().len() > before);
                assert_cards(&state);
            }
        }
        assert!(rebuilt > 0);
    }

    #[test]
    fn sampled_worlds_show_the_seat_what_it_saw() {
        let mut rng = Rng::new(2);
        let mut positions = 0;
        for deal in 0..60 {
            let players = 2 + (deal % 3) as u8;
            let r = rules(players, deal % 2 == 1, true, 1000);
            let mut state = new_deal(r, hand_size(players), &mut rng);
            while state.to_move() >= 0 {
                for seat in 0..state.players() {
                    let knowledge = Knowledge::of(&state, seat).expect("a real view");
                    assert_eq!(knowledge.seat(), seat);
                    assert_eq!(
                        knowledge.unseen().len() as u32,
                        state.hidden_from(seat).count_ones()
                    );
                    let world = knowledge.sample(&mut rng);
                    assert_world(&state, seat, &world);
                    positions += 1;
                }
                let moves = 1 + rng.below(6) as usize;
                advance(&mut state, moves, &mut rng);
            }
            // Over: every hand is shown, only the stock's order is unknown.
            let world = Knowledge::of(&state, 0).unwrap().sample(&mut rng);
            assert_world(&state, 0, &world);
            assert_eq!(world.hands(), state.hands());
        }
        assert!(positions > 2_000);
    }

    #[test]
    fn a_seed_gives_one_world_and_seeds_differ() {
        let mut rng = Rng::new(3);
        let mut state = new_deal(standard(3), 7, &mut rng);
        advance(&mut state, 12, &mut rng);
        let knowledge = Knowledge::of(&state, 1).unwrap();
        let world = |seed| knowledge.sample(&mut Rng::new(seed));
        assert_eq!(world(9), world(9));
        assert_ne!(world(9).hands(), world(10).hands());
        let (w, weight) = knowledge.sample_weighted(&mut Rng::new(9), |w| {
            assert_eq!(w, &world(9));
            0.25
        });
        assert_eq!((w, weight), (world(9), 0.25));
    }

    #[test]
    fn the_unseen_cards_spread_evenly_over_the_other_hands_and_the_stock() {
        // A 4-seat deal some turns in, seen by seat 0, with cards taken from the pile.
        let mut rng = Rng::new(4);
        let mut state;
        loop {
            state = new_deal(standard(4), 7, &mut rng);
            advance(&mut state, 40, &mut rng);
            let others_took = state.taken()[1..].iter().any(|&t| t != 0);
            if state.to_move() >= 0 && others_took {
                break;
            }
        }
        let knowledge = Knowledge::of(&state, 0).unwrap();
        let unseen = knowledge.unseen().to_vec();
        let n = unseen.len() as f64;
        // Where each unseen card went: the three other seats' hands, or the stock.
        let mut counts = vec![[0u32; 4]; 52];
        let worlds = 20_000;
        for _ in 0..worlds {
            let world = knowledge.sample(&mut rng);
            for &c in &unseen {
                let place = (1..4).find(|&s| world.hand(s) >> c & 1 != 0).unwrap_or(0);
                counts[usize::from(c)][place] += 1;
            }
            assert!(world.stock().iter().all(|c| unseen.contains(c)));
        }
        let stock = state.stock().len() as f64;
        for &c in &unseen {
            for (place, &k) in counts[usize::from(c)].iter().enumerate() {
                let share = if place == 0 {
                    stock
                } else {
                    let s = place;
                    f64::from((state.hand(s) & !state.taken()[s]).count_ones())
                };
                let expected = worlds as f64 * share / n;
                // Binomial sd is at most sqrt(20000 / 4) ≈ 71: six of them, and a little more.
                let diff = (f64::from(k) - expected).abs();
                assert!(diff < 450.0, "card {c} place {place}: {k} vs {expected:.0}");
            }
        }
        // A card a seat took from the pile is always in that hand.
        for s in 1..4 {
            let taken = state.taken()[s];
            for _ in 0..50 {
                assert_eq!(knowledge.sample(&mut rng).hand(s) & taken, taken);
            }
        }
    }

    #[test]
    fn a_sampled_world_plays_out_greedily() {
        let mut rng = Rng::new(6);
        let mut legal = Vec::new();
        for players in 2..=4 {
            let mut state = new_deal(standard(players), hand_size(players), &mut rng);
            advance(&mut state, 25, &mut rng);
            let knowledge = Knowledge::of(&state, 1).unwrap();
            for _ in 0..50 {
                let mut world = knowledge.sample(&mut rng);
                playout(&mut world, &mut rng, &mut legal);
                assert_eq!(world.to_move(), TERMINAL);
                assert_cards(&world);
            }
        }
    }

    #[test]
    fn the_policy_reads_only_what_the_seat_to_move_sees() {
        // Worlds that differ only in cards hidden from the seat to move get the same choices.
        let mut rng = Rng::new(7);
        let mut legal = Vec::new();
        for _ in 0..100 {
            let mut state = new_deal(standard(3), 7, &mut rng);
            let moves = rng.below(40) as usize;
            advance(&mut state, moves, &mut rng);
            if state.to_move() < 0 {
                continue;
            }
            let seat = state.to_move() as usize;
            let world = Knowledge::of(&state, seat).unwrap().sample(&mut rng);
            state.legal_into(&mut legal);
            if legal.len() < 2 {
                continue;
            }
            let seed = rng.next_u64();
            let mine = state.greedy(&legal, &mut Rng::new(seed));
            let theirs = world.greedy(&legal, &mut Rng::new(seed));
            assert_eq!(mine, theirs);
        }
    }

    #[test]
    fn a_view_of_no_deal_is_refused() {
        let mut rng = Rng::new(8);
        let mut state = new_deal(standard(2), 10, &mut rng);
        advance(&mut state, 9, &mut rng);
        let r = *state.rules();
        let (hand, drawn) = state.seat_view(0);
        let good = state.public_view();
        assert!(Knowledge::new(r, 0, &good, hand, drawn).is_ok());
        let refused = |v: &PublicView, hand: u64| Knowledge::new(r, 0, v, hand, -1).is_err();
        let mut v = good.clone();
        v.hand_sizes[1] += 1;
        assert!(refused(&v, hand), "a card too many");
        let mut v = good.clone();
        v.stock_size = 0;
        assert!(refused(&v, hand), "stock cards unaccounted");
        let mut v = good.clone();
        v.pile.push(hand.trailing_zeros() as u8);
        assert!(refused(&v, hand), "a card in the hand and the pile");
        let mut v = good.clone();
        v.shown = vec![hand, 0];
        assert!(refused(&v, hand), "hands shown while the deal goes on");
        let mut v = good.clone();
        v.taken[1] |= hand & hand.wrapping_neg();
        v.hand_sizes[1] += 1;
        assert!(refused(&v, hand), "a card in two hands");
        let mut v = good.clone();
        v.taken[0] |= !hand & FULL & !state.hand(1);
        assert!(refused(&v, hand), "taken cards not in the hand");
        assert!(Knowledge::new(r, 2, &good, hand, -1).is_err(), "no seat 2");
        let mut v = good.clone();
        v.phase = 2;
        assert!(refused(&v, hand), "over with a seat to move");
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(256))]

        /// Whatever view the Python package hands over, knowledge is made or refused, and a world
        /// sampled from what is made plays out.
        #[test]
        fn any_view_is_taken_or_refused(
            seed in any::<u64>(),
            players in 2u8..=4,
            moves in 0usize..200,
            seat in 0usize..5,
            flip in prop::option::weighted(0.2, 0u32..64),
            size_delta in prop::option::weighted(0.2, 1u32..3),
            stock_delta in prop::option::weighted(0.2, 1u32..3),
            extra_pile in prop::option::weighted(0.2, any::<u8>()),
            drawn in prop::option::weighted(0.2, -2i8..60),
            phase in prop::option::weighted(0.2, 0u8..4),
        ) {
            let mut rng = Rng::new(seed);
            let mut state = new_deal(standard(players), hand_size(players), &mut rng);
            advance(&mut state, moves, &mut rng);
            let mut view = state.public_view();
            let (mut hand, mut seen_drawn) = state.seat_view(seat % usize::from(players));
            hand ^= flip.map_or(0, |c| 1u64 << c);
            view.hand_sizes[0] += size_delta.unwrap_or(0);
            view.stock_size += stock_delta.unwrap_or(0);
            view.pile.extend(extra_pile);
            view.phase = phase.unwrap_or(view.phase);
            seen_drawn = drawn.unwrap_or(seen_drawn);
            if let Ok(k) = Knowledge::new(*state.rules(), seat, &view, hand, seen_drawn) {
                let mut world = k.sample(&mut rng);
                assert_cards(&world);
                prop_assert_eq!(world.public_view(), view);
                let mut legal = Vec::new();
                playout(&mut world, &mut rng, &mut legal);
            }
        }
    }

    #[test]
    fn draw_discard_is_seen_by_every_seat_in_every_world() {
        // After a draw from the pile, every seat's worlds hold that card in the drawer's hand.
        let mut rng = Rng::new(9);
        let mut seen = 0;
        for _ in 0..200 {
            let mut state = new_deal(standard(3), 7, &mut rng);
            let moves = rng.below(30) as usize;
            advance(&mut state, moves, &mut rng);
            let mut legal = Vec::new();
            state.legal_into(&mut legal);
            if state.to_move() < 0 || !legal.contains(&DRAW_DISCARD) {
                continue;
            }
            let mover = state.to_move() as usize;
            state.play(DRAW_DISCARD, &mut rng);
            let card = state.drawn().0;
            for seat in 0..3 {
                let world = Knowledge::of(&state, seat).unwrap().sample(&mut rng);
                assert_eq!(world.hand(mover) >> card & 1, 1);
                assert_eq!(world.drawn(), state.drawn());
            }
            seen += 1;
        }
        assert!(seen > 20);
    }

    #[test]
    fn discards_are_given_one_set_per_seat() {
        let r = rules(3, false, true, 1000);
        let state = new_deal(r, hand_size(3), &mut Rng::new(4));
        let knowing = || Knowledge::of(&state, 0).expect("a view of the deal");
        let world = knowing()
            .with_discarded(&[1, 2, 4])
            .expect("one set per seat")
            .sample(&mut Rng::new(1));
        assert_eq!(world.discarded(), &[1, 2, 4]);
        assert!(knowing().with_discarded(&[1, 2]).is_err());
        assert!(knowing().with_discarded(&[1, 2, 1 << 52]).is_err());
    }
}
