//! The reinforcement-learning environments' compiled half: what every family's observation
//! encoder shares (card blocks written from a mask, seats relative to the observer), and the
//! batched environment ([`batch`]): N deals stepped by one call, for any family that implements
//! [`batch::Family`], behind one trait object ([`batch::Batched`]) for the Python face. That
//! face (`python`, with the `python` feature) names no family: each family implements its
//! `Game` trait, and adds its `EnvCore` constructor, in the family's own `python` module.
//!
//! Each family's encoder and action index live with the family (`climbing::encoding`,
//! `trump::encoding`, `rummy::encoding`); they reproduce the Python encoders of
//! `parlour/games/<family>/encoding.py` exactly (the tests compare them with fixtures recorded
//! from those).

pub mod batch;
mod crew;
#[cfg(feature = "python")]
pub(crate) mod python;

/// Entries of a card block.
pub const BLOCK: usize = 52;

/// `BITS[b]`: the eight entries of byte `b`, low bit first (1.0 for a set bit).
static BITS: [[f32; 8]; 256] = {
    let mut table = [[0.0f32; 8]; 256];
    let mut b = 0;
    while b < 256 {
        let mut k = 0;
        while k < 8 {
            if b >> k & 1 != 0 {
                table[b][k] = 1.0;
            }
            k += 1;
        }
        b += 1;
    }
    table
};

/// Writes the 52 entries of a card block: entry `k` is 1.0 when bit `k` of `mask` is set, else
/// 0.0 (every entry is written). `out` holds at least [`BLOCK`] entries.
#[inline]
pub fn card_block(mask: u64, out: &mut [f32]) {
    let out = &mut out[..BLOCK];
    for (i, chunk) in out.chunks_exact_mut(8).enumerate() {
        chunk.copy_from_slice(&BITS[(mask >> (8 * i) & 0xff) as usize]);
    }
    out[48..].copy_from_slice(&BITS[(mask >> 48 & 0xf) as usize][..4]);
}

/// Where `seat` sits relative to `me` at a table of `n`: 0 for itself, 1 for the next seat …
#[inline]
pub fn relative(seat: usize, me: usize, n: usize) -> usize {
    (seat + n - me) % n
}

/// `v` clipped to `[-1, 1]` (a NaN stays), as the trump encoding clips scores.
#[inline]
pub fn clip(v: f64) -> f64 {
    v.clamp(-1.0, 1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_card_block_is_the_mask_bit_by_bit() {
        let mask = 1 | 1 << 9 | 1 << 47 | 1 << 48 | 1 << 51 | 1 << 52;
        let mut out = [7.0f32; 53];
        card_block(mask, &mut out);
        for (k, &v) in out[..52].iter().enumerate() {
            assert_eq!(v, if mask >> k & 1 != 0 { 1.0 } else { 0.0 }, "entry {k}");
        }
        assert_eq!(out[52], 7.0); // nothing past the block
    }

    #[test]
    fn seats_relative_to_the_observer() {
        assert_eq!(
            (0..4).map(|s| relative(s, 1, 4)).collect::<Vec<_>>(),
            [3, 0, 1, 2]
        );
        assert_eq!((clip(-3.0), clip(0.25), clip(2.0)), (-1.0, 0.25, 1.0));
    }
}
