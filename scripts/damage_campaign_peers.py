"""Reads the mutants a damage campaign dumped (DBCE_CAMPAIGN_DUMP) with warcio and FastWARC, and
counts how many of each mutant's intact records they read, for scripts/damage-campaign.

    .venv/bin/python scripts/damage_campaign_peers.py DUMP_DIR

A record counts as read when a reader yields a record with its WARC-Record-ID before any error
stops it (a reader that raises keeps what it yielded before). ARC mutants are left out (warcio
gives ARC records new ids), and so are zstd ones (neither reader reads them here). Prints one JSON object per reader
and framing: mutants, intact records, records read.
"""

import argparse
import collections
import json
import os


def warcio_keys(path):
    from warcio.archiveiterator import ArchiveIterator

    keys = set()
    try:
        with open(path, "rb") as stream:
            for record in ArchiveIterator(stream, arc2warc=True):
                keys.add(key(record.rec_headers.get_header))
                record.content_stream().read()
    except Exception:  # noqa: BLE001 - any failure ends the read; what was read counts
        pass
    return keys


def fastwarc_keys(path):
    from fastwarc.warc import ArchiveIterator

    keys = set()
    try:
        with open(path, "rb") as stream:
            for record in ArchiveIterator(stream, parse_http=False):
                keys.add(key(record.headers.get))
                record.reader.read()
    except Exception:  # noqa: BLE001
        pass
    return keys


def key(get):
    return get("WARC-Record-ID")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("dump")
    args = parser.parse_args()
    tally = collections.defaultdict(lambda: [0, 0, 0])
    with open(os.path.join(args.dump, "manifest.jsonl")) as manifest:
        for line in manifest:
            mutant = json.loads(line)
            # ARC records get new ids from warcio: only WARC mutants are compared.
            if any(not k.startswith("<") for k in mutant["intact"]):
                continue
            path = os.path.join(args.dump, mutant["file"])
            for reader, read in (("warcio", warcio_keys), ("fastwarc", fastwarc_keys)):
                # Neither reads zstd WARC files (FastWARC only in some builds): not compared.
                if mutant["framing"] == "WholeZstd":
                    continue
                keys = read(path)
                entry = tally[(reader, mutant["framing"])]
                entry[0] += 1
                entry[1] += len(mutant["intact"])
                entry[2] += sum(1 for k in mutant["intact"] if k in keys)
    for (reader, framing), (mutants, intact, read) in sorted(tally.items()):
        print(json.dumps({"reader": reader, "framing": framing, "mutants": mutants,
                          "intact": intact, "read": read}))


if __name__ == "__main__":
    main()
