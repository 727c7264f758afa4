//! What the report knows of one site: its pages with what was kept of each, its templates (the
//! distinct page sets of its LSH buckets) and how often each URL was captured.

use std::collections::BTreeMap;

use dbce_annotate::{PatternClass, UrlKey};
use dbce_extract::AnnotatedPage;
use dbce_output::TextRecord;
use dbce_pipeline::PageId;
use dbce_pipeline::group::LshBucket;

/// One page of a site: its JSONL record and how many of its words the run kept.
#[derive(Debug, Clone)]
pub(crate) struct PageRow {
    /// The page's id (the viewer's file name).
    pub(crate) id: PageId,
    /// Its line of the JSONL output.
    pub(crate) record: TextRecord,
    /// Words of all its runs.
    pub(crate) words: u64,
    /// Words of its content runs.
    pub(crate) kept_words: u64,
}

impl PageRow {
    /// The row of `page`, whose source file is `file`.
    pub(crate) fn of(page: &AnnotatedPage, file: &str) -> Self {
        let words_of = |keep: fn(PatternClass) -> bool| {
            page.runs
                .iter()
                .filter(|run| keep(run.class))
                .map(|run| u64::from(run.words))
                .sum()
        };
        Self {
            id: page.page.page,
            record: TextRecord::of(page, file),
            words: words_of(|_| true),
            kept_words: words_of(|class| class == PatternClass::Content),
        }
    }

    /// The share of its words kept, in `[0, 1]`; 0 for a page without words.
    pub(crate) fn kept_share(&self) -> f64 {
        if self.words == 0 {
            0.0
        } else {
            self.kept_words as f64 / self.words as f64
        }
    }
}

/// A template: a set of pages that share an LSH bucket in at least one band.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Template {
    /// The pages, by id.
    pub(crate) pages: Vec<PageId>,
    /// In how many bands exactly these pages share a bucket.
    pub(crate) bands: usize,
}

/// One site of the run.
#[derive(Debug, Clone)]
pub(crate) struct Site {
    /// The site's name (its registrable domain).
    pub(crate) name: String,
    /// Its pages, by id.
    pub(crate) pages: Vec<PageRow>,
    /// Its templates, largest first.
    pub(crate) templates: Vec<Template>,
    /// Number of URLs (by [`UrlKey`]) per number of captures.
    pub(crate) captures: BTreeMap<usize, usize>,
    /// The URLs with the most captures (an example URL of each key and its captures), most
    /// first, ties by URL.
    pub(crate) most_captured: Vec<(String, usize)>,
}

/// URLs listed under "most captured" per site.
const MOST_CAPTURED: usize = 10;

impl Site {
    /// The site `name` with `pages` (sorted by id) and the LSH `buckets` of its pages.
    pub(crate) fn new(name: String, pages: Vec<PageRow>, buckets: &[&LshBucket]) -> Self {
        let mut sets: BTreeMap<&[PageId], usize> = BTreeMap::new();
        for bucket in buckets {
            *sets.entry(&bucket.pages).or_default() += 1;
        }
        let mut templates: Vec<Template> = sets
            .into_iter()
            .map(|(pages, bands)| Template {
                pages: pages.to_vec(),
                bands,
            })
            .collect();
        templates.sort_by(|a, b| {
            (b.pages.len(), b.bands)
                .cmp(&(a.pages.len(), a.bands))
                .then_with(|| a.pages.cmp(&b.pages))
        });
        let mut by_url: BTreeMap<UrlKey, (&str, usize)> = BTreeMap::new();
        for row in &pages {
            by_url
                .entry(UrlKey::of(&row.record.url))
                .or_insert((&row.record.url, 0))
                .1 += 1;
        }
        let mut captures = BTreeMap::new();
        for (_, count) in by_url.values() {
            *captures.entry(*count).or_default() += 1;
        }
        let mut most_captured: Vec<(String, usize)> = by_url
            .into_values()
            .map(|(url, count)| (url.to_owned(), count))
            .collect();
        most_captured.sort_by(|a, b| b.1.cmp(&a.1).then_with(|| a.0.cmp(&b.0)));
        most_captured.truncate(MOST_CAPTURED);
        Self {
            name,
            pages,
            templates,
            captures,
            most_captured,
        }
    }

    /// The page with id `id`.
    pub(crate) fn page(&self, id: PageId) -> Option<&PageRow> {
        self.pages
            .binary_search_by_key(&id, |row| row.id)
            .ok()
            .map(|i| &self.pages[i])
    }

    /// The pages by share kept, least first (ties by id).
    pub(crate) fn by_kept_share(&self) -> Vec<&PageRow> {
        let mut rows: Vec<&PageRow> = self.pages.iter().collect();
        rows.sort_by(|a, b| {
            a.kept_share()
                .total_cmp(&b.kept_share())
                .then(a.id.cmp(&b.id))
        });
        rows
    }

    /// The mean share of words kept over its pages.
    pub(crate) fn mean_kept_share(&self) -> f64 {
        if self.pages.is_empty() {
            return 0.0;
        }
        self.pages.iter().map(PageRow::kept_share).sum::<f64>() / self.pages.len() as f64
    }

    /// Its pages whose text is empty.
    pub(crate) fn emptied(&self) -> impl Iterator<Item = &PageRow> {
        self.pages
            .iter()
            .filter(|row| row.record.empty_reason.is_some())
    }

    /// The file of its page in the report, relative to the report's root: `sites/NAME.html`
    /// with every character but ASCII letters, digits, `.` and `-` replaced by `_`, and the
    /// name's hash when anything was replaced, so that two sites never share a file.
    pub(crate) fn file(&self) -> String {
        site_file(&self.name)
    }
}

/// See [`Site::file`].
pub(crate) fn site_file(name: &str) -> String {
    let safe = |c: char| c.is_ascii_alphanumeric() || c == '.' || c == '-';
    let slug: String = name
        .chars()
        .map(|c| if safe(c) { c } else { '_' })
        .collect();
    if !slug.is_empty() && name.chars().all(safe) && !name.starts_with('.') {
        format!("sites/{slug}.html")
    } else {
        let hash = dbce_pipeline::bands::site_hash(&dbce_pipeline::SiteKey(name.to_owned()));
        format!("sites/{slug}-{hash:016x}.html")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn site_files_are_safe_and_distinct() {
        assert_eq!(site_file("example.com"), "sites/example.com.html");
        let odd = site_file("a/b");
        assert!(
            odd.starts_with("sites/a_b-") && odd.ends_with(".html"),
            "{odd}"
        );
        assert_ne!(site_file("a/b"), site_file("a_b"));
        assert_ne!(site_file(""), site_file("_"));
        assert!(site_file("..").starts_with("sites/..-"));
    }
}
