//! The search's Python face: `Race` (a search's settings) runs [`race`] for any family's
//! knowledge; each family's `…Knowledge.race(race, candidates, priors, seed)` calls
//! [`Race::run`] with its own knowledge, so this module knows no game.

use std::time::Duration;

use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;

use super::mlp::{Layers, Mlp, Scratch};
use super::search::{MAX_ITERATIONS, Outcome, Settings, race};
use super::{Deal, Greedy, Inference, Knowledge, Opponents, Policy};

/// The most deals drawn for one world kept, when worlds are weighted.
const MAX_DRAWS: usize = 4096;

/// One candidate's results as Python receives them: its returns, one per world, and its wins.
pub type TallyTuple = (Vec<f64>, u64);

/// What a race returns to Python: the worlds, the rollouts, a tally per candidate and the seats
/// played by the rule-based policy in every world (in order).
pub type RaceResult = (u64, u64, Vec<TallyTuple>, Vec<usize>);

/// A network's layers from the numpy arrays of `parlour.bots.learned.dmc.QNet` (row-major
/// copies), for each family's compiled network. The matrices' shapes are checked here, where
/// they are still known (a matrix saved the other way round has as many entries);
/// [`super::mlp::Mlp::new`] checks the rest against the game's encoding.
#[allow(clippy::too_many_arguments)]
pub(crate) fn layers(
    w1o: PyReadonlyArray2<'_, f32>,
    w1a: PyReadonlyArray2<'_, f32>,
    b1: PyReadonlyArray1<'_, f32>,
    w2: PyReadonlyArray2<'_, f32>,
    b2: PyReadonlyArray1<'_, f32>,
    w3: PyReadonlyArray1<'_, f32>,
    b3: f32,
    scale: f64,
) -> PyResult<Layers> {
    let (hidden, hidden2) = (b1.len(), b2.len());
    if w1o.shape()[1] != hidden || w1a.shape()[1] != hidden || w2.shape() != [hidden, hidden2] {
        let shape = |s: &[usize]| format!("({}, {})", s[0], s[1]);
        return Err(PyValueError::new_err(format!(
            "the weights' shapes do not fit: w1o and w1a need as many columns as b1 has entries \
             ({hidden}), and w2 is b1 × b2 ({hidden} × {hidden2}); they are {}, {} and {}",
            shape(w1o.shape()),
            shape(w1a.shape()),
            shape(w2.shape())
        )));
    }
    let flat2 = |a: PyReadonlyArray2<'_, f32>| a.as_array().iter().copied().collect();
    let flat1 = |a: PyReadonlyArray1<'_, f32>| a.as_array().to_vec();
    Ok(Layers {
        w1o: flat2(w1o),
        w1a: flat2(w1a),
        b1: flat1(b1),
        w2: flat2(w2),
        b2: flat1(b2),
        w3: flat1(w3),
        b3,
        scale,
    })
}

/// `value`, a scale that an encoding divides by, if it is one (finite and above 0): the
/// compiled encoders and networks refuse any other, which would make every input NaN.
pub(crate) fn scale_divisor(name: &str, value: f64) -> PyResult<f64> {
    if value > 0.0 && value.is_finite() {
        Ok(value)
    } else {
        Err(PyValueError::new_err(format!(
            "{name} must be a finite number above 0"
        )))
    }
}

/// A search's settings (`parlour.bots.search.SearchBot` makes one per search).
#[pyclass(frozen, module = "parlour._core")]
pub struct Race {
    settings: Settings,
}

#[pymethods]
impl Race {
    #[new]
    #[allow(clippy::too_many_arguments)]
    #[pyo3(signature = (iterations, time_limit, min_worlds, confidence, prior_weight, threads,
                        inference=None, leaf_after=None, opponents=None, indifference=0.0))]
    fn new(
        iterations: Option<u64>,
        time_limit: Option<f64>,
        min_worlds: u64,
        confidence: f64,
        prior_weight: f64,
        threads: usize,
        inference: Option<(usize, f64, f64)>,
        leaf_after: Option<u32>,
        opponents: Option<(usize, f64, f64, f64, f64, usize)>,
        indifference: f64,
    ) -> PyResult<Race> {
        let time_limit = match time_limit {
            Some(t) if t.is_finite() && t > 0.0 && t < 1e9 => Some(Duration::from_secs_f64(t)),
            Some(t) => {
                return Err(PyValueError::new_err(format!(
                    "the time limit must be a finite number of seconds above 0, not {t}"
                )));
            }
            None => None,
        };
        if iterations.is_none() && time_limit.is_none() {
            return Err(PyValueError::new_err(
                "a search needs a budget: iterations, a time limit, or both",
            ));
        }
        if iterations.is_some_and(|n| !(1..=MAX_ITERATIONS).contains(&n))
            || min_worlds == 0
            || !(confidence > 0.0 && confidence.is_finite())
        {
            return Err(PyValueError::new_err(format!(
                "iterations must be 1 to {MAX_ITERATIONS}, min_worlds at least 1 and confidence \
                 a finite number above 0"
            )));
        }
        if !(indifference >= 0.0 && indifference.is_finite()) {
            return Err(PyValueError::new_err(format!(
                "indifference must be a finite number of at least 0, not {indifference}"
            )));
        }
        if !(prior_weight >= 0.0 && prior_weight.is_finite() && (1..=256).contains(&threads)) {
            return Err(PyValueError::new_err(
                "prior_weight must be a finite number of at least 0 and threads 1 to 256",
            ));
        }
        let inference = match inference {
            None => None,
            Some((draws, temperature, uniform))
                if (1..=MAX_DRAWS).contains(&draws)
                    && temperature > 0.0
                    && temperature.is_finite()
                    && uniform > 0.0
                    && uniform <= 1.0 =>
            {
                Some(Inference {
                    draws,
                    temperature,
                    uniform,
                })
            }
            Some((draws, temperature, uniform)) => {
                return Err(PyValueError::new_err(format!(
                    "inference needs 1 to {MAX_DRAWS} draws, a finite temperature above 0 and a \
                     uniform share above 0 and at most 1, not {draws}, {temperature} and {uniform}"
                )));
            }
        };
        if leaf_after == Some(0) {
            return Err(PyValueError::new_err(
                "leaf_after counts the searching seat's turns: at least 1",
            ));
        }
        let opponents = match opponents {
            None => None,
            Some((worlds, prior, noise, temperature, certainty, draws))
                if (1..=MAX_DRAWS).contains(&worlds)
                    && (1..=MAX_DRAWS).contains(&draws)
                    && prior > 0.0
                    && prior < 1.0
                    && noise > 0.0
                    && noise <= 1.0
                    && temperature > 0.0
                    && temperature.is_finite()
                    && certainty > 0.0
                    && certainty <= 1.0 =>
            {
                Some(Opponents {
                    worlds,
                    prior,
                    noise,
                    temperature,
                    certainty,
                    draws,
                })
            }
            Some((worlds, prior, noise, temperature, certainty, draws)) => {
                return Err(PyValueError::new_err(format!(
                    "opponents needs 1 to {MAX_DRAWS} worlds, a prior chance between 0 and 1, a \
                     noise above 0 and at most 1, a finite temperature above 0, a certainty \
                     above 0 and at most 1 and 1 to {MAX_DRAWS} draws, not {worlds}, {prior}, \
                     {noise}, {temperature}, {certainty} and {draws}"
                )));
            }
        };
        Ok(Race {
            settings: Settings {
                iterations,
                time_limit,
                min_worlds,
                confidence,
                indifference,
                prior_weight,
                threads,
                inference,
                leaf_after,
                opponents,
            },
        })
    }
}

impl Race {
    /// The model of the opponents, if the race has one.
    pub(crate) fn opponents(&self) -> Option<Opponents> {
        self.settings.opponents
    }

    /// Searches `candidates` (action ints, the knowing seat's legal moves) for `knowledge`'s
    /// seat, without the GIL: `(worlds, iterations, [(returns, wins) per candidate])`.
    pub fn run<K>(
        &self,
        py: Python<'_>,
        knowledge: &K,
        candidates: Vec<i128>,
        priors: Vec<f64>,
        seed: u64,
    ) -> PyResult<RaceResult>
    where
        K: Knowledge,
        <K::Deal as Deal>::Move: TryFrom<i128>,
    {
        self.run_with(py, knowledge, candidates, priors, seed, &Greedy)
    }

    /// [`Race::run`] with the worlds played out by `policy`.
    pub fn run_with<K, P>(
        &self,
        py: Python<'_>,
        knowledge: &K,
        candidates: Vec<i128>,
        priors: Vec<f64>,
        seed: u64,
        policy: &P,
    ) -> PyResult<RaceResult>
    where
        K: Knowledge,
        P: Policy<K::Deal>,
        <K::Deal as Deal>::Move: TryFrom<i128>,
    {
        let moves: Vec<<K::Deal as Deal>::Move> = candidates
            .iter()
            .map(|&c| <K::Deal as Deal>::Move::try_from(c).ok())
            .collect::<Option<_>>()
            .ok_or_else(|| PyValueError::new_err("a candidate is not a move of this game"))?;
        let outcome: Option<Outcome> =
            py.detach(|| race(knowledge, &moves, &priors, &self.settings, seed, policy));
        let outcome = outcome.ok_or_else(|| {
            PyValueError::new_err(
                "the candidates must be the seat's legal moves, one prior each, at least one",
            )
        })?;
        let tallies = outcome
            .tallies
            .into_iter()
            .map(|t| (t.values, t.wins))
            .collect();
        let rule_based = (0..u32::BITS as usize)
            .filter(|&seat| outcome.rule_based >> seat & 1 == 1)
            .collect();
        Ok((outcome.worlds, outcome.iterations, tallies, rule_based))
    }
}

/// A learned network that scores a decision's moves from their encodings
/// (`parlour.bots.learned.Policy.scores`): the products of the compiled playouts, summed in a
/// fixed order, so the same bits on every machine (numpy's matrix products depend on its
/// threads and on the processor's kernels).
#[pyclass(frozen, module = "parlour._core")]
pub struct Network {
    mlp: Mlp,
}

#[pymethods]
impl Network {
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        w1o: PyReadonlyArray2<'_, f32>,
        w1a: PyReadonlyArray2<'_, f32>,
        b1: PyReadonlyArray1<'_, f32>,
        w2: PyReadonlyArray2<'_, f32>,
        b2: PyReadonlyArray1<'_, f32>,
        w3: PyReadonlyArray1<'_, f32>,
        b3: f32,
    ) -> PyResult<Network> {
        let obs = w1o.shape()[0];
        let mlp = Mlp::new(layers(w1o, w1a, b1, w2, b2, w3, b3, 1.0)?, obs, "")
            .map_err(PyValueError::new_err)?;
        if mlp.features() == 0 {
            // Its moves' rows would be empty, and a decision's could not be counted.
            return Err(PyValueError::new_err(
                "the network has no move features (w1a has no rows)",
            ));
        }
        Ok(Network { mlp })
    }

    /// The score of each row of `moves` (one move's features a row) in the decision whose
    /// observation encoding is `obs`.
    fn scores<'py>(
        &self,
        py: Python<'py>,
        obs: PyReadonlyArray1<'_, f32>,
        moves: PyReadonlyArray2<'_, f32>,
    ) -> PyResult<Bound<'py, PyArray1<f32>>> {
        let (observations, features) = (self.mlp.observations(), self.mlp.features());
        if obs.len() != observations || moves.shape()[1] != features {
            return Err(PyValueError::new_err(format!(
                "the network reads an observation of {observations} entries and moves of \
                 {features} features, not {} and {}",
                obs.len(),
                moves.shape()[1]
            )));
        }
        let obs: Vec<f32> = obs.as_array().to_vec();
        let moves: Vec<f32> = moves.as_array().iter().copied().collect();
        let mut s = Scratch::default();
        self.mlp.scores_of_rows(&obs, &moves, &mut s);
        Ok(PyArray1::from_vec(py, s.q))
    }
}

pub(crate) fn register(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("MAX_ITERATIONS", MAX_ITERATIONS)?;
    m.add_class::<Network>()?;
    m.add_class::<Race>()
}
