//! `parlour._core.RummyCore`: the rummy deal for the Python package, which keeps the notation,
//! the action objects, the public record (history, discard draws, rebuilds) and the messages.

use pyo3::exceptions::PyValueError;
use pyo3::intern;
use pyo3::prelude::*;

use super::melds::FULL;
use super::{DRAW_DISCARD, Knowledge, Parts, PublicView, Rules, Sight, State, choose};
use crate::sim::python::{Race, TallyTuple};
use crate::sim::{Knowledge as _, Rng};

/// Register the rummy classes and functions in the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RummyCore>()?;
    m.add_class::<RummyKnowledge>()?;
    m.add_function(wrap_pyfunction!(rummy_greedy, m)?)
}

/// The greedy policy's choice among `legal` (packed actions) as an index into it, for `seat`
/// holding `hand`, with the table's `melds`, each seat's `taken` cards and the discard pile's
/// `top` card (-1: empty) as an observation shows them. Ties between discards are broken by
/// `rng.random()`, called once per discard in `legal` when the choice is a discard (and never
/// otherwise), as the policy always drew.
#[pyfunction]
#[allow(clippy::too_many_arguments)]
fn rummy_greedy(
    seat: usize,
    hand: u64,
    drawing: bool,
    top: i64,
    melds: Vec<u64>,
    taken: Vec<u64>,
    legal: Vec<u64>,
    rng: &Bound<'_, PyAny>,
) -> PyResult<usize> {
    let top = match top {
        -1 => None,
        0..52 => Some(top as u8),
        _ => return Err(PyValueError::new_err("the top discard is not a card")),
    };
    let melds: Vec<u64> = melds.iter().map(|&m| m & FULL).collect();
    let sight = Sight {
        seat,
        hand,
        drawing,
        top,
        melds: &melds,
        taken: &taken,
    };
    let random = intern!(rng.py(), "random");
    let mut failed: Option<PyErr> = None;
    let choice = choose(&sight, &legal, || {
        if failed.is_some() {
            return 0.0;
        }
        match rng.call_method0(random).and_then(|x| x.extract::<f64>()) {
            Ok(x) => x,
            Err(e) => {
                failed = Some(e);
                0.0
            }
        }
    });
    if let Some(e) = failed {
        return Err(e);
    }
    choice.ok_or_else(|| PyValueError::new_err("no legal action to choose from"))
}

/// What one seat knows of a rummy deal, made from its observation: the worlds it allows are
/// sampled from it. `inner` is the Rust [`Knowledge`] for simulation.
#[pyclass(frozen, module = "parlour._core")]
pub struct RummyKnowledge {
    pub(crate) inner: Knowledge,
}

#[pymethods]
impl RummyKnowledge {
    /// From the rules, the seat, its hand and the drawn card it may know (-1: none), and the
    /// public view as `RummyCore.public_view` gives it; ValueError when they are no view of a
    /// deal.
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (players, forbid, score_melds, turn_limit, seat, hand, drawn, current,
        hand_sizes, phase, melds, placed, pile, taken, scores, stock_size, turn, went_out,
        shown))]
    fn new(
        players: u8,
        forbid: bool,
        score_melds: bool,
        turn_limit: u64,
        seat: usize,
        hand: u64,
        drawn: i8,
        current: i8,
        hand_sizes: Vec<u32>,
        phase: u8,
        melds: Vec<u64>,
        placed: Vec<u64>,
        pile: Vec<u8>,
        taken: Vec<u64>,
        scores: Vec<i64>,
        stock_size: u32,
        turn: u64,
        went_out: i8,
        shown: Vec<u64>,
    ) -> PyResult<Self> {
        let view = PublicView {
            current,
            hand_sizes,
            phase,
            melds,
            placed,
            pile,
            taken,
            scores,
            stock_size,
            turn,
            went_out,
            shown,
        };
        let rules = rules(players, forbid, score_melds, turn_limit);
        let inner = Knowledge::new(rules, seat, &view, hand, drawn).map_err(value_error)?;
        Ok(RummyKnowledge { inner })
    }

    /// The seat that knows this.
    #[getter]
    fn seat(&self) -> usize {
        self.inner.seat()
    }

    /// A deal consistent with this knowledge, its unseen cards dealt at random from `seed`.
    fn sample(&self, seed: u64) -> RummyCore {
        RummyCore {
            state: self.inner.sample(&mut Rng::new(seed)),
            buffer: Vec::new(),
        }
    }

    /// Searches `candidates` (this seat's legal actions) over worlds sampled from this
    /// knowledge (`parlour.bots.search`): the worlds, the rollouts, each candidate's returns
    /// and wins.
    fn race(
        &self,
        py: Python<'_>,
        race: &Race,
        candidates: Vec<i128>,
        priors: Vec<f64>,
        seed: u64,
    ) -> PyResult<(u64, u64, Vec<TallyTuple>)> {
        race.run(py, &self.inner, candidates, priors, seed)
    }
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
