use proptest::prelude::*;

use super::*;

pub(super) const FORTY_FIVE: Rules = Rules {
    silent_ace: false,
    immediate_pickup: false,
    stop_at_three: false,
    jinking: false,
    scoring: Scoring::Sides {
        points: [0, 0, 0, 5, 5, 10],
    },
};

pub(super) const SPOIL_FIVE: Rules = Rules {
    silent_ace: false,
    immediate_pickup: false,
    stop_at_three: true,
    jinking: false,
    scoring: Scoring::Pool { ante: 1 },
};

/// Card indices from text such as `"5S 10H AD"`.
pub(super) fn cards(text: &str) -> Vec<u8> {
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

pub(super) fn mask(text: &str) -> u64 {
    cards(text).iter().fold(0, |m, &c| m | 1 << c)
}

pub(super) fn card(text: &str) -> u8 {
    cards(text)[0]
}

#[test]
fn trump_order_matches_the_rules() {
    // Spades: 5S JS AH AS KS QS 2S 3S 4S 6S 7S 8S 9S 10S, highest first.
    let order = cards("5S JS AH AS KS QS 2S 3S 4S 6S 7S 8S 9S 10S");
    let power = &POWER[0][3];
    for pair in order.windows(2) {
        assert!(power[usize::from(pair[0])] > power[usize::from(pair[1])]);
    }
    assert_eq!(power[usize::from(card("10S"))], TRUMP_BASE + 1);
    // Plain diamonds: high in red, the ace lowest.
    let power = &POWER[0][0];
    assert!(power[usize::from(card("2D"))] > power[usize::from(card("AD"))]);
    assert_eq!(POWER[1][3][usize::from(card("AS"))], TRUMP_BASE);
    assert_eq!(trick_winner(&cards("KH QH AH 2C"), &POWER[0][0]), 2);
}

/// The orders of RULES.md 3.2 (those of the Python package's ranking.py), highest first:
/// each card's power is its place counted from the bottom (trumps from `TRUMP_BASE + 1`).
#[test]
fn every_power_table_is_the_rules_order() {
    let trumps = [
        "5C JC AH AC KC QC 2C 3C 4C 6C 7C 8C 9C 10C",
        "5D JD AH AD KD QD 10D 9D 8D 7D 6D 4D 3D 2D",
        "5H JH AH KH QH 10H 9H 8H 7H 6H 4H 3H 2H",
        "5S JS AH AS KS QS 2S 3S 4S 6S 7S 8S 9S 10S",
    ];
    let plain = [
        "KC QC JC AC 2C 3C 4C 5C 6C 7C 8C 9C 10C",
        "KD QD JD 10D 9D 8D 7D 6D 5D 4D 3D 2D AD",
        "KH QH JH 10H 9H 8H 7H 6H 5H 4H 3H 2H",
        "KS QS JS AS 2S 3S 4S 5S 6S 7S 8S 9S 10S",
    ];
    for trump in 0..4 {
        let mut expected = [0u8; 52];
        for order in plain {
            let order = cards(order);
            for (i, &c) in order.iter().enumerate() {
                expected[usize::from(c)] = (order.len() - i) as u8;
            }
        }
        let order = cards(trumps[trump]);
        let mut mask = 0;
        for (i, &c) in order.iter().enumerate() {
            expected[usize::from(c)] = TRUMP_BASE + (order.len() - i) as u8;
            mask |= 1 << c;
        }
        assert_eq!(POWER[0][trump], expected);
        assert_eq!(TRUMP_MASK[trump], mask);
        expected[usize::from(ACE_OF_TRUMPS[trump])] = TRUMP_BASE;
        assert_eq!(POWER[1][trump], expected);
        for suit in 0..4 {
            let follow = cards(plain[suit]).iter().fold(0u64, |m, &c| m | 1 << c) & !mask;
            assert_eq!(PLAIN_MASK[trump][suit], follow);
        }
    }
}

#[test]
fn robbing_then_reneging() {
    let hands = [
        mask("5S 3S 7D 8C 9H"),
        mask("KS 2D 3D 4D 5D"),
        mask("6S 7S 8S 9S 10S"),
        mask("AS 4C 6C 8H KC"),
    ];
    let mut s = State::new(FORTY_FIVE, &hands, card("2S"), 3, 0.0).unwrap();
    assert_eq!(s.current_player(), 3);
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    assert_eq!(legal.last(), Some(&KEEP));
    assert_eq!(s.apply(i64::from(card("8C"))), Err(Illegal::RobFirst));
    assert_eq!(
        s.apply(i64::from(ROB_BASE) + 1),
        Err(Illegal::DiscardNotHeld)
    );
    s.apply(i64::from(ROB_BASE + u16::from(card("4C"))))
        .unwrap();
    assert_eq!(s.current_player(), 0);
    assert_eq!(s.hands()[3], mask("AS 2S KC 6C 8H"));
    assert_eq!(s.hidden_from(0) >> card("4C") & 1, 1);
    assert_eq!(s.hidden_from(3) >> card("4C") & 1, 0);
    // A trump led: P1 holds the king of trumps and must play it.
    s.apply(i64::from(card("3S"))).unwrap();
    assert_eq!(s.play_mask(), mask("KS"));
    assert_eq!(s.apply(i64::from(card("2D"))), Err(Illegal::MustTrump));
    assert_eq!(s.apply(i64::from(card("AH"))), Err(Illegal::NotHeld));
    assert_eq!(s.apply(200), Err(Illegal::NotAMove));
    assert_eq!(s.apply(-1), Err(Illegal::NotAMove));
    assert_eq!(s.apply(i64::from(KEEP)), Err(Illegal::RobbingOver));
}

#[test]
fn spoil_five_three_tricks_take_the_pool() {
    let hands = [
        mask("5S JS KS 2C 3C"),
        mask("4D 5D 6D 7D 8D"),
        mask("4H 5H 6H 7H 8H"),
    ];
    let mut s = State::new(SPOIL_FIVE, &hands, card("2S"), 2, 9.0).unwrap();
    for c in cards("5S 4D 4H JS 5D 5H KS 6D 6H") {
        s.apply(i64::from(c)).unwrap();
    }
    assert!(s.is_over());
    assert_eq!(s.returns(), vec![8.0, -1.0, -1.0]);
    assert_eq!(s.apply(0), Err(Illegal::Over));
}

#[test]
fn a_robbed_turned_ace_joins_the_hand_after_trick_one() {
    let hands = [mask("2C 3C 4C 5C 6C"), mask("7C 8C 9C 10C JC")];
    for (immediate_pickup, pending) in [(false, true), (true, false)] {
        let rules = Rules {
            immediate_pickup,
            ..FORTY_FIVE
        };
        let mut s = State::new(rules, &hands, card("AS"), 1, 0.0).unwrap();
        // Only the dealer may rob a turned ace, and it cannot stay silent.
        assert_eq!(s.current_player(), 1);
        s.apply(i64::from(ROB_BASE + u16::from(card("7C"))))
            .unwrap();
        assert_eq!(s.pending_ace(), pending);
        assert_eq!(s.hands()[1] >> card("AS") & 1, u64::from(!pending));
        s.apply(i64::from(card("2C"))).unwrap();
        if pending {
            assert_eq!(s.apply(i64::from(card("AS"))), Err(Illegal::AceNotYet));
        }
        s.apply(i64::from(card("8C"))).unwrap();
        assert!(!s.pending_ace());
        assert_eq!(s.hands()[1] >> card("AS") & 1, 1);
    }
}

#[test]
fn an_ace_nobody_announces_ranks_lowest() {
    let rules = Rules {
        silent_ace: true,
        ..FORTY_FIVE
    };
    let hands = [mask("AS 3C 4C 5C 6C"), mask("2S 8C 9C 10C JC")];
    let mut s = State::new(rules, &hands, card("7S"), 1, 0.0).unwrap();
    // Every seat takes a robbing turn, from the dealer's left.
    assert_eq!(s.current_player(), 0);
    let mut legal = Vec::new();
    s.legal_actions(&mut legal);
    assert_eq!(legal.last(), Some(&SILENT));
    s.apply(i64::from(SILENT)).unwrap();
    assert_eq!(s.apply(i64::from(KEEP)), Err(Illegal::OnlyHolder));
    s.apply(i64::from(SILENT)).unwrap();
    assert!(s.demoted());
    // The two of trumps now beats the demoted ace.
    s.apply(i64::from(card("AS"))).unwrap();
    s.apply(i64::from(card("2S"))).unwrap();
    assert_eq!(s.trick_winners(), &[1]);
}

#[test]
fn bad_deals_are_refused() {
    let hand = mask("2C 3C 4C 5C 6C");
    assert!(State::new(FORTY_FIVE, &[hand, hand], 51, 0, 0.0).is_err());
    assert!(State::new(FORTY_FIVE, &[hand], 51, 0, 0.0).is_err());
    assert!(State::new(FORTY_FIVE, &[hand, mask("7C 8C 9C 10C JC")], 52, 0, 0.0).is_err());
    assert!(State::new(FORTY_FIVE, &[hand, mask("7C 8C 9C 10C JC")], 51, 2, 0.0).is_err());
    assert!(State::new(FORTY_FIVE, &[hand, mask("7C 8C 9C 10C")], 51, 0, 0.0).is_err());
    assert!(
        State::new(
            FORTY_FIVE,
            &[hand, 1 << 60 | mask("7C 8C 9C 10C")],
            51,
            0,
            0.0
        )
        .is_err()
    );
    assert!(State::new(FORTY_FIVE, &[hand, mask("7C 8C 9C 10C 6C")], 51, 0, 0.0).is_err());
    assert!(State::new(FORTY_FIVE, &[hand, mask("7C 8C 9C 10C JC")], 0, 0, 0.0).is_err());
}

/// A small generator for the deals and choices of a property (xorshift).
struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn deal(rng: &mut Rng, players: usize, rules: Rules, dealer: u8) -> State {
    let mut deck: Vec<u8> = (0..52).collect();
    for i in (1..52).rev() {
        deck.swap(i, rng.below(i + 1));
    }
    let hands: Vec<u64> = (0..players)
        .map(|s| deck[s * 5..s * 5 + 5].iter().fold(0, |m, &c| m | 1 << c))
        .collect();
    State::new(
        rules,
        &hands,
        deck[players * 5],
        dealer % players as u8,
        10.0,
    )
    .unwrap()
}

/// Every card named in what `seat` sees.
fn mentioned(s: &State, seat: usize) -> u64 {
    let view = s.view(seat);
    let mut m = view.hand | 1 << s.turn_up();
    for &c in &view.trick[..usize::from(view.trick_len)] {
        m |= 1 << c;
    }
    for (_, a) in s.seen_history(seat) {
        if a < 52 {
            m |= 1 << a;
        } else if (ROB_BASE..ROB_BASE + 52).contains(&a) {
            m |= 1 << (a - ROB_BASE);
        }
    }
    m
}

proptest! {
    #[test]
    fn random_play_keeps_every_invariant(
        seed in 1u64..u64::MAX,
        players in 2usize..=10,
        silent_ace: bool,
        immediate_pickup: bool,
        spoil: bool,
        jinking: bool,
        dealer in 0u8..10,
    ) {
        let players = if spoil { players } else { [2, 4, 6][players % 3] };
        let rules = Rules {
            silent_ace,
            immediate_pickup,
            stop_at_three: spoil,
            jinking: spoil && jinking,
            scoring: if spoil {
                Scoring::Pool { ante: 1 }
            } else {
                Scoring::Sides { points: [0, 0, 0, 5, 15, 25] }
            },
        };
        let mut rng = Rng(seed);
        let mut s = deal(&mut rng, players, rules, dealer);
        let mut legal = Vec::new();
        while !s.is_over() {
            // 52 cards accounted for, none in two places.
            let (played, turn_up, discards, stock) = s.zones();
            let mut seen = 0u64;
            let mut count = 0;
            for m in s.hands().iter().copied().chain([played, turn_up, discards, stock]) {
                prop_assert_eq!(seen & m, 0);
                seen |= m;
                count += m.count_ones();
            }
            prop_assert_eq!(seen, DECK);
            prop_assert_eq!(count, 52);
            for seat in 0..players {
                prop_assert_eq!(mentioned(&s, seat) & s.hidden_from(seat), 0);
            }
            s.legal_actions(&mut legal);
            prop_assert!(!legal.is_empty());
            for &a in &legal {
                let mut other = s.clone();
                prop_assert_eq!(other.apply(i64::from(a)), Ok(()));
            }
            // Moves that are not legal are refused and change nothing.
            let before = s.clone();
            for v in -2..140 {
                if !legal.contains(&(v as u16)) || v < 0 {
                    prop_assert!(s.apply(v).is_err());
                    prop_assert_eq!(&s, &before);
                }
            }
            let a = legal[rng.below(legal.len())];
            s.apply(i64::from(a)).unwrap();
        }
        let returns = s.returns();
        if spoil {
            let total: f64 = returns.iter().sum();
            let won = if s.taker() >= 0 { 10.0 } else { 0.0 };
            prop_assert_eq!(total, won - players as f64);
        } else {
            prop_assert!(returns.iter().enumerate().all(|(i, &r)| r == returns[i % 2]));
        }
        prop_assert!(s.history().len() <= 6 * players + 1);
    }
}

/// `variants._deal` of the deck `random.Random(seed).shuffle(list(range(52)))` leaves, from the
/// pure-Python package: `(seed, players, dealer, hands, turn_up)`.
const KNOWN_DEALS: &[(i128, usize, usize, &[u64], u8)] = &[
    (
        2024,
        4,
        3,
        &[274877907361, 567348570357764, 402654728, 1425001429598208],
        1,
    ),
    (
        7,
        10,
        0,
        &[
            283708393521152,
            620622905346,
            5497558174720,
            70368811827201,
            1125900041126176,
            17875653894148,
            175926709059584,
            137453637632,
            8814615068736,
            2814749767106712,
        ],
        9,
    ),
    (
        -99,
        6,
        2,
        &[
            671089676,
            281474977497153,
            88029651795970,
            2287155985514496,
            140742051889664,
            5498636075136,
        ],
        4,
    ),
];

#[test]
fn seeded_deals_are_the_python_ones() {
    for &(seed, players, dealer, hands, turn_up) in KNOWN_DEALS {
        let mut deck: Vec<u8> = (0..52).collect();
        assert!(crate::pyrandom::shuffle_seeded(seed, &mut deck));
        let (got, up) = super::deal(&deck, players, dealer).unwrap();
        assert_eq!(&got[..players], hands, "seed {seed}");
        assert!(got[players..].iter().all(|&h| h == 0));
        assert_eq!(up, turn_up, "seed {seed}");
    }
}

#[test]
fn impossible_deals_are_refused() {
    let deck: Vec<u8> = (0..52).collect();
    assert!(super::deal(&deck, 0, 0).is_none());
    assert!(super::deal(&deck, 11, 0).is_none());
    assert!(super::deal(&deck, 4, 4).is_none());
    assert!(super::deal(&deck[..20], 4, 0).is_none());
    assert!(super::deal(&deck[..21], 4, 0).is_some());
    assert!(super::deal(&deck, 10, 9).is_some());
}
