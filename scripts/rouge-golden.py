#!/usr/bin/env python3
"""Write testdata/rouge/golden.json: ROUGE-LSum by the reference scorer, for dbce-eval.

Runs the functions of the development data's reference scorer (`score.py`: `rouge_lsum`,
`split_sentences`) on (ground truth, prediction) pairs and records their results, so that
dbce-eval's port can be checked without Python:

    python3 scripts/rouge-golden.py > testdata/rouge/golden.json

score.py needs numpy (numba optional, same results). Paths default to the development
machine's layout and can be given:

    python3 scripts/rouge-golden.py --score-py ../shared/eval/score.py --data ../shared/data

The pairs are real ground-truth files of a few development pages (listed in `sources`,
copied into the file: CleanPortalEval, L3S-GN1, Mozilla Readability's test pages and the
Scrapinghub article-extraction benchmark) against truncated, shuffled, noisy and padded
versions of themselves and of each other, plus edge cases: empty texts, white space only,
Unicode white space, sentence ends, long unpunctuated sentences (chunking), repeated tokens.
Every random choice comes from a seeded random.Random, so the file is reproducible.
Texts are stored once in `texts` and cases refer to them by index. Scores are stored as
Python repr strings, which parse back to the exact float.
"""

import argparse
import importlib.util
import json
import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (dataset, page id): short real ground truths, of every dataset.
SOURCES = [
    ("cleanportaleval", "washingtonpost.com_blog1_15"),
    ("cleanportaleval", "tv.msnbc.com_news_01"),
    ("cleanportaleval", "bbc.co.uk_news_11"),
    ("cleanportaleval", "bbc.co.uk_news_04"),  # an empty ground truth
    ("l3s-gn1", "2faf4aab-6e1d-4a6a-a43e-a216e2c7170f"),
    ("readability", "remove-aria-hidden"),
    ("scrapinghub", "042bb7b5fedab6ea"),
]

BOILERPLATE = ["Home", "Menu", "Share", "Sign in", "Subscribe", "Advertisement",
               "Most read", "© 2013 All rights reserved.", "Privacy Policy | Terms of Use"]


def load_score(path):
    spec = importlib.util.spec_from_file_location("score", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules["score"] = module  # numba's on-disk cache refers to the module by name
    spec.loader.exec_module(module)
    return module


def truncate_lines(rng, text):
    lines = text.split("\n")
    return "\n".join(lines[: max(1, len(lines) // 2)])


def truncate_tokens(rng, text):
    """Cut inside a line, at 40% of the characters' tokens."""
    cut = int(len(text) * 0.4)
    return text[:cut]


def shuffle_lines(rng, text):
    lines = text.split("\n")
    rng.shuffle(lines)
    return "\n".join(lines)


def shuffle_sentences(rng, score, text):
    sents = [" ".join(s) for s in score.split_sentences(text)]
    rng.shuffle(sents)
    return "\n".join(sents)


def noisy(rng, text):
    """Drop, insert, swap and re-case tokens; keep the line structure."""
    out_lines = []
    for line in text.split("\n"):
        toks = line.split(" ")
        out = []
        for t in toks:
            x = rng.random()
            if x < 0.08:
                continue
            if x < 0.14:
                out.append(rng.choice(["the", "Menu", "and", "Share", "."]))
            out.append(t.lower() if rng.random() < 0.05 else t)
        for _ in range(len(out) // 15):
            i = rng.randrange(max(1, len(out) - 1))
            if i + 1 < len(out):
                out[i], out[i + 1] = out[i + 1], out[i]
        out_lines.append(" ".join(out))
    return "\n".join(out_lines)


def padded(rng, text):
    head = rng.sample(BOILERPLATE, 4)
    tail = rng.sample(BOILERPLATE, 3)
    return "\n".join(head + [text] + tail)


def cases_for(rng, score, name, gt, other):
    yield f"{name}: identical", gt, gt
    yield f"{name}: first half of the lines", gt, truncate_lines(rng, gt)
    yield f"{name}: cut inside a line", gt, truncate_tokens(rng, gt)
    yield f"{name}: lines shuffled", gt, shuffle_lines(rng, gt)
    yield f"{name}: sentences shuffled", gt, shuffle_sentences(rng, score, gt)
    yield f"{name}: noisy", gt, noisy(rng, gt)
    yield f"{name}: with boilerplate", gt, padded(rng, gt)
    yield f"{name}: another page", gt, other
    yield f"{name}: twice", gt, gt + "\n" + gt
    yield f"{name}: one line", gt, " ".join(gt.split())
    yield f"{name}: noisy as truth", noisy(rng, gt), gt


def edge_cases(rng):
    words = [f"w{i}" for i in range(40)]
    long_a = " ".join(rng.choice(words) for _ in range(9000))
    long_b = " ".join(rng.choice(words) for _ in range(4500)) + ". " + long_a[: len(long_a) // 3]
    return [
        ("empty both", "", ""),
        ("empty truth", "", "some extracted words"),
        ("empty prediction", "some truth words", ""),
        ("white space only both", " \n\t\r\n ", "\u00a0\u3000\n"),
        ("white space truth", "  \n  ", "words here"),
        ("white space prediction", "words here", "\n\n  \t"),
        ("unicode white space", "a\u00a0b\u2003c.\u2028d\u0085e\x1cf g\u200bh",
         "a b c. d e f g\u200bh"),
        ("separators split tokens", "alpha\x1dbeta\x1fgamma", "alpha beta gamma"),
        ("zero-width space does not", "alpha\u200bbeta", "alpha beta"),
        ("carriage returns", "one two\r\nthree four\rfive six", "one two three four five six"),
        ("sentence ends", "Mr. Smith went home.Then he slept! Did he? Yes... (really.) Ok",
         "Smith went home.Then he slept. Did he Yes... really.) Ok Mr."),
        ("case sensitive", "The Word is here", "the word is Here"),
        ("repeated tokens", "the the the cat the the", "the cat the the the the the the"),
        ("repeated in truth only", "a a a a b a a a", "a b"),
        ("no spaces (CJK)", "東京で地震があった。\n被害は小さい。", "東京で地震があった。\nその他"),
        ("long sentences are chunked", long_a, long_b),
        ("long sentence vs itself shifted", long_a, long_a[len(long_a) // 2:] + " " + long_a),
        ("single tokens", "x", "x"),
        ("single token miss", "x", "y"),
    ]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--score-py", default=str(ROOT.parent / "shared/eval/score.py"))
    ap.add_argument("--data", default=str(ROOT.parent / "shared/data"))
    args = ap.parse_args()
    score = load_score(args.score_py)
    rng = random.Random(20240611)

    gts = []
    for dataset, page in SOURCES:
        path = Path(args.data) / dataset / "gt" / f"{page}.txt"
        gts.append((f"{dataset}/{page}", path.read_text(encoding="utf-8")))

    pairs = []
    for i, (name, gt) in enumerate(gts):
        if not gt.strip():
            pairs.append((f"{name}: empty truth, another page", gt, gts[(i + 1) % len(gts)][1]))
            pairs.append((f"{name}: empty truth, empty prediction", gt, ""))
            continue
        other = gts[(i + 1) % len(gts)][1]
        pairs.extend(cases_for(rng, score, name, gt, other))
    pairs.extend(edge_cases(rng))

    texts, index = [], {}

    def intern(text):
        if text not in index:
            index[text] = len(texts)
            texts.append(text)
        return index[text]

    cases = []
    for name, truth, pred in pairs:
        p, r, f = score.rouge_lsum(truth, pred)
        # repr strings: exact, whatever the reader's JSON float parsing
        cases.append({"name": name, "reference": intern(truth), "candidate": intern(pred),
                      "precision": repr(p), "recall": repr(r), "f1": repr(f)})
    sentences = [{"text": intern(t), "sentences": score.split_sentences(texts[intern(t)])}
                 for t in [gts[0][1], edge_cases(random.Random(0))[6][1],
                           edge_cases(random.Random(0))[10][1], "\r\n a. b\x1c\x1dc? d! \n"]]
    golden = {
        "generator": "scripts/rouge-golden.py",
        "sources": [f"/work/shared/data/{name}: gt file (development data)" for name, _ in gts],
        "whitespace": [c for c in range(sys.maxunicode + 1) if chr(c).isspace()],
        "max_sent_tokens": score.MAX_SENT_TOKENS,
        "texts": texts,
        "cases": cases,
        "sentences": sentences,
    }
    json.dump(golden, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
