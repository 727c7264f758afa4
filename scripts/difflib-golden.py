#!/usr/bin/env python3
"""Write testdata/difflib/golden.json: Python 3.11 difflib results for dbce-annotate.

Standard library only. Each case is a pair of token sequences (integers standing for words)
built from a seeded random.Random, so the file is reproducible:

    python3 scripts/difflib-golden.py > testdata/difflib/golden.json

For autojunk true and false the file records get_matching_blocks(), get_opcodes(), ratio()
(as repr, which round-trips exactly) and the same blocks/opcodes through lxml's
InsensitiveSequenceMatcher filter (copied below from lxml/html/diff.py, lxml 6).
Opcode tags are abbreviated to e/r/d/i to keep the file small.
"""

import difflib
import json
import random
import sys


class InsensitiveSequenceMatcher(difflib.SequenceMatcher):
    """lxml.html.diff.InsensitiveSequenceMatcher, verbatim logic."""

    threshold = 2

    def get_matching_blocks(self):
        size = min(len(self.b), len(self.b))
        threshold = min(self.threshold, size // 4)
        actual = difflib.SequenceMatcher.get_matching_blocks(self)
        return [item for item in actual if item[2] > threshold or not item[2]]


def words(rng, n, vocab, popular):
    """n tokens from a Zipf-ish vocabulary; `popular` tokens are frequent (autojunk bait)."""
    out = []
    for _ in range(n):
        if popular and rng.random() < 0.15:
            out.append(rng.randrange(popular))
        else:
            out.append(popular + int(rng.paretovariate(1.2)) % vocab)
    return out


def mutate(rng, seq, vocab):
    """Edit, delete, insert and shuffle segments so shared blocks remain."""
    out = list(seq)
    for _ in range(rng.randrange(0, 12)):
        if not out:
            break
        i = rng.randrange(len(out))
        j = min(len(out), i + rng.randrange(1, 30))
        op = rng.randrange(4)
        if op == 0:
            out[i:j] = [rng.randrange(vocab) for _ in range(j - i)]
        elif op == 1:
            del out[i:j]
        elif op == 2:
            out[i:i] = [rng.randrange(vocab) for _ in range(rng.randrange(1, 20))]
        else:
            seg = out[i:j]
            rng.shuffle(seg)
            out[i:j] = seg
    return out


def make_case(rng, k):
    vocab = rng.choice([3, 10, 50, 400])
    popular = rng.choice([0, 0, 2, 5])
    n = rng.choice([0, 1, 2, 5, 20, 100, 199, 200, 201, 300, 450, 600])
    if k < 4:
        n = [0, 0, 3, 0][k]
    a = words(rng, n, vocab, popular)
    b = mutate(rng, a, vocab + popular) if rng.random() < 0.85 else words(rng, n, vocab, popular)
    if k == 1:
        b = words(rng, 7, vocab, popular)
    return a, b


def run(cls, a, b, autojunk):
    m = cls(None, a, b, autojunk=autojunk)
    blocks = [list(x) for x in m.get_matching_blocks()]
    ops = [[t[0][0], *t[1:]] for t in m.get_opcodes()]
    return blocks, ops, repr(m.ratio())


def main():
    rng = random.Random(20171)
    cases = []
    for k in range(64):
        a, b = make_case(rng, k)
        case = {"a": a, "b": b}
        for autojunk in (True, False):
            key = "autojunk" if autojunk else "plain"
            blocks, ops, ratio = run(difflib.SequenceMatcher, a, b, autojunk)
            iblocks, iops, _ = run(InsensitiveSequenceMatcher, a, b, autojunk)
            case[key] = {"blocks": blocks, "opcodes": ops, "ratio": ratio,
                         "insensitive_blocks": iblocks, "insensitive_opcodes": iops}
        cases.append(case)
    json.dump({"python": sys.version.split()[0], "cases": cases}, sys.stdout,
              separators=(",", ":"))
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
