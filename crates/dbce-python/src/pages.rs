//! `extract`, `clean_site` and `run`: one page, one site, whole archives.

use std::path::PathBuf;

use dbce_extract::{decode_page, extract_page};
use dbce_output::TextRecord;
use dbce_pipeline::site::SitePage;
use dbce_pipeline::{Config, WorkDir, run_local};
use pyo3::exceptions::{PyTypeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyString};

use crate::errors::{DbceError, extract_error, stage_error};

/// A page's HTML: `str` as given, `bytes` decoded as `dbce extract` decodes a file.
fn html_text(html: &Bound<'_, PyAny>, url: &str) -> PyResult<String> {
    if let Ok(text) = html.downcast::<PyString>() {
        return Ok(text.to_cow()?.into_owned());
    }
    if let Ok(bytes) = html.downcast::<PyBytes>() {
        return Ok(decode_page(bytes.as_bytes(), url));
    }
    Err(PyTypeError::new_err("html must be str or bytes"))
}

/// The configuration: defaults, or a TOML file as `dbce --config FILE` reads it.
fn load_config(path: Option<PathBuf>) -> PyResult<Config> {
    let Some(path) = path else {
        return Ok(Config::default());
    };
    let text = std::fs::read_to_string(&path).map_err(|e| {
        pyo3::exceptions::PyOSError::new_err(format!("cannot read {}: {e}", path.display()))
    })?;
    let config: Config = toml::from_str(&text).map_err(|e| {
        PyValueError::new_err(format!("invalid configuration in {}: {e}", path.display()))
    })?;
    config
        .validate()
        .map_err(|e| PyValueError::new_err(format!("invalid configuration: {e}")))?;
    Ok(config)
}

/// A JSON value as the Python object `json.loads` makes of it.
fn json_to_python(py: Python<'_>, json: &str) -> PyResult<PyObject> {
    Ok(py.import("json")?.call_method1("loads", (json,))?.unbind())
}

/// The main content of one page, classified alone as `dbce run` classifies a page without
/// partners (byte-identical text). `html` is `str`, or `bytes` whose encoding is detected;
/// `url` helps guess the page type. `format` is `"txt"` (one block per line), `"markdown"` or
/// `"json"` (the object `dbce extract --format json` prints). `config` is a TOML file.
#[pyfunction]
#[pyo3(signature = (html, url = None, format = "txt", config = None))]
pub(crate) fn extract(
    py: Python<'_>,
    html: &Bound<'_, PyAny>,
    url: Option<String>,
    format: &str,
    config: Option<PathBuf>,
) -> PyResult<String> {
    if !matches!(format, "txt" | "markdown" | "json") {
        return Err(PyValueError::new_err(format!(
            "format must be \"txt\", \"markdown\" or \"json\", got {format:?}"
        )));
    }
    let url = url.unwrap_or_default();
    let html = html_text(html, &url)?;
    let mut config = load_config(config)?;
    config.annotate.markdown = format != "txt";
    let page = py
        .allow_threads(|| extract_page(&html, &url, &config))
        .map_err(extract_error)?;
    match format {
        "txt" => Ok(page.text),
        "markdown" => Ok(page.markdown.unwrap_or_default()),
        _ => serde_json::to_string(&page).map_err(|e| DbceError::new_err(e.to_string())),
    }
}

/// Cleans one site's pages against each other as `dbce run` does: `pages` is a list of
/// `(url, date, html)` (`date` a WARC-Date such as `"2024-05-01T12:00:00Z"`, `html` `str` or
/// `bytes`). Returns one `dict` per page, in order: the fields of `dbce run`'s JSONL (`id`,
/// `url`, `date`, `site`, `title`, `text`, `markdown` when asked for, `method`,
/// `decided_by`, `empty_reason`, `page_type`, `cross`, `runs`, …), or for a page that could
/// not be read `{"url", "date", "skipped": reason}`.
#[pyfunction]
#[pyo3(signature = (pages, markdown = false, config = None))]
pub(crate) fn clean_site(
    py: Python<'_>,
    pages: Vec<(String, String, Bound<'_, PyAny>)>,
    markdown: bool,
    config: Option<PathBuf>,
) -> PyResult<Vec<PyObject>> {
    let mut config = load_config(config)?;
    config.annotate.markdown |= markdown;
    let pages: Vec<SitePage> = pages
        .into_iter()
        .map(|(url, date, html)| {
            let html = html_text(&html, &url)?;
            Ok(SitePage { url, date, html })
        })
        .collect::<PyResult<_>>()?;
    let cleaned = py
        .allow_threads(|| dbce_pipeline::site::clean_site(&pages, &config))
        .map_err(stage_error)?;
    pages
        .iter()
        .zip(cleaned)
        .map(|(given, result)| {
            let json = match result {
                Ok(page) => {
                    let mut record = serde_json::to_value(TextRecord::of(&page, ""))
                        .map_err(|e| DbceError::new_err(e.to_string()))?;
                    // The page's place in the temporary archive means nothing to the caller.
                    if let Some(object) = record.as_object_mut() {
                        object.remove("source");
                    }
                    record
                }
                Err(reason) => serde_json::json!({
                    "url": given.url,
                    "date": given.date,
                    "skipped": reason,
                }),
            };
            json_to_python(py, &json.to_string())
        })
        .collect()
}

/// Runs the whole pipeline as `dbce run` does: `inputs` (WARC/ARC files or folders of them)
/// into `out` (`text/`, `warc/`, `index/`, `report.json`). `work` is the work directory
/// (default `out/work`), `threads` the worker threads (default all cores), `shards` the read
/// shards (default 4 per thread); neither changes the output. Returns `report.json` as a dict.
#[pyfunction]
#[pyo3(signature = (inputs, out, work = None, threads = None, shards = None, markdown = false, config = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn run(
    py: Python<'_>,
    inputs: Vec<PathBuf>,
    out: PathBuf,
    work: Option<PathBuf>,
    threads: Option<usize>,
    shards: Option<u32>,
    markdown: bool,
    config: Option<PathBuf>,
) -> PyResult<PyObject> {
    let mut config = load_config(config)?;
    config.annotate.markdown |= markdown;
    let inputs = dbce_pipeline::inputs::expand_inputs(&inputs).map_err(stage_error)?;
    if inputs.is_empty() {
        return Err(PyValueError::new_err("no WARC/ARC files among the inputs"));
    }
    let work = WorkDir::new(work.unwrap_or_else(|| out.join("work")));
    let mut pool = rayon::ThreadPoolBuilder::new();
    if let Some(threads) = threads {
        pool = pool.num_threads(threads);
    }
    let pool = pool
        .build()
        .map_err(|e| DbceError::new_err(format!("cannot start the worker threads: {e}")))?;
    let shards =
        shards.unwrap_or_else(|| u32::try_from(pool.current_num_threads() * 4).unwrap_or(4));
    let report = py
        .allow_threads(|| {
            pool.install(|| run_local(&work, &config, &inputs, &out, shards, &|_, _, _| {}))
        })
        .map_err(stage_error)?;
    let json = serde_json::to_string(&report).map_err(|e| DbceError::new_err(e.to_string()))?;
    json_to_python(py, &json)
}
