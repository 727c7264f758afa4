#!/usr/bin/env python3
"""The single-page route with a main content region, its settings chosen inside the folds.

Usage: main_region.py PAGES_JSONL [--types NESTED_PAGES_JSONL] [--probabilities 'site folds']

PAGES_JSONL is the `--pages-out` file of `dbce train-single-page --cross-validate` or
`--nested`: per page its dataset, site group, held-out type (`held_out_type`, with `--nested`;
else taken from the `--types` file of a nested run), and per block its text, its element's and
ancestors' ids (`elements`), Readability's verdict and the held-out forest probability.

The main region of a page is the element whose subtree maximises
sum over its blocks of (p - tau) * words (one pass over the blocks' ancestor chains). Inside it
a block is content at p >= t_in, outside only at p >= t_out. Routes compared, each held out
with its settings chosen on the other four folds (folds by site, as the Rust code assigns
them: FNV-1a of the group, modulo 5), by the objective of `--nested` (mean over datasets of
their mean page F1):

- shipped: pages typed `article` Readability-anchored (0.35 / 0.55), the others >= 0.3;
- others one threshold: the others' threshold chosen in the folds (as `--nested`);
- region, others: the others take the region rule, (tau, t_in, t_out) chosen in the folds;
- region, per type: the same, one triple per held-out type;
- region, articles too: pages typed `article` also drop blocks outside the region below
  t_out_article (their route inside it unchanged), chosen in the folds with the others' triple.

Inside the folds the pages of a training fold g are scored with the probabilities and types
held out for g (models trained without g but with the outer fold f): unlike `--nested`, whose
models for g are trained on neither f nor g. No page of f is scored in choosing f's settings.

F1 is ROUGE-LSum of the reference scorer ../shared/eval/score.py (SCORER to override), whose
numba kernel is called on each block's sentences encoded once per page (the same sentences and
tokens as the scorer's own `rouge_lsum` on the joined text; `--check` verifies that).
"""
import argparse
import itertools
import json
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from score import load_scorer, split_punctuation  # noqa: E402

SC = load_scorer()
FOLDS = 5
TAUS = [0.2, 0.3, 0.4, 0.5, 0.6, 0.7]
T_IN = [0.1, 0.15, 0.2, 0.25, 0.3]
T_OUT = [0.3, 0.35, 0.4, 0.5, 0.6, 0.7, 0.8]
OTHERS = [0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.45, 0.5]
T_OUT_ARTICLE = [0.55, 0.6, 0.7, 0.8, 0.9, 1.01]
TYPES = ['article', 'collection', 'documentation', 'forum', 'listing', 'product', 'service']


def fnv(text):
    h = 0xcbf29ce484222325
    for b in text.encode():
        h = ((h ^ b) * 0x100000001b3) & 0xFFFFFFFFFFFFFFFF
    return h


class Page:
    """One page: its held-out probabilities, its blocks' sentences encoded once, F1 cache."""

    def __init__(self, row, probabilities, held_out_type, split=False, confidence=None):
        self.dataset, self.id = row['dataset'], row['id']
        self.kind, self.typed = row['page_type'], held_out_type
        # The page-type model's confidence in `typed` (annotate.article-confidence reads it).
        self.confidence = confidence
        self.fold = fnv(row['group']) % FOLDS
        self.p = np.array(row['probabilities'][probabilities], np.float64)
        self.kept = np.array(row['readability'], bool)
        self.texts, self.truth = row['texts'], row['truth']
        self.labels = row['labels']
        # Words as TextBlock.words counts them: tokens with a letter or digit.
        self.words = np.array([sum(any(c.isalnum() for c in w) for w in t.split())
                               for t in self.texts], np.float64)
        self.elements = row['elements']
        if split:
            # Scores with punctuation tokens of their own (score.py --split-punctuation).
            self.texts = [split_punctuation(t) for t in self.texts]
            self.truth = split_punctuation(self.truth)
        vocab = {}
        self.r_ids, self.r_off = SC._encode(SC.split_sentences(self.truth), vocab)
        self.m = int(self.r_off[-1])
        self.blocks = [SC._encode(SC.split_sentences(t), vocab) for t in self.texts]
        self.vocab = len(vocab)
        self._cache = {}
        self._regions = {}
        # The block the pipeline keeps when a route keeps none (learners.py --last-resort).
        self.last_resort = None
        sums = defaultdict(lambda: [0.0, 0.0])
        for i, chain in enumerate(self.elements):
            for e in chain:
                sums[e][0] += self.words[i] * self.p[i]
                sums[e][1] += self.words[i]
        self._sums = sums

    def inside(self, tau):
        """Mask of the blocks inside the main region for tau (ties: the deeper element)."""
        if tau not in self._regions:
            best, region = -np.inf, None
            for e, (wp, w) in self._sums.items():
                s = wp - tau * w
                if s > best or (s == best and e > region):
                    best, region = s, e
            self._regions[tau] = np.array([region in c for c in self.elements], bool)
        return self._regions[tau]

    def f1(self, verdicts):
        return self.prf(verdicts)[2]

    def prf(self, verdicts):
        """Precision, recall and F1 of the blocks `verdicts` keep (the last resort's block
        when they keep none and the page has one)."""
        if self.last_resort is not None and not np.any(verdicts):
            verdicts = np.arange(len(self.texts)) == self.last_resort
        key = np.packbits(verdicts).tobytes()
        if key not in self._cache:
            self._cache[key] = self._score(verdicts)
        return self._cache[key]

    def _score(self, verdicts):
        ids, offs, base = [], [0], 0
        for keep, (c_ids, c_off) in zip(verdicts, self.blocks):
            if keep and len(c_ids):
                ids.append(c_ids)
                offs.extend(base + c_off[1:])
                base += len(c_ids)
        n = base
        if self.m and n:
            hits = int(SC._lsum_hits(self.r_ids, self.r_off, np.concatenate(ids),
                                     np.array(offs, np.int64), self.vocab))
            p, r, f = SC._prf(hits, n, self.m)
        else:
            p = r = f = 0.0
        return SC._empty_conv(p, r, f, self.m == 0, n == 0)


def article_route(pg, anchor=0.35, outside=0.55):
    return np.where(pg.kept, pg.p >= anchor, pg.p >= outside)


def region_route(pg, tau, t_in, t_out):
    return np.where(pg.inside(tau), pg.p >= t_in, pg.p >= t_out)


# A route is a function (page, setting) -> verdicts; settings are chosen per fold.
def shipped(pg, _s):
    return article_route(pg) if pg.typed == 'article' else pg.p >= 0.3


def others_one(pg, t):
    return article_route(pg) if pg.typed == 'article' else pg.p >= t


def region_others(pg, s):
    return article_route(pg) if pg.typed == 'article' else region_route(pg, *s)


def region_articles_too(pg, s):
    tau, t_in, t_out, t_art = s
    if pg.typed == 'article':
        return article_route(pg) & (pg.inside(tau) | (pg.p >= t_art))
    return region_route(pg, tau, t_in, t_out)


def weights(pages):
    count = defaultdict(int)
    for pg in pages:
        count[pg.dataset] += 1
    return [1.0 / (len(count) * count[pg.dataset]) for pg in pages]


def choose(pages, route, settings):
    """The setting of `settings` with the best mean over datasets of mean page F1."""
    w = weights(pages)
    best = max(settings, key=lambda s: sum(wi * pg.f1(route(pg, s)) for wi, pg in zip(w, pages)))
    return best


def choose_per_type(pages, settings):
    """region, per type: one (tau, t_in, t_out) per held-out type other than article."""
    w = weights(pages)
    chosen = {}
    for t in TYPES[1:]:
        sel = [(wi, pg) for wi, pg in zip(w, pages) if pg.typed == t]
        chosen[t] = max(settings, key=lambda s: sum(wi * pg.f1(region_route(pg, *s)) for wi, pg in sel))
    return chosen


def per_type_route(pg, chosen):
    if pg.typed == 'article' or pg.typed not in chosen:
        return article_route(pg) if pg.typed == 'article' else pg.p >= 0.3
    return region_route(pg, *chosen[pg.typed])


def held_out(pages, route, chooser):
    """Verdicts of every page by the setting chosen on the other folds; the choices."""
    verdicts, choices = {}, []
    for f in range(FOLDS):
        train = [pg for pg in pages if pg.fold != f]
        s = chooser(train)
        choices.append(s)
        for pg in pages:
            if pg.fold == f:
                verdicts[pg.dataset, pg.id] = route(pg, s)
    choices.append(chooser(pages))
    return verdicts, choices


def table_row(name, pages, verdicts):
    def mean(sel):
        return sum(pg.f1(verdicts[pg.dataset, pg.id]) for pg in sel) / len(sel) if sel else float('nan')
    wcxb = [pg for pg in pages if pg.dataset == 'wcxb']
    cells = [mean(wcxb)] + [mean([pg for pg in wcxb if pg.kind == t]) for t in TYPES]
    cells += [mean([pg for pg in pages if pg.dataset == d])
              for d in ['cleanportaleval', 'l3s-gn1', 'readability', 'scrapinghub']]
    return f'| {name} | ' + ' | '.join(f'{c:.3f}' for c in cells) + ' |'


def load(path, probabilities, types_path, split=False):
    """The pages of PAGES_JSONL `path` with the `probabilities` named, typed by the
    `types_path` file (or their own held-out type); `split` scores them with punctuation
    tokens of their own (score.py `--split-punctuation`)."""
    types = {}
    if types_path:
        with open(types_path) as lines:
            for line in lines:
                row = json.loads(line)
                types[row['dataset'], row['id']] = row['held_out_type'], row['held_out_confidence']
    pages = []
    with open(path) as lines:
        for line in lines:
            row = json.loads(line)
            typed, confidence = types.get((row['dataset'], row['id']),
                                          (row.get('held_out_type'), row.get('held_out_confidence')))
            if probabilities == 'in-sample':
                typed, confidence = row['guessed_type'], row['guessed_confidence']
            if typed is None or probabilities not in row['probabilities']:
                continue
            pages.append(Page(row, probabilities, typed, split, confidence))
    return pages


def check(pages):
    rng = np.random.default_rng(0)
    for pg in pages[:: max(1, len(pages) // 40)]:
        v = rng.random(len(pg.texts)) < 0.5
        text = ''.join(t + '\n' for t, keep in zip(pg.texts, v) if keep)
        assert np.allclose(pg.prf(v), SC.rouge_lsum(pg.truth, text)), (pg.dataset, pg.id)
    print('check: the cached scorer agrees with rouge_lsum', file=sys.stderr)


def routed(pg, p, s, gate=0.0):
    """The shipped route's verdicts on page `pg`'s blocks of probabilities `p` under thresholds
    `s` = (anchor, outside, others[, relative]): pages typed `article` keep Readability's blocks
    at `anchor` and others at `outside`, the other types every block at `others` and, with
    `relative`, every block at `relative` times the page's highest probability
    (`LearnedBlocks::relative_to_best`). Pages typed `article` with a confidence below `gate`
    take the other types' route (`annotate.article-confidence`, a page alone)."""
    anchor, outside, others = s[:3]
    if pg.typed == 'article' and (not gate or pg.confidence >= gate):
        return np.where(pg.kept, p >= anchor, p >= outside)
    if len(s) > 3 and s[3] > 0 and len(p):
        return (p >= others) | (p >= s[3] * p.max())
    return p >= others


def choose_thresholds(pages, probs, anchors, outside, others):
    """Article thresholds and the others' threshold over the grids given, each best on its
    pages by the weighted F1 (the objective is a sum over pages, so the two choices are
    independent); `probs[pg.key]` are page `pg`'s block probabilities."""
    w = dict(zip((id(pg) for pg in pages), weights(pages)))
    arts = [pg for pg in pages if pg.typed == 'article']
    rest = [pg for pg in pages if pg.typed != 'article']
    a, o = max(((a, o) for a in anchors for o in outside), key=lambda s: sum(
        w[id(pg)] * pg.f1(routed(pg, probs[pg.key], (s[0], s[1], 0.0))) for pg in arts))
    t = max(others, key=lambda t: sum(w[id(pg)] * pg.f1(probs[pg.key] >= t) for pg in rest))
    return a, o, t


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('pages')
    parser.add_argument('--types', help='held-out types from this nested --pages-out file')
    parser.add_argument('--probabilities', default='site folds')
    parser.add_argument('--check', action='store_true')
    parser.add_argument('--routes', default='shipped,one,region,articles,per-type')
    args = parser.parse_args()
    pages = load(args.pages, args.probabilities, args.types)
    print(f'{len(pages)} pages, probabilities {args.probabilities!r}', file=sys.stderr)
    if args.check:
        check(pages)
    triples = list(itertools.product(TAUS, T_IN, T_OUT))
    routes = {
        'shipped (>=0.35/0.55, others >=0.3)': (shipped, lambda _p: None),
        'others: one threshold in the folds': (others_one, lambda p: choose(p, others_one, OTHERS)),
        'region, others; (tau, t_in, t_out) in the folds':
            (region_others, lambda p: choose(p, region_others, triples)),
        'region, others per type': (per_type_route, lambda p: choose_per_type(p, triples)),
    }
    keys = dict(zip(['shipped', 'one', 'region', 'per-type'], routes))
    wanted = args.routes.split(',')
    print('| route | wcxb-dev all | ' + ' | '.join(TYPES)
          + ' | cleanportaleval | l3s-gn1 | readability | scrapinghub |')
    print('| --- ' * 13 + '|')
    region_choices = None
    for key, name in keys.items():
        if key not in wanted:
            continue
        route, chooser = routes[name]
        verdicts, choices = held_out(pages, route, chooser)
        print(table_row(name, pages, verdicts), flush=True)
        print(f'  chosen per fold (0-4, all): {choices}', file=sys.stderr, flush=True)
        if key == 'region':
            region_choices = choices
    if 'articles' in wanted:
        # The others' triple as chosen above in each fold; the articles' cut chosen beside it.
        def chooser(p, _c=iter(region_choices)):
            triple = next(_c)
            return choose(p, region_articles_too, [(*triple, t) for t in T_OUT_ARTICLE])
        verdicts, choices = held_out(pages, region_articles_too, chooser)
        print(table_row('region, articles too', pages, verdicts), flush=True)
        print(f'  chosen per fold (0-4, all): {choices}', file=sys.stderr, flush=True)


if __name__ == '__main__':
    main()
