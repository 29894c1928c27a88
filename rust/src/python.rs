//! The extension module `parlour._core`: each family's thin PyO3 wrappers, registered here.

use pyo3::prelude::*;

#[pymodule]
#[pyo3(name = "_core")]
fn core_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    crate::climbing::python::register(m)?;
    crate::rummy::python::register(m)?;
    crate::trump::python::register(m)?;
    Ok(())
}
