//! The trump engine in `parlour._core`: `TrumpRules` (one variant's rules and move objects) and
//! `TrumpEngine` (one deal).
//!
//! The Python package keeps the dealing (its seeded shuffle), the notation, the checks of a
//! setup with their messages, and the reasons for refusals; the engine takes and gives cards as
//! masks and moves as the packed ints, and its move objects are the package's own.

use pyo3::prelude::*;
use pyo3::pybacked::PyBackedStr;
use pyo3::types::{PyInt, PyList, PyTuple};

use super::encoding::{self, Env};
use super::net::Net;
use super::{
    DECK, HIDDEN_ROB, Illegal, Knowledge, MAX_HISTORY, MAX_SEATS, Observed, Phase, ROB_BASE, Rules,
    Scoring, Seen, State, is_move,
};
use crate::env::batch::{Batch, Batched, Family};
use crate::env::python::{EnvCore, Game, same_rules};
use crate::error::CoreError;
use crate::pyrandom::Mt19937;
use crate::sim::Rng;
use crate::sim::mlp::{NetPolicy, Network as _, Scratch};
use crate::sim::python::{RacePolicy, WeightArrays, knowledge_methods, net_methods, scale_divisor};

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
    ) -> Result<Self, CoreError> {
        if moves.len() != usize::from(HIDDEN_ROB) + 1 {
            return Err(CoreError::value(
                "moves must give the object of every value 0..=132",
            ));
        }
        let scoring = match points {
            Some(points) => Scoring::Sides {
                points: points
                    .try_into()
                    .map_err(|_| CoreError::value("points must give 0 to 5 tricks' score"))?,
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

    /// The rule-based policy's choice among `legal` (moves, in the order given) for the seat
    /// of `observation` (a `TrumpObservation` of this variant), as a move object. It reads
    /// the observation only, and draws nothing.
    fn greedy(
        &self,
        py: Python<'_>,
        observation: &Bound<'_, PyAny>,
        legal: Vec<i64>,
    ) -> Result<Py<PyAny>, CoreError> {
        let fields = observation_fields(observation)?;
        let legal: Vec<u16> = legal
            .iter()
            .map(|&v| {
                if is_move(v) {
                    Ok(v as u16)
                } else {
                    Err(CoreError::illegal(format!(
                        "{v} is not a move of forty-five or spoil-five"
                    )))
                }
            })
            .collect::<Result<_, _>>()?;
        let (gone, trick, tricks_won) = fields.arrays()?;
        let seen = fields.seen(self.rules, gone, &trick, &tricks_won)?;
        let choice = super::greedy(&seen, &legal)
            .ok_or_else(|| CoreError::illegal("no card to play among the legal moves given"))?;
        Ok(self.moves[usize::from(choice)].clone_ref(py))
    }
}

/// The fields of a `TrumpObservation` that the policy and the sampler read, by attribute.
#[derive(FromPyObject)]
struct ObservationFields {
    seat: i64,
    current_player: i64,
    hand: u64,
    hand_sizes: Vec<i64>,
    phase: PyBackedStr,
    dealer: i64,
    turn_up: i64,
    trump: i64,
    leader: i64,
    trick: Vec<i64>,
    tricks_won: Vec<i64>,
    announced: i64,
    robber: i64,
    ace_pending: bool,
    ace_demoted: bool,
    history: Vec<(i64, i64)>,
}

fn observation_fields(observation: &Bound<'_, PyAny>) -> Result<ObservationFields, CoreError> {
    observation
        .extract()
        .map_err(|e| CoreError::parlour(format!("not an observation of a trump game: {e}")))
}

/// `value` as a `T`, or a ParlourError naming `what`.
fn small<T: TryFrom<i64>>(value: i64, what: &str) -> Result<T, CoreError> {
    T::try_from(value).map_err(|_| {
        CoreError::parlour(format!(
            "the observation's {what} ({value}) is out of range"
        ))
    })
}

impl ObservationFields {
    fn players(&self) -> Result<usize, CoreError> {
        let n = self.hand_sizes.len();
        if !(2..=MAX_SEATS).contains(&n) {
            return Err(CoreError::parlour(format!(
                "the observation shows {n} seats, not 2 to {MAX_SEATS}"
            )));
        }
        Ok(n)
    }

    /// A seat of the deal, or -1 where `none` allows it.
    fn seat_or_none(&self, value: i64, what: &str) -> Result<i8, CoreError> {
        let n = self.players()? as i64;
        if (-1..n).contains(&value) {
            Ok(value as i8)
        } else {
            Err(CoreError::parlour(format!(
                "the observation's {what} ({value}) is no seat of the deal"
            )))
        }
    }

    fn phase(&self) -> Result<Phase, CoreError> {
        match &*self.phase {
            "rob" => Ok(Phase::Rob),
            "play" => Ok(Phase::Play),
            "jink" => Ok(Phase::Jink),
            "over" => Ok(Phase::Over),
            other => Err(CoreError::parlour(format!(
                "the observation's phase {other:?} is none of rob, play, jink, over"
            ))),
        }
    }

    fn card(value: i64, what: &str) -> Result<u8, CoreError> {
        small::<u8>(value, what).and_then(|c| {
            if c < 52 {
                Ok(c)
            } else {
                Err(CoreError::parlour(format!(
                    "the observation's {what} ({value}) is no card"
                )))
            }
        })
    }

    fn history(&self) -> Result<Vec<(u8, u16)>, CoreError> {
        if self.history.len() > MAX_HISTORY {
            return Err(CoreError::parlour("the observation's history is too long"));
        }
        let n = self.players()? as i64;
        self.history
            .iter()
            .map(|&(s, v)| {
                if (0..n).contains(&s) && is_move(v) {
                    Ok((s as u8, v as u16))
                } else {
                    Err(CoreError::parlour(format!(
                        "the observation's history holds ({s}, {v}), no seat's move"
                    )))
                }
            })
            .collect()
    }

    /// The cards played so far with this seat's own discard, the trick in progress and the
    /// tricks won, checked.
    fn arrays(&self) -> Result<(u64, Vec<u8>, Vec<u8>), CoreError> {
        let mut gone = 0u64;
        for &(_, v) in &self.history {
            if (0..52).contains(&v) {
                gone |= 1 << v;
            } else if (i64::from(ROB_BASE)..i64::from(ROB_BASE) + 52).contains(&v) {
                // Only this seat's own rob shows its discard: a card it knows gone.
                gone |= 1 << (v - i64::from(ROB_BASE));
            }
        }
        let trick = self
            .trick
            .iter()
            .map(|&c| Self::card(c, "trick"))
            .collect::<Result<_, _>>()?;
        let tricks_won = self
            .tricks_won
            .iter()
            .map(|&k| small::<u8>(k, "tricks won"))
            .collect::<Result<_, _>>()?;
        Ok((gone, trick, tricks_won))
    }

    /// What the policy reads; `gone` is the cards played and this seat's own discard.
    fn seen<'a>(
        &self,
        rules: Rules,
        gone: u64,
        trick: &'a [u8],
        tricks_won: &'a [u8],
    ) -> Result<Seen<'a>, CoreError> {
        let n = self.players()?;
        let seat = self.seat_or_none(self.seat, "seat")?;
        let leader = self.seat_or_none(self.leader, "leader")?;
        if seat < 0 || leader < 0 {
            return Err(CoreError::parlour(
                "the observation's seat or leader is no seat",
            ));
        }
        let turn_up = Self::card(self.turn_up, "turn-up")?;
        let hand = self.hand & DECK;
        let mut gone = gone | hand;
        if self.robber < 0 {
            gone |= 1 << turn_up; // left on the pack
        }
        Ok(Seen {
            seat: seat as u8,
            players: n as u8,
            phase: self.phase()?,
            trump: small::<u8>(self.trump, "trump suit")? & 3,
            demoted: self.ace_demoted,
            hand,
            outstanding: DECK & !gone,
            leader: leader as u8,
            trick,
            tricks_won,
            partnership: rules.partnership(),
        })
    }

    /// What the sampler reads.
    fn observed(&self, pool: f64) -> Result<Observed, CoreError> {
        let seat = self.seat_or_none(self.seat, "seat")?;
        if seat < 0 {
            return Err(CoreError::parlour("the observation's seat is no seat"));
        }
        let dealer = self.seat_or_none(self.dealer, "dealer")?;
        if dealer < 0 {
            return Err(CoreError::parlour("the observation's dealer is no seat"));
        }
        Ok(Observed {
            seat: seat as usize,
            current_player: self.seat_or_none(self.current_player, "seat to move")?,
            hand: self.hand,
            hand_sizes: self
                .hand_sizes
                .iter()
                .map(|&k| small::<u8>(k, "hand sizes"))
                .collect::<Result<_, _>>()?,
            phase: self.phase()?,
            dealer: dealer as u8,
            turn_up: Self::card(self.turn_up, "turn-up")?,
            announced: self.seat_or_none(self.announced, "announcer")?,
            robber: self.seat_or_none(self.robber, "robber")?,
            ace_pending: self.ace_pending,
            ace_demoted: self.ace_demoted,
            history: self.history()?,
            pool,
        })
    }
}

/// What one seat knows of a deal (from its observation), to deal worlds consistent with it.
#[pyclass(frozen, module = "parlour._core")]
pub struct TrumpKnowledge {
    pub(crate) inner: Knowledge,
}

knowledge_methods!(TrumpKnowledge, TrumpNet, {
    /// The knowledge of `observation`'s seat (a `TrumpObservation` of the game of `rules`).
    /// Raises ParlourError for what is no observation, or one no deal is consistent with.
    #[new]
    fn new(rules: &Bound<'_, TrumpRules>, observation: &Bound<'_, PyAny>) -> PyResult<Self> {
        let fields = observation_fields(observation)?;
        let pool = observation.getattr("pool")?;
        // The engine scores the pool as a float; an int past the floats counts as infinite.
        let pool = match pool.extract::<f64>() {
            Ok(p) => p,
            Err(_) if pool.is_instance_of::<PyInt>() => f64::INFINITY,
            Err(e) => {
                return Err(CoreError::parlour(format!("the observation's pool: {e}")).into());
            }
        };
        let inner = Knowledge::new(rules.get().rules, &fields.observed(pool)?)
            .map_err(CoreError::Parlour)?;
        Ok(TrumpKnowledge { inner })
    }

    /// The seat that knows this.
    #[getter]
    fn seat(&self) -> usize {
        crate::sim::Knowledge::seat(&self.inner)
    }

    /// A world consistent with the observation, dealt from `seed`: `(hands, discard)`, the
    /// hands as dealt (masks) and the discard of another seat's rob that this seat did not
    /// see (-1 if none). Replaying the observation's history from those hands (the hidden rob
    /// robbing `discard`) gives the world as it is now.
    fn sample<'py>(&self, py: Python<'py>, seed: u64) -> PyResult<(Bound<'py, PyTuple>, i8)> {
        let world = self.inner.world(&mut Rng::new(seed));
        let n = self.inner.players();
        Ok((PyTuple::new(py, &world.hands[..n])?, world.discard))
    }
});

impl TrumpRules {
    /// The rules inside a deal (for the environments).
    pub(crate) fn core(&self) -> Rules {
        self.rules
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
    /// The deal (for the environments' encoders).
    pub(crate) fn core_state(&self) -> &State {
        &self.state
    }

    fn seat(&self, seat: usize) -> Result<usize, CoreError> {
        if seat < self.state.players() {
            Ok(seat)
        } else {
            Err(CoreError::value(format!("no seat {seat}")))
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
    ) -> Result<Self, CoreError> {
        let state = State::new(rules.get().rules, &hands, turn_up, dealer, pool)
            .map_err(CoreError::Deal)?;
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
            .map_err(CoreError::Deal)?;
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

    fn hidden_from(&self, seat: usize) -> Result<u64, CoreError> {
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
        CoreError::value(format!(
            "no deal for {players} players with dealer {dealer}"
        ))
        .into()
    })
}

/// A learned network as the trump games' playout policy (`parlour.bots.learned` makes one from
/// its weights).
#[pyclass(frozen, module = "parlour._core")]
pub(crate) struct TrumpNet {
    rules: Rules,
    net: NetPolicy<Net>,
}

impl TrumpNet {
    /// Refuses deals of other rules or another number of seats than the network was made for.
    fn check_fits(&self, rules: &Rules, players: usize) -> Result<(), CoreError> {
        if *rules != self.rules || players != self.net.players() {
            return Err(CoreError::value(
                "the network was made for another variant or number of seats",
            ));
        }
        Ok(())
    }

    /// The network of `weights` for deals of `rules` at `players` seats; the encoding divides
    /// the scores before the deal by `score_scale` and is given `scores` (those a match starts
    /// with).
    fn with_weights(
        rules: &Bound<'_, TrumpRules>,
        players: usize,
        score_scale: f64,
        scores: Vec<f64>,
        weights: WeightArrays<'_>,
    ) -> Result<TrumpNet, CoreError> {
        let rules = rules.get().rules;
        let score_scale = scale_divisor("score_scale", score_scale)?;
        let layers = weights.layers()?;
        let net = Net::new(rules.scoring, players, score_scale, scores, layers)
            .map_err(CoreError::Value)?;
        Ok(TrumpNet {
            rules,
            net: NetPolicy(net),
        })
    }
}

impl RacePolicy<Knowledge> for TrumpNet {
    type Policy = NetPolicy<Net>;

    fn fits(&self, knowledge: &Knowledge) -> Result<(), CoreError> {
        self.check_fits(knowledge.rules(), knowledge.players())
    }

    fn policy(&self) -> &NetPolicy<Net> {
        &self.net
    }
}

net_methods!(
    TrumpNet,
    new(rules: &Bound<'_, TrumpRules>, players: usize, score_scale: f64, scores: Vec<f64>;
        weights;) = TrumpNet::with_weights,
    {
        /// The network's score of each legal move of the seat to move in `engine`, as
        /// `(move, score)` pairs in the engine's order.
        fn scores(&self, engine: PyRef<'_, TrumpEngine>) -> Result<Vec<(u16, f32)>, CoreError> {
            let state = engine.core_state();
            self.check_fits(state.rules(), state.players())?;
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
    /// A trump game: its compiled rules (`DealRules.core`) at `players` seats; the scores are
    /// divided by `score_scale`; a deal of the batched environment starts from `scores` (two
    /// sides' points, or each seat's chips) and `pool`.
    #[staticmethod]
    fn trump(
        rules: &Bound<'_, TrumpRules>,
        players: usize,
        score_scale: f64,
        scores: Vec<f64>,
        pool: f64,
    ) -> Result<EnvCore, CoreError> {
        let score_scale = scale_divisor("score_scale", score_scale)?;
        let env =
            Env::new(rules.get().core(), players, score_scale, scores, pool).ok_or_else(|| {
                CoreError::value(format!(
                    "no trump deal of {players} seats with these scores"
                ))
            })?;
        Ok(EnvCore::new(env))
    }
}

/// The trump environment (`EnvCore.trump`): its deals are `TrumpEngine`s, encoded with the
/// deal's scores before it (the `extra` of an encoding).
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
                .cast::<TrumpEngine>()?
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
        let engine = engine.cast::<TrumpEngine>()?.try_borrow()?;
        let state = engine.core_state();
        same_rules(self.rules(), state.rules())?;
        let seat = self.seat(state.players(), seat)?;
        let scores: Vec<f64> = extra
            .ok_or_else(|| CoreError::value("a trump encoding needs the deal's scores"))?
            .extract()?;
        if scores.len() != self.encoding().score_entries() {
            return Err(CoreError::value(format!(
                "the deal's scores are {} numbers, not {}",
                self.encoding().score_entries(),
                scores.len()
            ))
            .into());
        }
        let mut played = [0; MAX_SEATS];
        encoding::played_by_seat(state.history(), &mut played);
        self.encoding().encode(state, seat, &played, &scores, out);
        Ok(())
    }

    fn each_legal(&self, engine: &Bound<'_, PyAny>, f: &mut dyn FnMut(i64)) -> PyResult<()> {
        let engine = engine.cast::<TrumpEngine>()?.try_borrow()?;
        let state = engine.core_state();
        same_rules(self.rules(), state.rules())?;
        let mut moves = Vec::with_capacity(16);
        state.legal_actions(&mut moves);
        moves.iter().for_each(|&m| f(self.index(state, m)));
        Ok(())
    }

    fn batch(&self, size: usize, deals: Mt19937, scale: f64, threads: usize) -> Box<dyn Batched> {
        Box::new(Batch::new(self.clone(), size, deals, scale, threads))
    }
}

/// Add the trump classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_function(wrap_pyfunction!(trump_deal, m)?)?;
    m.add_class::<TrumpRules>()?;
    m.add_class::<TrumpEngine>()?;
    m.add_class::<TrumpKnowledge>()?;
    m.add_class::<TrumpNet>()?;
    Ok(())
}
