//! Locality-sensitive hashing of signatures: [`LshParams`] bands them into [`BandKey`]s, and
//! [`LshIndex`] groups pages by those keys (thesis §2.2; datasketch's `MinHashLSH`).

mod band;
mod index;
mod params;
mod quadrature;

pub use band::BandKey;
pub use index::{Candidate, LshIndex};
pub use params::LshParams;
