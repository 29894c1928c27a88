//! Properties of random climbing deals, for every variant and option: every card is in exactly
//! one place, every legal action applies, refusals change nothing, and what a seat sees never
//! holds a card hidden from it.

mod common;

use std::sync::Arc;

use common::{deal, rules};
use parlour_core::climbing::{MASK, PASS, Scoring, Start, State, Table};
use proptest::prelude::*;

/// Everything a refused action must leave unchanged: the hands, the history, the player to
/// move, the trick and the legal actions.
type Fingerprint = (Vec<u64>, Vec<(u8, u64)>, i8, (u64, i8, u8), Vec<u64>);

fn fingerprint(state: &mut State) -> Fingerprint {
    let mut legal = Vec::new();
    state.legal_actions(&mut legal);
    (
        state.hands().to_vec(),
        state.history().to_vec(),
        state.current_player(),
        state.trick(),
        legal,
    )
}

fn check_cards(state: &State) {
    let mut seen = state.played() | state.out();
    assert_eq!(state.played() & state.out(), 0, "a played card is also out");
    for &h in state.hands() {
        assert_eq!(h & seen, 0, "a card is in two places");
        seen |= h;
    }
    assert_eq!(seen, MASK, "some card is nowhere");
}

fn check_hidden(state: &State) {
    let (table, _, _) = state.trick();
    for seat in 0..state.players() {
        let hidden = state.hidden_from(seat);
        let seen_cards = state.hands()[seat] | state.played() | state.out() | table & MASK;
        assert_eq!(seen_cards & hidden, 0, "seat {seat} sees a hidden card");
        for &(_, play) in state.history() {
            assert_eq!(play & MASK & hidden, 0, "the history shows a hidden card");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn random_play_keeps_every_card_in_one_place(
        rules in rules(),
        deck in Just((0..52).collect::<Vec<usize>>()).prop_shuffle(),
        leader in proptest::option::of(0..4u8),
        choices in proptest::collection::vec(any::<u32>(), 200),
        junk in proptest::collection::vec(any::<u64>(), 200),
    ) {
        let table = Arc::new(Table::new(rules));
        let mut state = deal(table.clone(), &deck, leader);
        let mut legal = Vec::new();
        let mut step = 0;
        while !state.is_over() {
            check_cards(&state);
            check_hidden(&state);
            state.legal_actions(&mut legal);
            prop_assert!(!legal.is_empty());
            for &action in &legal {
                let mut twin = state.clone();
                prop_assert_eq!(twin.apply(action), Ok(()));
            }
            // Any value at all: applied only if legal, and a refusal changes nothing.
            let before = fingerprint(&mut state);
            // Junk, a play of the mover's whole hand, or of another seat's hand.
            let j = junk[step % junk.len()];
            let seat = (j >> 8) as usize % 4;
            let mut plays = Vec::new();
            table.hand_plays(state.hands()[seat], &mut plays);
            let value = if j & 3 == 0 || plays.is_empty() {
                j
            } else {
                plays[(j >> 16) as usize % plays.len()]
            };
            let mut twin = state.clone();
            match twin.apply(value) {
                Ok(()) => prop_assert!(legal.contains(&value)),
                Err(_) => {
                    prop_assert!(!legal.contains(&value));
                    prop_assert_eq!(fingerprint(&mut twin), before);
                }
            }
            let action = legal[choices[step % choices.len()] as usize % legal.len()];
            state.apply(action).unwrap();
            step += 1;
        }
        check_cards(&state);
        let mut legal = Vec::new();
        state.legal_actions(&mut legal);
        prop_assert!(legal.is_empty());
        prop_assert!(state.apply(PASS).is_err());
        if table.rules.scoring == Scoring::Count {
            prop_assert_eq!(state.returns().iter().sum::<f64>(), 0.0);
        }
        let finished = state.finished();
        prop_assert!(!finished.is_empty());
        prop_assert_eq!(state.hands()[usize::from(finished[0])], 0);
    }

    #[test]
    fn any_start_is_refused_or_playable(
        rules in rules(),
        places in proptest::collection::vec(prop_oneof![4 => 0..4u8, 1 => 4..6u8], 52),
        pick in any::<usize>(),
        leader in proptest::option::of(0..5u8),
        table_seat in -1..5i8,
        passes in 0..4u8,
        finished in proptest::collection::vec(0..5u8, 0..4),
        seats in prop_oneof![4 => Just(4usize), 1 => 2..6usize],
    ) {
        // Each card to a hand (0-3), out of play (4) or the table candidates (5), from which
        // one play is taken as the table play and the rest put out.
        let table = Arc::new(Table::new(rules));
        let mut hands = vec![0u64; seats];
        let (mut out, mut candidates) = (0u64, 0u64);
        for (card, &place) in places.iter().enumerate() {
            let bit = 1u64 << card;
            match usize::from(place) {
                p if p < 4 => hands[p % seats] |= bit,
                4 => out |= bit,
                _ => candidates |= bit,
            }
        }
        let mut plays = Vec::new();
        table.hand_plays(candidates, &mut plays);
        let table_play = if plays.is_empty() || pick % 3 == 0 { 0 } else { plays[pick % plays.len()] };
        out |= candidates & !table_play;
        // Mostly the seats with no cards as finished (what a real position has), else anything.
        let finished = if pick % 4 == 0 {
            finished
        } else {
            let mut empty: Vec<u8> = (0..seats as u8).filter(|&s| hands[usize::from(s)] == 0).collect();
            let turn = pick % empty.len().max(1);
            empty.rotate_left(turn);
            empty
        };
        let start = Start { hands, leader, out, table: table_play, table_seat, passes, finished };
        if let Ok(mut state) = State::new(table, &start) {
            let mut legal = Vec::new();
            while !state.is_over() {
                check_cards(&state);
                state.legal_actions(&mut legal);
                prop_assert!(!legal.is_empty());
                state.apply(legal[pick % legal.len()]).unwrap();
            }
        }
    }
}
