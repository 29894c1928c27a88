//! Properties of random play, and the engine refusing bad input without panicking.

use proptest::prelude::*;

use super::melds::FULL;
use super::state::{KIND_BITS, SCORE_LIMIT};
use super::{DISCARD, Parts, Rules, State};

/// A small deterministic generator (SplitMix64) for decks, rebuilds and choices.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }

    fn shuffle(&mut self, cards: &mut [u8]) {
        for i in (1..cards.len()).rev() {
            cards.swap(i, self.below(i + 1));
        }
    }
}

fn rules(players: u8, forbid: bool, score_melds: bool, turn_limit: u64) -> Rules {
    Rules {
        players,
        forbid_discard_of_drawn_discard: forbid,
        score_melds,
        turn_limit,
    }
}

fn new_deal(rules: Rules, hand_size: usize, rng: &mut Rng) -> State {
    let mut deck: Vec<u8> = (0..52).collect();
    rng.shuffle(&mut deck);
    State::deal(rules, &deck, hand_size).expect("a valid deal")
}

/// Rebuild the stock when the engine asks, shuffled by `rng`.
fn rebuild(state: &mut State, rng: &mut Rng) {
    if state.needs_rebuild() {
        let pile = state.pile();
        let mut order = pile[..pile.len() - 1].to_vec();
        rng.shuffle(&mut order);
        state
            .rebuild(&order)
            .expect("the discards under the top card");
    }
}

/// Every card in exactly one place.
fn check_cards(state: &State) {
    let mut seen = 0u64;
    let mut count = 0u32;
    let cards = state.stock().iter().chain(state.pile()).map(|&c| 1u64 << c);
    for m in state
        .hands()
        .iter()
        .chain(state.melds())
        .copied()
        .chain(cards)
    {
        assert_eq!(seen & m, 0, "a card in two places");
        seen |= m;
        count += m.count_ones();
    }
    assert_eq!((seen, count), (FULL, 52));
    for (seat, &taken) in state.taken().iter().enumerate() {
        assert_eq!(taken & !state.hand(seat), 0, "a taken card not held");
    }
    let table = state.melds().iter().fold(0, |m, &x| m | x);
    assert_eq!(state.placed().iter().fold(0, |m, &x| m | x), table);
}

/// No card hidden from a seat shows in what that seat is given.
fn check_views(state: &State) {
    let public = state.public_view();
    for seat in 0..state.players() {
        let hidden = state.hidden_from(seat);
        let (hand, drawn) = state.seat_view(seat);
        let mut shown = hand;
        shown |= public
            .melds
            .iter()
            .chain(&public.taken)
            .chain(&public.shown)
            .fold(0, |m, &x| m | x);
        shown |= public.pile.iter().fold(0, |m, &c| m | 1 << c);
        if drawn >= 0 {
            shown |= 1 << drawn;
        }
        assert_eq!(shown & hidden, 0, "seat {seat} is shown a hidden card");
        assert_eq!(hand, state.hand(seat));
    }
}

fn playout(rules: Rules, hand_size: usize, seed: u64, max_steps: usize) {
    let mut rng = Rng(seed);
    let mut state = new_deal(rules, hand_size, &mut rng);
    let mut legal = Vec::new();
    let mut discarded = vec![0u64; state.players()];
    for _ in 0..max_steps {
        check_cards(&state);
        check_views(&state);
        assert_eq!(
            state.discarded(),
            &discarded[..],
            "each seat's discards, and no others"
        );
        state.legal_actions(&mut legal);
        if state.is_over() {
            assert!(legal.is_empty());
            let returns = state.returns().expect("over");
            assert_eq!(returns.len(), state.players());
            return;
        }
        assert!(!legal.is_empty());
        for &a in &legal {
            let mut copy = state.clone();
            assert_eq!(copy.apply(a), Ok(()), "legal action {a} refused");
        }
        let junk = rng.next();
        let before = state.clone();
        if !legal.contains(&junk) && state.apply(junk).is_err() {
            assert_eq!(state, before, "a refused action changed the state");
        }
        let a = legal[rng.below(legal.len())];
        let seat = state.current_player() as usize;
        state.apply(a).expect("legal");
        if a & 7 == DISCARD {
            discarded[seat] |= a >> KIND_BITS & FULL;
        }
        rebuild(&mut state, &mut rng);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn random_play_keeps_every_card_once(
        seed in any::<u64>(),
        players in 2u8..=4,
        forbid in any::<bool>(),
        score_melds in any::<bool>(),
        turn_limit in 1u64..200,
        small in any::<bool>(),
    ) {
        let hand_size = if small { 3 } else if players == 2 { 10 } else { 7 };
        playout(rules(players, forbid, score_melds, turn_limit), hand_size, seed, 2_000);
    }

    #[test]
    fn any_value_is_applied_or_refused_unchanged(seed in any::<u64>(), values in prop::collection::vec(any::<u64>(), 1..40)) {
        let mut rng = Rng(seed);
        let mut state = new_deal(rules(3, true, true, 50), 7, &mut rng);
        let mut legal = Vec::new();
        for v in values {
            let before = state.clone();
            if state.apply(v).is_err() {
                prop_assert_eq!(&state, &before);
            } else {
                rebuild(&mut state, &mut rng);
            }
            state.legal_actions(&mut legal);
            if let Some(&a) = legal.first() {
                state.apply(a).expect("legal");
                rebuild(&mut state, &mut rng);
            }
        }
    }

    #[test]
    fn any_parts_are_taken_or_refused(
        players in 0u8..6,
        hands in prop::collection::vec(any::<u64>(), 0..6),
        stock in prop::collection::vec(any::<u8>(), 0..60),
        melds in prop::collection::vec(any::<u64>(), 0..20),
        scores in prop::collection::vec(prop_oneof![
            9 => -SCORE_LIMIT..=SCORE_LIMIT,
            1 => any::<i64>(),
        ], 6),
        current in any::<i8>(),
        drawn in any::<i8>(),
        ended in any::<Option<i8>>(),
    ) {
        let n = hands.len();
        let scores = scores[..n].to_vec();
        let parts = Parts {
            hands,
            stock: stock.clone(),
            pile: stock,
            melds,
            placed: vec![0; n],
            scores,
            taken: vec![0; n],
            current,
            drawing: drawn % 2 == 0,
            drawn,
            drawn_from_discard: true,
            turn: 0,
            ended,
        };
        if let Ok(state) = State::from_parts(rules(players, true, true, 10), &parts) {
            let mut legal = Vec::new();
            state.legal_actions(&mut legal);
            let _ = state.public_view();
            for seat in 0..state.players() {
                let _ = (state.seat_view(seat), state.hidden_from(seat));
            }
            for a in legal {
                let _ = state.clone().apply(a);
            }
        }
    }
}

#[test]
fn scores_at_the_limit_play_to_the_end_and_past_it_are_refused() {
    let mut rng = Rng(5);
    let start = new_deal(rules(2, false, true, 400), 10, &mut rng);
    let parts = |scores: Vec<i64>| Parts {
        hands: start.hands().to_vec(),
        stock: start.stock().to_vec(),
        pile: start.pile().to_vec(),
        melds: Vec::new(),
        placed: vec![0; 2],
        scores,
        taken: vec![0; 2],
        current: start.current_player(),
        drawing: true,
        drawn: -1,
        drawn_from_discard: false,
        turn: 0,
        ended: None,
    };
    for scores in [
        vec![i64::MAX, 0],
        vec![0, i64::MIN],
        vec![SCORE_LIMIT + 1, 0],
    ] {
        assert!(State::from_parts(*start.rules(), &parts(scores)).is_err());
    }
    // Melds add to the one, the hands left take from the other: neither wraps (a debug build
    // would panic).
    let mut state = State::from_parts(*start.rules(), &parts(vec![SCORE_LIMIT, -SCORE_LIMIT]))
        .expect("scores at the limit");
    let mut legal = Vec::new();
    while !state.is_over() {
        state.legal_actions(&mut legal);
        state.apply(legal[legal.len() - 1]).expect("legal");
        rebuild(&mut state, &mut rng);
    }
    assert_eq!(state.returns().expect("over").len(), 2);
    let _ = state.public_view();
}

#[test]
fn a_deal_needs_a_whole_deck() {
    let r = rules(2, false, true, 10);
    assert!(State::deal(r, &[0; 52], 10).is_err());
    let deck: Vec<u8> = (0..52).collect();
    assert!(State::deal(r, &deck, 26).is_err());
    // Hand sizes whose product with the players overflows are refused too.
    assert!(State::deal(r, &deck, 1 << (usize::BITS - 1)).is_err());
    assert!(State::deal(rules(3, false, true, 10), &deck, usize::MAX / 3).is_err());
    assert!(State::deal(rules(5, false, true, 10), &deck, 5).is_err());
    let state = State::deal(r, &deck, 10).expect("deal");
    assert_eq!(state.hand(0).count_ones(), 10);
    assert_eq!(
        (state.stock().len(), state.pile(), state.stock()[0]),
        (31, &[20u8][..], 51)
    );
}
