#!/usr/bin/env bash
# A private Slurm cluster on this machine, for the self-test and for trying the submit scripts:
# Debian's packages (apt), our own munged, slurmctld and slurmd as root, no systemd, no cgroups,
# no accounting database. Adapted from ../shared/cluster/slurm-local.sh (the tested recipe; its
# README lists the pitfalls each setting below avoids).
#
# With NODES=1 (the default) it is one node, `localhost`. With NODES=N >= 2 it is N nodes
# n1..nN, each a slurmd in a network namespace of its own (dbce-DIRHASH-nI) with its own address
# on a private bridge (10.X.Y.10+I/24; the controller is 10.X.Y.1 on the bridge); they share the
# file system, as cluster nodes share a network file system. `kill-node` crashes one node (every
# process in its namespace gets SIGKILL), as a power cut would.
#
# usage: scripts/slurm/local-cluster.sh start DIR          install if needed, start, wait until idle
#        scripts/slurm/local-cluster.sh stop DIR           stop the daemons started for DIR, by PID
#        scripts/slurm/local-cluster.sh env DIR            print `export SLURM_CONF=...` for the shell
#        scripts/slurm/local-cluster.sh kill-node DIR NODE  SIGKILL every process of node NODE (N >= 2)
# env:   SLURMCTLD_PORT / SLURMD_PORT (default 6817 / 6818)
#        NODES      number of nodes (default 1)
#        SUBNET     the bridge's /24 for NODES >= 2, as its first three octets (default: 10.X.Y
#                   from a hash of DIR)
# Everything lives under DIR/run-state; /etc/slurm and /etc/munge are never used, so a system
# Slurm is not touched. `start` first stops what an earlier start left in the same DIR, network
# namespaces and links included.
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

[ $# -ge 2 ] || usage
ACTION=$1
mkdir -p "$2"
DIR=$(cd "$2" && pwd)
S=$DIR/run-state
PIDS=$S/pids
export SLURM_CONF=$S/etc/slurm.conf
NODES=${NODES:-1}
case "$NODES" in '' | *[!0-9]* | 0) die "NODES must be a positive number, not '$NODES'" ;; esac
# Names of the multi-node network: short (interface names have at most 15 bytes) and unique per
# DIR, so two clusters in two directories do not meet.
NET=dbce$(printf '%s' "$DIR" | cksum | awk '{printf "%05d", $1 % 100000}')
SUBNET=${SUBNET:-10.$((${NET#dbce} % 200 + 20)).$((${NET#dbce} / 200 % 250 + 1))}

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
  # slurmd-NODE.pid holds a slurmd
  if kill -0 "$pid" 2>/dev/null && [ "$(ps -p "$pid" -o comm= 2>/dev/null)" = "${name%%-*}" ]; then
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

# The node names: `localhost` for one node, n1..nN for more.
node_names() {
  if [ "$NODES" = 1 ]; then echo localhost; else seq -f 'n%g' 1 "$NODES"; fi
}

# Multi-node only: a bridge NET-br with the controller's address, and per node a network
# namespace NET-nI joined to the bridge by a veth pair. What was created is listed in
# S/network, so `stop` removes exactly that.
create_network() {
  command -v ip >/dev/null || die "NODES=$NODES needs iproute2 (ip)"
  local i ns
  ip link add "$NET-br" type bridge || die "cannot create a bridge (NODES >= 2 needs CAP_NET_ADMIN)"
  echo "link $NET-br" >>"$S/network"
  ip addr add "$SUBNET.1/24" dev "$NET-br"
  ip link set "$NET-br" up
  for i in $(seq 1 "$NODES"); do
    ns=$NET-n$i
    ip netns add "$ns" || die "cannot create network namespace $ns"
    echo "netns $ns" >>"$S/network"
    ip link add "$NET-h$i" type veth peer name eth0 netns "$ns"
    echo "link $NET-h$i" >>"$S/network"
    ip link set "$NET-h$i" master "$NET-br" up
    ip -n "$ns" addr add "$SUBNET.$((10 + i))/24" dev eth0
    ip -n "$ns" link set eth0 up
    ip -n "$ns" link set lo up
  done
  log "network $SUBNET.0/24: controller $SUBNET.1, nodes $SUBNET.11..$SUBNET.$((10 + NODES))"
}

remove_network() {
  [ -f "$S/network" ] || return 0
  local kind name pid
  while read -r kind name; do
    case "$kind" in
    netns)
      # whatever still runs in the namespace (the steps of a crashed node) goes with it
      for pid in $(ip netns pids "$name" 2>/dev/null); do kill -KILL "$pid" 2>/dev/null || true; done
      ip netns del "$name" 2>/dev/null || true
      ;;
    link) ip link del "$name" 2>/dev/null || true ;;
    esac
  done < <(tac "$S/network")
  rm -f "$S/network"
}

# Crashes node NAME (n1..nN): SIGKILL to every process in its namespace, slurmd and the job
# steps it runs, with no chance to tell the controller.
kill_node() {
  local name=$1 ns pids
  [ "$NODES" -ge 2 ] || die "kill-node needs a cluster started with NODES >= 2"
  case "$name" in n[0-9]*) ;; *) die "no node '$name' (n1..n$NODES)" ;; esac
  ns=$NET-${name}
  ip netns list | grep -q "^$ns\b" || die "no network namespace $ns for node $name"
  pids=$(ip netns pids "$ns")
  # shellcheck disable=SC2086 # one PID per word
  [ -z "$pids" ] || kill -KILL $pids 2>/dev/null || true
  rm -f "$PIDS/slurmd-$name.pid"
  log "node $name crashed: killed $(wc -w <<<"$pids") processes"
}

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
  local f
  for f in "$PIDS"/slurmd*.pid; do stop_pidfile "$f"; done
  stop_pidfile "$PIDS/slurmctld.pid"
  stop_stray_steps
  stop_pidfile "$PIDS/munged.pid"
  remove_network
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
  local sockdir=$1 cpus mem_mb controller=localhost i
  cpus=$(nproc)
  # RealMemory above what slurmd detects drains the node.
  mem_mb=$(($(awk '/MemTotal/ {print int($2/1024)}' /proc/meminfo) * 8 / 10))
  if [ "$NODES" -ge 2 ]; then
    # the machine's cores and memory shared out; the nodes reach the controller on the bridge
    cpus=$(((cpus + NODES - 1) / NODES))
    mem_mb=$((mem_mb / NODES))
    controller="localhost($SUBNET.1)"
  fi
  cat >"$SLURM_CONF" <<EOF
# generated by scripts/slurm/local-cluster.sh: $NODES node(s), no cgroups, no accounting database
ClusterName=dbce-selftest
SlurmctldHost=$controller
SlurmctldPort=${SLURMCTLD_PORT:-6817}
SlurmdPort=${SLURMD_PORT:-6818}
AuthType=auth/munge
AuthInfo=socket=$sockdir/munge.socket
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$S/state
SlurmdSpoolDir=$S/spool/%n
SlurmctldPidFile=$S/state/slurmctld.pid
SlurmdPidFile=$S/spool/slurmd-%n.pid
SlurmctldLogFile=$S/log/slurmctld.log
SlurmdLogFile=$S/log/slurmd-%n.log
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
# a crashed node is declared DOWN after 10 s without an answer; its jobs are not requeued by
# Slurm (they fail with NODE_FAIL and resubmit.sh takes them up, as a user would)
SlurmdTimeout=10
JobRequeue=0
EOF
  if [ "$NODES" = 1 ]; then
    echo "NodeName=localhost CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN" >>"$SLURM_CONF"
  else
    for i in $(seq 1 "$NODES"); do
      echo "NodeName=n$i NodeAddr=$SUBNET.$((10 + i)) CPUs=$cpus RealMemory=$mem_mb State=UNKNOWN" >>"$SLURM_CONF"
    done
  fi
  echo "PartitionName=selftest Nodes=$(node_names | paste -sd,) Default=YES MaxTime=30 State=UP" >>"$SLURM_CONF"
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
  if [ "$NODES" -ge 2 ]; then create_network; fi
  write_conf "$sockdir"
  local node nodes
  nodes=$(node_names)
  for node in $nodes; do mkdir -p "$S/spool/$node"; done
  slurmctld -D -i >"$S/log/slurmctld.out" 2>&1 &
  echo $! >"$PIDS/slurmctld.pid"
  for node in $nodes; do
    if [ "$NODES" = 1 ]; then
      slurmd -D -N "$node" >"$S/log/slurmd-$node.out" 2>&1 &
    else
      # nsenter enters the network namespace only (`ip netns exec` would also remount /sys,
      # hiding the cgroup file system slurmd looks for) and execs slurmd: $! is slurmd's PID
      nsenter --net="/run/netns/$NET-$node" slurmd -D -N "$node" >"$S/log/slurmd-$node.out" 2>&1 &
    fi
    echo $! >"$PIDS/slurmd-$node.pid"
  done
  for _ in $(seq 1 150); do
    for d in slurmctld $(sed 's/^/slurmd-/' <<<"$nodes"); do
      alive "$d" || {
        tail -n 20 "$S/log/${d%%-*}"*.log "$S/log/$d.out" >&2 || true
        die "$d exited"
      }
    done
    state=$(timeout 5 sinfo -h -N -o '%T' 2>/dev/null | sort -u | paste -sd, || true)
    if [ "$state" = idle ] && [ "$(timeout 5 sinfo -h -N -o '%N' | wc -l)" = "$NODES" ]; then
      log "cluster ready: $(sinfo -h -o '%P %D %T %C %N'); export SLURM_CONF=$SLURM_CONF"
      return
    fi
    sleep 0.2
  done
  tail -n 20 "$S/log/slurmctld.log" "$S/log/"slurmd-*.log >&2 || true
  die "nodes never became idle (states: ${state:-none})"
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
kill-node)
  [ $# -eq 3 ] || usage
  kill_node "$3"
  ;;
*) usage ;;
esac
