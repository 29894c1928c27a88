//! The extension module `parlour._core`: each family's thin PyO3 wrappers, registered here.

use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt, PyList};

use crate::error::CoreError;
use crate::pyrandom::Mt19937;

#[pymodule]
#[pyo3(name = "_core")]
fn core_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    m.add_function(wrap_pyfunction!(shuffle, m)?)?;
    crate::climbing::python::register(m)?;
    crate::rummy::python::register(m)?;
    crate::trump::python::register(m)?;
    crate::sim::python::register(m)?;
    crate::env::python::register(m)?;
    Ok(())
}

/// `random.Random(seed).shuffle(x)`, in place, for any int `seed` (the deals' shuffle).
#[pyfunction]
fn shuffle(seed: &Bound<'_, PyAny>, x: &Bound<'_, PyList>) -> PyResult<()> {
    let mut generator = generator(seed)?;
    let items: Vec<Bound<'_, PyAny>> = x.iter().collect();
    let mut order: Vec<usize> = (0..items.len()).collect();
    generator.shuffle(&mut order);
    // `items` holds every element, so no element is freed (and no Python code runs) here.
    for (k, &i) in order.iter().enumerate() {
        x.set_item(k, &items[i])?;
    }
    Ok(())
}

/// The generator of `random.Random(seed)`: its key is the 32-bit words of `abs(seed)`.
pub(crate) fn generator(seed: &Bound<'_, PyAny>) -> PyResult<Mt19937> {
    let seed = seed
        .cast::<PyInt>()
        .map_err(|_| CoreError::wrong_type("the seed must be an int"))?;
    if let Ok(small) = seed.extract::<i64>() {
        return Ok(Mt19937::from_abs_seed(small.unsigned_abs()));
    }
    let py = seed.py();
    let magnitude = py.get_type::<PyInt>().getattr("__abs__")?.call1((seed,))?;
    let bits: usize = magnitude.call_method0("bit_length")?.extract()?;
    let words = bits.div_ceil(32).max(1);
    let bytes = magnitude.call_method1("to_bytes", (words * 4, "little"))?;
    let key: Vec<u32> = bytes
        .cast::<PyBytes>()?
        .as_bytes()
        .chunks_exact(4)
        .map(|w| u32::from_le_bytes([w[0], w[1], w[2], w[3]]))
        .collect();
    Ok(Mt19937::from_key(&key))
}
