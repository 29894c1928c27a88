//! Rummy (`rummy`, 2-4 players): melds and lay-offs score, the hand left is subtracted.
//!
//! The deck order, the stock rebuild shuffles, the notation and the messages stay in Python;
//! this module keeps the deal itself: the cards, the legal actions, applying one, the scores
//! and what each seat may see.

pub mod encoding;
pub mod melds;
pub mod state;

#[cfg(feature = "python")]
pub mod python;

pub use state::{
    DISCARD, DRAW_DISCARD, DRAW_STOCK, Illegal, LAYOFF, MAX_MELDS, MAX_SEATS, MELD, Parts,
    PublicView, Rules, State, TERMINAL, action, is_move,
};

#[cfg(test)]
mod tests;
