#!/usr/bin/env python3
"""Mean ROUGE-LSum P/R/F1 of extracted text against a development set's ground truth.

Usage: score.py DATASET_DIR PRED_DIR [PRED_DIR...]
Each PRED_DIR holds <id>.txt for the pages of DATASET_DIR/gt/<id>.txt; a missing file counts
as an empty extraction. Scores come from the reference scorer ../shared/eval/score.py
(SCORER environment variable to override its path); prints one tab-separated row per PRED_DIR:
name, pages, P, R, F1, median F1.
"""
import importlib.util
import os
import sys
from pathlib import Path

HERE = Path(__file__).resolve()
DEFAULT_SCORER = HERE.parents[3].parent / 'shared' / 'eval' / 'score.py'


def load_scorer():
    path = os.environ.get('SCORER', str(DEFAULT_SCORER))
    spec = importlib.util.spec_from_file_location('score', path)
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def main():
    if len(sys.argv) < 3:
        sys.exit(__doc__)
    score = load_scorer()
    dataset = Path(sys.argv[1])
    gts = sorted((dataset / 'gt').glob('*.txt'))
    for pred_dir in map(Path, sys.argv[2:]):
        rows = []
        for gt in gts:
            pred = pred_dir / gt.name
            truth = gt.read_text(encoding='utf-8')
            text = pred.read_text(encoding='utf-8') if pred.exists() else ''
            rows.append(score.score_page(truth, text))
        agg = score.aggregate(rows)
        print(f"{pred_dir.name}\t{agg['n']}\t{agg['rl_p']:.3f}\t{agg['rl_r']:.3f}\t{agg['rl_f']:.3f}"
              f"\t{agg['rl_f_median']:.3f}", flush=True)


if __name__ == '__main__':
    main()
