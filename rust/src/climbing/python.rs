//! The climbing engine's PyO3 wrappers (`ClimbingTable`, `ClimbingEngine`,
//! `ClimbingKnowledge`).
//!
//! The Python package keeps the notation, the checks of a setup with their messages, and the
//! action objects; the engines take cards as key-order masks and plays as packed ints, and give
//! back action objects (and, in observations, card-index masks ready for Python's card sets).

use std::sync::{Arc, OnceLock};

use pyo3::prelude::*;
use pyo3::types::{PyList, PyTuple};

use numpy::PyReadonlyArray1;

use crate::climbing::encoding::{self, ActionIndex, Env};
use crate::climbing::net::{Net, Weights};
use crate::climbing::policy::{self, SeatView};
use crate::climbing::{
    self, Five, Illegal, Knowledge, MAX_SEATS, Rules, Scoring, Seen, Start, State, Table, Window,
};
use crate::env::batch::{Batch, Batched, Family};
use crate::env::python::{EnvCore, Game, same_rules};
use crate::error::CoreError;
use crate::interned::Interned;
use crate::pyrandom::Mt19937;
use crate::sim::mlp::{NetPolicy, Network as _, Scratch};
use crate::sim::python::{Race, RacePolicy, WeightArrays, knowledge_methods, net_methods};
use crate::sim::{self, Rng};

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
pub(crate) struct ClimbingTable {
    table: Arc<Table>,
    /// The card index (rank * 4 + suit) of each key-order bit.
    card_order: [u8; 52],
    /// The key-order bit of each card index.
    key_of: [u8; 52],
    actions: OnceLock<Actions>,
}

fn five(name: &str) -> Result<Five, CoreError> {
    Ok(match name {
        "straight" => Five::Straight,
        "flush" => Five::Flush,
        "full house" => Five::FullHouse,
        "four of a kind with a kicker" => Five::FourPlusOne,
        "straight flush" => Five::StraightFlush,
        _ => {
            return Err(CoreError::value(format!("no 5-card category {name:?}")));
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
    ) -> Result<Self, CoreError> {
        let mut order = [0u8; 52];
        let mut seen = 0u64;
        for (slot, &card) in order.iter_mut().zip(&card_order) {
            *slot = card;
            seen |= 1u64.checked_shl(card.into()).unwrap_or(0);
        }
        if card_order.len() != 52 || seen != climbing::MASK {
            return Err(CoreError::value(
                "card_order must list the 52 card indices once",
            ));
        }
        let scoring = match scoring {
            "count" => Scoring::Count,
            "penalty" => Scoring::Penalty,
            "placement" => Scoring::Placement,
            _ => return Err(CoreError::value(format!("no scoring {scoring:?}"))),
        };
        let rules = Rules {
            triples,
            four_card_hands,
            five: five_card
                .iter()
                .map(|n| five(n))
                .collect::<Result<_, _>>()?,
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
        let mut key_of = [0u8; 52];
        for (bit, &card) in order.iter().enumerate() {
            key_of[usize::from(card)] = bit as u8;
        }
        Ok(ClimbingTable {
            table: Arc::new(Table::new(rules)),
            card_order: order,
            key_of,
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
    fn set_actions(
        &self,
        pass_action: Py<PyAny>,
        objects: Vec<Py<PyAny>>,
    ) -> Result<(), CoreError> {
        let plays = self.all_plays();
        if objects.len() != plays.len() {
            return Err(CoreError::value("one action object per play is needed"));
        }
        let actions = Actions::new(pass_action, &plays, objects);
        self.actions
            .set(actions)
            .map_err(|_| CoreError::value("the action objects are already set"))
    }

    /// A deal from `seed`: the deck as `random.Random(seed).shuffle(list(range(52)))` leaves
    /// it, dealt one card at a time from seat 0 (`deck[seat::players]`); each seat's hand as a
    /// key-order mask.
    fn deal(&self, seed: &Bound<'_, PyAny>, players: usize) -> PyResult<Vec<u64>> {
        if !(1..=52).contains(&players) {
            return Err(CoreError::value(format!("no deal for {players} players")).into());
        }
        let mut deck: [u8; 52] = std::array::from_fn(|i| i as u8);
        crate::python::generator(seed)?.shuffle(&mut deck);
        let mut hands = vec![0u64; players];
        for (i, &card) in deck.iter().enumerate() {
            hands[i % players] |= 1 << self.key_of[usize::from(card)];
        }
        Ok(hands)
    }

    /// The cards of `hand` (a key-order mask) in some five-card play of it.
    fn five_card_cards(&self, hand: u64) -> u64 {
        self.table.five_card_cards(hand)
    }

    /// The greedy policy's choice among `legal` (actions of this variant, at least one) for
    /// the seat of `observation`: the element of `legal` it picks. It reads the observation's
    /// `seat`, `hand`, `hand_sizes` and `table` only, and draws nothing at random.
    fn greedy<'py>(
        &self,
        observation: &Bound<'py, PyAny>,
        legal: &Bound<'py, PyAny>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let sizes: Vec<u8> = observation.getattr("hand_sizes")?.extract()?;
        let seat: usize = observation.getattr("seat")?.extract()?;
        if sizes.len() > MAX_SEATS || seat >= sizes.len() {
            return Err(CoreError::deal(format!(
                "an observation of seat {seat} of {} seats is no climbing observation",
                sizes.len()
            ))
            .into());
        }
        let mut view = SeatView {
            seat: seat as u8,
            hand: self.key_mask(observation.getattr("hand")?.extract()?)?,
            sizes: [0; MAX_SEATS],
            players: sizes.len() as u8,
            table: observation
                .getattr("table")?
                .extract::<Option<u64>>()?
                .unwrap_or(0),
        };
        view.sizes[..sizes.len()].copy_from_slice(&sizes);
        let mut items = Vec::new();
        let mut plays = Vec::new();
        for item in legal.try_iter()? {
            let item = item?;
            plays.push(item.extract::<u64>()?);
            items.push(item);
        }
        match policy::greedy(&self.table, &view, &plays) {
            Some(i) => Ok(items.swap_remove(i)),
            None => Err(CoreError::illegal(
                "the greedy policy chooses among legal actions, and none were given",
            )
            .into()),
        }
    }

    /// What the seat of `observation` (a `ClimbingObservation` of this variant) knows, to deal
    /// worlds from; DealError if no deal shows that observation.
    fn knowledge(&self, observation: &Bound<'_, PyAny>) -> PyResult<ClimbingKnowledge> {
        let seen = self.seen(observation)?;
        let table = self.table.clone();
        // Proving a position with forced passes can take most of a second: other threads run.
        let inner = observation
            .py()
            .detach(|| Knowledge::new(table, seen))
            .map_err(|why| CoreError::deal(format!("no deal shows this observation: {why}")))?;
        Ok(ClimbingKnowledge { inner })
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
    /// The key-order mask of a card-index mask (a card set).
    fn key_mask(&self, global: u64) -> Result<u64, CoreError> {
        if global & !climbing::MASK != 0 {
            return Err(CoreError::deal(format!("{global:#x} is no set of cards")));
        }
        let mut mask = global;
        let mut out = 0;
        while mask != 0 {
            out |= 1 << self.key_of[mask.trailing_zeros() as usize];
            mask &= mask - 1;
        }
        Ok(out)
    }

    /// A play (or pass) as a packed int, or `None` for `None`.
    fn play(value: &Bound<'_, PyAny>) -> PyResult<u64> {
        Ok(value.extract::<Option<u64>>()?.unwrap_or(0))
    }

    /// The fields of a `ClimbingObservation` as a [`Seen`]: cards in key order.
    fn seen(&self, obs: &Bound<'_, PyAny>) -> PyResult<Seen> {
        let get = |name: &str| obs.getattr(name);
        let sizes: Vec<u8> = get("hand_sizes")?.extract()?;
        let mut history = Vec::new();
        for entry in get("history")?.try_iter()? {
            let (seat, action): (u8, Bound<'_, PyAny>) = entry?.extract()?;
            history.push((seat, Self::play(&action)?));
        }
        Ok(Seen {
            seat: get("seat")?.extract()?,
            current: get("current_player")?.extract()?,
            hand: self.key_mask(get("hand")?.extract()?)?,
            sizes,
            table: Self::play(&get("table")?)?,
            table_seat: get("table_seat")?.extract()?,
            passes: get("passes")?.extract()?,
            opening: get("opening")?.extract()?,
            history,
            played: self.key_mask(get("played")?.extract()?)?,
            out: self.key_mask(get("out")?.extract()?)?,
            first_leader: get("first_leader")?.extract()?,
            start_table: Self::play(&get("start_table")?)?,
            start_table_seat: get("start_table_seat")?.extract()?,
            start_passes: get("start_passes")?.extract()?,
            start_finished: get("start_finished")?.extract()?,
            finished: get("finished")?.extract()?,
            scores: get("scores")?.extract()?,
        })
    }

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

    fn actions(&self) -> Result<&Actions, CoreError> {
        self.actions
            .get()
            .ok_or_else(|| CoreError::value("the action objects are not set"))
    }

    /// The rules' table and the card index of each key-order bit (for the environments).
    pub(crate) fn core(&self) -> (&Arc<Table>, &[u8; 52]) {
        (&self.table, &self.card_order)
    }
}

/// One climbing deal.
#[pyclass(module = "parlour._core")]
pub(crate) struct ClimbingEngine {
    table: Py<ClimbingTable>,
    state: State,
    buffer: Vec<u64>,
}

impl ClimbingEngine {
    /// The deal (for the environments' encoders, which list its legal plays).
    pub(crate) fn core_state(&mut self) -> &mut State {
        &mut self.state
    }
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
    ) -> Result<Self, CoreError> {
        let start = Start {
            hands,
            leader,
            out,
            table: table_play,
            table_seat,
            passes,
            finished,
        };
        let state = State::new(table.get().table.clone(), &start).map_err(CoreError::Deal)?;
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
            return Err(CoreError::value("no such seat").into());
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

/// What one seat knows of a climbing deal, from its observation: worlds are dealt from it
/// (`sample`), and the search reaches the Rust [`Knowledge`] in `inner`.
#[pyclass(frozen, module = "parlour._core")]
pub(crate) struct ClimbingKnowledge {
    pub(crate) inner: Knowledge,
}

knowledge_methods!(ClimbingKnowledge, ClimbingNet, {
    /// The seat that knows this.
    #[getter]
    fn seat(&self) -> usize {
        usize::from(self.inner.seen().seat)
    }

    /// Each seat's hand at the start of a deal consistent with the observation, dealt from
    /// `seed` (key-order masks): replaying the observation's history on that deal shows the
    /// seat exactly its observation.
    fn sample(&self, seed: u64) -> Vec<u64> {
        self.inner.sample_hands(&mut Rng::new(seed))
    }

    /// Each seat's chance of playing by the rule-based policy rather than by `policy`'s
    /// network, weighed from its moves so far as `race`'s model of the opponents says (its
    /// `Opponents`), over worlds dealt from `seed`; 0 for the knowing seat. ValueError for a
    /// race without such a model or a network of other rules.
    fn rule_based_chances(
        &self,
        race: &Race,
        seed: u64,
        policy: &ClimbingNet,
    ) -> Result<Vec<f64>, CoreError> {
        let Some(model) = race.opponents() else {
            return Err(CoreError::value("the race has no model of the opponents"));
        };
        let players = self.inner.seen().sizes.len();
        policy.check_fits(self.inner.table(), players)?;
        let mut scratch = Default::default();
        let chances = sim::Knowledge::rule_based_chances(
            &self.inner,
            &mut Rng::new(seed),
            &model,
            &policy.net,
            &mut scratch,
        )
        .unwrap_or([0.0; sim::MAX_PLAYERS]);
        Ok(chances[..players].to_vec())
    }
});

/// A learned network as the climbing games' playout policy (`parlour.bots.learned` makes one
/// from its weights and the static action features).
#[pyclass(frozen, module = "parlour._core")]
pub(crate) struct ClimbingNet {
    table: Arc<Table>,
    net: NetPolicy<Net>,
}

impl ClimbingNet {
    /// Refuses deals of other rules or another number of seats than the network was made for.
    fn check_fits(&self, table: &Table, players: usize) -> Result<(), CoreError> {
        if table.rules != self.table.rules || players != self.net.players() {
            return Err(CoreError::value(
                "the network was made for another variant or number of seats",
            ));
        }
        Ok(())
    }

    /// The network of `weights` and the static action features (`ptr`, `cols`, `vals`) for
    /// deals of `table`'s variant at `players` seats.
    fn with_weights(
        table: &Bound<'_, ClimbingTable>,
        players: usize,
        weights: WeightArrays<'_>,
        ptr: PyReadonlyArray1<'_, i64>,
        cols: PyReadonlyArray1<'_, i64>,
        vals: PyReadonlyArray1<'_, f32>,
    ) -> Result<ClimbingNet, CoreError> {
        if !(2..=MAX_SEATS).contains(&players) {
            return Err(CoreError::value(format!(
                "no climbing deal of {players} seats"
            )));
        }
        let table = table.get().core().0.clone();
        let index = |a: PyReadonlyArray1<'_, i64>| -> Result<Vec<usize>, CoreError> {
            a.as_array()
                .iter()
                .map(|&v| usize::try_from(v).ok())
                .collect::<Option<_>>()
                .ok_or_else(|| CoreError::value("an index of the static features is negative"))
        };
        let weights = Weights {
            layers: weights.layers()?,
            ptr: index(ptr)?,
            cols: index(cols)?,
            vals: vals.as_array().to_vec(),
        };
        let net = Net::new(&table, players, weights).map_err(CoreError::Value)?;
        Ok(ClimbingNet {
            table,
            net: NetPolicy(net),
        })
    }
}

impl RacePolicy<Knowledge> for ClimbingNet {
    type Policy = NetPolicy<Net>;

    fn fits(&self, knowledge: &Knowledge) -> Result<(), CoreError> {
        self.check_fits(knowledge.table(), knowledge.seen().sizes.len())
    }

    fn policy(&self) -> &NetPolicy<Net> {
        &self.net
    }
}

net_methods!(
    ClimbingNet,
    new(table: &Bound<'_, ClimbingTable>, players: usize;
        weights;
        ptr: PyReadonlyArray1<'_, i64>, cols: PyReadonlyArray1<'_, i64>,
        vals: PyReadonlyArray1<'_, f32>) = ClimbingNet::with_weights,
    {
        /// The network's score of each legal play of the seat to move in `engine`, as
        /// `(play, score)` pairs in the engine's order.
        fn scores(
            &self,
            mut engine: PyRefMut<'_, ClimbingEngine>,
        ) -> Result<Vec<(u64, f32)>, CoreError> {
            let state = engine.core_state();
            self.check_fits(state.table(), state.players())?;
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

#[pymethods]
impl EnvCore {
    /// A climbing game: its compiled table (`ComboTable.core`) at `players` seats.
    #[staticmethod]
    fn climbing(table: &Bound<'_, ClimbingTable>, players: usize) -> Result<EnvCore, CoreError> {
        let (table, card_order) = table.get().core();
        let index = Arc::new(ActionIndex::new(table));
        let env = Env::new(table.clone(), card_order, players, index)
            .ok_or_else(|| CoreError::value(format!("no climbing deal of {players} seats")))?;
        Ok(EnvCore::new(env))
    }
}

/// The climbing environment (`EnvCore.climbing`): its deals are `ClimbingEngine`s.
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
                .cast::<ClimbingEngine>()?
                .try_borrow_mut()?
                .core_state()
                .current_player(),
        ))
    }

    fn encode(
        &self,
        engine: &Bound<'_, PyAny>,
        seat: usize,
        out: &mut [f32],
        _extra: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let mut engine = engine.cast::<ClimbingEngine>()?.try_borrow_mut()?;
        let state = engine.core_state();
        same_rules(self.rules(), &state.table().rules)?;
        let seat = self.seat(state.players(), seat)?;
        let mut played = [0; MAX_SEATS];
        encoding::played_by_seat(state.history(), &mut played);
        self.encoding().encode(state, seat, &played, out);
        Ok(())
    }

    fn each_legal(&self, engine: &Bound<'_, PyAny>, f: &mut dyn FnMut(i64)) -> PyResult<()> {
        let mut engine = engine.cast::<ClimbingEngine>()?.try_borrow_mut()?;
        let state = engine.core_state();
        same_rules(self.rules(), &state.table().rules)?;
        let mut moves = Vec::with_capacity(64);
        self.legal_into(state, &mut moves);
        moves.iter().for_each(|&m| f(self.index(state, m)));
        Ok(())
    }

    fn batch(&self, size: usize, deals: Mt19937, scale: f64, threads: usize) -> Box<dyn Batched> {
        Box::new(Batch::new(self.clone(), size, deals, scale, threads))
    }
}

/// Add the climbing classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<ClimbingTable>()?;
    m.add_class::<ClimbingEngine>()?;
    m.add_class::<ClimbingKnowledge>()?;
    m.add_class::<ClimbingNet>()?;
    Ok(())
}
