//! `parlour._core.RummyCore`: the rummy deal for the Python package, which keeps the notation,
//! the messages and the stock rebuilds' shuffles; and `RummyActions`, every move's one object.
//!
//! The core hands out and records the package's own move objects (`RummyAction`, an int
//! subclass), each made once through that class and found again by its packed value, and it
//! keeps the public record (the `(seat, move)` pairs and the cards discard draws took) in the
//! Python lists the package's state shows: a step costs Python one call each way.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};

use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::{PyInt, PyList, PyTuple, PyType};

use super::encoding::{ActionIndex, Env, is_turn_limit};
use super::melds::FULL;
use super::net::Net;
use super::state::TARGET_SHIFT;
use super::{
    DRAW_DISCARD, Knowledge, LAYOFF, MAX_SEATS, Parts, PublicView, Rules, Sight, State, choose,
    is_move,
};
use crate::env::batch::{Batch, Batched, Family};
use crate::env::python::{EnvCore, Game, same_rules};
use crate::error::CoreError;
use crate::interned::Interned;
use crate::pyrandom::Mt19937;
use crate::sim::mlp::{NetPolicy, Network as _, Scratch};
use crate::sim::python::{RacePolicy, WeightArrays, knowledge_methods, net_methods};
use crate::sim::{Knowledge as _, Rng};

/// Register the rummy classes and functions in the extension module.
pub fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<RummyActions>()?;
    m.add_class::<RummyCore>()?;
    m.add_class::<RummyKnowledge>()?;
    m.add_class::<RummyNet>()?;
    m.add_function(wrap_pyfunction!(rummy_greedy, m)?)
}

#[pymethods]
impl EnvCore {
    /// Rummy with these options (`turn_limit` as the core keeps it, `turn_scale` the option's
    /// value) and `hand_size` cards dealt to each seat.
    #[staticmethod]
    #[pyo3(signature = (players, forbid, score_melds, turn_limit, turn_scale, hand_size))]
    fn rummy(
        players: u8,
        forbid: bool,
        score_melds: bool,
        turn_limit: u64,
        turn_scale: f64,
        hand_size: usize,
    ) -> Result<EnvCore, CoreError> {
        if !is_turn_limit(turn_scale) {
            return Err(CoreError::value(
                "turn_scale must be a finite number from 1",
            ));
        }
        let rules = Rules {
            players,
            forbid_discard_of_drawn_discard: forbid,
            score_melds,
            turn_limit,
        };
        let index = Arc::new(ActionIndex::new());
        let env = Env::new(rules, hand_size, turn_scale, index)
            .ok_or_else(|| CoreError::value("no rummy deal with these options"))?;
        Ok(EnvCore::new(env))
    }
}

/// The rummy environment (`EnvCore.rummy`): its deals are `RummyCore`s, encoded with each
/// seat's discards (the `extra` of an encoding).
impl Game for Env {
    fn obs_size(&self) -> usize {
        Family::obs_size(self)
    }

    fn actions(&self) -> usize {
        Env::actions(self)
    }

    fn players(&self) -> usize {
        Family::players(self)
    }

    fn to_move(&self, engine: &Bound<'_, PyAny>) -> PyResult<i64> {
        Ok(i64::from(
            engine
                .cast::<RummyCore>()?
                .try_borrow()?
                .core_state()
                .current_player(),
        ))
    }

    fn encode(
        &self,
        engine: &Bound<'_, PyAny>,
        seat: usize,
        out: &mut [f32],
        extra: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let engine = engine.cast::<RummyCore>()?.try_borrow()?;
        let state = engine.core_state();
        same_rules(self.rules(), state.rules())?;
        let seat = self.seat(state.players(), seat)?;
        let given: Vec<u64> = extra
            .ok_or_else(|| CoreError::value("a rummy encoding needs each seat's discards"))?
            .extract()?;
        let mut discards = [0; MAX_SEATS];
        if given.len() != state.players() {
            return Err(CoreError::value("give one discard mask per seat").into());
        }
        discards[..given.len()].copy_from_slice(&given);
        self.encoding().encode(state, seat, &discards, out);
        Ok(())
    }

    fn each_legal(&self, engine: &Bound<'_, PyAny>, f: &mut dyn FnMut(i64)) -> PyResult<()> {
        let engine = engine.cast::<RummyCore>()?.try_borrow()?;
        let state = engine.core_state();
        same_rules(self.rules(), state.rules())?;
        let mut moves = Vec::with_capacity(64);
        state.legal_actions(&mut moves);
        moves.iter().for_each(|&m| f(self.index(state, m)));
        Ok(())
    }

    fn batch(&self, size: usize, deals: Mt19937, scale: f64, threads: usize) -> Box<dyn Batched> {
        Box::new(Batch::new(self.clone(), size, deals, scale, threads))
    }
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
        _ => return Err(CoreError::value("the top discard is not a card").into()),
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
    choice.ok_or_else(|| CoreError::value("no legal action to choose from").into())
}

/// What one seat knows of a rummy deal, made from its observation: the worlds it allows are
/// sampled from it. `inner` is the Rust [`Knowledge`] for simulation.
#[pyclass(frozen, module = "parlour._core")]
pub struct RummyKnowledge {
    pub(crate) inner: Knowledge,
}

knowledge_methods!(RummyKnowledge, RummyNet, {
    /// From the rules, the seat, its hand and the drawn card it may know (-1: none), the
    /// public view as `RummyCore.public_view` gives it, and each seat's discards so far (for a
    /// network's playouts; none given: none); ValueError when they are no view of a deal.
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (players, forbid, score_melds, turn_limit, seat, hand, drawn, current,
        hand_sizes, phase, melds, placed, pile, taken, scores, stock_size, turn, went_out,
        shown, discarded=None))]
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
        discarded: Option<Vec<u64>>,
    ) -> Result<Self, CoreError> {
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
        let mut inner =
            Knowledge::new(rules, seat, &view, hand, drawn).map_err(CoreError::value)?;
        if let Some(discarded) = discarded {
            inner = inner.with_discarded(&discarded).map_err(CoreError::value)?;
        }
        Ok(RummyKnowledge { inner })
    }

    /// The seat that knows this.
    #[getter]
    fn seat(&self) -> usize {
        self.inner.seat()
    }

    /// A deal consistent with this knowledge, its unseen cards dealt at random from `seed`,
    /// its moves' objects from `actions`.
    fn sample(&self, actions: Bound<'_, RummyActions>, seed: u64) -> RummyCore {
        RummyCore::new(actions, self.inner.sample(&mut Rng::new(seed)))
    }
});

/// What [`RummyCore::apply`] returns for a move applied after which the stock must be rebuilt
/// (before the next draw); the seat to move is then `current_player`.
const REBUILD: i64 = -2;
/// The stand-in for an int the state cannot take (below 0 or past 64 bits) that is not a
/// lay-off: a value no move has.
const NO_MOVE: u64 = 7;
/// A lay-off past 64 bits keeps its kind and cards with this meld number, past any table.
const FAR_TARGET: u64 = 511 << TARGET_SHIFT;

/// Every rummy move's one object, made through the package's move class the first time the
/// move is met (by the core or by the package) and shared from then on.
#[pyclass(frozen, module = "parlour._core")]
pub struct RummyActions {
    /// The move class, an int subclass: `int.__new__(kind, value)` makes a move object.
    kind: Py<PyType>,
    table: Mutex<Interned<Py<PyAny>>>,
}

#[pymethods]
impl RummyActions {
    #[new]
    fn new(kind: &Bound<'_, PyType>) -> PyResult<Self> {
        if !kind.is_subclass_of::<PyInt>()? {
            return Err(CoreError::wrong_type("the move class must be a subclass of int").into());
        }
        Ok(RummyActions {
            kind: kind.clone().unbind(),
            // A deal's draws, discards and melds (hundreds): the table grows past them rarely.
            table: Mutex::new(Interned::with_capacity(1024)),
        })
    }

    /// The object of the move packed as `value`; ValueError for a value no move has.
    fn get(&self, py: Python<'_>, value: u64) -> PyResult<Py<PyAny>> {
        if !is_move(value) {
            return Err(CoreError::value(format!("{value} is not a rummy move")).into());
        }
        self.object(py, value)
    }

    /// The object of `value` if that move has been met, else None. Text is parsed through this,
    /// so that a move written but never met (a refused meld of any cards, say) adds nothing to
    /// the table, which lasts as long as the process.
    fn known(&self, py: Python<'_>, value: u64) -> Option<Py<PyAny>> {
        self.table().get(value).map(|object| object.clone_ref(py))
    }
}

impl RummyActions {
    fn table(&self) -> MutexGuard<'_, Interned<Py<PyAny>>> {
        // Nothing that can panic runs under the lock, so it is never poisoned.
        self.table.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// The object of `value` (a move), made the first time. Python runs (making the object)
    /// only while the table is not locked, so nothing it does can wait on the lock.
    fn object(&self, py: Python<'_>, value: u64) -> PyResult<Py<PyAny>> {
        if let Some(object) = self.table().get(value) {
            return Ok(object.clone_ref(py));
        }
        let made = py
            .get_type::<PyInt>()
            .call_method1(intern!(py, "__new__"), (self.kind.bind(py), value))?
            .unbind();
        let mut table = self.table();
        match table.get(value) {
            // Made meanwhile, by Python code that ran while this one was made.
            Some(object) => Ok(object.clone_ref(py)),
            None => {
                table.insert(value, made.clone_ref(py));
                Ok(made)
            }
        }
    }

    /// The objects of `values` (moves) into `out`, cleared first.
    fn objects(&self, py: Python<'_>, values: &[u64], out: &mut Vec<Py<PyAny>>) -> PyResult<()> {
        out.clear();
        {
            let table = self.table();
            out.extend(
                values
                    .iter()
                    .map_while(|&v| table.get(v).map(|object| object.clone_ref(py))),
            );
        }
        for &value in &values[out.len()..] {
            out.push(self.object(py, value)?);
        }
        Ok(())
    }
}

/// One rummy deal, cards as rummy-layout bits and masks, actions as packed ints going in and
/// move objects coming out.
#[pyclass(module = "parlour._core")]
pub struct RummyCore {
    state: State,
    buffer: Vec<u64>,
    actions: Py<RummyActions>,
    /// The legal actions' objects, before they go into a list (kept for its room).
    objects: Vec<Py<PyAny>>,
    /// The `(seat, move)` pairs applied, which [`RummyCore::apply`] extends.
    record: Py<PyList>,
    /// The card each discard draw took (a rummy-layout bit), which `apply` extends.
    draws: Py<PyList>,
}

impl RummyCore {
    fn new(actions: Bound<'_, RummyActions>, state: State) -> Self {
        let py = actions.py();
        RummyCore {
            state,
            buffer: Vec::new(),
            actions: actions.unbind(),
            objects: Vec::new(),
            record: PyList::empty(py).unbind(),
            draws: PyList::empty(py).unbind(),
        }
    }
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
    /// A deal from `deck` (rummy-layout bits, top first), its moves' objects from `actions`.
    #[staticmethod]
    fn deal(
        actions: Bound<'_, RummyActions>,
        players: u8,
        forbid: bool,
        score_melds: bool,
        turn_limit: u64,
        deck: Vec<u8>,
        hand_size: usize,
    ) -> Result<Self, CoreError> {
        let rules = rules(players, forbid, score_melds, turn_limit);
        let state = State::deal(rules, &deck, hand_size).map_err(CoreError::value)?;
        Ok(RummyCore::new(actions, state))
    }

    /// A position from its parts (checked by the Python package first); `ended` is the seat
    /// that went out (-1: blocked) of a deal that is over.
    #[staticmethod]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (actions, players, forbid, score_melds, turn_limit, hands, stock, pile,
        melds, placed, scores, taken, current, drawing, drawn, drawn_from_discard, turn,
        ended=None))]
    fn position(
        actions: Bound<'_, RummyActions>,
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
    ) -> Result<Self, CoreError> {
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
        let state = State::from_parts(rules, &parts).map_err(CoreError::value)?;
        Ok(RummyCore::new(actions, state))
    }

    /// A copy with its own record and draws (new lists of the same items).
    fn copy(&self, py: Python<'_>) -> Self {
        let copied = |list: &Py<PyList>| {
            let list = list.bind(py);
            list.get_slice(0, list.len()).unbind()
        };
        RummyCore {
            state: self.state.clone(),
            buffer: Vec::new(),
            actions: self.actions.clone_ref(py),
            objects: Vec::new(),
            record: copied(&self.record),
            draws: copied(&self.draws),
        }
    }

    /// The `(seat, move)` pairs applied: the list itself, which `apply` extends.
    #[getter]
    fn record<'py>(&self, py: Python<'py>) -> Bound<'py, PyList> {
        self.record.bind(py).clone()
    }

    /// The card each discard draw took: the list itself, which `apply` extends.
    #[getter]
    fn discard_draws<'py>(&self, py: Python<'py>) -> Bound<'py, PyList> {
        self.draws.bind(py).clone()
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

    /// The legal actions, as move objects.
    fn legal_actions<'py>(&mut self, py: Python<'py>) -> PyResult<Bound<'py, PyList>> {
        self.state.legal_actions(&mut self.buffer);
        self.actions
            .get()
            .objects(py, &self.buffer, &mut self.objects)?;
        PyList::new(py, self.objects.drain(..))
    }

    /// Play `action` (any int: one the state cannot take stands in as described at
    /// [`stand_in`]) and record it. Done: the seat to move next, -1 when the deal is over, or
    /// -2 when the stock must now be rebuilt. Refused (the state and the record unchanged):
    /// minus the refusal's code times 2**56 plus its card mask or card.
    fn apply(&mut self, action: &Bound<'_, PyAny>) -> PyResult<i64> {
        let value = action.extract::<u64>().unwrap_or_else(|_| stand_in(action));
        let seat = self.state.current_player();
        if let Err(illegal) = self.state.apply(value) {
            let (code, data) = illegal.code();
            return Ok(-((code << 56 | data) as i64));
        }
        let py = action.py();
        let object = self.actions.get().object(py, value)?;
        let pair = PyTuple::new(
            py,
            [seat.into_pyobject(py)?.into_any(), object.into_bound(py)],
        )?;
        self.record.bind(py).append(pair)?;
        if value == DRAW_DISCARD {
            self.draws.bind(py).append(self.state.drawn().0)?;
        }
        Ok(if self.state.needs_rebuild() {
            REBUILD
        } else {
            i64::from(self.state.current_player())
        })
    }

    /// The discard pile, bottom first.
    fn pile(&self) -> Vec<u8> {
        self.state.pile().to_vec()
    }

    /// The new stock from the discards under the top card, in `order` (bottom first).
    fn rebuild(&mut self, order: Vec<u8>) -> Result<(), CoreError> {
        self.state.rebuild(&order).map_err(CoreError::value)
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
    fn seat_view(&self, seat: usize) -> Result<(u64, i8), CoreError> {
        self.seat(seat)?;
        Ok(self.state.seat_view(seat))
    }

    /// (hands, stock mask, pile mask, table mask).
    fn zones(&self) -> (Vec<u64>, u64, u64, u64) {
        let (stock, pile, table) = self.state.zone_masks();
        (self.state.hands().to_vec(), stock, pile, table)
    }

    fn hidden_from(&self, seat: usize) -> Result<u64, CoreError> {
        self.seat(seat)?;
        Ok(self.state.hidden_from(seat))
    }

    fn hand_value(&self, seat: usize) -> Result<i64, CoreError> {
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

/// The value the state is given for an int it cannot take (below 0 or past 64 bits), or for
/// anything else: a lay-off past 64 bits keeps its kind and cards with a meld number past any
/// table, so that it is refused for that; anything else is a value no move has.
fn stand_in(action: &Bound<'_, PyAny>) -> u64 {
    let Ok(int) = action.cast::<PyInt>() else {
        return NO_MOVE;
    };
    if !int.gt(0).unwrap_or(false) {
        return NO_MOVE;
    }
    let low = int
        .bitand(u64::MAX)
        .and_then(|low| low.extract::<u64>())
        .unwrap_or(NO_MOVE);
    if low & 7 == LAYOFF {
        low & ((1 << TARGET_SHIFT) - 1) | FAR_TARGET
    } else {
        NO_MOVE
    }
}

impl RummyCore {
    /// The deal (for the environments' encoders).
    pub(crate) fn core_state(&self) -> &State {
        &self.state
    }

    fn seat(&self, seat: usize) -> Result<(), CoreError> {
        if seat < self.state.players() {
            Ok(())
        } else {
            Err(CoreError::value("not a seat"))
        }
    }
}

/// A learned network as rummy's playout policy (`parlour.bots.learned` makes one from its
/// weights).
#[pyclass(frozen, module = "parlour._core")]
pub struct RummyNet {
    rules: Rules,
    net: NetPolicy<Net>,
}

impl RummyNet {
    /// Refuses deals of other rules than the network was made for.
    fn check_fits(&self, rules: &Rules) -> Result<(), CoreError> {
        if *rules != self.rules {
            return Err(CoreError::value(
                "the network was made for other rummy rules or another number of seats",
            ));
        }
        Ok(())
    }

    /// The network of `weights` for deals of these rules (`turn_limit` as the core keeps it);
    /// the encoding divides the turn by `turns` (the option's value, as `EnvCore.rummy` takes
    /// it).
    fn with_weights(
        players: u8,
        forbid: bool,
        score_melds: bool,
        turn_limit: u64,
        turns: f64,
        weights: WeightArrays<'_>,
    ) -> Result<RummyNet, CoreError> {
        let layers = weights.layers()?;
        let net = Net::new(usize::from(players), turns, layers).map_err(CoreError::Value)?;
        Ok(RummyNet {
            rules: rules(players, forbid, score_melds, turn_limit),
            net: NetPolicy(net),
        })
    }
}

impl RacePolicy<Knowledge> for RummyNet {
    type Policy = NetPolicy<Net>;

    fn fits(&self, knowledge: &Knowledge) -> Result<(), CoreError> {
        self.check_fits(knowledge.known().rules())
    }

    fn policy(&self) -> &NetPolicy<Net> {
        &self.net
    }
}

net_methods!(
    RummyNet,
    new(players: u8, forbid: bool, score_melds: bool, turn_limit: u64, turns: f64;
        weights;) = RummyNet::with_weights,
    {
        /// The network's score of each legal move of the seat to move in `core`, as `(move,
        /// score)` pairs in the core's order.
        fn scores(&self, core: PyRef<'_, RummyCore>) -> Result<Vec<(u64, f32)>, CoreError> {
            let state = core.core_state();
            self.check_fits(state.rules())?;
            if state.is_over() {
                return Err(CoreError::value("the deal is over: nobody is to move"));
            }
            let mut legal = Vec::new();
            state.legal_actions(&mut legal);
            let mut scratch = Scratch::default();
            self.net.scores(state, &legal, &mut scratch);
            Ok(legal.into_iter().zip(scratch.q).collect())
        }
    }
);
