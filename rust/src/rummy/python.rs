//! `parlour._core.RummyCore`: the rummy deal for the Python package, which keeps the notation,
//! the action objects, the public record (history, discard draws, rebuilds) and the messages.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::{DRAW_DISCARD, Parts, Rules, State};

/// Register the rummy classes in the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RummyCore>()
}

/// One rummy deal, cards as rummy-layout bits and masks, actions as packed ints.
#[pyclass(module = "parlour._core")]
pub struct RummyCore {
    state: State,
    buffer: Vec<u64>,
}

fn value_error(e: &'static str) -> PyErr {
    PyValueError::new_err(e)
}

/// What [`RummyCore::parts`] gives.
type PartsTuple = (
    Vec<u64>,
    Vec<u8>,
    Vec<u8>,
    Vec<u64>,
    Vec<u64>,
    Vec<i64>,
    Vec<u64>,
    (i8, bool, i8, bool, u64),
);

/// What [`RummyCore::public_view`] gives.
type PublicTuple = (
    i8,
    Vec<u32>,
    u8,
    Vec<u64>,
    Vec<u64>,
    Vec<u8>,
    Vec<u64>,
    Vec<i64>,
    u32,
    u64,
    i8,
    Vec<u64>,
);

fn rules(players: u8, forbid: bool, score_melds: bool, turn_limit: u64) -> Rules {
    Rules {
        players,
        forbid_discard_of_drawn_discard: forbid,
        score_melds,
        turn_limit,
    }
}

#[pymethods]
impl RummyCore {
    /// A deal from `deck` (rummy-layout bits, top first).
    #[staticmethod]
    fn deal(
        players: u8,
        forbid: bool,
        score_melds: bool,
        turn_limit: u64,
        deck: Vec<u8>,
        hand_size: usize,
    ) -> PyResult<Self> {
        let rules = rules(players, forbid, score_melds, turn_limit);
        let state = State::deal(rules, &deck, hand_size).map_err(value_error)?;
        Ok(RummyCore {
            state,
            buffer: Vec::new(),
        })
    }

    /// A position from its parts (checked by the Python package first); `ended` is the seat
    /// that went out (-1: blocked) of a deal that is over.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (players, forbid, score_melds, turn_limit, hands, stock, pile, melds,
        placed, scores, taken, current, drawing, drawn, drawn_from_discard, turn, ended=None))]
    fn position(
        players: u8,
        forbid: bool,
        score_melds: bool,
        turn_limit: u64,
        hands: Vec<u64>,
        stock: Vec<u8>,
        pile: Vec<u8>,
        melds: Vec<u64>,
        placed: Vec<u64>,
        scores: Vec<i64>,
        taken: Vec<u64>,
        current: i8,
        drawing: bool,
        drawn: i8,
        drawn_from_discard: bool,
        turn: u64,
        ended: Option<i8>,
    ) -> PyResult<Self> {
        let parts = Parts {
            hands,
            stock,
            pile,
            melds,
            placed,
            scores,
            taken,
            current,
            drawing,
            drawn,
            drawn_from_discard,
            turn,
            ended,
        };
        let rules = rules(players, forbid, score_melds, turn_limit);
        let state = State::from_parts(rules, &parts).map_err(value_error)?;
        Ok(RummyCore {
            state,
            buffer: Vec::new(),
        })
    }

    fn copy(&self) -> Self {
        RummyCore {
            state: self.state.clone(),
            buffer: Vec::new(),
        }
    }

    #[getter]
    fn current_player(&self) -> i8 {
        self.state.current_player()
    }

    #[getter]
    fn went_out(&self) -> i8 {
        self.state.went_out()
    }

    #[getter]
    fn drawing(&self) -> bool {
        self.state.drawing()
    }

    /// The legal actions as packed ints.
    fn legal_actions(&mut self) -> Vec<u64> {
        self.state.legal_actions(&mut self.buffer);
        self.buffer.clone()
    }

    /// Play the packed action `a`. Done: the seat to move next plus 1 (0 when the deal is
    /// over), plus 8 when the stock must now be rebuilt, plus 256 times 1 + the card a draw
    /// from the discard pile took. Refused (state unchanged): the refusal's code times 2**56
    /// plus its card mask or card.
    fn apply(&mut self, a: u64) -> u64 {
        match self.state.apply(a) {
            Ok(()) => {
                let mut done = (self.state.current_player() + 1) as u64;
                if self.state.needs_rebuild() {
                    done |= 8;
                }
                if a == DRAW_DISCARD {
                    done |= (self.state.drawn().0 as u64 + 1) << 8;
                }
                done
            }
            Err(illegal) => {
                let (code, data) = illegal.code();
                code << 56 | data
            }
        }
    }

    /// The discard pile, bottom first.
    fn pile(&self) -> Vec<u8> {
        self.state.pile().to_vec()
    }

    /// The new stock from the discards under the top card, in `order` (bottom first).
    fn rebuild(&mut self, order: Vec<u8>) -> PyResult<()> {
        self.state.rebuild(&order).map_err(value_error)
    }

    /// Every seat's view alike: (current, hand sizes, phase 0 draw / 1 play / 2 over, melds,
    /// placed, pile, taken, scores, stock size, turn, went out, shown hands).
    fn public_view(&self) -> PublicTuple {
        let v = self.state.public_view();
        (
            v.current,
            v.hand_sizes,
            v.phase,
            v.melds,
            v.placed,
            v.pile,
            v.taken,
            v.scores,
            v.stock_size,
            v.turn,
            v.went_out,
            v.shown,
        )
    }

    /// What `seat` alone sees: (its hand, the drawn card it may know or -1).
    fn seat_view(&self, seat: usize) -> PyResult<(u64, i8)> {
        self.seat(seat)?;
        Ok(self.state.seat_view(seat))
    }

    /// (hands, stock mask, pile mask, table mask).
    fn zones(&self) -> (Vec<u64>, u64, u64, u64) {
        let (stock, pile, table) = self.state.zone_masks();
        (self.state.hands().to_vec(), stock, pile, table)
    }

    fn hidden_from(&self, seat: usize) -> PyResult<u64> {
        self.seat(seat)?;
        Ok(self.state.hidden_from(seat))
    }

    fn hand_value(&self, seat: usize) -> PyResult<i64> {
        self.seat(seat)?;
        Ok(self.state.hand_value(seat))
    }

    /// Each seat's score less its hand once over; `None` before.
    fn returns(&self) -> Option<Vec<i64>> {
        self.state.returns()
    }

    /// (hands, stock, pile, melds, placed, scores, taken,
    /// (current, drawing, drawn, drawn from discard, turn)).
    fn parts(&self) -> PartsTuple {
        let s = &self.state;
        let (drawn, from_discard) = s.drawn();
        (
            s.hands().to_vec(),
            s.stock().to_vec(),
            s.pile().to_vec(),
            s.melds().to_vec(),
            s.placed().to_vec(),
            s.scores().to_vec(),
            s.taken().to_vec(),
            (
                s.current_player(),
                s.drawing(),
                drawn,
                from_discard,
                s.turn(),
            ),
        )
    }
}

impl RummyCore {
    /// The deal (for the environments' encoders).
    pub(crate) fn core_state(&self) -> &State {
        &self.state
    }

    fn seat(&self, seat: usize) -> PyResult<()> {
        if seat < self.state.players() {
            Ok(())
        } else {
            Err(PyValueError::new_err("not a seat"))
        }
    }
}
