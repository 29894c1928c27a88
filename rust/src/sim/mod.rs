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

    /// `seat`'s return and whether it won, once nothing left to play can change them; `None`
    /// before. By default that is when the deal is over; a family that knows a seat's result
    /// earlier (a climbing seat placed by going out) says so here, and a search's rollout for
    /// that seat stops there, with the result the deal played out would give.
    fn settled(&self, seat: usize) -> Option<(f64, bool)> {
        (self.to_move() < 0).then(|| result_over(self, seat))
    }

    /// The rule-based (`greedy`) choice among `legal` (two or more moves) for the seat to move,
    /// reading only what that seat may see.
    fn greedy(&self, legal: &[Self::Move], rng: &mut Rng) -> Self::Move;
}

/// `seat`'s return and whether it won, in `deal` over ([`Deal::settled`] once over).
pub fn result_over<D: Deal>(deal: &D, seat: usize) -> (f64, bool) {
    let mut returns = [0.0; MAX_PLAYERS];
    let n = deal.players().min(MAX_PLAYERS);
    deal.returns_into(&mut returns[..n]);
    (returns.get(seat).copied().unwrap_or(0.0), deal.won(seat))
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

    /// Each seat's chance of playing by the family's rule-based policy rather than by `policy`,
    /// weighed from its moves so far as [`Opponents`] says (the searching seat's own entry
    /// is 0); `None` for a family that cannot replay its deals, whose seats are all modelled by
    /// `policy`.
    fn rule_based_chances<P: Policy<Self::Deal>>(
        &self,
        rng: &mut Rng,
        model: &Opponents,
        policy: &P,
        scratch: &mut P::Scratch,
    ) -> Option<[f64; MAX_PLAYERS]> {
        let _ = (rng, model, policy, scratch);
        None
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

/// A model of the other seats as players of one of two kinds: the family's rule-based policy
/// ([`Deal::greedy`]) or the playout policy. Before a search, each seat's chance of being of the
/// rule-based kind is weighed from its moves so far (Bayes' rule over `worlds` dealt worlds: in
/// each, how likely its recorded moves were under each kind, replayed from the deal's start).
/// A seat whose chance reaches `certainty` is played by the rule-based policy in every world,
/// any other by the playout policy. A search that meets rule-based players then plays against
/// them as they play, and one that meets others keeps the playout policy's model of them: taking
/// a player for rule-based when it is not costs more than the converse gains, so the evidence
/// must be strong.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Opponents {
    /// Worlds dealt to weigh the kinds.
    pub worlds: usize,
    /// The chance that a seat is of the rule-based kind before any of its moves is seen.
    pub prior: f64,
    /// Each kind's share of a uniform choice among the legal moves: no move rules a kind out.
    pub noise: f64,
    /// The softness (points) of the playout policy's kind: a move it scores `q` points is played
    /// with a chance in proportion to `exp(q / temperature)`, as in [`Inference`].
    pub temperature: f64,
    /// The chance of the rule-based kind from which a seat is played by the rule-based policy.
    pub certainty: f64,
    /// Deals drawn for each world kept, weighted by how likely the moves of the seats played by
    /// the rule-based policy were under it ([`Knowledge::sample_inferred`]); 1: worlds are dealt
    /// as without the model. The other seats' moves weigh nothing here (see [`Inference`]).
    pub draws: usize,
}

impl Opponents {
    /// The model as [`Policy::likelihood`] and [`Knowledge::sample_inferred`] take it.
    pub fn inference(&self) -> Inference {
        Inference {
            draws: self.draws,
            temperature: self.temperature,
            uniform: self.noise,
        }
    }

    /// The chance of a recorded move under the rule-based kind, which would have played
    /// `rule_based` among `legal` moves.
    pub fn rule_based_likelihood<M: PartialEq>(
        &self,
        rule_based: M,
        played: M,
        legal: usize,
    ) -> f64 {
        rule_based_chance(rule_based == played, self.noise, legal)
    }

    /// The seats played by the rule-based policy, a bit each: those whose chance of the
    /// rule-based kind (`chances`, by seat) reaches `certainty`.
    pub fn rule_based(&self, chances: &[f64]) -> u32 {
        chances
            .iter()
            .take(32)
            .enumerate()
            .filter(|&(_, &chance)| chance >= self.certainty)
            .fold(0, |seats, (s, _)| seats | 1 << s)
    }

    /// A seat's chance of the rule-based kind, from the log-likelihoods of its moves under
    /// each kind in each world dealt (`rule_based[w]`, `policy[w]`): each kind's likelihood is
    /// the mean over the worlds, as the worlds are dealt from what the searching seat knows.
    pub fn posterior(&self, rule_based: &[f64], policy: &[f64]) -> f64 {
        fn log_mean_exp(xs: &[f64]) -> f64 {
            let top = xs.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            if !top.is_finite() {
                return top;
            }
            top + (xs.iter().map(|x| (x - top).exp()).sum::<f64>() / xs.len() as f64).ln()
        }
        let (r, p) = (log_mean_exp(rule_based), log_mean_exp(policy));
        if r == f64::NEG_INFINITY && p == f64::NEG_INFINITY {
            return self.prior;
        }
        // π·R / (π·R + (1 − π)·P), computed from the logs.
        let odds = (1.0 - self.prior).ln() - self.prior.ln() + p - r;
        1.0 / (1.0 + odds.exp())
    }
}

/// The chance of a move under the rule-based kind: its own choice (`chosen`) or, for a share
/// `noise`, a uniform choice among `legal` moves.
fn rule_based_chance(chosen: bool, noise: f64, legal: usize) -> f64 {
    let own = if chosen { 1.0 - noise } else { 0.0 };
    own + noise / legal.max(1) as f64
}

/// Plays each seat of `rule_based` (a bit each) by the family's rule-based policy and every
/// other seat by `inner`: the worlds of a search with a model of its [`Opponents`].
#[derive(Clone, Copy)]
pub struct Modelled<'a, P> {
    pub inner: &'a P,
    pub rule_based: u32,
    /// Whether the moves of the seats played by `inner` weigh a world
    /// ([`Policy::likelihood`]); if not, only the rule-based seats' moves do.
    pub weigh_inner: bool,
}

impl<P> Modelled<'_, P> {
    /// Whether the seat to move in `deal` is played by the rule-based policy.
    #[inline]
    fn rule_based_to_move<D: Deal>(&self, deal: &D) -> bool {
        u32::try_from(deal.to_move())
            .is_ok_and(|seat| seat < 32 && self.rule_based >> seat & 1 == 1)
    }
}

impl<D: Deal, P: Policy<D>> Policy<D> for Modelled<'_, P> {
    type Scratch = P::Scratch;

    fn choose(&self, deal: &D, legal: &[D::Move], rng: &mut Rng, s: &mut P::Scratch) -> D::Move {
        if self.rule_based_to_move(deal) {
            deal.greedy(legal, rng)
        } else {
            self.inner.choose(deal, legal, rng, s)
        }
    }

    /// A rule-based seat's move is as likely as [`Opponents::rule_based_likelihood`] says,
    /// with `inference`'s uniform share as the noise; any other seat's as `inner` says (or 1,
    /// the same in every world, without `weigh_inner`). So the worlds weighted by the moves so
    /// far read each seat by its kind.
    fn likelihood(
        &self,
        deal: &D,
        legal: &[D::Move],
        played: D::Move,
        inference: &Inference,
        s: &mut P::Scratch,
    ) -> f64 {
        if self.rule_based_to_move(deal) {
            let chosen = deal.greedy(legal, &mut Rng::new(0)) == played;
            rule_based_chance(chosen, inference.uniform, legal.len())
        } else if self.weigh_inner {
            self.inner.likelihood(deal, legal, played, inference, s)
        } else {
            1.0
        }
    }

    fn weighs(&self, deal: &D) -> bool {
        self.weigh_inner || self.rule_based_to_move(deal)
    }

    fn value(&self, deal: &D, legal: &[D::Move], s: &mut P::Scratch) -> Option<f64> {
        self.inner.value(deal, legal, s)
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

    /// Whether [`Policy::likelihood`] may be other than 1 for the seat to move in `deal`:
    /// `false` lets a replay that weighs a world by the moves so far pass the seat's moves by
    /// (their factor of 1 changes no weight).
    fn weighs(&self, deal: &D) -> bool {
        let _ = deal;
        true
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
    match walk(deal, rng, legal, policy, scratch, seat, turns, false) {
        Walked::Leaf(value) => Some(value),
        Walked::Settled(..) | Walked::Over => None,
    }
}

/// A search's rollout for `seat`: [`playout_to_leaf`] that also stops as soon as the seat's
/// result is [`Deal::settled`]. Returns the seat's return and whether it won; a position valued
/// at a leaf counts as won when its value is above 0.
pub fn rollout<D: Deal, P: Policy<D>>(
    deal: &mut D,
    rng: &mut Rng,
    legal: &mut Vec<D::Move>,
    policy: &P,
    scratch: &mut P::Scratch,
    seat: usize,
    turns: u32,
) -> (f64, bool) {
    match walk(deal, rng, legal, policy, scratch, seat, turns, true) {
        Walked::Leaf(value) => (value, value > 0.0),
        Walked::Settled(value, won) => (value, won),
        Walked::Over => result_over(deal, seat),
    }
}

/// Where a [`walk`] stopped.
enum Walked {
    /// At the seat's chosen turn, with the policy's value of it.
    Leaf(f64),
    /// Once the seat's result was settled (`settle`; the deal may go on).
    Settled(f64, bool),
    /// At the deal's end.
    Over,
}

/// The loop of [`playout_to_leaf`] and [`rollout`]; `settle`: stop as soon as `seat`'s result
/// is settled, else only at the deal's end.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn walk<D: Deal, P: Policy<D>>(
    deal: &mut D,
    rng: &mut Rng,
    legal: &mut Vec<D::Move>,
    policy: &P,
    scratch: &mut P::Scratch,
    seat: usize,
    turns: u32,
    settle: bool,
) -> Walked {
    let mut seen = 0;
    loop {
        if settle && let Some((value, won)) = deal.settled(seat) {
            return Walked::Settled(value, won);
        }
        if deal.to_move() < 0 {
            return Walked::Over;
        }
        deal.legal_into(legal);
        let m = if legal.len() == 1 {
            legal[0]
        } else {
            if deal.to_move() as usize == seat {
                seen += 1;
                if seen == turns
                    && let Some(value) = policy.value(deal, legal, scratch)
                {
                    return Walked::Leaf(value);
                }
            }
            policy.choose(deal, legal, rng, scratch)
        };
        deal.play(m, rng);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_kinds_are_weighed_by_bayes_rule() {
        let model = Opponents {
            worlds: 4,
            prior: 0.25,
            noise: 0.05,
            temperature: 1.0,
            certainty: 0.8,
            draws: 1,
        };
        // Moves as likely under either kind leave the prior; no world replayed leaves it too.
        assert!((model.posterior(&[-2.0, -3.0], &[-2.0, -3.0]) - 0.25).abs() < 1e-12);
        assert_eq!(model.posterior(&[], &[]), 0.25);
        // Twice as likely under the rule-based kind in every world: odds 1:3 become 2:3.
        let two = 2f64.ln();
        let p = model.posterior(&[-1.0 + two, -5.0 + two], &[-1.0, -5.0]);
        assert!((p - 0.4).abs() < 1e-12, "{p}");
        // Each kind's likelihood is the mean over the worlds, not the product.
        let p = model.posterior(&[0.0, f64::NEG_INFINITY], &[0.5f64.ln(), 0.5f64.ln()]);
        assert!((p - 0.25).abs() < 1e-12, "{p}");
        // Overwhelming evidence either way, without overflow.
        assert!(model.posterior(&[-1.0], &[-900.0]) > 1.0 - 1e-12);
        assert!(model.posterior(&[-900.0], &[-1.0]) < 1e-12);
        // The rule-based kind's chance of a move: its own choice, or the noise's share.
        assert!((model.rule_based_likelihood(3, 3, 5) - 0.96).abs() < 1e-12);
        assert!((model.rule_based_likelihood(3, 4, 5) - 0.01).abs() < 1e-12);
        // Only a seat as likely rule-based as the certainty asks is played as one.
        assert_eq!(model.rule_based(&[0.0, 0.8, 0.79, 1.0]), 0b1010);
    }

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
