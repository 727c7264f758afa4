#!/usr/bin/env python3
"""Blocks inside hidden markup taken as boilerplate, held out by site folds.

Usage: hidden_blocks.py ROWS_CSV PAGES_JSONL HTML_DIR [--kinds attr,aria,style,class,sr]
                        [--fixed ANCHOR/OUTSIDE/OTHERS/RELATIVE]

ROWS_CSV and PAGES_JSONL are the `--rows-out` and `--pages-out` files of one `dbce
train-single-page --cross-validate` run (see learners.py); HTML_DIR holds wcxb-dev's pages as
`<id>.html` (unpacked). Only wcxb-dev's pages are scored.

A browser does not show an element that is hidden by its markup; dbce has no CSS engine and
keeps such text (docs/dom.md). Each kind marks the outermost elements hidden one way:

- `attr`: the `hidden` attribute;  `aria`: `aria-hidden="true"`;
- `style`: an inline `display:none` or `visibility:hidden`;
- `class`: a utility class that hides (`hidden`, `d-none`, `is-hidden`, `hide`, ...);
- `sr`: the screen-reader-only classes (`sr-only`, `visually-hidden`, `screen-reader-text`).

A block counts as hidden when its whitespace-collapsed text (at least 3 characters) occurs in
the hidden elements' text at least as often as in the whole body's (lxml's parse, scripts,
styles and templates removed: an approximation of dbce's blocks, which the pages file gives as
text only). Each kind sets its hidden blocks' probability to 0 and routes the page at the
fixed thresholds (the shipped ones by default) with the densest block as last resort. Prints,
per kind, the hidden blocks, how many of them are labelled content, and the mean F1 per page
type before and after. Needs numpy, lxml (and numba for the scorer); SCORER names the
reference score.py, as for learners.py.
"""
import argparse
import re
import sys
from collections import defaultdict
from pathlib import Path

import lxml.html
import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from learners import checked_pages  # noqa: E402
from main_region import TYPES, routed  # noqa: E402

WHITESPACE = re.compile(r'\s+')
SCREEN_READER = {'sr-only', 'visually-hidden', 'screen-reader-text'}
HIDING = {'hidden', 'd-none', 'is-hidden', 'hide', 'display-none', 'u-hidden', 'hidden-xs',
          'wt-display-none'}


def collapsed(text):
    return WHITESPACE.sub(' ', text).strip()


def hidden_as(element):
    """The kinds of hiding `element`'s own markup shows."""
    attrs = element.attrib
    kinds = set()
    if 'hidden' in attrs:
        kinds.add('attr')
    if attrs.get('aria-hidden', '').strip().lower() == 'true':
        kinds.add('aria')
    style = attrs.get('style', '').replace(' ', '').lower()
    if 'display:none' in style or 'visibility:hidden' in style:
        kinds.add('style')
    classes = set(attrs.get('class', '').split())
    if classes & SCREEN_READER:
        kinds.add('sr')
    elif classes & HIDING:
        kinds.add('class')
    return kinds


def hidden_text(path, kind):
    """The page's collapsed body text and its hidden elements' texts, `\\0`-joined."""
    try:
        doc = lxml.html.fromstring(path.read_bytes())
    except (ValueError, lxml.etree.ParserError):
        return '', ''
    for gone in doc.xpath('//script|//style|//noscript|//template'):
        gone.drop_tree()
    hidden, stack = [], [doc]
    while stack:
        element = stack.pop()
        if not isinstance(element.tag, str):
            continue
        if kind in hidden_as(element):
            hidden.append(collapsed(element.text_content()))
        else:
            stack.extend(reversed(element))
    return collapsed(doc.text_content()), ' \0 '.join(hidden)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument('rows')
    parser.add_argument('pages')
    parser.add_argument('html', type=Path)
    parser.add_argument('--kinds', default='attr,aria,style,class,sr')
    parser.add_argument('--fixed', default='0.5/0.55/0.3/0.3')
    args = parser.parse_args()
    fixed = tuple(float(t) for t in args.fixed.split('/'))
    rows, pages = checked_pages(args.rows, args.pages, None)
    pages = [pg for pg in pages if pg.dataset == 'wcxb']
    print('| kind | hidden blocks | of them content | ' + ' | '.join(['wcxb-dev'] + TYPES) + ' |')
    print('| --- | ---: | ---: | ' + ' | '.join(['---:'] * (len(TYPES) + 1)) + ' |')
    for kind in args.kinds.split(','):
        before, after = defaultdict(list), defaultdict(list)
        blocks = content = 0
        for pg in pages:
            body, hidden = hidden_text(args.html / f'{pg.id}.html', kind)
            mask = np.zeros(len(pg.texts), bool)
            for i, text in enumerate(pg.texts):
                text = collapsed(text)
                mask[i] = len(text) >= 3 and text in hidden and body.count(text) <= hidden.count(text)
            blocks += int(mask.sum())
            content += int((mask & np.array(pg.labels, bool)).sum())
            for kinds in ('all', pg.kind):
                before[kinds].append(pg.f1(routed(pg, pg.p, fixed)))
                after[kinds].append(pg.f1(routed(pg, np.where(mask, 0.0, pg.p), fixed)))
        cells = [f'{np.mean(before[k]):.3f} → {np.mean(after[k]):.3f}' for k in ['all'] + TYPES]
        print(f'| {kind} | {blocks} | {content} | ' + ' | '.join(cells) + ' |', flush=True)


if __name__ == '__main__':
    main()
