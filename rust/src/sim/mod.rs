//! Simulation shared by every family: a fast seeded generator, the [`Deal`] a family's state
//! offers to playouts and search, the [`Knowledge`] a seat has to sample worlds from, and the
//! greedy playout.
//!
//! Nothing here knows a game: each family implements [`Deal`] for its state and [`Knowledge`]
//! for what one seat sees, in its own module.

pub mod mlp;
#[cfg(feature = "python")]
pub mod python;
pub mod rng;
pub mod search;

pub use rng::Rng;

/// The most seats of any family's deal (Spoil Five with ten).
pub const MAX_PLAYERS: usize = 10;

/// A deal as simulation drives it: whose turn, the legal moves, applying one, the returns, and
/// the family's rule-based policy for the seat to move.
pub trait Deal: Clone + Send + Sync {
    /// The family's packed move.
    type Move: Copy + PartialEq + Send + Sync + std::fmt::Debug;

    /// The number of seats.
    fn players(&self) -> usize;

    /// The seat to move, or a negative number once the deal is over.
    fn to_move(&self) -> i8;

    /// The legal moves of the seat to move, written into `out` (cleared first).
    fn legal_into(&mut self, out: &mut Vec<Self::Move>);

    /// Applies `m`, one of the moves [`Deal::legal_into`] gave for this position. Chance inside
    /// the rules (a rummy stock rebuilt from the discards) draws from `rng`.
    fn play(&mut self, m: Self::Move, rng: &mut Rng);

    /// Each seat's return (`out` holds at least [`Deal::players`] entries); the deal is over.
    fn returns_into(&self, out: &mut [f64]);

    /// Whether `seat` won the deal (over): by default, it has the highest return. A family whose
    /// winners are not simply the best returns says so here.
    fn won(&self, seat: usize) -> bool {
        let mut r = [0.0; MAX_PLAYERS];
        let n = self.players().min(MAX_PLAYERS);
        self.returns_into(&mut r[..n]);
        seat < n && r[..n].iter().all(|&v| v <= r[seat])
    }

    /// The rule-based (`greedy`) choice among `legal` (two or more moves) for the seat to move,
    /// reading only what that seat may see.
    fn greedy(&self, legal: &[Self::Move], rng: &mut Rng) -> Self::Move;
}

/// What one seat knows of a deal: enough to deal the cards it cannot see at random,
/// consistently with everything it saw.
pub trait Knowledge: Send + Sync {
    type Deal: Deal;

    /// The seat that knows this.
    fn seat(&self) -> usize;

    /// A full deal consistent with this knowledge, with the unseen cards dealt from `rng`.
    fn sample(&self, rng: &mut Rng) -> Self::Deal;

    /// A deal drawn as [`Knowledge::sample`] draws them, then weighted by how likely the other
    /// seats' past moves were under `policy` ([`Policy::likelihood`]): of `inference.draws`
    /// deals, one is kept with probability proportional to the product of those likelihoods,
    /// each move replayed from the deal's start. A family that cannot replay its deals samples
    /// as [`Knowledge::sample`] does.
    fn sample_inferred<P: Policy<Self::Deal>>(
        &self,
        rng: &mut Rng,
        inference: &Inference,
        policy: &P,
        scratch: &mut P::Scratch,
    ) -> Self::Deal {
        let _ = (inference, policy, scratch);
        self.sample(rng)
    }
}

/// How sampled worlds are weighted by the other seats' past moves (see
/// [`Knowledge::sample_inferred`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Inference {
    /// Deals drawn for each world kept (1: no weighting).
    pub draws: usize,
    /// The softness of the model of the other seats: a move scored `q` points by the policy is
    /// played with a probability proportional to `exp(q / temperature)`.
    pub temperature: f64,
    /// The share of the model that is a uniform choice among the legal moves, in (0, 1]: no
    /// move a seat made rules a world out, however badly the policy scores it.
    pub uniform: f64,
}

impl Inference {
    /// The chance of the move with score `played` among `scores` (two or more, `played`
    /// one of them): the softmax of the scores over `temperature`, mixed with a uniform choice.
    /// A score of −∞ is a move the policy never makes.
    pub fn likelihood(&self, scores: impl Iterator<Item = f64> + Clone, played: f64) -> f64 {
        let top = scores.clone().fold(f64::NEG_INFINITY, f64::max);
        let (mut sum, mut n) = (0.0, 0usize);
        for q in scores {
            sum += ((q - top) / self.temperature).exp();
            n += 1;
        }
        let soft = if top.is_finite() && sum > 0.0 {
            ((played - top) / self.temperature).exp() / sum
        } else {
            0.0
        };
        (1.0 - self.uniform) * soft + self.uniform / n.max(1) as f64
    }
}

/// The policy a playout plays every seat with: each seat's choice among two or more legal
/// moves, reading only what that seat may see.
pub trait Policy<D: Deal>: Sync {
    /// Working space kept for the moves of one playout (made once per world, so that choosing
    /// allocates nothing).
    type Scratch: Default;

    /// The choice among `legal` (two or more moves) of the seat to move in `deal`.
    fn choose(
        &self,
        deal: &D,
        legal: &[D::Move],
        rng: &mut Rng,
        scratch: &mut Self::Scratch,
    ) -> D::Move;

    /// The chance that the seat to move in `deal` played `played` among `legal` (two or more
    /// moves), under the model `inference` makes of this policy. By default every move is as
    /// likely (a policy without scores tells nothing of the cards behind a move).
    fn likelihood(
        &self,
        deal: &D,
        legal: &[D::Move],
        played: D::Move,
        inference: &Inference,
        scratch: &mut Self::Scratch,
    ) -> f64 {
        let _ = (deal, played, inference, scratch);
        1.0 / legal.len().max(1) as f64
    }

    /// The return the seat to move in `deal` can expect, choosing among `legal` (two or more
    /// moves), as the policy estimates it without playing on (its value of its best move); `None`
    /// for a policy without such estimates, whose worlds are played to their end.
    fn value(&self, deal: &D, legal: &[D::Move], scratch: &mut Self::Scratch) -> Option<f64> {
        let _ = (deal, legal, scratch);
        None
    }
}

/// The family's rule-based policy, [`Deal::greedy`].
pub struct Greedy;

impl<D: Deal> Policy<D> for Greedy {
    type Scratch = ();

    fn choose(&self, deal: &D, legal: &[D::Move], rng: &mut Rng, _: &mut ()) -> D::Move {
        deal.greedy(legal, rng)
    }
}

/// Plays `deal` to its end in place, every seat by [`Deal::greedy`] (a forced move without
/// asking it); `legal` is scratch space, so a playout allocates nothing once it has grown.
pub fn playout<D: Deal>(deal: &mut D, rng: &mut Rng, legal: &mut Vec<D::Move>) {
    playout_with(deal, rng, legal, &Greedy, &mut ());
}

/// [`playout`] with every seat played by `policy`.
pub fn playout_with<D: Deal, P: Policy<D>>(
    deal: &mut D,
    rng: &mut Rng,
    legal: &mut Vec<D::Move>,
    policy: &P,
    scratch: &mut P::Scratch,
) {
    // No turn to stop at: played to the end.
    playout_to_leaf(deal, rng, legal, policy, scratch, 0, 0);
}

/// [`playout_with`] that stops where `seat` is to choose among two or more moves for the
/// `turns`-th time and returns the policy's [`Policy::value`] of that position for it. Returns
/// `None`, with the deal played to its end, when the deal ends first, the policy has no values,
/// or `turns` is 0.
pub fn playout_to_leaf<D: Deal, P: Policy<D>>(
    deal: &mut D,
    rng: &mut Rng,
    legal: &mut Vec<D::Move>,
    policy: &P,
    scratch: &mut P::Scratch,
    seat: usize,
    turns: u32,
) -> Option<f64> {
    let mut seen = 0;
    while deal.to_move() >= 0 {
        deal.legal_into(legal);
        let m = if legal.len() == 1 {
            legal[0]
        } else {
            if deal.to_move() as usize == seat {
                seen += 1;
                if seen == turns
                    && let Some(value) = policy.value(deal, legal, scratch)
                {
                    return Some(value);
                }
            }
            policy.choose(deal, legal, rng, scratch)
        };
        deal.play(m, rng);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_likelihood_is_a_softmax_mixed_with_a_uniform_choice() {
        let model = |temperature, uniform| Inference {
            draws: 4,
            temperature,
            uniform,
        };
        let scores = [0.0, 3f64.ln()];
        let p = |m: &Inference, k: usize| m.likelihood(scores.iter().copied(), scores[k]);
        // exp(ln 3) : exp(0) = 3 : 1.
        assert!((p(&model(1.0, 1e-12), 1) - 0.75).abs() < 1e-9);
        assert!((p(&model(1.0, 1e-12), 0) - 0.25).abs() < 1e-9);
        // A tenth uniform: 0.9 * 0.75 + 0.1 / 2.
        assert!((p(&model(1.0, 0.1), 1) - 0.725).abs() < 1e-9);
        // Halving the temperature squares the odds: 9 : 1.
        assert!((p(&model(0.5, 1e-12), 1) - 0.9).abs() < 1e-9);
        // Wholly uniform, the scores do not matter.
        assert!((p(&model(0.5, 1.0), 1) - 0.5).abs() < 1e-12);
        // A move the policy never makes has only the uniform share; scores far apart do not
        // overflow.
        let never = [f64::NEG_INFINITY, 0.0, 1e6];
        let m = model(0.01, 0.3);
        assert!((m.likelihood(never.iter().copied(), never[0]) - 0.1).abs() < 1e-12);
        assert!((m.likelihood(never.iter().copied(), never[2]) - 0.8).abs() < 1e-12);
    }
}
