//! The rules engines of parlour, one module per family, in plain Rust.
//!
//! The Python bindings (the extension module `parlour._core`) are in [`python`], compiled only
//! with the `python` feature; everything else is tested by `cargo test` without Python.

// Unsafe code is refused everywhere but where an item allows it with its reason: the one place
// is choosing a function compiled for the processor's vector instructions at run time.
#![deny(unsafe_code)]

pub mod climbing;
pub mod env;
// What the bindings refuse, by the Python exception each refusal raises.
pub mod error;
// The bindings' shared action objects by value, and the climbing action index's numbering.
mod interned;
pub mod pyrandom;
pub mod rummy;
pub mod sim;
// The presets and helpers the tests of several modules share.
#[cfg(test)]
mod test_support;
pub mod trump;

#[cfg(feature = "python")]
mod python;
