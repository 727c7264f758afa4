#!/usr/bin/env python3
"""Regenerates testdata/minhash/datasketch-vectors.json from the real datasketch.

dbce-minhash claims bit-compatibility with datasketch's MinHash (schemes "legacy" and
"affine32") and MinHashLSH (choice of bands and rows, banding). The Rust test
crates/dbce-minhash/tests/datasketch_parity.rs compares against the file this script writes.

Needs datasketch from PyPI (the committed file was made with datasketch 2.0.0, numpy 2.4.6,
scipy 1.17.1; the versions are recorded in the file):

    python3 -m venv /tmp/venv && /tmp/venv/bin/pip install datasketch==2.0.0
    /tmp/venv/bin/python scripts/minhash-vectors.py

datasketch >= 2.0.0 is required, because "affine32" and the `scheme` argument are new in 2.0.0;
its "legacy" scheme is the only scheme of every earlier version (the thesis used 0.2.5).
Tokens are stored as hex, because datasketch hashes bytes and some tokens are not UTF-8.
The output is deterministic: rerunning the script rewrites the same bytes.
"""

import json
import os
import sys
from importlib.metadata import version

import numpy as np
from datasketch import MinHash, MinHashLSH

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "testdata", "minhash", "datasketch-vectors.json")

# (scheme, seed, num_perm) for which every token set gets a full signature.
CONFIGS = [
    (scheme, seed, num_perm)
    for scheme in ("legacy", "affine32")
    for seed in (1, 42)
    for num_perm in (128, 64)
] + [("legacy", 0, 16), ("affine32", 0, 16), ("legacy", 4294967295, 16), ("affine32", 4294967295, 16)]

# (scheme, seed, num_perm) whose permutation parameters are stored too (checks the RNG alone).
PERMUTATION_CONFIGS = [("legacy", 1, 8), ("legacy", 42, 16), ("affine32", 1, 8), ("affine32", 42, 16)]

# LSH queries: (scheme, seed, num_perm, threshold); every token set is inserted, then queried.
LSH_CONFIGS = [("legacy", 1, 128, 0.3), ("legacy", 1, 128, 0.6), ("affine32", 1, 128, 0.5), ("legacy", 42, 64, 0.8)]

OPTIMAL_THRESHOLDS = [round(i / 100, 2) for i in range(1, 100)] + [0.0, 1.0]
OPTIMAL_NUM_PERMS = [64, 128, 256]
OPTIMAL_SMALL_NUM_PERMS = [2, 3, 7, 16]


def utf8(tokens):
    return [t.encode("utf-8") for t in tokens]


def template_page(variant, size=60, changed=0):
    """Tokens shaped like DOM template paths; `changed` of them differ per variant."""
    tokens = ["html>body>div.c%d>ul.nav>li:nth-child(%d)>a" % (i % 7, i) for i in range(size)]
    for i in range(changed):
        tokens[(i * 7 + variant) % size] = "html>body>div.v%d>p.x%d" % (variant, i)
    return utf8(tokens)


def token_sets():
    sets = [
        ("empty set", []),
        ("one token", utf8(["a"])),
        ("a b c (note reference)", utf8(["a", "b", "c"])),
        ("duplicates", utf8(["a", "a", "b", "b", "a", "c", "c"])),
        ("reordered a b c", utf8(["c", "a", "b"])),
        ("empty token", [b""]),
        ("unicode tokens", utf8(["żółć", "日本語", "😀", "naïve", "Ελληνικά", "\u0301e"])),
        ("non-UTF-8 bytes", [b"\xff\xfe", b"\x00", b"\x80abc", bytes(range(256))]),
        ("long tokens", [b"x" * 1000, b"y" * 5000, ("ż" * 700).encode("utf-8")]),
        ("block-boundary lengths", [b"q" * n for n in (55, 56, 63, 64, 65, 119, 120, 128)]),
        ("tok0..tok299", utf8(["tok%d" % i for i in range(300)])),
        ("words", utf8("the quick brown fox jumps over the lazy dog".split())),
        ("words, one changed", utf8("the quick brown cat jumps over the lazy dog".split())),
        ("numbers as text", utf8([str(i) for i in range(100)])),
        ("numbers shifted", utf8([str(i) for i in range(50, 150)])),
    ]
    for variant, changed in [(0, 0), (1, 3), (2, 6), (3, 12), (4, 20), (5, 30), (6, 45), (7, 60)]:
        sets.append(("template page, %d of 60 changed" % changed, template_page(variant, 60, changed)))
    sets += [
        ("template page subset", template_page(0, 40, 0)),
        ("template page superset", template_page(0, 90, 0)),
        ("disjoint template", utf8(["footer>div.z%d" % i for i in range(60)])),
        ("single long realistic token", utf8(["html>body>div#main>article.post>section>p.lead>span"])),
        ("case differs", utf8(["A", "B", "C"])),
        ("whitespace tokens", utf8([" ", "\t", "\n", "  "])),
    ]
    return sets


def minhash(tokens, scheme, seed, num_perm):
    m = MinHash(num_perm=num_perm, seed=seed, scheme=scheme)
    for t in tokens:
        m.update(t)
    return m


def signatures(sets):
    out = []
    for scheme, seed, num_perm in CONFIGS:
        hashes = [minhash(tokens, scheme, seed, num_perm) for _, tokens in sets]
        pairs = []
        for i in range(len(sets)):
            for j in range(i, len(sets)):
                pairs.append([i, j, hashes[i].jaccard(hashes[j])])
        out.append({
            "scheme": scheme,
            "seed": seed,
            "num_perm": num_perm,
            "signatures": [[int(v) for v in m.hashvalues] for m in hashes],
            "jaccard": pairs,
        })
    return out


def permutations():
    out = []
    for scheme, seed, num_perm in PERMUTATION_CONFIGS:
        a, b = MinHash(num_perm=num_perm, seed=seed, scheme=scheme).permutations
        out.append({"scheme": scheme, "seed": seed, "num_perm": num_perm,
                    "a": [int(v) for v in a], "b": [int(v) for v in b]})
    return out


def optimal_params():
    out = []
    cases = [(t, n) for n in OPTIMAL_NUM_PERMS for t in OPTIMAL_THRESHOLDS]
    cases += [(round(i / 10, 1), n) for n in OPTIMAL_SMALL_NUM_PERMS for i in range(0, 11)]
    for threshold, num_perm in cases:
        try:
            lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)
            out.append({"threshold": threshold, "num_perm": num_perm, "bands": lsh.b, "rows": lsh.r})
        except ValueError as err:
            out.append({"threshold": threshold, "num_perm": num_perm, "error": str(err)})
    return out


def lsh_queries(sets):
    out = []
    for scheme, seed, num_perm, threshold in LSH_CONFIGS:
        lsh = MinHashLSH(threshold=threshold, num_perm=num_perm)
        hashes = [minhash(tokens, scheme, seed, num_perm) for _, tokens in sets]
        for i, m in enumerate(hashes):
            lsh.insert(i, m)
        candidates = [sorted(lsh.query(m)) for m in hashes]
        out.append({"scheme": scheme, "seed": seed, "num_perm": num_perm, "threshold": threshold,
                    "bands": lsh.b, "rows": lsh.r, "candidates": candidates})
    return out


def dump(doc):
    """JSON with one list element per line, so that a diff of the file stays readable."""
    compact = lambda v: json.dumps(v, ensure_ascii=False, separators=(",", ":"))
    fields = []
    for key, value in doc.items():
        if isinstance(value, list):
            items = ",\n".join(compact(v) for v in value)
            fields.append("%s: [\n%s\n]" % (json.dumps(key), items))
        else:
            fields.append("%s: %s" % (json.dumps(key), compact(value)))
    return "{\n" + ",\n".join(fields) + "\n}\n"


def main():
    if int(version("datasketch").split(".")[0]) < 2:
        sys.exit("datasketch >= 2.0.0 is needed (scheme='affine32')")
    sets = token_sets()
    doc = {
        "generator": "scripts/minhash-vectors.py",
        "versions": {name: version(name) for name in ("datasketch", "numpy", "scipy")},
        "token_sets": [{"name": name, "tokens_hex": [t.hex() for t in tokens]} for name, tokens in sets],
        "permutations": permutations(),
        "signatures": signatures(sets),
        "optimal_params": optimal_params(),
        "lsh_queries": lsh_queries(sets),
    }
    os.makedirs(os.path.dirname(OUT), exist_ok=True)
    with open(OUT, "w", encoding="utf-8") as f:
        f.write(dump(doc))
    print("wrote %s (numpy %s)" % (OUT, np.__version__))


if __name__ == "__main__":
    main()
