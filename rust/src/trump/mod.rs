//! The Irish trump games: `forty-five` and `spoil-five` (RULES.md section 3).
//!
//! The family's files, as in every family:
//!
//! - [`state`]: one deal, the engine (its rules as data, the legal moves, applying one, the
//!   scores and what each seat sees), with [`tables`], the card order per trump suit;
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
pub mod net;
pub mod policy;
pub mod state;
pub mod tables;

#[cfg(feature = "python")]
pub(crate) mod python;

pub use knowledge::{Knowledge, Observed, World};
pub use policy::{Seen, greedy};
pub use state::{
    HAND_SIZE, HIDDEN_ROB, Illegal, JINK, KEEP, MAX_HISTORY, MAX_SEATS, Phase, ROB_BASE, Rules,
    SILENT, STOP, Scoring, State, TERMINAL, TRICKS, View, deal, is_move,
};
pub use tables::{
    ACE_OF_TRUMPS, AH, DECK, PLAIN_MASK, POWER, RENEGERS, TRUMP_BASE, TRUMP_MASK, trick_winner,
};
