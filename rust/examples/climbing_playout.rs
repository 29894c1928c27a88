//! Random play of climbing deals in Rust alone: steps per second on one core, the cost of a
//! clone, and the size of a state.
//!
//!     cargo run --release --example climbing_playout

use std::hint::black_box;
use std::sync::Arc;
use std::time::Instant;

use parlour_core::climbing::{Rules, Start, State, Table};

/// xorshift64*: enough randomness for shuffles and choices.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

fn new_deal(table: &Arc<Table>, rng: &mut Rng) -> State {
    let mut deck: Vec<u32> = (0..52).collect();
    for i in (1..52).rev() {
        deck.swap(i, rng.below(i + 1));
    }
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

fn main() {
    println!(
        "size_of::<State>() = {} bytes",
        std::mem::size_of::<State>()
    );
    for (name, rules) in [
        ("big-two-4card", Rules::big_two_4card()),
        ("big-two", Rules::big_two()),
        ("pusoy-dos", Rules::pusoy_dos()),
    ] {
        let table = Arc::new(Table::new(rules));
        let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
        let mut legal = Vec::with_capacity(256);
        let (mut deals, mut steps) = (0u64, 0u64);
        let start = Instant::now();
        while start.elapsed().as_secs_f64() < 2.0 {
            let mut state = new_deal(&table, &mut rng);
            while !state.is_over() {
                state.legal_actions(&mut legal);
                let action = legal[rng.below(legal.len())];
                state.apply(action).expect("a legal action");
                steps += 1;
            }
            deals += 1;
        }
        let secs = start.elapsed().as_secs_f64();
        // A clone of a deal in mid-play, every seat's plays listed.
        let mut state = new_deal(&table, &mut rng);
        for _ in 0..12 {
            state.legal_actions(&mut legal);
            let action = legal[rng.below(legal.len())];
            state.apply(action).expect("a legal action");
        }
        let clones = 200_000;
        let t = Instant::now();
        for _ in 0..clones {
            black_box(black_box(&state).clone());
        }
        let clone_ns = t.elapsed().as_secs_f64() * 1e9 / f64::from(clones);
        println!(
            "{name}: {:.0} deals/s, {:.0} steps/s (random play, new deals included); clone {clone_ns:.0} ns",
            deals as f64 / secs,
            steps as f64 / secs
        );
    }
}
