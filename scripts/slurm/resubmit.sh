#!/usr/bin/env bash
# Resubmits what a Slurm run of dbce did not finish: for each stage of the run (submit.sh's
# --from..--until), the shards that are not complete, and nothing else. A shard is complete when
# its done marker WORK/STAGE/_done/NNNNN exists (for `merge`: OUT/report.json; the `done`
# column of stages.txt).
# The first incomplete stage gets only its failed shards; the stages after it (whose shards
# cannot be done yet) follow with afterok, as in submit.sh.
#
# usage: scripts/slurm/resubmit.sh --work DIR [options]
#   --work DIR         the work directory given to submit.sh (its slurm/settings.sh is read)
#   --until STAGE      extend the run to a later stage than submitted before (--out DIR if it
#                      needs one)
#   --out DIR          output directory, if the run had none
#   --throttle K       override the run's throttle (0: no limit)
#   --sbatch-arg ARG   added to the run's sbatch arguments (e.g. --sbatch-arg=--time=120)
#   --wait             wait for the jobs; exit 0 only if every shard left its done marker
#   --dry-run          print the sbatch commands instead of running them
# Refuses while jobs of the run are still queued or running, except jobs pending with reason
# DependencyNeverSatisfied (left by a failure on clusters without kill_invalid_depend), which
# it cancels. Exits 0 with "nothing to resubmit" when every shard is done.
set -euo pipefail
# shellcheck source=scripts/slurm/lib.sh
. "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

usage() {
  awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "${BASH_SOURCE[0]}" >&2
  exit 2
}

WORK="" NEW_UNTIL="" NEW_OUT="" NEW_THROTTLE="" WAIT=0 DRY_RUN=0
EXTRA_SBATCH_ARGS=()
while [ $# -gt 0 ]; do
  case "$1" in
  --work | --until | --out | --throttle | --sbatch-arg)
    [ $# -ge 2 ] || die "$1 needs a value"
    set -- "$1=$2" "${@:3}"
    continue
    ;;
  --work=*) WORK=${1#*=} ;;
  --until=*) NEW_UNTIL=${1#*=} ;;
  --out=*) NEW_OUT=${1#*=} ;;
  --throttle=*) NEW_THROTTLE=${1#*=} ;;
  --sbatch-arg=*) EXTRA_SBATCH_ARGS+=("${1#*=}") ;;
  --wait) WAIT=1 ;;
  --dry-run) DRY_RUN=1 ;;
  -h | --help) usage ;;
  *) die "unknown argument $1 (see --help)" ;;
  esac
  shift
done
[ -n "$WORK" ] || die "--work DIR is required"
SETTINGS=$(realpath -m "$WORK")/slurm/settings.sh
[ -f "$SETTINGS" ] || die "no $SETTINGS: was this work directory submitted with submit.sh?"
# shellcheck source=/dev/null
. "$SETTINGS"
# Runs submitted before annotate's tasks per partition existed had one.
TASKS=${TASKS:-1}

# Later stages than submitted, and other sbatch arguments, become the run's settings.
if [ -n "$NEW_OUT" ]; then OUT=$(realpath -m "$NEW_OUT"); fi
if [ -n "$NEW_UNTIL" ]; then LAST_STAGE=$NEW_UNTIL; fi
if [ -n "$NEW_THROTTLE" ]; then
  [[ $NEW_THROTTLE =~ ^[0-9]+$ ]] || die "--throttle must be a number"
  THROTTLE=$NEW_THROTTLE
  if [ "$THROTTLE" = 0 ]; then THROTTLE=""; fi
fi
SBATCH_ARGS+=("${EXTRA_SBATCH_ARGS[@]}")
if [ -n "$NEW_UNTIL" ]; then
  # the run's stage table may predate stages added since: take the current one
  cp "$SLURM_SCRIPTS/stages.txt" "$STAGES_FILE"
fi
load_stages "$STAGES_FILE"
FIRST=$(stage_index "$FIRST_STAGE")
LAST=$(stage_index "$LAST_STAGE")
for ((i = FIRST; i <= LAST; i++)); do
  if [ "${STAGE_EXTRAS[$i]}" = out ] && [ -z "$OUT" ]; then
    die "stage ${STAGE_NAMES[$i]} needs --out DIR"
  fi
done

if [ "$DRY_RUN" = 0 ]; then
  active=$(active_jobs)
  if [ -n "$active" ]; then
    if grep -qv ' PENDING DependencyNeverSatisfied$' <<<"$active"; then
      die "jobs of this run are still queued or running:
$active
wait for them (or scancel them) and resubmit"
    fi
    while read -r id _; do
      log "cancelling job $id: its dependency failed, it can never start"
      timeout 30 scancel "$id" || die "scancel $id failed"
    done <<<"$active"
  fi
  write_settings
fi

deps="" submitted=0
for ((i = FIRST; i <= LAST; i++)); do
  mapfile -t shards < <(missing_shards "$i")
  count=$(stage_count "$i")
  if [ ${#shards[@]} -eq 0 ]; then
    log "stage ${STAGE_NAMES[$i]}: all $count shards done"
    continue
  fi
  log "stage ${STAGE_NAMES[$i]}: resubmitting ${#shards[@]} of $count shards: ${shards[*]}"
  deps=$(submit_stage "$i" "$deps" "${shards[@]}")
  submitted=1
done
if [ "$submitted" = 0 ]; then
  log "nothing to resubmit: every shard of ${STAGE_NAMES[$FIRST]}..${STAGE_NAMES[$LAST]} is done"
  exit 0
fi
echo "$deps"

if [ "$WAIT" = 1 ] && [ "$DRY_RUN" = 0 ]; then
  wait_jobs 1 "${DBCE_SLURM_WAIT_S:-86400}"
  report_done "$FIRST" "$LAST"
fi
