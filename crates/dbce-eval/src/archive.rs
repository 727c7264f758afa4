//! A dataset as one WARC file: a `response` record per page.

use std::collections::BTreeMap;
use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::Path;

use dbce_warc::{NewRecord, WarcWriter};

use crate::{Dataset, DatasetPage, EvalError};

/// The `WARC-Date` of every record written by [`Dataset::write_warc`]: the datasets have one
/// capture per URL, so no other capture can come before or after it.
pub const EVAL_WARC_DATE: &str = "2020-01-01T00:00:00Z";

/// Record ids of an evaluation archive mapped to the page ids of its dataset.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct WarcMap {
    pages: BTreeMap<String, String>,
}

impl WarcMap {
    /// The page id of a `WARC-Record-ID`, if the archive holds it.
    pub fn page_id(&self, record_id: &str) -> Option<&str> {
        self.pages.get(record_id).map(String::as_str)
    }

    /// `(record id, page id)` pairs, ordered by record id.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.pages.iter().map(|(r, p)| (r.as_str(), p.as_str()))
    }

    /// Number of records.
    pub fn len(&self) -> usize {
        self.pages.len()
    }

    /// Whether the archive has no records.
    pub fn is_empty(&self) -> bool {
        self.pages.is_empty()
    }
}

impl Dataset {
    /// The page's `WARC-Record-ID`: `<urn:dbce:eval:{dataset}:{id}>` (characters other than
    /// ASCII letters, digits and `-._~` percent-encoded).
    pub fn record_id(&self, page: &DatasetPage) -> String {
        format!(
            "<urn:dbce:eval:{}:{}>",
            percent_encode(&self.name),
            percent_encode(&page.id)
        )
    }

    /// The page's `WARC-Target-URI`: its URL, or for a page without one
    /// `http://{label}.invalid/{id}`, where the label is `{dataset}-{id}` lowercased with
    /// every character other than `a-z0-9` replaced by `-` (at most 63 characters).
    ///
    /// The page is put in the host's one label before `.invalid`, not in the path: dbce groups
    /// pages by registrable domain (public suffix list, where an unknown top-level domain is
    /// one label), and `http://{dataset}.invalid/{id}` would put all such pages in one site.
    pub fn target_uri(&self, page: &DatasetPage) -> String {
        match &page.url {
            Some(url) => url.clone(),
            None => format!(
                "http://{}.invalid/{}",
                synthetic_label(&self.name, &page.id),
                percent_encode(&page.id)
            ),
        }
    }

    /// Writes one gzip WARC/1.1 file with a `response` record per page (see
    /// [`Dataset::write_warc_to`]) and returns the record-to-page map.
    ///
    /// # Errors
    /// Fails when the file cannot be written, an HTML file cannot be read, or two pages would
    /// share a target URI or a synthetic host.
    pub fn write_warc(&self, path: impl AsRef<Path>) -> Result<WarcMap, EvalError> {
        let path = path.as_ref();
        let file = File::create(path).map_err(EvalError::io(path))?;
        let out = self.write_warc_to(BufWriter::new(file), path)?;
        out.into_inner()
            .map_err(|e| EvalError::io(path)(e.into_error()))?
            .sync_all()
            .map_err(EvalError::io(path))?;
        Ok(self.warc_map())
    }

    /// Writes the archive to `out` (`path` names it in errors) and returns `out`.
    ///
    /// Each page becomes a `response` record: `HTTP/1.1 200 OK` with
    /// `Content-Type: text/html; charset=utf-8`, `Content-Length` and the HTML file's bytes;
    /// `WARC-Target-URI` from [`Dataset::target_uri`], `WARC-Record-ID` from
    /// [`Dataset::record_id`], `WARC-Date` [`EVAL_WARC_DATE`].
    ///
    /// # Errors
    /// As [`Dataset::write_warc`].
    pub fn write_warc_to<W: Write>(&self, out: W, path: &Path) -> Result<W, EvalError> {
        self.check_unique_targets()?;
        let mut writer = WarcWriter::new(out);
        for page in &self.pages {
            let html = page.read_html()?;
            let record = NewRecord::html_response(
                &self.record_id(page),
                EVAL_WARC_DATE,
                &self.target_uri(page),
                &html,
            );
            writer.write_record(&record).map_err(EvalError::io(path))?;
        }
        writer.finish().map_err(EvalError::io(path))
    }

    /// The record-to-page map of the archive [`Dataset::write_warc`] writes.
    pub fn warc_map(&self) -> WarcMap {
        let pages = self
            .pages
            .iter()
            .map(|page| (self.record_id(page), page.id.clone()))
            .collect();
        WarcMap { pages }
    }

    /// Two pages must neither share a URI (two captures of one URL) nor a synthetic host (one
    /// site for pages meant to stand alone).
    fn check_unique_targets(&self) -> Result<(), EvalError> {
        let mut uris: BTreeMap<String, &str> = BTreeMap::new();
        let mut hosts: BTreeMap<String, &str> = BTreeMap::new();
        for page in &self.pages {
            let clash = |first: &str, uri: String| EvalError::SharedTarget {
                dataset: self.name.clone(),
                first: first.to_owned(),
                second: page.id.clone(),
                uri,
            };
            let uri = self.target_uri(page);
            if page.url.is_none() {
                let host = synthetic_label(&self.name, &page.id);
                if let Some(first) = hosts.insert(host.clone(), &page.id) {
                    return Err(clash(first, format!("http://{host}.invalid/")));
                }
            }
            if let Some(first) = uris.insert(uri.clone(), &page.id) {
                return Err(clash(first, uri));
            }
        }
        Ok(())
    }
}

fn synthetic_label(dataset: &str, id: &str) -> String {
    let raw: String = format!("{dataset}-{id}")
        .chars()
        .map(|c| {
            let c = c.to_ascii_lowercase();
            if c.is_ascii_alphanumeric() { c } else { '-' }
        })
        .collect();
    let mut label = raw.trim_matches('-').to_owned();
    label.truncate(63);
    let label = label.trim_end_matches('-');
    if label.is_empty() {
        "page".to_owned()
    } else {
        label.to_owned()
    }
}

fn percent_encode(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for &b in s.as_bytes() {
        if b.is_ascii_alphanumeric() || b"-._~".contains(&b) {
            out.push(char::from(b));
        } else {
            out.push_str(&format!("%{b:02X}"));
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::path::PathBuf;

    use super::*;

    fn page(id: &str, url: Option<&str>) -> DatasetPage {
        DatasetPage {
            id: id.into(),
            url: url.map(Into::into),
            site: None,
            page_type: None,
            html_path: PathBuf::from("/nonexistent"),
            ground_truth: String::new(),
        }
    }

    fn dataset(pages: Vec<DatasetPage>) -> Dataset {
        Dataset {
            name: "Read_ability".into(),
            listed: pages.len() as u64,
            pages,
            missing: vec![],
        }
    }

    #[test]
    fn ids_and_uris_are_deterministic_and_encoded() {
        let set = dataset(vec![
            page("003-meta data", None),
            page("x", Some("http://a/")),
        ]);
        assert_eq!(
            set.record_id(&set.pages[0]),
            "<urn:dbce:eval:Read_ability:003-meta%20data>"
        );
        assert_eq!(
            set.target_uri(&set.pages[0]),
            "http://read-ability-003-meta-data.invalid/003-meta%20data"
        );
        assert_eq!(set.target_uri(&set.pages[1]), "http://a/");
        assert_eq!(synthetic_label("d", &"x".repeat(100)).len(), 63);
        assert_eq!(synthetic_label("", "..."), "page");
        assert_eq!(
            synthetic_label("d", &format!("{}.y", "x".repeat(60))),
            "d-".to_owned() + &"x".repeat(60)
        );
    }

    #[test]
    fn shared_targets_are_refused_before_writing() {
        let set = dataset(vec![page("A.b", None), page("a_b", None)]);
        let err = set.write_warc_to(Vec::new(), Path::new("mem")).unwrap_err();
        assert!(
            matches!(&err, EvalError::SharedTarget { first, second, .. } if first == "A.b" && second == "a_b"),
            "{err}"
        );
        let set = dataset(vec![
            page("1", Some("http://a/")),
            page("2", Some("http://a/")),
        ]);
        let err = set.write_warc_to(Vec::new(), Path::new("mem")).unwrap_err();
        assert!(matches!(err, EvalError::SharedTarget { uri, .. } if uri == "http://a/"));
    }

    #[test]
    fn a_missing_html_file_is_an_error_naming_it() {
        let set = dataset(vec![page("1", None)]);
        let err = set.write_warc_to(Vec::new(), Path::new("mem")).unwrap_err();
        assert!(matches!(err, EvalError::Io { path, .. } if path == Path::new("/nonexistent")));
    }
}
