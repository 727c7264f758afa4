#!/usr/bin/env python3
"""Held-out effect of dropping repeated passages (annotate.repeated-passage-words).

Reads the --rows-out and --pages-out files of one `dbce train-single-page --cross-validate`
run, routes every page as the pipeline routes a page alone (shipped thresholds
0.5/0.55/0.3/0.3, article gate 0.45, the densest block as last resort), and scores each page's
text with and without its repeated passages dropped, by dataset and wcxb-dev page type.

The rule is dbce-annotate's `repeated.rs` approximated over the page's blocks (lines) and an lxml
parse of its HTML: a passage of consecutive lines that repeats as many earlier lines, of at least
--words words, goes when the text of its lines, or of the earlier copy's, lies in hidden markup or
a quotation (the text of an element inside such markup); --share is how much of a copy's words
must lie there (1: wholly, as the pipeline asks; a small value: any line of it).

    SCORER=../shared/eval/score.py python3 repeated_passages.py rows.csv.gz pages.jsonl \\
        --data ../shared/data --wcxb /tmp/wcxb [--share 1.0] [--words 20]
"""
import argparse
import collections
import gzip
import importlib.util
import os
import re
import sys

import lxml.html
import numpy as np

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import learners  # noqa: E402
import main_region  # noqa: E402

SPEC = importlib.util.spec_from_file_location('reference_score', os.environ['SCORER'])
SC = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(SC)

HIDING = re.compile(
    r'^(hidden|hide|d-none|is-hidden|invisible|w-condition-invisible|sr-only|visually-?hidden'
    r'|screen-reader-text|mobile|desktop|tablet|print-only|(hidden|visible|elementor-hidden'
    r'|hide-for|show-for|d-none)-.*|.*:hidden|(mobile|desktop|tablet|phone)-only)$')


def norm(text):
    return ' '.join(text.split())


def marked_texts(html):
    """The texts of every element inside hidden markup or a quotation, as repeated.rs reads it."""
    try:
        doc = lxml.html.fromstring(html)
    except Exception:
        return set()
    out = set()
    for el in doc.iter():
        if not isinstance(el.tag, str):
            continue
        a = el.attrib
        style = a.get('style', '').replace(' ', '').lower()
        classes = a.get('class', '').lower().split()
        if ('hidden' in a or a.get('aria-hidden', '').strip().lower() == 'true'
                or 'display:none' in style or 'visibility:hidden' in style
                or el.tag in ('blockquote', 'q')
                or any(HIDING.match(c) or 'quote' in c for c in classes)):
            for d in el.iter():
                if isinstance(d.tag, str):
                    t = norm(d.text_content())
                    if t:
                        out.add(t)
    return out


def drop_repeats(lines, marked, min_words, share):
    """`lines` without the passages that repeat earlier ones (see the module's doc)."""
    keys = [norm(line) for line in lines]
    words = [len(k.split()) for k in keys]

    def is_marked(start, length):
        total = sum(words[start:start + length])
        inside = sum(words[k] for k in range(start, start + length) if keys[k] in marked)
        return inside >= share * total

    at, keep, i = collections.defaultdict(list), [], 0
    while i < len(keys):
        best = 0
        for j in at.get(keys[i], [])[-32:][::-1]:
            length = 0
            while (i + length < len(keys) and j + length < i
                   and keys[j + length] == keys[i + length]):
                length += 1
            if (length > best and sum(words[i:i + length]) >= min_words
                    and (is_marked(i, length) or is_marked(j, length))):
                best = length
        for k in range(i, i + max(best, 1)):
            at[keys[k]].append(k)
        if best:
            i += best
        else:
            keep.append(lines[i])
            i += 1
    return keep


def html_of(folder, page_id):
    for path in (f'{folder}/html/{page_id}.html', f'{folder}/html/{page_id}.html.gz'):
        if os.path.exists(path):
            opener = gzip.open if path.endswith('.gz') else open
            with opener(path, 'rb') as f:
                return f.read()
    return b''


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('rows')
    parser.add_argument('pages')
    parser.add_argument('--data', required=True, help='folder of the older sets')
    parser.add_argument('--wcxb', required=True, help='wcxb-dev unpacked')
    parser.add_argument('--share', type=float, default=1.0)
    parser.add_argument('--words', type=int, default=20)
    args = parser.parse_args()
    _rows, pages = learners.checked_pages(args.rows, args.pages, None)
    sums = collections.defaultdict(lambda: [0.0, 0.0, 0])
    changed = collections.Counter()
    for pg in pages:
        keep = main_region.routed(pg, pg.p, (0.5, 0.55, 0.3, 0.3), 0.45)
        if not keep.any() and pg.last_resort is not None:
            keep = np.zeros(len(pg.texts), bool)
            keep[pg.last_resort] = True
        lines = [t for t, k in zip(pg.texts, keep) if k]
        before = SC.rouge_lsum(pg.truth, '\n'.join(lines))[2]
        after = before
        if len(set(map(norm, lines))) < len(lines):
            folder = args.wcxb if pg.dataset.startswith('wcxb') else f'{args.data}/{pg.dataset}'
            kept = drop_repeats(lines, marked_texts(html_of(folder, pg.id)), args.words, args.share)
            if len(kept) < len(lines):
                after = SC.rouge_lsum(pg.truth, '\n'.join(kept))[2]
                changed[pg.dataset] += 1
        for key in [(pg.dataset, 'all'), (pg.dataset, pg.kind)]:
            s = sums[key]
            s[0], s[1], s[2] = s[0] + before, s[1] + after, s[2] + 1
    print('| set | type | pages | before | after | change | pages changed |')
    print('| --- | --- | ---: | ---: | ---: | ---: | ---: |')
    for (dataset, kind), (before, after, n) in sorted(sums.items()):
        if kind == 'all' or dataset.startswith('wcxb'):
            count = changed[dataset] if kind == 'all' else ''
            print(f'| {dataset} | {kind} | {n} | {before / n:.4f} | {after / n:.4f} | '
                  f'{(after - before) / n:+.4f} | {count} |')


if __name__ == '__main__':
    main()
