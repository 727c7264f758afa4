#!/usr/bin/env python3
"""Pages typed `article` with little confidence routed as the other types, held out by site folds.

Usage: article_gate.py ROWS_CSV PAGES_JSONL [--gates 0,0.3,...] [--fixed ANCHOR/OUTSIDE/OTHERS/RELATIVE]

ROWS_CSV and PAGES_JSONL are the `--rows-out` and `--pages-out` files of one `dbce
train-single-page --cross-validate` run (see learners.py): each page typed by the page-type
model held out for its site fold (`held_out_type`, `held_out_confidence`) and its blocks'
held-out probabilities (`site folds`).

The shipped route (`annotate.single-page` and `annotate.single-page-beyond-articles`) keeps, on
a page typed `article`, Readability's blocks at ANCHOR and the others at OUTSIDE; on the other
types every block at OTHERS or at RELATIVE times the page's highest probability. With a gate
G (`annotate.article-confidence`), a page typed `article` with a confidence below G takes the
other types' route. One row per gate, then the gate chosen for each fold on the other four
folds' pages by the objective of `--nested` (mean over datasets of their mean page F1), as
main_region.py chooses its settings, with the choices and the choice on all pages.

F1 by the reference scorer (main_region.py's cached kernel; SCORER names score.py). Needs
numpy (and numba for the scorer).
"""
import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from learners import checked_pages  # noqa: E402
from main_region import FOLDS, routed, table_row, weights  # noqa: E402


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('rows')
    parser.add_argument('pages')
    parser.add_argument('--gates', default='0,0.3,0.4,0.45,0.5,0.55,0.6,0.7')
    parser.add_argument('--fixed', default='0.5/0.55/0.3/0.3')
    args = parser.parse_args()
    gates = [float(g) for g in args.gates.split(',')]
    fixed = tuple(float(t) for t in args.fixed.split('/'))
    rows, pages = checked_pages(args.rows, args.pages, args.pages)
    print('| gate | wcxb-dev all | article | collection | doc. | forum | listing | product '
          '| service | cleanportaleval | l3s-gn1 | readability | scrapinghub |')
    print('| --- ' * 13 + '|')
    for gate in gates:
        verdicts = {pg.key: routed(pg, pg.p, fixed, gate) for pg in pages}
        print(table_row(f'{gate}', pages, verdicts), flush=True)

    def best(subset):
        w = weights(subset)
        return max(gates, key=lambda g: sum(wi * pg.f1(routed(pg, pg.p, fixed, g)) for wi, pg in zip(w, subset)))

    verdicts, choices = {}, []
    for f in range(FOLDS):
        gate = best([pg for pg in pages if pg.fold != f])
        choices.append(gate)
        for pg in pages:
            if pg.fold == f:
                verdicts[pg.key] = routed(pg, pg.p, fixed, gate)
    print(table_row(f'chosen in the folds {choices}, on all pages {best(pages)}', pages, verdicts))


if __name__ == '__main__':
    main()
