# shellcheck shell=bash
# Shared by scripts/slurm/selftest.sh and scripts/spark/selftest.sh (sourced, not run): the
# binary under test, the sample cut into several archives, a --config file with several
# partitions and several annotate tasks per partition, the local reference run and the
# byte-for-byte comparison with it.
# Callers set DIR (their scratch directory) and define log and die first.

SELFTEST_LIB=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(cd "$SELFTEST_LIB/../.." && pwd)
STAGE_TABLE=$SELFTEST_LIB/stages.txt
WORLD=3       # read tasks (the sample is cut into 3 archives)
PARTITIONS=4  # lsh.partitions, via a --config file
TASKS=2       # annotate.tasks-per-partition: each partition's batches shared by two tasks
SITE_PAGES=20 # annotate.max-site-pages: batches of at most 20 pages, the larger sites split

# Sets BIN: $DBCE if given, else a fresh `cargo build --release -p dbce`. Sets STAGES (the
# stages of stages.txt the binary has, in order), UNTIL (the last of them) and HAVE_RUN.
selftest_binary() {
  local name
  if [ -n "${DBCE:-}" ]; then
    BIN=$(realpath -e "$DBCE")
  else
    log "cargo build --release -p dbce"
    (cd "$ROOT" && timeout 1800 cargo build --release -q -p dbce)
    BIN=$(realpath -e "${CARGO_TARGET_DIR:-$ROOT/target}/release/dbce")
  fi
  STAGES=()
  while read -r name _; do
    case "$name" in '' | '#'*) continue ;; esac
    timeout 10 "$BIN" stage "$name" --help >/dev/null 2>&1 || break
    STAGES+=("$name")
  done <"$STAGE_TABLE"
  [ ${#STAGES[@]} -ge 2 ] || die "the binary lacks the first two stages"
  HAVE_RUN=0
  if timeout 10 "$BIN" run --help >/dev/null 2>&1; then HAVE_RUN=1; fi
  # shellcheck disable=SC2034 # for the callers
  UNTIL=${STAGES[${#STAGES[@]} - 1]}
  log "binary $BIN: stages ${STAGES[*]}; dbce run: $([ "$HAVE_RUN" = 1 ] && echo yes || echo no)"
}

# Wipes DIR (if empty or made by a self-test); writes DIR/config.toml (CONFIG) and the sample
# cut at gzip member boundaries (one record per member) into WORLD archives
# DIR/input/part-I.warc.gz (INPUTS), so that every read task has records to read.
selftest_inputs() {
  if [ -n "$(ls -A "$DIR" 2>/dev/null)" ] && [ ! -e "$DIR/.dbce-selftest" ]; then
    die "$DIR is not empty and not a self-test directory: not wiping it"
  fi
  rm -rf "$DIR"
  mkdir -p "$DIR/input"
  touch "$DIR/.dbce-selftest"
  DIR=$(cd "$DIR" && pwd)
  CONFIG=$DIR/config.toml
  {
    printf '# selftest: %s partitions, %s annotate tasks each\n' "$PARTITIONS" "$TASKS"
    printf '[lsh]\npartitions = %s\n[annotate]\nmax-site-pages = %s\ntasks-per-partition = %s\n' \
      "$PARTITIONS" "$SITE_PAGES" "$TASKS"
  } >"$CONFIG"
  timeout 60 python3 - "$ROOT/testdata/sample/sample.warc.gz" "$DIR/input" "$WORLD" <<'EOF'
import sys, zlib
src, out, parts = sys.argv[1], sys.argv[2], int(sys.argv[3])
data = open(src, "rb").read()
ends, pos = [], 0
while pos < len(data):
    d = zlib.decompressobj(31)
    while not d.eof:
        chunk = data[pos:pos + 65536]
        if not chunk:
            sys.exit("truncated gzip member")
        d.decompress(chunk)
        pos += len(chunk) - len(d.unused_data)
    ends.append(pos)
start = 0
for i in range(parts):
    end = ends[len(ends) * (i + 1) // parts - 1]
    with open(f"{out}/part-{i}.warc.gz", "wb") as f:
        f.write(data[start:end])
    start = end
EOF
  INPUTS=("$DIR"/input/part-*.warc.gz)
}

# The local reference in DIR/reference: `dbce run` if the binary has it, else every shard of
# every stage one after another, as a task runs it.
selftest_reference() {
  local rc name kind extra n k args
  REF=$DIR/reference
  log "reference: local run of the same binary"
  if [ "$HAVE_RUN" = 1 ]; then
    rc=0
    timeout 300 "$BIN" run --quiet "${INPUTS[@]}" --out "$REF/out" --work "$REF/work" \
      --config "$CONFIG" --shards "$WORLD" 2>"$DIR/reference.log" || rc=$?
    [ $rc -le 1 ] || die "dbce run failed ($rc): $(tail -5 "$DIR/reference.log")"
    return
  fi
  for name in "${STAGES[@]}"; do
    read -r kind extra < <(awk -v s="$name" '!/^#/ && $1 == s {print $2, $3}' "$STAGE_TABLE")
    case "$kind" in
    world) n=$WORLD ;;
    partitions) n=$PARTITIONS ;;
    tasks) n=$((PARTITIONS * TASKS)) ;;
    *) n=1 ;;
    esac
    for ((k = 0; k < n; k++)); do
      args=(stage "$name" --work "$REF/work" --config "$CONFIG")
      case "$kind" in
      world) args+=(--rank "$k" --world "$WORLD") ;;
      partitions) args+=(--partition "$k") ;;
      tasks) args+=(--shard "$k") ;;
      esac
      case "$extra" in inputs) args+=("${INPUTS[@]}") ;; out) args+=(--out "$REF/out") ;; esac
      rc=0
      timeout 300 "$BIN" "${args[@]}" 2>>"$DIR/reference.log" || rc=$?
      [ $rc -le 1 ] || die "dbce ${args[*]} failed ($rc): $(tail -5 "$DIR/reference.log")"
    done
  done
}

# The `done` column of stage $1 in the stage table.
done_rule() {
  awk -v s="$1" '!/^#/ && $1 == s {print $4}' "$STAGE_TABLE"
}

# Whether shard $3 of stage $2 is complete in run directory $1 (work/ and out/), by the `done`
# column of the stage table.
shard_done() {
  local rule
  rule=$(done_rule "$2")
  case "$rule" in
  out:*) [ -e "$1/out/${rule#out:}" ] ;;
  *) [ -e "$1/work/$2/_done/$(printf '%05d' "$3")" ] ;;
  esac
}

# Whether any shard of stage $2 is complete in run directory $1.
stage_started() {
  local rule
  rule=$(done_rule "$2")
  case "$rule" in
  out:*) [ -e "$1/out/${rule#out:}" ] ;;
  *) [ -n "$(ls -A "$1/work/$2/_done" 2>/dev/null)" ] ;;
  esac
}

# Compares a run ($1: a directory with work/ and out/) with the reference, byte for byte: every
# file of every stage folder in work/ that the reference has (`dbce run` uses the same layout,
# and its work directory does not depend on threads), and every file under out/, where the
# tantivy index alone is compared with its random segment UUIDs taken out of file names and of
# meta.json and .managed.json (docs/ARCHITECTURE.md, dbce-index: identical segment files under
# different UUID names).
compare_with_reference() {
  local run=$1 dirs=() d n files=0
  for d in "${STAGES[@]}"; do
    if [ -d "$REF/work/$d" ]; then dirs+=("work/$d"); fi
  done
  for d in "${dirs[@]}"; do
    diff -r "$REF/$d" "$run/$d" >"$run/diff.txt" 2>&1 || {
      head -20 "$run/diff.txt"
      die "$run/$d differs from the reference"
    }
    files=$((files + $(find "$run/$d" -type f | wc -l)))
  done
  if [ -d "$REF/out" ]; then
    dirs+=(out)
    n=$(compare_out "$REF/out" "$run/out") || die "$run/out differs from the reference"
    files=$((files + n))
  fi
  [ ${#dirs[@]} -gt 0 ] || die "nothing to compare"
  log "byte-identical to the reference: $files files under ${dirs[*]}"
}

# Compares two output directories, the index's segment UUIDs taken out; prints the number of
# files compared, or the differences (to stderr) and fails.
compare_out() {
  timeout 60 python3 - "$1" "$2" <<'PY'
import hashlib, json, os, re, sys

UUID = re.compile(rb"[0-9a-f]{8}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{4}-?[0-9a-f]{12}")

def tree(root):
    files = []
    for d, _, names in os.walk(root):
        for n in names:
            path = os.path.relpath(os.path.join(d, n), root)
            data = open(os.path.join(d, n), "rb").read()
            if path.split(os.sep)[0] == "index":
                path = UUID.sub(b"SEGMENT", path.encode()).decode()
                data = UUID.sub(b"SEGMENT", data)
                if n == ".managed.json":
                    data = json.dumps(sorted(json.loads(data))).encode()
            files.append((path, hashlib.sha256(data).hexdigest()))
    return sorted(files)

a, b = tree(sys.argv[1]), tree(sys.argv[2])
if a != b:
    for line in sorted(set(a) ^ set(b))[:20]:
        print("differs:", *line, file=sys.stderr)
    sys.exit(1)
print(len(b))
PY
}

# The files of the shards that are done in a work directory, with inode and modification time,
# to show that a rerun rewrote none of them. A shard's files are named by its five-digit number
# (docs/formats.md: STAGE/.../NNNNN.*), and it is done when STAGE/_done/NNNNN exists; files of
# shards that a failure interrupted may be rewritten and are left out.
snapshot_work() {
  local path inode mtime stage stem
  find "$1" -type f -not -path "$1/slurm/*" -printf '%P %i %T@\n' |
    while read -r path inode mtime; do
      stage=${path%%/*}
      stem=${path##*/}
      stem=${stem%%.*}
      if [[ $stem =~ ^[0-9]{5}$ ]] && [ -e "$1/$stage/_done/$stem" ]; then
        echo "$path $inode $mtime"
      fi
    done | LC_ALL=C sort
}

# Dies if a file of snapshot $1 (a file) changed or vanished in work directory $2.
check_untouched() {
  local changed
  changed=$(LC_ALL=C join -a 1 "$1" <(snapshot_work "$2") | awk '$2 != $4 || $3 != $5 {print $1}')
  [ -z "$changed" ] || die "the rerun rewrote shards that were done: $changed"
  log "the $(wc -l <"$1") files of the shards done before are untouched (same inode and mtime)"
}
