//! `dbce extract`: the main content of one HTML page, classified alone (the single-page route of
//! `dbce run`), as text, Markdown or JSON.

use std::io::{Read as _, Write as _};
use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Context as _;
use dbce_extract::{decode_page, extract_page};

use super::config::ConfigArgs;

/// Arguments of `dbce extract`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// An HTML file, or `-` for standard input. Its encoding comes from a byte order mark, a
    /// `<meta>` declaration or detection, as for a captured page without an HTTP charset.
    file: PathBuf,
    /// The page's URL: its page type (and so its single-page classifier) reads it, and its
    /// top-level domain helps detect the encoding.
    #[arg(long)]
    url: Option<String>,
    /// What to print: the text (one block per line, as `text` in `dbce run`'s JSONL), Markdown,
    /// or a JSON object with both and how the text was decided.
    #[arg(long, value_enum, default_value = "txt")]
    format: Format,
    #[command(flatten)]
    config: ConfigArgs,
}

/// The output format of `dbce extract`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
enum Format {
    /// Plain text, one block per line.
    Txt,
    /// Markdown: headings, paragraphs, lists, tables, code and quotes.
    Markdown,
    /// One JSON object: `url`, `title`, `text`, `markdown`, `decided_by`, `empty_reason`,
    /// `page_type`, `page_type_confidence`, `truncated` (only when a limit cut the page).
    Json,
}

pub(crate) fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let mut config = args.config.resolve()?;
    config.annotate.markdown = args.format != Format::Txt;
    let mut bytes = Vec::new();
    if args.file.as_os_str() == "-" {
        std::io::stdin()
            .read_to_end(&mut bytes)
            .context("cannot read standard input")?;
    } else {
        bytes = std::fs::read(&args.file)
            .with_context(|| format!("cannot read {}", args.file.display()))?;
    }
    let url = args.url.as_deref().unwrap_or_default();
    let html = decode_page(&bytes, url);
    let page = extract_page(&html, url, &config)
        .with_context(|| format!("cannot extract {}", args.file.display()))?;
    let mut out = match args.format {
        Format::Txt => page.text,
        Format::Markdown => page.markdown.unwrap_or_default(),
        Format::Json => serde_json::to_string(&page)?,
    };
    if !out.is_empty() {
        out.push('\n');
    }
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(out.as_bytes())?;
    stdout.flush()?;
    Ok(ExitCode::SUCCESS)
}
