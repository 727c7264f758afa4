#!/usr/bin/env python3
"""Features of a block's own words, screened before any Rust change, held out by site folds.

Usage: text_features.py ROWS_CSV PAGES_JSONL [--seeds 0] [--variants base,lex,shape,lex+shape]
                        [--fixed ANCHOR/OUTSIDE/OTHERS/RELATIVE] [--gate 0.45]

ROWS_CSV and PAGES_JSONL are the `--rows-out` and `--pages-out` files of one `dbce
train-single-page --cross-validate` run (see learners.py). The block model's features describe
a block by its shape (lengths, densities), its markup (tags, class/id keywords above it) and its
page; none reads the words themselves. Two groups of such features are appended to the rows:

- `lex`: for each of eight word lists (legal, account, social, navigation, commerce, metadata,
  forum, advertising: `GROUPS`, English, whole words), the share of the block's characters in
  matches; and the number of prices (a currency sign before a digit);
- `shape`: mean word length, share of capitalised words, separators (`|`, `•`, `»`...),
  sentences, commas per word, whether the block starts with a capital.

Each variant trains LightGBM (learners.py's `lgb`, the built-in boosted trees' shape) on the
other folds' rows and routes every page at the fixed thresholds (the shipped ones by default,
with the shipped article gate) with the densest block as last resort; the table gives mean F1
per page type and dataset, in learners.py's columns, for each variant side by side. Needs
numpy, lightgbm (and numba for the scorer); SCORER names the reference score.py, as for
learners.py.
"""
import argparse
import re
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).parent))
import learners as L  # noqa: E402
from main_region import routed, table_row  # noqa: E402

GROUPS = {
    'legal': ['privacy', 'cookie', 'cookies', 'terms of', 'terms and conditions',
              'all rights reserved', '©', 'copyright', 'disclaimer', 'gdpr', 'consent'],
    'account': ['sign in', 'log in', 'login', 'sign up', 'signup', 'register', 'subscribe',
                'newsletter', 'my account', 'create account', 'password', 'forgot'],
    'social': ['share', 'facebook', 'twitter', 'linkedin', 'pinterest', 'instagram', 'youtube',
               'follow us', 'whatsapp', 'tweet', 'reddit', 'email'],
    'navigation': ['home', 'menu', 'next', 'previous', 'back to top', 'skip to', 'read more',
                   'see all', 'view all', 'load more', 'show more', 'continue reading',
                   'learn more', 'go to', 'search'],
    'commerce': ['price', 'add to cart', 'add to bag', 'buy', 'in stock', 'shipping',
                 'sold out', 'sale', 'checkout', 'wishlist', 'quantity', 'reviews', 'rating'],
    'metadata': ['posted', 'updated', 'published', 'ago', 'min read', 'comments', 'tags',
                 'filed under', 'category', 'views', 'by'],
    'forum': ['reply', 'replies', 'quote', 'joined', 'posts', 'votes', 'answered', 'asked',
              'edited', 'member', 'thread', 'upvote'],
    'advertising': ['advertisement', 'sponsored', 'promoted', 'adchoices', 'ad choices',
                    'partner content'],
}
PATTERNS = [re.compile(r'(?<!\w)(' + '|'.join(re.escape(w) for w in words) + r')(?!\w)')
            for words in GROUPS.values()]
PRICE = re.compile(r'[$€£¥]\s?\d')
SEPARATOR = re.compile(r'[|•·»›]')


def lexicon(text):
    t = text.lower()
    n = max(1, len(t))
    return [sum(len(m.group(0)) for m in p.finditer(t)) / n for p in PATTERNS] + \
        [len(PRICE.findall(t))]


def shape(text):
    words = text.split()
    n = max(1, len(words))
    alpha = [w for w in words if any(c.isalpha() for c in w)]
    return [sum(len(w) for w in alpha) / max(1, len(alpha)),
            sum(1 for w in words if w[:1].isupper()) / n,
            len(SEPARATOR.findall(text)),
            text.count('. ') + text.endswith('.'),
            text.count(',') / n,
            float(text[:1].isupper())]


def columns(rows, pages, of, width):
    out = np.zeros((len(rows.y), width), np.float32)
    for pg in pages:
        start, _ = rows.span.get(pg.key, (0, 0))
        for k, text in enumerate(pg.texts):
            out[start + k] = of(text)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('rows')
    parser.add_argument('pages')
    parser.add_argument('--seeds', default='0')
    parser.add_argument('--variants', default='base,lex,shape,lex+shape')
    parser.add_argument('--fixed', default='0.5/0.55/0.3/0.3')
    parser.add_argument('--gate', type=float, default=0.45)
    args = parser.parse_args()
    fixed = tuple(float(t) for t in args.fixed.split('/'))
    rows, pages = L.checked_pages(args.rows, args.pages, None)
    extra = {'lex': columns(rows, pages, lexicon, len(PATTERNS) + 1),
             'shape': columns(rows, pages, shape, 6)}
    print('blocks with a value per column:',
          {k: (v > 0).mean(0).round(3).tolist() for k, v in extra.items()}, file=sys.stderr)
    base = rows.x
    print('| variant | seed | wcxb-dev all | article | collection | doc. | forum | listing | product '
          '| service | cleanportaleval | l3s-gn1 | readability | scrapinghub |')
    print('| --- ' * 14 + '|')
    for seed in map(int, args.seeds.split(',')):
        for variant in args.variants.split(','):
            parts = [] if variant == 'base' else variant.split('+')
            rows.x = np.hstack([base] + [extra[p] for p in parts])
            probs = L.per_page(rows, L.held_out(rows, 'lgb', seed), pages)
            verdicts = {pg.key: routed(pg, probs[pg.key], fixed, args.gate) for pg in pages}
            print(table_row(f'{variant} | {seed}', pages, verdicts), flush=True)


if __name__ == '__main__':
    main()
