#!/usr/bin/env python3
"""Where the single-page route loses, per labelled page type: type or block model.

Usage: route_diagnosis.py PAGES_JSONL [--anchor 0.35] [--outside 0.55] [--others 0.3]

PAGES_JSONL is the `--pages-out` file of `dbce train-single-page --nested`: per page its
labelled type, the type held out (`held_out_type`, by the page-type model of its fold), and
per block the label, Readability's verdict and the held-out forest probability ("site folds").
For the pages of datasets with labelled types it prints mean ROUGE-LSum P / R / F1 of

- the route as shipped, with the held-out type (pages typed `article`: Readability's blocks
  at `--anchor`, the others at `--outside`; other types: every block at `--others`);
- the same route with the labelled type (what a perfect page-type model would give);
- the labels (the ceiling of any block classifier);

and, for the pages of other types typed `article`, their F1 on the article route and on the
other types' route. Scores come from the reference scorer ../shared/eval/score.py (SCORER
environment variable to override its path), which needs numpy.
"""
import argparse
import json
import sys
from collections import defaultdict
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from score import load_scorer  # noqa: E402  (the sibling script, SCORER as it reads it)

COLUMNS = ['held-out type', 'labelled type', 'labels']


def route(page, page_type, args):
    probs, kept = page['probabilities']['site folds'], page['readability']
    if page_type == 'article':
        return [p >= (args.anchor if k else args.outside) for p, k in zip(probs, kept)]
    return [p >= args.others for p in probs]


def text(page, verdicts):
    return ''.join(t + '\n' for t, keep in zip(page['texts'], verdicts) if keep)


def mean(rows, k):
    return sum(r[k] for r in rows) / len(rows)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('pages')
    parser.add_argument('--anchor', type=float, default=0.35)
    parser.add_argument('--outside', type=float, default=0.55)
    parser.add_argument('--others', type=float, default=0.3)
    args = parser.parse_args()
    rouge = load_scorer().rouge_lsum
    by_type = defaultdict(lambda: defaultdict(list))
    labelled = set()
    with open(args.pages) as lines:
        pages = [json.loads(line) for line in lines]
    for page in pages:
        if page['page_type'] != 'article':
            labelled.add(page['dataset'])
    for page in pages:
        held_out = page.get('held_out_type')
        if page['dataset'] not in labelled or held_out is None:
            continue
        if 'site folds' not in page['probabilities']:
            continue
        truth, kind = page['truth'], page['page_type']
        verdicts = {
            'held-out type': route(page, held_out, args),
            'labelled type': route(page, kind, args),
            'labels': page['labels'],
        }
        rows = by_type[kind]
        rows['typed article'].append(held_out == 'article')
        rows['type right'].append(held_out == kind)
        for name, v in verdicts.items():
            rows[name].append(rouge(truth, text(page, v)))
        if held_out == 'article' and kind != 'article':
            rows['as article'].append(rouge(truth, text(page, verdicts['held-out type'])))
            rows['as other'].append(rouge(truth, text(page, route(page, kind, args))))
    print('| type | pages | typed `article` | type right | held-out type: P / R / F1 | '
          'labelled type: P / R / F1 | labels: P / R / F1 | typed `article`: F1 on the '
          'article route / on the other route |')
    print('| --- | ---: | ---: | ---: | --- | --- | --- | --- |')
    for kind in sorted(by_type):
        rows = by_type[kind]
        cells = [f'{mean(rows[c], 0):.3f} / {mean(rows[c], 1):.3f} / **{mean(rows[c], 2):.3f}**'
                 for c in COLUMNS]
        mistyped = (f"{mean(rows['as article'], 2):.3f} / {mean(rows['as other'], 2):.3f}"
                    if rows['as article'] else '–')
        print(f"| {kind} | {len(rows['labels'])} | {sum(rows['typed article'])} | "
              f"{sum(rows['type right'])} | " + ' | '.join(cells) + f' | {mistyped} |')


if __name__ == '__main__':
    main()
