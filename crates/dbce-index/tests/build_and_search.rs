//! Building small indexes and searching them through the public API.

use std::path::{Path, PathBuf};

use dbce_index::{
    HIGHLIGHT, Hit, IndexConfig, IndexError, IndexedPage, SNIPPET_CHARS, build_index,
    build_index_with, fingerprint, search,
};
use tempfile::TempDir;

/// A page of the fixture; `n` sets its id, URL and source offset.
fn page(n: u64, site: &str, date: &str, title: &str, text: &str) -> IndexedPage {
    IndexedPage {
        id: format!("<urn:uuid:00000000-0000-0000-0000-{n:012}>"),
        url: format!("https://www.{site}/articles/{n}"),
        site: site.to_owned(),
        date: date.to_owned(),
        lang: "eng".to_owned(),
        title: title.to_owned(),
        text: text.to_owned(),
        file: format!("archives/crawl-{}.warc.gz", n % 2),
        offset: 10_000 * n,
        length: 2_000 + n,
    }
}

/// Five pages on two sites: three mention lighthouses, one of them in its title and often.
fn pages() -> Vec<IndexedPage> {
    vec![
        page(
            1,
            "coast.example",
            "2024-03-01T08:00:00Z",
            "The lighthouse keeper",
            "The lighthouse keeper climbed the lighthouse stairs every evening.\n\
             He lit the lighthouse lamp and watched the ships in the harbour.\n\
             Storms never kept the lighthouse dark.",
        ),
        page(
            2,
            "coast.example",
            "2024-04-15T10:30:00.250Z",
            "Harbour news",
            "Fishing boats returned to the harbour before the storm.\n\
             From the quay one could see a lighthouse far away.",
        ),
        page(
            3,
            "news.example",
            "2023-11-20T16:45:00Z",
            "City council",
            "The council voted on the new tram line.\n\
             Construction starts in spring and ends in two years.",
        ),
        page(
            4,
            "news.example",
            "not a date",
            "Weekend trips",
            "Families drove to the coast to visit an old lighthouse and a museum.",
        ),
        page(
            5,
            "news.example",
            "2024-05-01T12:00:00Z",
            "Tram line opens",
            "The first tram carried passengers through the old town.\n\
             The mayor cut the ribbon at the depot.",
        ),
    ]
}

/// A built index of [`pages`] in a temporary directory.
fn built() -> (TempDir, PathBuf) {
    let tmp = tempfile::tempdir().expect("temporary directory");
    let dir = tmp.path().join("index");
    let summary = build_index(&dir, pages()).expect("the fixture builds");
    assert_eq!(summary.documents, 5);
    assert_eq!(summary.undated, 1);
    assert_eq!(summary.segments, 1);
    assert!(summary.bytes > 0);
    (tmp, dir)
}

fn urls(hits: &[Hit]) -> Vec<&str> {
    hits.iter().map(|hit| hit.url.as_str()).collect()
}

#[test]
fn hits_are_ranked_by_relevance() {
    let (_tmp, dir) = built();
    let hits = search(&dir, "lighthouse", 10).unwrap();
    assert_eq!(hits.len(), 3, "{hits:?}");
    assert_eq!(hits[0].url, "https://www.coast.example/articles/1");
    assert!(hits.windows(2).all(|w| w[0].score >= w[1].score));
    assert!(hits[0].score > hits[1].score);
    let first = &hits[0];
    assert_eq!(first.id, "<urn:uuid:00000000-0000-0000-0000-000000000001>");
    assert_eq!(first.site, "coast.example");
    assert_eq!(first.title, "The lighthouse keeper");
    assert_eq!(
        (first.file.as_str(), first.offset, first.length),
        ("archives/crawl-1.warc.gz", 10_000, 2_001)
    );
    assert_eq!(search(&dir, "lighthouse", 2).unwrap().len(), 2);
    assert!(search(&dir, "lighthouse", 0).unwrap().is_empty());
}

#[test]
fn all_terms_must_match_unless_or_is_written() {
    let (_tmp, dir) = built();
    let both = search(&dir, "lighthouse harbour", 10).unwrap();
    let mut both = urls(&both);
    both.sort_unstable();
    assert_eq!(
        both,
        [
            "https://www.coast.example/articles/1",
            "https://www.coast.example/articles/2"
        ]
    );
    assert_eq!(search(&dir, "lighthouse OR tram", 10).unwrap().len(), 5);
    assert_eq!(search(&dir, "lighthouse -harbour", 10).unwrap().len(), 1);
    assert!(search(&dir, "zeppelin", 10).unwrap().is_empty());
}

#[test]
fn matching_is_case_insensitive_and_unstemmed() {
    let (_tmp, dir) = built();
    assert_eq!(search(&dir, "LightHouse", 10).unwrap().len(), 3);
    // "trams" is not "tram": no stemming.
    assert!(search(&dir, "trams", 10).unwrap().is_empty());
    assert_eq!(search(&dir, "\"tram line\"", 10).unwrap().len(), 2);
}

#[test]
fn site_filters_exactly() {
    let (_tmp, dir) = built();
    let hits = search(&dir, "lighthouse site:news.example", 10).unwrap();
    assert_eq!(urls(&hits), ["https://www.news.example/articles/4"]);
    let hits = search(&dir, "site:coast.example", 10).unwrap();
    assert_eq!(hits.len(), 2);
    assert!(hits.iter().all(|hit| hit.site == "coast.example"));
    // Only the filter matched: the snippet is the text's beginning, unmarked.
    assert!(hits.iter().all(
        |hit| hit.snippet.starts_with("The lighthouse keeper climbed")
            || hit.snippet.starts_with("Fishing boats")
    ));
    assert!(hits.iter().all(|hit| !hit.snippet.contains(HIGHLIGHT)));
    assert!(search(&dir, "site:example", 10).unwrap().is_empty());
}

#[test]
fn snippets_mark_the_terms_on_one_line() {
    let (_tmp, dir) = built();
    let hits = search(&dir, "harbour", 10).unwrap();
    assert_eq!(hits.len(), 2);
    for hit in &hits {
        assert!(hit.snippet.contains("**harbour**"), "{hit:?}");
        assert!(!hit.snippet.contains('\n'), "{hit:?}");
        let unmarked = hit.snippet.replace(HIGHLIGHT, "");
        assert!(unmarked.chars().count() <= SNIPPET_CHARS, "{hit:?}");
    }
    // The title matched too, but the snippet is from the text, in its original case.
    let hits = search(&dir, "storms", 10).unwrap();
    assert_eq!(hits.len(), 1);
    assert!(hits[0].snippet.contains("**Storms**"), "{:?}", hits[0]);
}

#[test]
fn long_texts_get_a_snippet_around_the_term() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("index");
    let filler = "Nothing happened in the village that day.\n".repeat(40);
    let text = format!("{filler}Then a comet crossed the sky.\n{filler}");
    build_index(
        &dir,
        [page(1, "a.example", "2024-01-01T00:00:00Z", "Days", &text)],
    )
    .unwrap();
    let hits = search(&dir, "comet", 1).unwrap();
    assert_eq!(hits.len(), 1);
    let snippet = &hits[0].snippet;
    assert!(snippet.contains("**comet**"), "{snippet}");
    assert!(
        snippet.replace(HIGHLIGHT, "").chars().count() <= SNIPPET_CHARS,
        "{snippet}"
    );
}

#[test]
fn dates_round_trip_and_select_ranges() {
    let (_tmp, dir) = built();
    let dates: Vec<(String, String)> = search(&dir, "the OR an", 10)
        .unwrap()
        .into_iter()
        .map(|hit| (hit.url, hit.date))
        .collect();
    let expected: Vec<(String, String)> = pages().into_iter().map(|p| (p.url, p.date)).collect();
    let mut dates = dates;
    dates.sort();
    assert_eq!(dates, expected, "each hit keeps its date as written");

    let range = "date:[2024-01-01T00:00:00Z TO 2024-05-01T00:00:00Z}";
    let mut in_range = urls(&search(&dir, range, 10).unwrap())
        .into_iter()
        .map(str::to_owned)
        .collect::<Vec<_>>();
    in_range.sort();
    assert_eq!(
        in_range,
        [
            "https://www.coast.example/articles/1",
            "https://www.coast.example/articles/2"
        ]
    );
    let from_may = search(&dir, "date:[2024-05-01T00:00:00Z TO *]", 10).unwrap();
    assert_eq!(urls(&from_may), ["https://www.news.example/articles/5"]);
    // The undated page is still found by its words.
    assert_eq!(search(&dir, "museum", 10).unwrap()[0].date, "not a date");
}

#[test]
fn one_page_by_id_or_url() {
    let (_tmp, dir) = built();
    let hits = search(
        &dir,
        "id:\"<urn:uuid:00000000-0000-0000-0000-000000000003>\"",
        10,
    )
    .unwrap();
    assert_eq!(urls(&hits), ["https://www.news.example/articles/3"]);
    let hits = search(&dir, "url:\"https://www.news.example/articles/5\"", 10).unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].title, "Tram line opens");
}

#[test]
fn equal_scores_keep_input_order() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("index");
    let twins = (1..=4).map(|n| page(n, "a.example", "2024-01-01T00:00:00Z", "Same", "same words"));
    build_index(&dir, twins).unwrap();
    let hits = search(&dir, "words", 10).unwrap();
    let offsets: Vec<u64> = hits.iter().map(|hit| hit.offset).collect();
    assert_eq!(offsets, [10_000, 20_000, 30_000, 40_000]);
    assert!(hits.iter().all(|hit| hit.score == hits[0].score));
}

#[test]
fn an_empty_index_finds_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("index");
    let summary = build_index(&dir, []).unwrap();
    assert_eq!((summary.documents, summary.segments), (0, 0));
    assert!(search(&dir, "anything", 10).unwrap().is_empty());
    assert!(fingerprint(&dir).unwrap().starts_with("sha1:"));
}

#[test]
fn bad_queries_are_errors_with_the_parser_message() {
    let (_tmp, dir) = built();
    for query in ["nosuchfield:x", "date:[yesterday TO today]"] {
        match search(&dir, query, 10) {
            Err(IndexError::Query { query: q, message }) => {
                assert_eq!(q, query);
                assert!(!message.is_empty());
            }
            other => panic!("{query}: {other:?}"),
        }
    }
    let error = search(&dir, "nosuchfield:x", 0).unwrap_err();
    assert!(error.to_string().contains("nosuchfield"), "{error}");
}

#[test]
fn a_missing_index_is_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let absent = tmp.path().join("absent");
    assert!(matches!(search(&absent, "x", 10), Err(IndexError::Missing { dir }) if dir == absent));
    // A directory without meta.json is no index either.
    assert!(matches!(
        search(tmp.path(), "x", 10),
        Err(IndexError::Missing { .. })
    ));
    let message = search(&absent, "x", 10).unwrap_err().to_string();
    assert!(
        message.contains("absent") && message.contains("no index"),
        "{message}"
    );
}

#[test]
fn build_refuses_a_directory_with_files_and_leaves_it_alone() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("index");
    std::fs::create_dir(&dir).unwrap();
    std::fs::write(dir.join("notes.txt"), "keep me").unwrap();
    let error = build_index(&dir, pages()).unwrap_err();
    assert!(matches!(error, IndexError::Exists { .. }), "{error:?}");
    assert_eq!(
        std::fs::read_to_string(dir.join("notes.txt")).unwrap(),
        "keep me"
    );
    let file = tmp.path().join("file");
    std::fs::write(&file, "x").unwrap();
    assert!(matches!(
        build_index(&file, []),
        Err(IndexError::Exists { .. })
    ));
}

#[test]
fn build_accepts_an_empty_directory_and_leaves_no_temporary_one() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("index");
    std::fs::create_dir(&dir).unwrap();
    // A leftover of a crashed build is replaced.
    let leftover = tmp.path().join("index.tmp");
    std::fs::create_dir(&leftover).unwrap();
    std::fs::write(leftover.join("junk"), "x").unwrap();
    build_index(&dir, pages()).unwrap();
    assert!(!leftover.exists());
    assert_eq!(search(&dir, "tram", 10).unwrap().len(), 2);
    assert!(matches!(
        build_index(&dir, pages()),
        Err(IndexError::Exists { .. })
    ));
}

/// `n` pages that share about 3 KB of text and differ by one word, `n{i:05}`.
///
/// Equal pages take equal memory, so the writer flushes segments with equal document counts;
/// tantivy lists such segments in hash-map order, which the build must not follow.
fn bulk_pages(n: u64) -> Vec<IndexedPage> {
    let mut state = 0x2545_F491_4F6C_DD1D_u64;
    let mut shared = String::new();
    while shared.len() < 3_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        shared.push_str(&format!("w{} ", state % 3_000));
    }
    (0..n)
        .map(|i| {
            let text = format!("common {shared}n{i:05}");
            page(
                i,
                "bulk.example",
                "2024-01-01T00:00:00Z",
                &format!("page {i:05}"),
                &text,
            )
        })
        .collect()
}

/// Builds `pages` into `tmp/name`; returns the directory and the number of segments.
fn build_in(tmp: &Path, name: &str, memory_budget: u64) -> (PathBuf, u64) {
    let dir = tmp.join(name);
    let config = IndexConfig {
        memory_budget,
        ..IndexConfig::default()
    };
    let summary = build_index_with(&dir, bulk_pages(PAGES), &config).expect("bulk pages build");
    assert_eq!(summary.documents, PAGES);
    (dir, summary.segments)
}

/// Enough bulk pages for several segments at tantivy's smallest memory budget.
const PAGES: u64 = 1_100;

#[test]
fn split_segments_search_as_one_reproducibly() {
    let tmp = tempfile::tempdir().unwrap();
    let small = 15_000_000;
    let (split_a, segments) = build_in(tmp.path(), "a", small);
    assert!(
        segments > 2,
        "{segments} segments: the split is not exercised"
    );
    let (split_b, _) = build_in(tmp.path(), "b", small);
    let (whole, segments) = build_in(tmp.path(), "c", 200_000_000);
    assert_eq!(segments, 1);

    assert_eq!(
        fingerprint(&split_a).unwrap(),
        fingerprint(&split_b).unwrap()
    );
    // All pages score alike for a shared word, so hits come in document order: input order.
    let hits = search(&split_a, "common", 2_000).unwrap();
    let offsets: Vec<u64> = hits.iter().map(|hit| hit.offset).collect();
    let expected: Vec<u64> = (0..PAGES).map(|n| 10_000 * n).collect();
    assert_eq!(offsets, expected);
    for query in ["common", "n00017", "n00700 OR n00003", "\"page 01099\""] {
        let split = search(&split_a, query, 50).unwrap();
        let single = search(&whole, query, 50).unwrap();
        assert!(!split.is_empty(), "{query}");
        assert_eq!(split, single, "{query}");
    }
}

#[test]
fn fingerprints_follow_content_not_segment_names() {
    let tmp = tempfile::tempdir().unwrap();
    let build = |name: &str, pages: Vec<IndexedPage>| {
        let dir = tmp.path().join(name);
        build_index(&dir, pages).unwrap();
        fingerprint(&dir).unwrap()
    };
    let first = build("a", pages());
    assert_eq!(first.len(), "sha1:".len() + 40);
    assert_eq!(first, build("b", pages()));
    let mut changed = pages();
    changed[2].length += 1;
    assert_ne!(first, build("c", changed));
    let mut reordered = pages();
    reordered.swap(0, 1);
    assert_ne!(first, build("d", reordered));
}

/// Two Japanese pages, one Chinese and one English, each with its language.
fn multilingual() -> Vec<IndexedPage> {
    let with_lang = |mut page: IndexedPage, lang: &str| {
        page.lang = lang.to_owned();
        page
    };
    vec![
        with_lang(
            page(
                1,
                "minato.example",
                "2024-03-01T08:00:00Z",
                "新しい図書館",
                "港の近くで新しい図書館が開館しました。\n市長は式典で挨拶した。",
            ),
            "jpn",
        ),
        with_lang(
            page(
                2,
                "minato.example",
                "2024-03-02T08:00:00Z",
                "港の天気",
                "明日の港は晴れ、風は弱い見込みです。",
            ),
            "jpn",
        ),
        with_lang(
            page(
                3,
                "gang.example",
                "2024-03-03T08:00:00Z",
                "新图书馆",
                "港口附近的新图书馆今天开放。",
            ),
            "cmn",
        ),
        with_lang(
            page(
                4,
                "coast.example",
                "2024-03-04T08:00:00Z",
                "Library",
                "A new library opened near the harbour (図書館).",
            ),
            "eng",
        ),
    ]
}

#[test]
fn words_of_languages_written_without_spaces_are_found_inside_the_text() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("index");
    build_index(&dir, multilingual()).unwrap();
    let offsets = |query: &str| -> Vec<u64> {
        let mut offsets: Vec<u64> = search(&dir, query, 10)
            .unwrap()
            .iter()
            .map(|hit| hit.offset)
            .collect();
        offsets.sort_unstable();
        offsets
    };
    // A word in the middle of a sentence, in the Japanese pages only (the English page has it
    // between brackets, as a word of its own).
    assert_eq!(offsets("図書館"), [10_000, 40_000]);
    assert_eq!(offsets("開館"), [10_000]);
    // One character: both Japanese pages and the Chinese one.
    assert_eq!(offsets("港"), [10_000, 20_000, 30_000]);
    // Characters that occur, but not in this order, do not match.
    assert!(offsets("館書").is_empty());
    assert_eq!(offsets("图书馆"), [30_000]);
    assert_eq!(offsets("港 lang:jpn"), [10_000, 20_000]);
    assert_eq!(offsets("library"), [40_000]);
    // The title of an n-gram page is searched and returned too; the snippet marks the match.
    let hits = search(&dir, "天気", 10).unwrap();
    assert_eq!(hits.len(), 1);
    assert_eq!(hits[0].title, "港の天気");
    assert_eq!(hits[0].lang, "jpn");
    let hits = search(&dir, "晴れ", 10).unwrap();
    assert!(hits[0].snippet.contains("**晴れ**"), "{}", hits[0].snippet);
}

/// Page `n` of a generated corpus: words drawn from a small vocabulary by a fixed generator,
/// `lighthouse` far more often in the first third, and every seventh page a copy of the one
/// before it (equal scores, whose order must be the input's).
fn generated_page(n: u64) -> IndexedPage {
    const WORDS: [&str; 12] = [
        "harbour",
        "ship",
        "storm",
        "keeper",
        "lamp",
        "tide",
        "quay",
        "tram",
        "council",
        "museum",
        "coast",
        "lighthouse",
    ];
    let source = if n % 7 == 6 { n - 1 } else { n };
    let mut state = source.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    let mut words = Vec::new();
    for _ in 0..(8 + source % 23) {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        let mut word = WORDS[(state % WORDS.len() as u64) as usize];
        if n < 40 && state % 5 == 0 {
            word = "lighthouse";
        }
        words.push(word);
    }
    let title = words[..3].join(" ");
    page(
        n,
        ["a.example", "b.example"][(n % 2) as usize],
        "2024-05-01T12:00:00Z",
        &title,
        &words.join(" "),
    )
}

#[test]
fn shards_search_as_one_index_with_the_same_hits_scores_and_order() {
    let tmp = tempfile::tempdir().unwrap();
    let pages: Vec<IndexedPage> = (0..120).map(generated_page).collect();
    let whole = tmp.path().join("whole");
    build_index(&whole, pages.clone()).unwrap();
    // Three shards of unequal size in input order, as partitions would hold them.
    let sharded = tmp.path().join("sharded");
    for (name, range) in [
        ("part-00000", 0..40),
        ("part-00001", 40..55),
        ("part-00002", 55..120),
    ] {
        build_index(&sharded.join(name), pages[range].to_vec()).unwrap();
    }
    // A half-built shard is no shard.
    std::fs::create_dir_all(sharded.join("part-00003.tmp")).unwrap();
    std::fs::copy(
        whole.join("meta.json"),
        sharded.join("part-00003.tmp/meta.json"),
    )
    .unwrap();
    let queries = [
        "lighthouse",
        "lighthouse keeper",
        "harbour OR tram",
        "storm -lighthouse",
        "\"tide quay\"",
        "lamp site:b.example",
        "title:museum",
    ];
    for query in queries {
        for limit in [1, 5, 200] {
            let one = search(&whole, query, limit).unwrap();
            let many = search(&sharded, query, limit).unwrap();
            assert!(!one.is_empty(), "{query}");
            assert_eq!(one, many, "{query} top {limit}");
        }
    }
    let all = search(&sharded, "lighthouse", 200).unwrap();
    assert!(
        all.windows(2).any(|w| w[0].score == w[1].score),
        "the corpus has ties"
    );
    // Per-shard statistics would score differently: the summed ones are what makes the hits
    // equal. A page of the last shard scores otherwise in its shard alone.
    let alone = search(&sharded.join("part-00002"), "lighthouse", 1).unwrap();
    let merged = all.iter().find(|hit| hit.id == alone[0].id).unwrap();
    assert_ne!(alone[0].score, merged.score);
    assert_eq!(
        fingerprint(&sharded).unwrap(),
        fingerprint(&sharded).unwrap()
    );
    assert_ne!(fingerprint(&sharded).unwrap(), fingerprint(&whole).unwrap());
}

#[test]
fn a_foreign_shard_is_refused() {
    let tmp = tempfile::tempdir().unwrap();
    let sharded = tmp.path().join("sharded");
    build_index(&sharded.join("part-00000"), pages()).unwrap();
    let foreign = sharded.join("part-00001");
    std::fs::create_dir_all(&foreign).unwrap();
    let mut builder = tantivy::schema::Schema::builder();
    builder.add_text_field("body", tantivy::schema::TEXT);
    tantivy::Index::create_in_dir(&foreign, builder.build()).unwrap();
    let error = search(&sharded, "lighthouse", 10).unwrap_err();
    assert!(
        matches!(&error, IndexError::Schema { dir, .. } if *dir == foreign),
        "{error:?}"
    );
}

#[test]
fn the_queue_to_the_indexing_thread_is_bounded_in_bytes_and_changes_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let build = |name: &str, queue_bytes: u64| {
        let dir = tmp.path().join(name);
        let config = IndexConfig {
            queue_bytes,
            ..IndexConfig::default()
        };
        let summary = build_index_with(&dir, bulk_pages(PAGES), &config).unwrap();
        assert_eq!(summary.documents, PAGES);
        (fingerprint(&dir).unwrap(), summary.peak_queued_bytes)
    };
    let page_bytes = bulk_pages(1)[0].text.len() as u64;
    let (unbounded, peak) = build("wide", u64::MAX);
    assert!(peak >= page_bytes, "{peak} bytes queued at most");
    let limit = 4 * page_bytes;
    let (bounded, peak) = build("narrow", limit);
    assert!(
        (page_bytes..=limit).contains(&peak),
        "{peak} bytes queued at most, limit {limit}"
    );
    // One page at a time: every page is larger than the limit.
    let (alone, peak) = build("alone", 1);
    assert!(
        peak < 2 * page_bytes,
        "{peak} bytes: more than one page queued"
    );
    assert_eq!(unbounded, bounded);
    assert_eq!(unbounded, alone);
}
