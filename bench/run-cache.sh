#!/usr/bin/env bash
# Cache benchmark (issue #12, "Remember work"), taskgraph and its peers side by side in one run:
#   1. pipelines/photos.yaml: the second run, nothing changed, against the first (empty cache);
#   2. a random DAG of BENCH_NODES file-producing steps (bench/random_dag.py, fixed seed), the
#      identical graph for taskgraph, ninja, make and Snakemake, each in its own directory:
#      (c) cold runs (taskgraph with an empty cache and with --no-cache), then
#      (a) unchanged re-runs (no-op) and (b) re-runs after one source file's content changed;
#   3. the store: `store-bench gc --entries 100000` and `store-bench lookup --entries 10000`.
# Every tool gets 2 jobs. Times are wall-clock medians of RUNS runs (COLD_RUNS for cold runs),
# the tools alternating run by run, with ratios to ninja's; "outputs written" counts out/ files
# newer than the run's start. Missing peers are installed (apt-get, pip) when possible, otherwise
# skipped. Snakemake's cold run had done 11 % of 10,000 steps after six minutes: above
# SNAKEMAKE_COLD_MAX steps (2,000) it is skipped and its directory gets another tool's outputs
# (copied with their times).
# Progress goes to standard error, the tables to standard output.
#   BENCH_NODES=1000 bench/run-cache.sh   # quick check
#   SNAKEMAKE=0 bench/run-cache.sh        # without Snakemake (the slowest peer by far)
#   TASKGRAPH=path/to/taskgraph bench/run-cache.sh   # that binary instead of a release build
#   SETTLE=0 bench/run-cache.sh           # no wait after removing an earlier run's files
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
RUNS=${RUNS:-5}
COLD_RUNS=${COLD_RUNS:-3}
NODES=${BENCH_NODES:-10000}
SEED=${SEED:-1}
SNAKEMAKE=${SNAKEMAKE:-1}
SNAKEMAKE_COLD_MAX=${SNAKEMAKE_COLD_MAX:-2000}
JOBS=2
work=$root/bench/.work/cache
# Files removed between timed runs are moved aside, and removed when the bench ends. On ext4
# without a journal (this VM's disk), every new inode's allocation passes over the inodes freed
# in the last minute, reading each (fs/ext4/ialloc.c, recently_deleted): a run started right
# after `rm -rf` of the last run's 30,000 files paid for that removal in every file it created
# (bench/HISTORY.md, "round 7"). A removal at the start is waited out for the same reason.
SETTLE=${SETTLE:-61}
if [[ -e $work ]]; then
  rm -rf "$work" && sync
  echo "waiting $SETTLE s (SETTLE): ext4 without a journal passes over inodes freed in the last minute" >&2
  sleep "$SETTLE"
fi
mkdir -p "$work"
trash=$work/removed
trap 'rm -rf "$trash"' EXIT
source "$root/bench/set-aside.sh"

bin=$(swift build -c release --show-bin-path)
if [[ -n ${TASKGRAPH:-} ]]; then
  tg=$TASKGRAPH
else
  swift build -c release --product taskgraph >/dev/null
  tg=$bin/taskgraph
fi

# --- peers -------------------------------------------------------------------------------------
# have TOOL: whether TOOL runs here, installing it first when it is missing.
have() {
  command -v "$1" >/dev/null 2>&1 && return 0
  case $1 in
    ninja | make)
      local package=$1; [[ $1 == ninja ]] && package=ninja-build
      [[ $(id -u) == 0 ]] && apt-get install -y "$package" >/dev/null 2>&1 ;;
    snakemake) python3 -m pip install -q snakemake >/dev/null 2>&1 && hash -r ;;
  esac
  command -v "$1" >/dev/null 2>&1
}
peers=()
for peer in ninja make snakemake; do
  if [[ $peer == snakemake && $SNAKEMAKE == 0 ]]; then
    echo "snakemake: skipped (SNAKEMAKE=0)"
  elif have "$peer"; then
    peers+=("$peer")
  else
    echo "$peer: not installed and could not be installed; skipped"
  fi
done
# taskgraph's own cache: built on other branches until issue #12 is merged.
tg_cache=1
if ! "$tg" run --help 2>&1 | grep -q -- '--cache-dir'; then
  tg_cache=0
  echo "taskgraph: this build has no --cache-dir; taskgraph rows skipped"
fi

# --- measuring ---------------------------------------------------------------------------------
# run_in NAME DIR CMD...: runs CMD in DIR (its output to $work/last.log) and adds its wall time,
# outputs written and peak RSS to NAME's samples; stops the benchmark when CMD fails.
run_in() {
  local name=$1 dir=$2 start end; shift 2
  echo "  $name: $*" >&2
  touch "$dir/.start" && sleep 0.02   # file times tick in jiffies: outputs must be strictly newer
  start=$(date +%s%N)
  (cd "$dir" && /usr/bin/time -f "%M" -o "$work/rss.txt" "$@") >"$work/last.log" 2>&1 || {
    echo "failed in $dir: $*" >&2; tail -n 5 "$work/last.log" >&2; exit 1; }
  end=$(date +%s%N)
  awk -v ns=$((end - start)) 'BEGIN {printf "%.4f\n", ns / 1e9}' >>"$work/$name.s"
  find "$dir/out" -type f -newer "$dir/.start" 2>/dev/null | wc -l >>"$work/$name.w"
  tail -n 1 "$work/rss.txt" >>"$work/$name.m"
}
median() { sort -n | awk '{a[NR]=$1} END {if (NR) print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
# row NAME LABEL BASE: a table row of NAME's medians, with its time divided by BASE's
row() {
  [[ -s $work/$1.s ]] || return 0
  local base="-"; [[ -s $work/$3.s ]] && base=$(median <"$work/$3.s")
  awk -v l="$2" -v s="$(median <"$work/$1.s")" -v lo="$(sort -n "$work/$1.s" | head -n 1)" \
    -v hi="$(sort -n "$work/$1.s" | tail -n 1)" -v w="$(median <"$work/$1.w")" -v m="$(median <"$work/$1.m")" \
    -v b="$base" 'BEGIN {
      ratio = (b == "-" || b == 0) ? "-" : sprintf("%.2f×", s / b)
      printf "| %s | %.3f s | %.3f-%.3f s | %d | %.0f MiB | %s |\n", l, s, lo, hi, w, m / 1024, ratio }'
}
header() {
  echo "| $1 | median | range | outputs written | peak RSS | ÷ $2 |"
  echo "|---|---|---|---|---|---|"
}
# verdict LABEL NAME BASE COMPARISON TARGET: "LABEL: 1.23× (target COMPARISON TARGET×): met"
verdict() {
  [[ -s $work/$2.s && -s $work/$3.s ]] || return 0
  awk -v l="$1" -v a="$(median <"$work/$2.s")" -v b="$(median <"$work/$3.s")" -v c="$4" -v t="$5" 'BEGIN {
    r = a / b; met = (c == "≥" ? r >= t : r <= t)
    printf "- %s: %.3f× (target %s %s×): %s\n", l, r, c, t, met ? "met" : "NOT met" }'
}

echo
echo "machine: $(nproc) cores, load average $(cut -d' ' -f1-3 /proc/loadavg) at the start; $(date -u +%Y-%m-%d); commit $(git rev-parse --short HEAD)"
echo "taskgraph $tg; ninja $(ninja --version 2>/dev/null || echo -); $(make --version 2>/dev/null | head -n 1 || echo make -); snakemake $(snakemake --version 2>/dev/null || echo -)"

# --- 1. photos.yaml ----------------------------------------------------------------------------
if [[ $tg_cache == 1 ]]; then
  mkdir -p "$work/photos"
  for _ in $(seq "$RUNS"); do
    set_aside "$work/photos/out" "$work/photos/cache"
    mkdir -p "$work/photos/out"
    for name in photos-first photos-second; do
      run_in "$name" "$work/photos" "$tg" run "$root/pipelines/photos.yaml" --jobs "$JOBS" \
        --output "$work/photos/out" --cache-dir "$work/photos/cache" --no-progress
    done
  done
  echo
  echo "### pipelines/photos.yaml, nothing changed (median of $RUNS)"
  echo
  header "run" "second run"
  row photos-first "first run (empty cache)" photos-second
  row photos-second "second run (nothing changed)" photos-second
  echo
  verdict "first ÷ second" photos-first photos-second "≥" 5
fi

# --- 2. the random DAG -------------------------------------------------------------------------
dag=$work/dag
read -r _ leaf dependents < <(python3 bench/random_dag.py --nodes "$NODES" --seed "$SEED" "$dag")
tools=()
if [[ $tg_cache == 1 ]]; then
  if (cd "$dag/taskgraph" && "$tg" validate dag.yaml >"$work/last.log" 2>&1); then
    tools+=(taskgraph)
  else
    echo "taskgraph: the DAG pipeline does not validate on this build (exec inputs:/outputs:?); taskgraph rows skipped:"
    head -n 3 "$work/last.log" | sed 's/^/    /'
  fi
fi
tools+=("${peers[@]}")

# run_tool NAME TOOL: run_in with the command line that brings TOOL's directory up to date
run_tool() {
  local name=$1 dir=$dag/${2%-nocache}
  case $2 in
    taskgraph) run_in "$name" "$dir" "$tg" run dag.yaml --jobs "$JOBS" --output tgout --cache-dir .tgcache --no-progress ;;
    taskgraph-nocache) run_in "$name" "$dir" "$tg" run dag.yaml --jobs "$JOBS" --output tgout --no-cache --no-progress ;;
    ninja) run_in "$name" "$dir" ninja -j"$JOBS" ;;
    make) run_in "$name" "$dir" make -j"$JOBS" ;;
    make-q) run_in "$name" "$dag/make" make -q ;;
    snakemake) run_in "$name" "$dir" snakemake -c"$JOBS" ;;
    floor) run_in "$name" "$dag/${tools[0]}" true ;;
  esac
}
# clean TOOL: removes TOOL's outputs and everything it remembers of earlier runs
clean() {
  local dir=$dag/${1%-nocache}
  set_aside "$dir/out" "$dir/tgout" "$dir/.tgcache" "$dir/.ninja_log" "$dir/.ninja_deps" "$dir/.snakemake"
  mkdir -p "$dir/out"
}
# (c) Cold: --no-cache before the cached run, so the cached run's store is what stays.
cold_order=()
for tool in "${tools[@]}"; do
  [[ $tool == taskgraph ]] && cold_order+=(taskgraph-nocache)
  cold_order+=("$tool")
done
snakemake_cold=1
[[ $NODES -gt $SNAKEMAKE_COLD_MAX && ${tools[0]} != snakemake ]] && snakemake_cold=0
echo "cold runs" >&2
for run in $(seq "$COLD_RUNS"); do
  for tool in "${cold_order[@]}"; do
    # Snakemake's cold run takes minutes even at 1,000 steps: once is enough.
    [[ $tool == snakemake && ($run -gt 1 || $snakemake_cold == 0) ]] && continue
    clean "$tool"
    run_tool "cold-$tool" "$tool"
  done
done
if [[ " ${tools[*]} " == *" snakemake "* && $snakemake_cold == 0 ]]; then
  clean snakemake
  cp -rp "$dag/${tools[0]}/out/." "$dag/snakemake/out/"
fi
# Every tool must have written the same files.
for tool in "${tools[@]:1}"; do
  diff -rq "$dag/${tools[0]}/out" "$dag/$tool/out" >/dev/null || { echo "outputs of ${tools[0]} and $tool differ" >&2; exit 1; }
done

# (a) No-op and (b) one source changed, the tools alternating.
noop_order=("${tools[@]}")
[[ " ${tools[*]} " == *" make "* ]] && noop_order+=(make-q)
noop_order+=(floor)  # what the harness itself costs
echo "no-op runs and runs after a change" >&2
for run in $(seq "$RUNS"); do
  for tool in "${noop_order[@]}"; do
    [[ $tool == snakemake && $run -gt 2 ]] && continue   # about as slow as its cold run would suggest
    run_tool "noop-$tool" "$tool"
  done
  for tool in "${tools[@]}"; do
    echo "changed in run $run" >>"$dag/$tool/$leaf"
    [[ $tool == snakemake && $run -gt 2 ]] && { (cd "$dag/$tool" && snakemake -c"$JOBS" >/dev/null 2>&1); continue; }
    run_tool "touch-$tool" "$tool"
  done
done
for tool in "${tools[@]:1}"; do
  diff -rq "$dag/${tools[0]}/out" "$dag/$tool/out" >/dev/null || { echo "outputs of ${tools[0]} and $tool differ" >&2; exit 1; }
done

# Ratios are to ninja, the reference of the targets (to taskgraph without ninja).
base=ninja; [[ " ${tools[*]} " == *" ninja "* ]] || base=${tools[0]}
label() {
  case $1 in
    taskgraph) echo "taskgraph run --jobs 2 (cache)" ;;
    taskgraph-nocache) echo "taskgraph run --jobs 2 --no-cache" ;;
    ninja) echo "ninja -j2" ;;
    make) echo "make -j2" ;;
    make-q) echo "make -q" ;;
    snakemake) echo "snakemake -c2" ;;
    floor) echo "\`true\` (the harness's own cost)" ;;
  esac
}
echo
echo "### Random DAG: $NODES steps (seed $SEED), each \`md5sum <inputs> > out/n<i>.txt\`"
echo
echo "(a) Nothing changed (median of $RUNS; Snakemake: of at most 2)"
echo
header "tool" "$base"
for tool in "${noop_order[@]}"; do row "noop-$tool" "$(label "$tool")" "noop-$base"; done
echo
echo "(b) One source changed ($leaf: $dependents steps depend on it, itself included; median of $RUNS)"
echo
header "tool" "$base"
for tool in "${tools[@]}"; do row "touch-$tool" "$(label "$tool")" "touch-$base"; done
echo
if [[ $snakemake_cold == 1 ]]; then
  echo "(c) Cold: nothing built, nothing remembered (median of $COLD_RUNS; Snakemake: 1 run)"
else
  echo "(c) Cold: nothing built, nothing remembered (median of $COLD_RUNS; Snakemake not run above $SNAKEMAKE_COLD_MAX steps: its outputs were copied from ${tools[0]}'s)"
fi
echo
header "tool" "$base"
for tool in "${cold_order[@]}"; do row "cold-$tool" "$(label "$tool")" "cold-$base"; done
echo
verdict "no-op, taskgraph ÷ ninja" noop-taskgraph noop-ninja "≤" 2
verdict "no-op, make -j2 ÷ taskgraph" noop-make noop-taskgraph "≥" 1
verdict "no-op, snakemake ÷ taskgraph" noop-snakemake noop-taskgraph "≥" 1
verdict "one source changed, taskgraph ÷ ninja" touch-taskgraph touch-ninja "≤" 2
verdict "cold, cache ÷ --no-cache" cold-taskgraph cold-taskgraph-nocache "≤" 1.15

# --- 3. the store ------------------------------------------------------------------------------
echo
echo "### Store"
echo
if grep -q '"store-bench"' Package.swift; then swift build -c release --product store-bench >/dev/null; fi
if [[ -x $bin/store-bench ]]; then
  echo "    \$ store-bench gc --entries 100000   (target: under 2 s)"
  "$bin/store-bench" gc --entries 100000 | sed 's/^/    /'
  echo "    \$ store-bench lookup --entries 10000"
  "$bin/store-bench" lookup --entries 10000 | sed 's/^/    /'
else
  echo "store-bench not built yet"
fi
