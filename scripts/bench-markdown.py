#!/usr/bin/env python3
"""CPU cost of the JSONL's `markdown` field, and of `extract` by format, with the dbce Python
package installed (scripts/test-python's .venv-python, or `pip install .`; build it with
--release for figures): `dbce.run` on the bundled sample, one thread, with and without
markdown, alternated three times; `extract` of testdata/extract/article.html 200 times per
format. Prints CPU seconds of this process (all its threads) and the ratio of the minima."""

import os
import resource
import shutil
import tempfile

import dbce

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
SAMPLE = os.path.join(ROOT, "testdata", "sample", "sample.warc.gz")
ARTICLE = os.path.join(ROOT, "testdata", "extract", "article.html")


def cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main():
    runs = {False: [], True: []}
    for _ in range(3):
        for markdown in (False, True):
            work = tempfile.mkdtemp(prefix="dbce-bench-")
            start = cpu()
            dbce.run([SAMPLE], os.path.join(work, "out"), threads=1, shards=1, markdown=markdown)
            runs[markdown].append(cpu() - start)
            shutil.rmtree(work)
    html = open(ARTICLE, "rb").read()
    for fmt in ("txt", "markdown"):
        start = cpu()
        for _ in range(200):
            dbce.extract(html, url="https://valley-courier.example/news/flood", format=fmt)
        print(f"extract format={fmt}: 200 pages in {cpu() - start:.3f} CPU s")
    for markdown, seconds in runs.items():
        print(f"run markdown={markdown}: CPU s {[round(s, 2) for s in seconds]}")
    print(f"markdown/plain (minima): {min(runs[True]) / min(runs[False]):.3f}")


if __name__ == "__main__":
    main()
