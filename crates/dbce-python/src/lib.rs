//! The `dbce` Python package's native module (`dbce._dbce`): archives with their offsets and
//! skips, the main content of one page, a site's pages cleaned against each other, whole runs,
//! and datasketch-exact MinHash.
//!
//! Every function is a thin call into the workspace's libraries: `extract` is
//! `dbce_extract::extract_page` (the single-page route of `dbce run`), `clean_site`
//! is `dbce_pipeline::site::clean_site` (stages `read`, `group` and `annotate`), `run` is
//! `dbce_pipeline::run_local`. Heavy work runs with the GIL released. Built by maturin
//! (`pyproject.toml` at the repository root), which enables `extension-module`.

use pyo3::prelude::*;

mod archive;
mod errors;
mod minhash;
mod pages;

/// The native module; `dbce/__init__.py` re-exports it.
#[pymodule]
fn _dbce(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add("DbceError", m.py().get_type::<errors::DbceError>())?;
    m.add_class::<archive::ArchiveReader>()?;
    m.add_class::<archive::Record>()?;
    m.add_class::<archive::Skip>()?;
    m.add_class::<minhash::MinHash>()?;
    m.add_function(wrap_pyfunction!(pages::extract, m)?)?;
    m.add_function(wrap_pyfunction!(pages::clean_site, m)?)?;
    m.add_function(wrap_pyfunction!(pages::run, m)?)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
