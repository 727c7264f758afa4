//! The three-page fixture `testdata/eval/mini` loaded, split, written as a WARC file and read
//! back by `dbce-warc` and `dbce-http`.

use std::collections::BTreeMap;
use std::fs::File;
use std::path::{Path, PathBuf};

use dbce_eval::{Dataset, EVAL_WARC_DATE, Split, rouge_lsum};
use dbce_http::{CharsetSource, HttpLimits, decode_body, decode_html, parse_response};
use dbce_warc::{DigestCheck, Entry, ReaderConfig, RecordType, WarcReader};

fn mini() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../testdata/eval/mini")
}

#[test]
fn the_fixture_loads_with_splits() {
    let set = Dataset::load(mini()).unwrap();
    assert_eq!(set.name, "mini");
    assert_eq!((set.listed, set.missing.len()), (3, 0));
    let ids: Vec<&str> = set.pages.iter().map(|p| p.id.as_str()).collect();
    assert_eq!(ids, ["harbor-1", "harbor-2", "lone page"]);
    assert_eq!(set.pages[2].url, None);
    // harbor-2 is stored gzipped; every page has a type.
    assert!(set.pages[1].html_path.ends_with("html/harbor-2.html.gz"));
    assert!(
        set.pages[1]
            .read_html()
            .unwrap()
            .starts_with(b"<!DOCTYPE html>")
    );
    let types: Vec<Option<&str>> = set.pages.iter().map(|p| p.page_type.as_deref()).collect();
    assert_eq!(types, [Some("article"), Some("article"), Some("forum")]);
    let truth = set.truth_pages();
    assert_eq!(truth[2].record_id, set.record_id(&set.pages[2]));
    assert_eq!(
        (truth[1].split, truth[2].split),
        (Split::Multi, Split::Alone)
    );
    assert_eq!(truth[2].page_type.as_deref(), Some("forum"));
    assert_eq!(truth[0].text, set.pages[0].ground_truth);
    assert_eq!(
        set.pages[2].ground_truth,
        "Grüße aus Köln\nDer Dom steht noch. Das Wetter ist gut!\n"
    );
    let sizes: Vec<(String, u64)> = set.site_sizes().into_iter().collect();
    assert_eq!(sizes, [("harbor.example".to_owned(), 2)]);
    assert_eq!(set.splits(), [Split::Multi, Split::Multi, Split::Alone]);
    let gt = &set.pages[0].ground_truth;
    assert_eq!(rouge_lsum(gt, gt).f1, 1.0);
}

#[test]
fn the_archive_reads_back_page_by_page() {
    let set = Dataset::load(mini()).unwrap();
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("mini.warc.gz");
    let map = set.write_warc(&path).unwrap();
    assert_eq!(map, set.warc_map());
    assert_eq!(map.len(), 3);

    let config = ReaderConfig {
        verify_digests: true,
        ..ReaderConfig::default()
    };
    let reader = WarcReader::new(File::open(&path).unwrap(), config).unwrap();
    let mut seen = BTreeMap::new();
    for entry in reader {
        let Entry::Record(record) = entry.unwrap() else {
            panic!("skip in a fresh archive");
        };
        assert_eq!(record.header.record_type, RecordType::Response);
        let digests = record.digests.unwrap();
        assert_eq!(
            (digests.block, digests.payload),
            (DigestCheck::Valid, DigestCheck::Valid)
        );
        let id = record.header.record_id().unwrap().to_owned();
        let page_id = map.page_id(&id).unwrap();
        let page = set.pages.iter().find(|p| p.id == page_id).unwrap();
        assert_eq!(id, set.record_id(page));
        assert_eq!(record.header.date(), Some(EVAL_WARC_DATE));
        let uri = record.header.target_uri().unwrap().to_owned();
        assert_eq!(
            Some(&uri),
            page.url.as_ref().or(Some(&set.target_uri(page)))
        );

        let block = record.body.bytes().unwrap();
        let limits = HttpLimits::default();
        let response = parse_response(block, &limits).unwrap();
        assert_eq!(response.status, 200);
        assert_eq!(response.content_type(), Some("text/html; charset=utf-8"));
        let body = decode_body(&response, &limits).unwrap();
        assert_eq!(body.bytes.as_ref(), page.read_html().unwrap());
        // The HTTP charset wins over the lone page's `<meta charset="windows-1252">`.
        let html = decode_html(&body.bytes, response.content_type());
        assert_eq!(html.source, CharsetSource::Http);
        seen.insert(page_id.to_owned(), uri);
    }
    let expected: BTreeMap<String, String> = [
        ("harbor-1", "https://www.harbor.example/news/tide-record"),
        ("harbor-2", "https://news.harbor.example/news/ferry-strike"),
        ("lone page", "http://mini-lone-page.invalid/lone%20page"),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.to_owned()))
    .collect();
    assert_eq!(seen, expected);
    assert_eq!(
        map.page_id("<urn:dbce:eval:mini:lone%20page>"),
        Some("lone page")
    );
}

/// Pages without URL must each be a site of their own under dbce's site rule (registrable
/// domain by the public suffix list), which `http://{dataset}.invalid/{id}` would not give.
#[test]
fn synthetic_urls_are_sites_of_their_own() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("readability");
    std::fs::create_dir_all(&dir).unwrap();
    let ids = [
        "001",
        "002",
        "003-metadata-preferred",
        "Lone.Page",
        "lone_page2",
    ];
    let meta: String = ids
        .iter()
        .map(|id| format!("{{\"id\": \"{id}\", \"url\": null}}\n"))
        .collect();
    std::fs::write(dir.join("meta.jsonl"), meta).unwrap();
    for sub in ["html", "gt"] {
        std::fs::create_dir_all(dir.join(sub)).unwrap();
    }
    for id in ids {
        std::fs::write(dir.join(format!("html/{id}.html")), "<p>x</p>").unwrap();
        std::fs::write(dir.join(format!("gt/{id}.txt")), "x").unwrap();
    }
    let set = Dataset::load(&dir).unwrap();
    assert_eq!(set.splits(), [Split::Alone; 5]);
    let mut sites = std::collections::BTreeSet::new();
    for page in &set.pages {
        let url = url::Url::parse(&set.target_uri(page)).unwrap();
        let host = url.host_str().unwrap().to_owned();
        let site = psl::domain_str(&host).unwrap().to_owned();
        assert!(site.ends_with(".invalid"), "{site}");
        sites.insert(site);
    }
    assert_eq!(sites.len(), ids.len());
    set.write_warc(tmp.path().join("r.warc.gz")).unwrap();
}
