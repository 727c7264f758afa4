//! One page alone, from its HTML: the single-page route of stage `annotate`, without an
//! archive or a work directory (`dbce extract`, Python's `dbce.extract`).
//!
//! A page that stage `annotate` classifies alone (no cross partner, or method `single`) goes
//! through the same functions, with the same configuration: its page type from the built-in
//! model, the single-page classifier that type selects, the `evidence` fallback to the densest
//! block and the emptying of error pages. Its text is therefore byte-identical to the text
//! `dbce run` writes for the page when it has no partner.

use dbce_annotate::{PageTokens, PatternClass, content_markdown};
use dbce_classify::{PageType, PageTypeModel};
use dbce_dom::{Document, DomError, Truncation};
use serde::Serialize;

use dbce_config::{Config, ConfigError};
use dbce_learn::judge::Route;
use dbce_learn::model::{LoadError, load_block_model};

use crate::draft::{
    Setting, repeated_passages, settle_page, single_page_draft, single_page_method,
};
use crate::record::EmptyReason;

/// Why a page could not be extracted.
#[derive(Debug, thiserror::Error)]
#[non_exhaustive]
pub enum ExtractError {
    /// The configuration is invalid.
    #[error(transparent)]
    Config(#[from] ConfigError),
    /// The HTML exceeds the node limit of `sanitize`.
    #[error("not a page: {0}")]
    Page(#[from] DomError),
    /// The block model the settings name (`annotate.block-model`) cannot be used.
    #[error(transparent)]
    BlockModel(#[from] LoadError),
}

/// The main content of one page, classified alone.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ExtractedPage {
    /// The URL given for the page; empty when none was.
    pub url: String,
    /// The `<title>`, or empty.
    pub title: String,
    /// The main content, one block per line (as `text` in the JSONL of `dbce run`).
    pub text: String,
    /// The main content as Markdown, when `annotate.markdown` is on.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub markdown: Option<String>,
    /// The route whose verdicts make the text: `single`, `densest` or `page-type`.
    pub decided_by: Route,
    /// Why `text` is empty; absent when it is not.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub empty_reason: Option<EmptyReason>,
    /// The page's type by the built-in model.
    pub page_type: PageType,
    /// The model's confidence in `page_type`, in `[0, 1]`.
    pub page_type_confidence: f32,
    /// The limits of `sanitize` that cut the page before its text was extracted (as
    /// `truncated` in the JSONL of `dbce run`); empty when the whole page was read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub truncated: Vec<Truncation>,
}

/// Decodes a page's bytes as stage `read` decodes a capture without a charset in its HTTP
/// headers: byte order mark, `<meta>` prescan, detection (helped by `url`'s top-level domain),
/// windows-1252.
pub fn decode_page(bytes: &[u8], url: &str) -> String {
    let host = url::Url::parse(url.trim())
        .ok()
        .and_then(|u| u.host_str().map(str::to_owned));
    let tld = host.as_deref().and_then(|h| h.rsplit('.').next());
    dbce_http::decode_html_with_tld(bytes, None, tld).text
}

/// The main content of `html`, the page at `url` (empty if unknown), classified alone under
/// `config` (its `sanitize` limits, `annotate.method`, `annotate.single-page`,
/// `annotate.single-page-beyond-articles` and `annotate.markdown`).
///
/// ```
/// use dbce_config::Config;
/// use dbce_extract::extract_page;
///
/// let html = "<html><head><title>T</title></head><body><nav><a href=/>Home</a></nav>\
///             <article><h1>A headline</h1><p>A paragraph of the article with enough words \
///             to be content, as articles have.</p></article></body></html>";
/// let page = extract_page(html, "https://example.com/a", &Config::default())?;
/// assert_eq!(page.title, "T");
/// assert!(page.text.contains("A paragraph of the article"));
/// # Ok::<(), dbce_extract::ExtractError>(())
/// ```
///
/// # Errors
/// [`ExtractError::Config`] for an invalid configuration, [`ExtractError::Page`] when the
/// HTML breaks a `sanitize` limit, [`ExtractError::BlockModel`] when the settings name a block
/// model that cannot be read (it is read at every call: to extract many pages with one, use
/// `dbce run`).
pub fn extract_page(html: &str, url: &str, config: &Config) -> Result<ExtractedPage, ExtractError> {
    config.validate()?;
    let doc = Document::parse(html, &config.sanitize)?;
    let guess = PageTypeModel::built_in().classify(&doc, url, html);
    let annotate = &config.annotate;
    let single_page = single_page_method(annotate, guess, Setting::Alone);
    let block_model = annotate
        .block_model
        .as_deref()
        .map(load_block_model)
        .transpose()?;
    let tokens = PageTokens::read(&doc);
    let (mut runs, layout, decided_by) = single_page_draft(
        &doc,
        &tokens,
        single_page,
        block_model.as_ref(),
        guess,
        annotate.method,
    );
    let repeats = repeated_passages(annotate, &doc, &runs, &layout);
    let settled = settle_page(
        &mut runs,
        &layout,
        decided_by,
        guess.page_type,
        annotate,
        repeats.as_ref(),
    );
    let markdown = annotate.markdown.then(|| {
        content_markdown(&doc, &runs, &layout, |i| {
            runs[i].class == PatternClass::Content
        })
    });
    Ok(ExtractedPage {
        url: url.to_owned(),
        title: doc.title().unwrap_or_default().to_owned(),
        text: settled.text,
        markdown,
        decided_by: settled.decided_by,
        empty_reason: settled.empty_reason,
        page_type: guess.page_type,
        page_type_confidence: guess.confidence,
        truncated: doc.report().truncated.clone(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    const PAGE: &str = "<html><head><title>News</title></head><body>\
        <nav><ul><li><a href=/>Home</a></li><li><a href=/about>About</a></li></ul></nav>\
        <article><h1>Rivers rise after rain</h1>\
        <p>The rivers of the region rose by two metres after three days of rain, and the \
        towns along their banks prepared for floods that had not been seen in decades.</p>\
        <p>Officials said the water would fall again by the end of the week, while farmers \
        counted the damage to their fields and roads stayed closed.</p></article>\
        <footer>Copyright 2024 Example News</footer></body></html>";

    #[test]
    fn a_page_alone_keeps_its_article() {
        let page = extract_page(PAGE, "https://news.example.com/rivers", &Config::default())
            .expect("extracts");
        assert_eq!(page.title, "News");
        assert!(
            page.text.contains("The rivers of the region rose"),
            "{}",
            page.text
        );
        assert!(!page.text.contains("Copyright"), "{}", page.text);
        assert_eq!(page.markdown, None);
        assert_eq!(page.empty_reason, None);
    }

    #[test]
    fn a_block_model_file_replaces_the_built_in_one() {
        let dir = tempfile::tempdir().unwrap();
        let mut config = Config::default();
        // The built-in model's own bytes: the same text.
        let built_in = dir.path().join("built-in.bin");
        std::fs::write(&built_in, dbce_classify::BlockModel::BUILT_IN_BYTES).unwrap();
        config.annotate.block_model = Some(built_in);
        let default = extract_page(PAGE, "", &Config::default()).unwrap();
        assert_eq!(extract_page(PAGE, "", &config).unwrap(), default);
        // A model that learnt every block of the page as content keeps the footer too.
        let doc = Document::parse(PAGE, &config.sanitize).unwrap();
        let blocks = dbce_classify::text_blocks(&doc);
        let guess = PageTypeModel::built_in().classify(&doc, "", PAGE);
        let rows = dbce_classify::block_rows(&doc, &blocks, guess);
        let labels = vec![true; blocks.len()];
        let params = dbce_forest::ForestParams {
            trees: 2,
            ..dbce_forest::ForestParams::default()
        };
        let keeps_all = dbce_classify::BlockModel::fit(&rows, &labels, &params).unwrap();
        let path = dir.path().join("keeps-all.bin");
        std::fs::write(&path, keeps_all.encode().unwrap()).unwrap();
        config.annotate.block_model = Some(path);
        let page = extract_page(PAGE, "", &config).unwrap();
        assert!(!default.text.contains("Copyright"), "{}", default.text);
        assert!(page.text.contains("Copyright 2024"), "{}", page.text);
        // Not a model, or no file: an error naming the file.
        let junk = dir.path().join("junk.bin");
        std::fs::write(&junk, b"not a model").unwrap();
        for path in [junk, dir.path().join("missing.bin")] {
            config.annotate.block_model = Some(path.clone());
            let err = extract_page(PAGE, "", &config).unwrap_err();
            assert!(matches!(err, ExtractError::BlockModel(_)), "{err}");
            assert!(err.to_string().contains(&*path.to_string_lossy()), "{err}");
        }
    }

    #[test]
    fn markdown_holds_the_same_words_with_structure() {
        let mut config = Config::default();
        config.annotate.markdown = true;
        let page = extract_page(PAGE, "", &config).expect("extracts");
        let markdown = page.markdown.expect("asked for");
        let words = |s: &str| -> Vec<String> {
            s.split_whitespace()
                .filter(|w| !w.starts_with('#'))
                .map(str::to_owned)
                .collect()
        };
        assert_eq!(words(&markdown), words(&page.text));
        assert!(markdown.contains("\n\n"), "{markdown}");
    }

    #[test]
    fn the_node_limit_is_an_error_and_the_byte_limit_a_cut() {
        let mut config = Config::default();
        config.sanitize.max_nodes = 10;
        assert!(matches!(
            extract_page(PAGE, "", &config),
            Err(ExtractError::Page(_))
        ));
        let mut config = Config::default();
        config.sanitize.max_input_bytes = 400;
        let page = extract_page(PAGE, "", &config).expect("extracts the first 400 bytes");
        assert_eq!(page.truncated, vec![Truncation::Bytes]);
        assert!(!page.text.contains("farmers"), "{}", page.text);
        assert!(
            extract_page(PAGE, "", &Config::default())
                .unwrap()
                .truncated
                .is_empty()
        );
    }

    #[test]
    fn bytes_decode_by_their_meta_charset() {
        let bytes = b"<meta charset=iso-8859-1><p>caf\xe9</p>";
        assert!(decode_page(bytes, "").contains("caf\u{e9}"));
    }
}
