#!/usr/bin/env bash
# One task of a dbce job array: runs shard K = SLURM_ARRAY_TASK_ID + OFFSET of STAGE.
#
# usage (by submit.sh / resubmit.sh): sbatch --array=... task.sh SETTINGS STAGE OFFSET
#   SETTINGS  the run's settings file (WORK/slurm/settings.sh, written by submit.sh): the dbce
#             binary, work and output directories, config, world, partitions, annotate tasks
#             per partition, inputs, and the
#             stage table (a copy of stages.txt) that says how STAGE takes its shard
#   OFFSET    added to the array index, because arrays are capped at MaxArraySize (often 1001):
#             a stage with more shards is split into several arrays with offsets 0, M, 2M, ...
# Exit codes: dbce's 0 (ok) and 1 (finished, some input records skipped) are success for the
# pipeline and become 0, so `afterok` dependencies fire; anything else fails the task.
# DBCE_SELFTEST_FAIL=STAGE:K makes the task for that shard exit 2 without running dbce (the
# failure injection of selftest.sh). DBCE_SELFTEST_HOLD=STAGE:K makes it write its node's name to
# WORK/slurm/held-STAGE-K and wait there (up to 10 minutes) before running dbce, so that
# selftest.sh can crash the node under a running task.
#
# sbatch copies this script into its spool directory, so it must not rely on its siblings.
set -euo pipefail

[ $# -eq 3 ] || {
  echo "usage: task.sh SETTINGS STAGE OFFSET (submitted by submit.sh)" >&2
  exit 2
}
SETTINGS=$1
STAGE=$2
OFFSET=$3
# shellcheck source=/dev/null
. "$SETTINGS"

: "${SLURM_ARRAY_TASK_ID:?not running as a Slurm array task}"
K=$((SLURM_ARRAY_TASK_ID + OFFSET))
SHARD=$(printf '%05d' "$K")

read -r KIND EXTRA DONE < <(awk -v s="$STAGE" '!/^#/ && $1 == s {print $2, $3, $4; exit}' "$STAGES_FILE")
case "${KIND:-}" in
world) COUNT=$WORLD ;;
partitions) COUNT=$PARTITIONS ;;
tasks) COUNT=$((PARTITIONS * ${TASKS:-1})) ;;
one) COUNT=1 ;;
*)
  echo "task.sh: stage '$STAGE' is not in $STAGES_FILE" >&2
  exit 2
  ;;
esac
if [ "$K" -ge "$COUNT" ]; then
  echo "task.sh: shard $K of $STAGE is out of range (0..$((COUNT - 1)))" >&2
  exit 2
fi

ARGS=(stage "$STAGE" --work "$WORK")
if [ -n "$CONFIG" ]; then ARGS+=(--config "$CONFIG"); fi
case "$KIND" in
world) ARGS+=(--rank "$K" --world "$WORLD") ;;
partitions) ARGS+=(--partition "$K") ;;
tasks) ARGS+=(--shard "$K") ;;
esac
case "$EXTRA" in
out) ARGS+=(--out "$OUT") ;;
inputs) ARGS+=("${INPUTS[@]}") ;;
esac

# The newest attempt's log of every shard, under a stable name.
LOG=$LOGDIR/$STAGE-${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID}.log
mkdir -p "$LOGDIR/by-shard"
ln -sfn "../${LOG##*/}" "$LOGDIR/by-shard/$STAGE-$SHARD.log"

START=$(date +%s)
echo "dbce-slurm: stage $STAGE shard $K of $COUNT (array task $SLURM_ARRAY_TASK_ID + offset $OFFSET)"
echo "dbce-slurm: job ${SLURM_ARRAY_JOB_ID}_${SLURM_ARRAY_TASK_ID} on $(hostname) at $(date -u +%FT%TZ)"
printf 'dbce-slurm: command:'
printf ' %q' "$DBCE_BIN" "${ARGS[@]}"
printf '\n'

if [ "${DBCE_SELFTEST_FAIL:-}" = "$STAGE:$K" ]; then
  echo "dbce-slurm: DBCE_SELFTEST_FAIL=$DBCE_SELFTEST_FAIL: failing this task on purpose" >&2
  exit 2
fi

if [ "${DBCE_SELFTEST_HOLD:-}" = "$STAGE:$K" ]; then
  echo "dbce-slurm: DBCE_SELFTEST_HOLD=$DBCE_SELFTEST_HOLD: holding on ${SLURMD_NODENAME:-?}" >&2
  echo "${SLURMD_NODENAME:-?}" >"$WORK/slurm/held-$STAGE-$K.tmp"
  mv "$WORK/slurm/held-$STAGE-$K.tmp" "$WORK/slurm/held-$STAGE-$K"
  sleep 600
fi

RC=0
"$DBCE_BIN" "${ARGS[@]}" || RC=$?
ELAPSED=$(($(date +%s) - START))
case "$RC" in
0) echo "dbce-slurm: shard done in ${ELAPSED}s" ;;
1)
  echo "dbce-slurm: shard done in ${ELAPSED}s; dbce exit 1 (some records skipped) counts as success"
  RC=0
  ;;
*) echo "dbce-slurm: FAILED with exit $RC after ${ELAPSED}s" >&2 ;;
esac
case "$DONE" in
out:*) MARKER=$OUT/${DONE#out:} ;;
*) MARKER=$WORK/$STAGE/_done/$SHARD ;;
esac
if [ "$RC" = 0 ] && [ ! -e "$MARKER" ]; then
  echo "dbce-slurm: dbce succeeded but did not leave $MARKER" >&2
  RC=2
fi
exit "$RC"
