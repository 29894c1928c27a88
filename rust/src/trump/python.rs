//! The trump engine in `parlour._core`: `TrumpRules` (one variant's rules and move objects) and
//! `TrumpEngine` (one deal).
//!
//! The Python package keeps the dealing (its seeded shuffle), the notation, the checks of a
//! setup with their messages, and the reasons for refusals; the engine takes and gives cards as
//! masks and moves as the packed ints, and its move objects are the package's own.

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use super::{HIDDEN_ROB, Illegal, MAX_SEATS, Rules, Scoring, State};

pyo3::import_exception!(parlour.errors, DealError);

/// The variant's rules inside a deal, and the move objects by value.
#[pyclass(frozen, module = "parlour._core")]
pub struct TrumpRules {
    rules: Rules,
    /// `moves[v]`: the move object of value `v` (`HIDDEN_ROB + 1` of them, None in the gaps).
    moves: Vec<Py<PyAny>>,
}

#[pymethods]
impl TrumpRules {
    /// `points` (a side's score by its tricks, 0 to 5) for Forty-Five's two sides, or `ante`
    /// for Spoil Five's pool.
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (*, moves, silent_ace, immediate_pickup, stop_at_three, jinking,
        points=None, ante=0))]
    fn new(
        moves: Vec<Py<PyAny>>,
        silent_ace: bool,
        immediate_pickup: bool,
        stop_at_three: bool,
        jinking: bool,
        points: Option<Vec<i32>>,
        ante: i32,
    ) -> PyResult<Self> {
        if moves.len() != usize::from(HIDDEN_ROB) + 1 {
            return Err(PyValueError::new_err(
                "moves must give the object of every value 0..=132",
            ));
        }
        let scoring = match points {
            Some(points) => Scoring::Sides {
                points: points
                    .try_into()
                    .map_err(|_| PyValueError::new_err("points must give 0 to 5 tricks' score"))?,
            },
            None => Scoring::Pool { ante },
        };
        Ok(TrumpRules {
            rules: Rules {
                silent_ace,
                immediate_pickup,
                stop_at_three,
                jinking,
                scoring,
            },
            moves,
        })
    }
}

/// One deal.
#[pyclass(module = "parlour._core")]
pub struct TrumpEngine {
    rules: Py<TrumpRules>,
    state: State,
    buffer: Vec<u16>,
    /// The deal's `(seat, move object)` pairs so far, which [`TrumpEngine::apply`] extends:
    /// the Python state's history list itself, so that a step costs Python no bookkeeping.
    record: Py<PyList>,
}

/// What [`TrumpEngine::apply`] returns for each refusal (a successful apply returns the seat to
/// move next, or -1).
fn refusal_code(illegal: Illegal) -> i8 {
    -2 - match illegal {
        Illegal::NotAMove => 0,
        Illegal::Over => 1,
        Illegal::NotHeld => 2,
        Illegal::AceNotYet => 3,
        Illegal::MustTrump => 4,
        Illegal::MustFollow => 5,
        Illegal::RobFirst => 6,
        Illegal::OnlyHolder => 7,
        Illegal::DiscardNotHeld => 8,
        Illegal::NameDiscard => 9,
        Illegal::MustRobOrKeep => 10,
        Illegal::RobOrKeep => 11,
        Illegal::JinkOrStop => 12,
        Illegal::RobbingOver => 13,
    }
}

impl TrumpEngine {
    fn seat(&self, seat: usize) -> PyResult<usize> {
        if seat < self.state.players() {
            Ok(seat)
        } else {
            Err(PyValueError::new_err(format!("no seat {seat}")))
        }
    }
}

#[pymethods]
impl TrumpEngine {
    #[new]
    fn new(
        py: Python<'_>,
        rules: Py<TrumpRules>,
        hands: Vec<u64>,
        turn_up: u8,
        dealer: u8,
        pool: f64,
    ) -> PyResult<Self> {
        let state = State::new(rules.get().rules, &hands, turn_up, dealer, pool)
            .map_err(DealError::new_err)?;
        Ok(TrumpEngine {
            record: PyList::empty(py).unbind(),
            rules,
            state,
            buffer: Vec::with_capacity(64),
        })
    }

    /// A deal from `seed`, as [`trump_deal`] deals it, with its engine: `(engine, hands as
    /// masks, turn_up)` (one crossing for the common deal).
    #[staticmethod]
    fn deal<'py>(
        rules: Py<TrumpRules>,
        seed: &Bound<'py, PyAny>,
        players: usize,
        dealer: usize,
        pool: f64,
    ) -> PyResult<(Self, Bound<'py, PyTuple>, u8)> {
        let py = seed.py();
        let (hands, turn_up) = dealt(seed, players, dealer)?;
        let hands = &hands[..players];
        // `dealt` checked the dealer to be one of the (at most MAX_SEATS) players.
        let state = State::new(rules.get().rules, hands, turn_up, dealer as u8, pool)
            .map_err(DealError::new_err)?;
        let engine = TrumpEngine {
            record: PyList::empty(py).unbind(),
            rules,
            state,
            buffer: Vec::with_capacity(64),
        };
        Ok((engine, PyTuple::new(py, hands)?, turn_up))
    }

    #[getter]
    fn current_player(&self) -> i8 {
        self.state.current_player()
    }

    /// The legal moves of the player to move, as move objects.
    fn legal_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.state.legal_actions(&mut self.buffer);
        let moves = &self.rules.get().moves;
        PyList::new(
            py,
            self.buffer.iter().map(|&v| moves[usize::from(v)].bind(py)),
        )
    }

    /// The cards the player to move may play (phase: play).
    fn play_mask(&self) -> u64 {
        self.state.play_mask()
    }

    /// Play `action` (its int value) and add `(seat, its move object)` to [`Self::record`]: the
    /// seat to move next (-1 once over), or a refusal code below -1 (the state and the record
    /// are then unchanged).
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<i8> {
        let Ok(v) = action.extract::<i64>() else {
            return Ok(refusal_code(Illegal::NotAMove));
        };
        let seat = self.state.current_player();
        if let Err(illegal) = self.state.apply(v) {
            return Ok(refusal_code(illegal));
        }
        // An applied value is a move (0..=HIDDEN_ROB), so it has its object: the shared one,
        // also for a move object made by hand.
        let py = action.py();
        let moves = &self.rules.get().moves;
        let moved = usize::try_from(v)
            .ok()
            .and_then(|v| moves.get(v))
            .map_or_else(|| action.clone(), |m| m.bind(py).clone());
        let pair = PyTuple::new(py, [seat.into_pyobject(py)?.into_any(), moved])?;
        self.record.bind(py).append(pair)?;
        Ok(self.state.current_player())
    }

    /// The `(seat, move object)` pairs played so far: the list itself, which `apply` extends.
    #[getter]
    fn record<'py>(&self, py: Python<'py>) -> Bound<'py, PyList> {
        self.record.bind(py).clone()
    }

    /// What `seat` sees that changes as the deal goes: `(current_player, hand, hand_sizes,
    /// phase, leader, trick, trick_winners, tricks_won, (announced, robber, jinker), (ace_pending,
    /// ace_demoted), returns, hidden_rob)`; `hidden_rob` is the position in the history
    /// of another seat's rob, whose discard `seat` does not see, or -1.
    fn observe<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyTuple>> {
        let seat = self.seat(seat)?;
        let s = &self.state;
        let view = s.view(seat);
        let n = s.players();
        let mut returns = [0.0; MAX_SEATS];
        s.returns_into(&mut returns);
        (
            view.current_player,
            view.hand,
            PyTuple::new(py, &view.hand_sizes[..n])?,
            view.phase as u8,
            view.leader,
            PyTuple::new(py, &view.trick[..usize::from(view.trick_len)])?,
            PyTuple::new(py, s.trick_winners())?,
            PyTuple::new(py, s.tricks_won())?,
            (view.announced, view.robber, view.jinker),
            (view.ace_pending, view.ace_demoted),
            PyTuple::new(py, &returns[..n])?,
            view.hidden_rob.map_or(-1, |i| i as i64),
        )
            .into_pyobject(py)
    }

    /// Each seat's hand.
    fn hands(&self) -> Vec<u64> {
        self.state.hands().to_vec()
    }

    #[getter]
    fn phase(&self) -> u8 {
        self.state.phase() as u8
    }
    #[getter]
    fn leader(&self) -> u8 {
        self.state.leader()
    }
    #[getter]
    fn robber(&self) -> i8 {
        self.state.robber()
    }
    #[getter]
    fn discard(&self) -> i8 {
        self.state.discard()
    }
    #[getter]
    fn keeper(&self) -> i8 {
        self.state.keeper()
    }
    #[getter]
    fn jinker(&self) -> i8 {
        self.state.jinker()
    }
    #[getter]
    fn taker(&self) -> i8 {
        self.state.taker()
    }
    #[getter]
    fn pending_ace(&self) -> bool {
        self.state.pending_ace()
    }
    #[getter]
    fn demoted(&self) -> bool {
        self.state.demoted()
    }

    /// The cards of the trick in progress, from its leader on.
    fn trick<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.state.trick())
    }

    fn trick_winners<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.state.trick_winners())
    }

    fn tricks_won<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        PyTuple::new(py, self.state.tricks_won())
    }

    fn returns(&self) -> Vec<f64> {
        self.state.returns()
    }

    fn hidden_from(&self, seat: usize) -> PyResult<u64> {
        Ok(self.state.hidden_from(self.seat(seat)?))
    }

    /// `(played, turn_up, discards, stock)`: where the cards not in a hand are.
    fn zones(&self) -> (u64, u64, u64, u64) {
        self.state.zones()
    }

    /// The history as `(seat, value)` pairs.
    fn history(&self) -> Vec<(u8, u16)> {
        self.state
            .history()
            .iter()
            .map(|&(s, a)| (s, u16::from(a)))
            .collect()
    }

    /// A copy with its own record (a new list of the same pairs).
    fn clone(&self, py: Python<'_>) -> PyResult<Self> {
        let record = self.record.bind(py);
        Ok(TrumpEngine {
            rules: self.rules.clone_ref(py),
            state: self.state.clone(),
            buffer: Vec::with_capacity(64),
            record: record.get_slice(0, record.len()).unbind(),
        })
    }
}

/// A deal from `seed`: the deck as `random.Random(seed).shuffle(list(range(52)))` leaves it,
/// dealt as [`super::deal`] does; `(hands as masks, turn_up)`.
#[pyfunction]
fn trump_deal<'py>(
    seed: &Bound<'py, PyAny>,
    players: usize,
    dealer: usize,
) -> PyResult<(Bound<'py, PyTuple>, u8)> {
    let (hands, turn_up) = dealt(seed, players, dealer)?;
    Ok((PyTuple::new(seed.py(), &hands[..players])?, turn_up))
}

/// The hands (the first `players` of them) and the turn-up of the deal from `seed`.
fn dealt(
    seed: &Bound<'_, PyAny>,
    players: usize,
    dealer: usize,
) -> PyResult<([u64; MAX_SEATS], u8)> {
    let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
    crate::python::generator(seed)?.shuffle(&mut deck);
    super::deal(&deck, players, dealer).ok_or_else(|| {
        PyValueError::new_err(format!(
            "no deal for {players} players with dealer {dealer}"
        ))
    })
}

/// Add the trump classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(trump_deal, m)?)?;
    m.add_class::<TrumpRules>()?;
    m.add_class::<TrumpEngine>()?;
    Ok(())
}
