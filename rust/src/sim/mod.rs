//! Simulation shared by every family: a fast seeded generator, the [`Deal`] a family's state
//! offers to playouts and search, the [`Knowledge`] a seat has to sample worlds from, and the
//! greedy playout.
//!
//! Nothing here knows a game: each family implements [`Deal`] for its state and [`Knowledge`]
//! for what one seat sees, in its own module.

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
    while deal.to_move() >= 0 {
        deal.legal_into(legal);
        let m = if legal.len() == 1 {
            legal[0]
        } else {
            policy.choose(deal, legal, rng, scratch)
        };
        deal.play(m, rng);
    }
}
