//! CPython's `random.Random` as far as dealing needs it: seeding from an int and `shuffle`,
//! exactly as CPython 3.11 does them (`Modules/_randommodule.c`, `Lib/random.py`), so that a
//! seed shuffles the same deck here as `random.Random(seed).shuffle(deck)` does in Python.
//!
//! - seeding: `init_genrand(19650218)`, then `init_by_array(key)`, where the key is the 32-bit
//!   words of `abs(seed)`, least significant first (at least one word: seed 0 is `[0]`);
//! - `getrandbits(k)`: for `k <= 32` the top `k` bits of one output; for more, one output per
//!   32 bits, least significant word first, the last one shifted down to what is left;
//! - `_randbelow(n)` (`_randbelow_with_getrandbits`): `k = n.bit_length()`, then
//!   `getrandbits(k)` until it is below `n`;
//! - `shuffle(x)`: `for i in reversed(range(1, len(x))): j = _randbelow(i + 1); swap(i, j)`.

const N: usize = 624;
const M: usize = 397;
const MATRIX_A: u32 = 0x9908_b0df;
const UPPER_MASK: u32 = 0x8000_0000;
const LOWER_MASK: u32 = 0x7fff_ffff;

/// `init_genrand(19650218)`'s state.
const INIT_GENRAND: [u32; N] = {
    let mut state = [0u32; N];
    state[0] = 19_650_218;
    let mut i = 1;
    while i < N {
        let prev = state[i - 1];
        state[i] = 1_812_433_253u32
            .wrapping_mul(prev ^ (prev >> 30))
            .wrapping_add(i as u32);
        i += 1;
    }
    state
};

/// The Mersenne Twister of CPython's `random` module.
#[derive(Clone)]
pub struct Mt19937 {
    state: [u32; N],
    index: usize,
}

impl Mt19937 {
    /// `init_genrand(19650218)`, where every seeding starts (computed when compiling).
    fn init_genrand() -> Self {
        Mt19937 {
            state: INIT_GENRAND,
            index: N,
        }
    }

    /// `init_by_array(key)` after `init_genrand(19650218)`: the generator `random.Random`
    /// seeds with the key. An empty key is taken as `[0]`, as CPython never passes one.
    pub fn from_key(key: &[u32]) -> Self {
        let key: &[u32] = if key.is_empty() { &[0] } else { key };
        let mut g = Self::init_genrand();
        let mt = &mut g.state;
        let (mut i, mut j) = (1usize, 0usize);
        for _ in 0..N.max(key.len()) {
            let prev = mt[i - 1];
            mt[i] = (mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_664_525))
                .wrapping_add(key[j])
                .wrapping_add(j as u32);
            i += 1;
            j += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
            if j >= key.len() {
                j = 0;
            }
        }
        for _ in 0..N - 1 {
            let prev = mt[i - 1];
            mt[i] =
                (mt[i] ^ (prev ^ (prev >> 30)).wrapping_mul(1_566_083_941)).wrapping_sub(i as u32);
            i += 1;
            if i >= N {
                mt[0] = mt[N - 1];
                i = 1;
            }
        }
        mt[0] = 0x8000_0000;
        g
    }

    /// The generator of a `random.Random` just seeded, from its state (`getstate()[1]`: the
    /// 624 words, then the index, which is 624 until the first draw); `None` for another
    /// state.
    pub fn from_seeded_state(state: &[u32]) -> Option<Self> {
        match state {
            [words @ .., index] if words.len() == N && *index as usize == N => Some(Mt19937 {
                state: words.try_into().ok()?,
                index: N,
            }),
            _ => None,
        }
    }

    /// `random.Random(seed)` for a seed whose absolute value fits 64 bits.
    pub fn from_seed(seed: i128) -> Option<Self> {
        let magnitude = u64::try_from(seed.unsigned_abs()).ok()?;
        Some(Self::from_abs_seed(magnitude))
    }

    /// `random.Random(n)` for `n >= 0` of at most 64 bits.
    pub fn from_abs_seed(n: u64) -> Self {
        let (lo, hi) = (n as u32, (n >> 32) as u32);
        if hi == 0 {
            Self::from_key(&[lo])
        } else {
            Self::from_key(&[lo, hi])
        }
    }

    /// `genrand_uint32()`. The state is regenerated one word at a time, just before the word
    /// is used: in the same order as CPython's whole-state step, so with the same words, but a
    /// deal, which uses a few dozen, does not pay for all 624.
    pub fn next_u32(&mut self) -> u32 {
        if self.index >= N {
            self.index = 0;
        }
        self.twist_word(self.index);
        let mut y = self.state[self.index];
        self.index += 1;
        y ^= y >> 11;
        y ^= (y << 7) & 0x9d2c_5680;
        y ^= (y << 15) & 0xefc6_0000;
        y ^ (y >> 18)
    }

    /// Word `kk` of CPython's `genrand_uint32` state step (its loops, one iteration): words
    /// above `kk` are still the old ones, words below it already the new ones.
    fn twist_word(&mut self, kk: usize) {
        let mt = &mut self.state;
        let y = (mt[kk] & UPPER_MASK) | (mt[(kk + 1) % N] & LOWER_MASK);
        let mag = if y & 1 == 0 { 0 } else { MATRIX_A };
        mt[kk] = mt[(kk + M) % N] ^ (y >> 1) ^ mag;
    }

    /// `getrandbits(k)` for `k <= 64`.
    pub fn getrandbits(&mut self, k: u32) -> u64 {
        debug_assert!(k <= 64);
        if k == 0 {
            0
        } else if k <= 32 {
            u64::from(self.next_u32() >> (32 - k))
        } else {
            let low = u64::from(self.next_u32());
            let high = u64::from(self.next_u32() >> (64 - k.min(64)));
            low | (high << 32)
        }
    }

    /// `_randbelow(n)` (`_randbelow_with_getrandbits`) for `n >= 1`.
    pub fn randbelow(&mut self, n: u64) -> u64 {
        let k = u64::BITS - n.leading_zeros();
        let mut r = self.getrandbits(k);
        while r >= n {
            r = self.getrandbits(k);
        }
        r
    }

    /// `shuffle(x)`.
    pub fn shuffle<T>(&mut self, x: &mut [T]) {
        for i in (1..x.len()).rev() {
            let j = self.randbelow(i as u64 + 1) as usize;
            x.swap(i, j);
        }
    }
}

/// `random.Random(seed).shuffle(x)` for a seed of at most 64 bits (either sign).
pub fn shuffle_seeded<T>(seed: i128, x: &mut [T]) -> bool {
    match Mt19937::from_seed(seed) {
        Some(mut g) => {
            g.shuffle(x);
            true
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// From CPython 3.11: `r = random.Random(seed); [r.getrandbits(32) for _ in range(3)]`.
    #[test]
    fn first_outputs_match_cpython() {
        for (seed, want) in KNOWN_OUTPUTS {
            let mut g = Mt19937::from_key(seed);
            let got: Vec<u32> = (0..3).map(|_| g.next_u32()).collect();
            assert_eq!(&got, want, "key {seed:?}");
        }
    }

    /// From CPython 3.11: `x = list(range(n)); random.Random(seed).shuffle(x)`.
    #[test]
    fn shuffles_match_cpython() {
        for (seed, n, want) in KNOWN_SHUFFLES {
            let mut x: Vec<usize> = (0..*n).collect();
            assert!(shuffle_seeded(*seed, &mut x));
            assert_eq!(&x, want, "seed {seed}, n {n}");
        }
    }

    #[test]
    fn a_seeded_state_draws_as_its_seed() {
        let mut state: Vec<u32> = Mt19937::from_abs_seed(5).state.to_vec();
        state.push(N as u32);
        let (mut a, mut b) = (
            Mt19937::from_seeded_state(&state).unwrap(),
            Mt19937::from_abs_seed(5),
        );
        assert!((0..2000).all(|_| a.next_u32() == b.next_u32()));
        state[N] = 3; // drawn from already: not a seeded state
        assert!(Mt19937::from_seeded_state(&state).is_none());
        assert!(Mt19937::from_seeded_state(&state[..N]).is_none());
    }

    #[test]
    fn big_seeds_shuffle_as_in_cpython() {
        for (key, n, want) in KNOWN_KEY_SHUFFLES {
            let mut x: Vec<usize> = (0..*n).collect();
            Mt19937::from_key(key).shuffle(&mut x);
            assert_eq!(&x, want, "key {key:?}");
        }
    }

    /// From CPython 3.11: outputs 620 to 629 and 1245 to 1254 of `random.Random(5)`, across
    /// the first two state steps.
    #[test]
    fn later_outputs_match_cpython() {
        let mut g = Mt19937::from_key(&[5]);
        let outputs: Vec<u32> = (0..1255).map(|_| g.next_u32()).collect();
        assert_eq!(&outputs[620..630], LATER_OUTPUTS_5[0]);
        assert_eq!(&outputs[1245..1255], LATER_OUTPUTS_5[1]);
    }

    #[test]
    fn the_sign_of_the_seed_does_not_matter() {
        let mut a: Vec<u8> = (0..52).collect();
        let mut b = a.clone();
        assert!(shuffle_seeded(12345, &mut a));
        assert!(shuffle_seeded(-12345, &mut b));
        assert_eq!(a, b);
    }

    #[test]
    fn seeds_past_64_bits_are_not_taken() {
        let mut x = [1, 2, 3];
        assert!(!shuffle_seeded(1i128 << 64, &mut x));
        assert!(shuffle_seeded(-(1i128 << 64) + 1, &mut x));
    }

    #[test]
    fn randbelow_stays_below() {
        let mut g = Mt19937::from_abs_seed(7);
        for n in [1u64, 2, 3, 52, 1 << 31, (1 << 32) + 1, u64::MAX] {
            for _ in 0..50 {
                assert!(g.randbelow(n) < n);
            }
        }
    }

    include!("pyrandom_vectors.rs");
}
