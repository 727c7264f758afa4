#!/usr/bin/env bash
# Submits dbce's pipeline to Slurm: one job array per stage (read, group, annotate, finish,
# index, merge: the table in stages.txt), each stage after the previous one with afterok.
#
# usage: scripts/slurm/submit.sh --work DIR [options] INPUT...
#   --work DIR         the run's work directory (shared by all nodes)
#   --out DIR          output directory (needed by the stages that write it: finish, index, merge)
#   --world N          read tasks: task R reads the inputs whose index is R mod N (default 1)
#   --config FILE      dbce configuration; its lsh.partitions sets the partition stages' size,
#                      times annotate.tasks-per-partition for annotate
#   --dbce BIN         the dbce binary, on a path every node sees (default: $DBCE, else `dbce`)
#   --throttle K       at most K tasks of an array run at once: --array=...%K (default 100;
#                      0: no limit). A stage split into several arrays gets K per array.
#   --max-array M      array indices stay below M (default: the cluster's MaxArraySize);
#                      bigger stages become several arrays, each task's shard is index + offset
#   --logs DIR         task logs DIR/STAGE-JOBID_INDEX.log (default: WORK/slurm/logs)
#   --from STAGE       first stage to submit (default: read)
#   --until STAGE      last stage to submit (default: merge)
#   --sbatch-arg ARG   passed to every sbatch, repeatable (e.g. --sbatch-arg=--time=60
#                      --sbatch-arg=--partition=batch); SBATCH_* variables work too
#   --wait             wait for the jobs; exit 0 only if every shard left its done marker
#   --dry-run          print the sbatch commands instead of running them
# Prints the last stage's job ids (colon-separated) on stdout. The run's settings go to
# WORK/slurm/settings.sh and every submitted array to WORK/slurm/jobs.tsv, which
# resubmit.sh reads. See docs/CLUSTER.md.
set -euo pipefail
# shellcheck source=scripts/slurm/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
  awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "${BASH_SOURCE[0]}" >&2
  exit 2
}

WORK="" OUT="" CONFIG="" WORLD=1 THROTTLE=100 MAX_ARRAY="" LOGDIR="" FROM="" UNTIL=""
DBCE_BIN=${DBCE:-dbce}
WAIT=0 DRY_RUN=0
SBATCH_ARGS=()
INPUTS=()
while [ $# -gt 0 ]; do
  case "$1" in
  --work | --out | --world | --config | --dbce | --throttle | --max-array | --logs | --from | --until | --sbatch-arg)
    [ $# -ge 2 ] || die "$1 needs a value"
    set -- "$1=$2" "${@:3}"
    continue
    ;;
  --work=*) WORK=${1#*=} ;;
  --out=*) OUT=${1#*=} ;;
  --world=*) WORLD=${1#*=} ;;
  --config=*) CONFIG=${1#*=} ;;
  --dbce=*) DBCE_BIN=${1#*=} ;;
  --throttle=*) THROTTLE=${1#*=} ;;
  --max-array=*) MAX_ARRAY=${1#*=} ;;
  --logs=*) LOGDIR=${1#*=} ;;
  --from=*) FROM=${1#*=} ;;
  --until=*) UNTIL=${1#*=} ;;
  --sbatch-arg=*) SBATCH_ARGS+=("${1#*=}") ;;
  --wait) WAIT=1 ;;
  --dry-run) DRY_RUN=1 ;;
  -h | --help) usage ;;
  --) shift; INPUTS+=("$@"); break ;;
  -*) die "unknown option $1 (see --help)" ;;
  *) INPUTS+=("$1") ;;
  esac
  shift
done

[ -n "$WORK" ] || die "--work DIR is required"
[[ $WORLD =~ ^[1-9][0-9]*$ ]] || die "--world must be a positive number"
[[ $THROTTLE =~ ^[0-9]+$ ]] || die "--throttle must be a number"
if [ "$THROTTLE" = 0 ]; then THROTTLE=""; fi
DBCE_BIN=$(command -v "$DBCE_BIN") || die "dbce binary not found (--dbce BIN or DBCE=...)"
DBCE_BIN=$(realpath "$DBCE_BIN")
WORK=$(realpath -m "$WORK")
LOGDIR=$(realpath -m "${LOGDIR:-$WORK/slurm/logs}")
if [ -n "$OUT" ]; then OUT=$(realpath -m "$OUT"); fi
if [ -n "$CONFIG" ]; then CONFIG=$(realpath -e "$CONFIG") || die "no config file $CONFIG"; fi
for i in "${!INPUTS[@]}"; do
  INPUTS[i]=$(realpath -e "${INPUTS[i]}") || die "no input ${INPUTS[i]}"
done

STAGES_FILE=$WORK/slurm/stages.txt
load_stages "$SLURM_SCRIPTS/stages.txt"
FIRST=$(stage_index "${FROM:-${STAGE_NAMES[0]}}")
LAST=$(stage_index "${UNTIL:-${STAGE_NAMES[${#STAGE_NAMES[@]} - 1]}}")
[ "$FIRST" -le "$LAST" ] || die "--from comes after --until"
for ((i = FIRST; i <= LAST; i++)); do
  case "${STAGE_EXTRAS[$i]}" in
  out) [ -n "$OUT" ] || die "stage ${STAGE_NAMES[$i]} needs --out DIR" ;;
  inputs) [ ${#INPUTS[@]} -gt 0 ] || die "stage ${STAGE_NAMES[$i]} needs INPUT files" ;;
  esac
done
PARTITIONS=$(config_value lsh partitions)
[[ $PARTITIONS =~ ^[1-9][0-9]*$ ]] || die "cannot read lsh.partitions from the configuration"
# A binary older than the setting has one annotate task per partition.
TASKS=$(config_value annotate tasks-per-partition)
TASKS=${TASKS:-1}
[[ $TASKS =~ ^[1-9][0-9]*$ ]] || die "cannot read annotate.tasks-per-partition from the configuration"
if [ -z "$MAX_ARRAY" ]; then
  if [ "$DRY_RUN" = 1 ]; then MAX_ARRAY=1001; else MAX_ARRAY=$(cluster_max_array); fi
fi
[[ $MAX_ARRAY =~ ^[1-9][0-9]*$ ]] || die "--max-array must be a positive number"

SETTINGS=$WORK/slurm/settings.sh
if [ "$DRY_RUN" = 0 ]; then
  mkdir -p "$WORK/slurm" "$LOGDIR"
  active=$(active_jobs)
  [ -z "$active" ] || die "jobs of this work directory are still queued or running:
$active
wait for them or scancel them first"
  cp "$SLURM_SCRIPTS/stages.txt" "$STAGES_FILE"
  FIRST_STAGE=${STAGE_NAMES[$FIRST]} LAST_STAGE=${STAGE_NAMES[$LAST]}
  write_settings
fi

log "work $WORK, $WORLD read tasks, $PARTITIONS partitions ($TASKS annotate tasks each), arrays below $MAX_ARRAY, throttle ${THROTTLE:-none}"
deps=""
for ((i = FIRST; i <= LAST; i++)); do
  count=$(stage_count "$i")
  mapfile -t shards < <(seq 0 $((count - 1)))
  deps=$(submit_stage "$i" "$deps" "${shards[@]}")
done
echo "$deps"

if [ "$WAIT" = 1 ] && [ "$DRY_RUN" = 0 ]; then
  wait_jobs 1 "${DBCE_SLURM_WAIT_S:-86400}"
  report_done "$FIRST" "$LAST"
fi
