//! The climbing engine's PyO3 wrappers (`ClimbingTable`, `ClimbingEngine`).
//!
//! The Python package keeps the notation, the checks of a setup with their messages, and the
//! action objects; the engines take cards as key-order masks and plays as packed ints, and give
//! back action objects (and, in observations, card-index masks ready for Python's card sets).

use std::sync::{Arc, OnceLock};

use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use crate::climbing::{self, Five, Illegal, Rules, Scoring, Start, State, Table, Window};
use crate::interned::Interned;

pyo3::import_exception!(parlour.errors, DealError);

/// The action objects of one variant (the pass and every play), by packed value.
struct Actions(Interned<Py<PyAny>>);

impl Actions {
    fn new(pass: Py<PyAny>, plays: &[u64], objects: Vec<Py<PyAny>>) -> Actions {
        let mut table = Interned::from_pairs(plays, objects);
        table.insert(climbing::PASS, pass);
        Actions(table)
    }

    /// The object of `play`, or None for a value that is no play of the variant.
    fn get<'py>(&self, py: Python<'py>, play: u64) -> Bound<'py, PyAny> {
        match self.0.get(play) {
            Some(object) => object.bind(py).clone(),
            None => py.None().into_bound(py),
        }
    }
}

/// One climbing variant's rules, and its shared action objects once given.
#[pyclass(frozen, module = "parlour._core")]
struct ClimbingTable {
    table: Arc<Table>,
    /// The card index (rank * 4 + suit) of each key-order bit.
    card_order: [u8; 52],
    actions: OnceLock<Actions>,
}

fn five(name: &str) -> PyResult<Five> {
    Ok(match name {
        "straight" => Five::Straight,
        "flush" => Five::Flush,
        "full house" => Five::FullHouse,
        "four of a kind with a kicker" => Five::FourPlusOne,
        "straight flush" => Five::StraightFlush,
        _ => {
            return Err(PyValueError::new_err(format!(
                "no 5-card category {name:?}"
            )));
        }
    })
}

#[pymethods]
impl ClimbingTable {
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (*, card_order, triples, four_card_hands, five_card, windows,
        flush_suit_first, opening_single, scoring, ends_at_first_out, next_player_leads_after_out,
        pass_only_if_no_legal_play, placement_points))]
    fn new(
        card_order: Vec<u8>,
        triples: bool,
        four_card_hands: bool,
        five_card: Vec<String>,
        windows: Vec<(u16, u8)>,
        flush_suit_first: bool,
        opening_single: bool,
        scoring: &str,
        ends_at_first_out: bool,
        next_player_leads_after_out: bool,
        pass_only_if_no_legal_play: bool,
        placement_points: Vec<i32>,
    ) -> PyResult<Self> {
        let mut order = [0u8; 52];
        let mut seen = 0u64;
        for (slot, &card) in order.iter_mut().zip(&card_order) {
            *slot = card;
            seen |= 1u64.checked_shl(card.into()).unwrap_or(0);
        }
        if card_order.len() != 52 || seen != climbing::MASK {
            return Err(PyValueError::new_err(
                "card_order must list the 52 card indices once",
            ));
        }
        let scoring = match scoring {
            "count" => Scoring::Count,
            "penalty" => Scoring::Penalty,
            "placement" => Scoring::Placement,
            _ => return Err(PyValueError::new_err(format!("no scoring {scoring:?}"))),
        };
        let rules = Rules {
            triples,
            four_card_hands,
            five: five_card.iter().map(|n| five(n)).collect::<PyResult<_>>()?,
            windows: windows
                .into_iter()
                .map(|(ranks, top)| Window { ranks, top })
                .collect(),
            flush_suit_first,
            opening_single,
            scoring,
            ends_at_first_out,
            next_player_leads_after_out,
            pass_only_if_no_legal_play,
            placement_points,
        };
        Ok(ClimbingTable {
            table: Arc::new(Table::new(rules)),
            card_order: order,
            actions: OnceLock::new(),
        })
    }

    /// Every play of the variant (those of the whole deck), sorted.
    fn all_plays(&self) -> Vec<u64> {
        let mut plays = Vec::new();
        self.table.hand_plays(climbing::MASK, &mut plays);
        plays
    }

    /// Give the action objects: the pass, then one per play of `all_plays()`, in its order.
    fn set_actions(&self, pass_action: Py<PyAny>, objects: Vec<Py<PyAny>>) -> PyResult<()> {
        let plays = self.all_plays();
        if objects.len() != plays.len() {
            return Err(PyValueError::new_err(
                "one action object per play is needed",
            ));
        }
        let actions = Actions::new(pass_action, &plays, objects);
        self.actions
            .set(actions)
            .map_err(|_| PyValueError::new_err("the action objects are already set"))
    }

    /// A deal from `seed`: the deck as `random.Random(seed).shuffle(list(range(52)))` leaves
    /// it, dealt one card at a time from seat 0 (`deck[seat::players]`); each seat's hand as a
    /// key-order mask.
    fn deal(&self, seed: &Bound<'_, PyAny>, players: usize) -> PyResult<Vec<u64>> {
        if !(1..=52).contains(&players) {
            return Err(PyValueError::new_err(format!(
                "no deal for {players} players"
            )));
        }
        let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
        crate::python::generator(seed)?.shuffle(&mut deck);
        let mut key = [0u8; 52];
        for (bit, &card) in self.card_order.iter().enumerate() {
            key[usize::from(card)] = bit as u8;
        }
        let mut hands = vec![0u64; players];
        for (i, &card) in deck.iter().enumerate() {
            hands[i % players] |= 1 << key[usize::from(card)];
        }
        Ok(hands)
    }

    /// Every play in `hand` (a key-order mask), sorted, as action objects.
    fn hand_plays<'py>(&self, py: Python<'py>, hand: u64) -> PyResult<Bound<'py, PyList>> {
        let actions = self.actions()?;
        let mut plays = Vec::new();
        self.table.hand_plays(hand, &mut plays);
        PyList::new(py, plays.iter().map(|&p| actions.get(py, p)))
    }
}

impl ClimbingTable {
    /// The card-index mask of a key-order mask.
    fn global(&self, mask: u64) -> u64 {
        let mut mask = mask & climbing::MASK;
        let mut out = 0;
        while mask != 0 {
            out |= 1 << self.card_order[mask.trailing_zeros() as usize];
            mask &= mask - 1;
        }
        out
    }

    fn actions(&self) -> PyResult<&Actions> {
        self.actions
            .get()
            .ok_or_else(|| PyValueError::new_err("the action objects are not set"))
    }
}

/// One climbing deal.
#[pyclass(module = "parlour._core")]
struct ClimbingEngine {
    table: Py<ClimbingTable>,
    state: State,
    buffer: Vec<u64>,
}

/// What [`ClimbingEngine::apply`] returns for each refusal (a successful apply returns the seat
/// to move next, or -1).
fn refusal_code(illegal: Illegal) -> i8 {
    match illegal {
        Illegal::Over => -2,
        Illegal::MustPlay => -3,
        Illegal::CannotPass => -4,
        Illegal::NotHeld(_) => -5,
        Illegal::NotAPlay => -6,
        Illegal::WrongSize => -7,
        Illegal::NotBeating => -8,
        Illegal::OpeningSingle => -9,
        Illegal::OpeningMustInclude => -10,
    }
}

#[pymethods]
impl ClimbingEngine {
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (table, hands, leader, out, table_play, table_seat, passes, finished))]
    fn new(
        table: Py<ClimbingTable>,
        hands: Vec<u64>,
        leader: Option<u8>,
        out: u64,
        table_play: u64,
        table_seat: i8,
        passes: u8,
        finished: Vec<u8>,
    ) -> PyResult<Self> {
        let start = Start {
            hands,
            leader,
            out,
            table: table_play,
            table_seat,
            passes,
            finished,
        };
        let state = State::new(table.get().table.clone(), &start).map_err(DealError::new_err)?;
        table.get().actions()?;
        Ok(ClimbingEngine {
            table,
            state,
            buffer: Vec::with_capacity(64),
        })
    }

    #[getter]
    fn current_player(&self) -> i8 {
        self.state.current_player()
    }

    /// The legal actions of the player to move, as action objects.
    fn legal_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.state.legal_actions(&mut self.buffer);
        let actions = self.table.get().actions()?;
        PyList::new(py, self.buffer.iter().map(|&p| actions.get(py, p)))
    }

    /// Play the packed `action`: the seat to move next (-1 once over), or a refusal code below
    /// -1 (the state is then unchanged).
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> i8 {
        let Ok(action) = action.extract::<u64>() else {
            return refusal_code(Illegal::NotAPlay);
        };
        match self.state.apply(action) {
            Ok(()) => self.state.current_player(),
            Err(illegal) => refusal_code(illegal),
        }
    }

    /// What `seat` sees that changes as the deal goes: `(hand, hand_sizes, table, table_seat,
    /// passes, opening, played, finished, scores)`, cards as card-index masks (not key order),
    /// `played` with the cards out from the start, `table` an action object or None.
    fn observe<'py>(&self, py: Python<'py>, seat: usize) -> PyResult<Bound<'py, PyTuple>> {
        let s = &self.state;
        let hands = s.hands();
        let Some(&hand) = hands.get(seat) else {
            return Err(PyValueError::new_err("no such seat"));
        };
        let (table_play, table_seat, passes) = s.trick();
        let shared = self.table.get();
        let table = if table_play != 0 {
            shared.actions()?.get(py, table_play)
        } else {
            py.None().into_bound(py)
        };
        (
            shared.global(hand),
            PyTuple::new(py, hands.iter().map(|h| h.count_ones()))?,
            table,
            table_seat,
            passes,
            s.opening(),
            shared.global(s.played() | s.out()),
            PyTuple::new(py, s.finished())?,
            PyTuple::new(py, s.returns())?,
        )
            .into_pyobject(py)
    }

    /// Each seat's hand (key-order masks).
    fn hands(&self) -> Vec<u64> {
        self.state.hands().to_vec()
    }

    /// The play to beat (0 when the player to move leads).
    #[getter]
    fn table_play(&self) -> u64 {
        self.state.trick().0
    }

    /// Cards played since the start (the start's table play included).
    #[getter]
    fn played(&self) -> u64 {
        self.state.played()
    }

    #[getter]
    fn opening(&self) -> bool {
        self.state.opening()
    }

    fn finished(&self) -> Vec<usize> {
        // As usize: a Vec<u8> would come back as bytes.
        self.state
            .finished()
            .iter()
            .map(|&s| usize::from(s))
            .collect()
    }

    fn returns(&self) -> Vec<f64> {
        self.state.returns().to_vec()
    }

    fn hidden_from(&self, seat: usize) -> u64 {
        self.state.hidden_from(seat)
    }

    fn clone(&self, py: Python<'_>) -> Self {
        ClimbingEngine {
            table: self.table.clone_ref(py),
            state: self.state.clone(),
            buffer: Vec::with_capacity(64),
        }
    }
}

/// Add the climbing classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ClimbingTable>()?;
    m.add_class::<ClimbingEngine>()?;
    Ok(())
}
