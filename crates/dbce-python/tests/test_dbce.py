"""Tests of the dbce Python package, run by scripts/test-python against the installed wheel.

The comparisons with the command line need the `dbce` binary built from the same sources, in
$DBCE_BIN (scripts/test-python sets it).
"""

import gzip
import json
import os
import subprocess
import threading
from pathlib import Path

import pytest

import dbce

ROOT = Path(__file__).resolve().parents[3]
TESTDATA = ROOT / "testdata"
ARTICLE = TESTDATA / "extract" / "article.html"
ARTICLE_URL = "https://valley-courier.example/news/flood"
DATE = "2024-03-12T08:00:00Z"


def dbce_bin():
    path = os.environ.get("DBCE_BIN")
    if not path:
        pytest.fail("DBCE_BIN must name the dbce binary (scripts/test-python sets it)")
    return path


def cli(*args, stdin=None):
    done = subprocess.run(
        [dbce_bin(), *map(str, args)], input=stdin, capture_output=True, check=False
    )
    assert done.returncode == 0, done.stderr.decode()
    return done.stdout.decode()


def write_warc(path, pages):
    """One uncompressed WARC `response` record per (url, date, html bytes)."""
    with open(path, "wb") as out:
        for n, (url, date, html) in enumerate(pages):
            http = (
                b"HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"
                + b"Content-Length: %d\r\n\r\n" % len(html)
                + html
            )
            header = (
                "WARC/1.1\r\nWARC-Type: response\r\n"
                f"WARC-Record-ID: <urn:test:{n}>\r\nWARC-Date: {date}\r\n"
                f"WARC-Target-URI: {url}\r\n"
                "Content-Type: application/http; msgtype=response\r\n"
                f"Content-Length: {len(http)}\r\n\r\n"
            ).encode()
            out.write(header + http + b"\r\n\r\n")


def jsonl(out):
    lines = []
    for part in sorted((Path(out) / "text").glob("*.jsonl.gz")):
        with gzip.open(part, "rt", encoding="utf-8") as text:
            lines.extend(json.loads(line) for line in text)
    return {line["url"]: line for line in lines}


def site_pages():
    nav = (
        "<header><a href=/>Orchard Market</a><nav><a href=/fruit>Fruit</a> "
        "<a href=/veg>Vegetables</a> <a href=/about>About us</a> <a href=/contact>Contact</a>"
        "</nav></header>"
    )
    footer = "<footer>Orchard Market, 1 Main Street. Open daily from 8 to 18.</footer>"
    bodies = {
        "apples": "Red apples picked this morning in the orchard on the hill, crisp and sweet.",
        "plums": "Blue plums from the valley, ripe and soft, sold by the kilo until Sunday.",
        "pears": "Green pears that keep for weeks in a cool dark cellar, good for baking.",
        "cherries": "Dark cherries from the old trees by the river, only for two more weeks.",
    }
    return [
        (
            f"https://orchard.example/fruit/{name}",
            DATE,
            f"<html><head><title>{name}</title></head><body>{nav}<main><h1>{name.title()}</h1>"
            f"<p>{body}</p></main>{footer}</body></html>".encode(),
        )
        for name, body in bodies.items()
    ]


# --- archives -------------------------------------------------------------------------------


def test_archive_records_carry_their_offsets():
    path = TESTDATA / "warc" / "example.warc.gz"
    records = list(dbce.ArchiveReader(path))
    assert [r.record_type for r in records] == [
        "warcinfo", "warcinfo", "response", "request", "revisit", "request",
    ]
    data = path.read_bytes()
    for record in records:
        assert isinstance(record, dbce.Record)
        member = data[record.offset : record.offset + record.length]
        assert gzip.decompress(member).startswith(b"WARC/1.0\r\n")
    response = records[2]
    assert response.target_uri == "http://example.com/"
    assert response.body.startswith(b"HTTP/1.1 200 OK")
    assert ("WARC-Type", "response") in response.headers
    assert "Example Domain" in response.html()
    assert records[3].html() is None


def test_damage_is_a_skip_with_offset_and_reason():
    entries = list(dbce.ArchiveReader(TESTDATA / "warc" / "example-trunc.warc"))
    assert [type(e).__name__ for e in entries] == ["Record", "Record", "Skip", "Record"]
    skip = entries[2]
    assert (skip.offset, skip.reason) == (1197, "length-mismatch")
    assert skip.record_id == "<urn:uuid:a9c51e3e-0221-11e7-bf66-0242ac120005>"
    arc = list(dbce.ArchiveReader(TESTDATA / "warc" / "bad.arc"))
    assert [(s.offset, s.reason) for s in arc if isinstance(s, dbce.Skip)] == [
        (0, "garbage"),
        (262, "garbage"),
    ]


def test_digests_are_checked_on_request():
    path = TESTDATA / "warc" / "example-digest.warc"
    checked = [r.digests_ok for r in dbce.ArchiveReader(path, verify_digests=True)]
    assert True in checked
    assert all(r.digests_ok is None for r in dbce.ArchiveReader(path))


def test_a_missing_archive_is_an_os_error():
    with pytest.raises(OSError):
        dbce.ArchiveReader(TESTDATA / "no-such.warc")


# --- one page -------------------------------------------------------------------------------


def test_extract_formats():
    html = ARTICLE.read_bytes()
    text = dbce.extract(html, url=ARTICLE_URL)
    assert text.startswith("How the river towns prepared for the flood\n")
    assert "Valley Courier. All rights reserved" not in text
    markdown = dbce.extract(html, url=ARTICLE_URL, format="markdown")
    assert markdown.startswith("# How the river towns prepared for the flood\n\n")
    assert "| Gauge | Normal level | Peak level |\n| --- | --- | --- |" in markdown
    assert "\n- Closed the riverside car parks" in markdown
    page = json.loads(dbce.extract(html, url=ARTICLE_URL, format="json"))
    assert page["text"] == text and page["markdown"] == markdown
    assert page["title"].startswith("How the river towns")
    assert dbce.extract(html.decode("utf-8"), url=ARTICLE_URL) == text


def test_extract_is_byte_identical_to_the_command_line(tmp_path):
    html = ARTICLE.read_bytes()
    for fmt in ("txt", "markdown", "json"):
        expected = cli("extract", ARTICLE, "--url", ARTICLE_URL, "--format", fmt)
        assert dbce.extract(html, url=ARTICLE_URL, format=fmt) + "\n" == expected
    assert cli("extract", "-", "--url", ARTICLE_URL, stdin=html) == cli(
        "extract", ARTICLE, "--url", ARTICLE_URL
    )


def test_a_page_alone_gets_the_same_text_from_every_route(tmp_path):
    html = ARTICLE.read_bytes()
    warc = tmp_path / "page.warc"
    write_warc(warc, [(ARTICLE_URL, DATE, html)])
    cli("run", "--quiet", "--markdown", "--out", tmp_path / "cli", warc)
    by_cli = jsonl(tmp_path / "cli")[ARTICLE_URL]
    dbce.run([warc], tmp_path / "py", threads=2, markdown=True)
    by_python_run = jsonl(tmp_path / "py")[ARTICLE_URL]
    [by_site] = dbce.clean_site([(ARTICLE_URL, DATE, html)], markdown=True)
    assert by_cli["method"] == "single"
    texts = {
        by_cli["text"],
        by_python_run["text"],
        by_site["text"],
        dbce.extract(html, url=ARTICLE_URL),
    }
    assert len(texts) == 1, texts
    markdowns = {
        by_cli["markdown"],
        by_python_run["markdown"],
        by_site["markdown"],
        dbce.extract(html, url=ARTICLE_URL, format="markdown"),
    }
    assert len(markdowns) == 1, markdowns


def test_bad_arguments_raise():
    with pytest.raises(ValueError):
        dbce.extract("<p>x</p>", format="pdf")
    with pytest.raises(TypeError):
        dbce.extract(42)
    with pytest.raises(OSError):
        dbce.extract("<p>x</p>", config="/no/such/config.toml")


def test_a_page_beyond_the_byte_limit_is_cut_and_flagged(tmp_path):
    config = tmp_path / "small.toml"
    config.write_text("[sanitize]\nmax-input-bytes = 2000\n")
    whole = json.loads(dbce.extract(ARTICLE.read_bytes(), format="json"))
    cut = json.loads(dbce.extract(ARTICLE.read_bytes(), format="json", config=config))
    assert "truncated" not in whole or not whole["truncated"]
    assert cut["truncated"] == ["bytes"]
    assert len(cut["text"]) < len(whole["text"])


def test_extract_runs_in_threads():
    html = ARTICLE.read_bytes()
    expected = dbce.extract(html, url=ARTICLE_URL)
    results = []
    threads = [
        threading.Thread(target=lambda: results.append(dbce.extract(html, url=ARTICLE_URL)))
        for _ in range(4)
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert results == [expected] * 4


# --- one site and whole runs ----------------------------------------------------------------


def test_clean_site_equals_the_command_line(tmp_path):
    pages = site_pages()
    warc = tmp_path / "site.warc"
    write_warc(warc, pages)
    cli("run", "--quiet", "--out", tmp_path / "cli", warc)
    by_cli = jsonl(tmp_path / "cli")
    cleaned = dbce.clean_site(pages)
    assert [p["url"] for p in cleaned] == [url for url, _, _ in pages]
    for page in cleaned:
        assert page["method"] == "cross"
        assert "About us" not in page["text"]
        assert page["text"] == by_cli[page["url"]]["text"]
        assert page["decided_by"] == by_cli[page["url"]]["decided_by"]
    assert "Blue plums from the valley" in cleaned[1]["text"]


def test_clean_site_reports_pages_it_cannot_read():
    pages = site_pages()[:2] + [("https://orchard.example/x", "yesterday", "<p>x</p>")]
    cleaned = dbce.clean_site(pages)
    assert "text" in cleaned[0] and "text" in cleaned[1]
    assert cleaned[2] == {
        "url": "https://orchard.example/x",
        "date": "yesterday",
        "skipped": "bad-warc-date",
    }


def test_run_writes_the_outputs_and_returns_the_report(tmp_path):
    warc = tmp_path / "site.warc"
    write_warc(warc, site_pages())
    report = dbce.run([tmp_path], tmp_path / "out", threads=1)
    assert report == json.loads((tmp_path / "out" / "report.json").read_text())
    assert report["stages"]["1-read"]["output"] == 4
    assert report["stages"]["4-finish"]["output"] == 4
    with pytest.raises(ValueError):
        dbce.run([tmp_path / "out" / "text"], tmp_path / "nothing")


# --- MinHash --------------------------------------------------------------------------------


def test_minhash_equals_datasketch():
    vectors = json.loads((TESTDATA / "minhash" / "datasketch-vectors.json").read_text())
    token_sets = [[bytes.fromhex(t) for t in s["tokens_hex"]] for s in vectors["token_sets"]]
    checked = 0
    for case in vectors["signatures"]:
        for tokens, expected in zip(token_sets, case["signatures"]):
            one = dbce.MinHash(num_perm=case["num_perm"], seed=case["seed"], scheme=case["scheme"])
            for token in tokens:
                one.update(token)
            batch = dbce.MinHash(case["num_perm"], case["seed"], case["scheme"])
            batch.update_batch(tokens)
            assert one.digest() == expected
            assert batch == one
            checked += 1
    assert checked > 100


def test_minhash_jaccard_merge_and_checks():
    a, b = dbce.MinHash(), dbce.MinHash()
    assert a.scheme == "affine32" and a.seed == 1 and len(a) == 128 and a.is_empty()
    a.update_batch([b"x", b"y", b"z"])
    b.update_batch(["x", "y", "w"])
    assert 0.0 < a.jaccard(b) < 1.0
    union = a.copy()
    union.merge(b)
    both = dbce.MinHash()
    both.update_batch([b"x", b"y", b"z", b"w"])
    assert union == both and union != a
    with pytest.raises(ValueError):
        a.jaccard(dbce.MinHash(seed=2))
    with pytest.raises(ValueError):
        dbce.MinHash(scheme="affine64")


# --- the README -----------------------------------------------------------------------------


def test_the_readme_example_runs_as_written(tmp_path, monkeypatch, capsys):
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    section = readme[readme.index("## One page, and Python") :]
    example = section[section.index("```python\n") + len("```python\n") :]
    example = example[: example.index("```\n")]
    # As written, from the repository root, with the run's output put in a temporary folder.
    (tmp_path / "testdata").symlink_to(TESTDATA)
    monkeypatch.chdir(tmp_path)
    exec(compile(example, "README.md", "exec"), {})
    printed = capsys.readouterr().out
    assert printed.startswith("# How the river towns prepared for the flood\n")
    # Menu and footer are every page's template, the heading and the story each page's own: on
    # every page the template goes (the judge lets the cross speak on pages this small too),
    # and the heading stays whole although "Product" is in every page's.
    for n, story in enumerate(
        [
            "A kettle that boils a litre in two minutes.",
            "A teapot of blue glazed clay.",
            "Six cups that stack into a small tower.",
        ]
    ):
        assert f"https://shop.example/products/{n} cross 'Product {n}\\n{story}'" in printed
    assert printed.rstrip().endswith("233 pages written")
    assert (tmp_path / "dbce-py-out" / "report.json").exists()
