//! Greedy playouts of the climbing games in Rust alone, on one core: playouts per second from
//! fresh deals of each variant, and from worlds sampled for a seat in mid-deal (the sample and
//! the playout both timed, as a search spends them). Each figure is per second of this thread's
//! CPU time, in the fastest of ten rounds.
//!
//!     cargo run --release --example climbing_rollouts [seconds per figure]

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use parlour_core::climbing::{Knowledge, Rules, Start, State, Table};
use parlour_core::sim::{self, Deal, Knowledge as _, Rng};

fn fresh(table: &Arc<Table>, rng: &mut Rng, deck: &mut [u8; 52]) -> State {
    rng.shuffle(deck);
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

/// This thread's time on a CPU in seconds (Linux's schedstat), or the wall clock's where that
/// cannot be read: on a shared machine, the time this thread ran, not the time it waited.
fn cpu_seconds(wall: Instant) -> f64 {
    std::fs::read_to_string("/proc/thread-self/schedstat")
        .ok()
        .and_then(|s| s.split_whitespace().next()?.parse::<u64>().ok())
        .map_or_else(|| wall.elapsed().as_secs_f64(), |ns| ns as f64 * 1e-9)
}

/// Runs `one` for about `seconds` of CPU time, in rounds of a tenth of that: calls per CPU
/// second in the fastest round (as `timeit` reports the best, to shed other processes' noise).
fn rate(seconds: f64, mut one: impl FnMut()) -> f64 {
    let wall = Instant::now();
    let start = cpu_seconds(wall);
    let mut best: f64 = 0.0;
    while cpu_seconds(wall) - start < seconds {
        let round = cpu_seconds(wall);
        let mut n = 0u64;
        while cpu_seconds(wall) - round < seconds / 10.0 {
            for _ in 0..64 {
                one();
            }
            n += 64;
        }
        best = best.max(n as f64 / (cpu_seconds(wall) - round));
    }
    best
}

fn main() {
    let seconds: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    let mut b8 = Rules::big_two();
    b8.pass_only_if_no_legal_play = true;
    for (name, rules) in [
        ("big-two-4card", Rules::big_two_4card()),
        ("big-two", Rules::big_two()),
        ("pusoy-dos", Rules::pusoy_dos()),
        ("big-two, pass_only_if_no_legal_play", b8),
    ] {
        let table = Arc::new(Table::new(rules));
        let mut rng = Rng::new(1);
        let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
        let mut legal = Vec::with_capacity(256);
        let mut returns = [0.0; 4];
        let mut total = 0.0;
        let fresh_rate = rate(seconds, || {
            let mut deal = fresh(&table, &mut rng, &mut deck);
            sim::playout(&mut deal, &mut rng, &mut legal);
            deal.returns_into(&mut returns);
            total += returns[0];
        });
        // A mid-deal position, the same in every run: a fresh deal of its own seed played
        // greedily for 12 moves, seen by the seat to move; each rollout samples a world for it
        // and plays it out.
        let mut ordered: [u8; 52] = std::array::from_fn(|i| i as u8);
        let mut state = fresh(&table, &mut Rng::new(2), &mut ordered);
        for _ in 0..12 {
            state.legal_into(&mut legal);
            let m = if legal.len() == 1 {
                legal[0]
            } else {
                state.greedy(&legal, &mut rng)
            };
            state.play(m, &mut rng);
        }
        let seat = state.current_player() as usize;
        let knowledge = Knowledge::of_state(&state, seat).expect("the seat's knowledge");
        let sample_rate = rate(seconds, || {
            black_box(knowledge.sample(&mut rng));
        });
        let world_rate = rate(seconds, || {
            let mut world = knowledge.sample(&mut rng);
            sim::playout(&mut world, &mut rng, &mut legal);
            world.returns_into(&mut returns);
            total += returns[seat];
        });
        black_box(total);
        println!(
            "{name}: {fresh_rate:.0} greedy playouts/s from fresh deals; mid-deal (move {}): \
             {sample_rate:.0} worlds sampled/s, {world_rate:.0} sample + playout/s",
            state.history().len()
        );
    }
}
