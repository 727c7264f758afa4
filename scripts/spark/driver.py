"""Run dbce's staged pipeline on Apache Spark: one Spark task per shard, stage after stage.

Each stage of scripts/slurm/stages.txt (read, group, annotate, finish, index, merge) becomes one Spark
job over `range(shards)` with one element per shard (for annotate: per task of a partition); every task runs the same subcommand a
Slurm array task runs (`dbce stage STAGE --work W ...` through subprocess), so the binary does
the work and Spark only schedules. A stage starts when every task of the previous one has
succeeded; a task that fails (dbce exit 2 or worse, or no done marker) fails the stage, and the
driver stops and exits 2. dbce's exit 1 (some input records skipped) is success.

The binary, the inputs, the work and the output directory must be at the same paths on every
executor (a shared filesystem). Rerunning the driver completes an interrupted run: shards with
a done marker are skipped by dbce. Spark's retries and speculative attempts are safe because
dbce writes every file under a temporary name and renames it.

usage: spark-submit scripts/spark/driver.py --dbce BIN --work DIR [--out DIR] [--world N]
           [--config FILE] [--from STAGE] [--until STAGE] [--stages FILE] INPUT...
       (or python driver.py --master URL ... with pyspark installed)
Adapted from ../shared/cluster/spark_pipeline.py (the tested recipe).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
import tomllib
from pathlib import Path

DEFAULT_STAGES = Path(__file__).resolve().parent.parent / "slurm" / "stages.txt"


Stage = tuple[str, str, str, str]


def load_stages(path: Path) -> list[Stage]:
    """(name, shard kind, extra, done rule) per stage, in order."""
    stages = []
    for line in path.read_text().splitlines():
        fields = line.split()
        if fields and not fields[0].startswith("#"):
            name, kind, extra, done = fields
            stages.append((name, kind, extra, done))
    return stages


def done_path(a: argparse.Namespace, name: str, done: str, k: int) -> Path:
    """The file whose existence says that shard k of a stage is complete."""
    if done.startswith("out:"):
        return Path(a.out) / done[len("out:") :]
    return Path(a.work) / name / "_done" / f"{k:05d}"


def config_shards(dbce: str, config: str | None) -> tuple[int, int]:
    """lsh.partitions and annotate.tasks-per-partition of the resolved configuration, as dbce
    prints it (a binary older than the setting has one annotate task per partition)."""
    cmd = [dbce, "config", "show", config] if config else [dbce, "config", "default"]
    out = tomllib.loads(subprocess.run(cmd, check=True, capture_output=True, text=True).stdout)
    return int(out["lsh"]["partitions"]), int(out["annotate"].get("tasks-per-partition", 1))


def shard_command(a: argparse.Namespace, name: str, kind: str, extra: str, k: int) -> list[str]:
    """The dbce command line of shard k of a stage: what scripts/slurm/task.sh runs."""
    cmd = [a.dbce, "stage", name, "--work", a.work]
    if a.config:
        cmd += ["--config", a.config]
    if kind == "world":
        cmd += ["--rank", str(k), "--world", str(a.world)]
    elif kind == "partitions":
        cmd += ["--partition", str(k)]
    elif kind == "tasks":
        cmd += ["--shard", str(k)]
    if extra == "out":
        cmd += ["--out", a.out]
    elif extra == "inputs":
        cmd += a.inputs
    return cmd


def make_task(a: argparse.Namespace, stage: Stage, fail: str):
    """The function each Spark partition runs: its shards, one dbce process each."""
    name, kind, extra, done = stage

    def run(shards):
        for k in shards:
            cmd = shard_command(a, name, kind, extra, k)
            if fail == f"{name}:{k}":
                raise RuntimeError(
                    f"{name} shard {k}: DBCE_SELFTEST_FAIL={fail}, failing on purpose"
                )
            t = time.time()
            r = subprocess.run(cmd, capture_output=True, text=True)
            tail = r.stderr.strip().splitlines()[-5:]
            if r.returncode not in (0, 1):
                raise RuntimeError(
                    f"{name} shard {k}: dbce exit {r.returncode}: {' | '.join(tail)}"
                )
            marker = done_path(a, name, done, k)
            if not marker.exists():
                raise RuntimeError(f"{name} shard {k}: dbce exit {r.returncode} but no {marker}")
            yield (k, r.returncode, round(time.time() - t, 2), tail[-1] if tail else "")

    return run


def parse_args(argv: list[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dbce", required=True, help="the dbce binary (same path on every executor)")
    ap.add_argument("--work", required=True, help="the run's work directory (shared)")
    ap.add_argument("--out", help="output directory (finish, index, merge)")
    ap.add_argument("--world", type=int, default=1, help="read tasks (default 1)")
    ap.add_argument("--config", help="dbce configuration (its lsh.partitions sizes the merges, "
                    "times annotate.tasks-per-partition for annotate)")
    ap.add_argument("--from", dest="first", help="first stage (default: the first)")
    ap.add_argument("--until", help="last stage (default: the last)")
    ap.add_argument("--stages", type=Path, default=DEFAULT_STAGES, help="the stage table")
    ap.add_argument("--master", help="Spark master URL (default: spark-submit's)")
    ap.add_argument("--max-failures", type=int, help="spark.task.maxFailures (attempts per task)")
    ap.add_argument("inputs", nargs="*", help="input archives (read)")
    a = ap.parse_args(argv)
    a.dbce, a.work = os.path.abspath(a.dbce), os.path.abspath(a.work)
    a.out = os.path.abspath(a.out) if a.out else None
    a.config = os.path.abspath(a.config) if a.config else None
    a.inputs = [os.path.abspath(p) for p in a.inputs]
    if a.world < 1:
        ap.error("--world must be at least 1")
    return a


def select_stages(a: argparse.Namespace) -> list[Stage]:
    stages = load_stages(a.stages)
    names = [s[0] for s in stages]
    for n in (a.first, a.until):
        if n and n not in names:
            raise SystemExit(f"dbce-spark: unknown stage {n} (stages: {' '.join(names)})")
    lo = names.index(a.first) if a.first else 0
    hi = names.index(a.until) if a.until else len(names) - 1
    chosen = stages[lo : hi + 1]
    for name, _, extra, _ in chosen:
        if extra == "out" and not a.out:
            raise SystemExit(f"dbce-spark: stage {name} needs --out DIR")
        if extra == "inputs" and not a.inputs:
            raise SystemExit(f"dbce-spark: stage {name} needs input archives")
    return chosen


def main(argv: list[str]) -> int:
    a = parse_args(argv)
    stages = select_stages(a)
    partitions, tasks = config_shards(a.dbce, a.config)
    counts = {"world": a.world, "partitions": partitions, "tasks": partitions * tasks, "one": 1}
    fail = os.environ.get("DBCE_SELFTEST_FAIL", "")

    from pyspark.sql import SparkSession

    t0 = time.time()
    builder = SparkSession.builder.appName("dbce").config("spark.ui.showConsoleProgress", "false")
    if a.master:
        builder = builder.master(a.master)
    if a.max_failures:
        builder = builder.config("spark.task.maxFailures", str(a.max_failures))
    spark = builder.getOrCreate()
    sc = spark.sparkContext
    sc.setLogLevel("ERROR")
    print(f"[dbce-spark] Spark {spark.version} on {sc.master}, session in {time.time() - t0:.1f}s",
          flush=True)
    try:
        for stage in stages:
            name, kind = stage[0], stage[1]
            n = counts[kind]
            t = time.time()
            sc.setJobDescription(f"dbce stage {name} ({n} shards)")
            done = (
                sc.parallelize(range(n), n)
                .mapPartitions(make_task(a, stage, fail))
                .collect()
            )
            skipped = sum(1 for _, rc, _, _ in done if rc == 1)
            note = f" ({skipped} with skipped records)" if skipped else ""
            secs = time.time() - t
            print(f"[dbce-spark] stage {name}: {len(done)} of {n} shards done in {secs:.1f}s{note}",
                  flush=True)
            for k, _, secs, last in sorted(done):
                print(f"[dbce-spark]   {name} {k:05d} {secs}s {last}", flush=True)
    except Exception as e:  # py4j wraps the task's RuntimeError: keep its message
        lines = [ln for ln in str(e).splitlines() if ln.startswith("RuntimeError:")]
        lines = lines or str(e).splitlines()[:3]
        print(f"[dbce-spark] FAILED: {lines[0] if lines else e}", file=sys.stderr, flush=True)
        spark.stop()
        return 2
    spark.stop()
    print(f"[dbce-spark] all stages done in {time.time() - t0:.1f}s", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
