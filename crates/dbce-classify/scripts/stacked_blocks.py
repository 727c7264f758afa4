#!/usr/bin/env python3
"""A second-stage block model over the first stage's held-out probabilities, held out.

Usage: stacked_blocks.py PAGES_JSONL [--types NESTED_PAGES_JSONL] [--seed 0]

PAGES_JSONL is a `--pages-out` file of `dbce train-single-page --cross-validate` or `--nested`
(see main_region.py): per block the first stage's probability held out by site fold, which is
out-of-fold for every page, so a second stage trained on it does not learn the first stage's
in-sample confidence. The second stage (scikit-learn's HistGradientBoostingClassifier) sees
each block through its neighbours' and its ancestors' probabilities: the block's own, the two
blocks before and after, the word-weighted mean probability and share of the page's words of
the subtrees of its element and of its first three ancestors, the page's mean and share of
words at p >= 0.5, the block's words, Readability's verdict, its place, and the held-out page
type. Labels and weights as `dbce train-single-page` (blocks of 8 and 30 words twice and
thrice, the older sets thrice).

For each outer fold f, the second stage trained on the other folds gives f's probabilities;
the route's thresholds (articles: anchor and outside; the other types: one threshold) are
chosen on the pages of the other folds, each with its own held-out probabilities (as
main_region.py does: those models saw f's pages, none of f's pages is scored in the choice),
with the objective of `--nested` (mean over datasets of their mean page F1). The first
stage's probabilities are routed the same way for the comparison. F1 by the reference scorer, as main_region.py computes it.
"""
import argparse
import sys
from pathlib import Path

import numpy as np
from sklearn.ensemble import HistGradientBoostingClassifier

sys.path.insert(0, str(Path(__file__).resolve().parent))
from main_region import FOLDS, TYPES, load, table_row, weights, choose_thresholds, routed  # noqa: E402

ANCHORS = [0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6]
OUTSIDE = [0.4, 0.45, 0.5, 0.55, 0.6, 0.65, 0.7, 0.8]
OTHERS = [0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5]


def shifted(p, k, fill=-1.0):
    out = np.full_like(p, fill)
    if k > 0:
        out[k:] = p[:-k]
    elif k < 0:
        out[:k] = p[-k:]
    else:
        out[:] = p
    return out


def features(pg):
    p, w = pg.p, pg.words
    total = max(w.sum(), 1.0)
    cols = [p] + [shifted(p, k) for k in (1, 2, -1, -2)]
    for level in range(4):
        sums = {}
        keys = [c[level] if level < len(c) else -1 for c in pg.elements]
        for key, pi, wi in zip(keys, p, w):
            s = sums.setdefault(key, [0.0, 0.0, 0])
            s[0] += pi * wi
            s[1] += wi
            s[2] += 1
        cols.append(np.array([sums[k][0] / sums[k][1] if sums[k][1] else -1.0 for k in keys]))
        cols.append(np.array([sums[k][1] / total for k in keys]))
    n = len(p)
    cols += [np.full(n, (p * w).sum() / total), np.full(n, w[p >= 0.5].sum() / total),
             np.log1p(w), pg.kept.astype(float), np.arange(n) / max(n, 1), np.full(n, np.log1p(n))]
    cols += [np.full(n, float(pg.typed == t)) for t in TYPES]
    return np.column_stack(cols)


def sample_weights(pg):
    steps = 1.0 + (pg.words >= 8) + (pg.words >= 30)
    return steps * (1.0 if pg.dataset == 'wcxb' else 3.0)


def fit(pages, seed):
    x = np.concatenate([pg.x for pg in pages])
    y = np.concatenate([pg.y for pg in pages])
    sw = np.concatenate([pg.sw for pg in pages])
    model = HistGradientBoostingClassifier(max_iter=150, max_leaf_nodes=31, learning_rate=0.1,
                                           min_samples_leaf=40, random_state=seed)
    return model.fit(x, y, sample_weight=sw)


def choose(pages, probs):
    """Article thresholds and the others' threshold over this script's grids."""
    return choose_thresholds(pages, probs, ANCHORS, OUTSIDE, OTHERS)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('pages')
    parser.add_argument('--types')
    parser.add_argument('--seed', type=int, default=0)
    parser.add_argument('--in-sample-only', action='store_true',
                        help='only the second stage trained and scored on every page')
    args = parser.parse_args()
    pages = load(args.pages, 'site folds', args.types)
    for pg in pages:
        pg.key = (pg.dataset, pg.id)
        pg.x, pg.y, pg.sw = features(pg), np.array(pg.labels, bool), sample_weights(pg)
    if args.in_sample_only:
        model = fit(pages, args.seed)
        fitted = {pg.key: routed(pg, model.predict_proba(pg.x)[:, 1] if len(pg.p) else pg.p,
                                (0.35, 0.55, 0.3)) for pg in pages}
        print(table_row('second stage in sample, shipped thresholds', pages, fitted))
        return
    first = {pg.key: pg.p for pg in pages}
    second = {}
    for f in range(FOLDS):
        model = fit([pg for pg in pages if pg.fold != f], args.seed)
        for pg in pages:
            if pg.fold == f:
                second[pg.key] = model.predict_proba(pg.x)[:, 1] if len(pg.p) else pg.p
        print(f'fold {f}: second stage trained', file=sys.stderr, flush=True)
    print('| route | wcxb-dev all | ' + ' | '.join(TYPES)
          + ' | cleanportaleval | l3s-gn1 | readability | scrapinghub |')
    print('| --- ' * 13 + '|')
    for name, held in [('first stage, thresholds in the folds', first),
                       ('second stage, thresholds in the folds', second)]:
        verdicts, choices = {}, []
        for f in range(FOLDS):
            train = [pg for pg in pages if pg.fold != f]
            s = choose(train, held)
            choices.append(s)
            for pg in pages:
                if pg.fold == f:
                    verdicts[pg.key] = routed(pg, held[pg.key], s)
        print(table_row(name, pages, verdicts), flush=True)
        print(f'  chosen per fold (anchor, outside, others): {choices}', file=sys.stderr)
    shipped = {pg.key: routed(pg, second[pg.key], (0.35, 0.55, 0.3)) for pg in pages}
    print(table_row('second stage, shipped thresholds', pages, shipped), flush=True)


if __name__ == '__main__':
    main()
