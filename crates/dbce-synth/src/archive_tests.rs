use std::collections::{BTreeMap, BTreeSet};
use std::sync::OnceLock;

use super::*;
use crate::testutil::{Message, collapse, read_http, read_warc, visible_text};

/// Six sites (every profile), several captures per URL.
fn config() -> Config {
    Config {
        sites: 6,
        pages: 96,
        captures_max: 5,
        ..Config::default()
    }
}

fn run(config: &Config) -> (Vec<u8>, Vec<u8>) {
    let (mut archive, mut truth) = (Vec::new(), Vec::new());
    generate(config, &mut archive, &mut truth).unwrap();
    (archive, truth)
}

/// The archive of [`config`], read back: truth lines with their response messages.
fn archive() -> &'static (Vec<u8>, Vec<TruthRecord>, Vec<Message>) {
    static ARCHIVE: OnceLock<(Vec<u8>, Vec<TruthRecord>, Vec<Message>)> = OnceLock::new();
    ARCHIVE.get_or_init(|| {
        let (warc, truth) = run(&config());
        let truth: Vec<TruthRecord> = truth
            .split(|&b| b == b'\n')
            .filter(|l| !l.is_empty())
            .map(|l| serde_json::from_slice(l).unwrap())
            .collect();
        let messages = read_warc(&warc)
            .iter()
            .filter(|r| r.field("WARC-Type") == "response")
            .map(|r| read_http(&r.block))
            .collect();
        (warc, truth, messages)
    })
}

fn pages() -> impl Iterator<Item = (&'static TruthRecord, &'static Message)> {
    let (_, truth, messages) = archive();
    truth.iter().zip(messages).filter(|(t, _)| t.html)
}

#[test]
fn same_seed_same_bytes_whatever_the_threads() {
    let small = Config {
        sites: 3,
        pages: 30,
        captures_max: 3,
        ..Config::default()
    };
    let one = run(&Config {
        threads: 1,
        ..small.clone()
    });
    let two = run(&Config {
        threads: 2,
        ..small.clone()
    });
    assert!(one == two, "thread count changed the output");
    assert!(run(&Config { seed: 2, ..small }).0 != one.0);
}

#[test]
fn requests_precede_their_responses_and_truth_follows_the_archive() {
    let (warc, truth, _) = archive();
    let records = read_warc(warc);
    assert_eq!(records[0].field("WARC-Type"), "warcinfo");
    assert_eq!(records.len(), 1 + 2 * truth.len());
    let mut last_date = "";
    for (pair, line) in records[1..].chunks(2).zip(truth) {
        let (request, response) = (&pair[0], &pair[1]);
        assert_eq!(
            (request.field("WARC-Type"), response.field("WARC-Type")),
            ("request", "response")
        );
        assert_eq!(
            request.field("WARC-Concurrent-To"),
            response.field("WARC-Record-ID")
        );
        assert_eq!(response.field("WARC-Record-ID"), line.id);
        assert_eq!(response.field("WARC-Target-URI"), line.url);
        assert_eq!(response.field("WARC-Date"), line.date);
        assert!(line.date.as_str() >= last_date);
        last_date = &line.date;
        let message = read_http(&response.block);
        assert!(
            message
                .start
                .starts_with(&format!("HTTP/1.1 {} ", line.status))
        );
        assert_eq!(
            message.headers.get("Transfer-Encoding"),
            line.transfer_encoding.as_deref()
        );
        assert_eq!(
            message.headers.get("Content-Encoding"),
            line.content_encoding.as_deref()
        );
        assert!(request.block.starts_with(b"GET /"));
    }
    let ids: BTreeSet<&str> = records.iter().map(|r| r.field("WARC-Record-ID")).collect();
    assert_eq!(ids.len(), records.len());
}

#[test]
fn every_kind_of_response_is_there() {
    let (_, truth, _) = archive();
    let count = |f: &dyn Fn(&TruthRecord) -> bool| truth.iter().filter(|t| f(t)).count();
    assert!(count(&|t| t.kind == PageKind::Article) > 100);
    assert!(count(&|t| t.kind == PageKind::Index) > 20);
    assert!(count(&|t| t.status == 301) == 6);
    for media in ["image/png", "application/json", "text/css", "text/plain"] {
        assert!(
            count(&|t| t.content_type.as_deref() == Some(media) && !t.html) > 0,
            "{media}"
        );
    }
    assert!(
        count(&|t| t.transfer_encoding.is_some()) > 0
            && count(&|t| t.content_encoding.is_some()) > 0
    );
    assert!(
        truth
            .iter()
            .filter(|t| !t.html)
            .all(|t| t.content.is_empty() && t.boilerplate.is_empty())
    );
}

/// Every truth string is on the page as a reader sees it; content and the rest never overlap.
#[test]
fn truth_strings_are_in_the_page_text() {
    for (truth, message) in pages() {
        let label = truth.charset.as_deref().unwrap();
        assert_eq!(
            message.headers.get("Content-Type"),
            Some(format!("text/html; charset={label}").as_str())
        );
        let encoding = encoding_rs::Encoding::for_label(label.as_bytes()).unwrap();
        let (html, _, malformed) = encoding.decode(&message.body);
        assert!(!malformed, "{}", truth.url);
        assert!(
            html.contains(&format!("charset={label}"))
                || html.contains(&format!("charset=\"{label}\""))
        );
        let text = visible_text(&html);
        let content: BTreeSet<&str> = truth.content_lines().collect();
        for line in &content {
            for cell in line.split('\t') {
                assert!(text.contains(&collapse(cell)), "{}: {cell}", truth.url);
            }
        }
        for other in truth.boilerplate.iter().chain(&truth.comments) {
            assert!(text.contains(&collapse(other)), "{}: {other}", truth.url);
            assert!(!content.contains(other.as_str()), "{}: {other}", truth.url);
        }
    }
}

#[test]
fn charsets_and_scripts_are_mixed() {
    let mut seen = BTreeSet::new();
    for (truth, message) in pages() {
        let charset = truth.charset.clone().unwrap();
        let non_ascii = message.body.iter().any(|b| !b.is_ascii());
        if charset != "utf-8" && non_ascii {
            assert!(
                std::str::from_utf8(&message.body).is_err(),
                "{} is not really {charset}",
                truth.url
            );
        }
        let script = |range: std::ops::RangeInclusive<char>| {
            truth.content.chars().any(|c| range.contains(&c))
        };
        if script('а'..='я') {
            seen.insert("cyrillic");
        }
        if script('\u{4E00}'..='\u{9FFF}') {
            seen.insert("cjk");
        }
        if charset != "utf-8" && truth.content.contains(['ä', 'ö', 'ü', 'ß', 'é', 'è']) {
            seen.insert("latin-8bit");
        }
        if charset == "iso-8859-1" {
            assert!(
                !message.body.iter().any(|b| (0x80..0xA0).contains(b)),
                "{}",
                truth.url
            );
        }
        seen.insert(if charset == "windows-1252" {
            "windows-1252"
        } else if charset == "iso-8859-1" {
            "latin1"
        } else {
            "utf-8"
        });
    }
    assert_eq!(
        seen,
        [
            "cjk",
            "cyrillic",
            "latin-8bit",
            "latin1",
            "utf-8",
            "windows-1252"
        ]
        .into()
    );
}

/// A content line found on several URLs is an article headline (on its article and on index
/// pages) or an index page heading (once per site, on sites sharing a language).
#[test]
fn content_lines_are_unique_to_their_url() {
    let mut urls: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    let mut headlines: BTreeMap<&str, &str> = BTreeMap::new();
    let mut index_headings: BTreeMap<&str, BTreeSet<&str>> = BTreeMap::new();
    let mut kinds = BTreeMap::new();
    for (truth, _) in pages() {
        kinds.insert(truth.url.as_str(), truth.kind);
        for line in truth.content_lines() {
            urls.entry(line).or_default().insert(&truth.url);
        }
        let first = truth.content_lines().next().unwrap();
        if truth.kind == PageKind::Article {
            headlines.insert(first, &truth.url);
        } else {
            index_headings.entry(first).or_default().insert(&truth.site);
        }
    }
    for (line, on) in urls.iter().filter(|(_, on)| on.len() > 1) {
        if let Some(article) = headlines.get(line) {
            assert!(
                on.iter()
                    .all(|url| url == article || kinds[url] == PageKind::Index),
                "{line}"
            );
        } else {
            let sites = index_headings
                .get(line)
                .unwrap_or_else(|| panic!("{line} repeats on {on:?}"));
            assert_eq!(sites.len(), on.len(), "{line} repeats within a site");
        }
    }
}

#[test]
fn captures_differ_only_as_intended() {
    let mut by_url: BTreeMap<&str, Vec<&TruthRecord>> = BTreeMap::new();
    for (truth, _) in pages().filter(|(t, _)| t.kind == PageKind::Article) {
        by_url.entry(&truth.url).or_default().push(truth);
    }
    let (mut typos, mut updates, mut growing, mut rotating) = (0, 0, 0, 0);
    for captures in by_url.values() {
        for pair in captures.windows(2) {
            let (before, after) = (&pair[0], &pair[1]);
            let old: BTreeSet<&str> = before.content_lines().collect();
            let new: BTreeSet<&str> = after.content_lines().collect();
            let removed: Vec<&str> = old.difference(&new).copied().collect();
            let added: Vec<&str> = new.difference(&old).copied().collect();
            assert!(removed.len() <= 1 && added.len() <= 2, "{}", after.url);
            if let [typo] = removed[..] {
                assert!(
                    added.iter().any(|fixed| fixed.len() == typo.len()),
                    "{}",
                    after.url
                );
                typos += 1;
            }
            updates += usize::from(added.len() > removed.len());
            assert!(after.comments.starts_with(&before.comments));
            growing += usize::from(after.comments.len() > before.comments.len());
            rotating += usize::from(after.boilerplate != before.boilerplate);
        }
    }
    assert!(
        typos > 0 && updates > 0 && growing > 0 && rotating > 0,
        "{typos} {updates} {growing} {rotating}"
    );
}

#[test]
fn one_site_switches_template_mid_timeline() {
    let mut versions: BTreeMap<&str, Vec<(&str, bool)>> = BTreeMap::new();
    for (truth, _) in pages() {
        let template = truth.template.as_deref().unwrap();
        versions
            .entry(&truth.site)
            .or_default()
            .push((&truth.date, template.ends_with("@v2")));
    }
    for (site, seen) in &versions {
        let switched = seen.iter().any(|(_, v2)| *v2);
        assert_eq!(switched, *site == "rheinblick", "{site}");
        if switched {
            let first_v2 = seen.iter().position(|(_, v2)| *v2).unwrap();
            assert!(first_v2 > 0 && seen[first_v2..].iter().all(|(_, v2)| *v2));
        }
    }
}
