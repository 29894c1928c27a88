//! The climbing games: `big-two-4card`, `big-two` and `pusoy-dos`.
//!
//! The family's files, as in every family:
//!
//! - [`state`]: one deal, the engine (the legal plays, applying one, the scores and what each
//!   seat sees), with [`rules`], what differs between the variants as data, and [`combos`],
//!   the plays packed one `u64` each;
//! - [`policy`]: the rule-based policy (`greedy`);
//! - [`knowledge`]: the deal in simulation and what one seat knows, the worlds sampled from it;
//! - [`encoding`]: the observation encoding and action index of the environments;
//! - [`net`]: the learned network as a playout policy;
//! - `python`: the PyO3 classes (with the `python` feature).
//!
//! Each file's tests are in it (`#[cfg(test)] mod tests`), with the presets they share in
//! `crate::test_support`.

pub mod combos;
pub mod encoding;
pub mod knowledge;
pub mod net;
pub mod policy;
#[cfg(feature = "python")]
pub(crate) mod python;
pub mod rules;
pub mod state;

pub use combos::{MASK, PASS, Table, can_beat};
pub use knowledge::{Knowledge, Seen};
pub use policy::SeatView;
pub use rules::{Five, Rules, Scoring, Window};
pub use state::{Illegal, MAX_SEATS, Origin, Start, State, TERMINAL};
