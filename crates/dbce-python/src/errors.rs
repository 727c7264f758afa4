//! The library errors as Python exceptions.

use dbce_extract::ExtractError;
use dbce_pipeline::StageError;
use pyo3::PyErr;
use pyo3::exceptions::{PyException, PyOSError, PyValueError};

pyo3::create_exception!(
    dbce,
    DbceError,
    PyException,
    "A page, archive or configuration dbce cannot work with."
);

/// A stage error: `OSError` when a file cannot be opened, read or written, `DbceError`
/// otherwise.
pub(crate) fn stage_error(error: StageError) -> PyErr {
    match error {
        StageError::Input { .. } | StageError::Output { .. } | StageError::Merge(_) => {
            PyOSError::new_err(error.to_string())
        }
        StageError::Config(_) => PyValueError::new_err(error.to_string()),
        other => DbceError::new_err(other.to_string()),
    }
}

/// An extraction error: `ValueError` for a bad configuration, `DbceError` for a page dbce
/// cannot parse.
pub(crate) fn extract_error(error: ExtractError) -> PyErr {
    match error {
        ExtractError::Config(_) => PyValueError::new_err(error.to_string()),
        other => DbceError::new_err(other.to_string()),
    }
}
