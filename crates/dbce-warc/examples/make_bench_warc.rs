//! Builds the gzip WARC that `scripts/bench-warc` reads: real pages from the development
//! datasets, written as a `warcinfo` record and then a `request` and a `response` record per
//! page, one gzip member per record.
//!
//! The pages are repeated in whole passes, with distinct URLs and record ids in every pass,
//! until the compressed file reaches the requested size.
//!
//! ```text
//! cargo run --release -p dbce-warc --example make_bench_warc -- \
//!     --out /tmp/bench.warc.gz --min-mb 100 ../shared/data
//! ```
//!
//! A data path is a dataset directory (`html/*.html`, with the URLs in `meta.jsonl`), a directory
//! of such datasets, or a directory of `.html` files.

mod capture;

use std::error::Error;
use std::fs::{self, File};
use std::io::BufWriter;
use std::path::{Path, PathBuf};

use capture::Capture;
use dbce_warc::WarcWriter;

type Result<T> = std::result::Result<T, Box<dyn Error>>;

struct Args {
    out: PathBuf,
    min_bytes: u64,
    data: Vec<PathBuf>,
}

struct Page {
    url: String,
    html: Vec<u8>,
}

fn main() -> Result<()> {
    let args = parse_args()?;
    let pages = load_pages(&args.data)?;
    if pages.is_empty() {
        return Err("no .html pages found under the data paths".into());
    }
    let partial = args.out.with_extension("partial");
    let mut writer = WarcWriter::new(BufWriter::new(File::create(&partial)?));
    let filename = args
        .out
        .file_name()
        .map(|n| n.to_string_lossy().into_owned());
    let warcinfo_id = capture::write_warcinfo(&mut writer, &filename.unwrap_or_default())?;
    let mut index = 0;
    let mut passes = 0;
    while writer.position() < args.min_bytes {
        for page in &pages {
            index += 1;
            let url = pass_url(&page.url, passes);
            let capture = Capture {
                url: &url,
                html: &page.html,
                index,
            };
            capture::write_capture(&mut writer, &warcinfo_id, &capture)?;
        }
        passes += 1;
    }
    let size = writer.position();
    writer.finish()?.into_inner().map_err(|e| e.into_error())?;
    fs::rename(&partial, &args.out)?;
    let html: usize = pages.iter().map(|p| p.html.len()).sum();
    eprintln!(
        "{}: {} pages ({:.1} MB of HTML) x {passes} passes = {} records, {:.1} MB gzip",
        args.out.display(),
        pages.len(),
        html as f64 / 1e6,
        1 + 2 * index,
        size as f64 / 1e6,
    );
    Ok(())
}

fn parse_args() -> Result<Args> {
    let usage = "usage: make_bench_warc --out FILE [--min-mb N] DATA...";
    let mut out = None;
    let mut min_mb = 100.0_f64;
    let mut data = Vec::new();
    let mut args = std::env::args_os().skip(1);
    while let Some(arg) = args.next() {
        match arg.to_str() {
            Some("--out") => out = args.next().map(PathBuf::from),
            Some("--min-mb") => {
                let value = args.next().ok_or(usage)?;
                min_mb = value.to_str().ok_or(usage)?.parse()?;
            }
            Some("-h" | "--help") => return Err(usage.into()),
            _ => data.push(PathBuf::from(arg)),
        }
    }
    if data.is_empty() {
        return Err(usage.into());
    }
    Ok(Args {
        out: out.ok_or(usage)?,
        // Whole megabytes of 10^6 bytes: the cast cannot lose anything that matters here.
        min_bytes: (min_mb * 1e6) as u64,
        data,
    })
}

/// The URL of a page in pass `pass`: the first pass keeps the original.
fn pass_url(url: &str, pass: u64) -> String {
    match (pass, url.contains('?')) {
        (0, _) => url.to_owned(),
        (_, true) => format!("{url}&dbce-pass={pass}"),
        (_, false) => format!("{url}?dbce-pass={pass}"),
    }
}

/// All pages under `paths`, in a stable order: path by path, files sorted by name.
fn load_pages(paths: &[PathBuf]) -> Result<Vec<Page>> {
    let mut pages = Vec::new();
    for path in paths {
        if path.join("html").is_dir() {
            load_dataset(path, &mut pages)?;
            continue;
        }
        for dir in sorted_entries(path)? {
            if dir.join("html").is_dir() {
                load_dataset(&dir, &mut pages)?;
            }
        }
        load_html_files(path, &dataset_name(path), &Default::default(), &mut pages)?;
    }
    Ok(pages)
}

fn load_dataset(dir: &Path, pages: &mut Vec<Page>) -> Result<()> {
    let urls = load_urls(&dir.join("meta.jsonl"))?;
    load_html_files(&dir.join("html"), &dataset_name(dir), &urls, pages)
}

fn load_html_files(
    dir: &Path,
    dataset: &str,
    urls: &std::collections::BTreeMap<String, String>,
    pages: &mut Vec<Page>,
) -> Result<()> {
    for file in sorted_entries(dir)? {
        if file.extension().is_none_or(|e| e != "html") {
            continue;
        }
        let id = file
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default();
        let url = urls
            .get(&id)
            .cloned()
            .unwrap_or_else(|| format!("http://{dataset}.example/{id}.html"));
        pages.push(Page {
            url: url.replace(' ', "%20"),
            html: fs::read(&file)?,
        });
    }
    Ok(())
}

/// Page id to URL, from a datasets' `meta.jsonl` (absent file or null URLs give no entry).
fn load_urls(meta: &Path) -> Result<std::collections::BTreeMap<String, String>> {
    let mut urls = std::collections::BTreeMap::new();
    let Ok(text) = fs::read_to_string(meta) else {
        return Ok(urls);
    };
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let value: serde_json::Value = serde_json::from_str(line)?;
        if let (Some(id), Some(url)) = (value["id"].as_str(), value["url"].as_str()) {
            urls.insert(id.to_owned(), url.to_owned());
        }
    }
    Ok(urls)
}

fn sorted_entries(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut entries = fs::read_dir(dir)?
        .map(|e| e.map(|e| e.path()))
        .collect::<std::io::Result<Vec<_>>>()?;
    entries.sort();
    Ok(entries)
}

fn dataset_name(dir: &Path) -> String {
    dir.file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "pages".to_owned())
}
