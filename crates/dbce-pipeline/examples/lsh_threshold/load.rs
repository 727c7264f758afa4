//! Development pages with their site and template: from folders of HTML files or from a
//! generated WARC with its ground truth.

use std::collections::BTreeMap;
use std::error::Error;
use std::fs::File;
use std::io::{BufRead as _, BufReader};
use std::path::{Path, PathBuf};

use dbce_dom::Document;
use dbce_http::HttpLimits;
use dbce_minhash::{MinHasher, Signature};
use dbce_page::captured_html;
use dbce_pipeline::Config;
use dbce_warc::{Entry, ReaderConfig, RecordType, WarcReader};
use rayon::prelude::*;
use serde::Deserialize;

/// A page as grouping sees it.
pub(crate) struct Page {
    /// Pages are grouped only within a site.
    pub(crate) site: String,
    /// Other captures of the same URL are not partners (they are the cross's `prev`/`next`).
    pub(crate) url: String,
    /// The template the page was made from, where the dataset knows it.
    pub(crate) template: Option<String>,
    /// MinHash of the page's template tokens.
    pub(crate) signature: Signature,
}

/// What a page is known as before it is parsed.
struct Labelled {
    site: String,
    url: String,
    template: Option<String>,
    html: String,
}

/// One line of a dataset's `meta.jsonl`.
#[derive(Deserialize)]
struct Meta {
    id: String,
    url: Option<String>,
    site: Option<String>,
    template_group: Option<String>,
}

/// One line of a generated archive's `.truth.jsonl`.
#[derive(Deserialize)]
struct Truth {
    id: String,
    template: Option<String>,
}

/// The pages of `path`: a folder with `meta.jsonl` and `html/ID.html`, or a WARC file with a
/// `.truth.jsonl` beside it. Pages that do not parse are left out and counted on stderr.
pub(crate) fn load(path: &Path, config: &Config) -> Result<Vec<Page>, Box<dyn Error>> {
    let labelled = if path.is_dir() {
        from_dir(path)?
    } else {
        from_warc(path, config)?
    };
    let hasher = MinHasher::new(config.minhash)?;
    let found = labelled.len();
    let pages: Vec<Page> = labelled
        .into_par_iter()
        .filter_map(|page| {
            let document = Document::parse(&page.html, &config.sanitize).ok()?;
            let signature = hasher.signature(document.template_tokens());
            Some(Page {
                site: page.site,
                url: page.url,
                template: page.template,
                signature,
            })
        })
        .collect();
    if pages.len() < found {
        eprintln!(
            "{}: {} of {found} pages did not parse",
            path.display(),
            found - pages.len()
        );
    }
    Ok(pages)
}

fn from_dir(dir: &Path) -> Result<Vec<Labelled>, Box<dyn Error>> {
    let mut pages = Vec::new();
    for line in BufReader::new(File::open(dir.join("meta.jsonl"))?).lines() {
        let meta: Meta = serde_json::from_str(&line?)?;
        let bytes = std::fs::read(dir.join("html").join(format!("{}.html", meta.id)))?;
        // The files were re-encoded as UTF-8; a `<meta charset>` inside may still name the
        // original encoding, which an HTTP charset overrides.
        let html = dbce_http::decode_html(&bytes, Some("text/html; charset=utf-8")).text;
        // A page without a site stands alone: its id makes a site of its own.
        let site = meta.site.unwrap_or_else(|| format!("#{}", meta.id));
        let url = meta.url.unwrap_or_else(|| format!("#{}", meta.id));
        pages.push(Labelled {
            site,
            url,
            template: meta.template_group,
            html,
        });
    }
    Ok(pages)
}

fn from_warc(warc: &Path, config: &Config) -> Result<Vec<Labelled>, Box<dyn Error>> {
    let truth = read_truth(&truth_path(warc))?;
    let reader_config = ReaderConfig {
        keep_bodies: Some(vec![RecordType::Response, RecordType::Resource]),
        ..ReaderConfig::default()
    };
    let limits = HttpLimits {
        max_decoded_bytes: config.read.max_decoded_bytes,
        ..HttpLimits::default()
    };
    let reader = WarcReader::new(BufReader::new(File::open(warc)?), reader_config)?;
    let mut pages = Vec::new();
    for entry in reader {
        let Entry::Record(record) = entry? else {
            continue;
        };
        let Ok(captured) = captured_html(&record, &limits) else {
            continue;
        };
        let template = record
            .header
            .record_id()
            .and_then(|id| truth.get(id).cloned().flatten());
        pages.push(Labelled {
            site: captured.site.0,
            url: captured.url,
            template,
            html: captured.html,
        });
    }
    Ok(pages)
}

/// `X.warc.gz` → `X.truth.jsonl`, as `dbce-synth` names its ground truth.
fn truth_path(warc: &Path) -> PathBuf {
    let name = warc
        .file_name()
        .and_then(|n| n.to_str())
        .unwrap_or_default();
    let stem = name.trim_end_matches(".gz").trim_end_matches(".warc");
    warc.with_file_name(format!("{stem}.truth.jsonl"))
}

fn read_truth(path: &Path) -> Result<BTreeMap<String, Option<String>>, Box<dyn Error>> {
    let mut templates = BTreeMap::new();
    for line in BufReader::new(File::open(path)?).lines() {
        let truth: Truth = serde_json::from_str(&line?)?;
        templates.insert(truth.id, truth.template);
    }
    Ok(templates)
}
