//! The search's Python face: `Race` (a search's settings) runs [`race`] for any family's
//! knowledge; each family's `…Knowledge.race(race, candidates, priors, seed)` calls
//! [`Race::run`] with its own knowledge, so this module knows no game.

use std::time::Duration;

use numpy::{PyArray1, PyReadonlyArray1, PyReadonlyArray2, PyUntypedArrayMethods};
use pyo3::prelude::*;

use super::mlp::{Layers, Mlp, Scratch};
use super::search::{MAX_ITERATIONS, Outcome, Settings, race};
use super::{Deal, Greedy, Inference, Knowledge, Opponents, Policy};
use crate::error::CoreError;

/// The most deals drawn for one world kept, when worlds are weighted.
const MAX_DRAWS: usize = 4096;

/// One candidate's results as Python receives them: its returns, one per world, and its wins.
pub type TallyTuple = (Vec<f64>, u64);

/// What a race returns to Python: the worlds, the rollouts, a tally per candidate and the seats
/// played by the rule-based policy in every world (in order).
pub type RaceResult = (u64, u64, Vec<TallyTuple>, Vec<usize>);

/// A network's weights as Python gives them: the numpy arrays of
/// `parlour.bots.learned.dmc.QNet` and the scale of its returns, before they are checked and
/// copied into [`Layers`].
pub(crate) struct WeightArrays<'py> {
    pub(crate) w1o: PyReadonlyArray2<'py, f32>,
    pub(crate) w1a: PyReadonlyArray2<'py, f32>,
    pub(crate) b1: PyReadonlyArray1<'py, f32>,
    pub(crate) w2: PyReadonlyArray2<'py, f32>,
    pub(crate) b2: PyReadonlyArray1<'py, f32>,
    pub(crate) w3: PyReadonlyArray1<'py, f32>,
    pub(crate) b3: f32,
    pub(crate) scale: f64,
}

impl WeightArrays<'_> {
    /// The layers (row-major copies), for each family's compiled network. The matrices' shapes
    /// are checked here, where they are still known (a matrix saved the other way round has as
    /// many entries); [`super::mlp::Mlp::new`] checks the rest against the game's encoding.
    pub(crate) fn layers(self) -> Result<Layers, CoreError> {
        let WeightArrays {
            w1o,
            w1a,
            b1,
            w2,
            b2,
            w3,
            b3,
            scale,
        } = self;
        let (hidden, hidden2) = (b1.len(), b2.len());
        if w1o.shape()[1] != hidden || w1a.shape()[1] != hidden || w2.shape() != [hidden, hidden2] {
            let shape = |s: &[usize]| format!("({}, {})", s[0], s[1]);
            return Err(CoreError::value(format!(
                "the weights' shapes do not fit: w1o and w1a need as many columns as b1 has \
                 entries ({hidden}), and w2 is b1 × b2 ({hidden} × {hidden2}); they are {}, {} \
                 and {}",
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
}

/// `value`, a scale that an encoding divides by, if it is one (finite and above 0): the
/// compiled encoders and networks refuse any other, which would make every input NaN.
pub(crate) fn scale_divisor(name: &str, value: f64) -> Result<f64, CoreError> {
    if value > 0.0 && value.is_finite() {
        Ok(value)
    } else {
        Err(CoreError::value(format!(
            "{name} must be a finite number above 0"
        )))
    }
}

/// A family's compiled network as the playout policy of a race over the worlds of `K` (the
/// family's knowledge).
pub(crate) trait RacePolicy<K: Knowledge> {
    /// The policy the worlds are played out by.
    type Policy: Policy<K::Deal>;

    /// Refuses knowledge of a deal of other rules or another number of seats than the network
    /// was made for.
    fn fits(&self, knowledge: &K) -> Result<(), CoreError>;

    fn policy(&self) -> &Self::Policy;
}

/// The `#[pymethods]` of a family's knowledge class `$class` (its Rust knowledge in `inner`):
/// the methods given, and `race`, the search over the worlds that knowledge deals, played out
/// by the rule-based policy or by a `$net` ([`RacePolicy`]). Written once here, so that every
/// family's `race` takes the same arguments.
macro_rules! knowledge_methods {
    ($class:ident, $net:ident, { $($methods:tt)* }) => {
        #[::pyo3::pymethods]
        impl $class {
            $($methods)*

            /// Searches `candidates` (the seat's legal moves, as ints) with `race`'s settings
            /// over worlds dealt from this knowledge: `(worlds, rollouts, [(returns, wins) per
            /// candidate], the seats played by the rule-based policy in every world)`. With
            /// `policy` (the family's network), every world is played out by the network
            /// instead of the greedy policy.
            #[pyo3(signature = (race, candidates, priors, seed, policy=None))]
            fn race(
                &self,
                py: ::pyo3::Python<'_>,
                race: &$crate::sim::python::Race,
                candidates: Vec<i128>,
                priors: Vec<f64>,
                seed: u64,
                policy: Option<&$net>,
            ) -> Result<$crate::sim::python::RaceResult, $crate::error::CoreError> {
                race.run_policy(py, &self.inner, candidates, priors, seed, policy)
            }
        }
    };
}
pub(crate) use knowledge_methods;

/// The `#[pymethods]` of a family's network class: the methods given, and the constructor,
/// which takes the family's own arguments (`$arg`), the network's weights (`w1o`, `w1a`, `b1`,
/// `w2`, `b2`, `w3`, `b3`), any further arguments of the family (`$extra`) and `scale=1.0`, and
/// hands them, the weights as [`WeightArrays`], to `$make`. Written once here, so that every
/// family's network takes its weights alike.
macro_rules! net_methods {
    (
        $class:ident,
        $(#[$doc:meta])*
        new($($arg:ident: $ty:ty),*; weights; $($extra:ident: $extra_ty:ty),*) = $make:path,
        { $($methods:tt)* }
    ) => {
        #[::pyo3::pymethods]
        impl $class {
            $(#[$doc])*
            #[new]
            #[allow(clippy::too_many_arguments)]
            #[pyo3(signature = ($($arg,)* w1o, w1a, b1, w2, b2, w3, b3, $($extra,)* scale=1.0))]
            fn new(
                $($arg: $ty,)*
                w1o: ::numpy::PyReadonlyArray2<'_, f32>,
                w1a: ::numpy::PyReadonlyArray2<'_, f32>,
                b1: ::numpy::PyReadonlyArray1<'_, f32>,
                w2: ::numpy::PyReadonlyArray2<'_, f32>,
                b2: ::numpy::PyReadonlyArray1<'_, f32>,
                w3: ::numpy::PyReadonlyArray1<'_, f32>,
                b3: f32,
                $($extra: $extra_ty,)*
                scale: f64,
            ) -> Result<Self, $crate::error::CoreError> {
                let weights = $crate::sim::python::WeightArrays {
                    w1o,
                    w1a,
                    b1,
                    w2,
                    b2,
                    w3,
                    b3,
                    scale,
                };
                $make($($arg,)* weights, $($extra),*)
            }

            $($methods)*
        }
    };
}
pub(crate) use net_methods;

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
    ) -> Result<Race, CoreError> {
        let time_limit = match time_limit {
            Some(t) if t.is_finite() && t > 0.0 && t < 1e9 => Some(Duration::from_secs_f64(t)),
            Some(t) => {
                return Err(CoreError::value(format!(
                    "the time limit must be a finite number of seconds above 0, not {t}"
                )));
            }
            None => None,
        };
        if iterations.is_none() && time_limit.is_none() {
            return Err(CoreError::value(
                "a search needs a budget: iterations, a time limit, or both",
            ));
        }
        if iterations.is_some_and(|n| !(1..=MAX_ITERATIONS).contains(&n))
            || min_worlds == 0
            || !(confidence > 0.0 && confidence.is_finite())
        {
            return Err(CoreError::value(format!(
                "iterations must be 1 to {MAX_ITERATIONS}, min_worlds at least 1 and confidence \
                 a finite number above 0"
            )));
        }
        if !(indifference >= 0.0 && indifference.is_finite()) {
            return Err(CoreError::value(format!(
                "indifference must be a finite number of at least 0, not {indifference}"
            )));
        }
        if !(prior_weight >= 0.0 && prior_weight.is_finite() && (1..=256).contains(&threads)) {
            return Err(CoreError::value(
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
                return Err(CoreError::value(format!(
                    "inference needs 1 to {MAX_DRAWS} draws, a finite temperature above 0 and a \
                     uniform share above 0 and at most 1, not {draws}, {temperature} and {uniform}"
                )));
            }
        };
        if leaf_after == Some(0) {
            return Err(CoreError::value(
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
                return Err(CoreError::value(format!(
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
    ) -> Result<RaceResult, CoreError>
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
    ) -> Result<RaceResult, CoreError>
    where
        K: Knowledge,
        P: Policy<K::Deal>,
        <K::Deal as Deal>::Move: TryFrom<i128>,
    {
        let moves: Vec<<K::Deal as Deal>::Move> = candidates
            .iter()
            .map(|&c| <K::Deal as Deal>::Move::try_from(c).ok())
            .collect::<Option<_>>()
            .ok_or_else(|| CoreError::value("a candidate is not a move of this game"))?;
        let outcome: Option<Outcome> =
            py.detach(|| race(knowledge, &moves, &priors, &self.settings, seed, policy));
        let outcome = outcome.ok_or_else(|| {
            CoreError::value(
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

    /// [`Race::run`] with the worlds played out by `policy` (a family's network) if given,
    /// else by the rule-based policy: each family's `…Knowledge.race`. ValueError for a
    /// network made for other rules or another number of seats than `knowledge`'s deal.
    pub(crate) fn run_policy<K, N>(
        &self,
        py: Python<'_>,
        knowledge: &K,
        candidates: Vec<i128>,
        priors: Vec<f64>,
        seed: u64,
        policy: Option<&N>,
    ) -> Result<RaceResult, CoreError>
    where
        K: Knowledge,
        N: RacePolicy<K>,
        <K::Deal as Deal>::Move: TryFrom<i128>,
    {
        match policy {
            None => self.run(py, knowledge, candidates, priors, seed),
            Some(net) => {
                net.fits(knowledge)?;
                self.run_with(py, knowledge, candidates, priors, seed, net.policy())
            }
        }
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
    ) -> Result<Network, CoreError> {
        let obs = w1o.shape()[0];
        let weights = WeightArrays {
            w1o,
            w1a,
            b1,
            w2,
            b2,
            w3,
            b3,
            scale: 1.0,
        };
        let mlp = Mlp::new(weights.layers()?, obs, "").map_err(CoreError::Value)?;
        if mlp.features() == 0 {
            // Its moves' rows would be empty, and a decision's could not be counted.
            return Err(CoreError::value(
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
    ) -> Result<Bound<'py, PyArray1<f32>>, CoreError> {
        let (observations, features) = (self.mlp.observations(), self.mlp.features());
        if obs.len() != observations || moves.shape()[1] != features {
            return Err(CoreError::value(format!(
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
