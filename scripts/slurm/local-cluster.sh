#!/usr/bin/env bash
# A private one-node Slurm cluster on localhost, for the self-test and for trying the submit
# scripts: Debian's packages (apt), our own munged, slurmctld and slurmd as root, no systemd, no
# cgroups, no accounting database. Adapted from ../shared/cluster/slurm-local.sh (the tested
# recipe; its README lists the pitfalls each setting below avoids).
#
# usage: scripts/slurm/local-cluster.sh start DIR   install if needed, start, wait until idle
#        scripts/slurm/local-cluster.sh stop DIR    stop the daemons started for DIR, by PID
#        scripts/slurm/local-cluster.sh env DIR     print `export SLURM_CONF=...` for the shell
# env:   SLURMCTLD_PORT / SLURMD_PORT (default 6817 / 6818)
# Everything lives under DIR/run-state; /etc/slurm and /etc/munge are never used, so a system
# Slurm is not touched. `start` first stops what an earlier start left in the same DIR.
set -euo pipefail

T0=$(date +%s)
log() { printf '[local-cluster %3ss] %s\n' "$(($(date +%s) - T0))" "$*" >&2; }
die() {
  log "FAIL: $*"
  exit 1
}

usage() {
  awk 'NR > 1 && !/^#/ {exit} NR > 1 {sub(/^# ?/, ""); print}' "$0" >&2
  exit 2
}

[ $# -eq 2 ] || usage
ACTION=$1
mkdir -p "$2"
DIR=$(cd "$2" && pwd)
S=$DIR/run-state
PIDS=$S/pids
export SLURM_CONF=$S/etc/slurm.conf

install_packages() {
  local missing=0 c created_policy=0
  for c in munged mungekey slurmctld slurmd sbatch scontrol sinfo squeue ss; do
    command -v "$c" >/dev/null 2>&1 || missing=1
  done
  if [ "$missing" = 0 ]; then
    log "slurm already installed: $(slurmctld -V)"
    return
  fi
  [ "$(id -u)" = 0 ] || die "slurm is not installed and we are not root"
  log "installing slurmctld slurmd slurm-client munge (apt)"
  # Package scripts would try to start the system-wide daemons; deny that while installing.
  if [ ! -e /usr/sbin/policy-rc.d ]; then
    printf '#!/bin/sh\nexit 101\n' >/usr/sbin/policy-rc.d
    chmod +x /usr/sbin/policy-rc.d
    created_policy=1
  fi
  export DEBIAN_FRONTEND=noninteractive
  timeout 300 apt-get update -qq
  timeout 600 apt-get install -y -qq --no-install-recommends \
    slurmctld slurmd slurm-client munge iproute2 procps >/dev/null
  if [ "$created_policy" = 1 ]; then rm -f /usr/sbin/policy-rc.d; fi
  log "installed: $(slurmctld -V)"
}

# Stops one daemon we started, by its recorded PID, and only if that PID still runs the same
# program (never a reused PID).
stop_pidfile() {
  local f=$1 name pid
  [ -f "$f" ] || return 0
  name=$(basename "$f" .pid)
  pid=$(cat "$f")
  if kill -0 "$pid" 2>/dev/null && [ "$(ps -p "$pid" -o comm= 2>/dev/null)" = "$name" ]; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 50); do
      kill -0 "$pid" 2>/dev/null || break
      sleep 0.2
    done
    if kill -0 "$pid" 2>/dev/null; then
      log "$name ($pid) ignored TERM, sending KILL"
      kill -KILL "$pid" 2>/dev/null || true
    fi
    log "stopped $name (pid $pid)"
  fi
  rm -f "$f"
}

alive() { [ -f "$PIDS/$1.pid" ] && kill -0 "$(cat "$PIDS/$1.pid")" 2>/dev/null; }

# Job steps of this cluster that outlived slurmd (a run killed with SIGKILL): slurmstepd
# processes whose environment names our SLURM_CONF, stopped by PID.
stop_stray_steps() {
  local pid comm left=()
  while read -r pid comm; do
    [ "$comm" = slurmstepd ] || continue
    if tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qxF "SLURM_CONF=$SLURM_CONF"; then
      left+=("$pid")
    fi
  done < <(ps -e -o pid=,comm=)
  [ ${#left[@]} -gt 0 ] || return 0
  log "stopping job steps left by an earlier run: ${left[*]}"
  kill -TERM "${left[@]}" 2>/dev/null || true
  sleep 2
  for pid in "${left[@]}"; do
    if kill -0 "$pid" 2>/dev/null; then kill -KILL "$pid" 2>/dev/null || true; fi
  done
}

stop_cluster() {
  [ -d "$PIDS" ] || return 0
  if alive slurmctld; then
    # jobs of this private cluster only (SLURM_CONF points at it), then the daemons
    timeout 10 scancel --quiet --user="$(id -un)" 2>/dev/null || true
    for _ in $(seq 1 50); do
      [ -z "$(timeout 5 squeue -h 2>/dev/null)" ] && break
      sleep 0.2
    done
    timeout 10 scontrol shutdown >/dev/null 2>&1 || true
    for _ in $(seq 1 50); do
      alive slurmctld || alive slurmd || break
      sleep 0.2
    done
  fi
  stop_pidfile "$PIDS/slurmd.pid"
  stop_pidfile "$PIDS/slurmctld.pid"
  stop_stray_steps
  stop_pidfile "$PIDS/munged.pid"
  if [ -f "$S/sockdir" ] && [ "$(cat "$S/sockdir")" != "$S/munge-run" ]; then
    rm -rf "$(cat "$S/sockdir")"
  fi
}

start_munge() {
  local sock=$1/munge.socket
  mungekey --create --keyfile="$S/munge-key/munge.key" --force
  munged --foreground --socket="$sock" --key-file="$S/munge-key/munge.key" \
    --pid-file="$1/munged.pid" --log-file="$S/log/munged.log" \
    --seed-file="$S/munge-key/munged.seed" >"$S/log/munged.out" 2>&1 &
  echo $! >"$PIDS/munged.pid"
  for _ in $(seq 1 50); do
    if munge -n -S "$sock" 2>/dev/null | unmunge -S "$sock" >/dev/null 2>&1; then return; fi
    alive munged || {
      cat "$S/log/munged.log" "$S/log/munged.out" >&2
      die "munged exited"
    }
    sleep 0.2
  done
  die "munge round trip failed"
}

write_conf() {
  local sockdir=$1 cpus mem_mb
  cpus=$(nproc)
  # RealMemory above what slurmd detects drains the node.
  mem_mb=$(($(awk '/MemTotal/ {print int($2/1024)}' /proc/meminfo) * 8 / 10))
  cat >"$SLURM_CONF" <<EOF
# generated by scripts/slurm/local-cluster.sh: one node, no cgroups, no accounting database
ClusterName=dbce-selftest
SlurmctldHost=localhost
SlurmctldPort=${SLURMCTLD_PORT:-6817}
SlurmdPort=${SLURMD_PORT:-6818}
AuthType=auth/munge
AuthInfo=socket=$sockdir/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool
SlurmctldPidFile=$S/state/slurmctld.pid
SlurmdPidFile=$S/spool/slurmd.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
MpiDefault=none
ReturnToService=2
AccountingStorageType=accounting_storage/none
JobAcctGatherType=jobacct_gather/none
JobCompType=jobcomp/filetxt
JobCompLoc=$S/log/jobcomp.txt
SchedulerParameters=sched_min_interval=0,batch_sched_delay=0
# a failed afterok dependency cancels the dependent job (22.05 ignores it in SchedulerParameters)
DependencyParameters=kill_invalid_depend
NodeName=localhost CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN
PartitionName=selftest Nodes=localhost Default=YES MaxTime=30 State=UP
EOF
}

start_cluster() {
  install_packages
  stop_cluster
  rm -rf "$S"
  # munged needs a world-executable socket dir, and socket paths stay under 108 bytes.
  local sockdir state=""
  if [ ${#S} -gt 70 ]; then sockdir=$(mktemp -d /tmp/mungeXXXXXX); else sockdir=$S/munge-run; fi
  mkdir -p "$S"/{etc,state,spool,log,munge-key} "$PIDS" "$sockdir"
  echo "$sockdir" >"$S/sockdir"
  chmod 755 "$DIR" "$S" "$sockdir"
  chmod 700 "$S/munge-key"
  for p in "${SLURMCTLD_PORT:-6817}" "${SLURMD_PORT:-6818}"; do
    if ss -ltnH "( sport = :$p )" | grep -q .; then
      die "port $p in use (set SLURMCTLD_PORT / SLURMD_PORT)"
    fi
  done
  start_munge "$sockdir"
  write_conf "$sockdir"
  slurmctld -D -i >"$S/log/slurmctld.out" 2>&1 &
  echo $! >"$PIDS/slurmctld.pid"
  slurmd -D -N localhost >"$S/log/slurmd.out" 2>&1 &
  echo $! >"$PIDS/slurmd.pid"
  for _ in $(seq 1 150); do
    for d in slurmctld slurmd; do
      alive "$d" || {
        tail -20 "$S/log/$d.log" "$S/log/$d.out" >&2 || true
        die "$d exited"
      }
    done
    state=$(timeout 5 sinfo -h -n localhost -o '%T' 2>/dev/null || true)
    if [ "$state" = idle ]; then
      log "cluster ready: $(sinfo -h -o '%P %D %T %C'); export SLURM_CONF=$SLURM_CONF"
      return
    fi
    sleep 0.2
  done
  tail -20 "$S/log/slurmctld.log" "$S/log/slurmd.log" >&2 || true
  die "node never became idle (state: ${state:-none})"
}

case "$ACTION" in
start)
  [ "$(id -u)" = 0 ] || die "must run as root (daemons as root, apt)"
  # a start that fails half-way stops what it had started
  trap 'stop_cluster' EXIT
  start_cluster
  trap - EXIT
  ;;
stop) stop_cluster ;;
env) printf 'export SLURM_CONF=%q\n' "$SLURM_CONF" ;;
*) usage ;;
esac
