//! The stages of dbce as map/merge steps over shards: intermediate files, plans, reports.
//!
//! [`artifact`] holds the format every stage writes its intermediate files in.
#![deny(missing_docs)]

pub mod artifact;
