#!/usr/bin/env python3
"""Blocks of one like-sibling group voting together, held out by site folds.

Usage: group_vote.py ROWS_CSV PAGES_JSONL [--variants none,mean,max,...]
                     [--fixed ANCHOR/OUTSIDE/OTHERS/RELATIVE]

ROWS_CSV and PAGES_JSONL are the `--rows-out` and `--pages-out` files of one `dbce
train-single-page --cross-validate` run (see learners.py): the blocks' features and the
shipped model's held-out probabilities (`site folds`), each page typed as held out.

A group is the block's nearest group of at least three like siblings (same tag and class) as
the block rows give it (`group_size` >= 3; one group per page and value of `group_word_share`,
which is the group's words over the page's). Each variant moves the probability of every block
of a group towards the group's word-weighted mean probability `g`, then routes the page at the
fixed thresholds (the shipped ones by default) with the densest block as last resort:

- `none`: the probabilities as they are (the baseline);
- `mean`: (p + g) / 2;  `max`: max(p, g);
- `…-others`: only on pages not typed `article`;
- `…:N`: only groups at most N levels above the block (`group_levels_up`).

Prints one Markdown row per variant, as learners.py does. Needs numpy (and numba for the
scorer); SCORER names the reference score.py, as for learners.py.
"""
import argparse
import sys
from collections import defaultdict
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from learners import checked_pages, per_page  # noqa: E402
from main_region import routed, table_row  # noqa: E402


def groups_of(rows, start, end, max_up):
    """The like-sibling groups of one page's blocks `start..end`: lists of row indices."""
    size = rows.x[:, rows.names.index('group_size')]
    share = rows.x[:, rows.names.index('group_word_share')]
    up = rows.x[:, rows.names.index('group_levels_up')]
    groups = defaultdict(list)
    for i in range(start, end):
        if size[i] >= 3 and up[i] <= max_up:
            groups[(size[i], share[i])].append(i)
    return [members for members in groups.values() if len(members) > 1]


def voted(rows, pages, p, variant):
    """The probabilities `p` of every block after `variant`'s vote."""
    kind, _, max_up = variant.partition(':')
    if kind == 'none':
        return p
    out = p.copy()
    for pg in pages:
        if kind.endswith('-others') and pg.typed == 'article':
            continue
        start, end = rows.span.get(pg.key, (0, 0))
        for members in groups_of(rows, start, end, float(max_up) if max_up else np.inf):
            w = np.maximum(pg.words[np.array(members) - start], 1.0)
            g = float((p[members] * w).sum() / w.sum())
            out[members] = (p[members] + g) / 2 if kind.startswith('mean') else np.maximum(p[members], g)
    return out


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('rows')
    parser.add_argument('pages')
    parser.add_argument('--variants', default='none,mean,max,mean-others,max-others,mean:1,mean-others:1')
    parser.add_argument('--fixed', default='0.5/0.55/0.3/0.3')
    args = parser.parse_args()
    fixed = tuple(float(t) for t in args.fixed.split('/'))
    rows, pages = checked_pages(args.rows, args.pages, args.pages)
    p = np.zeros(len(rows.y))
    for pg in pages:
        start, end = rows.span.get(pg.key, (0, 0))
        p[start:end] = pg.p
    print('| variant | | wcxb-dev all | article | collection | doc. | forum | listing | product '
          '| service | cleanportaleval | l3s-gn1 | readability | scrapinghub |')
    print('| --- ' * 14 + '|')
    for variant in args.variants.split(','):
        probs = per_page(rows, voted(rows, pages, p, variant), pages)
        verdicts = {pg.key: routed(pg, probs[pg.key], fixed) for pg in pages}
        print(table_row(f'{variant} | ', pages, verdicts), flush=True)


if __name__ == '__main__':
    main()
