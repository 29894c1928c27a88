//! What the integration tests share: the rulesets they draw and the deal of a shuffled deck.

use std::sync::Arc;

use parlour_core::climbing::rules::windows;
use parlour_core::climbing::{Rules, Scoring, Start, State, Table};
use proptest::prelude::*;

/// A ruleset: one of the three variants with some choice of its options.
pub fn rules() -> impl Strategy<Value = Rules> {
    (0..3usize, any::<[bool; 4]>(), 0..4usize).prop_map(|(variant, flags, straights)| {
        let mut rules = match variant {
            0 => Rules::big_two_4card(),
            1 => Rules::big_two(),
            _ => Rules::pusoy_dos(),
        };
        if variant == 1 {
            rules.triples = flags[0];
            rules.flush_suit_first = flags[1];
            rules.pass_only_if_no_legal_play = flags[2];
            rules.windows = windows(["standard", "hong-kong"][straights % 2]).unwrap();
        } else if variant == 2 {
            rules.windows = windows(["seed", "all-wraps", "hong-kong"][straights % 3]).unwrap();
            rules.next_player_leads_after_out = flags[0];
            if flags[1] {
                rules.scoring = Scoring::Penalty;
                rules.ends_at_first_out = true;
            }
        }
        rules
    })
}

/// A deal of the shuffled deck, one card to each seat in turn, optionally led freely by a seat.
pub fn deal(table: Arc<Table>, deck: &[usize], leader: Option<u8>) -> State {
    let mut hands = vec![0u64; 4];
    for (i, &card) in deck.iter().enumerate() {
        hands[i % 4] |= 1 << card;
    }
    let start = Start {
        hands,
        leader,
        table_seat: -1,
        ..Start::default()
    };
    State::new(table, &start).expect("a full deal is a valid start")
}
