//! The extension module `parlour._core`: thin PyO3 wrappers over the engines.

use pyo3::prelude::*;

#[pymodule]
#[pyo3(name = "_core")]
fn core_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    crate::rummy::python::register(m)?;
    Ok(())
}
