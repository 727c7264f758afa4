//! `dbce extract`: one page's main content, and the same text as `dbce run` for a page alone.

use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};
use std::process::Stdio;

use dbce_warc::{NewRecord, WarcWriter};

use crate::dbce;

const URL: &str = "https://valley-courier.example/news/flood";

fn article() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/extract/article.html")
}

fn extract(args: &[&str]) -> String {
    let output = dbce()
        .arg("extract")
        .arg(article())
        .args(args)
        .output()
        .unwrap();
    assert_eq!(
        output.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn extract_prints_the_article_as_text_markdown_or_json() {
    let text = extract(&["--url", URL]);
    assert!(text.starts_with("How the river towns prepared for the flood\nBy Ana Berg"));
    assert!(text.contains("\nOld Mill\n1.2 m\n"), "{text}");
    assert!(!text.contains("All rights reserved"), "{text}");
    assert!(!text.contains("should never be text"), "{text}");

    let markdown = extract(&["--url", URL, "--format", "markdown"]);
    assert!(markdown.starts_with("# How the river towns prepared for the flood\n\nBy Ana Berg"));
    for part in [
        "\n\n## What the towns did\n\n- Closed the riverside car parks",
        "\n| Gauge | Normal level | Peak level |\n| --- | --- | --- |\n| Old Mill | 1.2 m | 3.5 m |\n",
        "\n\n> We have never seen the water this high",
        "`curl https://example.org/gauges.csv`",
        "\n```\nimport csv\n\nwith open(\"gauges.csv\") as data:\n    rows = csv.DictReader(data)\n    for row in rows:\n        print(row[\"gauge\"], row[\"level\"])\n```\n",
    ] {
        assert!(markdown.contains(part), "{part:?} in\n{markdown}");
    }

    let json: serde_json::Value =
        serde_json::from_str(&extract(&["--url", URL, "--format", "json"])).unwrap();
    assert_eq!(json["url"], URL);
    assert_eq!(json["text"].as_str().unwrap(), text.trim_end());
    assert_eq!(json["markdown"].as_str().unwrap(), markdown.trim_end());
    assert_eq!(json["decided_by"], "single");
    assert!(json["title"].as_str().unwrap().starts_with("How the river"));
    assert!(json.get("empty_reason").is_none());
}

/// `dbce extract -` of `html`, with the test's URL.
fn extract_stdin(html: &[u8]) -> String {
    let mut child = dbce()
        .args(["extract", "-", "--url", URL])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(html).unwrap();
    let output = child.wait_with_output().unwrap();
    assert_eq!(output.status.code(), Some(0));
    String::from_utf8(output.stdout).unwrap()
}

#[test]
fn a_page_that_lost_its_title_end_tag_keeps_its_story() {
    // Without `</title>` the HTML5 parser reads the rest of the page as the title; dbce parses
    // it again with the title closed before the next tag, and the story is there as before.
    let html = std::fs::read_to_string(article()).unwrap();
    let broken = html.replacen("</title>", "", 1);
    assert_ne!(broken, html);
    assert_eq!(extract_stdin(broken.as_bytes()), extract(&["--url", URL]));
}

/// Where the test article's `<article>` element starts and ends in its HTML.
fn story(html: &str) -> (usize, usize) {
    let end = html.find("</article>").unwrap() + "</article>".len();
    (html.find("<article").unwrap(), end)
}

#[test]
fn a_story_streamed_by_react_is_read_in_its_place() {
    // React's streaming sends the suspended story after the footer, hidden, and a script moves
    // it to its placeholder; dbce makes the move when parsing, so the text is the page's own.
    let html = std::fs::read_to_string(article()).unwrap();
    let (start, end) = story(&html);
    let streamed = format!(
        "{}<!--$?--><template id=\"B:0\"></template><p>Loading…</p><!--/$-->{}",
        &html[..start],
        &html[end..],
    )
    .replacen(
        "</body>",
        &format!(
            "<div hidden id=\"S:0\">{}</div><script>$RC(\"B:0\",\"S:0\")</script></body>",
            &html[start..end]
        ),
        1,
    );
    let text = extract(&["--url", URL]);
    let streamed_text = extract_stdin(streamed.as_bytes());
    assert!(streamed_text.contains("By Ana Berg"), "{streamed_text}");
    // The fallback stays in the DOM beside the story (its comments are gone before the move),
    // and the classifier leaves its one word out: the text is the whole page's.
    assert_eq!(streamed_text, text);
}

#[test]
fn extract_reads_standard_input() {
    let html = std::fs::read(article()).unwrap();
    assert_eq!(extract_stdin(&html), extract(&["--url", URL]));
}

#[test]
fn extract_of_a_missing_file_is_an_error() {
    let output = dbce()
        .args(["extract", "/no/such/page.html"])
        .output()
        .unwrap();
    assert_eq!(output.status.code(), Some(2));
    assert!(String::from_utf8_lossy(&output.stderr).contains("cannot read"));
}

/// The page alone in an archive: `dbce run` classifies it by the single-page route, and its
/// text and Markdown are byte-identical to `dbce extract`'s.
#[test]
fn extract_gives_the_text_run_gives_a_page_alone() {
    let dir = tempfile::tempdir().unwrap();
    let html = std::fs::read(article()).unwrap();
    let record = NewRecord::html_response("<urn:test:article>", "2024-03-12T08:00:00Z", URL, &html);
    let mut writer = WarcWriter::new(Vec::new());
    writer.write_record(&record).unwrap();
    let warc = dir.path().join("page.warc.gz");
    std::fs::write(&warc, writer.finish().unwrap()).unwrap();
    let out = dir.path().join("out");
    let status = dbce()
        .args(["run", "--quiet", "--markdown", "--out"])
        .arg(&out)
        .arg(&warc)
        .status()
        .unwrap();
    assert!(status.success());
    let mut lines = String::new();
    for entry in std::fs::read_dir(out.join("text")).unwrap() {
        let bytes = std::fs::read(entry.unwrap().path()).unwrap();
        flate2::read::GzDecoder::new(&bytes[..])
            .read_to_string(&mut lines)
            .unwrap();
    }
    let line: serde_json::Value = serde_json::from_str(lines.trim()).unwrap();
    assert_eq!(line["method"], "single");
    assert_eq!(
        format!("{}\n", line["text"].as_str().unwrap()),
        extract(&["--url", URL])
    );
    assert_eq!(
        format!("{}\n", line["markdown"].as_str().unwrap()),
        extract(&["--url", URL, "--format", "markdown"])
    );
}

#[test]
fn a_story_written_once_per_screen_width_is_read_once() {
    // Site builders write a section once per screen width and let the style sheet hide all but
    // one; dbce reads no CSS, but drops the second copy of a passage one copy of which lies in
    // such markup. The page reads as with one copy; as plain markup both copies stay.
    let html = std::fs::read_to_string(article()).unwrap();
    let (start, end) = story(&html);
    let story = &html[start..end];
    let twice = |wide: &str, narrow: &str| {
        format!(
            "{}<div class=\"{wide}\">{story}</div><div class=\"{narrow}\">{story}</div>{}",
            &html[..start],
            &html[end..],
        )
    };
    let text = extract(&["--url", URL]);
    let responsive = extract_stdin(twice("hidden-mobile", "hidden-desktop").as_bytes());
    assert_eq!(responsive, text);
    let plain = extract_stdin(twice("wide", "narrow").as_bytes());
    assert_eq!(plain.matches("By Ana Berg").count(), 2, "{plain}");
}
