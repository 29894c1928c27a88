//! The simulation's generator: xoshiro256++ seeded through SplitMix64 (Blackman and Vigna).
//!
//! Fast (a few instructions a draw), small to copy, and reproducible from one `u64`: a search
//! derives one generator per world from its seed, so its result does not depend on the order
//! in which threads take the worlds. Deals keep CPython's generator ([`crate::pyrandom`]),
//! so that a seed deals the same cards as in Python; simulation needs only speed and a seed.

/// xoshiro256++.
#[derive(Clone, Debug)]
pub struct Rng {
    s: [u64; 4],
}

/// SplitMix64's step: spreads one seed over the four words of the state.
fn splitmix(x: &mut u64) -> u64 {
    *x = x.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *x;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl Rng {
    /// The generator of `seed` (every seed, 0 included, gives a usable state).
    pub fn new(seed: u64) -> Rng {
        let mut x = seed;
        Rng {
            s: [
                splitmix(&mut x),
                splitmix(&mut x),
                splitmix(&mut x),
                splitmix(&mut x),
            ],
        }
    }

    /// The generator of stream `stream` of `seed`: independent streams for worlds, seats or
    /// rows from one seed.
    pub fn stream(seed: u64, stream: u64) -> Rng {
        let mut x = seed ^ stream.wrapping_mul(0xD1B5_4A32_D192_ED03);
        Rng::new(splitmix(&mut x))
    }

    pub fn next_u64(&mut self) -> u64 {
        let s = &mut self.s;
        let result = s[0].wrapping_add(s[3]).rotate_left(23).wrapping_add(s[0]);
        let t = s[1] << 17;
        s[2] ^= s[0];
        s[3] ^= s[1];
        s[1] ^= s[2];
        s[0] ^= s[3];
        s[2] ^= t;
        s[3] = s[3].rotate_left(45);
        result
    }

    /// A uniform integer below `n` (0 when `n` is 0), without modulo bias (Lemire's method).
    pub fn below(&mut self, n: u64) -> u64 {
        if n == 0 {
            return 0;
        }
        loop {
            let m = u128::from(self.next_u64()) * u128::from(n);
            let low = m as u64;
            if low >= n.wrapping_neg() % n {
                return (m >> 64) as u64;
            }
        }
    }

    /// A uniform float in `[0, 1)` with 53 random bits.
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }

    /// Shuffles `x` uniformly (Fisher-Yates).
    pub fn shuffle<T>(&mut self, x: &mut [T]) {
        for i in (1..x.len()).rev() {
            let j = self.below(i as u64 + 1) as usize;
            x.swap(i, j);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::Rng;

    #[test]
    fn a_seed_gives_one_stream_and_streams_differ() {
        let draws = |mut r: Rng| (0..8).map(|_| r.next_u64()).collect::<Vec<_>>();
        assert_eq!(draws(Rng::new(7)), draws(Rng::new(7)));
        assert_ne!(draws(Rng::new(7)), draws(Rng::new(8)));
        assert_ne!(draws(Rng::stream(7, 0)), draws(Rng::stream(7, 1)));
    }

    #[test]
    fn below_stays_below_and_covers_the_range() {
        let mut r = Rng::new(1);
        let mut seen = [0u32; 5];
        for _ in 0..5_000 {
            let k = r.below(5);
            assert!(k < 5);
            seen[k as usize] += 1;
        }
        // Each of 5 values about 1,000 times: far from 0 or 5,000 for any uniform generator.
        assert!(seen.iter().all(|&n| (800..1200).contains(&n)), "{seen:?}");
        assert_eq!(r.below(0), 0);
        let u = r.unit();
        assert!((0.0..1.0).contains(&u));
    }

    #[test]
    fn shuffle_is_a_permutation() {
        let mut r = Rng::new(3);
        let mut x: Vec<u8> = (0..52).collect();
        r.shuffle(&mut x);
        assert_ne!(x, (0..52).collect::<Vec<u8>>());
        x.sort_unstable();
        assert_eq!(x, (0..52).collect::<Vec<u8>>());
    }
}
