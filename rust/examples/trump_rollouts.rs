//! Greedy rollouts of the trump games on one core: whole deals played by the greedy policy
//! from fresh deals, and from worlds sampled for one seat of a deal in progress (sampling
//! included). `cargo run --release --example trump_rollouts [seconds]`: each figure is the
//! best of three rounds of `seconds` (on a shared machine the best is the least disturbed).

use std::hint::black_box;
use std::time::Instant;

use parlour_core::sim::{self, Knowledge as _, Rng};
use parlour_core::trump::{Knowledge, MAX_SEATS, Rules, Scoring, State};

fn deal(rng: &mut Rng, rules: Rules, players: usize) -> State {
    let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
    rng.shuffle(&mut deck);
    let mut hands = [0u64; MAX_SEATS];
    for (s, hand) in hands[..players].iter_mut().enumerate() {
        *hand = deck[s * 5..s * 5 + 5].iter().fold(0, |m, &c| m | 1 << c);
    }
    let dealer = rng.below(players as u64) as u8;
    State::new(rules, &hands[..players], deck[players * 5], dealer, 4.0).expect("a deal")
}

/// Runs `rollout` in batches for about `seconds`, three times: the best rate per second.
fn rate(seconds: f64, mut rollout: impl FnMut() -> f64) -> f64 {
    let mut best = 0.0f64;
    for _ in 0..3 {
        let start = Instant::now();
        let mut count = 0u64;
        let mut total = 0.0;
        while start.elapsed().as_secs_f64() < seconds {
            for _ in 0..1024 {
                total += rollout();
            }
            count += 1024;
        }
        black_box(total);
        best = best.max(count as f64 / start.elapsed().as_secs_f64());
    }
    best
}

fn main() {
    let seconds: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    let forty_five = Rules {
        silent_ace: false,
        immediate_pickup: false,
        stop_at_three: false,
        jinking: false,
        scoring: Scoring::Sides {
            points: [0, 0, 0, 5, 5, 10],
        },
    };
    let spoil_five = Rules {
        stop_at_three: true,
        scoring: Scoring::Pool { ante: 1 },
        ..forty_five
    };
    let variants = [
        ("forty-five", forty_five, 4),
        ("forty-five", forty_five, 6),
        ("spoil-five", spoil_five, 4),
        ("spoil-five", spoil_five, 10),
    ];
    let mut rng = Rng::new(0x9E37_79B9_7F4A_7C15);
    let mut legal = Vec::with_capacity(64);
    let mut returns = [0.0; MAX_SEATS];
    for (name, rules, players) in variants {
        let fresh = rate(seconds, || {
            let mut s = deal(&mut rng, rules, players);
            sim::playout(&mut s, &mut rng, &mut legal);
            sim::Deal::returns_into(&s, &mut returns);
            returns[0]
        });
        // A deal in progress (the same one every run): robbing done and the first trick
        // played, greedily; the seat to move knows its hand and what it saw.
        let mut position = Rng::new(players as u64);
        let (knowledge, at) = loop {
            let mut s = deal(&mut position, rules, players);
            while s.trick_winners().is_empty() && !s.is_over() {
                s.legal_actions(&mut legal);
                let m = if legal.len() == 1 {
                    legal[0]
                } else {
                    sim::Deal::greedy(&s, &legal, &mut position)
                };
                s.apply(i64::from(m)).expect("a legal move");
            }
            if !s.is_over() {
                let seat = s.current_player() as usize;
                break (Knowledge::of(&s, seat).expect("a consistent view"), s);
            }
        };
        let sampled = rate(seconds, || {
            let mut s = knowledge.sample(&mut rng);
            sim::playout(&mut s, &mut rng, &mut legal);
            sim::Deal::returns_into(&s, &mut returns);
            returns[0]
        });
        let samples = rate(seconds / 2.0, || {
            f64::from(knowledge.sample(&mut rng).current_player())
        });
        let builds = rate(seconds / 2.0, || {
            let k = Knowledge::of(black_box(&at), knowledge.seat());
            f64::from(u8::from(black_box(k).is_ok()))
        });
        println!(
            "{name} ({players} players): greedy rollouts from fresh deals {fresh:.0}/s; \
             sampled world + rollout (after trick 1, {} moves played) {sampled:.0}/s; \
             sampling alone {samples:.0}/s; knowledge of a view {:.1} us",
            at.history().len(),
            1e6 / builds
        );
    }
}
