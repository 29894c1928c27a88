//! Greedy rollouts per second in rummy, one core: every seat played by the compiled `greedy`
//! policy to the end of the deal (the stock rebuilt from the simulation's generator when it
//! runs dry), from fresh deals, and from worlds sampled for one seat of a deal in progress
//! (each rollout a new sample, then its playout), as a search does.
//!
//!     cargo run --release --manifest-path rust/Cargo.toml --example rummy_rollouts [seconds]
//!
//! Rates are per second of this thread's CPU time (Linux's `/proc/thread-self/schedstat`; wall
//! time elsewhere), so that a machine shared with other work still gives one core's figure.

use std::hint::black_box;
use std::time::{Duration, Instant};

use parlour_core::rummy::{Knowledge, Rules, State};
use parlour_core::sim::{Deal, Knowledge as _, Rng, playout};

/// A clock of this thread's time on a CPU, in seconds (wall time where Linux's is missing).
struct Clock(Instant);

impl Clock {
    fn start() -> Clock {
        Clock(Instant::now())
    }

    fn cpu() -> Option<f64> {
        let text = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        let ns: u64 = text.split_whitespace().next()?.parse().ok()?;
        Some(ns as f64 * 1e-9)
    }

    /// Seconds since `start`: CPU time when known.
    fn seconds(&self, cpu_start: Option<f64>) -> f64 {
        match (cpu_start, Clock::cpu()) {
            (Some(a), Some(b)) => b - a,
            _ => self.0.elapsed().as_secs_f64(),
        }
    }
}

fn rules(players: u8) -> Rules {
    Rules {
        players,
        forbid_discard_of_drawn_discard: false,
        score_melds: true,
        turn_limit: 1000,
    }
}

fn hand_size(players: u8) -> usize {
    if players == 2 { 10 } else { 7 }
}

fn fresh(players: u8, rng: &mut Rng, deck: &mut [u8]) -> State {
    rng.shuffle(deck);
    State::deal(rules(players), deck, hand_size(players)).expect("a deal")
}

/// Rollouts from fresh deals: (rollouts, moves) in `budget`.
fn from_deals(players: u8, budget: Duration) -> (u64, u64, f64) {
    let mut rng = Rng::new(u64::from(players));
    let mut deck: Vec<u8> = (0..52).collect();
    let mut legal = Vec::with_capacity(256);
    let (mut rollouts, mut moves) = (0u64, 0u64);
    let (start, cpu) = (Clock::start(), Clock::cpu());
    while start.0.elapsed() < budget {
        for _ in 0..100 {
            let mut state = fresh(players, &mut rng, &mut deck);
            let turns = state.turn();
            playout(&mut state, &mut rng, &mut legal);
            moves += state.turn() - turns;
            black_box(&state);
            rollouts += 1;
        }
    }
    (rollouts, moves, start.seconds(cpu))
}

/// A deal `turns` turns in, played greedily, and what its seat to move knows.
fn mid_deal(players: u8, turns: u64) -> Knowledge {
    let mut rng = Rng::new(100 + u64::from(players));
    let mut deck: Vec<u8> = (0..52).collect();
    let mut legal = Vec::new();
    loop {
        let mut state = fresh(players, &mut rng, &mut deck);
        while state.to_move() >= 0 && state.turn() < turns {
            state.legal_into(&mut legal);
            let m = if legal.len() == 1 {
                legal[0]
            } else {
                state.greedy(&legal, &mut rng)
            };
            state.play(m, &mut rng);
        }
        if state.to_move() >= 0 {
            return Knowledge::of(&state, state.to_move() as usize).expect("a real view");
        }
    }
}

/// Sample + playout from `knowledge`: (rollouts, turns played, seconds).
fn from_worlds(knowledge: &Knowledge, budget: Duration) -> (u64, u64, f64) {
    let mut rng = Rng::new(7);
    let mut legal = Vec::with_capacity(256);
    let (mut rollouts, mut moves) = (0u64, 0u64);
    let (start, cpu) = (Clock::start(), Clock::cpu());
    while start.0.elapsed() < budget {
        for _ in 0..100 {
            let mut world = knowledge.sample(&mut rng);
            let turns = world.turn();
            playout(&mut world, &mut rng, &mut legal);
            moves += world.turn() - turns;
            black_box(&world);
            rollouts += 1;
        }
    }
    (rollouts, moves, start.seconds(cpu))
}

/// Samples alone.
fn samples(knowledge: &Knowledge, budget: Duration) -> f64 {
    let mut rng = Rng::new(8);
    let mut n = 0u64;
    let (start, cpu) = (Clock::start(), Clock::cpu());
    while start.0.elapsed() < budget {
        for _ in 0..1000 {
            black_box(knowledge.sample(&mut rng));
        }
        n += 1000;
    }
    start.seconds(cpu) * 1e9 / n as f64
}

fn main() {
    let seconds = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    let budget = Duration::from_secs_f64(seconds);
    for players in 2..=4 {
        let (n, turns, secs) = from_deals(players, budget);
        println!(
            "rummy {players} players, fresh deals: {:.0} greedy rollouts/s ({:.1} turns a deal)",
            n as f64 / secs,
            turns as f64 / n as f64
        );
    }
    for players in 2..=4 {
        let knowledge = mid_deal(players, 8);
        let (n, turns, secs) = from_worlds(&knowledge, budget);
        println!(
            "rummy {players} players, 8 turns in: {:.0} sample + greedy rollout/s ({:.1} turns \
             left a rollout; a sample alone {:.0} ns)",
            n as f64 / secs,
            turns as f64 / n as f64,
            samples(&knowledge, budget / 4)
        );
    }
}
