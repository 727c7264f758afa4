//! Writing the archive and its truth file: captures rendered in parallel, written in plan order.

use std::io::{self, Write};
use std::sync::mpsc;

use dbce_warc::{Headers, NewRecord, RecordType, WarcWriter};
use rayon::prelude::*;

use crate::clock::EPOCH;
use crate::http::{self, Reply, Response};
use crate::page::Page;
use crate::plan::{self, Capture, Target};
use crate::profile::Charset;
use crate::render::{self, Rendered, Truth};
use crate::seed::{self, Stream};
use crate::site::Site;
use crate::truth::{PageKind, TruthRecord};
use crate::{Config, Error, assets};

/// Captures rendered per parallel batch; bounds memory, not output.
const BATCH: usize = 512;
/// Bumped whenever the same parameters start giving different bytes.
const GENERATOR_FORMAT: u32 = 1;

/// What a run wrote.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Summary {
    /// WARC records, the `warcinfo` record included.
    pub records: u64,
    /// Response records (one truth line each).
    pub responses: u64,
    /// Responses holding an HTML page with ground truth.
    pub pages: u64,
    /// Bytes of the compressed archive.
    pub archive_bytes: u64,
}

/// Generates the archive `config` describes: WARC records to `archive`, one truth line per
/// response record to `truth`.
///
/// # Errors
/// [`Error::Config`] for parameters out of range, [`Error::Threads`] when the worker threads
/// cannot start, [`Error::Archive`] or [`Error::Truth`] when writing fails.
pub fn generate<A: Write + Send, T: Write + Send>(
    config: &Config,
    archive: A,
    truth: T,
) -> Result<Summary, Error> {
    config.validate()?;
    let sites: Vec<Site> = (0..config.sites).map(|i| Site::new(config, i)).collect();
    let plan = plan::plan(&sites, config.captures_max);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(config.threads)
        .build()
        .map_err(|e| Error::Threads {
            threads: config.threads,
            source: Box::new(e),
        })?;
    // One thread writes batch `k` while the pool renders batch `k + 1`.
    std::thread::scope(|scope| {
        let (sender, receiver) = mpsc::sync_channel(1);
        let writer = scope.spawn(move || write_batches(config, receiver, archive, truth));
        for batch in plan.chunks(BATCH) {
            let outputs: Vec<Result<Output, Error>> = pool.install(|| {
                batch
                    .par_iter()
                    .map(|c| capture(config, &sites, c))
                    .collect()
            });
            if sender.send(outputs).is_err() {
                break;
            }
        }
        drop(sender);
        writer
            .join()
            .unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    })
}

/// Writes the `warcinfo` record, then every batch received, in order.
fn write_batches<A: Write, T: Write>(
    config: &Config,
    batches: mpsc::Receiver<Vec<Result<Output, Error>>>,
    mut archive: A,
    mut truth: T,
) -> Result<Summary, Error> {
    let info = warcinfo(config).map_err(Error::Archive)?;
    archive.write_all(&info).map_err(Error::Archive)?;
    let mut summary = Summary {
        records: 1,
        archive_bytes: info.len() as u64,
        ..Summary::default()
    };
    for outputs in batches {
        for output in outputs {
            let output = output?;
            archive.write_all(&output.warc).map_err(Error::Archive)?;
            truth.write_all(&output.truth).map_err(Error::Truth)?;
            summary.records += 2;
            summary.responses += 1;
            summary.pages += u64::from(output.html);
            summary.archive_bytes += output.warc.len() as u64;
        }
    }
    archive.flush().map_err(Error::Archive)?;
    truth.flush().map_err(Error::Truth)?;
    Ok(summary)
}

/// The records and truth line of one capture.
struct Output {
    warc: Vec<u8>,
    truth: Vec<u8>,
    html: bool,
}

/// A response ready to be recorded.
struct Exchange {
    url: String,
    status: u16,
    /// Media type without parameters.
    content_type: Option<String>,
    response: Response,
    rendered: Option<Rendered>,
}

fn capture(config: &Config, sites: &[Site], capture: &Capture) -> Result<Output, Error> {
    let site = &sites[capture.site as usize];
    let (url, reply, rendered) = fetch(config, site, capture)?;
    let content_type = reply
        .content_type
        .as_deref()
        .and_then(|t| t.split(';').next())
        .map(str::to_owned);
    let status = reply.status;
    let mut rng = seed::rng(site.seed, Stream::Capture, &coordinates(site, capture, 1));
    let response = http::response(site, capture.at, reply, &mut rng);
    let mut exchange = Exchange {
        url,
        status,
        content_type,
        response,
        rendered,
    };
    let [request_id, response_id] =
        [2, 1].map(|kind| seed::record_id(config.seed, &coordinates(site, capture, kind)));
    let warc = records(
        config,
        site,
        capture,
        &mut exchange,
        [&request_id, &response_id],
    )
    .map_err(Error::Archive)?;
    let html = exchange.rendered.is_some();
    Ok(Output {
        warc,
        truth: truth_line(site, capture, response_id, exchange).map_err(Error::Truth)?,
        html,
    })
}

/// Seed coordinates of one capture; `kind` tells draws and records of a capture apart.
fn coordinates(site: &Site, capture: &Capture, kind: u64) -> [u64; 4] {
    [
        site.index.into(),
        capture.target.key(),
        capture.number.into(),
        kind,
    ]
}

/// The URL a capture fetches, the site's reply, and for HTML pages the rendered page.
fn fetch(
    config: &Config,
    site: &Site,
    capture: &Capture,
) -> Result<(String, Reply, Option<Rendered>), Error> {
    match capture.target.shown() {
        Ok(shown) => {
            let page = Page::new(site, capture, shown, config.captures_max);
            let (reply, rendered) = page_reply(site, &page)?;
            Ok((page.url, reply, Some(rendered)))
        }
        Err(asset) => {
            let (url, reply) = assets::fetch(site, asset, capture.at);
            Ok((url, reply, None))
        }
    }
}

/// Renders and encodes `page`.
fn page_reply(site: &Site, page: &Page) -> Result<(Reply, Rendered), Error> {
    let mut rendered = render::render(site, page);
    let html = std::mem::take(&mut rendered.html);
    let charset = site.profile.charset;
    let body = if charset == Charset::Utf8 {
        html.into_bytes()
    } else {
        let (body, _, unmappable) = charset.encoding().encode(&html);
        if unmappable {
            return Err(Error::Unencodable {
                url: page.url.clone(),
                charset: charset.label(),
            });
        }
        body.into_owned()
    };
    let reply = Reply {
        status: 200,
        content_type: Some(format!("text/html; charset={}", charset.label())),
        headers: vec![("Cache-Control", "max-age=60, public".to_owned())],
        body,
        encodable: true,
    };
    Ok((reply, rendered))
}

fn truth_line(
    site: &Site,
    capture: &Capture,
    id: String,
    exchange: Exchange,
) -> Result<Vec<u8>, std::io::Error> {
    let kind = match (capture.target, &exchange.rendered) {
        (Target::Article(_), Some(_)) => PageKind::Article,
        (Target::Home | Target::Section(_), Some(_)) => PageKind::Index,
        (Target::Thread { .. }, Some(_)) => PageKind::Forum,
        _ => PageKind::Other,
    };
    let html = exchange.rendered.is_some();
    let (template, truth) = exchange
        .rendered
        .map_or((None, Truth::default()), |r| (Some(r.template), r.truth));
    let record = TruthRecord {
        id,
        url: exchange.url,
        date: capture.at.iso(),
        site: site.key.clone(),
        template,
        kind,
        capture: capture.number,
        captures: capture.count,
        status: exchange.status,
        html,
        content_type: exchange.content_type,
        charset: html.then(|| site.profile.charset.label().to_owned()),
        transfer_encoding: exchange.response.transfer_encoding.map(str::to_owned),
        content_encoding: exchange.response.content_encoding.map(str::to_owned),
        content: truth.content.join("\n"),
        boilerplate: truth.boilerplate,
        comments: truth.comments,
    };
    let mut line = serde_json::to_vec(&record)?;
    line.push(b'\n');
    Ok(line)
}

/// The request and response records of one capture, as gzip members; takes the response
/// block out of `exchange`.
fn records(
    config: &Config,
    site: &Site,
    capture: &Capture,
    exchange: &mut Exchange,
    [request_id, response_id]: [&str; 2],
) -> io::Result<Vec<u8>> {
    let common = |id: &str, msgtype: &str| {
        let mut fields = Headers::new();
        fields.push("WARC-Record-ID", id);
        fields.push("WARC-Date", capture.at.iso());
        fields.push("WARC-Target-URI", exchange.url.as_str());
        fields.push("WARC-Warcinfo-ID", warcinfo_id(config));
        fields.push(
            "Content-Type",
            format!("application/http; msgtype={msgtype}"),
        );
        fields
    };
    let mut request = common(request_id, "request");
    request.push("WARC-Concurrent-To", response_id);
    let mut response = common(response_id, "response");
    response.push(
        "WARC-IP-Address",
        format!("192.0.2.{}", 10 + site.index % 240),
    );
    let block = std::mem::take(&mut exchange.response.block);
    let mut writer = WarcWriter::with_level(Vec::with_capacity(block.len() / 2), config.level);
    let request_block = http::request(site, &exchange.url);
    writer.write_record(&NewRecord {
        record_type: RecordType::Request,
        fields: request,
        block: request_block,
    })?;
    writer.write_record(&NewRecord {
        record_type: RecordType::Response,
        fields: response,
        block,
    })?;
    writer.finish()
}

fn warcinfo_id(config: &Config) -> String {
    seed::record_id(config.seed, &[u64::MAX])
}

fn warcinfo(config: &Config) -> io::Result<Vec<u8>> {
    let mut fields = Headers::new();
    fields.push("WARC-Record-ID", warcinfo_id(config));
    fields.push("WARC-Date", EPOCH.iso());
    fields.push("Content-Type", "application/warc-fields");
    let block = format!(
        "software: dbce-synth (generator format {GENERATOR_FORMAT})\r\nformat: WARC File Format 1.1\r\n\
         conformsTo: https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n\
         isPartOf: dbce-synth-seed-{}\r\ndescription: synthetic crawl of {} sites, {} pages, up to {} \
         captures per URL{}, ground truth in the matching truth file\r\nrobots: ignore\r\n\
         http-header-user-agent: {}\r\n",
        config.seed,
        config.sites,
        config.pages,
        config.captures_max,
        if config.forums { ", forums" } else { "" },
        http::USER_AGENT
    );
    let record = NewRecord {
        record_type: RecordType::Warcinfo,
        fields,
        block: block.into_bytes(),
    };
    let mut writer = WarcWriter::with_level(Vec::new(), config.level);
    writer.write_record(&record)?;
    writer.finish()
}

#[cfg(test)]
#[path = "archive_tests.rs"]
mod tests;
