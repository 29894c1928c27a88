//! Properties of climbing simulation, for every variant and option: worlds sampled for a seat
//! show it exactly what it saw and hold every card once, greedy playouts from them end with the
//! returns the rules give, and no observation at all, however garbled, makes the sampler panic.

mod common;

use std::sync::Arc;

use common::{deal, rules};
use parlour_core::climbing::{Knowledge, MASK, PASS, Rules, Scoring, Seen, State, Table};
use parlour_core::sim::{self, Deal, Knowledge as _, Rng};
use proptest::prelude::*;

/// A deal of the shuffled deck, optionally led freely by a seat, played `steps` moves: random
/// ones where `choices` says so, else greedy.
fn position(rules: Rules, deck: &[usize], leader: Option<u8>, choices: &[u32]) -> State {
    let mut state = deal(Arc::new(Table::new(rules)), deck, leader);
    let mut rng = Rng::new(0);
    let mut legal = Vec::new();
    for &c in choices {
        if state.is_over() {
            break;
        }
        state.legal_into(&mut legal);
        let m = if c % 3 == 0 {
            legal[c as usize % legal.len()]
        } else if legal.len() == 1 {
            legal[0]
        } else {
            state.greedy(&legal, &mut rng)
        };
        state.play(m, &mut rng);
    }
    state
}

fn check_returns(deal: &State, rules: &Rules) {
    let mut returns = [0.0; 4];
    deal.returns_into(&mut returns);
    let left: Vec<u32> = deal.hands().iter().map(|h| h.count_ones()).collect();
    match rules.scoring {
        Scoring::Count => assert_eq!(returns.iter().sum::<f64>(), 0.0),
        Scoring::Penalty => {
            for (r, &l) in returns.iter().zip(&left) {
                assert_eq!(-r, f64::from(parlour_core::climbing::rules::penalty(l)));
            }
        }
        Scoring::Placement => {
            let mut sorted = returns;
            sorted.sort_by(f64::total_cmp);
            assert_eq!(sorted, [0.0, 1.0, 2.0, 3.0]);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(150))]

    #[test]
    fn sampled_worlds_are_the_seen_position_and_play_out(
        rules in rules(),
        deck in Just((0..52).collect::<Vec<usize>>()).prop_shuffle(),
        leader in proptest::option::of(0..4u8),
        choices in proptest::collection::vec(any::<u32>(), 0..60),
        seed in any::<u64>(),
    ) {
        let state = position(rules.clone(), &deck, leader, &choices);
        let mut rng = Rng::new(seed);
        let mut legal = Vec::new();
        for seat in 0..4 {
            let knowledge = Knowledge::of_state(&state, seat).expect("the seat's knowledge");
            for _ in 0..3 {
                let mut world = knowledge.sample(&mut rng);
                prop_assert_eq!(&Seen::of(&world, seat), knowledge.seen());
                let held = world.hands().iter().fold(0, |m, h| m | h);
                prop_assert_eq!(held & (world.played() | world.out()), 0);
                prop_assert_eq!(held | world.played() | world.out(), MASK);
                prop_assert_eq!(
                    world.hands().iter().map(|h| h.count_ones()).sum::<u32>(),
                    held.count_ones()
                );
                // Every seat's count is its hand's.
                for (h, &n) in world.hands().iter().zip(world.sizes()) {
                    prop_assert_eq!(h.count_ones(), u32::from(n));
                }
                sim::playout(&mut world, &mut rng, &mut legal);
                prop_assert!(world.is_over());
                check_returns(&world, &rules);
            }
        }
    }

    #[test]
    fn a_garbled_observation_is_refused_or_sampled_consistently(
        rules in rules(),
        deck in Just((0..52).collect::<Vec<usize>>()).prop_shuffle(),
        choices in proptest::collection::vec(any::<u32>(), 0..40),
        seat in 0..4usize,
        field in 0..12usize,
        junk in any::<u64>(),
    ) {
        let state = position(rules, &deck, None, &choices);
        let mut seen = Seen::of(&state, seat);
        let small = (junk % 7) as u8;
        match field {
            0 => seen.hand ^= 1 << (junk % 64),
            1 => seen.played ^= 1 << (junk % 64),
            2 => seen.out ^= 1 << (junk % 64),
            3 => seen.sizes[(junk % 4) as usize] = small,
            4 => seen.sizes.push(small),
            5 => seen.current = (junk % 9) as i8 - 2,
            6 => seen.seat = small,
            7 => seen.history.push(((junk >> 8) as u8 % 6, if junk % 2 == 0 { PASS } else { junk })),
            8 => {
                if !seen.history.is_empty() {
                    let i = (junk >> 8) as usize % seen.history.len();
                    seen.history[i].1 ^= 1 << (junk % 64);
                }
            }
            9 => seen.start_table = junk,
            10 => seen.first_leader = Some(small),
            _ => seen.opening = !seen.opening,
        }
        if let Ok(knowledge) = Knowledge::new(state.shared_table(), seen.clone()) {
            let mut rng = Rng::new(junk);
            for _ in 0..3 {
                let world = knowledge.sample(&mut rng);
                prop_assert_eq!(&Seen::of(&world, usize::from(seen.seat)), &seen);
            }
        }
    }
}
