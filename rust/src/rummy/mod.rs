//! Rummy (`rummy`, 2-4 players): melds and lay-offs score, the hand left is subtracted.
//!
//! The deck order, the stock rebuild shuffles, the notation and the messages stay in Python;
//! this module keeps the deal itself: the cards, the legal actions, applying one, the scores
//! and what each seat may see; the `greedy` policy ([`policy`]); and the deal in simulation
//! with the worlds a seat's knowledge allows ([`knowledge`]).
//!
//! The family's files, as in every family:
//!
//! - [`state`]: one deal, the engine (the rules, the legal actions, applying one, the scores
//!   and what each seat sees), with [`melds`], the card layout, card values and meld validity;
//! - [`policy`]: the rule-based policy (`greedy`);
//! - [`knowledge`]: the deal in simulation and what one seat knows, the worlds sampled from it;
//! - [`encoding`]: the observation encoding and action index of the environments;
//! - [`net`]: the learned network as a playout policy;
//! - `python`: the PyO3 classes (with the `python` feature).
//!
//! Each file's tests are in it (`#[cfg(test)] mod tests`), with the presets they share in
//! `crate::test_support`.

pub mod encoding;
pub mod knowledge;
pub mod melds;
pub mod net;
pub mod policy;
pub mod state;

#[cfg(feature = "python")]
pub mod python;

pub use knowledge::Knowledge;
pub use policy::{Sight, choose};
pub use state::{
    DISCARD, DRAW_DISCARD, DRAW_STOCK, Illegal, LAYOFF, MAX_MELDS, MAX_SEATS, MELD, Parts,
    PublicView, Rules, State, TERMINAL, action, is_move,
};
