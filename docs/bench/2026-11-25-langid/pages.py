"""Prints `LANG<TAB>PATH` for every development page whose <html lang> names one of the
languages below and whose ground truth is not empty: the silver-labelled page set of the
language-detector comparison (README.md). Usage: python3 pages.py ../../../../shared/data"""
import gzip
import os
import re
import sys

ISO3 = {'en': 'eng', 'fr': 'fra', 'de': 'deu', 'pt': 'por', 'ru': 'rus', 'ja': 'jpn', 'es': 'spa',
        'id': 'ind', 'ko': 'kor', 'it': 'ita', 'zh': 'zho', 'cs': 'ces'}
root = sys.argv[1]
for dataset in ['cleanportaleval', 'l3s-gn1', 'readability', 'scrapinghub', 'wcxb-dev']:
    for name in sorted(os.listdir(f'{root}/{dataset}/html')):
        path = f'{root}/{dataset}/html/{name}'
        html = gzip.open(path).read() if path.endswith('.gz') else open(path, 'rb').read()
        m = re.search(rb'<html[^>]*\blang\s*=\s*["\']?([A-Za-z]{2,3})', html[:5000], re.I)
        lang = m and ISO3.get(m.group(1).lower().decode())
        truth = f'{root}/{dataset}/gt/' + name.replace('.html.gz', '.txt').replace('.html', '.txt')
        if lang and os.path.exists(truth) and os.path.getsize(truth) > 0:
            print(f'{lang}\t{os.path.abspath(truth)}')
