#!/usr/bin/env python3
"""Other learners than the forest on the block model's own rows, held out by site folds.

Usage: learners.py ROWS_CSV PAGES_JSONL [--types NESTED_PAGES_JSONL] [--learners lgb,...]
                   [--seeds 0,1,2] [--probs-dir DIR] [--forest-seed N] [--constrained]
                   [--in-sample] [--block-only] [--combine ARTICLES:OTHERS,...]
                   [--pages-learner NAME=PAGES_JSONL ...] [--type-features]
                   [--last-resort] [--fixed ANCHOR/OUTSIDE/OTHERS[/RELATIVE]]
                   [--split-punctuation]

ROWS_CSV is the `--rows-out` file of `dbce train-single-page` (gzip fine): per block its page's
dataset, id and site group, its place, the page's site fold, label, weight (the times the
forest trains on it) and the block features, the exact rows and folds the forest trains on.
PAGES_JSONL is the `--pages-out` file of the same run with `--cross-validate` (see
main_region.py): the blocks' texts, the truth, Readability's verdicts and the shipped forest's
held-out probabilities (`site folds`), the baseline. Page types held out come from the
`--nested` run given as `--types` (or from PAGES_JSONL itself when it is a nested run).

For each learner and seed, each fold's blocks are predicted by the learner trained on the
other four folds' rows, with the rows' weights (or, `+site`, the same weights spread so that
every site of a dataset weighs alike). Gradient boosting (LightGBM) trains on five sixths of
the training folds' sites and stops early on the other sixth (never the held-out fold's). The route is the shipped one (pages typed `article`: anchor on Readability's
blocks and a threshold outside them; the other types: one threshold), its thresholds chosen
for each fold on the other four folds' held-out pages by the objective of `--nested` (mean over
datasets of their mean page F1), as main_region.py and stacked_blocks.py choose theirs. F1 by
the reference scorer (main_region.py's cached kernel). `--constrained` chooses the article
thresholds under the aim's constraint instead (`--nested`'s second choice).

Learners: `lgb` and `lgb-reg` (LightGBM, see LGB), `rf`, `et`, `rf-mf0.3`, `rf-mf0.05`
(scikit-learn's RandomForest and ExtraTrees of the forest's shape, max_features tuned); any of
them with `+site`. Needs numpy, scikit-learn, lightgbm (and numba for the scorer).

`--pages-learner NAME=FILE` adds a learner whose held-out probabilities are the `site folds` of
another `--cross-validate` run's `--pages-out` on the same datasets and folds (e.g. `dbce
train-single-page --learner boosted`), routed and combined like the others.

`--combine` also routes, for every learner and seed, combinations of its held-out
probabilities with the shipped forest's (the same blocks, both held out by the same folds): each
`ARTICLES:OTHERS` names the probabilities of the pages typed `article` and of the other types,
each one of `forest` (the shipped forest's), `learner` (the learner's), `mean` (the mean of the
two on every block) or `logit` (the mean of their logits, i.e. the geometric mean of the odds,
both clipped to [0.001, 0.999] first: the forest's leaves give many exact 0s and 1s). So
`forest:learner` keeps the forest on articles and takes the learner elsewhere, `mean:mean` and
`logit:logit` blend everywhere, `mean:learner` blends on articles only. The route and its
thresholds are chosen inside the folds exactly as for a single learner (over the same grids:
the combined probabilities of the articles and of the other types are each on one scale, and
the two choices are independent); the rows are labelled `ARTICLES:OTHERS (LEARNER)`.

`--type-features` gives the learners (not the shipped forest, nor `--pages-learner`s) nine
more block features: the page's held-out type one-hot (the eight types of the page-type model)
and its confidence, from the `--types` file (required). Each page's type there comes from a
page-type model that was not trained on the page's own fold, so the training rows see types as
wrong as the held-out pages' are (cross-fitting); the learners are named `NAME+types`.

`--last-resort` scores a page whose route keeps no block as the pipeline outputs it (method
`evidence`): with its densest block, of the blocks with less than half their words in links
(`C_ld`) the one with the most words. `--fixed` routes every page at the thresholds given
(e.g. the shipped ones) instead of choosing them inside the folds; with several learners, one
`--fixed` for all. A fourth value keeps, on pages not typed `article`, every block at that
share of the page's highest probability as well (`LearnedBlocks::relative_to_best`).

`--split-punctuation` scores truth and blocks with punctuation tokens of their own (score.py
`--split-punctuation`: figures that do not depend on how the truth spaced highlighted code).

Prints one Markdown row per learner and seed: wcxb-dev overall and by type, the four older
sets, then block-level figures (held-out weighted log loss and ROC AUC over all blocks).
`--probs-dir` keeps each run's held-out probabilities (`LEARNER-sSEED.npz`) and reuses them.
"""
import argparse
import csv
import gzip
import sys
import time
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from main_region import FOLDS, fnv, load, table_row, weights, choose_thresholds, routed  # noqa: E402

ANCHORS = [0.3, 0.35, 0.4, 0.5, 0.6]
OUTSIDE = [0.4, 0.5, 0.55, 0.6, 0.7, 0.8]
OTHERS = [0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5]
KEYS = 7
PAGE_TYPES = ('article', 'collection', 'documentation', 'error', 'forum', 'listing', 'product',
              'service')


class Rows:
    """The blocks of `--rows-out`: features, labels, weights, folds, page keys."""

    def __init__(self, path):
        opener = gzip.open if str(path).endswith('.gz') else open
        keys, values = [], []
        with opener(path, 'rt', newline='') as f:
            reader = csv.reader(f)
            self.names = next(reader)[KEYS:]
            for row in reader:
                keys.append(row[:KEYS])
                values.append(np.array(row[KEYS:], np.float32))
        self.x = np.vstack(values)
        self.page = [(k[0], k[1]) for k in keys]
        self.group = [k[2] for k in keys]
        self.block = np.array([int(k[3]) for k in keys])
        self.fold = np.array([int(k[4]) for k in keys])
        self.y = np.array([k[5] == '1' for k in keys])
        self.w = np.array([float(k[6]) for k in keys])
        self.dataset = np.array([k[0] for k in keys])
        self.site_w = site_weights(self.w, self.dataset, self.group)
        self.span = {}
        for i, key in enumerate(self.page):
            start, _ = self.span.get(key, (i, i))
            self.span[key] = (start, i + 1)


def site_weights(w, dataset, group):
    """The weights spread so that every site of a dataset weighs alike, each dataset's total
    kept."""
    site_total = defaultdict(float)
    for wi, d, g in zip(w, dataset, group):
        site_total[d, g] += wi
    sites = defaultdict(int)
    data_total = defaultdict(float)
    for (d, _), t in site_total.items():
        sites[d] += 1
        data_total[d] += t
    return np.array([wi / site_total[d, g] * data_total[d] / sites[d]
                     for wi, d, g in zip(w, dataset, group)])


def type_columns(rows, types_path):
    """Per block, its page's held-out type one-hot (`PAGE_TYPES`) and confidence."""
    import json
    typed = {}
    with open(types_path) as lines:
        for line in lines:
            row = json.loads(line)
            typed[row['dataset'], row['id']] = (row['held_out_type'], row['held_out_confidence'])
    columns = np.zeros((len(rows.y), len(PAGE_TYPES) + 1), np.float32)
    for key, (start, end) in rows.span.items():
        page_type, confidence = typed[key]
        columns[start:end, PAGE_TYPES.index(page_type)] = 1
        columns[start:end, -1] = confidence
    return columns


def forest(kind, max_features='sqrt'):
    def make(seed):
        from sklearn.ensemble import ExtraTreesClassifier, RandomForestClassifier
        cls = ExtraTreesClassifier if kind == 'et' else RandomForestClassifier
        return cls(n_estimators=32, max_depth=16, min_samples_leaf=8, max_features=max_features,
                   bootstrap=True, max_samples=0.5, n_jobs=1, random_state=seed)
    return make


LGB = {
    # Shallow trees, leaves of many blocks, L2, row and feature subsampling.
    'lgb': dict(num_leaves=15, max_depth=6, min_data_in_leaf=200, lambda_l2=10.0,
                feature_fraction=0.5, bagging_fraction=0.5, bagging_freq=1, learning_rate=0.1),
    # Stronger: smaller trees, larger leaves, randomised split points (extra trees).
    'lgb-reg': dict(num_leaves=7, max_depth=4, min_data_in_leaf=1000, lambda_l2=50.0,
                    feature_fraction=0.3, bagging_fraction=0.5, bagging_freq=1,
                    learning_rate=0.1, extra_trees=True),
}


class Boosted:
    """LightGBM, stopped early on a sixth of the training sites (never the held-out fold's)."""

    def __init__(self, params, seed):
        self.params = dict(params, objective='binary', num_threads=1, seed=seed, max_bin=63,
                           deterministic=True, force_row_wise=True, verbosity=-1)

    def fit(self, x, y, w, groups):
        import lightgbm as lgb
        inner = np.array([(fnv(g) // FOLDS) % 6 == 0 for g in groups])
        self.model = lgb.train(self.params, lgb.Dataset(x[~inner], y[~inner], weight=w[~inner]),
                               num_boost_round=1000,
                               valid_sets=[lgb.Dataset(x[inner], y[inner], weight=w[inner])],
                               callbacks=[lgb.early_stopping(30, verbose=False)])
        self.rounds = self.model.best_iteration
        return self

    def predict_proba(self, x):
        p = self.model.predict(x, num_iteration=self.rounds)
        return np.column_stack([1 - p, p])


def variant(name):
    """A learner's name without its `+types` suffix, and whether it weighs sites alike
    (`+site`)."""
    name = name.removesuffix('+types')
    return name.removesuffix('+site'), name.endswith('+site')


def learner(name, seed):
    base, _ = variant(name)
    if base in LGB:
        return Boosted(LGB[base], seed)
    makers = {'rf': forest('rf'), 'et': forest('et'), 'rf-mf0.3': forest('rf', 0.3),
              'rf-mf0.05': forest('rf', 0.05)}
    return makers[base](seed)


def fit(model, rows, idx, name):
    w = (rows.site_w if variant(name)[1] else rows.w)[idx]
    if isinstance(model, Boosted):
        return model.fit(rows.x[idx], rows.y[idx], w, [rows.group[i] for i in idx])
    return model.fit(rows.x[idx], rows.y[idx], sample_weight=w)


def held_out(rows, name, seed):
    """Each block's probability by the learner trained on the other folds."""
    p = np.zeros(len(rows.y))
    for f in range(FOLDS):
        test, train = np.flatnonzero(rows.fold == f), np.flatnonzero(rows.fold != f)
        started = time.time()
        model = fit(learner(name, seed), rows, train, name)
        p[test] = model.predict_proba(rows.x[test])[:, 1]
        rounds = f', {model.rounds} rounds' if isinstance(model, Boosted) else ''
        print(f'  {name} s{seed} fold {f}: {time.time() - started:.0f} s{rounds}',
              file=sys.stderr, flush=True)
    return p


def block_figures(rows, p):
    """Weighted log loss and ROC AUC of held-out probabilities over all blocks."""
    from sklearn.metrics import log_loss, roc_auc_score
    q = np.clip(p, 1e-6, 1 - 1e-6)
    return log_loss(rows.y, q, sample_weight=rows.w), roc_auc_score(rows.y, p, sample_weight=rows.w)


def choose(pages, probs):
    """Article thresholds and the others' threshold over this script's grids."""
    return choose_thresholds(pages, probs, ANCHORS, OUTSIDE, OTHERS)


def choose_constrained(pages, probs):
    """`--nested`'s second choice, the aim's: the article thresholds with the best F1 on
    wcxb-dev's pages typed `article` among those that keep every older set's pages typed
    `article` at or above Readability's F1 on them (else the least shortfall); the others'
    threshold as `choose`."""
    arts = [pg for pg in pages if pg.typed == 'article']
    older = defaultdict(list)
    for pg in arts:
        if pg.dataset != 'wcxb':
            older[pg.dataset].append(pg)
    floor = {d: np.mean([pg.f1(pg.kept) for pg in sel]) for d, sel in older.items()}

    def key(s):
        def f1(pg):
            return pg.f1(np.where(pg.kept, probs[pg.key] >= s[0], probs[pg.key] >= s[1]))
        shortfall = sum(max(0.0, floor[d] - np.mean([f1(pg) for pg in sel]))
                        for d, sel in older.items())
        return -shortfall, sum(f1(pg) for pg in arts if pg.dataset == 'wcxb')
    a, o = max(((a, o) for a in ANCHORS for o in OUTSIDE), key=key)
    return a, o, choose(pages, probs)[2]


def routed_in_folds(pages, probs, chooser):
    verdicts, choices = {}, []
    for f in range(FOLDS):
        s = chooser([pg for pg in pages if pg.fold != f], probs)
        choices.append(s)
        for pg in pages:
            if pg.fold == f:
                verdicts[pg.key] = routed(pg, probs[pg.key], s)
    return verdicts, choices


SOURCES = ('forest', 'learner', 'mean', 'logit')


def logit(p):
    """Log-odds of probabilities clipped to [0.001, 0.999]."""
    q = np.clip(p, 1e-3, 1 - 1e-3)
    return np.log(q / (1 - q))


def source(name, forest_p, learner_p):
    """Block probabilities of one `--combine` source over all blocks."""
    if name == 'forest':
        return forest_p
    if name == 'learner':
        return learner_p
    if name == 'mean':
        return (forest_p + learner_p) / 2
    if name == 'logit':
        return 1 / (1 + np.exp(-(logit(forest_p) + logit(learner_p)) / 2))
    raise ValueError(f'--combine: unknown source {name!r} (one of {", ".join(SOURCES)})')


def combined(rows, pages, spec, forest_p, learner_p):
    """All blocks' probabilities under `ARTICLES:OTHERS`: each page's blocks from the source of
    its held-out type."""
    articles, others = spec.split(':')
    by_type = {'article': source(articles, forest_p, learner_p),
               'other': source(others, forest_p, learner_p)}
    p = by_type['other'].copy()
    for pg in pages:
        if pg.typed == 'article':
            start, end = rows.span.get(pg.key, (0, 0))
            p[start:end] = by_type['article'][start:end]
    return p


def per_page(rows, p, pages):
    out = {}
    for pg in pages:
        start, end = rows.span.get(pg.key, (0, 0))
        out[pg.key] = p[start:end]
    return out


def check(rows, pages):
    """Every page's blocks, folds and labels are the rows' (a page without blocks has none)."""
    keys = {pg.key for pg in pages}
    for pg in pages:
        start, end = rows.span.get(pg.key, (0, 0))
        assert end - start == len(pg.texts), (pg.key, end - start, len(pg.texts))
        assert (rows.fold[start:end] == pg.fold).all(), pg.key
        assert np.array_equal(rows.y[start:end], np.array(pg.labels, bool)), pg.key
    assert len(rows.span) <= len(pages) and all(k in keys for k in rows.span)
    print(f'check: {len(pages)} pages, {len(rows.y)} blocks agree with the pages file',
          file=sys.stderr, flush=True)


def set_last_resort(rows, pages):
    """Each page's densest block (`Page.last_resort`): of its blocks with less than half their
    words in links, the one with the most words (the first of equals), as the pipeline's last
    resort picks it."""
    ld = rows.names.index('C_ld')
    for pg in pages:
        start, end = rows.span.get(pg.key, (0, 0))
        best = None
        for k, (words, density) in enumerate(zip(pg.words, rows.x[start:end, ld])):
            if density < 0.5 and (best is None or words > pg.words[best]):
                best = k
        pg.last_resort = best


def checked_pages(rows_path, pages_path, types_path):
    """The rows of ROWS_CSV `rows_path` and the pages of PAGES_JSONL `pages_path` (their
    `site folds` probabilities, typed by `types_path` as main_region.load types them), each
    page keyed by (dataset, id), checked against the rows and given its last resort."""
    rows = Rows(rows_path)
    pages = load(pages_path, 'site folds', types_path)
    for pg in pages:
        pg.key = (pg.dataset, pg.id)
    check(rows, pages)
    set_last_resort(rows, pages)
    return rows, pages


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('rows')
    parser.add_argument('pages')
    parser.add_argument('--types')
    parser.add_argument('--learners', default='rf,lgb')
    parser.add_argument('--seeds', default='0')
    parser.add_argument('--probs-dir')
    parser.add_argument('--forest-seed', default='0',
                        help="the seed of the forest of PAGES_JSONL (only its row's label)")
    parser.add_argument('--in-sample', action='store_true',
                        help='also each learner trained on every block, thresholds chosen on all')
    parser.add_argument('--constrained', action='store_true',
                        help="choose the article thresholds under the aim's constraint")
    parser.add_argument('--block-only', action='store_true', help='block-level figures only')
    parser.add_argument('--combine', default='',
                        help="ARTICLES:OTHERS,... each of forest, learner, mean, logit: the "
                             "learners' held-out probabilities combined with the forest's")
    parser.add_argument('--type-features', action='store_true',
                        help="the page's held-out type and confidence (--types) as block features")
    parser.add_argument('--pages-learner', action='append', default=[], metavar='NAME=FILE',
                        help="a learner's held-out probabilities from another run's --pages-out")
    parser.add_argument('--last-resort', action='store_true',
                        help="a page whose route keeps nothing keeps its densest block")
    parser.add_argument('--split-punctuation', action='store_true',
                        help='score with punctuation tokens of their own (score.py)')
    parser.add_argument('--fixed', metavar='ANCHOR/OUTSIDE/OTHERS[/RELATIVE]',
                        help='route at these thresholds instead of choosing them in the folds')
    args = parser.parse_args()
    fixed = args.fixed and tuple(float(t) for t in args.fixed.split('/'))
    if fixed and len(fixed) not in (3, 4):
        parser.error('--fixed: expected ANCHOR/OUTSIDE/OTHERS[/RELATIVE]')
    names = [n for n in args.learners.split(',') if n]
    specs = [c for c in args.combine.split(',') if c]
    for spec in specs:
        if spec.count(':') != 1 or not all(part in SOURCES for part in spec.split(':')):
            parser.error(f'--combine: {spec!r} is not ARTICLES:OTHERS of {", ".join(SOURCES)}')
    if args.type_features and not args.types:
        parser.error('--type-features needs --types')
    rows = Rows(args.rows)
    pages = load(args.pages, 'site folds', args.types, args.split_punctuation)
    for pg in pages:
        pg.key = (pg.dataset, pg.id)
    check(rows, pages)
    if args.last_resort:
        set_last_resort(rows, pages)
    print('| learner | seed | wcxb-dev all | article | collection | doc. | forum | listing | product '
          '| service | cleanportaleval | l3s-gn1 | readability | scrapinghub | log loss | AUC |')
    print('| --- ' * 16 + '|')
    shipped = np.zeros(len(rows.y))
    for pg in pages:
        start, end = rows.span.get(pg.key, (0, 0))
        shipped[start:end] = pg.p
    runs = [('shipped forest (Rust)', args.forest_seed, shipped)]
    if args.type_features:
        rows.x = np.hstack([rows.x, type_columns(rows, args.types)])
        names = [f'{n}+types' for n in names]
    for name in names:
        for seed in map(int, args.seeds.split(',')):
            path = args.probs_dir and Path(args.probs_dir) / f'{name}-s{seed}.npz'
            if path and path.exists():
                p = np.load(path)['p']
            else:
                p = held_out(rows, name, seed)
                if path:
                    np.savez(path, p=p)
            runs.append((name, str(seed), p))
    for spec in args.pages_learner:
        name, _, path = spec.partition('=')
        p = np.full(len(rows.y), np.nan)
        for pg in load(path, 'site folds', args.types, args.split_punctuation):
            start, end = rows.span.get((pg.dataset, pg.id), (0, 0))
            p[start:end] = pg.p
        if np.isnan(p).any():
            parser.error(f'--pages-learner {spec}: {int(np.isnan(p).sum())} blocks without probabilities')
        runs.append((name, '', p))
    runs += [(f'{spec} ({name})', seed, combined(rows, pages, spec, shipped, p))
             for spec in specs for name, seed, p in runs[1:]]
    for name, seed, p in runs:
        loss, auc = block_figures(rows, p)
        if args.block_only:
            print(f'| {name} | {seed} |' + ' |' * 12 + f' {loss:.4f} | {auc:.4f} |', flush=True)
            continue
        chooser = choose_constrained if args.constrained else choose
        if fixed:
            probs = per_page(rows, p, pages)
            verdicts = {pg.key: routed(pg, probs[pg.key], fixed) for pg in pages}
            choices = [fixed] * FOLDS
        else:
            verdicts, choices = routed_in_folds(pages, per_page(rows, p, pages), chooser)
        line = table_row(f'{name} | {seed}', pages, verdicts)
        print(f'{line} {loss:.4f} | {auc:.4f} |', flush=True)
        print(f'  {name} s{seed} chosen per fold (anchor, outside, others): {choices}',
              file=sys.stderr, flush=True)
    if args.in_sample:
        all_rows = np.arange(len(rows.y))
        for name in names:
            model = fit(learner(name, 0), rows, all_rows, name)
            probs = per_page(rows, model.predict_proba(rows.x)[:, 1], pages)
            s = choose(pages, probs)
            verdicts = {pg.key: routed(pg, probs[pg.key], s) for pg in pages}
            print(table_row(f'{name} in sample, thresholds {s} | 0', pages, verdicts), flush=True)


if __name__ == '__main__':
    main()
