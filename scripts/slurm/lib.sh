# shellcheck shell=bash
# Shared by submit.sh and resubmit.sh (sourced, not run): the stage table, shard counts, done
# markers, array chunking under MaxArraySize, sbatch calls and waiting.
# The job arrays follow HuggingFace datatrove's SlurmPipelineExecutor (one array per stage,
# rank = SLURM_ARRAY_TASK_ID + offset, afterok between stages) and the tested recipe in
# ../shared/cluster/slurm-local.sh.

SLURM_SCRIPTS=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)

log() { printf 'dbce-slurm: %s\n' "$*" >&2; }
die() {
  log "error: $*"
  exit 2
}

# Reads a stage table into STAGE_NAMES, STAGE_KINDS, STAGE_EXTRAS, STAGE_DONES (parallel
# arrays, in order).
load_stages() {
  STAGE_NAMES=()
  STAGE_KINDS=()
  STAGE_EXTRAS=()
  STAGE_DONES=()
  local name kind extra rule
  while read -r name kind extra rule; do
    case "$name" in '' | '#'*) continue ;; esac
    STAGE_NAMES+=("$name")
    STAGE_KINDS+=("$kind")
    STAGE_EXTRAS+=("$extra")
    STAGE_DONES+=("$rule")
  done <"$1"
}

# Index of a stage in the table; dies if unknown.
stage_index() {
  local i
  for i in "${!STAGE_NAMES[@]}"; do
    if [ "${STAGE_NAMES[$i]}" = "$1" ]; then
      echo "$i"
      return
    fi
  done
  die "unknown stage '$1' (stages: ${STAGE_NAMES[*]})"
}

# Number of shards of stage index $1, from WORLD, PARTITIONS and TASKS (annotate's tasks per
# partition; 1 in the settings of runs submitted before it existed).
stage_count() {
  case "${STAGE_KINDS[$1]}" in
  world) echo "$WORLD" ;;
  partitions) echo "$PARTITIONS" ;;
  tasks) echo $((PARTITIONS * ${TASKS:-1})) ;;
  one) echo 1 ;;
  *) die "stage ${STAGE_NAMES[$1]}: unknown shard kind '${STAGE_KINDS[$1]}'" ;;
  esac
}

# Setting $2 of section $1 of the resolved configuration (dbce prints it as TOML); empty if
# the binary has no such setting.
config_value() {
  local toml
  if [ -n "$CONFIG" ]; then
    toml=$("$DBCE_BIN" config show "$CONFIG") || die "dbce config show $CONFIG failed"
  else
    toml=$("$DBCE_BIN" config default) || die "dbce config default failed"
  fi
  awk -v sec="[$1]" -v key="$2" '/^\[/ {s = $0} s == sec && $1 == key {print $3; exit}' <<<"$toml"
}

# The file whose existence says that shard $2 of stage index $1 is complete.
done_path() {
  case "${STAGE_DONES[$1]}" in
  marker) printf '%s/%s/_done/%05d\n' "$WORK" "${STAGE_NAMES[$1]}" "$2" ;;
  out:*) echo "$OUT/${STAGE_DONES[$1]#out:}" ;;
  *) die "stage ${STAGE_NAMES[$1]}: unknown done rule '${STAGE_DONES[$1]}'" ;;
  esac
}

# Shards of stage index $1 that are not complete, ascending.
missing_shards() {
  local count k
  count=$(stage_count "$1")
  for ((k = 0; k < count; k++)); do
    if [ ! -e "$(done_path "$1" "$k")" ]; then echo "$k"; fi
  done
}

# Splits ascending shard numbers into arrays whose indices stay below MAX: prints one line
# "OFFSET SPEC" per array, SPEC in sbatch's --array syntax (ranges and lists, e.g. 0-3,7).
array_chunks() {
  local max=$1
  shift
  awk -v max="$max" '
    function flush() { if (off >= 0) print off, spec (lo == hi ? lo : lo "-" hi) }
    {
      k = $1 + 0; o = int(k / max) * max; i = k - o
      if (o != off) { flush(); off = o; spec = ""; lo = hi = i; next }
      if (i == hi + 1) { hi = i; next }
      spec = spec (lo == hi ? lo : lo "-" hi) ","; lo = hi = i
    }
    BEGIN { off = -1 }
    END { flush() }' < <(printf '%s\n' "$@")
}

# MaxArraySize of the cluster (arrays take indices 0..MaxArraySize-1); 1001 if unknown.
cluster_max_array() {
  local m
  m=$(timeout 20 scontrol show config 2>/dev/null | awk '$1 == "MaxArraySize" {print $3}')
  echo "${m:-1001}"
}

# Submits shards $3... of stage index $1 after the jobs in $2 (colon-separated, may be empty).
# Appends "stage jobid offset spec" lines to WORK/slurm/jobs.tsv; prints the job ids,
# colon-separated.
submit_stage() {
  local idx=$1 deps=$2 name offset spec id ids=""
  shift 2
  name=${STAGE_NAMES[$idx]}
  while read -r offset spec; do
    local cmd=(sbatch --parsable --job-name="dbce-$name" --chdir="$WORK"
      --array="$spec${THROTTLE:+%$THROTTLE}" --output="$LOGDIR/$name-%A_%a.log")
    if [ -n "$deps" ]; then cmd+=(--dependency="afterok:$deps" --kill-on-invalid-dep=yes); fi
    cmd+=("${SBATCH_ARGS[@]}" "$SLURM_SCRIPTS/task.sh" "$SETTINGS" "$name" "$offset")
    if [ "${DRY_RUN:-0}" = 1 ]; then
      printf '%q ' "${cmd[@]}" >&2
      printf '\n' >&2
      id=dry-$name-$offset
    else
      id=$(timeout 60 "${cmd[@]}") || die "sbatch failed for stage $name (array $spec)"
      id=${id%%;*}
      printf '%s\t%s\t%s\t%s\n' "$name" "$id" "$offset" "$spec" >>"$WORK/slurm/jobs.tsv"
    fi
    log "stage $name: job $id, array $spec (+ offset $offset)${deps:+, after $deps}"
    ids=${ids:+$ids:}$id
  done < <(array_chunks "$MAX_ARRAY" "$@")
  echo "$ids"
}

# Writes the run's settings (the variables task.sh and resubmit.sh need) to $SETTINGS,
# atomically, as `declare -g` lines that any of them can source.
write_settings() {
  {
    echo "# dbce run settings, written by scripts/slurm/submit.sh or resubmit.sh"
    declare -p DBCE_BIN WORK OUT CONFIG WORLD PARTITIONS TASKS INPUTS LOGDIR STAGES_FILE \
      THROTTLE MAX_ARRAY SBATCH_ARGS FIRST_STAGE LAST_STAGE | sed 's/^declare /declare -g /'
  } >"$SETTINGS.tmp"
  mv "$SETTINGS.tmp" "$SETTINGS"
}

# Job ids recorded in WORK/slurm/jobs.tsv that Slurm still has queued or running, one
# "id state reason" line each.
active_jobs() {
  [ -s "$WORK/slurm/jobs.tsv" ] || return 0
  timeout 30 squeue -h -u "$(id -un)" -o '%F %T %r' 2>/dev/null |
    awk 'NR == FNR {ours[$2] = 1; next} ($1 in ours)' "$WORK/slurm/jobs.tsv" - | sort -u
}

# Waits until none of the run's jobs is queued or running (polling every $1 s, at most $2 s).
wait_jobs() {
  local poll=$1 limit=$2 start now
  start=$(date +%s)
  while [ -n "$(active_jobs)" ]; do
    now=$(date +%s)
    [ $((now - start)) -lt "$limit" ] || die "jobs still active after ${limit}s: $(active_jobs | tr '\n' ' ')"
    sleep "$poll"
  done
}

# After the jobs ended: 0 if every shard of stages $1..$2 (indices) has its done marker, else
# prints what is missing and where the logs are, and returns 1.
report_done() {
  local i missing ok=0
  for ((i = $1; i <= $2; i++)); do
    missing=$(missing_shards "$i" | tr '\n' ' ')
    if [ -n "$missing" ]; then
      log "stage ${STAGE_NAMES[$i]}: shards not done: $missing"
      ok=1
    fi
  done
  if [ "$ok" = 0 ]; then
    log "all shards done"
  else
    log "logs per shard: $LOGDIR/by-shard/STAGE-NNNNN.log; resubmit: scripts/slurm/resubmit.sh --work $WORK"
  fi
  return "$ok"
}
