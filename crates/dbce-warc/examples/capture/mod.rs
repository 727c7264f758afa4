//! Writes the records of a crawl the way crawlers do: one `warcinfo`, then a `request` and a
//! `response` record per captured page, with realistic WARC and HTTP headers.
//!
//! Shared by the `make_bench_warc` example and the `read` benchmark, so that both measure the
//! same record mix.

use std::io::{self, Write};

use dbce_warc::{Headers, NewRecord, RecordType, WarcWriter};

/// One page to be written as a request/response pair.
pub(crate) struct Capture<'a> {
    /// The target URI, `http(s)://host/path?query`.
    pub(crate) url: &'a str,
    /// The HTML payload.
    pub(crate) html: &'a [u8],
    /// Running number of the capture in the file: it makes record ids, dates and addresses.
    pub(crate) index: u64,
}

/// Writes the `warcinfo` record that opens the file and returns its record id.
pub(crate) fn write_warcinfo<W: Write>(
    writer: &mut WarcWriter<W>,
    filename: &str,
) -> io::Result<String> {
    let id = record_id(0, u64::MAX);
    let mut fields = Headers::new();
    fields.push("WARC-Record-ID", id.clone());
    fields.push("WARC-Date", warc_date(0));
    fields.push("WARC-Filename", filename);
    fields.push("Content-Type", "application/warc-fields");
    let block = "software: dbce-warc make_bench_warc\r\n\
        format: WARC File Format 1.1\r\n\
        conformsTo: https://iipc.github.io/warc-specifications/specifications/warc-format/warc-1.1/\r\n\
        isPartOf: dbce-bench\r\n\
        description: pages of the dbce development datasets, for read benchmarks\r\n\
        robots: classic\r\n\
        http-header-user-agent: Mozilla/5.0 (compatible; dbce-bench/0.1)\r\n";
    writer.write_record(&NewRecord {
        record_type: RecordType::Warcinfo,
        fields,
        block: block.as_bytes().to_vec(),
    })?;
    Ok(id)
}

/// Writes the `request` and `response` records of one capture.
pub(crate) fn write_capture<W: Write>(
    writer: &mut WarcWriter<W>,
    warcinfo_id: &str,
    capture: &Capture<'_>,
) -> io::Result<()> {
    let (host, target) = split_url(capture.url);
    let date = warc_date(capture.index);
    let ip = format!("192.0.2.{}", 1 + capture.index % 254);
    let request_id = record_id(capture.index, 1);
    let response_id = record_id(capture.index, 2);
    let common = |id: &str, msgtype: &str| {
        let mut fields = Headers::new();
        fields.push("WARC-Record-ID", id);
        fields.push("WARC-Date", date.clone());
        fields.push("WARC-Target-URI", capture.url);
        fields.push("WARC-IP-Address", ip.clone());
        fields.push("WARC-Warcinfo-ID", warcinfo_id);
        fields.push(
            "Content-Type",
            format!("application/http; msgtype={msgtype}"),
        );
        fields
    };

    let mut fields = common(&request_id, "request");
    fields.push("WARC-Concurrent-To", response_id.clone());
    let request = format!(
        "GET {target} HTTP/1.1\r\n\
         Host: {host}\r\n\
         User-Agent: Mozilla/5.0 (compatible; dbce-bench/0.1; +https://example.invalid/dbce)\r\n\
         Accept: text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\n\
         Accept-Language: en-US,en;q=0.5\r\n\
         Accept-Encoding: gzip, deflate, br\r\n\
         Connection: close\r\n\r\n"
    );
    writer.write_record(&NewRecord {
        record_type: RecordType::Request,
        fields,
        block: request.into_bytes(),
    })?;

    let mut fields = common(&response_id, "response");
    fields.push("WARC-Concurrent-To", request_id);
    fields.push("WARC-Identified-Payload-Type", "text/html");
    let mut block = format!(
        "HTTP/1.1 200 OK\r\n\
         Date: {http_date}\r\n\
         Server: nginx/1.24.0\r\n\
         Content-Type: text/html; charset=utf-8\r\n\
         Content-Length: {length}\r\n\
         Last-Modified: {http_date}\r\n\
         Cache-Control: max-age=300, public\r\n\
         Vary: Accept-Encoding\r\n\
         X-Frame-Options: SAMEORIGIN\r\n\
         Connection: close\r\n\r\n",
        http_date = http_date(capture.index),
        length = capture.html.len(),
    )
    .into_bytes();
    block.extend_from_slice(capture.html);
    writer.write_record(&NewRecord {
        record_type: RecordType::Response,
        fields,
        block,
    })?;
    Ok(())
}

/// Host and request target (path and query) of `url`.
fn split_url(url: &str) -> (&str, &str) {
    let rest = url.split_once("://").map_or(url, |(_, rest)| rest);
    match rest.find('/') {
        Some(slash) => (&rest[..slash], &rest[slash..]),
        None => (rest, "/"),
    }
}

/// A UUID-shaped record id, distinct for every `(index, kind)`.
fn record_id(index: u64, kind: u64) -> String {
    let a = mix(index ^ kind.rotate_left(32));
    let b = mix(a ^ kind);
    format!(
        "<urn:uuid:{:08x}-{:04x}-4{:03x}-8{:03x}-{:012x}>",
        a >> 32,
        (a >> 16) & 0xffff,
        a & 0xfff,
        b >> 52,
        b & 0xffff_ffff_ffff,
    )
}

/// splitmix64's finaliser: a bijection, so distinct inputs give distinct ids.
fn mix(mut x: u64) -> u64 {
    x = x.wrapping_add(0x9e37_79b9_7f4a_7c15);
    x = (x ^ (x >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    x = (x ^ (x >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    x ^ (x >> 31)
}

/// Captures are ten seconds apart from 2024-03-01, wrapping after 28 days.
fn clock(index: u64) -> (u64, u64, u64, u64) {
    let seconds = (index * 10) % (28 * 86_400);
    let day = 1 + seconds / 86_400;
    (day, seconds / 3600 % 24, seconds / 60 % 60, seconds % 60)
}

fn warc_date(index: u64) -> String {
    let (day, h, m, s) = clock(index);
    format!("2024-03-{day:02}T{h:02}:{m:02}:{s:02}Z")
}

fn http_date(index: u64) -> String {
    const WEEKDAYS: [&str; 7] = ["Fri", "Sat", "Sun", "Mon", "Tue", "Wed", "Thu"];
    let (day, h, m, s) = clock(index);
    let weekday = WEEKDAYS[usize::try_from((day - 1) % 7).unwrap_or(0)];
    format!("{weekday}, {day:02} Mar 2024 {h:02}:{m:02}:{s:02} GMT")
}
