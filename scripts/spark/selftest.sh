#!/usr/bin/env bash
# Self-test of the Spark driver, for real: pyspark from PyPI in a venv, a Spark standalone master
# and worker on 127.0.0.1 (or local[2]), dbce's pipeline on the bundled sample with several
# shards per stage, and the same checks as scripts/slurm/selftest.sh:
#   1. the driver succeeds and the output is byte-identical to a local run of the same binary;
#   2. with DBCE_SELFTEST_FAIL=STAGE:K that task fails, the driver exits non-zero and no later
#      stage runs; rerunning the driver completes the run without rewriting the shards already
#      done, and the output is again identical.
# Prints PASS last and exits 0 only then. Stops the JVMs it started, by PID. Run by .ci/run
# (which installs Java 17 if missing); see docs/CLUSTER.md.
#
# usage: scripts/spark/selftest.sh [DIR]     (default: /tmp/dbce-spark-selftest; wiped first)
# env:   DBCE=path/to/dbce   use this binary instead of `cargo build --release -p dbce`
#        SPARK_VENV          venv with pyspark (default /tmp/dbce-spark-venv; created if needed)
#        PYSPARK_VERSION     default 4.3.0 (Spark 4 needs Java 17 or 21)
#        SPARK_MODE          standalone (default: master + worker JVMs, executors in their own
#                            JVM, as on a cluster) or local (local[2] in the driver's JVM)
#        SPARK_MASTER_PORT   default 7077
#        SELFTEST_TIMEOUT_S  budget for each driver run (default 300)
# Adapted from ../shared/cluster/spark-local.sh (the tested recipe).
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DIR=${1:-/tmp/dbce-spark-selftest}
VENV=${SPARK_VENV:-/tmp/dbce-spark-venv}
PYSPARK_VERSION=${PYSPARK_VERSION:-4.3.0}
SPARK_MODE=${SPARK_MODE:-standalone}
SPARK_MASTER_PORT=${SPARK_MASTER_PORT:-7077}
TIMEOUT_S=${SELFTEST_TIMEOUT_S:-300}

log() { printf '[spark-selftest %3ss] %s\n' "$SECONDS" "$*"; }
die() {
  log "FAIL: $*"
  exit 1
}
command -v python3 >/dev/null || die "python3 is needed"
# shellcheck source=scripts/slurm/selftest-lib.sh
. "$HERE/../slurm/selftest-lib.sh"

# ---------------------------------------------------------------- java, pyspark
java_major() { java -version 2>&1 | awk -F'"' '/version/ {split($2, v, "."); print v[1]; exit}'; }
if ! command -v java >/dev/null 2>&1; then
  die "no java: Spark $PYSPARK_VERSION needs Java 17 or 21 (Debian: apt-get install -y openjdk-17-jre-headless)"
fi
[ "$(java_major)" -ge 17 ] ||
  die "java $(java_major) is too old: Spark $PYSPARK_VERSION needs Java 17 or 21 (Debian: apt-get install -y openjdk-17-jre-headless)"
log "java $(java_major)"
if ! "$VENV/bin/python" -c "import pyspark, sys; sys.exit(pyspark.__version__ != '$PYSPARK_VERSION')" 2>/dev/null; then
  log "creating $VENV with pyspark==$PYSPARK_VERSION (pip, about 520 MB)"
  rm -rf "$VENV"
  python3 -m venv "$VENV"
  timeout 900 "$VENV/bin/pip" install -q --disable-pip-version-check "pyspark==$PYSPARK_VERSION"
fi
export SPARK_LOCAL_IP=127.0.0.1 # never bind or resolve the host name
export PYSPARK_PYTHON=$VENV/bin/python PYSPARK_DRIVER_PYTHON=$VENV/bin/python
SPARK_HOME=$("$VENV/bin/python" -c 'import os, pyspark; print(os.path.dirname(pyspark.__file__))')
export SPARK_HOME

# ---------------------------------------------------------------- cluster
PIDS=$DIR/run-state/pids
stop_spark() { # the master and worker JVMs started here, by PID, if still theirs
  local f pid
  for f in "$PIDS"/worker.pid "$PIDS"/master.pid; do
    [ -f "$f" ] || continue
    pid=$(cat "$f")
    if kill -0 "$pid" 2>/dev/null && ps -p "$pid" -o args= | grep -q 'org.apache.spark.deploy'; then
      kill -TERM "$pid" 2>/dev/null || true
      for _ in $(seq 1 50); do
        kill -0 "$pid" 2>/dev/null || break
        sleep 0.2
      done
      if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
      log "stopped $(basename "$f" .pid) (pid $pid)"
    fi
    rm -f "$f"
  done
}
stop_spark # what an earlier run in DIR may have left
selftest_binary
selftest_inputs
selftest_reference
mkdir -p "$PIDS" "$DIR/log"

wait_for_line() { # file, text, what
  for _ in $(seq 1 120); do
    if grep -q "$2" "$1"; then return; fi
    sleep 0.5
  done
  tail -20 "$1" >&2
  die "$3"
}
if [ "$SPARK_MODE" = standalone ]; then
  trap stop_spark EXIT
  if ss -ltnH "( sport = :$SPARK_MASTER_PORT )" 2>/dev/null | grep -q .; then
    die "port $SPARK_MASTER_PORT in use (set SPARK_MASTER_PORT)"
  fi
  # spark-class execs java, so $! is the JVM's PID
  "$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.master.Master --host 127.0.0.1 \
    --port "$SPARK_MASTER_PORT" --webui-port 0 >"$DIR/log/master.log" 2>&1 &
  echo $! >"$PIDS/master.pid"
  wait_for_line "$DIR/log/master.log" 'I have been elected leader' "the master did not start"
  "$SPARK_HOME/bin/spark-class" org.apache.spark.deploy.worker.Worker \
    "spark://127.0.0.1:$SPARK_MASTER_PORT" --host 127.0.0.1 --cores 2 --memory 2g \
    --webui-port 0 --work-dir "$DIR/run-state/worker" >"$DIR/log/worker.log" 2>&1 &
  echo $! >"$PIDS/worker.pid"
  wait_for_line "$DIR/log/worker.log" 'Successfully registered with master' "the worker did not register"
  MASTER=spark://127.0.0.1:$SPARK_MASTER_PORT
else
  MASTER='local[2]'
fi
log "Spark master $MASTER"

# Runs the driver in its own session, then stops what is left of that session (the JVM exits a
# few seconds after the Python driver), by PID.
run_driver() { # log file, run directory
  local logf=$1 run=$2 rc=0 pid left
  setsid timeout "$TIMEOUT_S" "$VENV/bin/python" "$HERE/driver.py" --master "$MASTER" \
    --max-failures 1 --dbce "$BIN" --work "$run/work" --out "$run/out" --world "$WORLD" \
    --config "$CONFIG" --until "$UNTIL" "${INPUTS[@]}" >"$logf" 2>&1 &
  pid=$!
  wait "$pid" || rc=$?
  for _ in $(seq 1 20); do
    left=$(ps -e -o pid=,sid=,stat= | awk -v s="$pid" '$2 == s && $3 !~ /^Z/ {print $1}')
    [ -z "$left" ] && break
    sleep 0.5
  done
  if [ -n "$left" ]; then
    log "stopping what is left of the driver's session: $(tr '\n' ' ' <<<"$left")"
    # shellcheck disable=SC2086 # one PID per word
    kill -TERM $left 2>/dev/null || true
    sleep 2
    for p in $left; do if kill -0 "$p" 2>/dev/null; then kill -KILL "$p" 2>/dev/null || true; fi; done
  fi
  return $rc
}

# ---------------------------------------------------------------- 1. the pipeline
A=$DIR/run-ok
log "check 1: driver over ${STAGES[*]} (read $WORLD tasks, $PARTITIONS partitions of $TASKS annotate tasks)"
T=$SECONDS
run_driver "$DIR/driver-ok.log" "$A" || {
  grep -v '^\s*at ' "$DIR/driver-ok.log" | tail -30
  die "the driver failed"
}
grep '^\[dbce-spark\] \(Spark\|stage\|all\)' "$DIR/driver-ok.log" | sed 's/^/    /'
log "driver done in $((SECONDS - T))s"
compare_with_reference "$A"

# ---------------------------------------------------------------- 2. failure, rerun
if [ ${#STAGES[@]} -ge 3 ]; then FAIL_STAGE=${STAGES[1]}; else FAIL_STAGE=${STAGES[0]}; fi
case "$FAIL_STAGE" in "${STAGES[0]}") FAIL_K=$((WORLD - 1)) ;; *) FAIL_K=$((PARTITIONS - 1)) ;; esac
B=$DIR/run-fail
log "check 2: the same with DBCE_SELFTEST_FAIL=$FAIL_STAGE:$FAIL_K"
if DBCE_SELFTEST_FAIL=$FAIL_STAGE:$FAIL_K run_driver "$DIR/driver-fail.log" "$B"; then
  die "the driver succeeded with a failing task"
fi
grep -q "FAILED: .*DBCE_SELFTEST_FAIL=$FAIL_STAGE:$FAIL_K" "$DIR/driver-fail.log" ||
  die "the driver did not report the failed task: $(grep -v '^\s*at ' "$DIR/driver-fail.log" | tail -5)"
grep '^\[dbce-spark\] \(stage\|FAILED\)' "$DIR/driver-fail.log" | sed 's/^/    /'
after=0
for name in "${STAGES[@]}"; do
  if [ "$after" = 1 ] && stage_started "$B" "$name"; then
    die "stage $name ran after the failure"
  fi
  if [ "$name" = "$FAIL_STAGE" ]; then after=1; fi
done
if shard_done "$B" "$FAIL_STAGE" "$FAIL_K"; then die "the failed shard is marked done"; fi
log "the driver stopped at $FAIL_STAGE shard $FAIL_K; no later stage ran"

snapshot_work "$B/work" >"$DIR/before-rerun.txt"
run_driver "$DIR/driver-rerun.log" "$B" || {
  grep -v '^\s*at ' "$DIR/driver-rerun.log" | tail -30
  die "the rerun failed"
}
log "rerun of the driver done"
check_untouched "$DIR/before-rerun.txt" "$B/work"
compare_with_reference "$B"

stop_spark
trap - EXIT
log "total ${SECONDS}s"
log "PASS"
