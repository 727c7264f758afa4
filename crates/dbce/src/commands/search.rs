//! `dbce search`: full-text search over a run's cleaned pages.

use std::io::Write as _;
use std::path::PathBuf;
use std::process::ExitCode;

use dbce_index::Hit;
use serde::Serialize;

/// Arguments of `dbce search`.
#[derive(Debug, clap::Args)]
pub(crate) struct Args {
    /// The run's output directory; the index is `DIR/index` (one index per partition,
    /// `DIR/index/part-PART/`, searched as one: the hits and order one index would give).
    dir: PathBuf,
    /// The query: words that must all occur in the title or text, `OR`, `-word`, `"a phrase"`,
    /// `site:example.com`, `lang:jpn`, `date:[2024-01-01T00:00:00Z TO 2024-07-01T00:00:00Z}`;
    /// Chinese, Japanese, Korean and Thai words are found inside the text they are written in.
    query: String,
    /// Most hits to print.
    #[arg(long, default_value_t = 10)]
    limit: usize,
    /// Print one JSON object per hit and line.
    #[arg(long)]
    json: bool,
}

/// One hit as `--json` prints it.
#[derive(Debug, Serialize)]
struct HitJson<'a> {
    score: f32,
    id: &'a str,
    url: &'a str,
    site: &'a str,
    date: &'a str,
    lang: &'a str,
    title: &'a str,
    snippet: &'a str,
    file: &'a str,
    offset: u64,
    length: u64,
}

impl<'a> From<&'a Hit> for HitJson<'a> {
    fn from(hit: &'a Hit) -> Self {
        Self {
            score: hit.score,
            id: &hit.id,
            url: &hit.url,
            site: &hit.site,
            date: &hit.date,
            lang: &hit.lang,
            title: &hit.title,
            snippet: &hit.snippet,
            file: &hit.file,
            offset: hit.offset,
            length: hit.length,
        }
    }
}

/// Prints the hits, best first; exit code 1 when there are none.
///
/// Each hit is `score  date  url`, then indented its title, its snippet (matches between `**`)
/// and `file:offset+length`, where `dbce get FILE OFFSET` finds the source record.
pub(crate) fn run(args: &Args) -> anyhow::Result<ExitCode> {
    let index = args.dir.join("index");
    // The index's errors name the directory or the query already.
    let hits = dbce_index::search(&index, &args.query, args.limit)?;
    let mut out = std::io::stdout().lock();
    for hit in &hits {
        if args.json {
            serde_json::to_writer(&mut out, &HitJson::from(hit))?;
            writeln!(out)?;
        } else {
            writeln!(out, "{:.3}  {}  {}", hit.score, hit.date, hit.url)?;
            writeln!(out, "    {}", hit.title)?;
            writeln!(out, "    {}", hit.snippet)?;
            writeln!(out, "    {}:{}+{}", hit.file, hit.offset, hit.length)?;
        }
    }
    out.flush()?;
    Ok(if hits.is_empty() {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    })
}
