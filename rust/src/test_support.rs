//! What the crate's tests share: the rules presets, deals and card helpers that the test
//! modules of several files use, one module per family. The integration tests in `rust/tests/`
//! share theirs in `tests/common/mod.rs`.

/// The climbing games' test deals.
pub(crate) mod climbing {
    use std::sync::Arc;

    use crate::climbing::combos::{SIZE_SHIFT, STRENGTH_SHIFT, SUIT_ROW, Table};
    use crate::climbing::rules::Rules;
    use crate::climbing::state::{Start, State};
    use crate::sim::Rng;

    /// A fresh deal of `rules` from `rng`, the opening rule to play.
    pub(crate) fn fresh(table: &Arc<Table>, rng: &mut Rng) -> State {
        let mut deck: Vec<u8> = (0..52).collect();
        rng.shuffle(&mut deck);
        let mut hands = vec![0u64; 4];
        for (i, &c) in deck.iter().enumerate() {
            hands[i % 4] |= 1 << c;
        }
        let start = Start {
            hands,
            table_seat: -1,
            ..Start::default()
        };
        State::new(table.clone(), &start).expect("a full deal")
    }

    pub(crate) fn all_rules() -> Vec<Rules> {
        let mut b8 = Rules::big_two();
        b8.pass_only_if_no_legal_play = true;
        let mut standard = Rules::pusoy_dos();
        standard.next_player_leads_after_out = false;
        vec![
            Rules::big_two_4card(),
            Rules::big_two(),
            Rules::pusoy_dos(),
            b8,
            standard,
        ]
    }

    /// A deal of `rules` where seat i holds every card with bit index ≡ i (mod 4): one suit
    /// place each.
    pub(crate) fn by_suit_place(rules: Rules) -> State {
        let hands: Vec<u64> = (0..4).map(|s| SUIT_ROW << s).collect();
        let start = Start {
            hands,
            table_seat: -1,
            ..Start::default()
        };
        State::new(Arc::new(Table::new(rules)), &start).unwrap()
    }

    /// The packed single of key bit `k`.
    pub(crate) fn single(k: u64) -> u64 {
        1 << SIZE_SHIFT | k << STRENGTH_SHIFT | 1 << k
    }
}

/// The trump games' rules presets and cards by name.
pub(crate) mod trump {
    use crate::trump::{Rules, Scoring};

    pub(crate) const FORTY_FIVE: Rules = Rules {
        silent_ace: false,
        immediate_pickup: false,
        stop_at_three: false,
        jinking: false,
        scoring: Scoring::Sides {
            points: [0, 0, 0, 5, 5, 10],
        },
    };

    pub(crate) const SPOIL_FIVE: Rules = Rules {
        silent_ace: false,
        immediate_pickup: false,
        stop_at_three: true,
        jinking: false,
        scoring: Scoring::Pool { ante: 1 },
    };

    /// Card indices from text such as `"5S 10H AD"`.
    pub(crate) fn cards(text: &str) -> Vec<u8> {
        text.split_whitespace()
            .map(|word| {
                let (rank, suit) = word.split_at(word.len() - 1);
                let rank = [
                    "2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A",
                ]
                .iter()
                .position(|&r| r == rank)
                .unwrap();
                let suit = "CDHS".find(suit).unwrap();
                (rank * 4 + suit) as u8
            })
            .collect()
    }

    pub(crate) fn mask(text: &str) -> u64 {
        cards(text).iter().fold(0, |m, &c| m | 1 << c)
    }

    pub(crate) fn card(text: &str) -> u8 {
        cards(text)[0]
    }
}

/// Rummy's rules and cards.
pub(crate) mod rummy {
    use crate::rummy::Rules;

    pub(crate) fn rules(players: u8, forbid: bool, score_melds: bool, turn_limit: u64) -> Rules {
        Rules {
            players,
            forbid_discard_of_drawn_discard: forbid,
            score_melds,
            turn_limit,
        }
    }

    /// The rummy-layout mask of `(suit, rank)` cards.
    pub(crate) fn mask(cards: &[(u32, u32)]) -> u64 {
        cards
            .iter()
            .fold(0, |m, &(suit, rank)| m | 1 << (suit * 13 + rank))
    }
}
