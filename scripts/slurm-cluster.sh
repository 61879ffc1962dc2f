#!/usr/bin/env bash
# A single-node Slurm cluster on 127.0.0.1, for tests and benchmarks (README, "Running on a Slurm
# cluster"). Debian's slurm-wlm and munge (scripts/setup.sh installs them); no systemd: munged,
# slurmctld and slurmd run as background processes, with every file under one directory.
#
#   scripts/slurm-cluster.sh start    # prints `export SLURM_CONF=…`; clients need that variable
#   scripts/slurm-cluster.sh status   # squeue's view, exit 1 when the cluster does not answer
#   scripts/slurm-cluster.sh stop     # ends the daemons (and so every job), removes the directory
#
# TASKGRAPH_SLURM_DIR (default /tmp/taskgraph-slurm) is the directory; TASKGRAPH_SLURM_PORT
# (default 6817) the controller's port, the node daemon's is the next one. Starting a cluster
# that already answers does nothing. Jobs run as the user who started the cluster.
set -euo pipefail

dir=${TASKGRAPH_SLURM_DIR:-/tmp/taskgraph-slurm}
port=${TASKGRAPH_SLURM_PORT:-6817}
conf=$dir/slurm.conf
export SLURM_CONF=$conf

fail() {
  echo "slurm-cluster: $*" >&2
  exit 1
}

answers() {
  [[ -f $conf ]] && timeout 5 sinfo --noheader --format=%T 2>/dev/null | grep -Eq '^(idle|mixed|allocated|completing)'
}

# Replaces the (sub)shell it runs in with "$@", keeping no descriptor of ours but its standard
# streams, which go to /dev/null or the file $1: a caller waiting for this script (a test's
# process library watches a descriptor it hands its children) is not kept waiting by the daemons.
# Call it in a subshell: `detached FILE command &` or `(detached FILE command)`.
detached() {
  local out=$1
  shift
  for fd in /proc/$BASHPID/fd/*; do
    fd=${fd##*/}
    if ((fd > 2)); then eval "exec $fd>&-" 2>/dev/null || true; fi
  done
  exec "$@" </dev/null >>"$out" 2>&1
}

stop_pidfile() {
  local file=$1
  [[ -f $file ]] || return 0
  local pid
  pid=$(cat "$file")
  if kill "$pid" 2>/dev/null; then
    for _ in $(seq 50); do
      kill -0 "$pid" 2>/dev/null || return 0
      sleep 0.1
    done
    kill -9 "$pid" 2>/dev/null || true
  fi
}

write_conf() {
  local user cpus memory
  user=$(id -un)
  cpus=$(nproc)
  memory=$(awk '/MemTotal/ { print int($2 / 1024 / 2) }' /proc/meminfo)
  cat >"$conf" <<EOF
ClusterName=taskgraph
SlurmctldHost=localhost(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
SlurmUser=$user
SlurmdUser=$user
AuthType=auth/munge
CredType=cred/munge
AuthInfo=socket=$dir/munge.socket
StateSaveLocation=$dir/state
SlurmdSpoolDir=$dir/spool
SlurmctldPidFile=$dir/slurmctld.pid
SlurmdPidFile=$dir/slurmd.pid
SlurmctldLogFile=$dir/slurmctld.log
SlurmdLogFile=$dir/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/linux
JobAcctGatherFrequency=task=1
JobAcctGatherParams=OverMemoryKill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core_Memory
MpiDefault=none
ReturnToService=2
MinJobAge=300
DefMemPerCPU=256
OverTimeLimit=0
KillWait=2
InactiveLimit=0
MessageTimeout=10
SchedulerParameters=sched_interval=1
NodeName=localhost NodeAddr=127.0.0.1 CPUs=$cpus RealMemory=$memory State=UNKNOWN
PartitionName=debug Nodes=localhost Default=YES MaxTime=INFINITE State=UP
EOF
}

start() {
  if answers; then
    echo "export SLURM_CONF=$conf"
    return 0
  fi
  for program in munged mungekey slurmctld slurmd sbatch; do
    command -v "$program" >/dev/null || fail "$program is not installed (scripts/setup.sh installs slurm-wlm and munge)"
  done
  stop_daemons
  rm -rf "$dir"
  mkdir -p "$dir/state" "$dir/spool"
  chmod 700 "$dir"
  mungekey --create --keyfile="$dir/munge.key" --force >/dev/null 2>&1 || fail "mungekey could not create $dir/munge.key"
  chmod 600 "$dir/munge.key"
  (detached /dev/null munged --force --key-file="$dir/munge.key" --socket="$dir/munge.socket" \
    --pid-file="$dir/munged.pid" --log-file="$dir/munged.log" --seed-file="$dir/munged.seed") ||
    fail "munged did not start: $(tail -n 3 "$dir/munged.log" 2>/dev/null)"
  write_conf
  detached "$dir/slurmctld.out" slurmctld -D -i -f "$conf" &
  detached "$dir/slurmd.out" slurmd -D -N localhost -f "$conf" &
  for _ in $(seq 300); do
    if answers; then
      echo "export SLURM_CONF=$conf"
      return 0
    fi
    sleep 0.2
  done
  fail "the cluster did not come up within 60 s; see $dir/slurmctld.log and $dir/slurmd.log: $(tail -n 3 "$dir/slurmctld.log" "$dir/slurmd.log" 2>/dev/null | tr '\n' ' ')"
}

stop_daemons() {
  stop_pidfile "$dir/slurmd.pid"
  stop_pidfile "$dir/slurmctld.pid"
  stop_pidfile "$dir/munged.pid"
}

case ${1:-} in
  start) start ;;
  stop)
    stop_daemons
    rm -rf "$dir"
    ;;
  status)
    answers || fail "no cluster answers at $conf"
    squeue
    ;;
  *) fail "usage: scripts/slurm-cluster.sh start|stop|status" ;;
esac
