//! Random playouts of the trump engine on one core: steps per second, clone time and the size
//! of a state. `cargo run --release --example trump_speed [seconds]`.

use std::hint::black_box;
use std::time::Instant;

use parlour_core::trump::{Rules, Scoring, State};

struct Rng(u64);

impl Rng {
    fn below(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

fn deal(rng: &mut Rng, rules: Rules, players: usize) -> State {
    let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
    for i in (1..52).rev() {
        deck.swap(i, rng.below(i + 1));
    }
    let mut hands = [0u64; 10];
    for (s, hand) in hands[..players].iter_mut().enumerate() {
        *hand = deck[s * 5..s * 5 + 5].iter().fold(0, |m, &c| m | 1 << c);
    }
    State::new(rules, &hands[..players], deck[players * 5], 0, 4.0).expect("a deal")
}

fn main() {
    let seconds: f64 = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(2.0);
    let variants = [
        (
            "forty-five",
            Rules {
                silent_ace: false,
                immediate_pickup: false,
                stop_at_three: false,
                jinking: false,
                scoring: Scoring::Sides {
                    points: [0, 0, 0, 5, 5, 10],
                },
            },
        ),
        (
            "spoil-five",
            Rules {
                silent_ace: false,
                immediate_pickup: false,
                stop_at_three: true,
                jinking: false,
                scoring: Scoring::Pool { ante: 1 },
            },
        ),
    ];
    println!("size_of::<State>() = {} bytes", size_of::<State>());
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    let mut legal = Vec::with_capacity(64);
    for (name, rules) in variants {
        let players = 4;
        let start = Instant::now();
        let (mut deals, mut steps) = (0u64, 0u64);
        let mut returns = 0.0;
        while start.elapsed().as_secs_f64() < seconds {
            for _ in 0..256 {
                let mut s = deal(&mut rng, rules, players);
                while !s.is_over() {
                    s.legal_actions(&mut legal);
                    let a = legal[rng.below(legal.len())];
                    s.apply(i64::from(a)).expect("a legal move");
                    steps += 1;
                }
                returns += s.returns()[0];
                deals += 1;
            }
        }
        let elapsed = start.elapsed().as_secs_f64();
        println!(
            "{name} ({players} players) random play: {:.0} deals/s, {:.0} steps/s \
             (dealing included; returns {returns})",
            deals as f64 / elapsed,
            steps as f64 / elapsed
        );
        let s = deal(&mut rng, rules, players);
        let clones = 10_000_000u32;
        let start = Instant::now();
        for _ in 0..clones {
            black_box(black_box(&s).clone());
        }
        let per = start.elapsed().as_secs_f64() / f64::from(clones);
        println!("{name} clone: {:.1} ns", per * 1e9);
    }
}
