//! The environments' compiled half for Python: `EnvCore`, one game's observation encoder,
//! action index and deals, which encodes a seat's view of a deal the Python state keeps (its
//! engine object); and `BatchedCore`, N deals stepped by one call, writing every array straight
//! into numpy arrays the caller made.

use std::sync::Arc;

use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadwriteArray1, PyReadwriteArray2,
};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::batch::{Batch, Family, Out, Refused};
use crate::climbing::python::{ClimbingEngine, ClimbingTable};
use crate::error::CoreError;
use crate::pyrandom::Mt19937;
use crate::rummy::python::RummyCore;
use crate::sim::python::scale_divisor;
use crate::trump::python::{TrumpEngine, TrumpRules};
use crate::{climbing, rummy, trump};

/// One game's environment parts, by family.
#[derive(Clone)]
enum Game {
    Climbing(climbing::encoding::Env),
    Trump(trump::encoding::Env),
    Rummy(rummy::encoding::Env),
}

/// One game (a variant, its options and player count): its observation encoding, its action
/// index and its deals, for the environments.
#[pyclass(frozen, module = "parlour._core")]
pub struct EnvCore {
    game: Game,
}

/// `out` as a slice of exactly `size` entries.
fn exactly<'a, T>(out: &'a mut [T], size: usize, what: &str) -> Result<&'a mut [T], CoreError> {
    if out.len() == size {
        Ok(out)
    } else {
        Err(CoreError::value(format!(
            "{what} must have {size} entries, not {}",
            out.len()
        )))
    }
}

impl EnvCore {
    fn obs_size(&self) -> usize {
        match &self.game {
            Game::Climbing(env) => env.obs_size(),
            Game::Trump(env) => env.obs_size(),
            Game::Rummy(env) => env.obs_size(),
        }
    }

    fn actions(&self) -> usize {
        match &self.game {
            Game::Climbing(env) => env.actions(),
            Game::Trump(env) => env.actions(),
            Game::Rummy(env) => env.actions(),
        }
    }

    fn players(&self) -> usize {
        match &self.game {
            Game::Climbing(env) => env.players(),
            Game::Trump(env) => env.players(),
            Game::Rummy(env) => env.players(),
        }
    }

    /// `seat`, if it is a seat of a deal of `players` seats made for this game.
    fn seat(&self, players: usize, seat: usize) -> Result<usize, CoreError> {
        if players != self.players() {
            return Err(CoreError::value(format!(
                "this encoder is for deals of {} seats, not {players}",
                self.players()
            )));
        }
        if seat >= players {
            return Err(CoreError::value(format!("no seat {seat}")));
        }
        Ok(seat)
    }

    /// An error unless a deal played by `theirs` (an engine's rules) is one of this game's:
    /// another variant's engine with as many seats would be encoded and indexed wrongly.
    fn same_rules<R: PartialEq>(ours: &R, theirs: &R) -> Result<(), CoreError> {
        if ours == theirs {
            Ok(())
        } else {
            Err(CoreError::value(
                "this deal is of another game (other rules) than this encoder's",
            ))
        }
    }

    /// The seat to move in the deal `engine` keeps (-1 once it is over).
    fn to_move(&self, engine: &Bound<'_, PyAny>) -> PyResult<i64> {
        Ok(i64::from(match &self.game {
            Game::Climbing(_) => engine
                .cast::<ClimbingEngine>()?
                .try_borrow_mut()?
                .core_state()
                .current_player(),
            Game::Trump(_) => engine
                .cast::<TrumpEngine>()?
                .try_borrow()?
                .core_state()
                .current_player(),
            Game::Rummy(_) => engine
                .cast::<RummyCore>()?
                .try_borrow()?
                .core_state()
                .current_player(),
        }))
    }

    /// `seat`'s encoding of the deal `engine` keeps into `out` (`size` entries).
    fn encode_into(
        &self,
        engine: &Bound<'_, PyAny>,
        seat: usize,
        out: &mut [f32],
        extra: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        match &self.game {
            Game::Climbing(env) => {
                let mut engine = engine.cast::<ClimbingEngine>()?.try_borrow_mut()?;
                let state = engine.core_state();
                Self::same_rules(env.rules(), &state.table().rules)?;
                let seat = self.seat(state.players(), seat)?;
                let mut played = [0; climbing::MAX_SEATS];
                climbing::encoding::played_by_seat(state.history(), &mut played);
                env.encoding().encode(state, seat, &played, out);
            }
            Game::Trump(env) => {
                let engine = engine.cast::<TrumpEngine>()?.try_borrow()?;
                let state = engine.core_state();
                Self::same_rules(env.rules(), state.rules())?;
                let seat = self.seat(state.players(), seat)?;
                let scores: Vec<f64> = extra
                    .ok_or_else(|| CoreError::value("a trump encoding needs the deal's scores"))?
                    .extract()?;
                if scores.len() != env.encoding().score_entries() {
                    return Err(CoreError::value(format!(
                        "the deal's scores are {} numbers, not {}",
                        env.encoding().score_entries(),
                        scores.len()
                    ))
                    .into());
                }
                let mut played = [0; trump::MAX_SEATS];
                trump::encoding::played_by_seat(state.history(), &mut played);
                env.encoding().encode(state, seat, &played, &scores, out);
            }
            Game::Rummy(env) => {
                let engine = engine.cast::<RummyCore>()?.try_borrow()?;
                let state = engine.core_state();
                Self::same_rules(env.rules(), state.rules())?;
                let seat = self.seat(state.players(), seat)?;
                let given: Vec<u64> = extra
                    .ok_or_else(|| CoreError::value("a rummy encoding needs each seat's discards"))?
                    .extract()?;
                let mut discards = [0; rummy::MAX_SEATS];
                if given.len() != state.players() {
                    return Err(CoreError::value("give one discard mask per seat").into());
                }
                discards[..given.len()].copy_from_slice(&given);
                env.encoding().encode(state, seat, &discards, out);
            }
        }
        Ok(())
    }

    /// Calls `f` with each legal action index of the deal `engine` keeps.
    fn each_legal(&self, engine: &Bound<'_, PyAny>, mut f: impl FnMut(i64)) -> PyResult<()> {
        match &self.game {
            Game::Climbing(env) => {
                let mut engine = engine.cast::<ClimbingEngine>()?.try_borrow_mut()?;
                let state = engine.core_state();
                Self::same_rules(env.rules(), &state.table().rules)?;
                let mut moves = Vec::with_capacity(64);
                env.legal_into(state, &mut moves);
                moves.iter().for_each(|&m| f(env.index(state, m)));
            }
            Game::Trump(env) => {
                let engine = engine.cast::<TrumpEngine>()?.try_borrow()?;
                let state = engine.core_state();
                Self::same_rules(env.rules(), state.rules())?;
                let mut moves = Vec::with_capacity(16);
                state.legal_actions(&mut moves);
                moves.iter().for_each(|&m| f(env.index(state, m)));
            }
            Game::Rummy(env) => {
                let engine = engine.cast::<RummyCore>()?.try_borrow()?;
                let state = engine.core_state();
                Self::same_rules(env.rules(), state.rules())?;
                let mut moves = Vec::with_capacity(64);
                state.legal_actions(&mut moves);
                moves.iter().for_each(|&m| f(env.index(state, m)));
            }
        }
        Ok(())
    }
}

#[pymethods]
impl EnvCore {
    /// A climbing game: its compiled table (`ComboTable.core`) at `players` seats.
    #[staticmethod]
    fn climbing(table: &Bound<'_, ClimbingTable>, players: usize) -> Result<EnvCore, CoreError> {
        let (table, card_order) = table.get().core();
        let index = Arc::new(climbing::encoding::ActionIndex::new(table));
        let env = climbing::encoding::Env::new(table.clone(), card_order, players, index)
            .ok_or_else(|| CoreError::value(format!("no climbing deal of {players} seats")))?;
        Ok(EnvCore {
            game: Game::Climbing(env),
        })
    }

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
        let env = trump::encoding::Env::new(rules.get().core(), players, score_scale, scores, pool)
            .ok_or_else(|| {
                CoreError::value(format!(
                    "no trump deal of {players} seats with these scores"
                ))
            })?;
        Ok(EnvCore {
            game: Game::Trump(env),
        })
    }

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
        if !rummy::encoding::is_turn_limit(turn_scale) {
            return Err(CoreError::value(
                "turn_scale must be a finite number from 1",
            ));
        }
        let rules = rummy::Rules {
            players,
            forbid_discard_of_drawn_discard: forbid,
            score_melds,
            turn_limit,
        };
        let index = Arc::new(rummy::encoding::ActionIndex::new());
        let env = rummy::encoding::Env::new(rules, hand_size, turn_scale, index)
            .ok_or_else(|| CoreError::value("no rummy deal with these options"))?;
        Ok(EnvCore {
            game: Game::Rummy(env),
        })
    }

    /// The length of an observation encoding.
    #[getter]
    fn size(&self) -> usize {
        self.obs_size()
    }

    /// The number of actions (the action index's size).
    #[getter]
    fn action_count(&self) -> usize {
        self.actions()
    }

    /// Writes `seat`'s encoding of the deal `engine` keeps (a `ClimbingEngine`, `TrumpEngine`
    /// or `RummyCore` of this game) into `out` (`float32`, `size` entries). `extra` is what the
    /// Python state keeps beside its engine: the trump deal's scores before it; each rummy
    /// seat's discards (rummy layout).
    #[pyo3(signature = (engine, seat, out, extra=None))]
    fn encode(
        &self,
        engine: &Bound<'_, PyAny>,
        seat: usize,
        out: &Bound<'_, PyArray1<f32>>,
        extra: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let mut out: PyReadwriteArray1<'_, f32> = out.try_readwrite()?;
        let out = exactly(out.as_slice_mut()?, self.obs_size(), "out")?;
        self.encode_into(engine, seat, out, extra)
    }

    /// A seat's observation as the AEC environment hands it out, made in one call: the dict of
    /// `"observation"` (a new `float32` array, as [`EnvCore::encode`]) and `"action_mask"`: a
    /// new `int8` array with 1 at each legal action's index when `seat` is to move, else
    /// `idle` (the caller's shared mask of no actions).
    #[pyo3(signature = (engine, seat, idle, extra=None))]
    fn observation<'py>(
        &self,
        engine: &Bound<'py, PyAny>,
        seat: usize,
        idle: &Bound<'py, PyAny>,
        extra: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyDict>> {
        let py = engine.py();
        let obs = PyArray1::<f32>::zeros(py, self.obs_size(), false);
        self.encode_into(engine, seat, obs.try_readwrite()?.as_slice_mut()?, extra)?;
        let mask = if self.to_move(engine)? == seat as i64 {
            let mask = PyArray1::<i8>::zeros(py, self.actions(), false);
            {
                let mut m = mask.try_readwrite()?;
                let m = m.as_slice_mut()?;
                self.each_legal(engine, |i| {
                    if let Some(x) = m.get_mut(i as usize) {
                        *x = 1;
                    }
                })?;
            }
            mask.into_any()
        } else {
            idle.clone()
        };
        let out = PyDict::new(py);
        out.set_item(intern!(py, "observation"), obs)?;
        out.set_item(intern!(py, "action_mask"), mask)?;
        Ok(out)
    }

    /// The legal actions' indexes of the deal `engine` keeps, in the engine's order.
    fn legal(&self, engine: &Bound<'_, PyAny>) -> PyResult<Vec<i64>> {
        let mut out = Vec::new();
        self.each_legal(engine, |i| out.push(i))?;
        Ok(out)
    }

    /// Sets `mask[i] = 1` (an `int8` array of the action space's size) at the index of each
    /// legal action of the deal `engine` keeps; the number of legal actions.
    fn legal_mask(
        &self,
        engine: &Bound<'_, PyAny>,
        mask: &Bound<'_, PyArray1<i8>>,
    ) -> PyResult<usize> {
        let mut mask = mask.try_readwrite()?;
        let mask = exactly(mask.as_slice_mut()?, self.actions(), "the mask")?;
        let mut count = 0;
        self.each_legal(engine, |i| {
            if let Some(x) = mask.get_mut(i as usize) {
                *x = 1;
                count += 1;
            }
        })?;
        Ok(count)
    }
}

/// Every family's batch.
enum Batches {
    Climbing(Batch<climbing::encoding::Env>),
    Trump(Batch<trump::encoding::Env>),
    Rummy(Batch<rummy::encoding::Env>),
}

/// The same code for whichever family's batch `$batch` is.
macro_rules! each {
    ($batch:expr, $b:ident => $body:expr) => {
        match $batch {
            Batches::Climbing($b) => $body,
            Batches::Trump($b) => $body,
            Batches::Rummy($b) => $body,
        }
    };
}

/// The most deals a batch steps together: its rows are made when it is, a few hundred bytes
/// each before the arrays Python asks for, so a larger batch would ask for more memory than a
/// machine has.
pub const MAX_ENVS: usize = 1 << 20;

/// The most threads a batch is stepped on.
pub const MAX_THREADS: usize = 256;

/// `num_envs` deals of one game stepped together; `parlour.envs.batched.BatchedEnv` is its
/// face (its docstring says what every array holds).
#[pyclass(module = "parlour._core")]
pub struct BatchedCore {
    batch: Batches,
}

/// The arrays a call writes into, borrowed.
struct Arrays<'py> {
    obs: PyReadwriteArray2<'py, f32>,
    player: PyReadwriteArray1<'py, i64>,
    rewards: PyReadwriteArray2<'py, f32>,
    done: PyReadwriteArray1<'py, bool>,
    offsets: PyReadwriteArray1<'py, i64>,
}

impl<'py> Arrays<'py> {
    fn borrow(
        obs: &Bound<'py, PyArray2<f32>>,
        player: &Bound<'py, PyArray1<i64>>,
        rewards: &Bound<'py, PyArray2<f32>>,
        done: &Bound<'py, PyArray1<bool>>,
        offsets: &Bound<'py, PyArray1<i64>>,
    ) -> PyResult<Arrays<'py>> {
        Ok(Arrays {
            obs: obs.try_readwrite()?,
            player: player.try_readwrite()?,
            rewards: rewards.try_readwrite()?,
            done: done.try_readwrite()?,
            offsets: offsets.try_readwrite()?,
        })
    }

    fn out(&mut self) -> PyResult<Out<'_>> {
        Ok(Out {
            obs: self.obs.as_slice_mut()?,
            player: self.player.as_slice_mut()?,
            rewards: self.rewards.as_slice_mut()?,
            done: self.done.as_slice_mut()?,
            offsets: self.offsets.as_slice_mut()?,
        })
    }
}

/// The generator of a just-seeded `random.Random` from its state.
fn generator(state: &[u32]) -> Result<Mt19937, CoreError> {
    Mt19937::from_seeded_state(state)
        .ok_or_else(|| CoreError::value("give the state of a random.Random just seeded"))
}

fn refused(why: Refused) -> CoreError {
    match why {
        Refused::NotReset => CoreError::illegal("call reset() before step()"),
        Refused::Buffers => CoreError::value("the arrays do not fit the batch"),
        Refused::Count => CoreError::illegal("give one action index per deal"),
        Refused::Illegal(row) => {
            CoreError::illegal(format!("the action of deal {row} is not legal there"))
        }
    }
}

#[pymethods]
impl BatchedCore {
    /// `num_envs` rows of `core`'s game, dealt from the generator `random.Random(seed)`, given
    /// as its state (`getstate()[1]`); rewards divided by `scale`; stepped on `threads`
    /// threads (the same arrays whatever their number).
    #[new]
    #[pyo3(signature = (core, num_envs, deals, scale, threads = 1))]
    fn new(
        core: &EnvCore,
        num_envs: usize,
        deals: Vec<u32>,
        scale: f64,
        threads: usize,
    ) -> Result<Self, CoreError> {
        if !(1..=MAX_ENVS).contains(&num_envs) {
            return Err(CoreError::value(format!(
                "a batch has 1 to {MAX_ENVS} deals, not {num_envs}"
            )));
        }
        if !(1..=MAX_THREADS).contains(&threads) {
            return Err(CoreError::value(format!(
                "a batch is stepped on 1 to {MAX_THREADS} threads, not {threads}"
            )));
        }
        let deals = generator(&deals)?;
        let batch = match &core.game {
            Game::Climbing(env) => {
                Batches::Climbing(Batch::new(env.clone(), num_envs, deals, scale, threads))
            }
            Game::Trump(env) => {
                Batches::Trump(Batch::new(env.clone(), num_envs, deals, scale, threads))
            }
            Game::Rummy(env) => {
                Batches::Rummy(Batch::new(env.clone(), num_envs, deals, scale, threads))
            }
        };
        Ok(BatchedCore { batch })
    }

    /// The number of threads the rows are stepped on.
    #[getter]
    fn threads(&self) -> usize {
        each!(&self.batch, b => b.threads())
    }

    /// Fresh deals in every row (seeds drawn from a new generator when its state is given,
    /// else the generator goes on); the first decisions into the arrays.
    #[pyo3(signature = (deals, obs, player, rewards, done, offsets))]
    fn reset(
        &mut self,
        deals: Option<Vec<u32>>,
        obs: &Bound<'_, PyArray2<f32>>,
        player: &Bound<'_, PyArray1<i64>>,
        rewards: &Bound<'_, PyArray2<f32>>,
        done: &Bound<'_, PyArray1<bool>>,
        offsets: &Bound<'_, PyArray1<i64>>,
    ) -> PyResult<()> {
        let deals = deals.as_deref().map(generator).transpose()?;
        let mut arrays = Arrays::borrow(obs, player, rewards, done, offsets)?;
        let out = arrays.out()?;
        let batch = &mut self.batch;
        obs.py()
            .detach(|| each!(batch, b => b.reset(deals, out)))
            .map_err(|why| refused(why).into())
    }

    /// Plays one action index per row (`int64`); the next decisions into the arrays. Returns
    /// -1, or the first row whose action is not legal there (then nothing changed).
    #[pyo3(signature = (actions, obs, player, rewards, done, offsets))]
    fn step(
        &mut self,
        actions: PyReadonlyArray1<'_, i64>,
        obs: &Bound<'_, PyArray2<f32>>,
        player: &Bound<'_, PyArray1<i64>>,
        rewards: &Bound<'_, PyArray2<f32>>,
        done: &Bound<'_, PyArray1<bool>>,
        offsets: &Bound<'_, PyArray1<i64>>,
    ) -> PyResult<i64> {
        let actions = actions.as_slice()?;
        let mut arrays = Arrays::borrow(obs, player, rewards, done, offsets)?;
        let out = arrays.out()?;
        let batch = &mut self.batch;
        match obs.py().detach(|| each!(batch, b => b.step(actions, out))) {
            Ok(()) => Ok(-1),
            Err(Refused::Illegal(row)) => Ok(row as i64),
            Err(why) => Err(refused(why).into()),
        }
    }

    /// Every row's legal action indexes, flat (a new array), row `i`'s at
    /// `[offsets[i]:offsets[i + 1]]`.
    fn legal<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        PyArray1::from_vec(py, each!(&self.batch, b => b.legal_indexes()))
    }

    /// The seed of each row's deal (`game.new_deal(seed=…)`).
    fn seeds(&self) -> Vec<u64> {
        each!(&self.batch, b => b.seeds().collect())
    }

    /// The action indexes played in `row`'s deal so far.
    fn played(&self, row: usize) -> Result<Vec<u32>, CoreError> {
        each!(&self.batch, b => b.played(row).map(<[u32]>::to_vec))
            .ok_or_else(|| CoreError::value(format!("no row {row}")))
    }
}

/// Add the environment classes to the module.
pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MAX_ENVS", MAX_ENVS)?;
    m.add("MAX_THREADS", MAX_THREADS)?;
    m.add_class::<EnvCore>()?;
    m.add_class::<BatchedCore>()?;
    Ok(())
}
