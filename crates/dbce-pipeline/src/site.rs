//! A site's pages given in memory, cleaned by stages `read`, `group` and `annotate` (Python's
//! `dbce.clean_site`).
//!
//! The pages are written as one archive of `response` records into a temporary directory that
//! also holds the work directory; both are removed when the call returns. The stages are the
//! ones `dbce run` runs, so each page's text is the one `dbce run` writes for the same pages
//! in an archive of their own.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use dbce_warc::{NewRecord, WarcWriter};

use crate::annotate::{self, ANNOTATED};
use crate::skips::SkipLine;
use crate::{Config, SkipReason, StageError, WorkDir, run_stage1};
use dbce_artifact::ArtifactReader;
use dbce_extract::AnnotatedPage;

/// One capture of a page of the site.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SitePage {
    /// The captured URL (absolute, `http` or `https`).
    pub url: String,
    /// The capture time as a `WARC-Date` (ISO 8601, e.g. `2024-05-01T12:00:00Z`).
    pub date: String,
    /// The page's HTML.
    pub html: String,
}

/// The record id a page of [`clean_site`] gets: its position in the list.
pub fn site_record_id(index: usize) -> String {
    format!("<urn:dbce:site-page:{index}>")
}

/// What became of each page, in the order given: the annotated page, or why it was skipped (a
/// reason of stage `read` such as `bad-warc-date` or `not-html`, as in `read/skips`).
///
/// ```
/// use dbce_pipeline::{Config, site::{SitePage, clean_site}};
///
/// let page = |path: &str, body: &str| SitePage {
///     url: format!("https://example.com/{path}"),
///     date: "2024-05-01T12:00:00Z".into(),
///     html: format!("<html><body><nav>Home About Contact</nav><p>{body}</p></body></html>"),
/// };
/// let pages = [page("a", "First story about rivers"), page("b", "Second story about hills")];
/// let cleaned = clean_site(&pages, &Config::default())?;
/// assert_eq!(cleaned.len(), 2);
/// assert!(cleaned.iter().all(Result::is_ok));
/// # Ok::<(), dbce_pipeline::StageError>(())
/// ```
///
/// # Errors
/// Fails when the configuration is invalid or the temporary files cannot be written or read.
pub fn clean_site(
    pages: &[SitePage],
    config: &Config,
) -> Result<Vec<Result<AnnotatedPage, String>>, StageError> {
    let temp = tempfile::Builder::new()
        .prefix("dbce-site-")
        .tempdir()
        .map_err(|source| StageError::Output {
            path: std::env::temp_dir(),
            source,
        })?;
    let archive = temp.path().join("site.warc.gz");
    write_archive(pages, &archive)?;
    let work = WorkDir::new(temp.path().join("work"));
    run_stage1(&work, config, std::slice::from_ref(&archive), 1)?;
    let mut by_id: BTreeMap<String, AnnotatedPage> = BTreeMap::new();
    for shard in 0..config.annotate_shards() {
        annotate::run_annotate(&work, config, shard)?;
        let path = work.annotated_pages(shard);
        for page in ArtifactReader::<AnnotatedPage>::open(&path, ANNOTATED)? {
            let page = page?;
            by_id.insert(page.page.record_id.clone(), page);
        }
    }
    let skips = read_skips(&work.read_skips(0))?;
    Ok((0..pages.len())
        .map(|index| {
            let id = site_record_id(index);
            by_id.remove(&id).ok_or_else(|| {
                skips
                    .get(&id)
                    .map_or_else(|| "not-annotated".to_owned(), ToString::to_string)
            })
        })
        .collect())
}

/// Writes `pages` as `response` records (HTTP 200, `text/html; charset=utf-8`) to `path`.
fn write_archive(pages: &[SitePage], path: &Path) -> Result<(), StageError> {
    let output = |source| StageError::Output {
        path: path.to_owned(),
        source,
    };
    let file = std::fs::File::create(path).map_err(output)?;
    let mut writer = WarcWriter::new(std::io::BufWriter::new(file));
    for (index, page) in pages.iter().enumerate() {
        let record = NewRecord::html_response(
            &site_record_id(index),
            page.date.trim(),
            page.url.trim(),
            page.html.as_bytes(),
        );
        writer.write_record(&record).map_err(output)?;
    }
    let mut buffered = writer.finish().map_err(output)?;
    std::io::Write::flush(&mut buffered).map_err(output)
}

/// The reasons of stage `read`'s skips by record id.
fn read_skips(path: &PathBuf) -> Result<BTreeMap<String, SkipReason>, StageError> {
    let unreadable = |source| StageError::Input {
        path: path.clone(),
        source,
    };
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(error) if error.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(error) => return Err(unreadable(error)),
    };
    let mut reasons = BTreeMap::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let skip: SkipLine =
            serde_json::from_str(line).map_err(|error| unreadable(std::io::Error::other(error)))?;
        if let Some(id) = skip.record_id {
            reasons.insert(id, skip.reason);
        }
    }
    Ok(reasons)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn page(path: &str, body: &str) -> SitePage {
        SitePage {
            url: format!("https://shop.example.com/{path}"),
            date: "2024-05-01T12:00:00Z".into(),
            html: format!(
                "<html><head><title>{path}</title></head><body>\
                 <nav><a href=/>Home</a> <a href=/about>About us</a> <a href=/c>Contact</a></nav>\
                 <div class=main><p>{body}</p></div>\
                 <footer>Example shop, 1 Main Street, open daily</footer></body></html>"
            ),
        }
    }

    #[test]
    fn pages_of_one_site_are_cleaned_against_each_other_in_order() {
        let pages = [
            page(
                "a",
                "Red apples picked this morning in the orchard on the hill.",
            ),
            page(
                "b",
                "Blue plums from the valley, sweet and ripe, sold by the kilo.",
            ),
            page(
                "c",
                "Green pears that keep for weeks in a cool and dark cellar.",
            ),
        ];
        let cleaned = clean_site(&pages, &Config::default()).expect("runs");
        assert_eq!(cleaned.len(), 3);
        for (given, result) in pages.iter().zip(&cleaned) {
            let page = result.as_ref().expect("annotated");
            assert_eq!(page.page.url, given.url);
            assert_eq!(page.method, dbce_extract::Method::Cross);
            assert!(!page.text.contains("About us"), "{}", page.text);
        }
        assert!(
            cleaned[1]
                .as_ref()
                .expect("page")
                .text
                .contains("Blue plums")
        );
    }

    #[test]
    fn a_plain_text_template_goes_on_every_page_however_small() {
        // The README's example: 20 words a page, more than half of them the template. The
        // single-page classifier keeps all of it; the judge must let the cross take it off.
        // "Product" is in every page's heading, but the heading is the page's own line: it
        // stays whole.
        let stories = [
            "A kettle that boils a litre in two minutes.",
            "A teapot of blue glazed clay.",
            "Six cups that stack into a small tower.",
        ];
        let pages: Vec<SitePage> = stories
            .iter()
            .enumerate()
            .map(|(n, story)| SitePage {
                url: format!("https://shop.example/products/{n}"),
                date: "2024-05-01T12:00:00Z".into(),
                html: format!(
                    "<nav>Home | Products | About us</nav><h1>Product {n}</h1><p>{story}</p>\
                     <footer>Example Shop Ltd, 1 Main Street</footer>"
                ),
            })
            .collect();
        let cleaned = clean_site(&pages, &Config::default()).expect("runs");
        for (n, (story, result)) in stories.iter().zip(&cleaned).enumerate() {
            let page = result.as_ref().expect("annotated");
            assert_eq!(page.text, format!("Product {n}\n{story}"), "page {n}");
        }
    }

    #[test]
    fn a_page_that_is_not_one_is_a_skip_with_its_reason() {
        let mut bad = page("x", "Text");
        bad.date = "yesterday".into();
        let cleaned =
            clean_site(&[page("a", "Some words here"), bad], &Config::default()).expect("runs");
        assert!(cleaned[0].is_ok());
        assert_eq!(
            cleaned[1].as_ref().err().map(String::as_str),
            Some("bad-warc-date")
        );
    }
}
