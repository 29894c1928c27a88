//! Rummy (`rummy`, 2-4 players): melds and lay-offs score, the hand left is subtracted.
//!
//! The deck order, the stock rebuild shuffles, the notation and the messages stay in Python;
//! this module keeps the deal itself: the cards, the legal actions, applying one, the scores
//! and what each seat may see; the `greedy` policy ([`policy`]); and the deal in simulation
//! with the worlds a seat's knowledge allows ([`world`]).

pub mod encoding;
pub mod melds;
pub mod net;
pub mod policy;
pub mod state;
pub mod world;

#[cfg(feature = "python")]
pub mod python;

pub use policy::{Sight, choose};
pub use state::{
    DISCARD, DRAW_DISCARD, DRAW_STOCK, Illegal, LAYOFF, MAX_MELDS, MAX_SEATS, MELD, Parts,
    PublicView, Rules, State, TERMINAL, action, is_move,
};
pub use world::Knowledge;

#[cfg(test)]
mod tests;
#[cfg(test)]
mod world_tests;
