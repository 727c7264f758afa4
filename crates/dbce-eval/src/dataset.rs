//! Evaluation datasets on disk: `meta.jsonl`, `html/<id>.html` (or `html/<id>.html.gz`),
//! `gt/<id>.txt`.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::io::Read as _;
use std::path::{Path, PathBuf};

use serde::{Deserialize, Deserializer};

use crate::report::Split;
use crate::{EvalError, TruthPage};

/// An evaluation dataset: pages with their HTML file and ground-truth text.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Dataset {
    /// The dataset's name: its directory's name. It appears in record ids and synthetic URLs.
    pub name: String,
    /// The pages listed in `meta.jsonl` whose HTML and ground-truth files both exist, in the
    /// order of `meta.jsonl`.
    pub pages: Vec<DatasetPage>,
    /// Files of listed pages that do not exist; such pages are not in `pages`.
    pub missing: Vec<MissingFile>,
    /// How many pages `meta.jsonl` lists (`pages` plus those with a missing file).
    pub listed: u64,
}

/// One page of a [`Dataset`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DatasetPage {
    /// The page id (file stem of its HTML and ground-truth files).
    pub id: String,
    /// The page's URL; `None` where the dataset gives none (the page then stands alone).
    pub url: Option<String>,
    /// The registrable domain of `url`, as `meta.jsonl` gives it.
    pub site: Option<String>,
    /// The page's type (`article`, `forum`, `listing`, …) where `meta.jsonl` gives one.
    pub page_type: Option<String>,
    /// `html/<id>.html`, or `html/<id>.html.gz` when only the gzipped file exists (read it
    /// with [`DatasetPage::read_html`]).
    pub html_path: PathBuf,
    /// The content of `gt/<id>.txt`, with `\r\n` and `\r` read as `\n` (as Python's text mode
    /// reads it in `score.py`).
    pub ground_truth: String,
}

/// A file a listed page lacks.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MissingFile {
    /// The page id.
    pub id: String,
    /// Which file.
    pub kind: FileKind,
    /// Where it was expected.
    pub path: PathBuf,
}

/// The two files of a page.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum FileKind {
    /// `html/<id>.html` (or `html/<id>.html.gz`).
    Html,
    /// `gt/<id>.txt`.
    GroundTruth,
}

/// One line of `meta.jsonl`: `id` and `url` are required (`url` may be null); `site` and
/// `page_type` are optional; other fields are ignored.
#[derive(Deserialize)]
struct MetaLine {
    id: String,
    #[serde(default, deserialize_with = "present")]
    url: Option<Option<String>>,
    #[serde(default)]
    site: Option<String>,
    #[serde(default)]
    page_type: Option<String>,
}

/// Tells a `null` field (`Some(None)`) from an absent one (`None`).
fn present<'de, D: Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

impl Dataset {
    /// Reads the dataset in `dir`.
    ///
    /// Pages whose HTML or ground-truth file is missing are listed in [`Dataset::missing`]
    /// and counted in [`Dataset::listed`], never silently dropped.
    ///
    /// # Errors
    /// Fails when `meta.jsonl` cannot be read, a line is not an object with a string `id` and
    /// a `url` (string or null), an id is repeated or cannot be a file name, or a ground-truth
    /// file cannot be read or is not UTF-8.
    pub fn load(dir: impl AsRef<Path>) -> Result<Self, EvalError> {
        let dir = dir.as_ref();
        let name = dataset_name(dir)?;
        let meta_path = dir.join("meta.jsonl");
        let meta = read_text(&meta_path)?;
        let mut dataset = Dataset {
            name,
            pages: Vec::new(),
            missing: Vec::new(),
            listed: 0,
        };
        let mut seen = BTreeSet::new();
        for (index, line) in meta.lines().enumerate() {
            if line.trim().is_empty() {
                continue;
            }
            let line_no = index as u64 + 1;
            let meta = parse_meta(&meta_path, line_no, line)?;
            if !seen.insert(meta.id.clone()) {
                return Err(EvalError::DuplicateId {
                    path: meta_path,
                    line: line_no,
                    id: meta.id,
                });
            }
            dataset.listed += 1;
            dataset.add_page(dir, meta)?;
        }
        Ok(dataset)
    }

    fn add_page(&mut self, dir: &Path, meta: MetaLine) -> Result<(), EvalError> {
        let html_path = dir.join("html").join(format!("{}.html", meta.id));
        let gzipped = dir.join("html").join(format!("{}.html.gz", meta.id));
        let html_path = if !html_path.is_file() && gzipped.is_file() {
            gzipped
        } else {
            html_path
        };
        let gt_path = dir.join("gt").join(format!("{}.txt", meta.id));
        let mut complete = true;
        for (kind, path) in [
            (FileKind::Html, &html_path),
            (FileKind::GroundTruth, &gt_path),
        ] {
            if !path.is_file() {
                complete = false;
                self.missing.push(MissingFile {
                    id: meta.id.clone(),
                    kind,
                    path: path.clone(),
                });
            }
        }
        if complete {
            self.pages.push(DatasetPage {
                ground_truth: read_text(&gt_path)?,
                id: meta.id,
                // An empty URL is no URL: the page stands alone.
                url: meta.url.flatten().filter(|u| !u.trim().is_empty()),
                site: meta.site,
                // An empty type is no type, as an empty URL is no URL.
                page_type: meta.page_type.filter(|t| !t.trim().is_empty()),
                html_path,
            });
        }
        Ok(())
    }

    /// How many pages of this dataset each site has (pages with a URL and a site only).
    pub fn site_sizes(&self) -> BTreeMap<String, u64> {
        let mut sizes = BTreeMap::new();
        for page in &self.pages {
            if let (Some(_), Some(site)) = (&page.url, &page.site) {
                *sizes.entry(site.clone()).or_insert(0) += 1;
            }
        }
        sizes
    }

    /// Each page's split, in the order of [`Dataset::pages`]: [`Split::Multi`] when its site
    /// has other pages in the dataset, else [`Split::Alone`] (always for pages without URL).
    pub fn splits(&self) -> Vec<Split> {
        let sizes = self.site_sizes();
        self.pages
            .iter()
            .map(|page| match (&page.url, &page.site) {
                (Some(_), Some(site)) if sizes.get(site).copied().unwrap_or(0) > 1 => Split::Multi,
                _ => Split::Alone,
            })
            .collect()
    }
}

impl DatasetPage {
    /// The page's HTML bytes, gunzipped when [`DatasetPage::html_path`] ends in `.gz`.
    ///
    /// # Errors
    /// Fails when the file cannot be read or is not valid gzip.
    pub fn read_html(&self) -> Result<Vec<u8>, EvalError> {
        let path = &self.html_path;
        let bytes = fs::read(path).map_err(EvalError::io(path))?;
        if path.extension().is_none_or(|ext| ext != "gz") {
            return Ok(bytes);
        }
        let mut html = Vec::with_capacity(bytes.len() * 4);
        flate2::read::MultiGzDecoder::new(bytes.as_slice())
            .read_to_end(&mut html)
            .map_err(EvalError::io(path))?;
        Ok(html)
    }
}

impl Dataset {
    /// Every page with its ground truth, record id, split and type, in the order of
    /// [`Dataset::pages`].
    pub fn truth_pages(&self) -> Vec<TruthPage> {
        self.pages
            .iter()
            .zip(self.splits())
            .map(|(page, split)| TruthPage {
                dataset: self.name.clone(),
                page_id: page.id.clone(),
                record_id: self.record_id(page),
                split,
                page_type: page.page_type.clone(),
                text: page.ground_truth.clone(),
            })
            .collect()
    }
}

fn dataset_name(dir: &Path) -> Result<String, EvalError> {
    let named = |p: &Path| p.file_name().and_then(|n| n.to_str()).map(str::to_owned);
    let name = match named(dir) {
        Some(name) => Some(name),
        None => fs::canonicalize(dir)
            .ok()
            .and_then(|canonical| named(&canonical)),
    };
    name.filter(|n| !n.is_empty())
        .ok_or_else(|| EvalError::BadDatasetName {
            path: dir.to_owned(),
        })
}

fn parse_meta(path: &Path, line_no: u64, line: &str) -> Result<MetaLine, EvalError> {
    let malformed = |reason: String| EvalError::MalformedLine {
        path: path.to_owned(),
        line: line_no,
        reason,
    };
    let meta: MetaLine = serde_json::from_str(line).map_err(|e| malformed(e.to_string()))?;
    if meta.url.is_none() {
        return Err(malformed("missing field `url` (null when unknown)".into()));
    }
    let id = meta.id.as_str();
    if id.is_empty() || id == "." || id == ".." || id.contains(['/', '\\', '\0']) {
        return Err(EvalError::BadPageId {
            path: path.to_owned(),
            line: line_no,
            id: meta.id,
        });
    }
    Ok(meta)
}

/// A UTF-8 text file, line ends normalised as Python's text mode does.
pub(crate) fn read_text(path: &Path) -> Result<String, EvalError> {
    let bytes = fs::read(path).map_err(EvalError::io(path))?;
    let text = String::from_utf8(bytes).map_err(|_| EvalError::NotUtf8 {
        path: path.to_owned(),
    })?;
    Ok(if text.contains('\r') {
        text.replace("\r\n", "\n").replace('\r', "\n")
    } else {
        text
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn write_dataset(dir: &Path, meta: &str, pages: &[(&str, bool, bool)]) {
        fs::create_dir_all(dir.join("html")).unwrap();
        fs::create_dir_all(dir.join("gt")).unwrap();
        fs::write(dir.join("meta.jsonl"), meta).unwrap();
        for (id, html, gt) in pages {
            if *html {
                fs::write(dir.join(format!("html/{id}.html")), "<p>x</p>").unwrap();
            }
            if *gt {
                fs::write(
                    dir.join(format!("gt/{id}.txt")),
                    "line one\r\nline two\rend",
                )
                .unwrap();
            }
        }
    }

    #[test]
    fn missing_files_are_reported_and_counted() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("set");
        let meta = concat!(
            r#"{"id": "a", "url": "http://x.example/a", "site": "x.example", "page_type": "forum"}"#,
            "\n",
            r#"{"id": "b", "url": null, "site": null, "host": null}"#,
            "\n\n",
            r#"{"id": "c", "url": "http://x.example/c", "site": "x.example"}"#,
            "\n",
        );
        write_dataset(
            &dir,
            meta,
            &[("a", true, true), ("b", true, false), ("c", false, false)],
        );
        let set = Dataset::load(&dir).unwrap();
        assert_eq!(set.name, "set");
        assert_eq!(set.listed, 3);
        let ids: Vec<&str> = set.pages.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(ids, ["a"]);
        assert_eq!(set.pages[0].ground_truth, "line one\nline two\nend");
        assert_eq!(set.pages[0].page_type.as_deref(), Some("forum"));
        let missing: Vec<(&str, FileKind)> = set
            .missing
            .iter()
            .map(|m| (m.id.as_str(), m.kind))
            .collect();
        assert_eq!(
            missing,
            [
                ("b", FileKind::GroundTruth),
                ("c", FileKind::Html),
                ("c", FileKind::GroundTruth)
            ]
        );
        assert_eq!(set.missing[0].path, dir.join("gt/b.txt"));
    }

    #[test]
    fn malformed_meta_lines_name_file_and_line() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("bad");
        let cases = [
            (
                "{\"id\": \"a\", \"url\": null}\n{\"id\": 3, \"url\": null}\n",
                2,
                "invalid type",
            ),
            ("{\"id\": \"a\"}\n", 1, "missing field `url`"),
            ("{\"url\": null}\n", 1, "missing field `id`"),
            ("{\"id\": \"a\", \"url\": null\n", 1, "EOF"),
        ];
        for (meta, line, reason) in cases {
            write_dataset(&dir, meta, &[("a", true, true)]);
            match Dataset::load(&dir) {
                Err(EvalError::MalformedLine {
                    line: l, reason: r, ..
                }) => {
                    assert_eq!(l, line, "{meta}");
                    assert!(r.contains(reason), "{r} lacks {reason}");
                }
                other => panic!("{meta}: {other:?}"),
            }
        }
    }

    #[test]
    fn bad_ids_and_duplicates_are_errors() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("ids");
        write_dataset(&dir, "{\"id\": \"../x\", \"url\": null}\n", &[]);
        assert!(matches!(
            Dataset::load(&dir),
            Err(EvalError::BadPageId { line: 1, .. })
        ));
        let meta = "{\"id\": \"a\", \"url\": null}\n{\"id\": \"a\", \"url\": null}\n";
        write_dataset(&dir, meta, &[("a", true, true)]);
        assert!(matches!(
            Dataset::load(&dir),
            Err(EvalError::DuplicateId { line: 2, .. })
        ));
        assert!(matches!(
            Dataset::load(tmp.path().join("absent")),
            Err(EvalError::Io { .. })
        ));
    }

    #[test]
    fn ground_truth_must_be_utf8() {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("enc");
        write_dataset(
            &dir,
            "{\"id\": \"a\", \"url\": null}\n",
            &[("a", true, false)],
        );
        fs::write(dir.join("gt/a.txt"), b"caf\xe9").unwrap();
        assert!(matches!(
            Dataset::load(&dir),
            Err(EvalError::NotUtf8 { .. })
        ));
    }

    #[test]
    fn gzipped_html_and_page_types_are_read() {
        use std::io::Write as _;
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("typed");
        let meta = concat!(
            r#"{"id": "a", "url": null, "page_type": "forum"}"#,
            "\n",
            r#"{"id": "b", "url": null, "page_type": ""}"#,
            "\n",
        );
        write_dataset(&dir, meta, &[("a", false, true), ("b", true, true)]);
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::fast());
        gz.write_all(b"<p>zipped</p>").unwrap();
        fs::write(dir.join("html/a.html.gz"), gz.finish().unwrap()).unwrap();
        let set = Dataset::load(&dir).unwrap();
        assert!(set.missing.is_empty(), "{:?}", set.missing);
        assert_eq!(set.pages[0].html_path, dir.join("html/a.html.gz"));
        assert_eq!(set.pages[0].read_html().unwrap(), b"<p>zipped</p>");
        assert_eq!(set.pages[0].page_type.as_deref(), Some("forum"));
        assert_eq!(set.pages[1].read_html().unwrap(), b"<p>x</p>");
        assert_eq!(set.pages[1].page_type, None);
        fs::write(dir.join("html/a.html.gz"), b"not gzip").unwrap();
        assert!(matches!(
            Dataset::load(&dir).unwrap().pages[0].read_html(),
            Err(EvalError::Io { .. })
        ));
    }

    #[test]
    fn splits_follow_site_sizes() {
        let page = |id: &str, url: Option<&str>, site: Option<&str>| DatasetPage {
            id: id.into(),
            url: url.map(Into::into),
            site: site.map(Into::into),
            page_type: None,
            html_path: PathBuf::new(),
            ground_truth: String::new(),
        };
        let set = Dataset {
            name: "t".into(),
            pages: vec![
                page("1", Some("http://a.example/1"), Some("a.example")),
                page("2", None, Some("a.example")),
                page("3", Some("http://b.example/"), Some("b.example")),
                page("4", Some("http://www.a.example/4"), Some("a.example")),
                page("5", Some("http://c.example/"), None),
            ],
            missing: vec![],
            listed: 5,
        };
        let sizes: Vec<(String, u64)> = set.site_sizes().into_iter().collect();
        assert_eq!(sizes, [("a.example".into(), 2), ("b.example".into(), 1)]);
        use Split::{Alone, Multi};
        assert_eq!(set.splits(), [Multi, Alone, Alone, Multi, Alone]);
    }
}
