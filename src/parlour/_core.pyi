"""The compiled rules engines (the Rust crate in ``rust/``)."""

__version__: str
