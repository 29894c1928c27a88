//! Rust-only speed of the rummy engine on one core: random playouts (legal actions generated at
//! every step, a uniform choice applied, the stock rebuilt when needed), clones, and the size
//! of the state.
//!
//!     cargo run --release --manifest-path rust/Cargo.toml --example rummy_speed [seconds]

use std::hint::black_box;
use std::time::{Duration, Instant};

use parlour_core::rummy::{Rules, State};

/// SplitMix64: decks, rebuild shuffles and choices.
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

fn playouts(players: u8, seconds: f64) {
    let rules = Rules {
        players,
        forbid_discard_of_drawn_discard: false,
        score_melds: true,
        turn_limit: 1000,
    };
    let hand_size = if players == 2 { 10 } else { 7 };
    let mut rng = Rng(players.into());
    let mut legal = Vec::with_capacity(256);
    let mut order = Vec::with_capacity(52);
    let (mut deals, mut steps) = (0u64, 0u64);
    let start = Instant::now();
    let budget = Duration::from_secs_f64(seconds);
    while start.elapsed() < budget {
        let mut deck: Vec<u8> = (0..52).collect();
        rng.shuffle(&mut deck);
        let mut state = State::deal(rules, &deck, hand_size).expect("deal");
        loop {
            state.legal_actions(&mut legal);
            if legal.is_empty() {
                break;
            }
            state.apply(legal[rng.below(legal.len())]).expect("legal");
            steps += 1;
            if state.needs_rebuild() {
                let pile = state.pile();
                order.clear();
                order.extend_from_slice(&pile[..pile.len() - 1]);
                rng.shuffle(&mut order);
                state.rebuild(&order).expect("rebuild");
            }
        }
        deals += 1;
        black_box(state.returns());
    }
    let secs = start.elapsed().as_secs_f64();
    println!(
        "{players} players: {deals} deals, {steps} steps in {secs:.2} s: {:.0} steps/s, {:.0} deals/s",
        steps as f64 / secs,
        deals as f64 / secs
    );
}

fn clones(seconds: f64) {
    let rules = Rules {
        players: 4,
        forbid_discard_of_drawn_discard: false,
        score_melds: true,
        turn_limit: 1000,
    };
    let deck: Vec<u8> = (0..52).collect();
    let state = State::deal(rules, &deck, 7).expect("deal");
    let mut n = 0u64;
    let start = Instant::now();
    let budget = Duration::from_secs_f64(seconds);
    while start.elapsed() < budget {
        for _ in 0..1000 {
            black_box(black_box(&state).clone());
        }
        n += 1000;
    }
    let ns = start.elapsed().as_secs_f64() * 1e9 / n as f64;
    println!("clone: {ns:.1} ns");
}

fn main() {
    let seconds = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    println!(
        "size_of::<State>() = {} bytes",
        std::mem::size_of::<State>()
    );
    for players in 2..=4 {
        playouts(players, seconds);
    }
    clones(seconds);
}
