#!/usr/bin/env bash
# Many-inputs benchmark (issue #34): one step whose declared inputs are N files, and how long each
# tool takes to notice that one of them changed, taskgraph, ninja and make side by side:
#   taskgraph: one `exec` with `inputs: [PATTERN]` (src/**/*.txt by default: every file);
#   ninja:     one edge with the N files as implicit inputs (`build out/ninja.stamp: stamp | …`);
#   make:      one rule whose prerequisites are `$(wildcard src/*/*.txt)`, up to MAKE_MAX inputs
#              (3,000 by default: make took 54-72 s per run at 50,000, so 11 runs take minutes).
# The three share one tree of N files (src/dNNN/fNNNNN.txt, 1,000 to a directory), and each step
# only touches its stamp, so what is timed is checking the inputs, not the work. For each N
# (BENCH_INPUTS, "3000 30000 50000" by default): one cold run per tool (empty cache, no stamp),
# then RUNS rounds, each appending a line to one file (another file each round) and running
# every tool once (one changed), then every tool once more (nothing changed). Wall-clock medians
# of RUNS runs, with ratios to ninja's, and the median CPU time (user + system, all threads: on a
# shared machine wall time waits for the other work, CPU time much less); "ran" counts the runs
# whose stamp was written (each changed run must write it, each unchanged one must not: the
# script stops otherwise).
# Progress goes to standard error, the tables to standard output.
#   bench/run-inputs.sh                          # RUNS=5 BENCH_INPUTS="3000 30000 50000"
#   BENCH_INPUTS=50000 RUNS=9 bench/run-inputs.sh
#   PATTERN='src/*/*.txt' bench/run-inputs.sh    # another pattern for the taskgraph step
#   TASKGRAPH=path/to/taskgraph bench/run-inputs.sh   # that binary instead of a release build
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
RUNS=${RUNS:-5}
SIZES=${BENCH_INPUTS:-"3000 30000 50000"}
PATTERN=${PATTERN:-'src/**/*.txt'}
MAKE_MAX=${MAKE_MAX:-3000}
TARGET_INPUTS=50000
TARGET_SECONDS=0.5
work=$root/bench/.work/inputs
mkdir -p "$work"

if [[ -n ${TASKGRAPH:-} ]]; then
  tg=$TASKGRAPH
else
  swift build -c release --product taskgraph >/dev/null
  tg=$(swift build -c release --show-bin-path)/taskgraph
fi
tools=(taskgraph)
for peer in ninja make; do
  if command -v "$peer" >/dev/null 2>&1; then
    tools+=("$peer")
  else
    echo "$peer: not installed (apt-get install ninja-build make); skipped"
  fi
done

# make_tree DIR N: DIR/src with N files of one line each, and the three tools' build files
make_tree() {
  python3 - "$1" "$2" "$PATTERN" <<'PY'
import os, sys, time
directory, count, pattern = sys.argv[1], int(sys.argv[2]), sys.argv[3]
names = [f"src/d{i // 1000:03d}/f{i:05d}.txt" for i in range(count)]
existing = sum(len(files) for _, _, files in os.walk(os.path.join(directory, "src")))
if existing != count:
    for name in names:
        os.makedirs(os.path.join(directory, os.path.dirname(name)), exist_ok=True)
        with open(os.path.join(directory, name), "w") as file:
            file.write(f"{name}\n")
    # A minute old: files changed in the last 2 s are hashed again on every run (racy clean).
    old = time.time() - 60
    for name in names:
        os.utime(os.path.join(directory, name), (old, old))
with open(os.path.join(directory, "inputs.yaml"), "w") as file:
    file.write(f"""version: 1
name: inputs
operations:
  stamp:
    op: exec
    command: [touch, out/taskgraph.stamp]
    inputs: ['{pattern}']
    outputs: [out/taskgraph.stamp]
""")
with open(os.path.join(directory, "build.ninja"), "w") as file:
    file.write("rule stamp\n  command = touch $out\nbuild out/ninja.stamp: stamp | " + " ".join(names) + "\n")
with open(os.path.join(directory, "Makefile"), "w") as file:
    file.write("out/make.stamp: $(wildcard src/*/*.txt)\n\ttouch $@\n")
PY
}

# run_tool SAMPLES TOOL DIR: runs TOOL in DIR, adding its wall time to SAMPLES.s, its CPU time to
# SAMPLES.cpu and whether it wrote its stamp (1 or 0) to SAMPLES.ran; stops the benchmark when
# TOOL fails
run_tool() {
  local samples=$1 tool=$2 dir=$3 start end stamp
  stamp=$dir/out/$tool.stamp
  touch "$dir/.start" && sleep 0.02   # file times tick in jiffies: the stamp must be strictly newer
  start=$(date +%s%N)
  case $tool in
    taskgraph) set -- "$tg" run inputs.yaml --jobs 2 --output tgout --cache-dir .tgcache --no-progress ;;
    ninja) set -- ninja -j2 ;;
    make) set -- make -j2 ;;
  esac
  (cd "$dir" && /usr/bin/time -f "%U %S" -o "$work/cpu.txt" "$@") >"$work/last.log" 2>&1 || {
    echo "$tool failed in $dir" >&2; tail -n 5 "$work/last.log" >&2; exit 1; }
  end=$(date +%s%N)
  awk -v ns=$((end - start)) 'BEGIN {printf "%.4f\n", ns / 1e9}' >>"$work/$samples.s"
  tail -n 1 "$work/cpu.txt" | awk '{printf "%.2f\n", $1 + $2}' >>"$work/$samples.cpu"
  if [[ $stamp -nt $dir/.start ]]; then echo 1; else echo 0; fi >>"$work/$samples.ran"
}
total() { awk '{t += $1} END {print t + 0}'; }
median() { sort -n | awk '{a[NR]=$1} END {if (NR) print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# row SAMPLES LABEL BASE: a table row of SAMPLES's median and range, its time divided by BASE's
row() {
  [[ -s $work/$1.s ]] || return 0
  local base="-"; [[ -s $work/$3.s ]] && base=$(median <"$work/$3.s")
  awk -v l="$2" -v s="$(median <"$work/$1.s")" -v lo="$(sort -n "$work/$1.s" | head -n 1)" \
    -v hi="$(sort -n "$work/$1.s" | tail -n 1)" -v ran="$(total <"$work/$1.ran")" \
    -v n="$(wc -l <"$work/$1.s")" -v b="$base" -v cpu="$(median <"$work/$1.cpu")" 'BEGIN {
      ratio = (b == "-" || b == 0) ? "-" : sprintf("%.2f×", s / b)
      printf "| %s | %.3f s | %.3f-%.3f s | %.2f s | %d of %d | %s |\n", l, s, lo, hi, cpu, ran, n, ratio }'
}
# expect_ran SAMPLES COUNT: stops the benchmark unless SAMPLES's runs wrote their stamp COUNT times
expect_ran() {
  local ran; ran=$(total <"$work/$1.ran")
  [[ $ran == "$2" ]] || { echo "$1: the stamp was written in $ran runs, expected $2" >&2; exit 1; }
}

echo
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start; $(date -u +%Y-%m-%d); commit $(git rev-parse --short HEAD)"
echo "taskgraph $tg (inputs: ['$PATTERN']); ninja $(ninja --version 2>/dev/null || echo -); $(make --version 2>/dev/null | sed -n 1p)"
verdicts=()
for inputs in $SIZES; do
  dir=$work/n$inputs
  echo "$inputs inputs: making the tree" >&2
  mkdir -p "$dir"
  make_tree "$dir" "$inputs"
  rm -rf "$dir/out" "$dir/tgout" "$dir/.tgcache" "$dir/.ninja_log" "$dir/.ninja_deps" "$work"/*.s "$work"/*.cpu "$work"/*.ran
  mkdir -p "$dir/out"
  echo "$inputs inputs: cold runs" >&2
  sized=()
  for tool in "${tools[@]}"; do
    [[ $tool == make && $inputs -gt $MAKE_MAX ]] && { echo "make: skipped above MAKE_MAX=$MAKE_MAX inputs" >&2; continue; }
    sized+=("$tool")
  done
  for tool in "${sized[@]}"; do run_tool "cold-$tool" "$tool" "$dir"; done
  echo "$inputs inputs: $RUNS rounds of one changed, nothing changed" >&2
  for round in $(seq "$RUNS"); do
    changed=$(printf 'src/d%03d/f%05d.txt' $(((round * 7919 % inputs) / 1000)) $((round * 7919 % inputs)))
    echo "changed in round $round" >>"$dir/$changed"
    for tool in "${sized[@]}"; do run_tool "changed-$tool" "$tool" "$dir"; done
    for tool in "${sized[@]}"; do run_tool "unchanged-$tool" "$tool" "$dir"; done
  done
  for tool in "${sized[@]}"; do
    expect_ran "changed-$tool" "$RUNS"
    expect_ran "unchanged-$tool" 0
  done
  base=ninja; [[ " ${sized[*]} " == *" ninja "* ]] || base=taskgraph
  echo
  echo "### $inputs inputs (median of $RUNS; cold: 1 run)"
  echo
  echo "| run | median | range | CPU | ran | ÷ $base |"
  echo "|---|---|---|---|---|---|"
  for kind in changed unchanged cold; do
    for tool in "${sized[@]}"; do
      case $kind in
        changed) label="one changed" ;;
        unchanged) label="nothing changed" ;;
        cold) label="cold" ;;
      esac
      row "$kind-$tool" "$tool, $label" "$kind-$base"
    done
  done
  if [[ $inputs == "$TARGET_INPUTS" ]]; then
    verdicts+=("$(awk -v s="$(median <"$work/changed-taskgraph.s")" -v t="$TARGET_SECONDS" -v n="$inputs" 'BEGIN {
      printf "- taskgraph, %d inputs, one changed: %.3f s (target ≤ %s s): %s", n, s, t, s <= t ? "met" : "NOT met" }')")
  fi
done
echo
for verdict in "${verdicts[@]}"; do echo "$verdict"; done
