#!/usr/bin/env bash
# Self-test of the Slurm scripts, for real: starts a private Slurm cluster of two nodes on this
# machine (local-cluster.sh: a controller, munge, and a slurmd per node in a network namespace of
# its own, the file system shared), runs dbce's pipeline on the bundled sample as job arrays with
# several shards per stage, and checks
#   1. every task COMPLETED and the output is byte-identical to a local run of the same binary
#      (`dbce run` once the binary has it; until then every stage run one shard after another
#      with `dbce stage`);
#   2. a task made to fail (DBCE_SELFTEST_FAIL) fails its array, the later stages are cancelled,
#      resubmit.sh resubmits only the failed shard and the later stages, and the output is again
#      identical;
#   3. a node that crashes (every process on it killed) under a running task: its task fails
#      with NODE_FAIL, the node goes DOWN, the later stages are cancelled, resubmit.sh completes
#      the run on the surviving node, and the output is again identical.
# Prints PASS last and exits 0 only then. Stops the daemons it started, by PID.
#
# usage: scripts/slurm/selftest.sh [DIR]      (default: /tmp/dbce-slurm-selftest; wiped first)
# env:   DBCE=path/to/dbce   use this binary instead of `cargo build --release -p dbce`
#        NODES               nodes of the cluster (default 2; with 1, check 3 is left out)
#        SLURMCTLD_PORT / SLURMD_PORT (default 6817 / 6818)
#        SELFTEST_TIMEOUT_S  budget for each batch of jobs (default 180)
# Needs root (apt-get install of slurm and munge if missing; daemons run as root) and python3.
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
DIR=${1:-/tmp/dbce-slurm-selftest}
MAX_ARRAY=2 # smaller than every stage: each stage becomes several arrays with offsets
export NODES=${NODES:-2}
export DBCE_SLURM_WAIT_S=${SELFTEST_TIMEOUT_S:-180}

log() { printf '[slurm-selftest %3ss] %s\n' "$SECONDS" "$*"; }
die() {
  log "FAIL: $*"
  exit 1
}
[ "$(id -u)" = 0 ] || die "must run as root (installs and runs the Slurm daemons)"
command -v python3 >/dev/null || die "python3 is needed to split the sample archive"
# shellcheck source=scripts/slurm/selftest-lib.sh
. "$HERE/selftest-lib.sh"

# ---------------------------------------------------------------- setup
stop_cluster() {
  if [ -d "$DIR/cluster" ]; then
    "$HERE/local-cluster.sh" stop "$DIR/cluster" 2>&1 | sed 's/^/    /'
  fi
}
stop_cluster # what an earlier run in DIR may have left
selftest_binary
selftest_inputs
selftest_reference

# ---------------------------------------------------------------- cluster
trap stop_cluster EXIT
if ! "$HERE/local-cluster.sh" start "$DIR/cluster" 2>&1 | sed 's/^/    /'; then
  die "the Slurm cluster did not start"
fi
eval "$("$HERE/local-cluster.sh" env "$DIR/cluster")"

# Slurm's state of every task of every array submitted for a work directory, one per line:
# "stage state".
task_states() {
  local stage id
  while IFS=$'\t' read -r stage id _; do
    timeout 10 scontrol show job -o "$id" | grep -o 'JobState=[A-Z_]*' | sed "s/^JobState=/$stage /"
  done <"$1/slurm/jobs.tsv"
}

submit() { # $1: run directory; then extra arguments of submit.sh
  local run=$1
  shift
  "$HERE/submit.sh" --work "$run/work" --out "$run/out" --world "$WORLD" --config "$CONFIG" \
    --dbce "$BIN" --throttle 2 --max-array "$MAX_ARRAY" --until "$UNTIL" \
    --sbatch-arg=--time=5 --wait "$@" "${INPUTS[@]}"
}

# ---------------------------------------------------------------- 1. the pipeline
A=$DIR/run-ok
log "check 1: submit ${STAGES[*]} (read $WORLD tasks, $PARTITIONS partitions of $TASKS annotate tasks, arrays of at most $MAX_ARRAY)"
T=$SECONDS
submit "$A" >/dev/null 2>"$DIR/submit-ok.log" || {
  cat "$DIR/submit-ok.log"
  die "the Slurm run did not complete"
}
sed 's/^/    /' "$DIR/submit-ok.log"
states=$(task_states "$A/work" | sort | uniq -c)
if grep -v ' COMPLETED$' <<<"$states"; then die "not every task COMPLETED: $states"; fi
log "all $(awk '{n += $1} END {print n}' <<<"$states") tasks COMPLETED in $((SECONDS - T))s ($(wc -l <"$A/work/slurm/jobs.tsv") arrays)"
compare_with_reference "$A"

# ---------------------------------------------------------------- 2. failure, resubmission
# Fail the last shard of the second stage (in the second array: offset 2), or of the first if
# the second is the last stage: the stages after it must be cancelled.
if [ ${#STAGES[@]} -ge 3 ]; then FAIL_STAGE=${STAGES[1]}; else FAIL_STAGE=${STAGES[0]}; fi
case "$FAIL_STAGE" in "${STAGES[0]}") FAIL_K=$((WORLD - 1)) ;; *) FAIL_K=$((PARTITIONS - 1)) ;; esac
B=$DIR/run-fail
log "check 2: the same with DBCE_SELFTEST_FAIL=$FAIL_STAGE:$FAIL_K"
T=$SECONDS
if DBCE_SELFTEST_FAIL=$FAIL_STAGE:$FAIL_K submit "$B" >/dev/null 2>"$DIR/submit-fail.log"; then
  cat "$DIR/submit-fail.log"
  die "the run with a failing task reported success"
fi
sed 's/^/    /' "$DIR/submit-fail.log"
states=$(task_states "$B/work" | sort | uniq -c)
log "task states: $(tr -s ' \n' ' ' <<<"$states")"
grep -q " $FAIL_STAGE FAILED$" <<<"$states" || die "no FAILED task in stage $FAIL_STAGE"
[ "$(grep -c ' FAILED$' <<<"$states")" = 1 ] || die "more than one stage has FAILED tasks"
[ "$(grep " $FAIL_STAGE FAILED$" <<<"$states" | awk '{print $1}')" = 1 ] ||
  die "more than one task of $FAIL_STAGE FAILED"
case "$FAIL_STAGE" in "${STAGES[0]}") n=$WORLD ;; *) n=$PARTITIONS ;; esac
[ "$(grep " $FAIL_STAGE COMPLETED$" <<<"$states" | awk '{print $1}')" = $((n - 1)) ] ||
  die "the other tasks of $FAIL_STAGE did not all complete"
after=0
for name in "${STAGES[@]}"; do
  if [ "$after" = 1 ]; then
    grep " $name " <<<"$states" | grep -qv ' CANCELLED$' && die "stage $name was not cancelled"
    if stage_started "$B" "$name"; then die "stage $name ran after the failure"; fi
  fi
  if [ "$name" = "$FAIL_STAGE" ]; then after=1; fi
done
if shard_done "$B" "$FAIL_STAGE" "$FAIL_K"; then die "the failed shard is marked done"; fi
grep -q "DBCE_SELFTEST_FAIL=$FAIL_STAGE:$FAIL_K" "$B/work/slurm/logs/by-shard/$FAIL_STAGE-$(printf '%05d' "$FAIL_K").log" ||
  die "the failed task's log does not say why"
log "the pipeline stopped after $((SECONDS - T))s: $FAIL_STAGE shard $FAIL_K FAILED, later stages CANCELLED"

T=$SECONDS
before=$(wc -l <"$B/work/slurm/jobs.tsv")
snapshot_work "$B/work" >"$DIR/before-resubmit.txt"
"$HERE/resubmit.sh" --work "$B/work" --wait >/dev/null 2>"$DIR/resubmit.log" || {
  cat "$DIR/resubmit.log"
  die "the resubmitted run did not complete"
}
sed 's/^/    /' "$DIR/resubmit.log"
resubmitted=$(tail -n +$((before + 1)) "$B/work/slurm/jobs.tsv")
first=$(head -1 <<<"$resubmitted")
# the failed shard alone, as index FAIL_K mod MAX_ARRAY of an array with offset
# FAIL_K - FAIL_K mod MAX_ARRAY, then the later stages
[ "$(cut -f1,3,4 <<<"$first")" = "$FAIL_STAGE"$'\t'$((FAIL_K / MAX_ARRAY * MAX_ARRAY))$'\t'$((FAIL_K % MAX_ARRAY)) ] ||
  die "resubmit.sh should have resubmitted only $FAIL_STAGE shard $FAIL_K first, did: $first"
if [ "$FAIL_STAGE" != "${STAGES[0]}" ] && grep -q "^${STAGES[0]}"$'\t' <<<"$resubmitted"; then
  die "resubmit.sh resubmitted the completed stage ${STAGES[0]}"
fi
log "resubmitted $(wc -l <<<"$resubmitted") arrays ($FAIL_STAGE shard $FAIL_K, then the later stages); done in $((SECONDS - T))s"
check_untouched "$DIR/before-resubmit.txt" "$B/work"
compare_with_reference "$B"
"$HERE/resubmit.sh" --work "$B/work" 2>&1 | grep -q 'nothing to resubmit' ||
  die "a second resubmit.sh should find nothing to do"

# ---------------------------------------------------------------- 3. a node crashes
if [ "$NODES" -ge 2 ]; then
  HOLD_STAGE=${STAGES[1]}
  HOLD_K=$((PARTITIONS - 1))
  C=$DIR/run-crash
  log "check 3: crash the node that runs $HOLD_STAGE shard $HOLD_K (DBCE_SELFTEST_HOLD)"
  T=$SECONDS
  DBCE_SELFTEST_HOLD=$HOLD_STAGE:$HOLD_K submit "$C" >/dev/null 2>"$DIR/submit-crash.log" &
  SUBMIT_PID=$!
  held=$C/work/slurm/held-$HOLD_STAGE-$HOLD_K
  for _ in $(seq 1 600); do
    [ -s "$held" ] && break
    kill -0 "$SUBMIT_PID" 2>/dev/null || break
    sleep 0.2
  done
  [ -s "$held" ] || {
    cat "$DIR/submit-crash.log"
    die "the held task never started"
  }
  NODE=$(cat "$held")
  "$HERE/local-cluster.sh" kill-node "$DIR/cluster" "$NODE" 2>&1 | sed 's/^/    /'
  if wait "$SUBMIT_PID"; then
    cat "$DIR/submit-crash.log"
    die "the run reported success although node $NODE crashed under a task"
  fi
  sed 's/^/    /' "$DIR/submit-crash.log"
  states=$(task_states "$C/work" | sort | uniq -c)
  log "task states: $(tr -s ' \n' ' ' <<<"$states")"
  grep -q " $HOLD_STAGE NODE_FAIL$" <<<"$states" || die "no task of $HOLD_STAGE ended NODE_FAIL"
  node_state=$(timeout 5 sinfo -h -n "$NODE" -o '%T')
  case "$node_state" in down*) ;; *) die "node $NODE is '$node_state', not down" ;; esac
  if shard_done "$C" "$HOLD_STAGE" "$HOLD_K"; then die "the crashed shard is marked done"; fi
  log "node $NODE is $node_state after $((SECONDS - T))s; its task ended NODE_FAIL"

  T=$SECONDS
  before=$(wc -l <"$C/work/slurm/jobs.tsv")
  "$HERE/resubmit.sh" --work "$C/work" --wait >/dev/null 2>"$DIR/resubmit-crash.log" || {
    cat "$DIR/resubmit-crash.log"
    die "the run resubmitted after the crash did not complete"
  }
  sed 's/^/    /' "$DIR/resubmit-crash.log"
  # every resubmitted task ran on a node that is up
  while IFS=$'\t' read -r _ id _; do
    ran=$(timeout 10 scontrol show job -o "$id" | grep -o ' NodeList=[^ ]*' | sort -u | sed 's/ NodeList=//' | paste -sd,)
    case ",$ran," in *",$NODE,"*) die "resubmitted job $id ran on the crashed node $NODE" ;; esac
  done < <(tail -n +$((before + 1)) "$C/work/slurm/jobs.tsv")
  log "resubmitted after the crash; done in $((SECONDS - T))s on the surviving node(s)"
  compare_with_reference "$C"
fi

stop_cluster
trap - EXIT
log "total ${SECONDS}s"
log "PASS"
