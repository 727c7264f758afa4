#!/usr/bin/env python3
"""Mean ROUGE-LSum P/R/F1 of extracted text against a development set's ground truth.

Usage: score.py DATASET_DIR PRED_DIR [PRED_DIR...] [--split-punctuation] [--by-type]
Each PRED_DIR holds <id>.txt for the pages of DATASET_DIR/gt/<id>.txt; a missing file counts
as an empty extraction. Scores come from the reference scorer ../shared/eval/score.py
(SCORER environment variable to override its path); prints one tab-separated row per PRED_DIR:
name, pages, P, R, F1, median F1. `--by-type` adds a row per `page_type` of
DATASET_DIR/meta.jsonl. `--split-punctuation` scores truth and extraction alike with every
character that is neither a word character nor whitespace made a token of its own
(`split_punctuation`): figures that do not depend on where the ground truth and an extractor put
spaces around punctuation (wcxb-dev's truth writes highlighted code as `useState ( 0 );`, one
token per highlighter span; an extractor that keeps the code as written, `useState(0);`, matches
none of those tokens).
"""
import argparse
import importlib.util
import json
import os
import re
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve()
DEFAULT_SCORER = HERE.parents[3].parent / 'shared' / 'eval' / 'score.py'


def load_scorer():
    path = os.environ.get('SCORER', str(DEFAULT_SCORER))
    spec = importlib.util.spec_from_file_location('score', path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


PUNCTUATION = re.compile(r'([^\w\s])')


def split_punctuation(text):
    """`text` with every character that is neither a word character nor whitespace a token of
    its own: `f(x);` becomes `f ( x ) ;`, as does `f ( x ) ;`."""
    return PUNCTUATION.sub(r' \1 ', text)


def page_types(dataset):
    """Each page's `page_type` from DATASET/meta.jsonl (empty without one)."""
    meta = dataset / 'meta.jsonl'
    if not meta.exists():
        return {}
    with open(meta, encoding='utf-8') as lines:
        rows = [json.loads(line) for line in lines if line.strip()]
    return {row['id']: row['page_type'] for row in rows if row.get('page_type')}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split('\n')[0])
    parser.add_argument('dataset', type=Path)
    parser.add_argument('preds', type=Path, nargs='+')
    parser.add_argument('--split-punctuation', action='store_true')
    parser.add_argument('--by-type', action='store_true')
    args = parser.parse_args()
    score = load_scorer()
    tokens = split_punctuation if args.split_punctuation else (lambda text: text)
    gts = sorted((args.dataset / 'gt').glob('*.txt'))
    types = page_types(args.dataset) if args.by_type else {}
    for pred_dir in args.preds:
        rows = defaultdict(list)
        for gt in gts:
            pred = pred_dir / gt.name
            truth = gt.read_text(encoding='utf-8')
            text = pred.read_text(encoding='utf-8') if pred.exists() else ''
            row = score.score_page(tokens(truth), tokens(text))
            rows['all'].append(row)
            if gt.stem in types:
                rows[types[gt.stem]].append(row)
        for group in ['all'] + sorted(set(rows) - {'all'}):
            agg = score.aggregate(rows[group])
            name = pred_dir.name if group == 'all' else f'{pred_dir.name} {group}'
            print(f"{name}\t{agg['n']}\t{agg['rl_p']:.3f}\t{agg['rl_r']:.3f}\t{agg['rl_f']:.3f}"
                  f"\t{agg['rl_f_median']:.3f}", flush=True)


if __name__ == '__main__':
    main()
