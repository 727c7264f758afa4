#!/usr/bin/env python3
"""Checks `dbce template` against the real datasketch: feeds the tokens dbce printed to
datasketch's MinHash with the same num_perm, seed and scheme, and compares the signatures.

    dbce template PAGE.html [--num-perm N --seed S --scheme legacy|affine32] \
        | python3 scripts/template-datasketch.py

Needs datasketch >= 2.0.0 (for `scheme`): `python3 -m venv /tmp/venv &&
/tmp/venv/bin/pip install datasketch==2.0.0`. Prints datasketch's values and exits 1 if they
differ from dbce's. The expected values in crates/dbce/tests/cli/template.rs were made this way.
"""

import json
import sys

from datasketch import MinHash


def main():
    printed = json.load(sys.stdin)
    config = printed["minhash"]
    minhash = MinHash(num_perm=config["num-perm"], seed=config["seed"], scheme=config["scheme"])
    for token in printed["tokens"]:
        minhash.update(token.encode("utf-8"))
    expected = [int(v) for v in minhash.hashvalues]
    print(json.dumps({"minhash": config, "tokens": len(printed["tokens"]), "signature": expected}))
    if expected != printed["signature"]:
        print("signatures differ from datasketch's", file=sys.stderr)
        sys.exit(1)


if __name__ == "__main__":
    main()
