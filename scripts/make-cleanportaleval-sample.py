#!/usr/bin/env python3
"""Writes testdata/cleanportaleval/ from the CleanPortalEval development set: the first pages of
each template group as one WARC (a request-less response record per page, one gzip member each)
and meta.jsonl (id, url, site, template_group, record_id). The stage-1 grouping test reads them.

Usage: python3 scripts/make-cleanportaleval-sample.py [../shared/data/cleanportaleval]
Needs warcio (pip install warcio==1.8.1). Output is deterministic (fixed dates, uuid5 ids).
"""
import io
import json
import sys
import uuid
from pathlib import Path

from warcio.statusandheaders import StatusAndHeaders
from warcio.warcwriter import WARCWriter

PER_GROUP = 5
ROOT = Path(__file__).resolve().parent.parent
OUT = ROOT / "testdata" / "cleanportaleval"


def main() -> None:
    data = Path(sys.argv[1] if len(sys.argv) > 1 else ROOT.parent / "shared/data/cleanportaleval")
    metas = [json.loads(line) for line in (data / "meta.jsonl").read_text().splitlines()]
    taken, chosen = {}, []
    for meta in sorted(metas, key=lambda m: m["id"]):
        group = meta["template_group"]
        if taken.get(group, 0) < PER_GROUP:
            taken[group] = taken.get(group, 0) + 1
            chosen.append(meta)
    OUT.mkdir(parents=True, exist_ok=True)
    lines = []
    with open(OUT / "pages.warc.gz", "wb") as out:
        writer = WARCWriter(out, gzip=True)
        for meta in chosen:
            html = (data / "html" / f"{meta['id']}.html").read_bytes()
            record_id = f"<urn:uuid:{uuid.uuid5(uuid.NAMESPACE_URL, meta['id'])}>"
            http = StatusAndHeaders(
                "200 OK",
                [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(html)))],
                protocol="HTTP/1.1",
            )
            record = writer.create_warc_record(
                meta["url"],
                "response",
                payload=io.BytesIO(html),
                http_headers=http,
                warc_headers_dict={"WARC-Record-ID": record_id, "WARC-Date": "2013-04-01T00:00:00Z"},
            )
            writer.write_record(record)
            lines.append({k: meta[k] for k in ("id", "url", "site", "template_group")} | {"record_id": record_id})
    (OUT / "meta.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    (OUT / "README.md").write_text(
        "# CleanPortalEval pages for the stage-1 grouping test\n\n"
        f"{len(chosen)} pages ({PER_GROUP} per template group, fewer where a group has fewer) of the\n"
        "CleanPortalEval benchmark (news portal pages: bbc.co.uk, blogs.wsj.com, tv.msnbc.com,\n"
        "washingtonpost.com), as normalised in the development data, packed as WARC response records\n"
        "by `scripts/make-cleanportaleval-sample.py`. `meta.jsonl` gives each page's template group.\n"
    )


if __name__ == "__main__":
    main()
