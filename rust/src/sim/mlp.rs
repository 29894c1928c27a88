//! The learned networks' two-layer perceptron (`parlour.bots.learned.dmc.QNet`), shared by the
//! families: each family's `net.rs` implements [`Network`], writing the seat's observation
//! encoding and, for each legal move, the rows of the move's features that are set; this
//! computes the scores, and makes every such network a playout [`Policy`].
//!
//! A score is `w3 · relu(W2 relu(W1o x + W1a f + b1) + b2) + b3` for observation `x` and move
//! features `f`. Its inputs are sparse, so each first-layer product adds only the weight rows
//! of the inputs that are set, and the second layer only the rows of the units that fire; the
//! observation's part of the first layer is computed once per decision and shared by its moves.
//! Every buffer lives in [`Scratch`], made once per playout, so a move allocates nothing.

use super::{Deal, Inference, Policy, Rng};

/// A network's weights as Python holds them (row-major matrices); [`Mlp::new`] checks them.
pub struct Layers {
    pub w1o: Vec<f32>,
    pub w1a: Vec<f32>,
    pub b1: Vec<f32>,
    pub w2: Vec<f32>,
    pub b2: Vec<f32>,
    pub w3: Vec<f32>,
    pub b3: f32,
    /// Points a unit of the network's output is worth (it was trained on returns divided by it).
    pub scale: f64,
}

/// The checked weights.
#[derive(Clone, Debug)]
pub struct Mlp {
    pub(crate) hidden: usize,
    pub(crate) hidden2: usize,
    /// Observation encoding × hidden.
    pub(crate) w1o: Vec<f32>,
    /// Move features × hidden.
    pub(crate) w1a: Vec<f32>,
    pub(crate) b1: Vec<f32>,
    /// Hidden × hidden2.
    pub(crate) w2: Vec<f32>,
    pub(crate) b2: Vec<f32>,
    pub(crate) w3: Vec<f32>,
    pub(crate) b3: f32,
    pub(crate) scale: f64,
    obs: usize,
}

/// A family's network as it reads a deal: the observation encoding of the seat to move and the
/// feature rows of each of its legal moves. [`scores`] does the rest, and [`NetPolicy`] makes
/// every such network a playout [`Policy`] that plays its best-scored move.
pub trait Network<D: Deal>: Sync {
    /// What the family works out once per decision for its moves' features (kept across a
    /// playout's decisions, so that a decision allocates nothing).
    type Context: Default;

    /// The weights.
    fn mlp(&self) -> &Mlp;

    /// Writes the observation encoding of the seat to move in `deal` into `obs` (every entry)
    /// and what its moves' features read into `cx`. Implementations are `#[inline(always)]`, so
    /// that each instruction set's copy of [`scores`] has its own.
    fn encode(&self, deal: &D, cx: &mut Self::Context, obs: &mut [f32]);

    /// Appends the first-layer rows of `m`, a legal move of the seat just encoded, with their
    /// values to `terms`, in the order they are added; `false` for a move the network cannot
    /// score (never chosen). `#[inline(always)]` as well.
    fn move_terms(
        &self,
        deal: &D,
        m: D::Move,
        cx: &Self::Context,
        terms: &mut Vec<(f32, u32)>,
    ) -> bool;

    /// The score of each of `legal` into `s.q` (see [`scores`]).
    fn scores(&self, deal: &D, legal: &[D::Move], s: &mut Scratch<Self::Context>)
    where
        Self: Sized,
    {
        scores(self, deal, legal, s);
    }
}

/// The seat to move in `deal` among the network's `players`, for [`Network::encode`] (0 once the
/// deal is over, where no network is asked to choose).
#[inline(always)]
pub fn seat_to_move<D: Deal>(deal: &D, players: usize) -> usize {
    usize::try_from(deal.to_move()).unwrap_or(0) % players.max(1)
}

/// Working space of one playout, with the family's context `C` of [`Network::Context`].
#[derive(Default)]
pub struct Scratch<C = ()> {
    obs: Vec<f32>,
    base: Vec<f32>,
    h: Vec<f32>,
    z: Vec<f32>,
    /// The feature rows of one move with their values (also the rows a product reads).
    terms: Vec<(f32, u32)>,
    /// The scores of the last decision's moves.
    pub q: Vec<f32>,
    context: C,
}

impl<C> Scratch<C> {
    /// The last decision's observation encoding, for the families' tests.
    #[cfg(test)]
    pub(crate) fn obs(&self) -> &[f32] {
        &self.obs
    }
}

/// The network's score of each of `legal` (the moves of the seat to move in `deal`) into
/// `s.q`, from that seat's observation; a move it cannot score gets −∞.
///
/// Where the processor has AVX2 the same code is compiled for it as well and chosen at run
/// time. Every score is the same either way: each output is summed in the same order and
/// nothing is fused, only more lanes are computed at once.
pub fn scores<D: Deal, N: Network<D>>(
    net: &N,
    deal: &D,
    legal: &[D::Move],
    s: &mut Scratch<N::Context>,
) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("avx2") {
        #[allow(unsafe_code)]
        // SAFETY: the processor has AVX2, as just checked.
        unsafe {
            scores_avx2(net, deal, legal, s)
        };
        return;
    }
    scores_with(net, deal, legal, s);
}

#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn scores_avx2<D: Deal, N: Network<D>>(
    net: &N,
    deal: &D,
    legal: &[D::Move],
    s: &mut Scratch<N::Context>,
) {
    scores_with(net, deal, legal, s);
}

/// [`scores`] in the portable code alone, for the tests that every path gives the same bits.
#[cfg(test)]
pub(crate) fn scores_portable<D: Deal, N: Network<D>>(
    net: &N,
    deal: &D,
    legal: &[D::Move],
    s: &mut Scratch<N::Context>,
) {
    scores_with(net, deal, legal, s);
}

#[inline(always)]
fn scores_with<D: Deal, N: Network<D>>(
    net: &N,
    deal: &D,
    legal: &[D::Move],
    s: &mut Scratch<N::Context>,
) {
    let mlp = net.mlp();
    s.obs.resize(mlp.obs, 0.0);
    s.q.clear();
    net.encode(deal, &mut s.context, &mut s.obs);
    mlp.observe(s);
    for &m in legal {
        if net.move_terms(deal, m, &s.context, &mut s.terms) {
            mlp.score(s);
        } else {
            s.q.push(f32::NEG_INFINITY);
            s.terms.clear();
        }
    }
}

/// A family's network as a playout policy: each seat plays the legal move the network scores
/// highest from that seat's observation, as the Python bot does. (A wrapper, because a policy
/// for every [`Network`] would also claim the family-blind [`super::Greedy`].)
#[derive(Clone, Debug)]
pub struct NetPolicy<N>(pub N);

impl<N> std::ops::Deref for NetPolicy<N> {
    type Target = N;

    fn deref(&self) -> &N {
        &self.0
    }
}

impl<D: Deal, N: Network<D>> Policy<D> for NetPolicy<N> {
    type Scratch = Scratch<N::Context>;

    /// The best-scored legal move (the first of equals).
    fn choose(&self, deal: &D, legal: &[D::Move], _: &mut Rng, s: &mut Self::Scratch) -> D::Move {
        scores(&self.0, deal, legal, s);
        let mut best = 0;
        for (i, &q) in s.q.iter().enumerate() {
            if q > s.q[best] {
                best = i;
            }
        }
        legal[best]
    }

    /// The softmax of the network's scores in points (see [`Inference::likelihood`], whose
    /// temperature is in points); 0 for a move not among `legal`.
    fn likelihood(
        &self,
        deal: &D,
        legal: &[D::Move],
        played: D::Move,
        inference: &Inference,
        s: &mut Self::Scratch,
    ) -> f64 {
        scores(&self.0, deal, legal, s);
        let Some(k) = legal.iter().position(|m| *m == played) else {
            return 0.0;
        };
        let scale = self.mlp().scale;
        inference.likelihood(
            s.q.iter().map(|&q| f64::from(q) * scale),
            f64::from(s.q[k]) * scale,
        )
    }

    /// The best score in points: the network estimates the return of the seat to move after
    /// each of its moves (`None` if no move could be scored).
    fn value(&self, deal: &D, legal: &[D::Move], s: &mut Self::Scratch) -> Option<f64> {
        scores(&self.0, deal, legal, s);
        let best = s.q.iter().copied().fold(f32::NEG_INFINITY, f32::max);
        best.is_finite().then(|| f64::from(best) * self.mlp().scale)
    }
}

/// Calls `f(k)` for each `k` (at most 32) whose `xs[k]` passes `test`, in order. The tests are
/// made into a bit mask first: a branch per entry would be mispredicted about as often as not.
#[inline(always)]
fn for_each_set(xs: &[f32], test: impl Fn(f32) -> bool, mut f: impl FnMut(usize)) {
    let mut bits = 0u32;
    for (k, &x) in xs.iter().enumerate() {
        bits |= u32::from(test(x)) << k;
    }
    while bits != 0 {
        f(bits.trailing_zeros() as usize);
        bits &= bits - 1;
    }
}

/// The `(value, position)` of each entry of `xs` that passes `test`, in order, into `terms`.
#[inline(always)]
fn set_terms(xs: &[f32], test: impl Fn(f32) -> bool + Copy, terms: &mut Vec<(f32, u32)>) {
    terms.clear();
    for (c, chunk) in xs.chunks(32).enumerate() {
        for_each_set(chunk, test, |k| {
            let i = c * 32 + k;
            terms.push((xs[i], i as u32));
        });
    }
}

/// `y += a * x` (the dense reference's step).
#[cfg(test)]
fn axpy(a: f32, x: &[f32], y: &mut [f32]) {
    for (y, x) in y.iter_mut().zip(x) {
        *y += a * x;
    }
}

/// `Σ max(z, 0) · w`, in 8 running sums (one AVX2 register) added together at the end: with a
/// single running sum each addition would wait for the one before.
#[inline(always)]
fn relu_dot(z: &[f32], w: &[f32]) -> f32 {
    let mut lanes = [0.0f32; 8];
    let (mut zs, mut ws) = (z.chunks_exact(8), w.chunks_exact(8));
    for (z, w) in (&mut zs).zip(&mut ws) {
        for ((lane, z), w) in lanes.iter_mut().zip(z).zip(w) {
            *lane += z.max(0.0) * w;
        }
    }
    let tail: f32 = zs
        .remainder()
        .iter()
        .zip(ws.remainder())
        .map(|(z, w)| z.max(0.0) * w)
        .sum();
    lanes.iter().sum::<f32>() + tail
}

/// `y += c · w[r]` for each term `(c, r)` in order, `w[r]` being row `r` of the row-major
/// matrix `w` as wide as `y`. Every entry sums its terms in the same order as one [`axpy`] per
/// term would, so the bits are the same; but a block of entries stays in registers through all
/// the terms instead of being loaded and stored again for each, which halves the memory traffic
/// of the network's products and spares each term the wait for the last one's store. Blocks of
/// 64 entries (8 AVX2 registers) cover the width, and a narrower rest (a small network's 32
/// units of its second layer) is taken in blocks of 32, 16 and 8 before entries one at a time.
#[inline(always)]
fn add_rows(y: &mut [f32], w: &[f32], terms: &[(f32, u32)]) {
    let width = y.len();
    let mut from = add_blocks::<64>(y, 0, width, w, terms);
    from = add_blocks::<32>(y, from, width, w, terms);
    from = add_blocks::<16>(y, from, width, w, terms);
    from = add_blocks::<8>(y, from, width, w, terms);
    add_blocks::<1>(y, from, width, w, terms);
}

/// [`add_rows`] for the whole blocks of `B` entries of `y` from entry `from` on; returns where
/// they end.
#[inline(always)]
fn add_blocks<const B: usize>(
    y: &mut [f32],
    from: usize,
    width: usize,
    w: &[f32],
    terms: &[(f32, u32)],
) -> usize {
    let mut blocks = y[from..].chunks_exact_mut(B);
    for (b, out) in (&mut blocks).enumerate() {
        let mut acc = [0.0f32; B];
        acc.copy_from_slice(out);
        let at = from + b * B;
        for &(c, r) in terms {
            let start = r as usize * width + at;
            let row: &[f32; B] = w[start..start + B].try_into().expect("a whole block");
            for (a, x) in acc.iter_mut().zip(row) {
                *a += c * x;
            }
        }
        out.copy_from_slice(&acc);
    }
    width - blocks.into_remainder().len()
}

impl Mlp {
    /// The network over an observation encoding of `obs` entries, or why the weights do not
    /// fit one (`what` says what they were expected to fit, for the message).
    pub fn new(w: Layers, obs: usize, what: &str) -> Result<Mlp, String> {
        let hidden = w.b1.len();
        let hidden2 = w.b2.len();
        let fits = hidden > 0
            && hidden2 > 0
            && w.w1o.len() == obs * hidden
            && w.w1a.len().is_multiple_of(hidden)
            && w.w2.len() == hidden * hidden2
            && w.w3.len() == hidden2
            && w.scale > 0.0
            && w.scale.is_finite();
        if !fits {
            return Err(format!(
                "the weights do not fit this game: an encoding of {obs} entries needs w1o of \
                 {obs} rows, w1a as wide as b1, w2 of b1 × b2 entries, w3 as long as b2 and a \
                 finite scale above 0{what}"
            ));
        }
        Ok(Mlp {
            hidden,
            hidden2,
            w1o: w.w1o,
            w1a: w.w1a,
            b1: w.b1,
            w2: w.w2,
            b2: w.b2,
            w3: w.w3,
            b3: w.b3,
            scale: w.scale,
            obs,
        })
    }

    /// The number of move features (rows of `w1a`).
    pub fn features(&self) -> usize {
        self.w1a.len() / self.hidden
    }

    /// The observation's part of the first layer, shared by the decision's moves.
    #[inline(always)]
    fn observe<C>(&self, s: &mut Scratch<C>) {
        s.base.clear();
        s.base.extend_from_slice(&self.b1);
        set_terms(&s.obs, |x| x != 0.0, &mut s.terms);
        add_rows(&mut s.base, &self.w1o, &s.terms);
        s.h.resize(self.hidden, 0.0);
        s.z.resize(self.hidden2, 0.0);
        s.terms.clear();
    }

    /// Scores the move whose feature rows are `s.terms` (they are used up) into `s.q`.
    #[inline(always)]
    fn score<C>(&self, s: &mut Scratch<C>) {
        s.h.copy_from_slice(&s.base);
        add_rows(&mut s.h, &self.w1a, &s.terms);
        // Only the rows of the units that fire (about one in eight in the climbing games) are read.
        set_terms(&s.h, |x| x > 0.0, &mut s.terms);
        s.z.copy_from_slice(&self.b2);
        add_rows(&mut s.z, &self.w2, &s.terms);
        s.q.push(relu_dot(&s.z, &self.w3) + self.b3);
        s.terms.clear();
    }

    /// The score of each move whose features are a row of `moves` (rows as wide as
    /// [`Mlp::features`], one after another) in the decision whose observation encoding is
    /// `obs`, into `s.q`: a decision given by its encodings, as Python's networks give it,
    /// rather than by a deal. Each row's entries that are not 0 are its terms, in order, so a
    /// family whose [`Network::move_terms`] lists a move's features in order gets the very bits
    /// of [`scores`]. The caller checks the lengths (`obs` as long as the encoding, `moves` a
    /// whole number of rows) and that the network has move features (rows are not empty).
    pub fn scores_of_rows(&self, obs: &[f32], moves: &[f32], s: &mut Scratch) {
        s.obs.clear();
        s.obs.extend_from_slice(obs);
        s.q.clear();
        self.observe(s);
        for row in moves.chunks_exact(self.features()) {
            set_terms(row, |x| x != 0.0, &mut s.terms);
            self.score(s);
        }
    }

    /// The length of the observation encodings it reads.
    pub fn observations(&self) -> usize {
        self.obs
    }

    /// The dense reference of one score, for the families' tests: every product of every
    /// layer, from the observation `obs` and the move's feature rows `terms`.
    #[cfg(test)]
    pub(crate) fn dense(&self, obs: &[f32], terms: &[(f32, u32)]) -> f32 {
        let (h1, h2) = (self.hidden, self.hidden2);
        let mut h = self.b1.clone();
        for (i, &x) in obs.iter().enumerate() {
            axpy(x, &self.w1o[i * h1..(i + 1) * h1], &mut h);
        }
        for &(c, r) in terms {
            let r = r as usize;
            axpy(c, &self.w1a[r * h1..(r + 1) * h1], &mut h);
        }
        let mut z = self.b2.clone();
        for (j, &x) in h.iter().enumerate() {
            axpy(x.max(0.0), &self.w2[j * h2..(j + 1) * h2], &mut z);
        }
        relu_dot(&z, &self.w3) + self.b3
    }

    /// Small random weights for the families' tests: `obs` inputs, `features` move features,
    /// `h1` and `h2` hidden units.
    #[cfg(test)]
    pub(crate) fn random(obs: usize, features: usize, h1: usize, h2: usize, seed: u64) -> Mlp {
        let mut rng = super::Rng::new(seed);
        let mut w = |n: usize| {
            (0..n)
                .map(|_| (rng.unit() - 0.5) as f32)
                .collect::<Vec<f32>>()
        };
        let layers = Layers {
            w1o: w(obs * h1),
            w1a: w(features * h1),
            b1: w(h1),
            w2: w(h1 * h2),
            b2: w(h2),
            w3: w(h2),
            b3: 0.1,
            scale: 1.0,
        };
        Mlp::new(layers, obs, "").expect("weights of the right shapes")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::Rng;

    #[test]
    fn weights_of_the_wrong_shapes_are_refused() {
        let good = Mlp::random(5, 3, 4, 2, 1);
        let layers = |w1o: Vec<f32>, scale: f64| Layers {
            w1o,
            w1a: good.w1a.clone(),
            b1: good.b1.clone(),
            w2: good.w2.clone(),
            b2: good.b2.clone(),
            w3: good.w3.clone(),
            b3: 0.0,
            scale,
        };
        assert!(Mlp::new(layers(good.w1o.clone(), 1.0), 5, "").is_ok());
        let err = Mlp::new(layers(good.w1o[1..].to_vec(), 1.0), 5, "").unwrap_err();
        assert!(err.contains("do not fit"), "{err}");
        assert!(Mlp::new(layers(good.w1o.clone(), 1.0), 6, "").is_err());
        for scale in [0.0, -1.0, f64::NAN, f64::INFINITY] {
            assert!(Mlp::new(layers(good.w1o.clone(), scale), 5, "").is_err());
        }
    }

    #[test]
    fn the_sparse_products_are_the_dense_ones_to_the_bit() {
        // Whole and partial blocks of 32 (the units that fire) and every block of the sums in
        // registers: 70 = 64 + 6 single entries, 40 = 32 + 8, 127 = 64 + 32 + 16 + 8 + 7,
        // 57 = 32 + 16 + 8 + 1.
        for (h1, h2) in [(70, 40), (127, 57), (64, 32), (16, 8)] {
            sparse_against_dense(h1, h2);
        }
    }

    fn sparse_against_dense(h1: usize, h2: usize) {
        let mlp = Mlp::random(50, 9, h1, h2, 3);
        let mut rng = Rng::new(7);
        let mut s = Scratch::<()>::default();
        for _ in 0..40 {
            s.obs.resize(mlp.obs, 0.0);
            s.q.clear();
            for x in s.obs.iter_mut() {
                *x = if rng.unit() < 0.3 {
                    rng.unit() as f32
                } else {
                    0.0
                };
            }
            let obs = s.obs.clone();
            mlp.observe(&mut s);
            let mut dense = Vec::new();
            for _ in 0..5 {
                let mut terms = Vec::new();
                for r in 0..9 {
                    if rng.unit() < 0.4 {
                        terms.push((rng.unit() as f32, r));
                    }
                }
                dense.push(mlp.dense(&obs, &terms));
                s.terms.extend_from_slice(&terms);
                mlp.score(&mut s);
            }
            assert_eq!(s.q, dense);
        }
    }

    #[test]
    fn rows_of_features_score_as_their_terms_do() {
        let mlp = Mlp::random(50, 9, 70, 40, 5);
        let mut rng = Rng::new(8);
        let mut s = Scratch::<()>::default();
        let obs: Vec<f32> = (0..50)
            .map(|_| {
                if rng.unit() < 0.3 {
                    rng.unit() as f32
                } else {
                    0.0
                }
            })
            .collect();
        let mut rows = vec![0.0f32; 9 * 6];
        let mut dense = Vec::new();
        for row in rows.chunks_exact_mut(9) {
            let mut terms = Vec::new();
            for (r, x) in row.iter_mut().enumerate() {
                if rng.unit() < 0.4 {
                    *x = rng.unit() as f32;
                    terms.push((*x, r as u32));
                }
            }
            dense.push(mlp.dense(&obs, &terms));
        }
        mlp.scores_of_rows(&obs, &rows, &mut s);
        assert_eq!(s.q, dense);
        // A decision of no moves scores none.
        mlp.scores_of_rows(&obs, &[], &mut s);
        assert!(s.q.is_empty());
    }
}
