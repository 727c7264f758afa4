//! Helpers shared by the tests and examples of this crate.

pub(crate) mod fnv;
