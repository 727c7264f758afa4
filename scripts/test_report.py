"""Checks a dbce report as headless Chromium renders it (called by scripts/test-report).

Usage: test_report.py OUT, where OUT/run is a `dbce run --report` output directory. Checks:
- the overview shows report.json's counts per stage and skip reason, and the JSONL's pages per
  method, route and page type (the histogram adds up to every page);
- the page list's filter, set from the URL's fragment, shows exactly the rows that match;
- in page viewers, the runs the browser shades as content are the JSONL text word for word,
  every run carries its class, decision and bits on hover, the record shown is the JSONL line,
  and every cross partner with a viewer is linked to it.
Screenshots of the overview, the filtered list and one viewer go to OUT/screenshots.
"""

import collections
import gzip
import html.parser
import json
import pathlib
import re
import subprocess
import sys

CHROMIUM = ["chromium", "--headless", "--no-sandbox", "--disable-gpu", "--hide-scrollbars",
            "--allow-file-access-from-files"]
HOVER = re.compile(r"^(content|boilerplate|invalid) by "
                   r"(pattern|t002|learned|single-page|propagated|url-family|teaser), cross [01]{5}, run [01]{5}$")


def dump_dom(url):
    """The DOM of `url` after its scripts ran, as Chromium serialises it."""
    result = subprocess.run(CHROMIUM + ["--virtual-time-budget=5000", "--dump-dom", url],
                            capture_output=True, text=True, timeout=120, check=True)
    return result.stdout


def screenshot(url, path, size):
    subprocess.run(CHROMIUM + ["--virtual-time-budget=5000", f"--window-size={size}",
                               f"--screenshot={path}", url],
                   capture_output=True, timeout=120, check=True)
    assert path.stat().st_size > 10_000, f"{path} looks empty"


class Dom(html.parser.HTMLParser):
    """Elements by attribute, and the text of content runs, from a dumped DOM."""

    def __init__(self, text):
        super().__init__(convert_charrefs=True)
        self.elements = []          # (tag, attrs, text) of every element, in order
        self.open = []              # indices of open elements
        self.content_runs = []      # text of each <span class="dbce dbce-content">
        self.hovers = []            # title of every run span
        self.feed(text)

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "dbce" in (attrs.get("class") or "").split():
            self.hovers.append(attrs.get("title", ""))
            if "dbce-content" in attrs["class"].split():
                self.content_runs.append("")
        self.elements.append([tag, attrs, ""])
        if tag not in ("br", "img", "input", "meta", "link", "hr", "base", "wbr", "col",
                       "area", "source", "embed", "track"):
            self.open.append(len(self.elements) - 1)

    def handle_endtag(self, tag):
        while self.open:
            index = self.open.pop()
            if self.elements[index][0] == tag:
                break

    def handle_data(self, data):
        for index in self.open:
            self.elements[index][2] += data
        if self.open:
            tag, attrs, _ = self.elements[self.open[-1]]
            classes = (attrs.get("class") or "").split()
            if tag == "span" and "dbce" in classes and "dbce-content" in classes:
                self.content_runs[-1] += data

    def find(self, **wanted):
        """Elements whose attributes have the wanted values (`_` in names stands for `-`)."""
        wanted = {name.replace("_", "-"): value for name, value in wanted.items()}
        return [e for e in self.elements
                if all(e[1].get(name) == value for name, value in wanted.items())]


def text_of(dom, **wanted):
    found = dom.find(**wanted)
    assert len(found) == 1, f"{wanted}: {len(found)} elements"
    return found[0][2].strip()


def check_overview(report_dir, counts, lines):
    dom = Dom(dump_dom((report_dir / "index.html").as_uri()))
    for stage, stage_counts in counts["stages"].items():
        row = dom.find(data_stage=stage)
        assert row, f"no row for {stage}"
        row_start = dom.elements.index(row[0])
        fields = {}
        for tag, attrs, text in dom.elements[row_start + 1:]:
            if tag == "tr":
                break
            if attrs.get("data-field"):
                fields[attrs["data-field"]] = text.strip()
            if attrs.get("data-reason"):
                reason = attrs["data-reason"]
                assert text.strip() == f"{reason} {stage_counts['skipped'][reason]}", text
                fields.setdefault("reasons", set()).add(reason)
        assert fields["input"] == str(stage_counts["input"]), (stage, fields)
        assert fields["output"] == str(stage_counts["output"]), (stage, fields)
        assert fields.get("reasons", set()) == set(stage_counts["skipped"]), (stage, fields)
    assert text_of(dom, id="total-pages") == str(len(lines))
    for table, key in [("by-method", "method"), ("by-route", "decided_by"),
                       ("by-type", "page_type"), ("emptied", "empty_reason")]:
        expected = collections.Counter(l[key] for l in lines if l.get(key) is not None)
        start = dom.elements.index(dom.find(id=table)[0])
        shown = {}
        for tag, attrs, text in dom.elements[start + 1:]:
            if tag == "table":
                break
            if tag == "tr" and "data-key" in attrs:
                key_shown = attrs["data-key"]
            if "data-count" in attrs:
                shown[key_shown] = int(text)
        assert shown == dict(expected), (table, shown, dict(expected))
    histogram = dom.elements.index(dom.find(id="kept-histogram")[0])
    bars = []
    for tag, attrs, text in dom.elements[histogram + 1:]:
        if tag == "table":
            break
        if "data-count" in attrs:
            bars.append(int(text))
    assert sum(bars) == len(lines), bars
    print(f"overview: {len(counts['stages'])} stages and {len(lines)} pages as in report.json "
          "and the JSONL")


def check_filter(report_dir):
    static = Dom((report_dir / "pages.html").read_text())
    rows = [e[1] for e in static.elements if e[0] == "tr" and "data-site" in e[1]]
    first = rows[0]
    settings = {"site": first["data-site"], "type": first["data-type"], "min": "0.2"}
    expected = sum(1 for r in rows if r["data-site"] == settings["site"]
                   and r["data-type"] == settings["type"] and float(r["data-kept"]) >= 0.2)
    fragment = "&".join(f"{k}={v}" for k, v in settings.items())
    url = (report_dir / "pages.html").as_uri() + "#" + fragment
    dom = Dom(dump_dom(url))
    visible = [e for e in dom.elements if e[0] == "tr" and "data-site" in e[1]
               and "hidden" not in e[1]]
    assert len(visible) == expected, (len(visible), expected)
    assert all(e[1]["data-site"] == settings["site"] for e in visible)
    assert text_of(dom, id="shown") == str(expected)
    print(f"filter: {fragment} shows {expected} of {len(rows)} rows")
    return url


def check_viewer(report_dir, name, lines_by_id):
    viewer = Dom(dump_dom((report_dir / "pages" / name).as_uri()))
    record = json.loads(text_of(viewer, id="record"))
    line = lines_by_id[record["id"]]
    assert record == line, name
    frames = viewer.find(id="page")
    assert frames and frames[0][0] == "iframe", name
    for tag, attrs, text in viewer.elements:
        if tag == "tr" and "data-role" in attrs:
            role = attrs["data-role"]
            partner = line["cross"][role]["id"]
            assert partner in lines_by_id, (name, role)
    links = [a["href"] for t, a, _ in viewer.elements if t == "a" and "href" in a]
    for href in links:
        if href.startswith("../pages/") or not href.startswith(("http", "../", "#")):
            target = (report_dir / "pages" / href).resolve()
            assert target.exists(), (name, href)
    frame = Dom(dump_dom((report_dir / "pages" / frames[0][1]["src"]).as_uri()))
    shaded = " ".join(frame.content_runs).split()
    assert shaded == line["text"].split(), (name, len(shaded), len(line["text"].split()))
    assert frame.hovers and all(HOVER.match(h) for h in frame.hovers), name
    print(f"viewer {name}: {len(frame.content_runs)} content runs = the JSONL text "
          f"({len(shaded)} words), decided_by {line['decided_by']}")


def main():
    out = pathlib.Path(sys.argv[1]).resolve()
    run = out / "run"
    report_dir = run / "report"
    shots = out / "screenshots"
    shots.mkdir(exist_ok=True)
    counts = json.loads((run / "report.json").read_text())
    lines = [json.loads(l) for part in sorted((run / "text").glob("*.jsonl.gz"))
             for l in gzip.open(part, "rt", encoding="utf-8")]
    lines_by_id = {l["id"]: l for l in lines}
    check_overview(report_dir, counts, lines)
    filtered = check_filter(report_dir)
    # One viewer per deciding route, and one of a page with partners that have viewers.
    viewers = sorted(p.name for p in (report_dir / "pages").glob("*.html")
                     if not p.name.endswith(".page.html"))
    chosen = {}
    for name in viewers:
        record = Dom((report_dir / "pages" / name).read_text())
        line = lines_by_id[json.loads(text_of(record, id="record"))["id"]]
        chosen.setdefault(line["decided_by"], name)
    for name in chosen.values():
        check_viewer(report_dir, name, lines_by_id)
    screenshot((report_dir / "index.html").as_uri(), shots / "overview.png", "1280,1400")
    screenshot(filtered, shots / "pages-filtered.png", "1280,900")
    viewer = chosen.get("agree", next(iter(chosen.values())))
    screenshot((report_dir / "pages" / viewer).as_uri(), shots / "viewer.png", "1400,1100")
    print(f"test-report: all checks passed; screenshots in {shots}")


if __name__ == "__main__":
    main()
