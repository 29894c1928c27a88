//! The environments' compiled half for Python: `EnvCore`, one game's observation encoder,
//! action index and deals, which encodes a seat's view of a deal the Python state keeps (its
//! engine object); and `BatchedCore`, N deals stepped by one call, writing every array straight
//! into numpy arrays the caller made.
//!
//! This module names no family. Each family's `python` module implements [`Game`] for its
//! environment (`<family>::encoding::Env`), reading the deals its own engine objects keep, and
//! adds its constructor, the static method `EnvCore.<family>(…)`, in a `#[pymethods]` block of
//! its own (pyo3's `multiple-pymethods`).

use numpy::{
    PyArray1, PyArray2, PyArrayMethods, PyReadonlyArray1, PyReadwriteArray1, PyReadwriteArray2,
};
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use super::batch::{Batched, Out, Refused};
use crate::error::CoreError;
use crate::pyrandom::Mt19937;

/// What `EnvCore` needs of one family's game (a variant, its options and player count):
/// implemented by each family, in its own module, for its environment. The engine objects
/// are the family's own; another family's is refused with the `TypeError` of a failed cast.
pub(crate) trait Game: Send + Sync {
    /// The length of an observation encoding.
    fn obs_size(&self) -> usize;

    /// The number of actions (the action index's size).
    fn actions(&self) -> usize;

    /// The number of seats of this game's deals.
    fn players(&self) -> usize;

    /// The seat to move in the deal `engine` keeps (-1 once it is over).
    fn to_move(&self, engine: &Bound<'_, PyAny>) -> PyResult<i64>;

    /// `seat`'s encoding of the deal `engine` keeps into `out` (`obs_size` entries); `extra`
    /// is what the Python state keeps beside its engine, where the family's encoding needs it.
    fn encode(
        &self,
        engine: &Bound<'_, PyAny>,
        seat: usize,
        out: &mut [f32],
        extra: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()>;

    /// Calls `f` with each legal action index of the deal `engine` keeps, in its order.
    fn each_legal(&self, engine: &Bound<'_, PyAny>, f: &mut dyn FnMut(i64)) -> PyResult<()>;

    /// `size` deals of this game stepped together (the family's own
    /// [`Batch`](super::batch::Batch)): new deals' seeds from `deals`, rewards divided by
    /// `scale`, stepped on `threads` threads.
    fn batch(&self, size: usize, deals: Mt19937, scale: f64, threads: usize) -> Box<dyn Batched>;

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
}

/// An error unless a deal played by `theirs` (an engine's rules) is one of this game's
/// (`ours`): another variant's engine with as many seats would be encoded and indexed wrongly.
pub(crate) fn same_rules<R: PartialEq>(ours: &R, theirs: &R) -> Result<(), CoreError> {
    if ours == theirs {
        Ok(())
    } else {
        Err(CoreError::value(
            "this deal is of another game (other rules) than this encoder's",
        ))
    }
}

/// One game (a variant, its options and player count): its observation encoding, its action
/// index and its deals, for the environments.
// Made by a family's constructor, `EnvCore.<family>(…)`, a static method in its module.
#[pyclass(frozen, module = "parlour._core")]
pub struct EnvCore {
    game: Box<dyn Game>,
}

impl EnvCore {
    /// The environment of `game`, for a family's constructor.
    pub(crate) fn new(game: impl Game + 'static) -> EnvCore {
        EnvCore {
            game: Box::new(game),
        }
    }
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

#[pymethods]
impl EnvCore {
    /// The length of an observation encoding.
    #[getter]
    fn size(&self) -> usize {
        self.game.obs_size()
    }

    /// The number of actions (the action index's size).
    #[getter]
    fn action_count(&self) -> usize {
        self.game.actions()
    }

    /// Writes `seat`'s encoding of the deal `engine` keeps (an engine object of this game's
    /// family) into `out` (`float32`, `size` entries). `extra` is what the Python state keeps
    /// beside its engine, for a family whose encoding needs more than the engine holds.
    #[pyo3(signature = (engine, seat, out, extra=None))]
    fn encode(
        &self,
        engine: &Bound<'_, PyAny>,
        seat: usize,
        out: &Bound<'_, PyArray1<f32>>,
        extra: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<()> {
        let mut out: PyReadwriteArray1<'_, f32> = out.try_readwrite()?;
        let out = exactly(out.as_slice_mut()?, self.game.obs_size(), "out")?;
        self.game.encode(engine, seat, out, extra)
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
        let obs = PyArray1::<f32>::zeros(py, self.game.obs_size(), false);
        self.game
            .encode(engine, seat, obs.try_readwrite()?.as_slice_mut()?, extra)?;
        let mask = if self.game.to_move(engine)? == seat as i64 {
            let mask = PyArray1::<i8>::zeros(py, self.game.actions(), false);
            {
                let mut m = mask.try_readwrite()?;
                let m = m.as_slice_mut()?;
                self.game.each_legal(engine, &mut |i| {
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
        self.game.each_legal(engine, &mut |i| out.push(i))?;
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
        let mask = exactly(mask.as_slice_mut()?, self.game.actions(), "the mask")?;
        let mut count = 0;
        self.game.each_legal(engine, &mut |i| {
            if let Some(x) = mask.get_mut(i as usize) {
                *x = 1;
                count += 1;
            }
        })?;
        Ok(count)
    }
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
    /// The family's `Batch`: each call is dispatched to it once, never once per row.
    batch: Box<dyn Batched>,
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
        Ok(BatchedCore {
            batch: core.game.batch(num_envs, deals, scale, threads),
        })
    }

    /// The number of threads the rows are stepped on.
    #[getter]
    fn threads(&self) -> usize {
        self.batch.threads()
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
            .detach(|| batch.reset(deals, out))
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
        match obs.py().detach(|| batch.step(actions, out)) {
            Ok(()) => Ok(-1),
            Err(Refused::Illegal(row)) => Ok(row as i64),
            Err(why) => Err(refused(why).into()),
        }
    }

    /// Every row's legal action indexes, flat (a new array), row `i`'s at
    /// `[offsets[i]:offsets[i + 1]]`.
    fn legal<'py>(&self, py: Python<'py>) -> Bound<'py, PyArray1<i64>> {
        PyArray1::from_vec(py, self.batch.legal_indexes())
    }

    /// The seed of each row's deal (`game.new_deal(seed=…)`).
    fn seeds(&self) -> Vec<u64> {
        self.batch.seeds()
    }

    /// The action indexes played in `row`'s deal so far.
    fn played(&self, row: usize) -> Result<Vec<u32>, CoreError> {
        self.batch
            .played(row)
            .map(<[u32]>::to_vec)
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
