//! The crate's one error type: what the bindings refuse, each kind the Python exception it
//! becomes, with its message.
//!
//! The engines report a refusal as a plain value (a message, an `Illegal` code) and know no
//! Python; a binding wraps it in the [`CoreError`] of the exception the package raises there,
//! and the one conversion into `PyErr` (with the `python` feature, in this module) makes that
//! exception. The package's exceptions (`parlour.errors`) are imported here and nowhere else.

use std::fmt;

/// A refusal, by the exception it raises in Python.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CoreError {
    /// Python's `ValueError`: an argument out of its range or shape.
    Value(String),
    /// Python's `TypeError`: an argument of the wrong type.
    Type(String),
    /// `parlour.errors.IllegalAction`: a move the position does not allow.
    Illegal(String),
    /// `parlour.errors.DealError`: a deal or an observation that no deal shows.
    Deal(String),
    /// `parlour.errors.ParlourError`: what is no observation of the game.
    Parlour(String),
}

impl CoreError {
    /// A `ValueError`.
    pub fn value(message: impl Into<String>) -> CoreError {
        CoreError::Value(message.into())
    }

    /// A `TypeError`.
    pub fn wrong_type(message: impl Into<String>) -> CoreError {
        CoreError::Type(message.into())
    }

    /// An `IllegalAction`.
    pub fn illegal(message: impl Into<String>) -> CoreError {
        CoreError::Illegal(message.into())
    }

    /// A `DealError`.
    pub fn deal(message: impl Into<String>) -> CoreError {
        CoreError::Deal(message.into())
    }

    /// A `ParlourError`.
    pub fn parlour(message: impl Into<String>) -> CoreError {
        CoreError::Parlour(message.into())
    }

    /// The message, as the exception shows it.
    pub fn message(&self) -> &str {
        match self {
            CoreError::Value(m)
            | CoreError::Type(m)
            | CoreError::Illegal(m)
            | CoreError::Deal(m)
            | CoreError::Parlour(m) => m,
        }
    }
}

impl fmt::Display for CoreError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.message())
    }
}

impl std::error::Error for CoreError {}

#[cfg(feature = "python")]
mod python {
    use pyo3::PyErr;
    use pyo3::exceptions::{PyTypeError, PyValueError};

    use super::CoreError;

    pyo3::import_exception!(parlour.errors, DealError);
    pyo3::import_exception!(parlour.errors, IllegalAction);
    pyo3::import_exception!(parlour.errors, ParlourError);

    impl From<CoreError> for PyErr {
        fn from(error: CoreError) -> PyErr {
            match error {
                CoreError::Value(m) => PyValueError::new_err(m),
                CoreError::Type(m) => PyTypeError::new_err(m),
                CoreError::Illegal(m) => IllegalAction::new_err(m),
                CoreError::Deal(m) => DealError::new_err(m),
                CoreError::Parlour(m) => ParlourError::new_err(m),
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_message_is_the_text_whatever_the_kind() {
        let kinds = [
            CoreError::value("v"),
            CoreError::wrong_type("v"),
            CoreError::illegal("v"),
            CoreError::deal("v"),
            CoreError::parlour("v"),
        ];
        for e in kinds {
            assert_eq!((e.message(), e.to_string()), ("v", "v".to_string()));
        }
    }
}
