#!/usr/bin/env bash
# Runner benchmark (issue #16): taskgraph against ninja, make, Snakemake and the `xargs -P` floor
# on identical generated graphs of `touch` tasks (bench/runner_graphs.py: chain, fan-out/fan-in,
# random with 3 edges per task), every tool with JOBS jobs, each task a real `touch` process.
#
# Every run starts cold: no outputs, nothing remembered (taskgraph: an empty --cache-dir; ninja:
# no .ninja_log; Snakemake: no .snakemake). Tools alternate run by run; times are medians of RUNS
# runs. Columns: wall time, user+sys CPU of the tool and its children, peak RSS of the tool
# (/usr/bin/time), wall time per task, and the overhead per task over the floor,
# (wall - floor wall) / tasks, and in CPU time, (user+sys - floor user+sys) / tasks, which other
# load on the machine disturbs less than wall time. The floor is `xargs -P JOBS -n 1 touch` over the task list, no
# dependencies; for the chain, whose tasks cannot overlap, `xargs -P 1`.
#
#   bench/run-runners.sh          # ~4 min: 2,000 tasks of each shape, 10,000 random; Snakemake once
#   bench/run-runners.sh --long   # 2,000 and 10,000 tasks of each shape, RUNS=5
#   TOOLS="taskgraph make" RUNS=3 bench/run-runners.sh
#   TASKGRAPH_BASELINE=/tmp/taskgraph-before bench/run-runners.sh   # adds rows for that build
# taskgraph-lint is the same run with --lint: every touch under the file-access tracer (the graph
# declares no outputs, so each task also gets its warning: it wrote out/nI undeclared).
# Progress goes to standard error, the tables to standard output.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
long=0
[[ ${1:-} == --long ]] && long=1
RUNS=${RUNS:-$((long ? 5 : 3))}
JOBS=${JOBS:-2}
# taskgraph-tmpfs: taskgraph with its cache (written for every task) in /dev/shm, to tell the
# cost of spawning from the cost of the store's files on disk.
TOOLS=${TOOLS:-"taskgraph taskgraph-tmpfs taskgraph-lint ninja make snakemake xargs"}
# Snakemake takes 20-40 s for 2,000 tasks: one run of the random graph only, never 10,000 tasks.
SNAKEMAKE_SHAPES=${SNAKEMAKE_SHAPES:-$([[ $long == 1 ]] && echo "chain fan random" || echo random)}
if [[ $long == 1 ]]; then
  CASES=${CASES:-"chain:2000 fan:2000 random:2000 chain:10000 fan:10000 random:10000"}
else
  CASES=${CASES:-"chain:2000 fan:2000 random:2000 random:10000"}
fi
work=$root/bench/.work/runners
rm -rf "$work" && mkdir -p "$work"

# TASKGRAPH=path: that binary instead of this tree's release build (to compare two builds).
if [[ -n ${TASKGRAPH:-} ]]; then
  tg=$TASKGRAPH
else
  swift build -c release --product taskgraph >/dev/null
  # --lint finds its tracer library beside the executable.
  [[ " $TOOLS " == *" taskgraph-lint "* ]] && swift build -c release --product TaskGraphFileTrace >/dev/null
  tg=$(swift build -c release --show-bin-path)/taskgraph
fi

# TASKGRAPH_BASELINE=path: also that build (say, of main), alternating with this one.
baseline=${TASKGRAPH_BASELINE:-}
[[ -n $baseline ]] && TOOLS="baseline baseline-tmpfs $TOOLS"
shm_cache=/dev/shm/taskgraph-runners-cache.$$
trap 'rm -rf "$shm_cache"' EXIT
tools=()
for tool in $TOOLS; do
  case $tool in
    ninja | make | snakemake | xargs)
      if command -v "$tool" >/dev/null 2>&1; then tools+=("$tool"); else echo "$tool: not installed; skipped"; fi ;;
    taskgraph-tmpfs | baseline-tmpfs)
      if [[ -d /dev/shm ]]; then tools+=("$tool"); else echo "$tool: no /dev/shm; skipped"; fi ;;
    *) tools+=("$tool") ;;
  esac
done

# run_in NAME DIR TASKS CMD...: runs CMD in DIR (output to $work/last.log) and appends its wall
# seconds, user+sys seconds and peak KiB to NAME's samples; stops when CMD fails or leaves other
# than TASKS files in out/.
run_in() {
  local name=$1 dir=$2 tasks=$3 start end written; shift 3
  echo "  $name: $*" >&2
  start=$(date +%s%N)
  (cd "$dir" && /usr/bin/time -f "%U %S %M" -o "$work/time.txt" "$@") >"$work/last.log" 2>&1 || {
    echo "failed in $dir: $*" >&2; tail -n 5 "$work/last.log" >&2; exit 1; }
  end=$(date +%s%N)
  written=$(find "$dir/out" -type f | wc -l)
  [[ $written == "$tasks" ]] || { echo "$name wrote $written files, not $tasks" >&2; exit 1; }
  awk -v ns=$((end - start)) '{printf "%.4f %.3f %d\n", ns / 1e9, $1 + $2, $3}' "$work/time.txt" >>"$work/$name.samples"
}
# clean DIR: removes the outputs and everything a tool remembers of earlier runs
clean() {
  rm -rf "$1/out" "$1/tgout" "$1/.tgcache" "$1/.ninja_log" "$1/.ninja_deps" "$1/.snakemake"
  mkdir -p "$1/out"
}
# run_tool NAME TOOL DIR TASKS SHAPE
run_tool() {
  local name=$1 tool=$2 dir=$3 tasks=$4 shape=$5 parallel=$JOBS
  clean "$dir"
  case $tool in
    taskgraph | taskgraph-tmpfs | baseline | baseline-tmpfs)
      local bin=$tg cache=.tgcache
      [[ $tool == baseline* ]] && bin=$baseline
      [[ $tool == *-tmpfs ]] && { cache=$shm_cache; rm -rf "$shm_cache"; }
      run_in "$name" "$dir" "$tasks" "$bin" run dag.yaml --jobs "$JOBS" --output tgout --cache-dir "$cache" --no-progress ;;
    taskgraph-lint)
      run_in "$name" "$dir" "$tasks" "$tg" run dag.yaml --jobs "$JOBS" --output tgout --cache-dir .tgcache --no-progress --lint ;;
    ninja) run_in "$name" "$dir" "$tasks" ninja -j"$JOBS" ;;
    make) run_in "$name" "$dir" "$tasks" make -j"$JOBS" ;;
    snakemake) run_in "$name" "$dir" "$tasks" snakemake -c"$JOBS" --quiet ;;
    xargs)
      [[ $shape == chain ]] && parallel=1
      run_in "$name" "$dir" "$tasks" xargs -a tasks.txt -P "$parallel" -n 1 touch ;;
  esac
}
median() { sort -n | awk '{a[NR]=$1} END {if (NR) print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# column NAME K: the median of column K of NAME's samples
column() { awk -v k="$2" '{print $k}' "$work/$1.samples" | median; }

echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start; $(date -u '+%Y-%m-%d %H:%M') UTC; commit $(git rev-parse --short HEAD)"
echo "ninja $(ninja --version 2>/dev/null || echo -); $(make --version 2>/dev/null | sed -n 1p); snakemake $(snakemake --version 2>/dev/null || echo -); jobs $JOBS; median of $RUNS runs (Snakemake: 1)"
for case in $CASES; do
  shape=${case%:*} tasks=${case#*:}
  dir=$work/$shape-$tasks
  edges=$(python3 bench/runner_graphs.py --shape "$shape" --tasks "$tasks" "$dir")
  echo "$shape, $tasks tasks" >&2
  for run in $(seq "$RUNS"); do
    for tool in "${tools[@]}"; do
      if [[ $tool == snakemake ]]; then
        [[ $run == 1 && $tasks -le 2000 && " $SNAKEMAKE_SHAPES " == *" $shape "* ]] || continue
      fi
      tool_dir=${tool%-tmpfs}; tool_dir=${tool_dir%-lint}; [[ $tool_dir == baseline ]] && tool_dir=taskgraph
      run_tool "$case-$tool" "$tool" "$dir/$tool_dir" "$tasks" "$shape"
    done
  done
  floor=$(column "$case-xargs" 1 2>/dev/null || echo)
  floor_cpu=$(column "$case-xargs" 2 2>/dev/null || echo)
  make_wall=$(column "$case-make" 1 2>/dev/null || echo)
  echo
  echo "### $shape, $tasks tasks ($edges edges)"
  echo
  echo "| tool | wall | range | user+sys | peak RSS | per task | over the floor, per task | CPU over the floor, per task | ÷ floor | ÷ make |"
  echo "|---|---|---|---|---|---|---|---|---|---|"
  for tool in "${tools[@]}"; do
    [[ -s $work/$case-$tool.samples ]] || continue
    label=$tool
    case $tool in
      taskgraph) label="taskgraph run --jobs $JOBS" ;;
      taskgraph-tmpfs) label="taskgraph, cache in /dev/shm" ;;
      taskgraph-lint) label="taskgraph run --jobs $JOBS --lint" ;;
      baseline) label="baseline taskgraph run --jobs $JOBS" ;;
      baseline-tmpfs) label="baseline taskgraph, cache in /dev/shm" ;;
      ninja) label="ninja -j$JOBS" ;;
      make) label="make -j$JOBS" ;;
      snakemake) label="snakemake -c$JOBS" ;;
      xargs) label="xargs -P$([[ $shape == chain ]] && echo 1 || echo "$JOBS") touch (floor)" ;;
    esac
    samples=$work/$case-$tool.samples
    awk -v l="$label" -v n="$tasks" -v w="$(column "$case-$tool" 1)" -v c="$(column "$case-$tool" 2)" \
      -v m="$(column "$case-$tool" 3)" -v lo="$(cut -d' ' -f1 "$samples" | sort -n | head -n 1)" \
      -v hi="$(cut -d' ' -f1 "$samples" | sort -n | tail -n 1)" -v f="$floor" -v fc="$floor_cpu" -v mk="$make_wall" 'BEGIN {
        over = f == "" ? "-" : sprintf("%.0f µs", (w - f) / n * 1e6)
        over_cpu = fc == "" ? "-" : sprintf("%.0f µs", (c - fc) / n * 1e6)
        rf = f == "" ? "-" : sprintf("%.2f×", w / f)
        rm = mk == "" ? "-" : sprintf("%.2f×", w / mk)
        printf "| %s | %.3f s | %.3f-%.3f s | %.2f s | %.1f MiB | %.0f µs | %s | %s | %s | %s |\n",
          l, w, lo, hi, c, m / 1024, w / n * 1e6, over, over_cpu, rf, rm }'
  done
done
echo
echo "load average at the end: $(cut -d' ' -f1-3 /proc/loadavg)"
