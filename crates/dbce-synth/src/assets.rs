//! The non-HTML resources of a site: a redirect, robots.txt, a stylesheet, a PNG logo and a
//! JSON feed. They get truth lines without content.

use std::io::Write as _;

use flate2::Compression;
use flate2::write::ZlibEncoder;
use rand::Rng as _;

use crate::clock::Timestamp;
use crate::http::Reply;
use crate::listing::{self, Teaser};
use crate::plan::Asset;
use crate::seed::{self, Stream};
use crate::site::Site;

/// The URL of `asset` and the reply the site gives for it at `at`.
pub(crate) fn fetch(site: &Site, asset: Asset, at: Timestamp) -> (String, Reply) {
    let base = site.base();
    let reply = |content_type: &str, body: Vec<u8>| Reply {
        status: 200,
        content_type: Some(content_type.to_owned()),
        headers: vec![("Cache-Control", "public, max-age=86400".to_owned())],
        body,
        encodable: content_type != "image/png",
    };
    match asset {
        Asset::Redirect => {
            let reply = Reply {
                status: 301,
                content_type: None,
                headers: vec![("Location", format!("{base}/"))],
                body: Vec::new(),
                encodable: false,
            };
            (format!("http://{}/", site.host), reply)
        }
        Asset::Robots => (
            format!("{base}/robots.txt"),
            reply("text/plain", robots(site)),
        ),
        Asset::Stylesheet => (
            format!("{base}/static/site.css?v=3"),
            reply("text/css", css(site, at)),
        ),
        Asset::Logo => (
            format!("{base}/static/logo.png"),
            reply("image/png", png(site)),
        ),
        Asset::Feed => (
            format!("{base}/api/latest.json"),
            reply("application/json", feed(site, at)),
        ),
    }
}

fn robots(site: &Site) -> Vec<u8> {
    format!(
        "User-agent: *\nDisallow: /search\nDisallow: /comments\nDisallow: /service/\n\n\
         Sitemap: {}/sitemap.xml\n",
        site.base()
    )
    .into_bytes()
}

fn css(site: &Site, at: Timestamp) -> Vec<u8> {
    let naming = site
        .design(at)
        .template(crate::template::TemplateKind::Article)
        .naming;
    let mut css = String::from(
        ":root{--accent:#0a58ca;--text:#1d1d1f}\n\
         body{margin:0;font-family:system-ui,sans-serif;color:var(--text)}\n",
    );
    for (i, class) in naming.wrappers().iter().enumerate() {
        let selector = class.split(' ').next().unwrap_or("x").replace(':', "\\:");
        css.push_str(&format!(
            ".{selector}{{box-sizing:border-box;padding:{}px {}px}}\n",
            i % 4 * 4,
            i % 3 * 8
        ));
    }
    css.push_str("a{color:var(--accent)}\n@media (max-width:768px){aside{display:none}}\n");
    css.into_bytes()
}

fn feed(site: &Site, at: Timestamp) -> Vec<u8> {
    let items: Vec<serde_json::Value> = listing::latest(site, at, None, 10, &[])
        .into_iter()
        .map(|j| {
            let teaser = Teaser::new(site, j, false);
            let published = site.published(j).iso();
            serde_json::json!({"title": teaser.headline, "url": teaser.url, "published": published})
        })
        .collect();
    let feed = serde_json::json!({"site": site.name, "generated": at.iso(), "items": items});
    feed.to_string().into_bytes()
}

/// A 32×32 RGB PNG in the site's colours.
fn png(site: &Site) -> Vec<u8> {
    const SIZE: u32 = 32;
    let mut rng = seed::rng(site.seed, Stream::Asset, &[site.index.into()]);
    let colour: [u8; 3] = [rng.random(), rng.random(), rng.random()];
    let mut pixels = Vec::with_capacity((SIZE * (SIZE * 3 + 1)) as usize);
    for y in 0..SIZE {
        pixels.push(0);
        for x in 0..SIZE {
            let on = (x / 8 + y / 8) % 2 == 0;
            pixels.extend(colour.map(|c| if on { c } else { 255 - c / 4 }));
        }
    }
    let mut zlib = ZlibEncoder::new(Vec::new(), Compression::new(6));
    // Writing to a Vec cannot fail.
    let _ = zlib.write_all(&pixels);
    let data = zlib.finish().unwrap_or_default();
    let mut header = Vec::with_capacity(13);
    header.extend_from_slice(&SIZE.to_be_bytes());
    header.extend_from_slice(&SIZE.to_be_bytes());
    header.extend_from_slice(&[8, 2, 0, 0, 0]);
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    for (kind, bytes) in [
        (b"IHDR", &header[..]),
        (b"IDAT", &data[..]),
        (b"IEND", &[][..]),
    ] {
        png_chunk(&mut out, kind, bytes);
    }
    out
}

fn png_chunk(out: &mut Vec<u8>, kind: &[u8; 4], data: &[u8]) {
    #[allow(clippy::cast_possible_truncation)]
    out.extend_from_slice(&(data.len() as u32).to_be_bytes());
    out.extend_from_slice(kind);
    out.extend_from_slice(data);
    let mut crc = flate2::Crc::new();
    crc.update(kind);
    crc.update(data);
    out.extend_from_slice(&crc.sum().to_be_bytes());
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;
    use crate::clock::{DAY, EPOCH};

    #[test]
    fn assets_have_their_types() {
        let site = Site::new(&Config::default(), 1);
        let at = EPOCH.plus(440 * DAY);
        let (url, redirect) = fetch(&site, Asset::Redirect, at);
        assert!(url.starts_with("http://") && redirect.status == 301 && redirect.body.is_empty());
        let (_, logo) = fetch(&site, Asset::Logo, at);
        assert!(
            logo.body.starts_with(b"\x89PNG\r\n\x1a\n")
                && logo.body.ends_with(&[0xAE, 0x42, 0x60, 0x82])
        );
        let (_, feed) = fetch(&site, Asset::Feed, at);
        let value: serde_json::Value = serde_json::from_slice(&feed.body).unwrap();
        assert_eq!(value["items"].as_array().map(Vec::len), Some(10));
    }
}
