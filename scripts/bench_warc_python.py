"""Times the Python WARC readers warcio and FastWARC on one file, for scripts/bench-warc.

Run with the interpreter of a virtual environment holding both packages:

    .venv/bin/python scripts/bench_warc_python.py [--reps N] FILE.warc.gz

Prints one JSON object per way of reading, in the shape read_speed (the Rust example) prints.
Repetitions are interleaved across the ways, and each is timed by the CPU time of the thread
(time.thread_time), as read_speed does, so that other processes on a shared machine disturb
the figures less.
"""

import argparse
import importlib.metadata
import json
import statistics
import time

from fastwarc.warc import ArchiveIterator as FastArchiveIterator
from warcio.archiveiterator import ArchiveIterator as WarcioArchiveIterator


def read_warcio(path):
    """Every record, its content read through content_stream() (HTTP headers parsed)."""
    records = kept = 0
    with open(path, "rb") as stream:
        for record in WarcioArchiveIterator(stream):
            records += 1
            kept += len(record.content_stream().read())
    return records, kept


def read_fastwarc(path):
    """Every record, its block read (HTTP not parsed: dbce does not parse it either)."""
    records = kept = 0
    for record in FastArchiveIterator(path, parse_http=False):
        records += 1
        kept += len(record.reader.read())
    return records, kept


def iterate_fastwarc(path):
    """Every record, no block read: what FastWARC's own `benchmark` command measures."""
    records = 0
    for _ in FastArchiveIterator(path, parse_http=False):
        records += 1
    return records, 0


WAYS = [
    ("warcio", "warcio {}, every record's content read", "warcio", read_warcio),
    ("fastwarc", "FastWARC {}, every block read", "FastWARC", read_fastwarc),
    ("fastwarc-headers", "FastWARC {}, no block read", "FastWARC", iterate_fastwarc),
]


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--reps", type=int, default=5)
    parser.add_argument("--way", action="append", choices=[w[0] for w in WAYS])
    parser.add_argument("file")
    args = parser.parse_args()
    ways = [w for w in WAYS if not args.way or w[0] in args.way]
    cpu = {name: [] for name, *_ in ways}
    wall = {name: [] for name, *_ in ways}
    counts = {}
    for _ in range(max(args.reps, 1)):
        for name, _, _, read in ways:
            start_wall, start_cpu = time.perf_counter(), time.thread_time()
            count = read(args.file)
            cpu[name].append(time.thread_time() - start_cpu)
            wall[name].append(time.perf_counter() - start_wall)
            if counts.setdefault(name, count) != count:
                raise SystemExit(f"{name}: counts differ between runs")
    for name, label, package, _ in ways:
        version = importlib.metadata.version(package)
        print(json.dumps({
            "way": name,
            "label": label.format(version),
            "seconds": statistics.median(cpu[name]),
            "wall_seconds": statistics.median(wall[name]),
            "runs": sorted(cpu[name]),
            "records": counts[name][0],
            "kept_bytes": counts[name][1],
        }))


if __name__ == "__main__":
    main()
