//! HTTP/1.1 messages as a crawler records them: the request it sent and the response it got,
//! sometimes chunked, sometimes gzip-encoded.

use std::io::Write as _;

use flate2::Compression;
use flate2::write::GzEncoder;
use rand::Rng as _;

use crate::clock::Timestamp;
use crate::seed::Rng;
use crate::site::Site;

/// The crawler's `User-Agent`.
pub(crate) const USER_AGENT: &str =
    "Mozilla/5.0 (compatible; dbce-synth/1.0; +https://example.invalid/dbce-synth)";
/// Chunk size of chunked responses.
const CHUNK: usize = 8 * 1024;

/// A response before it is written: status, headers beyond the usual ones, body.
#[derive(Debug, Clone)]
pub(crate) struct Reply {
    pub(crate) status: u16,
    pub(crate) content_type: Option<String>,
    pub(crate) headers: Vec<(&'static str, String)>,
    pub(crate) body: Vec<u8>,
    /// The body may be sent gzip-encoded and chunked.
    pub(crate) encodable: bool,
}

/// A written response and how its body was transferred.
#[derive(Debug, Clone)]
pub(crate) struct Response {
    pub(crate) block: Vec<u8>,
    /// `chunked`, if so.
    pub(crate) transfer_encoding: Option<&'static str>,
    /// `gzip`, if so.
    pub(crate) content_encoding: Option<&'static str>,
}

/// The GET request for `url`.
pub(crate) fn request(site: &Site, url: &str) -> Vec<u8> {
    let path = url
        .split_once("://")
        .and_then(|(_, rest)| rest.find('/').map(|i| &rest[i..]))
        .unwrap_or("/");
    format!(
        "GET {path} HTTP/1.1\r\nHost: {}\r\nUser-Agent: {USER_AGENT}\r\nAccept: text/html,\
         application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8\r\nAccept-Language: {},en;q=0.5\r\n\
         Accept-Encoding: gzip\r\nConnection: close\r\n\r\n",
        site.host, site.lang.tag
    )
    .into_bytes()
}

/// The response `reply` of `site` at `at`, with transfer details drawn from `rng`.
pub(crate) fn response(site: &Site, at: Timestamp, reply: Reply, rng: &mut Rng) -> Response {
    let gzip = reply.encodable && rng.random_range(0..100) < site.profile.gzip_percent;
    let chunked = reply.encodable && rng.random_range(0..100) < 6;
    let cookie = rng.random_bool(0.3).then(|| {
        format!(
            "sid={:016x}; Path=/; HttpOnly; SameSite=Lax",
            rng.random::<u64>()
        )
    });
    let body = if gzip {
        gzip_bytes(&reply.body)
    } else {
        reply.body
    };
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nDate: {}\r\nServer: {}\r\n",
        reply.status,
        reason(reply.status),
        at.http(),
        site.profile.server
    );
    if let Some(content_type) = &reply.content_type {
        head.push_str(&format!("Content-Type: {content_type}\r\n"));
    }
    if chunked {
        head.push_str("Transfer-Encoding: chunked\r\n");
    } else {
        head.push_str(&format!("Content-Length: {}\r\n", body.len()));
    }
    if gzip {
        head.push_str("Content-Encoding: gzip\r\nVary: Accept-Encoding\r\n");
    }
    for (name, value) in reply
        .headers
        .iter()
        .map(|(n, v)| (*n, v.as_str()))
        .chain(cookie.as_deref().map(|c| ("Set-Cookie", c)))
    {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("Connection: close\r\n\r\n");
    let mut block = Vec::with_capacity(head.len() + body.len() + body.len() / CHUNK * 8 + 8);
    block.extend_from_slice(head.as_bytes());
    if chunked {
        write_chunked(&mut block, &body);
    } else {
        block.extend_from_slice(&body);
    }
    Response {
        block,
        transfer_encoding: chunked.then_some("chunked"),
        content_encoding: gzip.then_some("gzip"),
    }
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        301 => "Moved Permanently",
        _ => "Unknown",
    }
}

fn gzip_bytes(body: &[u8]) -> Vec<u8> {
    // Level 1, nginx's default `gzip_comp_level`.
    let mut encoder = GzEncoder::new(Vec::with_capacity(body.len() / 3), Compression::new(1));
    // Writing to a Vec cannot fail.
    let _ = encoder.write_all(body);
    encoder.finish().unwrap_or_default()
}

fn write_chunked(out: &mut Vec<u8>, body: &[u8]) {
    for chunk in body.chunks(CHUNK) {
        out.extend_from_slice(format!("{:x}\r\n", chunk.len()).as_bytes());
        out.extend_from_slice(chunk);
        out.extend_from_slice(b"\r\n");
    }
    out.extend_from_slice(b"0\r\n\r\n");
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use crate::seed::{Stream, rng};
    use std::io::Read as _;

    fn reply(body: &[u8]) -> Reply {
        Reply {
            status: 200,
            content_type: Some("text/plain".into()),
            headers: vec![],
            body: body.to_vec(),
            encodable: true,
        }
    }

    #[test]
    fn requests_name_the_path() {
        let site = Site::new(&Config::default(), 0);
        let request =
            String::from_utf8(request(&site, "https://www.harborcourier.example/a/b?c=1")).unwrap();
        assert!(
            request.starts_with("GET /a/b?c=1 HTTP/1.1\r\nHost: www.harborcourier.example\r\n")
        );
        assert!(request.ends_with("\r\n\r\n"));
    }

    #[test]
    fn chunked_and_gzip_bodies_decode_back() {
        let site = Site::new(&Config::default(), 3);
        let body: Vec<u8> = (0..40_000u32).map(|i| (i % 251) as u8).collect();
        let (mut chunked, mut gzipped) = (false, false);
        for i in 0..200 {
            let response = response(
                &site,
                crate::clock::EPOCH,
                reply(&body),
                &mut rng(1, Stream::Capture, &[i]),
            );
            let text = &response.block;
            let split = text.windows(4).position(|w| w == b"\r\n\r\n").unwrap() + 4;
            let mut payload = text[split..].to_vec();
            if response.transfer_encoding.is_some() {
                chunked = true;
                payload = crate::testutil::dechunk(&payload);
            }
            if response.content_encoding.is_some() {
                gzipped = true;
                let mut plain = Vec::new();
                flate2::read::GzDecoder::new(&payload[..])
                    .read_to_end(&mut plain)
                    .unwrap();
                payload = plain;
            }
            assert_eq!(payload, body);
        }
        assert!(chunked && gzipped);
    }
}
