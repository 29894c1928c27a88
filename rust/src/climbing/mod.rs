//! The climbing games: `big-two-4card`, `big-two` and `pusoy-dos`.

pub mod combos;
pub mod encoding;
pub mod knowledge;
pub mod net;
mod playout;
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
